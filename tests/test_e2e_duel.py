"""End to end: Arcane Duel through the real discord.py client and the fake Discord.

People play duels as a person would: each decision from the menu (or button) of
their newest DM that offers it, else by ``/choose``; with closed DMs, through the
table's "My hand" button and ``/choose``. The duels cover a whole game against
the computer, blocks declared from a DM, an interrupt countering a spell from a
priority DM, closed DMs, and restarts of the bot in the middle of combat and of a
stack. Every test also watches hidden information: the two seats play decks that
share no card name, and a card name of a seat's deck that was never public (on
the battlefield, the stack or in a graveyard) must never show in the channel, in
a log line or in the other seat's DMs.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.discord_side.client import CroupierBot
from bot.i18n import say
from bot.matches.live import LiveMatch, Player
from rules.core import Decision, replay
from rules.duel import choose as computer_choice
from rules.duel.board import StackItem
from rules.duel.state import DuelState
from tests.e2e import deal_the_same, make_bot, table_message
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.fakediscord.harness.results import InteractionResult
from tests.fakediscord.model import FakeMessage
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo

SEED = 20261125

RED = (["Ashpeak"] * 17 + [
    "Scorchback Runner", "Cragborn Raider", "Cragborn Raider", "Torchbearer Militia",
    "Bellows Salamander", "Bellows Salamander", "Slagfoot Brute", "Slagfoot Brute",
    "Scorchgrove Stalker", "Scorchgrove Stalker", "Ridgeline Lancers", "Magma Ridgeback",
    "Kessa Pyrewyrm", "Kindlewhip", "Kindlewhip", "Forgeheat Surge", "Cinder Levy",
    "Ashen Warchant", "Kiln-Tempered Edge", "Howling Sootfiend", "Flintspark Adept",
    "Stormcrag Harrier", "Scree Cascade"])
"""A red deck of 40: no card name in common with :data:`BLUE`."""
BLUE = (["Mistshore"] * 17 + [
    "Quell the Weave", "Quell the Weave", "Tidebreak Ward", "Tidebreak Ward",
    "Kelpshell Crawler", "Kelpshell Crawler", "Harbor Smuggler", "Harbor Smuggler",
    "Brinewing Skimmer", "Mistveil Phantom", "Glimmer Scholar", "Skyglass Heron",
    "Skyglass Heron", "Stormcrest Roc", "Deepcoil Serpent", "Chroma Sprite",
    "Tidecaller Adept", "Sudden Updraft", "Fathom Slumber", "Null Current", "Hoarfrost Grip",
    "Undertow Mystic", "Tidewatch Oracle"])
"""A blue deck of 40 with counterspells (interrupts)."""
COUNTERS = ["Mistshore"] * 20 + ["Tidebreak Ward"] * 6 + ["Quell the Weave"] * 6 + [
    "Kelpshell Crawler"] * 8
"""A blue deck that holds a counter and the island to cast it from the first turn."""

PICK = re.compile(r"cr:pick:(\d+):(\d+):\d+")
DO = re.compile(r"cr:do:(\d+):(\d+):(.+)")
SPLIT = re.compile(r"cr:split:(\d+):(\d+)")
TABLE_PICTURE = re.compile(r"duel-(\d+)-(\d+)\.png")
"""The only attachment a channel may carry: the battlefield picture."""
HAND_PICTURE = re.compile(r"hand-\d+-\d+-\d+\.png")
"""A seat's hand, in its DM."""
LOGGERS = ("bot", "commands", "storage", "rules")
"""Croupier's own loggers, read at every level; other loggers from INFO up."""


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same duel every run (for duels opened with ``/play``)."""
    deal_the_same(monkeypatch, SEED)


# -- playing as a person ----------------------------------------------------------------

def components(message: FakeMessage) -> Iterator[dict[str, Any]]:
    """Every component of a message's current version, rows walked."""
    for row in message.components:
        yield from row.get("components", [])


def asks(message: FakeMessage, match_id: int, step: int) -> bool:
    """Whether ``message`` carries a menu or a button made for this match's ``step``."""
    return any(made_for(c, PICK, match_id, step) or made_for(c, DO, match_id, step)
               for c in components(message))


def seat_of(match: LiveMatch, user: FakeUser) -> int:
    """The seat ``user`` plays."""
    seat = match.seat_of(user.id)
    assert seat is not None, f"{user.name} has no seat"
    return seat.seat


def parts_of(decision: Decision, choice: str) -> tuple[str, ...]:
    """What a menu must offer for ``choice``: the options of a several-pick, else itself."""
    if decision.pick == "several" and choice != "none":
        return Decision.picks(choice)
    return (choice,)


