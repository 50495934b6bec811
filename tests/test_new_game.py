"""What a new game touches: nothing but the public registries. A throwaway sixth game,
defined here, is registered with :func:`rules.registry.add_game` (no presenter: it is
shown by :mod:`bot.games`' generic one) and played whole through the match service,
the local terminal table and the fake Discord end to end.

"Higher Card": each of two seats is dealt a hand of its own from one deck the state's
RNG shuffles, and plays one card of it secretly, both at once (a simultaneous step);
the higher rank wins, equal ranks draw. What each part must show: the game is offered,
a hand is never shown to the other seat, the result is the rules' (the higher card
wins), and the match is stored finished."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from pydantic import Field

from bot.clock import FakeClock
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService, Timing
from bot.terminal.table import play_local
from rules.core import Decision, Event, GameInfo, GameState, Outcome, SeatSetup
from rules.options import GameOptions
from rules.registry import add_game, games, remove_game, shipped_games
from storage import Store
from tests.e2e import deal_the_same, make_bot, select_ids, select_values, table_message
from tests.recording import RecordingTransport

# -- the game: rules only, as a rules/<game> package would hold them --------------------------
NAME = "highcard"
TITLE = "Higher Card"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
PROMPT = "Play one card of your hand."
REASON = "the higher card"


def rank(card: str) -> int:
    """A card's rank, 0 (a two) to 12 (an ace): what decides."""
    return RANKS.index(card[0])


@dataclass(frozen=True)
class HighView:
    """What one seat sees: its own hand, how many cards each holds, and the cards
    played once both are in (never before)."""

    seat: int | None
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    shown: tuple[str, ...]


class HighState(GameState):
    """One simultaneous step: each seat plays a card of its hand."""

    game = NAME

    def __init__(self, seats: int, seed: int, hand: int) -> None:
        super().__init__(seats, seed)
        deck = [r + s for r in RANKS for s in SUITS]
        self.rng.shuffle(deck)
        self.dealt = tuple(tuple(deck[seat * hand:(seat + 1) * hand]) for seat in range(seats))
        self.hands = [list(cards) for cards in self.dealt]
        self.played: tuple[str, ...] = ()

    def decisions(self) -> tuple[Decision, ...]:
        if self.played:
            return ()
        return tuple(Decision(seat, "card", PROMPT, tuple(self.hands[seat]),
                              simultaneous=True, automatic=False)
                     for seat in range(self.seats))

    def _apply(self, seat: int, choice: str) -> list[Event]:
        raise AssertionError("every step of Higher Card is simultaneous")

    def _resolve(self, held: Mapping[int, str]) -> list[Event]:
        self.played = (held[0], held[1])
        for seat, card in enumerate(self.played):
            self.hands[seat].remove(card)
        first, second = (rank(card) for card in self.played)
        said = "a draw" if first == second else "{s0} wins" if first > second else "{s1} wins"
        return [Event("reveal", f"{{s0}} shows {held[0]}, {{s1}} shows {held[1]}: {said}.")]

    def _outcome(self) -> Outcome | None:
        if not self.played:
            return None
        return Outcome.from_scores([rank(card) for card in self.played], REASON)

    def observe(self, seat: int | None) -> HighView:
        return HighView(seat=seat, hand=None if seat is None else tuple(self.hands[seat]),
                        hand_sizes=tuple(len(h) for h in self.hands), shown=self.played)

    def notation(self) -> str:
        return f"{self.hands}|{self.played}|{sorted(self._held.items())}"


class HighOptions(GameOptions):
    """How many cards each seat is dealt."""

    title: ClassVar[str] = TITLE
    hand: int = Field(3, ge=1, le=5, description="cards dealt to each seat")


def _new(options: HighOptions, seats: int, seed: int,
         setup: tuple[SeatSetup, ...]) -> HighState:
    return HighState(seats, seed, options.hand)


def computer(state: GameState, seat: int, rng: random.Random) -> str:
    """Any card of its own hand (what it may see), by its own random numbers."""
    decision = state.decision_for(seat)
    assert decision is not None
    return rng.choice(decision.options)


