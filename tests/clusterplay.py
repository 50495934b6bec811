"""Playing matches against cluster processes (:mod:`tests.clusters`) as people do, and
reading them back from the shared database.

The test's process never sees a bot's memory: what it knows of a match is what
Discord shows (the fake's messages) and what the database holds (the row, the
choice log, replayed with the rules). A person answers each of their decisions
with the easy computer's choice, from where a person would: the menu or button made
for the current step in their DMs (a DM interaction: shard 0's cluster), or on the
table (the guild's cluster), else typed with ``/choose`` in the match's channel (the
guild's cluster). Every answer must be acknowledged with "You chose" (or, on the
public table, the table's own edit), and its interaction must then be in the log:
nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rules.core import Decision, GameState, replay
from rules.registry import get_game
from storage import Store
from storage.models import ChoiceRow, MatchRow
from tests.clusters import Clusters, Stalled
from tests.fakediscord import (
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionResult,
    WaitTimeout,
)

PICK = re.compile(r"cr:pick:(\d+):(\d+):\d+")
DO = re.compile(r"cr:do:(\d+):(\d+):(.+)")
OTHER = re.compile(r"cr:(?:keys|split):(\d+):(\d+)")
"""The step's other ways in: a group of options picked first, a form."""
T = TypeVar("T")
MENU_SECONDS = 3.0
"""Longest a person waits for the current step's menu before typing the choice."""
MOVE_SECONDS = 15.0
"""Longest a match may stand still while nobody but the computer is asked."""
ANSWER_SECONDS = 10.0
"""Longest an answer may take to be acknowledged."""


@dataclass
class Seen:
    """A match as the database holds it, and the state its log replays to."""

    row: MatchRow
    log: list[ChoiceRow]
    state: GameState

    @property
    def over(self) -> bool:
        """Whether the match no longer takes choices."""
        return self.row.status != "active"


@dataclass
class Answer:
    """One answer given: its interaction, how it was given, at which step, what."""

    interaction_id: str
    how: str
    step: int
    seat: int
    choice: str


@dataclass(frozen=True)
class Offer:
    """Where a person can give a choice: a menu or a button of ``message``, or
    ``kind`` ``typed``."""

    message: FakeMessage
    component: dict[str, Any]
    kind: str