def made_for(component: dict[str, Any], pattern: re.Pattern[str], match_id: int,
             step: int) -> re.Match[str] | None:
    """The custom id of ``component`` read by ``pattern``, if made for this step."""
    found = pattern.fullmatch(component.get("custom_id", ""))
    if found and (int(found[1]), int(found[2])) == (match_id, step):
        return found
    return None


class Person:
    """A person at the duel: answers as a person would and counts how."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, user: FakeUser) -> None:
        self.fake, self.channel, self.user = fake, channel, user
        self.how: dict[str, int] = {"menu": 0, "button": 0, "form": 0, "typed": 0}
        self.places: list[FakeMessage] = []
        """Messages to look in first, before the DMs ("My hand", an older DM)."""
        self.used: FakeMessage | None = None
        """The message of the last menu, button or form answered from."""
        self.chose = "You chose"
        """What an answer's acknowledgement says (another language says it its way)."""

    async def answer(self, match: LiveMatch, choice: str) -> InteractionResult:
        """``choice`` made from the current step's menu that offers it, else its button
        (``cr:do:<match>:<step>:<choice>``), a split with its form (``cr:split:``), else
        by ``/choose``; acknowledged."""
        state = match.state
        assert state is not None
        step = state.step
        decision = state.decision_for(seat_of(match, self.user))
        assert decision is not None, f"{self.user.name} has nothing to decide"
        wanted = parts_of(decision, choice)
        places = [*reversed(self.places),
                  *(m for m in reversed(self.fake.dm_messages(self.user)) if m.components)]
        for kind in ("menu", "button", "form"):
            for message in places:
                for component in components(message):
                    if kind == "menu" and component.get("type") == 3 \
                            and made_for(component, PICK, match.id, step) \
                            and offers(component, wanted):
                        result = await self.fake.select(self.user, message,
                                                        component["custom_id"], list(wanted),
                                                        timeout=15)
                    elif kind == "button" and component.get("type") == 2 \
                            and (found := made_for(component, DO, match.id, step)) \
                            and found[3] == choice:
                        result = await self.fake.click(self.user, message,
                                                       component["custom_id"], timeout=15)
                    elif kind == "form" and decision.pick == "split" \
                            and component.get("type") == 2 \
                            and made_for(component, SPLIT, match.id, step):
                        result = await self._split(message, component["custom_id"], choice)
                    else:
                        continue
                    assert result.acked and self.chose in (
                        result.message.text if result.message else ""), result
                    self.how[kind] += 1
                    self.used = message
                    return result
        typed = await self.fake.slash(self.user, self.channel, "choose", choice=choice,
                                      timeout=15)
        assert typed.ephemeral and self.chose in typed.content, typed.content
        self.how["typed"] += 1
        return typed

    async def _split(self, message: FakeMessage, custom_id: str,
                     choice: str) -> InteractionResult:
        """A split made with its form: the button opens it, one number per option."""
        opened = await self.fake.click(self.user, message, custom_id, timeout=15)
        assert opened.type == 9 and opened.modal is not None, opened
        amounts = {option: str(n) for option, n in Decision.amounts(choice).items()}
        return await self.fake.submit_modal(self.user, opened, amounts, timeout=15)

    async def my_hand(self) -> FakeMessage:
        """The table's "My hand" button: the ephemeral view, kept to answer from."""
        mine = await self.fake.click(self.user, table_message(self.channel), label="My hand")
        assert mine.ephemeral and mine.message is not None
        self.places = [mine.message]
        return mine.message


def offers(menu: dict[str, Any], wanted: Sequence[str]) -> bool:
    """Whether a select menu offers every one of ``wanted`` and lets that many be picked."""
    values = [option["value"] for option in menu.get("options", [])]
    return all(w in values for w in wanted) and \
        menu.get("min_values", 1) <= len(wanted) <= menu.get("max_values", 1)


def table_picture(channel: FakeChannel, match: LiveMatch) -> None:
    """The table shows the battlefield picture of the match's current step, and it is
    the table's only attachment."""
    table = table_message(channel)
    state = match.state
    assert state is not None
    filename = f"duel-{match.id}-{state.step}.png"
    url = table.embeds[0].get("image", {}).get("url", "")
    # Discord (and the fake) resolve "attachment://" to the uploaded file's address.
    assert url == f"attachment://{filename}" or url.endswith(f"/{filename}"), url
    assert [a.filename for a in table.attachments] == [filename]
    assert table.attachment(filename).data.startswith(b"\x89PNG")


