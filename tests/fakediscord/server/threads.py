"""A thread's life as Discord lives it (topics/threads, "Active & Archived Threads"):
it archives itself after ``auto_archive_duration`` minutes without activity on
Discord's clock (``fake.advance``); in an archived thread nothing is edited (400,
50083); a message sent there unarchives it unless it is locked; a server holds at most
so many active threads (400, 160006, on creating or unarchiving one). Every change is
announced with THREAD_UPDATE, as Discord does."""

from __future__ import annotations

from ..model import FakeChannel
from .errors import DiscordAPIError
from .hub import WorldHub

ARCHIVED = 50083
"""Discord's "Tried to perform an operation on an archived thread, such as editing a
message or adding a user to the thread" (topics/opcodes-and-status-codes)."""
TOO_MANY_THREADS = 160006
"""Discord's "Maximum number of active threads reached"."""


class ThreadLife(WorldHub):
    """Archiving and unarchiving threads, and the activity that keeps them open."""

    def check_not_archived(self, channel: FakeChannel) -> None:
        """400, 50083 if ``channel`` is an archived thread (an edit, adding a member)."""
        if channel.is_thread and channel.archived:
            raise DiscordAPIError(400, ARCHIVED, "Thread is archived")

    def thread_activity(self, channel: FakeChannel) -> None:
        """A message is about to be stored in ``channel``: in a thread it is activity,
        and it unarchives an archived one (Discord does, unless the thread is locked:
        the send itself is refused then)."""
        if not channel.is_thread:
            return
        if channel.archived:
            self.unarchive(channel)
        channel.idle = 0.0

    def unarchive(self, thread: FakeChannel) -> None:
        """Make ``thread`` active again; 400, 160006 if its server is at its cap."""
        assert thread.guild is not None
        if not thread.guild.thread_room():
            raise DiscordAPIError(400, TOO_MANY_THREADS,
                                  "Maximum number of active threads reached")
        thread.set_archived(False)
        self._channel_event(thread, "UPDATE")

    def archive(self, thread: FakeChannel) -> None:
        """Archive ``thread`` (by request, or after its inactivity)."""
        thread.set_archived(True)
        self._channel_event(thread, "UPDATE")

    def archive_idle_threads(self, seconds: float) -> list[FakeChannel]:
        """``seconds`` more of Discord's clock: every active thread is that much longer
        idle, and those idle for their whole ``auto_archive_duration`` archive
        themselves (returned)."""
        archived = []
        for guild in self.guilds.values():
            for thread in guild.active_threads:
                thread.idle += seconds
                if thread.idle >= thread.archive_after:
                    self.archive(thread)
                    archived.append(thread)
        if archived:
            self._bump()
        return archived
