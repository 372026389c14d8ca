#!/usr/bin/env python3
"""Recompute a Dou Dizhu deal from its 32-byte seed (docs/doudizhu.md,
"The shuffle"), independently of the server's Go code. The generator and
the bounded draw are those of the mahjong walls, taken from verify_wall.py
beside this file.

    python3 docs/verify_deck.py SEED_HEX
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verify_wall import ChaCha8Rand, uniform  # noqa: E402

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


def main():
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
