"""Fair seats in Hammer & Nails: once a player goes out (the deck empty), each other
player has one last turn (``final_round:each``, the default). The seed's example,
read as the round finishing with the dealer, who moves second and so always had
the last turn, is ``final_round:dealer``: the first mover scored about 42 % under
it (docs/rules/nails.md). A match stored before the option gets ``dealer`` written
in by a migration, so it replays as it was played."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import i18n
from rules.core import replay, thinking_rng
from rules.errors import BadOptions
from rules.nails import GAME as NAILS
from rules.nails import NailsOptions, NailsState
from storage import Store
from storage.db import Database, shipped_migrations
from storage.models import SeatRow


def position(hands: list[list[int]], turn: int, dealer: int, ending: str) -> NailsState:
    """The deck empty, ``turn`` to place. The hands hold tiles of nails and blanks
    only: laid, they fire nothing."""
    return NailsState.position(hands, draw=[], turn=turn, dealer=dealer,
                               options=NailsOptions.parse({"final_round": ending}))


def lay(state: NailsState) -> None:
    """The player to move lays a tile, anywhere."""
    decision = state.pending()[0]
    assert decision.kind == "place"
    state.apply(decision.seat, decision.options[0])


def ended(state: NailsState) -> bool:
    return state.phase in ("over", "tiebreak")


def test_each_is_the_default() -> None:
    assert NailsOptions.parse({}).final_round == "each"
    assert NAILS.new({}, 2, 1).options.final_round == "each"


@pytest.mark.parametrize("ending", ["each", "dealer"])
def test_when_the_first_player_goes_out_the_dealer_has_the_last_turn(ending: str) -> None:
    state = position([[41], [42, 47]], turn=0, dealer=1, ending=ending)
    lay(state)
    assert state.went_out == [0] and state.final_round and state.turn == 1
    lay(state)
    assert ended(state) and len(state.hands[1]) == 1


def test_when_the_dealer_goes_out_the_other_player_has_one_last_turn() -> None:
    state = position([[41, 42], [47]], turn=1, dealer=1, ending="each")
    lay(state)
    assert state.went_out == [1] and not ended(state) and state.turn == 0
    lay(state)
    assert ended(state) and len(state.hands[0]) == 1


def test_under_the_seeds_ending_the_dealer_going_out_ends_the_game() -> None:
    state = position([[41, 42], [47]], turn=1, dealer=1, ending="dealer")
    lay(state)
    assert state.went_out == [1] and ended(state) and len(state.hands[0]) == 2


@pytest.mark.parametrize(("ending", "last_turns"), [("each", [2, 3, 0]), ("dealer", [2, 3])])
def test_four_players(ending: str, last_turns: list[int]) -> None:
    """Seat 1 goes out; seat 3 deals."""
    state = position([[41, 42], [30], [37, 38], [47, 48]], turn=1, dealer=3, ending=ending)
    lay(state)
    assert state.went_out == [1]
    played = []
    while not ended(state):
        played.append(state.turn)
        lay(state)
    assert played == last_turns


def test_a_bad_ending_is_refused_by_name() -> None:
    with pytest.raises(BadOptions, match="final_round"):
        NailsOptions.parse({"final_round": "never"})


def english(paragraphs: object) -> str:
    """The rules as an English reader reads them."""
    assert isinstance(paragraphs, list)
    return "\n\n".join(i18n.say(part, "en") for part in paragraphs)


def test_the_rules_say_how_the_game_ends() -> None:
    usual = english(NAILS.rules_for())
    assert "each other player has one last turn and the game ends" in usual
    assert "`final_round:dealer`" in usual
    seed = english(NAILS.rules_for({"final_round": "dealer"}))
    assert "finished with the dealer's turn" in seed and "`final_round:each`" in seed


def _played(options: dict[str, object], seed: int) -> tuple[NailsState, list[tuple[int, str]]]:
    state = NAILS.new(options, 2, seed)
    log = []
    while state.outcome() is None:
        decision = state.pending()[0]
        choice = decision.forced or NAILS.bot(state.copy(), decision.seat,
                                              thinking_rng(seed, state.step, decision.seat))
        state.apply(decision.seat, choice)
        log.append((decision.seat, choice))
    assert isinstance(state, NailsState)
    return state, log


async def test_a_match_stored_before_the_option_replays_as_it_was_played(
        tmp_path: Path) -> None:
    """A match and a tournament of Hammer & Nails stored with the options of before
    get ``final_round:dealer`` written in; new ones and other games keep theirs."""
    path = tmp_path / "old.sqlite3"
    before = [m for m in shipped_migrations() if m.name != "nails_final_round"]
    assert len(before) == len(shipped_migrations()) - 1
    db = await Database.open(path, before)
    store = Store(db)
    old_options = {"deck": "workshop", "objective": None, "teams": None}
    seat = [SeatRow(0, 1, "Ada")]
    old = await store.matches.create_lobby(
        game="nails", options=old_options, seed=3, guild_id=1, channel_id=10, host_id=1,
        max_seats=2, seats=seat)
    chosen = await store.matches.create_lobby(
        game="nails", options={**old_options, "final_round": "each"}, seed=3, guild_id=1,
        channel_id=11, host_id=1, max_seats=2, seats=seat)
    other = await store.matches.create_lobby(
        game="flank", options={}, seed=3, guild_id=1, channel_id=12, host_id=1,
        max_seats=2, seats=seat)
    cup = await store.tournaments.create(
        guild_id=1, channel_id=13, name="Cup", game="nails", format="swiss",
        options=old_options, settings={}, organiser_id=1, seed=3)
    await store.close()

    store = await Store.open(path)
    try:
        rows = {m: await store.matches.get(m) for m in (old, chosen, other)}
        assert rows[old].options["final_round"] == "dealer"
        assert rows[chosen].options["final_round"] == "each"
        assert "final_round" not in rows[other].options
        assert (await store.tournaments.get(cup)).options["final_round"] == "dealer"
    finally:
        await store.close()

    # A game the two endings finish differently, stored before: it replays the same.
    for seed in range(40):
        then, log = _played({"final_round": "dealer"}, seed)
        now, _ = _played({}, seed)
        if now.outcome() != then.outcome():
            break
    else:
        raise AssertionError("no game ends differently under the two endings")
    again = replay(NAILS, rows[old].options, 2, seed, log)
    assert again.notation() == then.notation() and again.outcome() == then.outcome()
