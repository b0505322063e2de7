#!/usr/bin/env python3
"""The chance leak test's two halves (tests/faults/chance_leak_test.sh).

scan SECRETS DIR...
    SECRETS: one unrevealed seed per line, 64 hex digits. Looks for each seed,
    and for what is derived from it, in every file under the DIRs (what a
    participant received): the seed in hex (either case), base64 (standard and
    URL-safe, with and without padding), its first 8 bytes as hex and as
    decimal (unsigned and signed, big- and little-endian), and the first three
    numbers of every chance stream (docs/CHANCE.md, CHANCE-3) in hex and
    decimal. Prints "VIOLATION leak: ..." for each find; exit 1 if any.

attack --number-of-games N --known GAME=VALUE[,VALUE]... --seed T
    The inversion attack of the old 64-bit scheme: every 64-bit value a
    participant can read of a game (GAME=...) is taken for a game's chance or
    board number Mix(T ^ Mix(2n + 1 or 2)), inverted, and the tournament seed
    recovered for every possible n. Prints the candidates; exit 0 when the
    tournament's real seed T is NOT among them (the attack predicts nothing),
    1 when it is.
"""
import base64
import hashlib
import hmac
import os
import struct
import sys

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix(x):
    """The tournaments' old Mix (SplitMix64's step and finalizer)."""
    x = (x + GOLDEN) & M64
    x = ((x ^ (x >> 30)) * C1) & M64
    x = ((x ^ (x >> 27)) * C2) & M64
    return x ^ (x >> 31)


def unxorshift(y, s):
    x = y
    for _ in range(64 // s + 1):
        x = y ^ (x >> s)
    return x & M64


def unmix(z):
    x = unxorshift(z, 31)
    x = (x * pow(C2, -1, 1 << 64)) & M64
    x = unxorshift(x, 27)
    x = (x * pow(C1, -1, 1 << 64)) & M64
    x = unxorshift(x, 30)
    return (x - GOLDEN) & M64


def stream_number(seed, kind, k):
    msg = b"metropolis/chance/v2\0" + bytes([kind]) + struct.pack(">Q", k)
    return struct.unpack(">Q", hmac.new(seed, msg, hashlib.sha256).digest()[:8])[0]


def patterns(seed_hex):
    seed = bytes.fromhex(seed_hex)
    out = {seed_hex.lower(): "the seed in hex", seed_hex.upper(): "the seed in HEX"}
    for name, enc in (("base64", base64.b64encode), ("base64url", base64.urlsafe_b64encode)):
        text = enc(seed).decode()
        out[text] = "the seed in " + name
        out[text.rstrip("=")] = "the seed in unpadded " + name
    for order, fmt in (("big", ">"), ("little", "<")):
        u = struct.unpack(fmt + "Q", seed[:8])[0]
        out[str(u)] = "the seed's first 8 bytes as a %s-endian integer" % order
        s = struct.unpack(fmt + "q", seed[:8])[0]
        out[str(s)] = "the seed's first 8 bytes as a signed %s-endian integer" % order
    out[seed[:8].hex()] = "the seed's first 8 bytes in hex"
    for kind in range(7):
        for k in range(3):
            x = stream_number(seed, kind, k)
            out["%016x" % x] = "number %d of chance stream %d, hex" % (k, kind)
            out[str(x)] = "number %d of chance stream %d" % (k, kind)
    # Short decimal renderings could occur by accident; 12 digits cannot (p < 1e-6 a file).
    return {p: what for p, what in out.items() if len(p) >= 12}


def scan(secrets_file, dirs):
    with open(secrets_file, encoding="utf-8") as f:
        secrets = [line.strip() for line in f if line.strip()]
    wanted = {}
    for seed_hex in secrets:
        for p, what in patterns(seed_hex).items():
            wanted[p] = (seed_hex, what)
    found = files = 0
    for d in dirs:
        for root, _, names in os.walk(d):
            for name in names:
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
                files += 1
                for p, (seed_hex, what) in wanted.items():
                    if p in text:
                        found += 1
                        print("VIOLATION leak: %s of unrevealed seed %s… in %s" % (what, seed_hex[:12], path))
    print("chance_leak: %d unrevealed seeds, %d patterns, %d files scanned, %d finds" %
          (len(secrets), len(wanted), files, found))
    return 1 if found else 0


def attack(argv):
    games, known, seed = 0, {}, None
    i = 0
    while i < len(argv):
        if argv[i] == "--number-of-games":
            games = int(argv[i + 1])
        elif argv[i] == "--known":
            game, values = argv[i + 1].split("=", 1)
            known[game] = [int(v, 0) for v in values.split(",") if v]
        elif argv[i] == "--seed":
            seed = int(argv[i + 1], 0)
        else:
            print("chance_leak attack: unknown argument %r" % argv[i], file=sys.stderr)
            return 2
        i += 2
    candidates = set()
    for values in known.values():
        for v in values:
            for x in (v, v & ~1, v | 1):  # the old scheme sent the number | 1
                z = unmix(x)
                for n in range(games):
                    for salt in (2 * n + 1, 2 * n + 2):
                        candidates.add(z ^ mix(salt))
    hit = seed in candidates
    print("chance_leak attack: %d values from %d games inverted into %d candidate tournament seeds; "
          "the real one %s among them" % (sum(len(v) for v in known.values()), len(known), len(candidates),
                                          "IS" if hit else "is not"))
    return 1 if hit else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "scan":
        return scan(argv[2], argv[3:])
    if len(argv) >= 2 and argv[1] == "attack":
        return attack(argv[2:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
