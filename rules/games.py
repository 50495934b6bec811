"""Importing this module registers every shipped game with :mod:`rules.core`."""

from rules import flank  # noqa: F401