def shows_hand(message: FakeMessage, hand: Iterable[str]) -> bool:
    """Whether a private message shows the hand: every card named, or its picture."""
    return all(name in message.text for name in hand) or any(
        a.data.startswith(b"\x89PNG") for a in message.attachments)


# -- hidden information -------------------------------------------------------------------

def versions(message: FakeMessage) -> Iterator[tuple[tuple[int, int], str, list[str]]]:
    """Every version of a message: its key, its text (content, embeds and components
    as JSON: labels and values included) and its attachments' file names."""
    def text(content: str, embeds: object, parts: object) -> str:
        return (f"{content} {json.dumps(embeds, ensure_ascii=False)} "
                f"{json.dumps(parts, ensure_ascii=False)}")

    for n, old in enumerate(message.history):
        yield ((message.id, n), text(old.content, old.embeds, old.components),
               [a.filename for a in old.attachments])
    yield ((message.id, len(message.history)),
           text(message.content, message.embeds, message.components),
           [a.filename for a in message.attachments])


def named(text: str, names: Iterable[str]) -> list[str]:
    """The card names of ``names`` that ``text`` mentions, as whole words."""
    return sorted(n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text))


class SecrecyWatch:
    """Reads each new message version and log record once: a card name of a seat's
    deck shows only to that seat, unless it was public (battlefield, stack, a
    graveyard) by then. The seats' decks share no name, so a name tells whose it is."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, users: dict[int, FakeUser],
                 decks: dict[int, Sequence[str]], records: list[logging.LogRecord]) -> None:
        for seat, deck in decks.items():
            others = set().union(*(set(d) for s, d in decks.items() if s != seat))
            assert not set(deck) & others, "the decks must share no card name"
        self.fake, self.channel, self.users = fake, channel, users
        self.decks = {seat: set(deck) for seat, deck in decks.items()}
        self.records = records
        self.public: set[str] = set()
        self.seen: set[tuple[int, int]] = set()
        self.logged = 0
        self.read = 0
        self.pictures = 0

    def check(self, state: DuelState | None) -> None:
        """Check everything shown since the last check against what is public now."""
        if state is not None:
            view = state.observe(None)
            self.public |= set(view.names.values())
            for player in view.players:
                self.public |= set(player["graveyard"])
        secret = {seat: deck - self.public for seat, deck in self.decks.items()}
        places: list[tuple[FakeMessage, set[int]]] = []
        for message in self.channel.messages:
            audience = {seat for seat, user in self.users.items()
                        if message.ephemeral and message.visible_to(user)}
            places.append((message, audience))
        for seat, user in self.users.items():
            places += [(message, {seat}) for message in self.fake.dm_messages(user)]
        for message, audience in places:
            for key, text, files in versions(message):
                if key in self.seen:
                    continue
                self.seen.add(key)
                self.read += 1
                for seat, names in secret.items():
                    if seat in audience:
                        continue
                    leaked = named(text, names)
                    assert not leaked, (f"seat {seat}'s unplayed cards {leaked} shown to "
                                        f"{audience or 'everyone'}:\n{text[:800]}")
                if message.channel is self.channel and not message.ephemeral:
                    wrong = [f for f in files if not TABLE_PICTURE.fullmatch(f)]
                    assert not wrong, f"a channel message carries {wrong}"
                    self.pictures += len(files)
        hidden = set().union(*secret.values())
        for record in self.records[self.logged:]:
            line = record.getMessage()
            leaked = named(line, hidden)
            assert not leaked, f"hidden cards {leaked} in a log line: {line[:500]}"
        self.logged = len(self.records)


class Records(logging.Handler):
    """Every log record the watch reads: Croupier's at every level, the rest from INFO."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.INFO or record.name.split(".")[0] in LOGGERS:
            self.records.append(record)


@pytest.fixture
def records() -> Iterator[list[logging.LogRecord]]:
    """The log records of the test: Croupier's loggers at every level, discord.py's from
    INFO (its DEBUG lines are the raw HTTP traffic, DMs included)."""
    handler = Records()
    root = logging.getLogger()
    wanted = {**dict.fromkeys(LOGGERS, logging.DEBUG), "discord": logging.INFO}
    levels = {name: logging.getLogger(name).level for name in wanted}
    root.addHandler(handler)
    for name, level in wanted.items():
        logging.getLogger(name).setLevel(level)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


# -- the duel's course ----------------------------------------------------------------------