@dataclass
class Table:
    """A match played in ``channel`` by ``people`` (seat → user), read from the
    clusters' database."""

    clusters: Clusters
    channel: FakeChannel
    match_id: int
    people: dict[int, FakeUser]
    answers: list[Answer] = field(default_factory=list)
    """Every answer recorded."""
    refused: list[Answer] = field(default_factory=list)
    """Answers refused because the match had moved on (what a person sees too)."""
    unsure: set[str] = field(default_factory=set)
    """Interactions sent but never answered (their cluster died under them): each may
    be in the log once, or not at all."""
    route: str = "any"
    """How people answer: ``any`` (a menu or button, else typed), ``typed`` (always
    ``/choose``: the guild's cluster), ``private`` (never typed: while the guild's
    cluster is down, only shard 0's serves them)."""
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    """Where the people's choices come from."""

    @property
    def fake(self) -> Any:
        """The fake Discord."""
        return self.clusters.fake

    @property
    def store(self) -> Store:
        """The test's store on the clusters' database."""
        return self.clusters.store

    async def read(self) -> Seen:
        """The match now, replayed from its stored log."""
        row = await self.store.matches.get(self.match_id)
        assert row is not None, f"match {self.match_id} is not stored"
        log = await self.store.matches.choices(self.match_id)
        state = replay(get_game(row.game), row.options, len(row.seats), row.seed,
                       [(c.seat, c.choice) for c in log], [s.setup for s in row.seats])
        return Seen(row, log, state)

    async def _count(self) -> tuple[int, str]:
        row = await self.store.db.fetchone(
            "SELECT (SELECT COUNT(*) FROM match_choices WHERE match_id = ?),"
            " (SELECT status FROM matches WHERE id = ?)", (self.match_id, self.match_id))
        return int(row[0]), str(row[1])

    async def moved(self, since: int, timeout: float = MOVE_SECONDS) -> Seen:
        """The match once its log is longer than ``since`` choices, or it ended."""
        async def changed() -> bool:
            count, status = await self._count()
            return count > since or status != "active"

        await poll(self.clusters, changed, timeout, f"match {self.match_id} to move")
        return await self.read()

    async def _moves_within(self, since: int, timeout: float) -> bool:
        with contextlib.suppress(Stalled):
            await self.moved(since, timeout)
            return True
        return False

    def waiting(self, seen: Seen) -> tuple[int, Decision] | None:
        """A person who must decide now, and their decision."""
        for decision in seen.state.pending():
            seat = decision.seat
            if seat in self.people and not seen.row.seats[seat].computer_plays:
                return seat, decision
        return None

    async def asked(self) -> tuple[Seen, int, Decision]:
        """Once a person must decide: the match, their seat and their decision."""
        seen = await self.read()
        while (found := self.waiting(seen)) is None:
            assert not seen.over, f"match {self.match_id} ended"
            seen = await self.moved(len(seen.log))
        return seen, *found

    def choice_for(self, seen: Seen, seat: int, level: str = "easy") -> str:
        """What ``seat``'s person chooses now (the ``level`` computer's choice)."""
        info = get_game(seen.row.game)
        return info.levels.get(level, info.bot)(seen.state.copy(), seat, self.rng)

    async def play(self, *, answers: int | None = None, limit: int = 400,
                   level: str = "easy") -> Seen:
        """People answer until the match is over (or ``answers`` more are recorded);
        the match as it is then."""
        seen = await self.read()
        stop = None if answers is None else len(self.answers) + answers
        unanswered = 0
        while not seen.over and len(self.answers) != stop:
            self.clusters.check()
            found = self.waiting(seen)
            if found is None:
                seen = await self.moved(len(seen.log))
                continue
            seat, decision = found
            choice = self.choice_for(seen, seat, level)
            unanswered = 0 if await self.answer(seen, seat, decision, choice) else \
                unanswered + 1
            assert unanswered < 20, f"match {self.match_id}: no answer is taken"
            assert len(self.answers) + len(self.refused) < limit, \
                f"match {self.match_id} does not end"
            seen = await self.read()
        return seen

    def offered(self, user: FakeUser, step: int, choice: str,
                wanted: Sequence[str]) -> Offer | None:
        """The menu or button made for ``step`` that offers ``choice``; else, if the
        step's menus came but none offers it as it is (a group of options picked first,
        a form), an offer to type it, as a person may; else ``None``."""
        typed = None
        for message in self.places(user):
            for component in components(message):
                found = made_for(component, self.match_id, step)
                if found is None:
                    continue
                if component.get("type") == 3 and offers(component, wanted):
                    return Offer(message, component, "menu")
                if component.get("type") == 2 and found.re is DO and found[3] == choice:
                    return Offer(message, component, "button")
                typed = Offer(message, component, "typed")
        return typed

    async def give(self, user: FakeUser, offer: Offer | None, choice: str,
                   wanted: Sequence[str], *, wait: bool = True) -> tuple[InteractionResult, str]:
        """``choice`` given by ``user`` as ``offer`` says (``None``: typed); the result
        and how it was given (``dm``, ``table`` or ``typed``)."""
        if offer is None or offer.kind == "typed":
            return await self.fake.slash(user, self.channel, "choose", choice=choice,
                                         wait=wait, timeout=ANSWER_SECONDS), "typed"
        where = "dm" if offer.message.channel.is_dm else "table"
        custom_id = offer.component["custom_id"]
        if offer.kind == "menu":
            return await self.fake.select(user, offer.message, custom_id, list(wanted),
                                          wait=wait, timeout=ANSWER_SECONDS), where
        return await self.fake.click(user, offer.message, custom_id, wait=wait,
                                     timeout=ANSWER_SECONDS), where

    async def answer(self, seen: Seen, seat: int, decision: Decision,
                     choice: str) -> Answer | None:
        """``choice`` for ``seat`` from the current step's menu or button that offers it,
        else typed: acknowledged, and then found in the log. ``None`` if the match moved
        on first (another seat's choice, the rules passing for the person): before the
        menu came, or refused as no longer legal (and then not in the log)."""
        user = self.people[seat]
        step = seen.state.step
        wanted = parts_of(decision, choice)
        offer = None
        if self.route != "typed":
            offer = await self.offer_or_move(seen, user, choice, wanted)
            if offer is None and self.route == "private":
                return None  # the match moved, or no menu came: read it again
        if offer is None or offer.kind == "typed":
            assert self.route != "private", f"{choice!r} can only be typed"
        result, how = await self.give(user, offer, choice, wanted)
        made = Answer(str(result.interaction.id), how, step, seat, choice)
        if await recorded(result, public=how == "table"):
            self.answers.append(made)
            await self.logged(made)
            return made
        count, status = await self._count()
        assert count > len(seen.log) or status != "active", \
            f"{made} refused, and the match had not moved: {result.text!r}"
        self.refused.append(made)
        return None

    async def offer_or_move(self, seen: Seen, user: FakeUser, choice: str,
                            wanted: Sequence[str]) -> Offer | None:
        """The current step's offer of ``choice`` once it shows, or ``None`` if the match
        moved first or nothing showed within :data:`MENU_SECONDS`."""
        step = seen.state.step
        menu = asyncio.ensure_future(within(
            self.fake, lambda: self.offered(user, step, choice, wanted), MENU_SECONDS))
        moved = asyncio.ensure_future(self._moves_within(len(seen.log), MENU_SECONDS))
        await asyncio.wait({menu, moved}, return_when=asyncio.FIRST_COMPLETED)
        if not menu.done() and moved.result():
            menu.cancel()
            await asyncio.gather(menu, return_exceptions=True)
            return None
        offer = await menu
        moved.cancel()
        await asyncio.gather(moved, return_exceptions=True)
        return offer

    def places(self, user: FakeUser) -> Iterator[FakeMessage]:
        """Where ``user`` may find a menu: their DMs, newest first, then the table."""
        yield from (m for m in reversed(self.fake.dm_messages(user)) if m.components)
        for message in reversed(self.channel.messages):
            if not message.deleted and message.components and not message.ephemeral:
                yield message

    async def logged(self, answer: Answer, timeout: float = 5.0) -> None:
        """Wait until ``answer``'s interaction is in the log (it was acknowledged)."""
        async def found() -> bool:
            row = await self.store.db.fetchone(
                "SELECT COUNT(*) FROM match_choices WHERE match_id = ? AND interaction_id = ?",
                (self.match_id, answer.interaction_id))
            return bool(row[0])

        await poll(self.clusters, found, timeout,
                   f"the acknowledged {answer} to be in match {self.match_id}'s log")

    def ways(self) -> Counter[str]:
        """How the answers were given: ``dm``, ``table``, ``typed``."""
        return Counter(a.how for a in self.answers)


