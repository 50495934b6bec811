"""Arcane Duel's Discord table and DM, as the presenter makes them: the battlefield
picture on the table, the hand picture with the playable cards marked, menus by kind of
play and buttons for the one-word choices; the deck a seat brings; /card; and a
priority window that times out passes with no strike."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.discord_parts.replies import Drawing
from bot.discord_parts.views import ChoiceButton, ChoiceSelect, SplitButton
from bot.errors import WrongPhase
from bot.games import presenter_for
from bot.games.duel.commands import NoSuchCard, find_card
from bot.games.duel.table import playable_cards
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService, Timing
from bot.terminal.table import Screen
from rules.core import Decision
from rules.duel import GAME
from rules.duel.notation import act, parse
from rules.duel.state import DuelState
from storage.models import MatchRow, SeatRow
from tests.images import opened
from tests.recording import RecordingTransport

PRESENTER = presenter_for("duel")
HAND_ONLY = "Gnawing Rust"
"""A card that is only ever in seat 0's hand below."""


def live(state: DuelState) -> LiveMatch:
    """A live match holding ``state``, between Ada and Bo."""
    row = MatchRow(id=7, game="duel", options={}, seed=1, guild_id=1, channel_id=2, host_id=10,
                   max_seats=2, status="active",
                   seats=[SeatRow(seat=0, user_id=10, name="Ada"),
                          SeatRow(seat=1, user_id=11, name="Bo")])
    match = LiveMatch(row=row, info=GAME)
    match.state = state
    return match


def ids(items) -> list[str]:
    return [item.item.custom_id for item in items]


def main_position() -> DuelState:
    return parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Ashpeak, " + HAND_ONLY
                 + " | gy - | play 1 Ashpeak, 2 Burrtusk Boar "
                 "// p2 20 | lib 5 | hand Ashpeak | gy - | play 3 Palebark Stag")


def test_the_table_has_the_battlefield_picture_and_no_hand() -> None:
    match = live(main_position())
    embed, files = PRESENTER.board(match)
    assert len(files) == 1 and files[0].filename == f"duel-7-{match.state.step}.png"
    assert embed.image.url == f"attachment://{files[0].filename}"
    assert isinstance(files[0], Drawing)  # drawn off the event loop, when the table is sent
    assert opened(files[0].draw()).width > 300
    words = str(embed.to_dict())
    assert "Ada" in words and "lands 1/1" in words  # the permanents are in the picture
    assert HAND_ONLY not in words and "Kindlewhip" not in words
    assert "main phase" in words  # whose move it is


def test_the_dm_marks_the_playable_hand_and_groups_the_plays() -> None:
    match = live(main_position())
    view = match.private_view(0)
    assert view.decision is not None and view.decision.kind == "main"
    assert playable_cards(view.decision) == {"Kindlewhip", "Ashpeak"}  # not the black aura
    parts = PRESENTER.private(match, view)
    assert parts["attachments"][0].filename.startswith("hand-7-0-")
    items = PRESENTER.decision_items(match, view)
    menus = [i for i in items if isinstance(i, ChoiceSelect)]
    buttons = {i.choice: i.item.label for i in items if isinstance(i, ChoiceButton)}
    assert [m.item.placeholder for m in menus] == ["Play a land", "Cast a spell"]
    assert "cast Kindlewhip" in [o.value for m in menus for o in m.item.options]
    assert buttons == {"attack": "⚔️ Attack", "end": "End turn"}
    # The opponent's DM never names what only Ada holds.
    other = PRESENTER.private(match, match.private_view(1))
    assert HAND_ONLY not in str(other["embed"].to_dict())


def test_priority_has_a_pass_button_and_the_answers_in_a_menu() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Kindlewhip | gy - | play 2 Ashpeak")
    state.players[1].auto_pass = False
    act(state, "cast Kindlewhip @p2")
    match = live(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind) == (1, "priority")
    view = match.private_view(1)
    items = PRESENTER.decision_items(match, view)
    assert any(isinstance(i, ChoiceButton) and i.choice == "pass" for i in items)
    answers = [o.value for i in items if isinstance(i, ChoiceSelect) for o in i.item.options]
    assert answers == ["cast Kindlewhip"]
    text = str(PRESENTER.private(match, view)["embed"].to_dict())
    assert "Respond to Kindlewhip" in text
    assert "To answer: 8 Kindlewhip (Ada) → Bo — Deal 2 damage" in text  # what it does