Stop = Callable[[LiveMatch], bool]
"""Whether to stop playing here."""
Override = Callable[[DuelState, int, Decision], str | None]
"""A seat's own choice for a decision, or ``None`` for the computer player's."""
Prepare = Callable[[int], Awaitable[None]]
"""What a seat's person does before answering."""


async def open_duel(bot: CroupierBot, channel: FakeChannel, people: Sequence[FakeUser],
                    decks: Sequence[Sequence[str]], *, life: int = 20,
                    seed: int = SEED, head_start: str | None = None) -> LiveMatch:
    """A duel of two people opened, joined and started through the service, each
    seat with its own deck (``head_start``: that option, else its default)."""
    service = bot.service
    host = Player(people[0].id, people[0].name)
    options: dict[str, object] = {"life": life}
    if head_start is not None:
        options["head_start"] = head_start
    await service.open_lobby(host, guild_id=channel.guild.id, channel_id=channel.id,
                             game="duel", options=options, seed=seed,
                             setup={"deck": list(decks[0])})
    await service.join(Player(people[1].id, people[1].name), channel.id,
                       setup={"deck": list(decks[1])})
    await service.start(host, channel.id)
    await service.settle()
    return service.match_in(channel.id)


def waiting(match: LiveMatch, people: dict[int, Person]) -> tuple[int, Decision] | None:
    """The person who must decide now, and their decision."""
    if match.state is None or match.finished:
        return None
    for decision in match.state.pending():
        if decision.seat in people and not match.seats[decision.seat].computer_plays:
            return decision.seat, decision
    return None


async def play_until(bot: CroupierBot, match: LiveMatch, people: dict[int, Person],
                     watch: SecrecyWatch, rng: random.Random, *, stop: Stop | None = None,
                     override: Override | None = None, prepare: Prepare | None = None,
                     limit: int = 600) -> int:
    """People answer with the computer player's choice (or ``override``'s, when it
    gives one) until ``stop(match)`` or the end, ``prepare(seat)`` awaited before each
    answer; the number of answers. The watch reads what each answer showed."""
    answers = idle = 0
    while not match.finished and not (stop is not None and stop(match)):
        found = waiting(match, people)
        if found is None:
            await bot.service.settle()
            idle += 1
            assert idle < 50, "nobody is asked and the duel does not move"
            continue
        idle = 0
        seat, decision = found
        state = match.state
        assert isinstance(state, DuelState)
        choice = override(state, seat, decision) if override is not None else None
        if choice is None:
            choice = computer_choice(state.copy(), seat, rng)
        if prepare is not None:
            await prepare(seat)
        await people[seat].answer(match, choice)
        await bot.service.settle()
        watch.check(match.state)  # type: ignore[arg-type]
        answers += 1
        assert answers < limit, "the duel does not end"
    return answers


async def finished_well(fake: FakeDiscord, bot: CroupierBot, channel: FakeChannel,
                        match: LiveMatch) -> None:
    """The duel is over: the stored result is the one its log replays to, the result is
    posted once, nothing is left to show."""
    await fake.wait_for_message(channel, contains="is over", timeout=15)
    await bot.service.settle()
    log = await bot.store.matches.choices(match.id)
    row = match.row
    replayed = replay(match.info, row.options, len(row.seats), row.seed,
                      [(c.seat, c.choice) for c in log], [s.setup for s in row.seats])
    outcome = replayed.outcome()
    stored = await bot.store.matches.result(match.id)
    assert stored is not None and outcome is not None
    assert [s.place for s in stored[1]] == list(outcome.places)
    assert match.state is not None and match.state.outcome() == outcome
    assert f"step {replayed.step}" in table_message(channel).text
    assert len([m for m in channel.messages if "is over" in m.text]) == 1
    assert not await bot.store.matches.results_to_show()
    table_picture(channel, match)


def into_blockers(rng: random.Random, blockers: int) -> Override:
    """An override that brings on blocks: Bo (seat 1) never attacks, keeping his
    creatures home; Ada (seat 0) attacks with every creature she can once Bo has
    ``blockers`` untapped creatures, and not before."""
    def override(state: DuelState, seat: int, decision: Decision) -> str | None:
        ready = sum(1 for p in state.battlefield.values()
                    if p.controller == 1 and p.card.is_creature and not p.tapped)
        if decision.kind == "main" and "attack" in decision.options:
            if seat == 0 and ready >= blockers:
                return "attack"
            choice = computer_choice(state.copy(), seat, rng)
            return "end" if choice == "attack" else choice
        if decision.kind == "attack" and seat == 0:
            return ",".join(decision.options)
        return None
    return override