async def within(fake: Any, predicate: Callable[[], T], timeout: float) -> T | None:
    """What ``predicate()`` returns once it is truthy, or ``None`` after ``timeout``."""
    try:
        return await fake.wait_for(predicate, timeout, fail_on_bot_error=False)
    except WaitTimeout:
        return None


async def open_table(clusters: Clusters, channel: FakeChannel,
                     people: dict[int, FakeUser], game: str, *, seed: int = 0,
                     joins: dict[int, dict[str, object]] | None = None,
                     **options: object) -> Table:
    """``/play game`` by seat 0's person, the others joining (with ``joins[seat]``'s
    options) and the host starting (or alone, against easy computer players); the
    match's :class:`Table`, its people choosing with ``random.Random(seed)``."""
    host = people[0]
    alone = len(people) == 1
    started = await clusters.fake.slash(host, channel, f"play {game}", vs_bot=alone,
                                        computer_level="easy", **options)
    assert not started.ephemeral, started.content
    for seat in sorted(people)[1:]:
        joined = await clusters.fake.slash(people[seat], channel, "join",
                                           **(joins or {}).get(seat, {}))
        assert not joined.ephemeral, joined.content
    if not alone:
        begun = await clusters.fake.slash(host, channel, "start")
        assert "begins" in begun.content, begun.content
    row = await clusters.store.matches.live_in_channel(channel.id)
    assert row is not None and row.status == "active"
    return Table(clusters, channel, row.id, people, rng=random.Random(seed))


