#!/usr/bin/env python3
"""An example bot that searches with the local engine: for each decision the SDK hands
it, it turns the host's view into the engine's (metropolis_bot.engine.local_view) and
runs the engine's information-set Monte Carlo tree search on it (docs/BOTS.md, "search"):
playouts from states sampled consistently with what the seat sees. It beats random play
by a wide margin (docs/BOTS.md, "The Python SDK's example bot"; search_arena.py measures it).

    botkits/python/generate.sh                                  # once: the stubs
    export PYTHONPATH=botkits/python:build/check/python         # the SDK and the engine
    python3 botkits/python/search_bot.py --host 127.0.0.1:50051 --game GAME_ID --token TOKEN
    python3 botkits/python/search_bot.py --ladder main --matchmaker 127.0.0.1:50052 --api-token T

The flags are python3 -m metropolis_bot's (--help), but for --bot, which this file
replaces, and --iterations. Replace SearchBot.choose with your own search.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # metropolis_bot beside this file

from metropolis_bot import Answer  # noqa: E402
from metropolis_bot.cli import main  # noqa: E402
from metropolis_bot.engine import engine, local_view  # noqa: E402


class SearchBot:
    """Chooses from an engine View; playable in the local engine's games (search_arena.py)
    and over the network (decide)."""

    def __init__(self, iterations=100, seed=0):
        m = engine()
        # An iteration budget rather than a time budget: the same seed gives the same
        # moves, on any machine and under any load.
        self.search = m.Bot(f"search:iterations={iterations}")
        self.iterations = iterations
        self.stream = seed & (2**64 - 1)  # the search's random stream (splitmix64)

    def choose(self, view):
        """The engine's Action for a View whose seat is to act."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]  # forced: nothing to search
        action, self.stream = self.search.choose(view, self.stream)
        return action

    def decide(self, decision):
        """The SDK's decide function: the host's view in, an answer with a debug note out."""
        # Leave out what the host refused for this decision (the engine's legal list and
        # the host's can only differ there if they disagree on the rules).
        view = local_view(decision, exclude=[getattr(r, "code", r) for r in decision.rejected])
        action = self.choose(view)
        return Answer(action.code, note=f"search:iterations={self.iterations} chose {action} "
                                        f"of {len(decision.legal)} legal")


def flags(parser):
    parser.add_argument("--iterations", metavar="N", default="100",
                        help="playouts per decision (default 100; 1..100000)")


def make_decider(args, seed, notes):
    try:
        iterations = int(args.iterations)
    except ValueError:
        raise ValueError(f"--iterations: '{args.iterations}' is not a number") from None
    if not 1 <= iterations <= 100_000:
        raise ValueError(f"--iterations: {iterations} is out of range (1..100000)")
    bot = SearchBot(iterations, seed)
    if notes:
        return bot.decide
    return lambda decision: bot.decide(decision).action


if __name__ == "__main__":
    sys.exit(main(extra_flags=flags, make_decider=make_decider, name="search_bot.py"))
