"""The training example's policy in numpy (docs/PYTHON.md, "Training example").

The same network as python/src/policy.h, which evaluates it in C++ for self-play and
the arena (to_net() hands the weights over; the tests check both give the same logits):

    h        = tanh(x W1 + b1)
    logit[a] = bias[a] + emb[a] . h + ptr[segment(a)] . phi(x, a)

phi(x, a) is the observation's rows of the board places action a names: its first
and second node's rows of the "nodes" block and its hex's row of the "hexes" block
(zeros where it names none). Scores are computed only for legal actions; the loss is
the cross-entropy of the chosen action among the legal ones (imitation).
"""

import numpy as np

from metropolis import _core


class _Layout:
    def __init__(self, ruleset):
        space = _core.ActionSpace(ruleset)
        blocks = {b["name"]: b for b in _core.observation_layout()}
        self.d = _core.observation_size()
        self.a = space.size
        self.segment = space.segment_ids().astype(np.int64)
        self.s = int(self.segment.max()) + 1
        self.targets = space.targets().astype(np.int64)  # a x 3: node1, node2, hex
        self.node_off, self.node_cols = blocks["nodes"]["offset"], blocks["nodes"]["cols"]
        self.hex_off, self.hex_cols = blocks["hexes"]["offset"], blocks["hexes"]["cols"]
        self.f = 2 * self.node_cols + self.hex_cols
        assert self.f == _core.pointer_feature_size()

    def phi(self, x, rows, actions):
        """The pointer features of (x[rows], actions): E x f."""
        out = np.zeros((len(actions), self.f), dtype=np.float32)
        t = self.targets[actions]
        for col, (off, width, at) in enumerate(((self.node_off, self.node_cols, 0),
                                               (self.node_off, self.node_cols, self.node_cols),
                                               (self.hex_off, self.hex_cols, 2 * self.node_cols))):
            has = t[:, col] >= 0
            start = off + t[has, col] * width
            idx = start[:, None] + np.arange(width)[None, :]
            out[has, at:at + width] = x[rows[has][:, None], idx]
        return out


def _scatter_rows(out, index, values):
    """out[index[e]] += values[e] for every e, with repeated indices (np.add.at's
    result, by sorting and reduceat: np.add.at is slow on rows)."""
    order = np.argsort(index, kind="stable")
    keys, first = np.unique(index[order], return_index=True)
    out[keys] += np.add.reduceat(values[order], first, axis=0).astype(out.dtype)


class Policy:
    """Weights and their training; greedy or sampled choices over a legal mask."""

    def __init__(self, ruleset="cities_and_knights", hidden=32, seed=0):
        self.ruleset = ruleset
        self.layout = L = _Layout(ruleset)
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": (rng.standard_normal((L.d, hidden)) * (1.0 / np.sqrt(50))).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "emb": (rng.standard_normal((L.a, hidden)) * 0.01).astype(np.float32),
            "bias": np.zeros(L.a, np.float32),
            "ptr": np.zeros((L.s, L.f), np.float32),
        }
        self._adam = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self._t = 0

    # ---- the forward pass over a batch of decisions with ragged legal sets ----
    def _forward(self, x, offsets, legal):
        p, L = self.params, self.layout
        n = len(offsets) - 1
        counts = np.diff(offsets)
        rows = np.repeat(np.arange(n), counts)
        hidden = np.tanh(x @ p["w1"] + p["b1"])
        phi = L.phi(x, rows, legal)
        seg = L.segment[legal]
        logits = (p["bias"][legal] + np.einsum("ej,ej->e", p["emb"][legal], hidden[rows]) +
                  np.einsum("ef,ef->e", p["ptr"][seg], phi))
        return hidden, rows, phi, seg, logits

    def logits(self, x, legal):
        """The logits of one observation's legal indices (as PolicyNet.logits)."""
        x = np.asarray(x, np.float32)[None, :]
        legal = np.asarray(legal, np.int64)
        return self._forward(x, np.array([0, len(legal)]), legal)[4]

    def loss_and_grads(self, x, offsets, legal, chosen):
        """Mean cross-entropy of `chosen` (action indices) among each decision's legal
        indices legal[offsets[k]:offsets[k+1]], and its gradients."""
        p = self.params
        n = len(offsets) - 1
        hidden, rows, phi, seg, logits = self._forward(x, offsets, legal)
        starts = offsets[:-1]
        m = np.maximum.reduceat(logits, starts)
        e = np.exp(logits - m[rows])
        z = np.add.reduceat(e, starts)
        prob = e / z[rows]
        target = (legal == chosen[rows]).astype(np.float32)
        loss = float(-np.sum(target * np.log(np.maximum(prob, 1e-30))) / n)
        d = (prob - target) / n  # dloss/dlogit per legal entry
        g = {k: np.zeros_like(v) for k, v in p.items()}
        g["bias"] = np.bincount(legal, weights=d, minlength=len(p["bias"])).astype(np.float32)
        _scatter_rows(g["emb"], legal, d[:, None] * hidden[rows])
        _scatter_rows(g["ptr"], seg, d[:, None] * phi)
        dh = np.add.reduceat(d[:, None] * p["emb"][legal], starts)
        dpre = dh * (1 - hidden**2)
        g["w1"] = x.T @ dpre
        g["b1"] = dpre.sum(axis=0)
        acc = float(np.mean(self._argmax(logits, offsets, legal) == chosen))
        return loss, acc, g

    @staticmethod
    def _argmax(logits, offsets, legal):
        """Each decision's highest-scoring legal index (the first of equals)."""
        starts = offsets[:-1]
        rows = np.repeat(np.arange(len(starts)), np.diff(offsets))
        top = np.flatnonzero(logits == np.maximum.reduceat(logits, starts)[rows])
        _, first = np.unique(rows[top], return_index=True)
        return legal[top[first]]

    def adam_step(self, grads, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
        self._t += 1
        for k, g in grads.items():
            m, v = self._adam[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self._t)
            vh = v / (1 - b2**self._t)
            self.params[k] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)

    def to_net(self):
        """The same weights as a metropolis.PolicyNet, for selfplay() and arena()."""
        p = self.params
        return _core.PolicyNet(self.ruleset, p["w1"], p["b1"], p["emb"], p["bias"], p["ptr"])

    def save(self, path):
        np.savez_compressed(path, ruleset=self.ruleset, **self.params)

    @classmethod
    def load(cls, path):
        data = np.load(path)
        policy = cls(str(data["ruleset"]), hidden=data["b1"].shape[0])
        for k in policy.params:
            policy.params[k] = data[k].astype(np.float32)
        return policy
