"""Kill the bot at any moment; after restart the books still balance (the collections
spec, "Checks that matter").

tests/test_collections_storage.py kills the *writer* process under a running store. Here
the process killed is the bot itself: tests/collections_worker.py, which runs the
collections service with many players trading, confirming, opening packs and staking antes
at once, is SIGKILLed at random moments, round after round, on the same file. Every other
round only the worker dies and its writer child, finding its input closed, commits what it
had read and exits by itself (what happens when a bot crashes); the other rounds the whole
process group dies at once, writer included. After each kill, once no process of the group
is left, the file is opened and checked: every trade, pack, starter and ante whole or not
at all, one owner per copy, the ledger replaying to the owners, every lock held by a live
trade or a staked ante and every live one's copies locked, print runs within size with
serials 1…printed, and every step the worker reported done still there. A last worker then
carries on (taking up the trades left live) and stops politely, and the books are checked
once more. Real SQLite, real processes, offline.

A pack is found in the file by its creation rows: the service opens daily and prize
packs without a ref, so one pack is its owner's rows at one time (the worker's clock never
reads the same twice); a given pack's rows carry its credit's id.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import random
import signal
import sqlite3
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import SystemClock
from bot.duel.collections import CollectionService
from rules.duel.cards import card_set
from rules.duel.decks import starter
from rules.duel.packs import PACK, PACK_SIZE
from storage import Store
from storage.collections import Copy
from tests.collections_worker import GUILDS, PEOPLE, RUN_SIZES

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGKILL to process groups")

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 8
"""Kills per run: half of the worker alone, half of its whole process group."""
FINAL_STEPS = 100
"""Steps of the last worker, which stops by itself."""
STUCK = 30.0
"""Seconds without a line from the worker, or with its group still alive after a kill,
taken as a hang (a guard against waiting forever, not a timing assertion)."""
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37

Step = dict[str, Any]


# -- processes ------------------------------------------------------------------------------
@pytest.fixture
def subreaper() -> Iterator[None]:
    """On Linux, make this process the reaper of its orphaned descendants for the test.

    A worker killed alone leaves its writer child orphaned; on a machine whose init does
    not reap (containers), the writer would linger as a zombie of the group forever. As
    subreaper, this process inherits it and reaps it (:func:`reap`), so a round can wait
    until nothing of the group is left, and nothing is left after the test.
    """
    libc = None
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            libc = ctypes.CDLL(None, use_errno=True)
    before = ctypes.c_int(0)
    if libc is None or libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0:
        yield
        return
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, before.value, 0, 0, 0)


def group_members(group: int) -> dict[int, tuple[str, int]]:
    """The processes of process group ``group``: pid → (state, parent pid)."""
    if not os.path.isdir("/proc/self"):  # no /proc (macOS): a signal 0 asks the kernel
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return {}
        return {group: ("?", -1)}
    members = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # it exited meanwhile
        # The command name is in parentheses and may hold spaces: split after it.
        state, ppid, pgrp = stat[stat.rindex(")") + 2:].split()[:3]
        if int(pgrp) == group:
            members[int(entry)] = (state, int(ppid))
    return members


def reap(group: int, worker: int) -> bool:
    """Reap the group's zombies that are this process's children (orphaned writers; the
    worker itself is left to asyncio, which waits for it); whether any process of the
    group is still running (a zombie another process should reap counts as gone)."""
    running = False
    for pid, (state, ppid) in group_members(group).items():
        if state == "Z" and ppid == os.getpid() and pid != worker:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        elif state != "Z":
            running = True
    return running


async def group_gone(group: int, worker: int) -> None:
    """Wait until no process of ``group`` is left."""
    deadline = time.monotonic() + STUCK
    while reap(group, worker):
        assert time.monotonic() < deadline, (
            f"process group {group} still runs {STUCK:.0f} s after the kill: "
            f"{group_members(group)}")
        await asyncio.sleep(0.01)


class Worker:
    """One run of tests/collections_worker.py in a process group of its own."""

    def __init__(self, path: Path, seed: int, errors: Path, steps: int | None = None) -> None:
        self.args = [sys.executable, "-m", "tests.collections_worker", str(path), str(seed)]
        if steps is not None:
            self.args += ["--steps", str(steps)]
        self.errors = errors
        self.proc: asyncio.subprocess.Process | None = None
        self.steps: list[Step] = []
        self.outlived = False
        """Whether a process of its group (its writer) still ran once it was dead."""

    async def start(self) -> None:
        """Start it; its writer child joins its process group."""
        with self.errors.open("wb") as errors:
            self.proc = await asyncio.create_subprocess_exec(
                *self.args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=errors,
                start_new_session=True)

    @property
    def group(self) -> int:
        """Its process group (it leads it)."""
        assert self.proc is not None
        return self.proc.pid

    def stderr(self) -> str:
        """What it wrote on standard error (its traceback, if it crashed)."""
        return self.errors.read_text(errors="replace")[-4000:]

    async def next_step(self) -> Step | None:
        """The next step it reports, or ``None`` once its output ends."""
        assert self.proc is not None and self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), STUCK)
        if not line.endswith(b"\n"):  # the end, or a line cut short by the kill
            return None
        self.steps.append(json.loads(line))
        return self.steps[-1]

    async def kill(self, whole_group: bool) -> None:
        """SIGKILL the worker (and, if ``whole_group``, its writer at the same instant);
        read what it printed before dying (those steps happened too); wait until no
        process of its group is left."""
        assert self.proc is not None
        if whole_group:
            os.killpg(self.group, signal.SIGKILL)
        else:
            self.proc.send_signal(signal.SIGKILL)
        while await self.next_step() is not None:
            pass
        await self.proc.wait()
        self.outlived = not whole_group and reap(self.group, self.proc.pid)
        await group_gone(self.group, self.proc.pid)

    async def finish(self) -> None:
        """Whatever happened, leave no process of the group behind (a failed round
        included): kill what is left and wait for it."""
        if self.proc is None:
            return
        if reap(self.group, self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.group, signal.SIGKILL)
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
        await group_gone(self.group, self.proc.pid)


# -- the books -------------------------------------------------------------------------------
async def check_books(path: Path, reported: list[Step]) -> Counter[str]:
    """Every invariant of the spec's bank, on the file as the kill left it; and every
    step in ``reported`` (the workers said it was done) is in it. What the file holds,
    counted."""
    store = await Store.open(path)
    db = sqlite3.connect(path)  # for what storage has no read method: ledger, claims, antes
    try:
        return await _check_books(store, db, reported)
    finally:
        db.close()
        await store.close()


async def _check_books(store: Store, db: sqlite3.Connection,
                       reported: list[Step]) -> Counter[str]:
    repo = store.collections
    service = CollectionService(store, SystemClock())
    seen: Counter[str] = Counter()
    for guild in GUILDS:
        problems = await service.audit(guild)
        assert problems == [], f"server {guild}: {problems}"

    # Every copy has exactly one owner, one of the players, in its own server.
    copies: dict[int, Copy] = {}
    for guild in GUILDS:
        for person in PEOPLE:
            for copy in await repo.owned(guild, person):
                assert copy.id not in copies, f"copy {copy.id} has two owners"
                copies[copy.id] = copy
    stored = {row[0]: (row[1], row[2]) for row in
              db.execute("SELECT id, guild_id, owner_id FROM copies")}
    assert stored == {c.id: (c.guild_id, c.owner_id) for c in copies.values()}

    # The ledger replays to the owners: one creation each, each move from its owner then.
    ledger = db.execute("SELECT id, guild_id, copy_id, from_owner, to_owner, why, ref, at"
                        " FROM ledger ORDER BY id").fetchall()
    owner: dict[int, int] = {}
    created: dict[int, tuple] = {}
    for _, guild, copy_id, before, after, why, ref, at in ledger:
        assert copies[copy_id].guild_id == guild
        if before is None:
            assert copy_id not in owner and why in ("starter", "pack"), copy_id
            created[copy_id] = (guild, after, why, ref, at)
        else:
            assert owner.get(copy_id) == before, f"copy {copy_id} moved from a non-owner"
        owner[copy_id] = after
    assert owner == {c.id: c.owner_id for c in copies.values()}
    moves: dict[tuple[str, int], list[tuple[int, int, int]]] = defaultdict(list)
    for _, _, copy_id, before, after, why, ref, _ in ledger:
        if before is not None:
            moves[why, ref].append((copy_id, before, after))

    # Starters: each claim brought its whole deck, saved as a deck too; nothing else did.
    claims = {(g, u): deck for g, u, deck in
              db.execute("SELECT guild_id, user_id, deck FROM starter_claims")}
    starters: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    for copy_id, (guild, to, why, _, _) in created.items():
        if why == "starter":
            starters[guild, to][copies[copy_id].card] += 1
    assert set(starters) == set(claims), "starter copies and starter claims differ"
    for (guild, user), deck in claims.items():
        assert starters[guild, user] == Counter(starter(deck)), (guild, user, deck)
        saved = await repo.deck(guild, user, deck)
        assert saved is not None and sorted(saved.cards) == sorted(starter(deck))
    seen["starters"] = len(claims)

    # Packs: the service opens them without a ref, so a pack is its owner's creation
    # rows at one time (the worker's clock never reads the same twice): 15 copies in a
    # row, one write, 11 common, 3 uncommon and 1 rare, no card twice.
    packs: dict[tuple[int, int, float], list[int]] = defaultdict(list)
    for copy_id, (guild, to, why, _, at) in created.items():
        if why == "pack":
            packs[guild, to, at].append(copy_id)
    for key, ids in packs.items():
        ids.sort()
        assert len(ids) == PACK_SIZE and ids == list(range(ids[0], ids[0] + PACK_SIZE)), key
        assert len({created[i][3] for i in ids}) == 1, key  # one pack, one ref
        cards = [copies[i].card for i in ids]
        assert len(set(cards)) == PACK_SIZE, key
        assert Counter(card_set()[card].rarity for card in cards) == PACK, key
    # A given pack (a credit) is opened in the write that stores its copies: an opened
    # credit has exactly one pack, its ref, made when it was marked opened, for its
    # owner; a credit still waiting has none.
    credits = {i: (g, u, opened) for i, g, u, opened in
               db.execute("SELECT id, guild_id, user_id, opened_at FROM pack_credits")}
    by_credit: dict[int, tuple[int, int, float]] = {}
    for (guild, to, at), ids in packs.items():
        ref = created[ids[0]][3]
        if ref is not None:
            assert ref not in by_credit, f"credit {ref} opened twice"
            by_credit[ref] = (guild, to, at)
    assert by_credit == {i: c for i, c in credits.items() if c[2] is not None}, \
        "given packs marked opened differ from the packs opened from them"
    seen["packs"] = len(packs)
    seen["given packs opened"] = len(by_credit)
    seen["given packs waiting"] = len(credits) - len(by_credit)
    assert len(copies) == sum(len(starter(deck)) for deck in claims.values()) \
        + PACK_SIZE * len(packs)

    # Print runs: never past their size; serials 1…printed, once each per card and
    # server; a pack gave an unlimited copy of a card only once its run was out.
    runs = {(g, card): (size, printed) for g, card, size, printed in
            db.execute("SELECT guild_id, card, size, printed FROM print_runs")}
    serials: dict[tuple[int, str], list[int]] = defaultdict(list)
    for copy in copies.values():
        if copy.serial is not None:
            serials[copy.guild_id, copy.card].append(copy.serial)
    assert set(serials) <= set(runs)
    for (guild, card), (size, printed) in runs.items():
        assert size == RUN_SIZES[card_set()[card].rarity] and printed <= size, (guild, card)
        assert sorted(serials[guild, card]) == list(range(1, printed + 1)), (guild, card)
        run = await repo.print_run(guild, card)
        assert run is not None and (run.size, run.printed) == (size, printed)
        last = [c.id for c in copies.values() if (c.guild_id, c.card, c.serial)
                == (guild, card, size)]
        unlimited = [i for i, (g, _, why, _, _) in created.items()
                     if why == "pack" and g == guild and copies[i].card == card
                     and copies[i].serial is None]
        if unlimited:
            assert printed == size and min(unlimited) > last[0], (guild, card)
        seen["runs out"] += printed == size

    # Trades: a done one moved every copy of both sides once, the right way, and
    # nothing else did; a live one holds its copies locked and still its givers'.
    locks: dict[tuple[str, int], set[int]] = defaultdict(set)
    for copy in copies.values():
        if copy.lock is not None:
            locks[copy.lock.kind, copy.lock.ref].add(copy.id)
    trades = {}
    for (trade_id,) in db.execute("SELECT id FROM trades ORDER BY id").fetchall():
        trade = await repo.trade(trade_id)
        assert trade is not None
        trades[trade_id] = trade
        give, get = set(trade.give), set(trade.get)
        assert (give or get) and not give & get, trade_id
        assert all(copies[c].guild_id == trade.guild_id for c in give | get)
        expected = sorted([(c, trade.offerer_id, trade.receiver_id) for c in give]
                          + [(c, trade.receiver_id, trade.offerer_id) for c in get])
        moved = sorted(moves.pop(("trade", trade_id), []))
        held = locks.pop(("trade", trade_id), set())
        if trade.status == "done":
            assert moved == expected, f"trade {trade_id} done, but moved {moved}"
            assert trade.offerer_confirmed and trade.receiver_confirmed, trade_id
        else:
            assert moved == [], f"trade {trade_id} is {trade.status}, but moved {moved}"
        if trade.status == "open":
            assert held == give, f"open trade {trade_id} locks {held}, gives {give}"
            assert all(copies[c].owner_id == trade.offerer_id for c in give)
            assert not (trade.offerer_confirmed or trade.receiver_confirmed)
        elif trade.status == "accepted":
            assert held == give | get, f"accepted trade {trade_id} locks {held}"
            assert all(copies[c].owner_id == trade.offerer_id for c in give)
            assert all(copies[c].owner_id == trade.receiver_id for c in get)
            assert trade.confirm_opens_at is not None
        else:
            assert held == set(), f"trade {trade_id} is {trade.status}, but locks {held}"
        seen[f"trades {trade.status}"] += 1

    # Antes: a staked one holds its copies locked and still their stakers'; a settled
    # one moved the losers' copies to the winner (none in a draw) and holds nothing.
    antes = {m: (g, status, winner) for m, g, status, winner in
             db.execute("SELECT match_id, guild_id, status, winner_id FROM antes")}
    stakes: dict[int, dict[int, int]] = defaultdict(dict)
    for match, copy_id, staker in db.execute("SELECT match_id, copy_id, owner_id"
                                             " FROM ante_copies"):
        stakes[match][copy_id] = staker
    for match, (guild, status, winner) in antes.items():
        staked = stakes[match]
        assert staked and all(copies[c].guild_id == guild for c in staked), match
        moved = sorted(moves.pop(("ante", match), []))
        held = locks.pop(("ante", match), set())
        if status == "staked":
            assert held == set(staked) and moved == [], match
            assert all(copies[c].owner_id == s for c, s in staked.items()), match
        else:
            assert held == set(), f"ante {match} is settled, but locks {held}"
            assert moved == sorted((c, s, winner) for c, s in staked.items()
                                   if winner is not None and s != winner), match
        seen[f"antes {status}"] += 1
    assert not locks, f"locks held by no live trade or ante: {dict(locks)}"
    assert not moves, f"moves of no trade or ante: {dict(moves)}"

    # Every step a worker reported done before it was killed is in the file.
    for step in reported:
        kind = step["step"]
        assert "trade" not in step or step["trade"] in trades, f"trade lost: {step}"
        assert "match" not in step or step["match"] in antes, f"ante lost: {step}"
        if isinstance(step.get("copies"), list):
            assert set(step["copies"]) <= set(created), f"copies lost: {step}"
        if kind == "starter":
            assert claims.get((step["guild"], step["user"])) == step["deck"], step
            assert all(created[c][:3] == (step["guild"], step["user"], "starter")
                       for c in step["copies"]), step
        elif kind == "pack":
            ats = {created[c][4] for c in step["copies"]}
            assert len(ats) == 1, step
            assert sorted(step["copies"]) == packs[step["guild"], step["user"], ats.pop()]
            given = step["how"] == "next" and step["source"] != "daily"
            assert (created[step["copies"][0]][3] is not None) == given, step
        elif kind == "give":
            assert sum(c[:2] == (step["guild"], step["user"]) for c in credits.values()) \
                >= step["waiting"], step
        elif kind == "offer":
            trade = trades[step["trade"]]
            assert (trade.guild_id, trade.offerer_id, trade.receiver_id) == (
                step["guild"], step["offerer"], step["receiver"]), step
        elif kind in ("accept", "confirm"):
            assert trades[step["trade"]].status != "open", step
            if step.get("status") == "done":
                assert trades[step["trade"]].status == "done", step
        elif kind in ("decline", "cancel"):
            assert trades[step["trade"]].status == step["status"], step
        elif kind == "expire":
            assert all(trades[t].status == "expired" for t in step["trades"]), step
        elif kind == "stake":
            assert set(stakes[step["match"]]) == set(step["copies"].values()), step
        elif kind == "settle":
            assert antes[step["match"]][1:] == ("settled", step["winner"]), step
    seen["copies"] = len(copies)
    seen["locks"] = sum(copy.lock is not None for copy in copies.values())
    return seen


# -- the test ------------------------------------------------------------------------------
async def test_killing_the_bot_at_random_moments_leaves_every_change_whole_or_absent(
        tmp_path: Path, subreaper: None) -> None:
    path = tmp_path / "croupier.sqlite3"
    rng = random.Random(20240917)
    reported: list[Step] = []
    kills: Counter[str] = Counter()
    resumed = 0
    for round_ in range(ROUNDS):
        whole_group = round_ % 2 == 1
        # Kill once enough has happened, right after a step of the kind chosen for the
        # round (while others of it are in flight), a few milliseconds later or not.
        target = rng.randint(30, 250)
        after = rng.choice(["pack", "accept", "confirm", "offer", "stake", None])
        worker = Worker(path, round_ + 1, tmp_path / f"worker{round_}.err")
        try:
            await worker.start()
            while (step := await worker.next_step()) is not None:
                if (len(worker.steps) >= target and after in (None, step["step"])) \
                        or len(worker.steps) >= 3 * target:
                    break
            assert step is not None, f"the worker stopped by itself:\n{worker.stderr()}"
            await asyncio.sleep(rng.choice([0, 0, rng.random() * 0.02]))
            await worker.kill(whole_group)
        finally:
            await worker.finish()
        kills["group" if whole_group else "worker"] += 1
        kills["writer outlived its worker"] += worker.outlived
        resumed += sum(len(s["live"]) for s in worker.steps if s["step"] == "resume")
        reported += worker.steps
        await check_books(path, reported)

    # After all those kills the store goes on: a last worker takes up the live trades,
    # carries on and stops by itself, its writer committing everything it was asked.
    last = Worker(path, ROUNDS + 1, tmp_path / "last.err", steps=FINAL_STEPS)
    try:
        await last.start()
        while await last.next_step() is not None:
            pass
        assert last.proc is not None
        assert await last.proc.wait() == 0, last.stderr()
    finally:
        await last.finish()
    reported += last.steps
    resumed += sum(len(s["live"]) for s in last.steps if s["step"] == "resume")
    books = await check_books(path, reported)

    print(f"kills: {dict(kills)}; steps reported: {len(reported)}; live trades taken up"
          f" after a restart: {resumed}; the file: {dict(sorted(books.items()))}")
    assert (kills["worker"], kills["group"]) == (ROUNDS // 2, ROUNDS - ROUNDS // 2)
    # The workload did what it is for (not timing: counts of what the file holds).
    assert books["packs"] and books["trades done"] and books["antes settled"], books
