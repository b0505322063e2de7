"""Metropolis, the Cities & Knights rules engine, in Python (docs/PYTHON.md)."""

from metropolis._core import *  # noqa: F401,F403