def in_words(view: HighView, names: Sequence[str]) -> str:
    """A seat's view in words, for the terminal."""
    lines = [f"Your hand: {' '.join(view.hand)}"] if view.hand is not None else []
    lines += [f"{names[seat]} holds {size}" for seat, size in enumerate(view.hand_sizes)
              if seat != view.seat]
    if view.shown:
        lines.append("Shown: " + ", ".join(f"{names[s]} {c}" for s, c in enumerate(view.shown)))
    return "\n".join(lines)


HIGHCARD = GameInfo(
    name=NAME, title=TITLE, min_seats=2, max_seats=2, new_state=_new, options=HighOptions,
    bot=computer, rules_text="Play one card of your hand, secretly; the higher card wins.",
    has_secrets=True, text=in_words, default_turn_seconds=120,
)


def seed_where(wanted: Any) -> int:
    """The first seed whose deal ``wanted(dealt)`` likes (the test chooses its game)."""
    return next(seed for seed in range(1000)
                if wanted(HighState(2, seed, HighOptions().hand).dealt))


BO_WINS = seed_where(lambda dealt: max(map(rank, dealt[1])) > min(map(rank, dealt[0])))
"""A deal where seat 1 can beat seat 0: seat 0 plays its lowest card, seat 1 its highest."""
OUTRANKED = seed_where(lambda dealt: min(map(rank, dealt[1])) > max(map(rank, dealt[0])))
"""A deal where every card of seat 1 beats every card of seat 0: seat 1 wins whatever
either plays (so the computer's own choice cannot hide a wrong winner)."""
EQUAL = seed_where(lambda dealt: {rank(c) for c in dealt[0]} & {rank(c) for c in dealt[1]})
"""A deal where both seats hold a card of one rank: playing those draws."""


@pytest.fixture(autouse=True)
def highcard() -> Iterator[GameInfo]:
    """The game registered while a test runs, before any bot starts (``/play`` is built
    from the registry then); gone afterwards, so that no other test sees it."""
    add_game(HIGHCARD)
    try:
        yield HIGHCARD
    finally:
        remove_game(NAME)


def cards_in(text: str, cards: Sequence[str]) -> set[str]:
    """Which of ``cards`` the text shows (as a word of their own)."""
    return {c for c in cards if re.search(rf"(?<![0-9A-Za-z]){c}(?![0-9A-Za-z])", text)}


def expected_places(first: str, second: str) -> list[int]:
    """The places the rules give: the higher rank first, equal ranks both first."""
    return [1 if rank(first) >= rank(second) else 2, 1 if rank(second) >= rank(first) else 2]


# -- 1. the match service -------------------------------------------------------------------
ADA, BO = Player(1, "Ada"), Player(2, "Bo")
CHANNEL = 700


