#!/usr/bin/env python3
"""Measures search_bot.py's SearchBot in the local engine: whole games of Cities &
Knights, 4 seats, the candidate in each seat in turn, a random board, dice and draws per
game. Each opponent chooses uniformly among its legal actions (as random_bot.py does), or
is one of the engine's bots (--opponents heuristic). Prints the candidate's wins with a
Wilson 95 % interval.

    PYTHONPATH=build/check/python python3 botkits/python/search_arena.py --games 400 --seed 1
    PYTHONPATH=build/check/python python3 botkits/python/search_arena.py --opponents heuristic --games 100

Deterministic for a seed and a number of iterations. The figures are in docs/BOTS.md.
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from search_bot import SearchBot  # noqa: E402
from metropolis_bot.engine import engine  # noqa: E402


def wilson(wins, n, z=1.96):
    """The Wilson score interval of a proportion, 95 % by default."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def play(m, game, seed, iterations, opponents, seats=4):
    """One game; returns (the candidate's seat, the winner or -1, the actions)."""
    rng = random.Random(f"{seed}/{game}")
    candidate = game % seats
    bot = SearchBot(iterations, seed=rng.getrandbits(64))
    others = None if opponents == "random" else m.Bot(opponents)
    # Drawn only for engine opponents, so that a random-opponent game stays the same.
    streams = [rng.getrandbits(64) for _ in range(seats)] if others else None
    state = m.State(m.GameConfig(seats=seats, board=rng.getrandbits(63)))
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(state.sample_chance(rng.random()))
            continue
        seat = state.current_player
        if seat == candidate:
            action = bot.choose(state.view(seat))
        elif others is None:
            action = rng.choice(state.legal_actions())
        else:
            action, streams[seat] = others.choose(state.view(seat), streams[seat])
        state.apply(action)
    return candidate, state.winner, state.action_count


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=100, help="the search's playouts per decision (default 100)")
    p.add_argument("--opponents", default="random", help="random (default) or a bot of the engine, e.g. heuristic")
    args = p.parse_args()
    m = engine()
    wins = capped = 0
    start = time.monotonic()
    for game in range(args.games):
        candidate, winner, actions = play(m, game, args.seed, args.iterations, args.opponents)
        wins += winner == candidate
        capped += winner < 0
        if (game + 1) % 50 == 0:
            print(f"search_arena: {game + 1} games, {wins} won ({time.monotonic() - start:.0f} s)", file=sys.stderr,
                  flush=True)
    lo, hi = wilson(wins, args.games)
    print(f"search:iterations={args.iterations} against 3 x {args.opponents}, {args.games} games, seed {args.seed}: "
          f"{wins} won ({100 * wins / args.games:.1f} %, Wilson 95 % {100 * lo:.1f} - {100 * hi:.1f} %), "
          f"{capped} without a winner, {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
