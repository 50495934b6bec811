"""Importing this module registers every shipped game with :mod:`rules.core`."""

from rules import eclipse, flank  # noqa: F401