def shown_anywhere(channel: FakeChannel, text: str) -> bool:
    """Whether some version of some channel message showed ``text``."""
    return any(text in body for m in channel.messages for _, body, _ in versions(m))


def duel_of(match: LiveMatch) -> DuelState:
    """The match's duel state."""
    state = match.state
    assert isinstance(state, DuelState)
    return state


def blocking(seat: int, together: int = 1, power: int = 0) -> Stop:
    """``stop``: ``seat`` must declare blockers and has ``together`` creatures that can
    block one attacker (of at least ``power``)."""
    def stop(match: LiveMatch) -> bool:
        return bool(blockable(duel_of(match), seat, together, power))
    return stop


def blockable(state: DuelState, seat: int, together: int, power: int) -> list[int]:
    """The attackers that ``seat``, declaring blockers, can block with ``together``
    creatures, of at least ``power``."""
    decision = state.decision_for(seat)
    if decision is None or decision.kind != "block":
        return []
    attackers = [int(p.split(">")[1]) for p in decision.options]
    table = state.table
    return [a for a in dict.fromkeys(attackers)
            if attackers.count(a) >= together and table.power(a) >= power]


def countering(seat: int) -> Stop:
    """``stop``: ``seat`` may answer the other's spell on the stack with a counter."""
    def stop(match: LiveMatch) -> bool:
        state = duel_of(match)
        decision = state.decision_for(seat)
        return (decision is not None and decision.kind == "priority" and bool(state.stack)
                and state.stack[-1].controller != seat and state.stack[-1].spell
                and any(o in decision.options for o in COUNTER_PLAYS))
    return stop


COUNTER_PLAYS = ("cast Tidebreak Ward", "cast Quell the Weave")


def passing(seat: int) -> Override:
    """An override: ``seat`` passes every priority window."""
    def override(_state: DuelState, who: int, decision: Decision) -> str | None:
        return "pass" if who == seat and decision.kind == "priority" else None
    return override


async def counter_it(bot: CroupierBot, match: LiveMatch, people: dict[int, Person],
                     watch: SecrecyWatch, spell: StackItem) -> tuple[str, FakeMessage | None]:
    """Bo answers ``spell`` on top of the stack with a counter and aims it at the spell,
    then both play on (Bo passing) until the spell has left the stack. The counter's
    name, and the message Bo chose it from."""
    state = duel_of(match)
    decision = state.decision_for(1)
    assert decision is not None and decision.kind == "priority"
    assert say(decision.prompt, "en").endswith(f"{spell.name}?"), decision.prompt
    counter = next(o for o in COUNTER_PLAYS if o in decision.options)
    await people[1].answer(match, counter)
    used = people[1].used
    people[1].places = []
    await bot.service.settle()
    aiming = duel_of(match).decision_for(1)
    assert aiming is not None and aiming.kind == "target"
    assert str(spell.id) in aiming.options
    await people[1].answer(match, str(spell.id))
    await bot.service.settle()
    on_top = duel_of(match).stack
    if on_top:  # the interrupt waits for Bo's own pass (he could interrupt again)
        assert on_top[-1].interrupt and on_top[-1].target == str(spell.id)
    watch.check(duel_of(match))
    await play_until(bot, match, people, watch, random.Random(0), override=passing(1),
                     stop=lambda m: all(i.id != spell.id for i in duel_of(m).stack),
                     limit=10)
    return counter.removeprefix("cast "), used


# -- the tests ----------------------------------------------------------------------------

