"""Storage's own refusals, raised as values the service turns into replies."""

from __future__ import annotations


class StorageError(Exception):
    """Base of storage errors."""


class DuplicateInteraction(StorageError):
    """This interaction's choice is already in the log."""


class ChannelBusy(StorageError):
    """The channel already has a live match."""


class WriterStopped(StorageError):
    """The database writer process stopped before committing a write (nothing of
    it is stored), or before answering a write that had failed."""
