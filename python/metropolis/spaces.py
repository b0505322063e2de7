"""The two spaces the environments use, with the attributes and methods of
Gymnasium's Box and Discrete that RL code reads (shape, dtype, n, low, high,
sample, contains, seed). Gymnasium is not a Debian package, so it is not
imported; an author who has it can convert with gymnasium.spaces.Box(low, high,
shape, dtype) and gymnasium.spaces.Discrete(n)."""

import numpy as np


class Box:
    """A float32 vector of a fixed shape with bounds per element."""

    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and x.dtype == self.dtype and bool(np.all(x >= self.low)) and
                bool(np.all(x <= self.high)))

    __contains__ = contains

    def __repr__(self):
        return "Box(%s, %s)" % (self.shape, self.dtype)


class Discrete:
    """The integers 0..n-1; sample(mask) draws among the mask's ones, as in Gymnasium."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self, mask=None):
        if mask is None:
            return int(self.np_random.integers(self.n))
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("sample: the mask allows no action")
        return int(legal[self.np_random.integers(legal.size)])

    def contains(self, x):
        try:
            v = int(x)
        except (TypeError, ValueError):
            return False
        return v == x and 0 <= v < self.n

    __contains__ = contains

    def __repr__(self):
        return "Discrete(%d)" % self.n
