"""Importing this module registers every shipped game with :mod:`rules.core`."""

from rules import eclipse, flank, nails  # noqa: F401
