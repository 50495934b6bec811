"""Fair seats in Flank: black, who moves first, gets an extra stopper on the unbounded
table (``extra_stoppers``, 1 unless set), because white lays the last card.

The measurements behind the default are in docs/rules/flank.md. The seed's literal
rule (stoppers evenly divided) is ``extra_stoppers:0``, the default on a board (8×8
without stoppers stays Othello) and what a match stored before the option existed
gets written in by a migration, so it replays as it was played.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.i18n import say
from rules.core import replay, thinking_rng
from rules.errors import BadOptions, IllegalChoice, RulesError
from rules.flank import GAME as FLANK
from rules.flank import FlankOptions, FlankState
from rules.flank.perft import perft
from storage import Store
from storage.db import Database, shipped_migrations
from storage.models import SeatRow


@contextmanager
def refused(kind: type[RulesError], pattern: str) -> Iterator[None]:
    """Like ``pytest.raises(kind, match=pattern)``, the pattern searched in the refusal's
    English words (a refusal carries a phrase, made in each reader's language)."""
    with pytest.raises(kind) as caught:
        yield
    assert re.search(pattern, say(caught.value.text, "en")), say(caught.value.text, "en")

def rules_words(options: dict[str, object] | None = None, locale: str = "en") -> str:
    """``/rules flank`` for ``options`` as a reader of ``locale`` reads it."""
    return "\n\n".join(say(paragraph, locale) for paragraph in FLANK.rules_for(options))




@pytest.mark.parametrize("first", [0, 1])
def test_black_gets_a_stopper_more_on_the_default_table(first: int) -> None:
    state = FLANK.new({}, 2, 4)
    assert isinstance(state, FlankState)
    state = FlankState({}, first=first)
    view = state.observe(None)
    black, white = first, 1 - first
    assert view.stoppers_left[black] == 6 and view.stoppers_left[white] == 5
    assert state.options.extra_stoppers == 1 and state.options.black_stoppers == 6
    assert view.stoppers == 6


def test_the_seeds_even_split_is_extra_stoppers_0() -> None:
    state = FlankState({"extra_stoppers": "0"}, first=1)
    assert state.observe(None).stoppers_left == (5, 5)
    assert FlankState({"extra_stoppers": 3, "stoppers": 2}, first=0).stoppers == [5, 2]


@pytest.mark.parametrize(("given", "extra"), [
    ({"board": 8}, 0),
    ({"board": 8, "stoppers": 0}, 0),
    ({"board": 6, "stoppers": 3}, 0),
    ({"stoppers": 0}, 0),       # no stoppers means none at all
    ({"stoppers": 1}, 1),
    ({"board": 8, "extra_stoppers": 1}, 1),
    ({"extra_stoppers": None}, 1),
])
def test_the_extra_defaults_to_1_only_on_the_table_with_stoppers(
        given: dict[str, object], extra: int) -> None:
    assert FlankOptions.parse(given).extra_stoppers == extra


def test_othello_stays_othello() -> None:
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    assert state.stoppers == [0, 0]
    assert not any(o.endswith("*") for o in state.pending()[0].options)
    assert perft(state, 4) == 244


@pytest.mark.parametrize("bad", [-1, 6, "two"])
def test_a_bad_extra_is_refused_by_name(bad: object) -> None:
    with refused(BadOptions, "extra_stoppers"):
        FlankOptions.parse({"extra_stoppers": bad})


def test_with_stoppers_0_only_black_may_hold_extra_ones() -> None:
    state = FlankState({"stoppers": 0, "extra_stoppers": 1}, first=0)
    assert state.stoppers == [1, 0]
    assert "F4*" in state.pending()[0].options
    state.apply(0, "F4*")
    assert state.stoppers == [0, 0]
    assert not any(o.endswith("*") for o in state.pending()[0].options)
    reply = state.pending()[0].options[0]
    with refused(IllegalChoice, "white has no stoppers in this game"):
        state.apply(1, reply + "*")
    state.apply(1, reply)
    with refused(IllegalChoice, "you have no stoppers left"):
        state.apply(0, state.pending()[0].options[0] + "*")


def test_the_notation_keeps_the_extra() -> None:
    state = FlankState({"extra_stoppers": 3}, first=1)
    text = state.notation()
    assert "extra_stoppers=3" in text and "stop=8,5" in text
    again = FlankState.from_notation(text)
    assert again == state and again.stoppers == [5, 8]
    literal = FlankState.from_notation("rows=XO/OX at=D4 extra_stoppers=0")
    assert literal.stoppers == [5, 5]


def test_the_rules_say_who_gets_the_extra_stoppers() -> None:
    usual = rules_words()
    assert "Black gets 1 stopper more" in usual and "`extra_stoppers`" in usual
    seed = rules_words({"extra_stoppers": 0})
    assert "Black gets" not in seed and "the original rule" in seed
    assert "Black gets" not in rules_words({"board": 8, "stoppers": 0})


def _played(options: dict[str, object], seed: int) -> tuple[FlankState, list[tuple[int, str]]]:
    state = FLANK.new(options, 2, seed)
    log = []
    while state.outcome() is None:
        decision = state.pending()[0]
        choice = decision.forced or FLANK.bot(state.copy(), decision.seat,
                                              thinking_rng(seed, state.step, decision.seat))
        state.apply(decision.seat, choice)
        log.append((decision.seat, choice))
    assert isinstance(state, FlankState)
    return state, log


async def test_a_match_stored_before_the_option_replays_as_it_was_played(
        tmp_path: Path) -> None:
    """A Flank match and tournament stored with the options of before get
    ``extra_stoppers:0`` written in; new ones and other games keep theirs."""
    path = tmp_path / "old.sqlite3"
    before = [m for m in shipped_migrations() if m.name != "flank_extra_stoppers"]
    db = await Database.open(path, before)
    store = Store(db)
    old_options = {"board": 0, "stoppers": 5, "stopper_zone": "none", "cards": 25}
    seat = [SeatRow(0, 1, "Ada")]
    old = await store.matches.create_lobby(
        game="flank", options=old_options, seed=3, guild_id=1, channel_id=10, host_id=1,
        max_seats=2, seats=seat)
    chosen = await store.matches.create_lobby(
        game="flank", options={**old_options, "extra_stoppers": 4}, seed=3, guild_id=1,
        channel_id=11, host_id=1, max_seats=2, seats=seat)
    other = await store.matches.create_lobby(
        game="nails", options={}, seed=3, guild_id=1, channel_id=12, host_id=1,
        max_seats=2, seats=seat)
    cup = await store.tournaments.create(
        guild_id=1, channel_id=13, name="Cup", game="flank", format="swiss",
        options=old_options, settings={}, organiser_id=1, seed=3)
    await store.close()

    store = await Store.open(path)
    try:
        rows = {m: await store.matches.get(m) for m in (old, chosen, other)}
        assert rows[old].options["extra_stoppers"] == 0
        assert rows[chosen].options["extra_stoppers"] == 4
        assert "extra_stoppers" not in rows[other].options
        assert (await store.tournaments.get(cup)).options["extra_stoppers"] == 0
    finally:
        await store.close()

    then, log = _played({**old_options, "extra_stoppers": 0}, 3)
    again = replay(FLANK, rows[old].options, 2, 3, log)
    assert again.notation() == then.notation() and again.outcome() == then.outcome()