async def recorded(result: InteractionResult, *, public: bool = False) -> bool:
    """Whether ``result`` was answered as a recorded choice ("You chose", or on the
    public table a deferred update: the table's edit is the answer) rather than a
    refusal. It was answered, either way."""
    assert result.acked, result
    if public and result.type == 6:
        return True
    text = result.text if result.type != 5 else (await result.final()).text
    return "You chose" in text


async def poll(clusters: Clusters, check: Any, timeout: float, what: str) -> None:
    """Wait until ``await check()`` is true, asking every 20 ms (the database is
    another process's: nothing signals its changes); fail at once if a cluster died or
    logged an unexpected error."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        clusters.check()
        if loop.time() > deadline:
            raise Stalled(f"timed out after {timeout:g} s waiting for {what}\n"
                          + clusters.report())
        await asyncio.sleep(0.02)


def components(message: FakeMessage) -> Iterator[dict[str, Any]]:
    """Every component of a message's current version, rows walked."""
    for row in message.components:
        yield from row.get("components", [])


def made_for(component: dict[str, Any], match_id: int, step: int) -> re.Match[str] | None:
    """The custom id of a menu or button made for this match's ``step``, read."""
    custom_id = component.get("custom_id", "")
    for pattern in (PICK, DO, OTHER):
        found = pattern.fullmatch(custom_id)
        if found and (int(found[1]), int(found[2])) == (match_id, step):
            return found
    return None


def parts_of(decision: Decision, choice: str) -> tuple[str, ...]:
    """What a menu must offer for ``choice``: the options of a several-pick, else itself."""
    if decision.pick == "several" and choice != "none":
        return Decision.picks(choice)
    return (choice,)


def offers(menu: dict[str, Any], wanted: Sequence[str]) -> bool:
    """Whether a select menu offers every one of ``wanted`` and lets that many be picked."""
    values = [option["value"] for option in menu.get("options", [])]
    return all(w in values for w in wanted) and \
        menu.get("min_values", 1) <= len(wanted) <= menu.get("max_values", 1)


async def whole_log_checked(table: Table, seen: Seen) -> None:
    """The match is over and its log holds what it must: each seat decided each step
    once (no decision applied twice), every person's choice is one that was
    acknowledged and every acknowledged one is there once, and the stored result is
    the one the log replays to."""
    assert seen.row.status == "finished", seen.row.status
    steps = Counter((c.step, c.seat) for c in seen.log)
    assert max(steps.values()) == 1, [k for k, n in steps.items() if n > 1]
    assert [c.seq for c in seen.log] == list(range(len(seen.log)))
    acked = Counter(a.interaction_id for a in table.answers)
    assert max(acked.values(), default=1) == 1
    logged = Counter(c.interaction_id for c in seen.log if c.source == "player")
    unsure = Counter({i: n for i, n in logged.items() if i in table.unsure})
    assert max(unsure.values(), default=1) == 1
    assert logged - unsure == acked, (logged - unsure - acked, acked - logged)
    assert not {a.interaction_id for a in table.refused} & set(logged)
    outcome = seen.state.outcome()
    stored = await table.store.matches.result(table.match_id)
    assert stored is not None and outcome is not None
    assert [s.place for s in stored[1]] == list(outcome.places)