@pytest.mark.parametrize(("seed", "picks", "places"), [
    (BO_WINS, (min, max), [2, 1]),
    (EQUAL, ("equal", "equal"), [1, 1]),
], ids=["higher-card-wins", "equal-ranks-draw"])
async def test_the_match_service_plays_it_hands_hidden_and_stores_the_result(
        store, seed, picks, places):
    assert NAME in games() and NAME not in shipped_games()
    transport = RecordingTransport()
    service = MatchService(store, transport, clock=FakeClock(),
                           timing=Timing(turn_seconds=120, warn_seconds=30))
    try:
        match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME,
                                         seed=seed)
        await service.join(BO, CHANNEL)
        await service.start(ADA, CHANNEL)
        await service.settle()
        hands = hands_sent(transport, match)
        assert hands == {0: match.state.dealt[0], 1: match.state.dealt[1]}
        assert not set(hands[0]) & set(hands[1])
        # Each person picks from the hand they were sent, and nothing else.
        shared = min({rank(c) for c in hands[0]} & {rank(c) for c in hands[1]}, default=None)
        chosen = [by_rank(hands[seat], how, shared) for seat, how in enumerate(picks)]

        held = await service.submit(BO.user_id, match.id, chosen[1])
        assert held.held and not match.finished
        await service.settle()
        public = "\n".join(transport.public_texts(match.names))
        assert cards_in(public, hands[0] + hands[1]) == set()  # Bo's pick stays secret

        await service.submit(ADA.user_id, match.id, chosen[0])
        await service.settle()
        assert expected_places(*chosen) == places
        said = "a draw" if places == [1, 1] else f"{match.names[places.index(1)]} wins"
        public = "\n".join(transport.public_texts(match.names))
        assert f"Ada shows {chosen[0]}, Bo shows {chosen[1]}: {said}." in public
        unplayed = set(hands[0] + hands[1]) - set(chosen)
        assert cards_in(public, list(unplayed)) == set()
        # No seat was ever sent another's hand, nor an event not meant for it.
        for user_id, view in transport.private:
            seat = match.seat_of(user_id).seat
            assert view.seat == seat and all(e.visible_to(seat) for e in view.events)
            other = set(hands[1 - seat]) - {chosen[1 - seat]}
            seen = [repr(view.observation), *(e.render(view.names) for e in view.events)]
            assert cards_in("\n".join(seen), list(other)) == set()

        row = await store.matches.get(match.id)
        assert row is not None and row.status == "finished"
        reason, seats = await store.matches.result(match.id)
        assert reason == REASON and [s.place for s in seats] == places
        assert [c.choice for c in await store.matches.choices(match.id)] == [chosen[1],
                                                                            chosen[0]]
    finally:
        await service.settle()
        service.thinker.close()


def hands_sent(transport: RecordingTransport, match: LiveMatch) -> dict[int, tuple[str, ...]]:
    """Each seat's hand as its first private view showed it."""
    hands: dict[int, tuple[str, ...]] = {}
    for user_id, view in transport.private:
        seat = match.seat_of(user_id).seat
        assert view.observation.hand is not None
        hands.setdefault(seat, view.observation.hand)
    return hands


def by_rank(hand: Sequence[str], how: Any, shared: int | None) -> str:
    """The card of ``hand`` to play: its lowest (``min``), its highest (``max``), or
    the one of the rank both hands hold (``"equal"``)."""
    if how == "equal":
        return next(c for c in hand if rank(c) == shared)
    return how(hand, key=rank)


