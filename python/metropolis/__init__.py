"""Metropolis, the Cities & Knights rules engine, in Python (docs/PYTHON.md).

metropolis._core is the engine, the bots, batched games, self-play and the arena
(pybind11); metropolis.env holds the environments (PettingZoo-AEC and Gymnasium
shapes), metropolis.spaces their spaces and metropolis.policy the training
example's numpy policy.
"""

from metropolis._core import *  # noqa: F401,F403
from metropolis._core import IllegalActionError  # noqa: F401
