#!/usr/bin/env python3
"""An independent implementation of docs/fairness.md, sections 1 to 3a.

Plain Python 3, no dependencies: it derives the seeds and the commitment of
the document's test vector and shuffles the walls (136, 108 and 144
tiles), and prints them, so that
anyone can compare them with the document or port them to another language.

    python3 docs/verify_wall.py                 # the test vector
    python3 docs/verify_wall.py <wall_seed hex> # the wall of a revealed seed
"""
import hashlib
import struct
import sys

M32 = 0xFFFFFFFF


def sha256(*parts):
    return hashlib.sha256(b"".join(parts)).digest()


def u32be(n):
    return struct.pack(">I", n)


def table_seed(server, entropy):
    return sha256(b"mahjong-authority/table-seed/v1", server,
                  *[u32be(len(e)) + e for e in entropy])


def round_seed(table, n):
    return sha256(b"mahjong-authority/wall/v1", table, u32be(n))


def commit(seed, table_id, n):
    tid = table_id.encode()
    return sha256(b"mahjong-authority/commit/v1", seed, u32be(len(tid)), tid, u32be(n))


def _rotl(v, c):
    return ((v << c) & M32) | (v >> (32 - c))


def _quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & M32; x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & M32; x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & M32; x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & M32; x[b] = _rotl(x[b] ^ x[c], 7)


def _block(key, counter):
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + list(key) + [counter, 0, 0, 0]
    x = state[:]
    for _ in range(4):  # 8 rounds
        _quarter(x, 0, 4, 8, 12); _quarter(x, 1, 5, 9, 13)
        _quarter(x, 2, 6, 10, 14); _quarter(x, 3, 7, 11, 15)
        _quarter(x, 0, 5, 10, 15); _quarter(x, 1, 6, 11, 12)
        _quarter(x, 2, 7, 8, 13); _quarter(x, 3, 4, 9, 14)
    for i in range(4, 12):  # only the key words get the input back
        x[i] = (x[i] + state[i]) & M32
    return x


class ChaCha8Rand:
    """https://c2sp.org/chacha8rand"""

    def __init__(self, seed):
        self.key = struct.unpack("<8I", seed)
        self.buf = []

    def next(self):
        if not self.buf:
            words = []
            for g in range(4):
                blocks = [_block(self.key, 4 * g + i) for i in range(4)]
                for w in range(16):
                    for b in blocks:
                        words.append(b[w])
            data = struct.pack("<256I", *words)
            self.key = struct.unpack("<8I", data[992:])
            self.buf = list(struct.unpack("<124Q", data[:992]))
        return self.buf.pop(0)


def uniform(rng, n):
    threshold = (1 << 64) % n
    while True:
        product = rng.next() * n
        if product & ((1 << 64) - 1) >= threshold:
            return product >> 64


def tile_set(aka=True):
    names = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    tiles = []
    for name in names:
        for copy in range(4):
            red = aka and copy == 0 and name[0] == "5" and name[1] != "z"
            tiles.append("0" + name[1] if red else name)
    return tiles


def shuffle(tiles, seed):
    rng = ChaCha8Rand(seed)
    for i in range(len(tiles) - 1, 0, -1):
        j = uniform(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def wall(seed, aka=True):
    return shuffle(tile_set(aka), seed)


def wall108(seed):
    # Sichuan: the three suits of the plain set, 1m..9s, four copies each.
    return shuffle(tile_set(False)[:108], seed)


def wall144(seed):
    # Chinese Official and classical: the plain set, then flowers 1f..8f.
    return shuffle(tile_set(False) + [f"{n}f" for n in range(1, 9)], seed)


def deal_pos(off, n):
    return (n // 4) * 16 + off * 4 + n % 4 if n < 12 else 48 + off


def show(seed):
    w = wall(seed)
    print("wall       ", "".join(w))
    for off in range(4):
        print(f"hand {off}     ", " ".join(w[deal_pos(off, n)] for n in range(13)))
    print("draws      ", "".join(w[52:60]), "...")
    print("rinshan    ", "".join(w[122:126]))
    print("dora, ura  ", " ".join(f"{w[126 + 2 * i]}/{w[127 + 2 * i]}" for i in range(5)))
    print("wall108    ", "".join(wall108(seed)))
    print("wall144    ", "".join(wall144(seed)))


def main():
    if len(sys.argv) == 2:
        show(bytes.fromhex(sys.argv[1]))
        return
    server = bytes(range(32))
    entropy = [b"alice", b"", b"\x00\x01\x02", b"bob's dice"]
    t = table_seed(server, entropy)
    r0 = round_seed(t, 0)
    print("seed commitment", sha256(b"mahjong-authority/server-seed/v1", server).hex())
    print("table seed     ", t.hex())
    print("round 0 seed   ", r0.hex())
    print("commitment     ", commit(r0, "3f1c2a9e-0000-4000-8000-000000000001", 0).hex())
    rng = ChaCha8Rand(r0)
    print("outputs        ", " ".join(f"{rng.next():016x}" for _ in range(4)))
    show(r0)


if __name__ == "__main__":
    main()
