#!/usr/bin/env python3
"""The training example (docs/BOTS.md, "A policy trained in Python"): a small numpy
policy (metropolis.policy) learns to imitate the heuristic bot from self-play
trajectories recorded by the C++ runner, then plays in the arena against random and
heuristic opponents, evaluated in C++ on all threads.

  PYTHONPATH=build/release/python /usr/bin/python3 python/examples/train_imitation.py \
      [--games 300] [--epochs 15] [--hidden 32] [--eval-games 200] [--threads 2] [--save policy.npz] [--greedy]
"""

import argparse
import time

import numpy as np

import metropolis
from metropolis.policy import Policy


def minibatches(t, size, rng):
    n = len(t["actions"])
    order = rng.permutation(n)
    offs = t["legal_offsets"]
    for lo in range(0, n, size):
        idx = np.sort(order[lo:lo + size])
        counts = offs[idx + 1] - offs[idx]
        offsets = np.concatenate([[0], np.cumsum(counts)])
        legal = np.concatenate([t["legal"][offs[k]:offs[k + 1]] for k in idx]).astype(np.int64)
        yield t["observations"][idx], offsets, legal, t["actions"][idx].astype(np.int64)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=300, help="self-play games of the heuristic to imitate")
    p.add_argument("--record", type=float, default=0.25, help="share of the decisions recorded")
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", default="")
    # Sampling is the default: the greedy policy repeats its likeliest action and
    # loses even to random players (docs/BOTS.md).
    p.add_argument("--greedy", action="store_true", help="play the highest logit, not a sample of softmax(logits)")
    args = p.parse_args()

    t0 = time.perf_counter()
    data = metropolis.selfplay(["heuristic"] * 4, games=args.games, seed=args.seed, threads=args.threads,
                               record_probability=args.record)
    val = metropolis.selfplay(["heuristic"] * 4, games=max(10, args.games // 10), seed=args.seed + 10**6,
                              threads=args.threads, record_probability=args.record)
    print("self-play: %d decisions from %d games (+%d held out) in %.1f s" %
          (len(data["actions"]), args.games, len(val["actions"]), time.perf_counter() - t0))

    policy = Policy(hidden=args.hidden, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    vx, voff, vlegal, vchosen = next(minibatches(val, len(val["actions"]), rng))
    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        losses, accs = [], []
        for x, offsets, legal, chosen in minibatches(data, args.batch, rng):
            loss, acc, grads = policy.loss_and_grads(x, offsets, legal, chosen)
            policy.adam_step(grads, lr=args.lr)
            losses.append(loss)
            accs.append(acc)
        vloss, vacc, _ = policy.loss_and_grads(vx, voff, vlegal, vchosen)
        print("epoch %2d  train loss %.3f acc %.3f   held-out loss %.3f acc %.3f   (%.0f s)" %
              (epoch + 1, np.mean(losses), np.mean(accs), vloss, vacc, time.perf_counter() - t0))
    if args.save:
        policy.save(args.save)

    net = policy.to_net()
    for opponent in ("random", "heuristic"):
        r = metropolis.arena(net, opponent, games=args.eval_games, seed=7, threads=args.threads,
                             greedy=args.greedy)
        play = "greedy" if args.greedy else "sampled"
        print("policy (%s) vs 3 x %-9s  %3d games  wins %3d  share %.3f  Wilson 95%% [%.3f, %.3f]  "
              "mean VP %.2f vs %.2f  at cap %d  errors %d" %
              (play, opponent, r["games"], r["wins"], r["win_share"], r["wilson95"][0], r["wilson95"][1],
               r["candidate_mean_vp"], r["opponent_mean_vp"], r["games_at_cap"], r["errors"]))
    for candidate in ("random", "heuristic"):
        r = metropolis.arena(candidate, "random", games=args.eval_games, seed=7, threads=args.threads)
        print("reference: %-9s vs 3 x random  share %.3f" % (candidate, r["win_share"]))


if __name__ == "__main__":
    main()
