"""Arcane Duel's automatic passing turned off and on mid-duel: in the rules (a seat's
setting, not a choice: the log replays to the same position whenever it changed) and
at the local table (``autopass on|off``, kept over a restart). The Discord side is in
tests/test_e2e_duel_autopass.py."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.games.duel.autopass import AutoPassError, autopass_value
from bot.terminal.table import play_local
from rules.core import replay
from rules.duel import GAME
from rules.duel.bot import choose
from rules.duel.state import DuelState

DECKS = [{"deck": "ember-and-grove"}, {"deck": "tide-and-night"}]


def play(state: DuelState, moves: int, seed: int) -> list[tuple[int, str]]:
    """``moves`` choices of the computer (forced ones made as the platform makes them)."""
    rng = random.Random(seed)
    log = []
    for _ in range(moves):
        pending = state.pending()
        if not pending:
            break
        seat = pending[0].seat
        choice = pending[0].forced or state.canonical(seat, choose(state, seat, rng))
        state.apply(seat, choice, checked=True)
        log.append((seat, choice))
    return log


def test_a_seat_turned_off_is_asked_where_it_would_have_passed_by_itself() -> None:
    state = GAME.new({}, 2, 5, DECKS)
    assert isinstance(state, DuelState)
    seen = 0
    for _ in range(400):  # find a window the seat is in, able to play nothing
        pending = state.pending()[0]
        if pending.kind == "priority" and pending.options == ("pass",):
            seen += 1
            assert pending.forced == "pass"
            state.set_auto_pass(pending.seat, False)
            asked = state.pending()[0]
            assert asked.options == ("pass",) and asked.forced is None  # asked now
            state.set_auto_pass(pending.seat, True)
            assert state.pending()[0].forced == "pass"
            break
        play(state, 1, 9)
    assert seen


@pytest.mark.parametrize("seed", range(3))
def test_a_duel_replays_to_the_same_position_whenever_the_setting_changed(seed: int) -> None:
    """The setting changes which passes the platform makes, and every pass is in the
    log: replayed with the seat's last setting, the log gives the same duel."""
    state = GAME.new({}, 2, seed, DECKS)
    assert isinstance(state, DuelState)
    log = play(state, 60, seed)
    state.set_auto_pass(1, False)
    log += play(state, 60, seed + 1)
    state.set_auto_pass(0, False)
    state.set_auto_pass(1, True)
    log += play(state, 60, seed + 2)
    setups = [{**DECKS[0], "auto_pass": False}, {**DECKS[1], "auto_pass": True}]
    again = replay(GAME, {}, 2, seed, log, setups)
    assert isinstance(again, DuelState)
    assert again.notation() == state.notation()
    assert [again.auto_passing(s) for s in (0, 1)] == [False, True]
    assert again.pending() == state.pending()


@pytest.mark.parametrize(("typed", "on"), [("on", True), (" OFF", False), ("yes", True)])
def test_the_setting_is_typed_on_or_off(typed: str, on: bool) -> None:
    assert autopass_value(typed) is on


def test_anything_else_is_refused_by_name() -> None:
    with pytest.raises(AutoPassError, match="on or off, not 'maybe'"):
        autopass_value("maybe")


class Person:
    """Types ``first``, then plays its first turn without a land (so that it can cast
    nothing until its next turn: Murkfen discarded at the hand limit) and passes every
    window it is asked in, until its second main phase."""

    def __init__(self, first: list[str], mains: int = 0) -> None:
        self.first = list(first)
        self.prompts: list[str] = []
        self.out: list[str] = []
        self.mains = mains
        """Main phases met so far: the second one ends the sitting."""

    async def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.first:
            return self.first.pop(0)
        if prompt.startswith("Your main phase"):
            self.mains += 1
            return "end" if self.mains == 1 else "quit"
        if prompt.startswith("Discard") and self.mains == 1:
            return "Murkfen"
        if prompt.startswith("Anything before"):
            return "pass"
        return "quit"

    @property
    def windows(self) -> list[str]:
        return [p for p in self.prompts if p.startswith("Anything before")]

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def seat_setup(db: Path) -> list[tuple[int, str | None]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT seat, setup FROM match_seats ORDER BY seat").fetchall()


async def test_autopass_at_the_terminal_is_asked_in_every_window_and_kept_on_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same duel played twice, the same way: with automatic passing on the person
    is never asked in a window (they can play nothing); turned off, in every one."""
    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(4))
    on = Person(["autopass"])
    await play_local(str(tmp_path / "on.sqlite3"), game="duel", seats=2,
                     read_line=on.read_line, write=on.out.append, name="Tess")
    assert "Automatic passing is on: a window where you can play nothing passes by " \
        "itself" in on.text
    assert on.mains == 2 and on.windows == []

    db = tmp_path / "off.sqlite3"
    off = Person(["autopass off", "autopass maybe"])
    await play_local(str(db), game="duel", seats=2, read_line=off.read_line,
                     write=off.out.append, name="Tess")
    assert "Automatic passing is off: you are asked in every window" in off.text
    assert "on or off, not 'maybe'" in off.text
    assert off.mains == 2 and len(off.windows) >= 4  # the bot's upkeep, draw, …
    assert '"auto_pass": false' in seat_setup(db)[0][1]

    again = Person(["y", "autopass", "autopass on", "autopass"], mains=1)
    await play_local(str(db), game="duel", seats=2, read_line=again.read_line,
                     write=again.out.append, name="Tess")
    said = [line for line in again.text.split("\n") if line.startswith("Automatic passing")]
    assert said[0].startswith("Automatic passing is off")  # kept over the restart
    assert said[1].startswith("Automatic passing is on") and said[2].startswith(
        "Automatic passing is on")
    assert '"auto_pass": true' in seat_setup(db)[0][1]


async def test_autopass_is_refused_outside_a_duel_in_play(tmp_path: Path) -> None:
    person = Person(["autopass off"])
    await play_local(str(tmp_path / "t.sqlite3"), read_line=person.read_line,
                     write=person.out.append, name="Tess")
    assert "autopass is for a duel being played" in person.text
