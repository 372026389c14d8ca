#!/usr/bin/env python3
"""Recompute a Dou Dizhu deal from its 32-byte seed (docs/doudizhu.md,
"The shuffle"), independently of the server's Go code. The generator and
the bounded draw are those of the mahjong walls, taken from verify_wall.py
beside this file.

    python3 docs/verify_deck.py SEED_HEX
    python3 docs/verify_deck.py --record RECORD.json

With --record it checks a Dou Dizhu native record (tablectl ddz export):
every deal's deck is the shuffle of its revealed seed and its commitment
commits to that seed for the table and the deal's index; once the match
is over (the record carries the server seed and the entropy) the server
seed opens its commitment and every deal seed derives from it and the
entropy. It does not replay the moves: tablectl verify does.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_wall import ChaCha8Rand, commit, round_seed, sha256, table_seed, uniform  # noqa: E402

RANKS = "3456789TJQKA2XD"


def rank(card):
    return RANKS[card // 4] if card < 52 else RANKS[13 + card - 52]


def deck(seed):
    cards = list(range(54))
    rng = ChaCha8Rand(seed)
    for i in range(53, 0, -1):
        j = uniform(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    first = uniform(rng, 3)
    return cards, first


def sorted_ranks(cards):
    return "".join(sorted((rank(c) for c in cards), key=RANKS.index))


def check_record(rec):
    """Returns the problems of a record (empty: it verifies)."""
    problems = []
    chain = None
    if rec.get("server_seed"):
        server = bytes.fromhex(rec["server_seed"])
        if sha256(b"mahjong-authority/server-seed/v1", server).hex() != rec["server_seed_commitment"]:
            problems.append("the server seed does not open its commitment")
        entropy = [bytes.fromhex(e) for e in rec.get("entropy", [])]
        entropy += [b""] * (4 - len(entropy))  # four places; the fourth is empty at three seats
        chain = table_seed(server, entropy)
    for i, d in enumerate(rec["deals"]):
        seed = bytes.fromhex(d["seed"])
        if d["index"] != i:
            problems.append(f"deal {i}: index {d['index']}")
        if commit(seed, rec["table"], i).hex() != d["commitment"]:
            problems.append(f"deal {i}: the seed does not open the commitment")
        if chain is not None and round_seed(chain, i) != seed:
            problems.append(f"deal {i}: the seed does not derive from the server seed and the entropy")
        cards, first = deck(seed)
        hands = [sorted_ranks(cards[17 * s:17 * s + 17]) for s in range(3)]
        if hands != d["hands"] or sorted_ranks(cards[51:]) != d["kitty"] or first != d["first"]:
            problems.append(f"deal {i}: the hands, kitty or first bidder are not the seed's")
    return problems


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--record":
        with open(sys.argv[2]) as f:
            rec = json.load(f)
        problems = check_record(rec)
        for p in problems:
            print("FAILED:", p)
        if problems:
            sys.exit(1)
        chained = "derived from the server seed and the entropy" if rec.get("server_seed") else "(match not over: no server seed yet)"
        print(f"ok: {len(rec['deals'])} deals, each deck its seed's and committed, {chained}")
        return
    if len(sys.argv) != 2 or len(bytes.fromhex(sys.argv[1])) != 32:
        sys.exit(__doc__)
    cards, first = deck(bytes.fromhex(sys.argv[1]))
    print("deck", "".join(rank(c) for c in cards))
    print("cards", " ".join(str(c) for c in cards))
    print("first", first)
    for s in range(3):
        print(f"hand{s}", sorted_ranks(cards[17 * s:17 * s + 17]))
    print("kitty", sorted_ranks(cards[51:]))


if __name__ == "__main__":
    main()
