"""The training example's policy: numpy and C++ agree, the gradients are right,
and training on the heuristic's decisions lowers the loss."""

import unittest

import numpy as np

import metropolis
from metropolis.policy import Policy


def batch(t, lo, hi):
    offsets = t["legal_offsets"][lo:hi + 1]
    legal = t["legal"][offsets[0]:offsets[-1]].astype(np.int64)
    return t["observations"][lo:hi], offsets - offsets[0], legal, t["actions"][lo:hi].astype(np.int64)


class PolicyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.t = metropolis.selfplay(["heuristic"] * 4, games=3, seed=4, record_probability=0.5)

    def randomised(self, seed):
        policy = Policy(hidden=8, seed=seed)
        rng = np.random.default_rng(seed)
        for k, v in policy.params.items():
            v += (rng.standard_normal(v.shape) * 0.05).astype(np.float32)
        return policy

    def test_numpy_and_cpp_logits_agree(self):
        policy = self.randomised(1)
        net = policy.to_net()
        x, offsets, legal, _ = batch(self.t, 0, 50)
        for k in range(50):
            lk = legal[offsets[k]:offsets[k + 1]]
            np.testing.assert_allclose(policy.logits(x[k], lk), net.logits(x[k], lk.astype(np.int32)), rtol=1e-4,
                                       atol=1e-4)

    def test_gradients_match_finite_differences(self):
        policy = self.randomised(2)
        x, offsets, legal, chosen = batch(self.t, 0, 20)
        x = x.astype(np.float64)
        for k in policy.params:
            policy.params[k] = policy.params[k].astype(np.float64)
        _, _, grads = policy.loss_and_grads(x, offsets, legal, chosen)
        rng = np.random.default_rng(0)
        for name, g in grads.items():
            flat = policy.params[name].reshape(-1)
            # Entries with a gradient (the others are mostly untouched actions).
            nonzero = np.flatnonzero(g.reshape(-1))
            self.assertGreater(len(nonzero), 0, name)
            for i in rng.choice(nonzero, size=min(5, len(nonzero)), replace=False):
                old = flat[i]
                flat[i] = old + 1e-6
                up = policy.loss_and_grads(x, offsets, legal, chosen)[0]
                flat[i] = old - 1e-6
                down = policy.loss_and_grads(x, offsets, legal, chosen)[0]
                flat[i] = old
                self.assertAlmostEqual((up - down) / 2e-6, g.reshape(-1)[i], delta=1e-4 + 1e-3 * abs(g.reshape(-1)[i]),
                                       msg=name)

    def test_training_lowers_the_loss(self):
        policy = Policy(hidden=16, seed=3)
        x, offsets, legal, chosen = batch(self.t, 0, len(self.t["actions"]))
        first, _, _ = policy.loss_and_grads(x, offsets, legal, chosen)
        for _ in range(60):
            loss, acc, grads = policy.loss_and_grads(x, offsets, legal, chosen)
            policy.adam_step(grads, lr=3e-3)
        self.assertLess(loss, 0.6 * first)
        # The trained weights play legal games in C++.
        r = metropolis.arena(policy.to_net(), "random", games=4, seed=1)
        self.assertEqual(r["errors"], 0)
        self.assertEqual(r["games"], 4)


if __name__ == "__main__":
    unittest.main()
