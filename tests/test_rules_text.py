"""Every game's rules text is written from the options chosen and the seat count: a
number an option sets is the number the rules say, each choice changes what they say,
and the table's size is the one at the table (issue 28: Eclipse with `counterattack=2
hand_cap=30` said "move exactly 3" and "after 400 hands"; Duel said "two players" at a
table of three)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import say, speaking
from commands.rules import rules_said
from rules.core import GameInfo
from rules.errors import BadOptions
from rules.options import OptionSpec
from rules.registry import games, shipped_games

GAMES = sorted(shipped_games())
"""The shipped games: a test's own game (registered by another module that this
worker happened to import first) writes no rules of its options."""
EMBED_LIMIT = 4096
"""Discord's limit for an embed's description, where /rules shows the text."""


def rules(info: GameInfo, options: object = None, seats: int | None = None,
          locale: str = "en") -> str:
    """``info``'s rules for ``options`` and ``seats`` as ``/rules`` says them in ``locale``."""
    with speaking(locale):
        return rules_said(info.rules_for(options, seats))  # type: ignore[arg-type]


def mentions(number: int, text: str) -> int:
    """How often ``number`` is written in ``text`` as a number of its own."""
    return len(re.findall(rf"(?<![\w.×-]){number}(?![\w×])", text))


def other_values(spec: OptionSpec, default: int) -> list[int]:
    """Values of a number option to try instead of its default (not its minimum,
    which may switch a rule off and be said in words)."""
    assert spec.minimum is not None and spec.maximum is not None
    picks = {spec.maximum, (spec.minimum + spec.maximum) // 2, spec.minimum + 1}
    return sorted(v for v in picks if v != default and v > spec.minimum)


def test_every_game_writes_its_rules_from_options_and_seats():
    for name in GAMES:
        info = games()[name]
        for locale in ("en", "pt_BR"):
            text = rules(info, locale=locale)
            assert text.strip() and len(text) <= EMBED_LIMIT, (name, locale)
        for seats in range(info.min_seats, info.max_seats + 1):
            assert rules(info, None, seats).strip()


@pytest.mark.parametrize("name", GAMES)
def test_each_number_option_is_the_number_the_rules_say(name):
    """The rules say each number option's default, and once another value is chosen they
    say that value and never the default any more (no default number appears in the
    rules for another reason, so a stale "exactly 3" cannot hide)."""
    info = games()[name]
    defaults = info.options.parse({})
    before = rules(info, {})
    for spec in info.options.specs():
        if spec.kind != "number":
            continue
        default = getattr(defaults, spec.name)
        assert mentions(default, before), f"{name}: the rules never say {spec.name} {default}"
        for value in other_values(spec, default):
            try:
                after = rules(info, {spec.name: value})
            except BadOptions:
                continue  # beyond what the other options allow (cards on the open table)
            assert mentions(default, after) == 0, (name, spec.name, value, after)
            assert mentions(value, after) > mentions(value, before), (name, spec.name, value)
            assert len(after) <= EMBED_LIMIT


@pytest.mark.parametrize("name", GAMES)
def test_each_choice_changes_what_the_rules_say(name):
    """Every value of a choice or yes/no option reads differently from the default at
    some table it can be played at, or plays the very same game at every table."""
    info = games()[name]
    for spec in info.options.specs():
        if spec.kind == "number":
            continue
        values = (True, False) if spec.kind == "yes/no" else spec.choices
        default = getattr(info.options.parse({}), spec.name)
        for value in values:
            if value == default:
                continue
            changed = same_game = False
            for seats in range(info.min_seats, info.max_seats + 1):
                try:
                    game = info.new({spec.name: value}, seats, 0)
                except BadOptions:
                    continue  # not a game anyone can open
                try:
                    usual = info.new({}, seats, 0).notation()
                except BadOptions:
                    usual = None  # only this choice takes so many (three four-colour seats)
                same_game |= game.notation() == usual
                for table in (None, seats):
                    changed |= (rules(info, {spec.name: value}, table)
                                != rules(info, {}, table))
            assert changed or same_game, (name, spec.name, value)


def test_the_seat_count_is_the_table_s():
    for name in GAMES:
        info = games()[name]
        if info.min_seats == info.max_seats:
            continue
        for seats in range(info.min_seats, info.max_seats + 1):
            text = rules(info, None, seats)
            head = text.split("\n", 1)[0]
            assert f"{seats} players" in head, (name, seats, head)
            assert "two players" not in text.lower() or seats == 2, (name, seats)
        anyone = rules(info).split("\n", 1)[0]
        assert re.search(rf"\b{info.min_seats} (to|or) {info.max_seats} players", anyone), anyone


def test_eclipse_counterattack_and_hand_cap_as_reported():
    info = games()["eclipse"]
    text = rules(info, {"counterattack": "2", "hand_cap": "30"}, 4)
    assert "move exactly 2" in text and "at least 2 cards" in text
    assert "After 30 hands" in text
    assert "exactly 3" not in text and "400" not in text
    assert text.startswith("**Eclipse** — 4 players")
    off = rules(info, {"counterattack": 0})
    assert "no counterattacks" in off and "move exactly" not in off
    one = rules(info, {"counterattack": 1})
    assert "at least 1 card in subsets" in one and "move exactly 1 of them" in one


def test_duel_at_a_table_of_three_is_a_free_for_all():
    info = games()["duel"]
    three = rules(info, {"life": 7, "ante": True, "auto_pass": False}, 3)
    assert "two players" not in three.lower() and "3 players" in three
    assert "7 life each" in three and "free-for-all" in three.lower()
    assert "ante" in three.lower() and "passed for you" not in three
    two = rules(info, None, 2)
    assert "2 players" in two and "free-for-all" not in two.lower()


def test_nails_says_the_deck_objective_and_teams_chosen():
    info = games()["nails"]
    space = rules(info, {"deck": "space"}, 2)
    assert "ship" in space and "laser" in space and "Most" in space
    assert "red and blue" in space
    fewest = rules(info, {"deck": "space", "objective": "fewest"}, 2)
    assert "Fewest" in fewest
    four = rules(info, {"teams": False}, 4)
    assert "four colours" in four and "two teams" not in four
    teams = rules(info, {}, 4)
    assert "two teams" in teams


def test_flank_says_the_board_stoppers_and_zone_chosen():
    info = games()["flank"]
    othello = rules(info, {"board": "8", "stoppers": 0})
    assert "8×8 board" in othello and "32 two-sided cards" in othello
    assert "No stoppers" in othello
    ring = rules(info, {"stopper_zone": "ring"})
    assert "this game: `ring`" in ring


def test_bad_options_or_seats_are_refused_by_name():
    info = games()["eclipse"]
    with pytest.raises(BadOptions, match="hand_cap"):
        rules(info, {"hand_cap": "²"})
    with pytest.raises(BadOptions) as refused:
        rules(info, None, 9)
    assert say(refused.value.text, "en") == "Eclipse takes 2–6 players, not 9"
    assert say(refused.value.text, "pt_BR") == "Eclipse é para 2–6 jogadores, não 9"