async def test_one_person_plays_a_whole_duel_against_the_computer(
        fake_discord: FakeDiscord, tmp_path: Path, fixed_seed: None,
        records: list[logging.LogRecord]) -> None:
    """``/play duel vs_bot:true``, played to the end from Ada's DMs."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("duel-solo")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "solo.sqlite3")
    async with fake_discord.running(bot):
        started = await fake_discord.slash(ada, channel, "play duel", vs_bot=True)
        assert "against the computer" in started.content, started.content
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        state = match.state
        assert isinstance(state, DuelState) and match.seats[1].computer_plays
        decks = {seat: [state.cards[c] for c in state.cards if state.owners[c] == seat]
                 for seat in (0, 1)}
        dm = await fake_discord.wait_for_message(ada, contains="hand")
        assert shows_hand(dm, state.private_part(0))
        assert [a.filename for a in dm.attachments if HAND_PICTURE.fullmatch(a.filename)]
        table_picture(channel, match)
        person = Person(fake_discord, channel, ada)
        # The computer's deck is another starter; names both decks share are left out.
        shared = set(decks[0]) & set(decks[1])
        watch = SecrecyWatch(fake_discord, channel, {0: ada},
                             {s: [n for n in d if n not in shared] for s, d in decks.items()},
                             records)
        watch.check(state)
        answers = await play_until(bot, match, {0: person}, watch, random.Random(1))
        await finished_well(fake_discord, bot, channel, match)
        watch.check(match.state)  # type: ignore[arg-type]
        assert not [r for r in records if r.levelno >= logging.ERROR]
        assert watch.pictures > 0  # the table's pictures were read
        # Menus (and buttons) carry nearly every answer; /choose only what they cannot ask.
        assert answers >= 10 and person.how["menu"] >= 3, person.how
        assert person.how["typed"] <= answers // 5, person.how
        assert watch.read > 20


async def test_the_defender_declares_blockers_from_a_dm(
        fake_discord: FakeDiscord, tmp_path: Path, records: list[logging.LogRecord]) -> None:
    """Bo blocks one of Ada's attackers with two creatures from his DM; Ada divides the
    attacker's damage between them with the split form."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("duel-blocks")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "blocks.sqlite3")
    async with fake_discord.running(bot):
        match = await open_duel(bot, channel, (ada, bo), (RED, BLUE),
                                 head_start="draw")  # its seeded flow: the seed's rule
        people = {0: Person(fake_discord, channel, ada), 1: Person(fake_discord, channel, bo)}
        watch = SecrecyWatch(fake_discord, channel, {0: ada, 1: bo}, {0: RED, 1: BLUE},
                             records)
        watch.check(duel_of(match))

        rng = random.Random(2)
        await play_until(bot, match, people, watch, rng,
                         stop=blocking(1, together=2, power=2),
                         override=into_blockers(rng, 2), limit=300)
        assert not match.finished, "Bo never had two creatures to block with"
        state = duel_of(match)
        assert state.combat is not None and state.combat.attackers
        decision = state.decision_for(1)
        assert decision is not None
        # Bo blocks an attacker with every creature able to block it (two or more):
        # Ada divides its damage (two or more) among them with the split form.
        attacker = blockable(state, 1, 2, 2)[0]
        pairs = [p for p in decision.options if p.endswith(f">{attacker}")]
        blockers = [int(p.split(">")[0]) for p in pairs]
        block = state.canonical(1, ",".join(pairs))
        # The block decision came to Bo's DM, with a menu offering the pairs.
        dm = next(m for m in reversed(fake_discord.dm_messages(bo)) if m.components)
        assert any(set(pairs) <= {o["value"] for o in c.get("options", [])}
                   for c in components(dm) if c.get("type") == 3)
        menus = people[1].how["menu"]
        await people[1].answer(match, block)
        assert people[1].how["menu"] == menus + 1
        await bot.service.settle()
        watch.check(duel_of(match))

        log = await bot.store.matches.choices(match.id)
        mine = [c for c in log if c.seat == 1 and c.choice == block]
        assert len(mine) == 1 and mine[0].source == "player" and mine[0].interaction_id
        for blocker in blockers:
            assert shown_anywhere(channel, f"{state.cards[blocker]} blocks")
        # The log replayed up to Bo's block holds the very blocks he chose.
        row = match.row
        upto = [(c.seat, c.choice) for c in log if c.seq <= mine[0].seq]
        blocked = replay(match.info, row.options, len(row.seats), row.seed, upto,
                         [s.setup for s in row.seats])
        assert isinstance(blocked, DuelState) and blocked.combat is not None
        assert sorted(blocked.combat.blocks[attacker]) == sorted(blockers)
        # The fight is fought out (Ada splitting the damage when it must be split).
        await play_until(bot, match, people, watch, rng,
                         stop=lambda m: duel_of(m).combat is None, limit=50)
        assert len(blockers) >= 2 and people[0].how["form"] == 1, people[0].how
        log = await bot.store.matches.choices(match.id)
        split = [c for c in log if c.seat == 0 and c.seq > mine[0].seq and "=" in c.choice]
        assert len(split) == 1 and split[0].source == "player", split


