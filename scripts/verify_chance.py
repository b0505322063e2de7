#!/usr/bin/env python3
"""Checks a finished game's verifiable chance from its record, with Python's
standard library only: written from docs/CHANCE.md, not from the C++ code, so
that it is a second, independent verifier.

It checks the commitment (CHANCE-2), the start player and every roll
(CHANCE-3, CHANCE-4). Steals and draws depend on the hands and decks, which
only the rules engine knows: `metropolis-engine verify --file RECORD` checks
those too.

usage: verify_chance.py RECORD.json   (GET /api/v1/games/ID/record)
exit 0: verified; 1: a difference (said on stderr); 2: bad usage or input.
"""
import hashlib
import hmac
import json
import struct
import sys

START_PLAYER, DICE = 0, 1
EVENT_FACES = ["ship", "ship", "ship", "trade", "politics", "science"]


def tagged(tag, rest):
    return tag.encode() + b"\0" + rest


def number(seed, kind, k):
    """u, the k-th number of stream `kind` in [0, 1) (CHANCE-3)."""
    mac = hmac.new(seed, tagged("metropolis/chance/v2", bytes([kind]) + struct.pack(">Q", k)), hashlib.sha256)
    x = struct.unpack(">Q", mac.digest()[:8])[0]
    return (x >> 11) * 2.0**-53


def expected_roll(u, base_game, alchemist):
    """The text of a roll drawn with u (CHANCE-4)."""
    if base_game:
        c = int(u * 36)
        return "dice %d %d ship" % (c // 6 + 1, c % 6 + 1)  # no event die: written as face 0
    if alchemist:
        return "dice - - %s" % EVENT_FACES[int(u * 6)]
    c = int(u * 216)
    return "dice %d %d %s" % (c // 36 + 1, c // 6 % 6 + 1, EVENT_FACES[c % 6])


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 2 if len(argv) != 2 else 0
    try:
        with open(argv[1], encoding="utf-8") as f:
            record = json.load(f)
        seed = bytes.fromhex(record["verifiable_seed"])
        commitment = bytes.fromhex(record["chance_commitment"])
    except (OSError, ValueError, KeyError) as e:
        print("verify_chance: %s: not a version 2 record (%s)" % (argv[1], e), file=sys.stderr)
        return 2
    if len(seed) != 32 or hashlib.sha256(tagged("metropolis/commitment/v2", seed)).digest() != commitment:
        print("verify_chance: the seed is not the one the game committed to", file=sys.stderr)
        return 1
    base_game = "ruleset=base" in record.get("options", "")
    counters = {START_PLAYER: 0, DICE: 0}
    for i, action in enumerate(record["actions"]):
        if action.startswith("chance_start_player "):
            want = "chance_start_player %d" % int(number(seed, START_PLAYER, counters[START_PLAYER]) * record["num_seats"])
            counters[START_PLAYER] += 1
        elif action.startswith("dice "):
            u = number(seed, DICE, counters[DICE])
            want = expected_roll(u, base_game, action.startswith("dice - - "))
            counters[DICE] += 1
        else:
            continue
        if action != want:
            print("verify_chance: action %d is '%s'; the seed draws '%s'" % (i, action, want), file=sys.stderr)
            return 1
    print("commitment  ok  %s" % commitment.hex())
    print("start       ok  %d drawn" % counters[START_PLAYER])
    print("rolls       ok  %d drawn" % counters[DICE])
    print("verified (start player and dice; steals and draws: metropolis-engine verify)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
