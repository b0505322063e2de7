#!/usr/bin/env python3
"""Batched stepping with Python choosing every action (docs/PERFORMANCE.md, "Python").

Plays random legal actions chosen by numpy in N games per VecGames.step call, on one
thread, and prints the outside decisions per second, all engine actions per second
(decisions, chance outcomes and nothing else: the same count as `metropolis-engine
sim`'s actions) and the time of one call at N = 1, all in CPU time of the process
(time.process_time: it runs on one thread).

  PYTHONPATH=build/release/python /usr/bin/python3 python/examples/batch_speed.py [--steps 2000] [--repeat 5]
"""

import argparse
import statistics
import time

import numpy as np

import metropolis


def run(n, steps, use_masks, seed):
    vec = metropolis.VecGames(n, seed=seed, masks=use_masks)
    rng = np.random.default_rng(seed)
    rows = np.arange(n)
    finished_actions = 0
    start_actions = sum(vec.game_state(i).action_count for i in range(n))
    # CPU time of this (single-threaded) process: on a shared machine the wall
    # clock counts the time other processes held the cores.
    t0 = time.process_time()
    for _ in range(steps):
        if use_masks:
            # A random legal action from the dense masks: argmax of uniform noise on the ones.
            choice = np.argmax(rng.random(vec.masks.shape, dtype=np.float32) * vec.masks, axis=1)
        else:
            picks = (rng.random(n) * vec.legal_count).astype(np.int64)
            choice = vec.legal[rows, picks]
        vec.step(choice.astype(np.int64))
        ended = vec.terminated | vec.truncated  # numpy bools
        if ended.any():
            finished_actions += int(vec.episode_length[ended].sum())
    elapsed = time.process_time() - t0
    actions = finished_actions + sum(vec.game_state(i).action_count for i in range(n)) - start_actions
    return n * steps / elapsed, actions / elapsed, elapsed / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for n, masks, steps in ((256, False, args.steps // 4), (256, True, args.steps // 20), (1, False, args.steps * 5)):
        runs = [run(n, steps, masks, seed) for seed in range(1, args.repeat + 1)]
        dec = statistics.median(r[0] for r in runs)
        act = statistics.median(r[1] for r in runs)
        call = statistics.median(r[2] for r in runs)
        print("N=%-4d %-13s decisions/s %9.0f   engine actions/s %9.0f   per call %8.1f us   (median of %d, %d calls)" %
              (n, "dense masks" if masks else "legal lists", dec, act, call * 1e6, args.repeat, steps))


if __name__ == "__main__":
    main()