async def test_an_interrupt_counters_a_spell_from_the_priority_dm(
        fake_discord: FakeDiscord, tmp_path: Path, records: list[logging.LogRecord]) -> None:
    """Ada casts a spell; Bo answers it from his priority DM with a counter (an
    interrupt) aimed at it, and the spell goes to Ada's graveyard."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("duel-stack")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "stack.sqlite3")
    async with fake_discord.running(bot):
        match = await open_duel(bot, channel, (ada, bo), (RED, COUNTERS))
        people = {0: Person(fake_discord, channel, ada), 1: Person(fake_discord, channel, bo)}
        watch = SecrecyWatch(fake_discord, channel, {0: ada, 1: bo}, {0: RED, 1: COUNTERS},
                             records)
        watch.check(duel_of(match))
        await play_until(bot, match, people, watch, random.Random(3), stop=countering(1),
                         limit=200)
        assert not match.finished, "Bo never had a counter for Ada's spell"
        spell = duel_of(match).stack[-1]
        menus = people[1].how["menu"]
        played, _ = await counter_it(bot, match, people, watch, spell)
        assert people[1].how["menu"] >= menus + 2  # the counter and its aim: Bo's DM menus

        after = duel_of(match)
        assert spell.id not in after.battlefield
        assert spell.id in after.players[0].graveyard
        assert played in [after.cards[c] for c in after.players[1].graveyard]
        assert shown_anywhere(channel, f"casts {played}")
        log = await bot.store.matches.choices(match.id)
        bos = [c.choice for c in log if c.seat == 1 and c.source == "player"]
        assert f"cast {played}" in bos and bos[bos.index(f"cast {played}") + 1] == str(spell.id)


async def test_closed_dms_play_through_my_hand_and_choose(
        fake_discord: FakeDiscord, tmp_path: Path, records: list[logging.LogRecord]) -> None:
    """Ada's DMs are closed: she is told once, in the channel, and plays a whole duel
    through "My hand" and ``/choose``; Bo plays from his DMs."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("duel-closed")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    fake_discord.set_dms_closed(ada)
    bot = make_bot(tmp_path / "closed.sqlite3")
    async with fake_discord.running(bot):
        match = await open_duel(bot, channel, (ada, bo), (RED, BLUE), life=6)
        notice = await fake_discord.wait_for_message(channel, contains="can't send Ada")
        assert f"<@{ada.id}>" in notice.content and f"<@{bo.id}>" not in notice.content
        assert "My hand" in notice.text
        closed = Person(fake_discord, channel, ada)
        people = {0: closed, 1: Person(fake_discord, channel, bo)}
        watch = SecrecyWatch(fake_discord, channel, {0: ada, 1: bo}, {0: RED, 1: BLUE},
                             records)
        watch.check(duel_of(match))
        seen = {"hands": 0}

        async def ada_alternates(seat: int) -> None:
            """Ada: the "My hand" view for every other answer, /choose typed between."""
            closed.places = []
            if seat != 0:
                return
            if seen["hands"] == closed.how["typed"]:
                mine = await closed.my_hand()
                assert not mine.visible_to(bo)
                assert shows_hand(mine, duel_of(match).private_part(0))
                seen["hands"] += 1

        await play_until(bot, match, people, watch, random.Random(4), prepare=ada_alternates)
        await finished_well(fake_discord, bot, channel, match)
        from_hand = closed.how["menu"] + closed.how["button"] + closed.how["form"]
        assert from_hand >= 3 and closed.how["typed"] >= 3, closed.how
        assert not fake_discord.dm_messages(ada) and fake_discord.dm_messages(bo)
        notices = [m for m in channel.messages if "can't send" in m.text]
        assert len(notices) == 1
        assert await bot.store.closed_dms.closed_since(ada.id) is not None
        assert await bot.store.closed_dms.closed_since(bo.id) is None