# -- 2. the local terminal table ------------------------------------------------------------
class Person:
    """Answers the local table's prompts as a person would: the game by its number in
    the list shown, the default options, then the highest card of the hand on screen."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.prompts: list[str] = []

    def write(self, text: str) -> None:
        self.out.append(text)

    async def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Which game?"):
            listed = re.search(rf"(\d+)\. {TITLE} \(2 players\)", prompt)
            assert listed, f"{TITLE} is not offered: {prompt}"
            return listed.group(1)
        if prompt.startswith("Options"):
            return ""
        if prompt.startswith("Another game?"):
            return "q"
        if any(p.startswith(PROMPT) for p in self.prompts[:-1]):  # one card, once
            raise AssertionError(f"asked to play again after: {self.out[-1]}")
        hands = re.findall(r"^Your hand: (.+)$", "\n".join(self.out), re.MULTILINE)
        assert hands, f"no hand shown before {prompt!r}"
        return max(hands[-1].split(), key=rank)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


async def test_the_local_table_lists_it_and_plays_it_against_the_computer(
        tmp_path, monkeypatch):
    deal_the_same(monkeypatch, OUTRANKED)
    person = Person()
    db = tmp_path / "local.sqlite3"
    match = await play_local(str(db), game=None, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None and match.info.name == NAME and match.finished
    asked = ["Which game?", "Options", PROMPT, "Another game?"]
    assert [p.startswith(a) for p, a in zip(person.prompts, asked, strict=True)] == [True] * 4
    mine, theirs = match.state.dealt
    text = person.text
    shows = re.search(r"• Tess shows (\S+), Croupier Bot shows (\S+): (.+)\.", text)
    assert shows, text
    played = shows.group(1), shows.group(2)
    assert played[0] == max(mine, key=rank) and played[1] in theirs
    # The computer's hand is never on screen: not before the reveal, and after it only
    # the card it played.
    before, after = text.split(shows.group(0))
    assert f"Your hand: {' '.join(mine)}" in before
    assert cards_in(before, theirs) == set()
    assert cards_in(after, theirs) <= {played[1]}
    # Every card the computer holds outranks Tess's best: it wins, whichever it played.
    assert expected_places(*played) == [2, 1] and shows.group(3) == "Croupier Bot wins"
    assert f"\nResult: Croupier Bot wins; {REASON}." in text
    store = await Store.open(db)
    try:
        assert (await store.matches.get(match.id)).status == "finished"
        _, seats = await store.matches.result(match.id)
        assert [s.place for s in seats] == [2, 1]
    finally:
        await store.close()


# -- 3. the fake Discord, end to end --------------------------------------------------------
def everything_in(messages: Sequence[Any]) -> str:
    """Every version of every message: what anyone could have read there."""
    parts = []
    for message in messages:
        parts.append(message.text)
        parts += [f"{old.content} {json.dumps(old.embeds)}" for old in message.history]
    return "\n".join(parts)


async def test_discord_offers_it_deals_hands_by_dm_and_shows_the_higher_card_win(
        fake_discord, tmp_path, monkeypatch):
    deal_the_same(monkeypatch, BO_WINS)
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("high-table")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    bot = make_bot(tmp_path / "highcard.sqlite3", clock=FakeClock())
    async with fake_discord.running(bot):
        assert f"play {NAME}" in fake_discord.find_command("play", channel).subcommand_names()
        opened = await fake_discord.slash(ada, channel, f"play {NAME}")
        assert not opened.ephemeral and TITLE in opened.content
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)

        # Each hand arrives by DM with a menu of its cards, and only there.
        people = {0: ada, 1: bo}
        dms = {seat: await fake_discord.wait_for_message(user, contains=PROMPT)
               for seat, user in people.items()}
        hands = {seat: select_values(dm, select_ids(dm)[0]) for seat, dm in dms.items()}
        for seat, dm in dms.items():
            assert cards_in(dm.text, hands[seat]) == set(hands[seat])
            assert cards_in(dm.text, hands[1 - seat]) == set()
        assert [len(h) for h in hands.values()] == [3, 3] and not set(hands[0]) & set(hands[1])

        bo_card, ada_card = max(hands[1], key=rank), min(hands[0], key=rank)
        await fake_discord.select(bo, dms[1], select_ids(dms[1])[0], [bo_card])
        await bot.service.settle()
        assert match.state.has_chosen(1) and not match.finished
        assert cards_in(everything_in(channel.messages), hands[0] + hands[1]) == set()
        assert "Chosen (secret): Bo" in table_message(channel).text

        await fake_discord.select(ada, dms[0], select_ids(dms[0])[0], [ada_card])
        await bot.service.settle()
        assert rank(bo_card) > rank(ada_card)
        table = table_message(channel).text
        assert f"Ada shows {ada_card}, Bo shows {bo_card}: Bo wins." in table
        assert f"**Bo wins** ({REASON})" in table
        # Nobody ever saw a card the other kept: not in the channel, not in their DMs.
        unplayed = {0: set(hands[0]) - {ada_card}, 1: set(hands[1]) - {bo_card}}
        assert cards_in(everything_in(channel.messages), [*unplayed[0], *unplayed[1]]) == set()
        for seat, user in people.items():
            seen = everything_in(fake_discord.dm_messages(user))
            assert cards_in(seen, list(unplayed[1 - seat])) == set()

        row = await bot.store.matches.get(match.id)
        assert row is not None and row.status == "finished"
        reason, seats = await bot.store.matches.result(match.id)
        assert reason == REASON and [s.place for s in seats] == [2, 1]

