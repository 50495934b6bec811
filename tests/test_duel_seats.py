"""Fair seats in Arcane Duel: the option ``head_start`` offsets moving first.

The default (``no-draw``: the first player skips the draw of their first turn) is
the one measured nearest an even first-mover score (docs/rules/duel.md); the seed's
literal rule stays as ``draw``, and a duel stored before the option existed gets
``draw`` written in by a migration, so that it replays as it was played.
"""

from __future__ import annotations

from pathlib import Path

from rules.core import replay, thinking_rng
from rules.duel import GAME, DuelOptions, DuelState
from storage import SeatRow, Store
from storage.db import Database, shipped_migrations

RED, GREEN = {"deck": "ember-and-grove"}, {"deck": "tide-and-night"}


def first_turn(options: dict) -> tuple[DuelState, list[str]]:
    """A new duel and the event kinds of its first turn, up to the first player's
    main phase (every window passed)."""
    state = GAME.new(options, 2, 11, (RED, GREEN))
    assert isinstance(state, DuelState)
    kinds = [e.kind for e in state.opening_events]
    while state.pending()[0].kind != "main":
        decision = state.pending()[0]
        kinds += [e.kind for e in state.apply(decision.seat, "pass")]
    return state, kinds


def test_the_default_offsets_moving_first_by_skipping_the_first_draw() -> None:
    assert DuelOptions.parse({}).head_start == "no-draw"
    state, kinds = first_turn({})
    first = state.active
    assert len(state.players[first].hand) == 7
    assert len(state.players[1 - first].hand) == 7
    assert "draw" not in kinds and "no-draw" in kinds


def test_the_seed_s_rule_is_an_option_the_first_player_draws_too() -> None:
    state, kinds = first_turn({"head_start": "draw"})
    assert len(state.players[state.active].hand) == 8
    assert "draw" in kinds and "no-draw" not in kinds


def test_the_first_player_draws_from_their_second_turn_on() -> None:
    state = GAME.new({}, 2, 11, (RED, GREEN))
    first = state.active
    while state.turn < 3:
        decision = state.pending()[0]
        choice = decision.forced or GAME.bot(state.copy(), decision.seat,
                                           thinking_rng(11, state.step, decision.seat))
        state.apply(decision.seat, choice)
    assert state.active == first
    while state.phase != "main":
        state.apply(state.pending()[0].seat, "pass")
    library = len(state.players[first].library)
    assert library == 40 - 7 - 1, "one draw on the third turn, none on the first"


def test_a_card_or_a_life_more_for_the_other_player() -> None:
    for value, extra_card, extra_life in (("card", 1, 0), ("life", 0, 1)):
        state = GAME.new({"head_start": value}, 2, 11, (RED, GREEN))
        first, second = state.active, 1 - state.active
        assert len(state.players[second].hand) == 7 + extra_card, value
        assert len(state.players[first].hand) == 7, value
        assert state.players[second].life == 20 + extra_life, value
        assert state.players[first].life == 20, value


def test_each_value_plays_the_same_shuffle_and_first_player() -> None:
    """The offset draws no random number: only the first turn differs."""
    plain = GAME.new({"head_start": "draw"}, 2, 5)
    for value in ("no-draw", "card", "life"):
        other = GAME.new({"head_start": value}, 2, 5)
        assert other.active == plain.active
        assert [p.library[-20:] for p in other.players] == \
            [p.library[-20:] for p in plain.players]


async def test_a_duel_stored_before_the_option_replays_as_it_was_played(
        tmp_path: Path) -> None:
    """A match and a tournament stored with the options of before get ``draw``
    written in by the migration; new ones keep what they chose."""
    path = tmp_path / "old.sqlite3"
    before = [m for m in shipped_migrations() if m.name != "duel_head_start"]
    db = await Database.open(path, before)
    store = Store(db)
    old_options = {"ante": False, "auto_pass": True, "life": 20}
    old = await store.matches.create_lobby(
        game="duel", options=old_options, seed=3, guild_id=1, channel_id=10, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "Ada")])
    chosen = await store.matches.create_lobby(
        game="duel", options={**old_options, "head_start": "life"}, seed=3, guild_id=1,
        channel_id=11, host_id=1, max_seats=2, seats=[SeatRow(0, 1, "Ada")])
    flank = await store.matches.create_lobby(
        game="flank", options={"board": 8}, seed=3, guild_id=1, channel_id=12, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "Ada")])
    cup = await store.tournaments.create(
        guild_id=1, channel_id=13, name="Cup", game="duel", format="swiss",
        options=old_options, settings={}, organiser_id=1, seed=3)
    await store.close()

    store = await Store.open(path)
    try:
        rows = {m: await store.matches.get(m) for m in (old, chosen, flank)}
        assert rows[old].options["head_start"] == "draw"
        assert rows[chosen].options["head_start"] == "life"
        assert "head_start" not in rows[flank].options
        tournament = await store.tournaments.get(cup)
        assert tournament.options["head_start"] == "draw"
    finally:
        await store.close()

    # Played then, under the seed's rule, a duel's log replays to the same end.
    then = GAME.new({"head_start": "draw"}, 2, 3)
    log = []
    while then.outcome() is None:
        decision = then.pending()[0]
        choice = decision.forced or GAME.bot(then.copy(), decision.seat,
                                           thinking_rng(3, then.step, decision.seat))
        then.apply(decision.seat, choice)
        log.append((decision.seat, choice))
    again = replay(GAME, rows[old].options, 2, 3, log)
    assert again.outcome() == then.outcome()
    assert again.notation() == then.notation()
