"""One cluster process of the multi-process tests (:mod:`tests.clusters`): the real
``croupier run --cluster I --clusters N --shards S``, in a process of its own, pointed
at the test's fake Discord.

``python -m tests.clusterchild I N S``. The fake runs in the test's process, so what
``fake.patched()`` does there is done here from the environment (:data:`API`,
:data:`GATEWAY`, :data:`TIME_SCALE`); the token and the database come as they come in
production (``CROUPIER_DISCORD_TOKEN``, ``CROUPIER_DATABASE``). Nothing in the product
knows it is tested. Besides pointing discord.py, this launcher:

- dies with the test's process (:data:`PARENT`), however that one ends, so that no
  cluster outlives its test;
- blocks every connection but loopback, as the test process does (``no_internet``);
- lowers discord.py's wait for more guilds after READY to 0.1 s, as
  ``fake.start_bot`` does (the fake sends them all at once);
- with :data:`SEED`, deals every match from that seed (``deal_the_same``), so that a
  test walks games of a known length;
- with :data:`SCAN`, looks for overdue matches that often and takes one up that long
  after its deadline (5 s each in production): a test of a frozen process waits for
  the deadline (at least 10 s), not for the scan as well.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

API = "CLUSTER_FAKE_API"
"""The fake's REST base (``fake.api_base``)."""
GATEWAY = "CLUSTER_FAKE_GATEWAY"
"""The fake's gateway URL (``fake.gateway_url``)."""
TIME_SCALE = "CLUSTER_FAKE_TIME_SCALE"
"""Real seconds per second of the waits Discord decides (``fake.time_scale``)."""
PARENT = "CLUSTER_PARENT"
"""The test process's id: this one is killed when that one ends."""
SEED = "CLUSTER_SEED"
"""If set, every match's seed."""
SCAN = "CLUSTER_SCAN_SECONDS"
"""If set, ``bot.matches.deadlines``' ``SCAN_EVERY`` and ``OVERDUE``."""
PR_SET_PDEATHSIG = 1
READY_WAIT = 0.1
"""Seconds discord.py waits for more GUILD_CREATEs after READY (2 by default)."""


class _Seeded:
    """``random.SystemRandom`` as the lobby sees it: every match's seed is ``seed``."""

    seed = 0

    def randrange(self, _: int) -> int:
        return self.seed


def _ready_soon(make_bot: Callable[..., Any]) -> Callable[..., Any]:
    def made(*args: Any, **kwargs: Any) -> Any:
        bot = make_bot(*args, **kwargs)
        bot._connection.guild_ready_timeout = READY_WAIT
        return bot

    return made


def _die_with_parent() -> None:
    """``SIGKILL`` this process when the test's process ends (Linux's parent-death
    signal), even by a signal no ``atexit`` sees; at once if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.environ.get(PARENT) and os.getppid() != int(os.environ[PARENT]):
        os._exit(1)


def main(argv: Sequence[str]) -> int:
    """Run cluster ``argv[0]`` of ``argv[1]`` with ``argv[2]`` shards."""
    index, count, shards = argv
    _die_with_parent()
    from bot import cli
    from bot.discord_side import client
    from tests.fakediscord.harness.bots import pointed_at
    from tests.fakediscord.netguard import NetworkGuard

    with pytest.MonkeyPatch.context() as patch:
        NetworkGuard().install(patch)
        patch.setattr(client, "make_bot", _ready_soon(client.make_bot))
        if os.environ.get(SEED):
            from bot.matches import lobby

            _Seeded.seed = int(os.environ[SEED])
            # The lobby's own ``random`` only: packs and the rest keep drawing at random.
            patch.setattr(lobby, "random", SimpleNamespace(SystemRandom=_Seeded))
        if os.environ.get(SCAN):
            for name in ("SCAN_EVERY", "OVERDUE"):
                patch.setattr(f"bot.matches.deadlines.{name}", float(os.environ[SCAN]))
        with pointed_at(os.environ[API], os.environ[GATEWAY],
                        float(os.environ.get(TIME_SCALE, "1"))):
            return cli.main(["run", "--cluster", index, "--clusters", count, "--shards", shards])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