def test_blocks_get_a_no_blockers_button_and_none_means_no_blocks() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Palebark Stag")
    act(state, "attack 1")
    while (pending := state.pending()) and pending[0].kind == "priority":
        state.apply(pending[0].seat, "pass")
    match = live(state)
    view = match.private_view(1)
    assert view.decision is not None and view.decision.kind == "block"
    items = PRESENTER.decision_items(match, view)
    assert {i.item.label for i in items if isinstance(i, ChoiceButton)} == {"No blockers"}
    assert [o.label for i in items if isinstance(i, ChoiceSelect) for o in i.item.options] == [
        "Palebark Stag blocks Burrtusk Boar"]
    state.apply(1, "none")
    assert state.combat is None or not any(state.combat.blocks.values())


def test_a_damage_split_gets_its_form_button() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Deepcoil Serpent "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Burrtusk Boar, 3 Palebark Stag")
    act(state, "attack 1")
    while (pending := state.pending()) and pending[0].kind == "priority":
        state.apply(pending[0].seat, "pass")
    act(state, "block 2>1,3>1")
    while (pending := state.pending()) and pending[0].kind == "priority":
        state.apply(pending[0].seat, "pass")
    match = live(state)
    view = match.private_view(0)
    assert view.decision is not None and view.decision.pick == "split"
    items = PRESENTER.decision_items(match, view)
    assert [type(i) for i in items] == [SplitButton]
    assert PRESENTER.option_labels(match, view) == ["2 Burrtusk Boar", "3 Palebark Stag"]


def test_playable_cards_only_in_a_window_to_play() -> None:
    assert playable_cards(None) == set()
    assert playable_cards(Decision(0, "target", "", ("p1", "cancel"))) == set()


async def test_a_seat_brings_a_named_deck_and_a_wrong_one_is_refused_by_name() -> None:
    service = MatchService(None)  # type: ignore[arg-type]  (naming a deck stores nothing)
    assert await service.seat_deck(GAME, 1, 2, "night-and-ember") == {"deck": "night-and-ember"}
    with pytest.raises(WrongPhase, match=r"no deck called.*dawn-and-tide"):
        await service.seat_deck(GAME, 1, 2, "best deck")


def test_card_lookup_ignores_case_and_suggests_near_names() -> None:
    assert find_card("KINDLEWHIP").name == "Kindlewhip"
    with pytest.raises(NoSuchCard, match="Did you mean Kindlewhip"):
        find_card("Kindelwhip")
    with pytest.raises(NoSuchCard, match="completes names"):
        find_card("<@123> ||x||" * 5)


async def test_a_priority_window_that_times_out_passes_with_no_strike(store) -> None:
    clock = FakeClock()
    service = MatchService(store, RecordingTransport(), clock=clock,
                           timing=Timing(turn_seconds=60, warn_seconds=10))
    ada, bo = Player(10, "Ada"), Player(11, "Bo")
    await service.open_lobby(ada, guild_id=1, channel_id=5, game="duel", seed=3,
                             setup={"deck": "ember-and-grove", "auto_pass": False})
    await service.join(bo, 5, setup={"deck": "dawn-and-tide", "auto_pass": False})
    match = await service.start(ada, 5)
    await service.settle()
    passed = 0
    for _ in range(12):
        decision = match.state.pending()[0]
        if decision.kind != "priority":
            break
        clock.advance(61)
        await service.tick()
        await service.settle()
        passed += 1
    assert passed >= 1
    assert [s.strikes for s in match.seats] == [0, 0]
    choices = await store.matches.choices(match.id)
    assert [c.choice for c in choices][:passed] == ["pass"] * passed
    await service.settle()


def test_the_table_the_dms_and_the_terminal_show_the_ante_in_a_duel_for_ante() -> None:
    state = parse("2 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak | "
                  "ante Burrtusk Boar // p2 20 | lib 5 | hand - | gy - | play - | "
                  "ante Rushing Sap")
    match = live(state)
    line = "Ante: Burrtusk Boar (Ada) · Rushing Sap (Bo)"
    embed, _ = PRESENTER.board(match)
    players = next(f for f in embed.to_dict()["fields"] if f["name"] == "Players")
    assert players["value"].splitlines()[-1] == line
    for seat in (0, 1):  # the ante lies face up: both DMs show both cards
        assert line in str(PRESENTER.private(match, match.private_view(seat))["embed"].to_dict())
    out: list[str] = []
    Screen(out.append).show(PRESENTER.terminal(state.observe(0), ["Ada", "Bo"]))
    assert line in out[0].splitlines()
    # A duel without ante says nothing of it.
    plain = live(main_position())
    assert "Ante" not in str(PRESENTER.board(plain)[0].to_dict())
    out.clear()
    Screen(out.append).show(PRESENTER.terminal(plain.state.observe(0), ["Ada", "Bo"]))
    assert "Ante" not in out[0]