async def test_restarts_in_a_stack_and_in_combat_pick_up_the_same_decision(
        fake_discord: FakeDiscord, tmp_path: Path, records: list[logging.LogRecord]) -> None:
    """The bot restarts while Ada's spell waits on the stack for Bo's answer, and again
    while Ada's attackers wait for Bo's blockers: each time the new bot has the same
    position and decision, Bo answers from the old DM, and the duel plays to its end."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("duel-restart")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    database = tmp_path / "restart.sqlite3"
    people = {0: Person(fake_discord, channel, ada), 1: Person(fake_discord, channel, bo)}
    watch = SecrecyWatch(fake_discord, channel, {0: ada, 1: bo}, {0: RED, 1: COUNTERS},
                         records)
    rng = random.Random(5)

    async def restarted(bot: CroupierBot, match: LiveMatch) -> tuple[CroupierBot, LiveMatch]:
        """The bot stopped and a new one started on the same database: the same
        position, with the same decision pending, on the same table. Bo answers from
        the DM the first bot sent him (its menus outlive the bot)."""
        state = duel_of(match)
        before = (state.notation(), state.step, state.pending())
        table = table_message(channel).id
        asked = [m for m in fake_discord.dm_messages(bo) if asks(m, match.id, state.step)]
        assert asked, "Bo's DM has no menu for the pending decision"
        await fake_discord.stop_bot(bot)
        again = make_bot(database)
        await fake_discord.start_bot(again)
        await again.service.settle()
        resumed = again.service.match_in(channel.id)
        now = duel_of(resumed)
        assert (now.notation(), now.step, now.pending()) == before
        assert table_message(channel).id == table
        table_picture(channel, resumed)
        people[1].places = asked[-1:]
        return again, resumed

    bot = make_bot(database)
    await fake_discord.start_bot(bot)  # stopped by restarted(), the last by the fixture
    match = await open_duel(bot, channel, (ada, bo), (RED, COUNTERS), life=8)
    watch.check(duel_of(match))
    # 1. Ada's spell on the stack, Bo holding a counter: restart, then counter it.
    await play_until(bot, match, people, watch, rng, stop=countering(1), limit=200)
    assert not match.finished
    spell = duel_of(match).stack[-1]
    bot, match = await restarted(bot, match)
    watch.check(duel_of(match))
    old_dm = people[1].places[0]
    _, used = await counter_it(bot, match, people, watch, spell)
    assert used is old_dm  # the menu of the first bot's DM
    assert spell.id in duel_of(match).players[0].graveyard
    # 2. Ada's attackers declared, Bo to block: restart, then block and play on.
    await play_until(bot, match, people, watch, rng, stop=blocking(1),
                     override=into_blockers(rng, 1), limit=300)
    assert not match.finished, "Bo never had a creature to block with"
    assert duel_of(match).combat is not None
    bot, match = await restarted(bot, match)
    watch.check(duel_of(match))
    decision = duel_of(match).decision_for(1)
    assert decision is not None and decision.kind == "block"
    old_dm = people[1].places[0]
    await people[1].answer(match, decision.options[0])
    assert people[1].used is old_dm  # the menu of the first bot's DM
    people[1].places = []
    await bot.service.settle()
    await play_until(bot, match, people, watch, rng, limit=400)
    await finished_well(fake_discord, bot, channel, match)
    watch.check(duel_of(match))
    log = await bot.store.matches.choices(match.id)
    assert (1, decision.options[0]) in [(c.seat, c.choice) for c in log]


async def test_a_duel_in_the_pseudo_locale_shows_no_english(
        fake_discord: FakeDiscord, tmp_path: Path, fixed_seed: None,
        records: list[logging.LogRecord]) -> None:
    """Every word of a duel's play comes from a catalog: ``/rules duel`` and a short duel
    against the computer (3 life), played to the end from the DMs, in the pseudo-locale,
    leave no English anywhere the fake Discord was sent: table, narration, DMs, menus,
    buttons, the result. What is no words is allowed: the players' names, the game's
    title, choices echoed as typed (notation), and the mana costs."""
    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    ada = fake_discord.add_user("Zoë")
    bot = make_bot(tmp_path / "qps.sqlite3")
    with pseudo_discord(fake_discord):
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            rules = await fake_discord.slash(ada, channel, "rules", game="duel")
            assert rules.ephemeral and "⟦" in str(rules.embeds)
            await fake_discord.slash(ada, channel, "play duel", vs_bot=True, life=3)
            await bot.service.settle()
            match = bot.service.match_in(channel.id)
            state = match.state
            assert isinstance(state, DuelState)
            watch = SecrecyWatch(fake_discord, channel, {0: ada}, {0: [], 1: []}, records)
            person = Person(fake_discord, channel, ada)
            person.chose = "⟦✅"
            await play_until(bot, match, {0: person}, watch, random.Random(1))
            await fake_discord.wait_for_message(channel, contains="⟦", timeout=15)
            await bot.service.settle()
    assert match.finished
    # Choices are echoed as typed (notation: "land Ashpeak", "cast …"); the rest is words.
    # A card is named in English only there, inside the choice as typed.
    cards = sorted({name for name in match.state.cards.values()}, key=len, reverse=True)
    typed = [f"**{verb} {card}" for card in cards for verb in ("land", "cast", "use", "boost")]
    notation = ["**pass**", "**end**", "**attack**", "**none**", "**cancel**"]
    options = ["**life**", "**auto_pass**", "**ante**", "**head_start**"]  # typed in /play
    assert_all_pseudo(fake_discord, allowed=["Zoë", "Croupier Bot", "Arcane Duel", *options,
                                             *typed, *notation])
