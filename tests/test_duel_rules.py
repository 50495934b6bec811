"""Arcane Duel's turn, timing and losing rules, one small scenario per rule of
/work/shared/specs/duel.md ("A turn", "Timing", "Losing").

Every position is written in the scenario notation (:mod:`rules.duel.notation`),
like a chess engine's tests from FEN: each permanent that matters carries its
number, and the tests act with the short action notation.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.i18n import LOCALES, narrate, say
from rules.core import Event
from rules.duel.notation import act, parse, pass_until, settle
from rules.duel.options import DuelOptions
from rules.duel.rules_text import rules_text
from rules.duel.state import DuelState
from rules.errors import IllegalChoice

# -- helpers ------------------------------------------------------------------------


def asked(state: DuelState) -> tuple[int, str]:
    """Who decides now, and what kind of decision it is."""
    decision = state.pending()[0]
    return decision.seat, decision.kind


def options(state: DuelState) -> tuple[str, ...]:
    """The options of the decision asked now."""
    return state.pending()[0].options


def auto(state: DuelState) -> None:
    """Make the automatic passes of priority windows, but stop at any other
    decision (a main phase whose only option is ``end`` would end the turn)."""
    while (pending := state.pending()) and pending[0].kind == "priority" \
            and pending[0].forced is not None:
        state.apply(pending[0].seat, pending[0].forced)


def pass_priority(state: DuelState) -> None:
    """Both players pass every priority window until another kind of decision."""
    while (pending := state.pending()) and pending[0].kind == "priority":
        state.apply(pending[0].seat, "pass")


def resolve_stack(state: DuelState) -> list[Event]:
    """Pass until the stack is empty (the phase does not move on); the events."""
    events: list[Event] = []
    while state.stack:
        decision = state.pending()[0]
        events += state.apply(decision.seat, decision.forced or "pass")
    return events


def hand_option(state: DuelState, name: str) -> str:
    """The option of the discard decision that names a card of the hand."""
    decision = state.pending()[0]
    for option in decision.options:
        if option == name or (option.isdigit() and state.cards[int(option)] == name):
            return option
    raise AssertionError(f"{name} is not an option: {decision.options}")


def until(state: DuelState, reached: Callable[[], bool]) -> None:
    """Make forced choices and pass until ``reached()``."""
    while not reached():
        decision = state.pending()[0]
        state.apply(decision.seat, decision.forced or "pass")


def names(state: DuelState, seat: int, zone: str) -> list[str]:
    """The card names in one of a player's zones (``hand``, ``graveyard``, ``library``)."""
    return [state.cards[c] for c in getattr(state.players[seat], zone)]


def life(state: DuelState) -> tuple[int, int]:
    return state.players[0].life, state.players[1].life


# -- untap ---------------------------------------------------------------------------


def test_untap_untaps_only_the_active_players_permanents() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand - | gy - | play 1 Ashpeak T, "
                  "2 Burrtusk Boar T, 3 Sparkwheel Turret T // p2 20 | lib 5 | hand - | gy - | "
                  "play 4 Mossvale T, 5 Palebark Stag T")
    pass_until(state, "main", 0)
    assert (state.turn, state.active, state.phase) == (3, 0, "main")
    assert not any(state.battlefield[p].tapped for p in (1, 2, 3))
    assert state.battlefield[4].tapped and state.battlefield[5].tapped


def test_a_creature_whose_aura_says_no_untap_stays_tapped() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand - | gy - | play 1 Mossvale T, "
                  "2 Burrtusk Boar T // p2 20 | lib 5 | hand - | gy - | "
                  "play 3 Mistshore, 4 Fathom Slumber @2")
    pass_until(state, "main", 0)
    assert state.active == 0 and state.phase == "main"
    assert not state.battlefield[1].tapped
    assert state.battlefield[2].tapped
    assert "attack" not in options(state)


def test_an_artifact_whose_aura_says_no_untap_stays_tapped() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand - | gy - | play 1 Ashpeak T, "
                  "2 Sparkwheel Turret T // p2 20 | lib 5 | hand - | gy - | "
                  "play 3 Mistshore, 4 Barnacle Creep @2")
    pass_until(state, "main", 0)
    assert not state.battlefield[1].tapped
    assert state.battlefield[2].tapped


# -- upkeep --------------------------------------------------------------------------


def test_upkeep_effects_of_the_active_player_happen_at_their_upkeep() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand - | gy - | play 1 Sanctuary Bells, "
                  "2 Tolling Dirge // p2 20 | lib 5 | hand - | gy - | play 3 Rainmoss Bounty")
    events = pass_until(state, "main", 0)
    assert life(state) == (22, 19)  # Bells +1, Dirge +1/-1; p2's Bounty waits for p2's upkeep
    upkeep = [e for e in events if e.kind == "upkeep"]
    assert len(upkeep) == 2


def test_an_upkeep_effect_comes_before_the_draw() -> None:
    state = parse("2 p2 end // p1 20 | lib Kindlewhip, Ashpeak | hand - | gy - | "
                  "play 1 Ceaseless Study // p2 20 | lib Mossvale, Mossvale | hand - | gy - | "
                  "play -")
    events = pass_until(state, "main", 0)
    kinds = [e.kind for e in events if e.kind in {"upkeep", "draw"}]
    assert kinds[0] == "upkeep"
    # Ceaseless Study: each player draws one; then p1's own draw.
    assert names(state, 0, "hand") == ["Kindlewhip", "Ashpeak"]
    assert names(state, 1, "hand") == ["Mossvale"]


def test_fast_effects_are_allowed_in_the_upkeep() -> None:
    state = parse("3 p1 upkeep // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    assert asked(state) == (0, "priority")
    assert "cast Kindlewhip" in options(state)
    act(state, "cast Kindlewhip @p2")
    resolve_stack(state)
    assert state.players[1].life == 18
    assert state.phase == "upkeep"


# -- draw ----------------------------------------------------------------------------


def test_the_draw_step_draws_the_top_card() -> None:
    state = parse("3 p1 upkeep // p1 20 | lib Burrtusk Boar, Kindlewhip | hand - | gy - | "
                  "play - // p2 20 | lib 5 | hand - | gy - | play -")
    pass_until(state, "main", 0)
    assert names(state, 0, "hand") == ["Burrtusk Boar"]
    assert names(state, 0, "library") == ["Kindlewhip"]
    assert len(state.players[1].hand) == 0


def test_drawing_from_an_empty_library_loses() -> None:
    state = parse("3 p1 upkeep // p1 20 | lib - | hand - | gy - | play - "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    settle(state)
    assert state.over
    assert state.outcome().winners == (1,)


def test_drawing_from_an_empty_library_by_an_effect_loses() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play - "
                  "// p2 20 | lib - | hand - | gy - | play 4 Ceaseless Study")
    # p2 has an empty library; p1's turn ends, p2's Ceaseless Study makes both draw.
    act(state, "end")
    settle(state)
    assert state.over
    assert state.outcome().winners == (0,)


def test_both_players_drawing_from_empty_libraries_at_once_is_a_draw() -> None:
    # Ceaseless Study: each player draws a card; both libraries are empty.
    state = parse("2 p2 end // p1 20 | lib - | hand - | gy - | play 1 Ceaseless Study "
                  "// p2 20 | lib - | hand - | gy - | play -")
    settle(state)
    assert state.over
    assert state.outcome().is_draw


def test_both_players_losing_at_once_is_a_draw() -> None:
    # Cinder Levy at p1's upkeep: each player loses 1 life, both from 1 to 0.
    state = parse("2 p2 end // p1 1 | lib 5 | hand - | gy - | play 1 Cinder Levy "
                  "// p2 1 | lib 5 | hand - | gy - | play -")
    settle(state)
    assert state.over
    assert state.outcome().is_draw
    assert life(state) == (0, 0)


def test_symmetric_damage_at_one_life_each_is_a_draw_when_the_phase_ends() -> None:
    state = parse("3 p1 main // p1 1 | lib 5 | hand Bedrock Convulsion | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak // p2 1 | lib 5 | hand - | gy - | play -")
    act(state, "cast Bedrock Convulsion X=1")
    auto(state)
    assert life(state) == (0, 0)
    assert not state.over  # the middle of the main phase: nobody loses yet
    assert asked(state) == (0, "main")
    act(state, "end")
    assert state.over
    assert state.outcome().is_draw


# -- main phase: lands and sorcery speed ---------------------------------------------------


def test_one_land_per_turn() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashpeak, Mossvale, Kindlewhip | gy - | "
                  "play - // p2 20 | lib 5 | hand - | gy - | play -")
    assert {"land Ashpeak", "land Mossvale"} <= set(options(state))
    act(state, "land Ashpeak")
    auto(state)
    assert asked(state) == (0, "main")
    assert not any(o.startswith("land") for o in options(state))
    with pytest.raises(IllegalChoice):
        act(state, "land Mossvale")


def test_no_land_once_a_land_was_played_this_turn() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashpeak | gy - | play - | land-played "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    assert "land Ashpeak" not in options(state)


def test_the_land_allowance_comes_back_next_turn() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand Ashpeak | gy - | play - | land-played "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    pass_until(state, "main", 0)
    assert "land Ashpeak" in options(state)


def test_sorcery_speed_cards_in_your_own_main_phase_with_an_empty_stack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Unbidden Doubts, Burrtusk Boar, "
                  "Sunshard Lantern, Cinder Levy | gy - | play 1 Murkfen, 2 Mossvale, "
                  "3 Ashpeak // p2 20 | lib 5 | hand - | gy - | play -")
    assert asked(state) == (0, "main")
    assert {"cast Unbidden Doubts", "cast Burrtusk Boar", "cast Sunshard Lantern",
            "cast Cinder Levy"} <= set(options(state))


def test_no_sorcery_speed_card_while_the_stack_is_not_empty() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Unbidden Doubts, "
                  "Burrtusk Boar, Rushing Sap | gy - | play 1 Ashpeak, 2 Murkfen, 3 Murkfen, "
                  "4 Mossvale, 5 Mossvale // p2 20 | lib 5 | hand Kindlewhip | gy - | "
                  "play 6 Ashpeak")
    act(state, "cast Kindlewhip @p2")
    act(state, "cast Kindlewhip @p1")  # p2 answers: the stack holds two spells
    assert asked(state) == (0, "priority")
    assert "cast Unbidden Doubts" not in options(state)
    assert "cast Burrtusk Boar" not in options(state)
    with pytest.raises(IllegalChoice):
        act(state, "cast Unbidden Doubts @p2")


def test_no_sorcery_speed_card_during_an_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Unbidden Doubts, Burrtusk Boar, "
                  "Kindlewhip | gy - | play 1 Murkfen, 2 Mossvale, 3 Ashpeak, 4 Palebark Stag "
                  "// p2 20 | lib 5 | hand - | gy - | play 5 Glimmer Scholar")
    act(state, "attack 4")
    assert asked(state) == (0, "priority")
    assert "cast Kindlewhip" in options(state)  # an instant is fine
    assert "cast Unbidden Doubts" not in options(state)
    assert "cast Burrtusk Boar" not in options(state)
    act(state, "pass")
    auto(state)
    act(state, "block 5>4")
    assert asked(state) == (0, "priority")
    assert "cast Unbidden Doubts" not in options(state)
    assert "cast Burrtusk Boar" not in options(state)


def test_sorcery_speed_again_once_the_attack_is_over() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Unbidden Doubts | gy - | "
                  "play 1 Murkfen, 2 Murkfen, 4 Palebark Stag // p2 20 | lib 5 | hand - | "
                  "gy - | play -")
    act(state, "attack 4")
    auto(state)
    assert state.players[1].life == 17
    assert asked(state) == (0, "main")
    assert "cast Unbidden Doubts" in options(state)
    assert "attack" not in options(state)  # at most one attack a turn


def test_no_sorcery_speed_card_in_the_opponents_turn() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Unbidden Doubts, Burrtusk Boar, Cinder Levy, "
                  "Ashpeak, Kindlewhip | gy - | play 2 Murkfen, 3 Mossvale, 4 Ashpeak, "
                  "5 Ashpeak | manual")
    act(state, "cast Kindlewhip @p2")
    assert asked(state) == (1, "priority")
    assert options(state) == ("pass", "cast Kindlewhip")


def test_no_sorcery_speed_card_in_your_own_upkeep() -> None:
    state = parse("3 p1 upkeep // p1 20 | lib 5 | hand Unbidden Doubts, Burrtusk Boar, "
                  "Ashpeak | gy - | play 1 Murkfen, 2 Mossvale | manual // p2 20 | lib 5 | "
                  "hand - | gy - | play -")
    assert asked(state) == (0, "priority")
    assert options(state) == ("pass",)


@pytest.mark.parametrize("phase", ["upkeep", "draw", "main", "discard", "end"])
def test_an_instant_may_be_cast_in_any_phase_of_either_player(phase: str) -> None:
    state = parse(f"3 p1 {phase} // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Kindlewhip | gy - | play 2 Ashpeak")
    # the active player first
    assert asked(state)[0] == 0
    assert "cast Kindlewhip" in options(state)
    act(state, "cast Kindlewhip @p2")
    assert asked(state) == (1, "priority")
    act(state, "cast Kindlewhip @p1")
    auto(state)
    assert life(state) == (18, 18)


# -- discard and end -----------------------------------------------------------------


def test_discard_down_to_seven_is_the_players_choice() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashpeak, Mossvale, Murkfen, Dawnfield, "
                  "Mistshore, Kindlewhip, Burrtusk Boar, Rushing Sap, Fold into Mist | gy - | "
                  "play - // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "end")
    assert state.phase == "discard"
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.least, decision.most) == (0, "discard", 2, 2)
    assert len(decision.options) == 9  # any card of the hand
    chosen = [hand_option(state, "Kindlewhip"), hand_option(state, "Fold into Mist")]
    with pytest.raises(IllegalChoice):
        act(state, f"discard {chosen[0]}")  # exactly two
    act(state, f"discard {chosen[0]},{chosen[1]}")
    assert sorted(names(state, 0, "graveyard")) == ["Fold into Mist", "Kindlewhip"]
    assert len(state.players[0].hand) == 7


def test_no_discard_with_seven_cards() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashpeak, Mossvale, Murkfen, Dawnfield, "
                  "Mistshore, Kindlewhip, Burrtusk Boar | gy - | play - // p2 20 | lib 5 | "
                  "hand - | gy - | play -")
    act(state, "end")
    assert not any(d.kind == "discard" for d in state.pending())
    assert len(state.players[0].hand) == 7


def test_fast_effects_are_allowed_after_the_discard() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashpeak, Mossvale, Murkfen, Dawnfield, "
                  "Mistshore, Burrtusk Boar, Rushing Sap, Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "end")
    act(state, f"discard {hand_option(state, 'Burrtusk Boar')}")
    assert "Burrtusk Boar" in names(state, 0, "graveyard")
    assert state.phase == "discard"
    assert asked(state) == (0, "priority")
    assert "cast Kindlewhip" in options(state)


def test_the_opponent_may_respond_when_the_turn_ends() -> None:
    state = parse("3 p1 end // p1 20 | lib 5 | hand - | gy - | play - "
                  "// p2 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak")
    auto(state)
    assert asked(state) == (1, "priority")
    act(state, "cast Kindlewhip @p1")
    auto(state)
    assert state.players[0].life == 18


# -- heal ----------------------------------------------------------------------------


def test_heal_removes_damage_and_until_end_of_turn_effects_together() -> None:
    # Stampede Howl makes the Boar 3/3 with trample; it has 2 damage. At heal both
    # go at once, so the 2/2 Boar survives.
    state = parse("3 p1 end // p1 20 | lib 5 | hand Stampede Howl | gy - | play 1 Mossvale, "
                  "2 Mossvale, 3 Mossvale, 4 Burrtusk Boar D2 // p2 20 | lib 5 | hand - | "
                  "gy - | play -")
    act(state, "cast Stampede Howl")
    resolve_stack(state)
    assert state.phase == "end"
    table = state.table
    assert (table.power(4), table.toughness(4), table.has(4, "trample")) == (3, 3, True)
    assert state.battlefield[4].damage == 2
    pass_until(state, "main", 1)
    assert state.active == 1
    boar = state.battlefield[4]
    assert boar.damage == 0
    table = state.table
    assert (table.power(4), table.toughness(4), table.has(4, "trample")) == (2, 2, False)


def test_heal_ends_regeneration_shields() -> None:
    state = parse("3 p1 end // p1 20 | lib 5 | hand - | gy - | play 1 Peatbog Revenant R2 "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    pass_until(state, "main", 1)
    assert state.battlefield[1].shields == 0


# -- summoning sickness ----------------------------------------------------------------


def test_a_creature_cannot_attack_the_turn_it_arrives() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Burrtusk Boar | gy - | play 1 Mossvale, "
                  "2 Mossvale // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "cast Burrtusk Boar")
    auto(state)
    boar = next(p for p in state.battlefield.values() if p.name == "Burrtusk Boar")
    assert boar.sick
    assert asked(state) == (0, "main")
    assert "attack" not in options(state)


def test_summoning_sick_creatures_and_artifact_creatures_cannot_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar S, "
                  "2 Brasswing Kestrel S, 3 Palebark Stag // p2 20 | lib 5 | hand - | gy - | "
                  "play -")
    state.apply(0, "attack")
    assert asked(state) == (0, "attack")
    assert options(state) == ("3",)


def test_a_summoning_sick_artifact_creature_cannot_use_a_tap_ability() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gearclamp Jailer S, "
                  "2 Flintspark Adept S // p2 20 | lib 5 | hand - | gy - | play 3 Burrtusk Boar")
    assert not any(o.startswith("use") for o in options(state))


def test_a_summoning_sick_mana_creature_cannot_pay() -> None:
    text = ("3 p1 main // p1 20 | lib 5 | hand Rushing Sap | gy - | play 1 Rootweave Tender{}, "
            "2 Burrtusk Boar // p2 20 | lib 5 | hand - | gy - | play -")
    assert "cast Rushing Sap" not in options(parse(text.format(" S")))
    assert "cast Rushing Sap" in options(parse(text.format("")))


def test_a_mono_artifact_may_tap_the_turn_it_arrives() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Sparkwheel Turret | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak, 3 Ashpeak, 4 Ashpeak, 5 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "cast Sparkwheel Turret")
    auto(state)
    turret = next(p for p in state.battlefield.values() if p.name == "Sparkwheel Turret")
    assert f"use {turret.id}.1" in options(state)
    act(state, f"use {turret.id}.1 @p2")
    auto(state)
    assert state.players[1].life == 19
    assert turret.tapped


def test_summoning_sickness_ends_at_the_controllers_next_turn() -> None:
    state = parse("2 p2 end // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar S, "
                  "2 Brasswing Kestrel S // p2 20 | lib 5 | hand - | gy - | play -")
    pass_until(state, "main", 0)
    assert "attack" in options(state)
    state.apply(0, "attack")
    assert options(state) == ("1", "2")


# -- the stack ---------------------------------------------------------------------------


def test_the_stack_resolves_last_in_first_out() -> None:
    # p2 aims Kindlewhip at the 2/2 Boar; p1 answers with Rushing Sap (+3/+3),
    # which resolves first, so the Boar survives the 2 damage.
    state = parse("3 p2 main // p1 20 | lib 5 | hand Rushing Sap | gy - | play 1 Mossvale, "
                  "2 Burrtusk Boar // p2 20 | lib 5 | hand Kindlewhip | gy - | play 3 Ashpeak")
    act(state, "cast Kindlewhip @2")
    act(state, "cast Rushing Sap @2")
    assert [i.name for i in state.stack] == ["Kindlewhip", "Rushing Sap"]
    events = resolve_stack(state)
    resolved = [say(e.text, "en") for e in events if e.kind == "resolve"]
    assert resolved == ["Rushing Sap resolves.", "Kindlewhip resolves."]
    assert 2 in state.battlefield
    assert state.battlefield[2].damage == 2


def test_a_spell_resolves_only_after_both_players_pass_in_succession() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Kindlewhip | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak // p2 20 | lib 5 | hand Kindlewhip | gy - | "
                  "play 3 Ashpeak")
    act(state, "cast Kindlewhip @p2")
    assert asked(state) == (1, "priority")
    act(state, "cast Kindlewhip @p1")
    assert asked(state) == (0, "priority")
    act(state, "pass")
    assert len(state.stack) == 2 and life(state) == (20, 20)
    assert asked(state) == (1, "priority")
    act(state, "pass")  # two passes in succession: the top resolves
    assert len(state.stack) == 1 and life(state) == (18, 20)
    assert asked(state) == (0, "priority")  # the active player first again
    act(state, "pass")
    assert len(state.stack) == 1
    act(state, "pass")
    assert not state.stack and life(state) == (18, 18)


def test_an_interrupt_counters_a_spell() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Tidebreak Ward | gy - | play 2 Mistshore")
    act(state, "cast Kindlewhip @p2")
    assert "cast Tidebreak Ward" in options(state)
    act(state, "cast Tidebreak Ward @Kindlewhip")
    auto(state)
    assert not state.stack
    assert state.players[1].life == 20
    assert names(state, 0, "graveyard") == ["Kindlewhip"]
    assert names(state, 1, "graveyard") == ["Tidebreak Ward"]


def test_a_coloured_counter_only_answers_its_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Fold into Mist | gy - | "
                  "play 1 Mistshore, 2 Mistshore // p2 20 | lib 5 | hand Tidebreak Ward | "
                  "gy - | play 3 Mistshore, 4 Burrtusk Boar")
    act(state, "cast Fold into Mist @4")
    assert "cast Tidebreak Ward" not in options(state)  # Fold into Mist is blue, not red


def test_an_interrupt_answered_by_another_interrupt() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Boilwater Rebuttal | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak // p2 20 | lib 5 | hand Tidebreak Ward | gy - | "
                  "play 3 Mistshore")
    act(state, "cast Kindlewhip @p2")
    act(state, "cast Tidebreak Ward @Kindlewhip")
    assert asked(state) == (0, "priority")
    act(state, "cast Boilwater Rebuttal @Tidebreak Ward")
    auto(state)
    assert not state.stack
    assert state.players[1].life == 18  # the counter was countered: Kindlewhip resolved
    assert names(state, 1, "graveyard") == ["Tidebreak Ward"]
    assert sorted(names(state, 0, "graveyard")) == ["Boilwater Rebuttal", "Kindlewhip"]


def test_only_interrupts_may_answer_an_interrupt() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Kindlewhip, Boilwater "
                  "Rebuttal | gy - | play 1 Ashpeak, 2 Ashpeak, 3 Ashpeak, 4 Flintspark Adept "
                  "// p2 20 | lib 5 | hand Tidebreak Ward | gy - | play 6 Mistshore")
    act(state, "cast Kindlewhip @p2")
    act(state, "cast Tidebreak Ward @Kindlewhip")
    assert asked(state) == (0, "priority")
    assert "cast Boilwater Rebuttal" in options(state)
    assert "cast Kindlewhip" not in options(state)
    assert "use 4.1" not in options(state)
    with pytest.raises(IllegalChoice):
        act(state, "cast Kindlewhip @p2")


def test_mana_is_spent_on_announcement_even_when_the_spell_is_countered() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Ashgale Volley | gy - | play 1 Ashpeak, "
                  "2 Ashpeak, 3 Ashpeak, 4 Ashpeak // p2 20 | lib 5 | hand Quell the Weave | "
                  "gy - | play 5 Mistshore, 6 Mistshore")
    act(state, "cast Ashgale Volley X=2 @p2")
    assert all(state.battlefield[p].tapped for p in (1, 2, 3, 4))
    act(state, "cast Quell the Weave @Ashgale Volley")
    auto(state)
    assert state.players[1].life == 20
    assert names(state, 0, "graveyard") == ["Ashgale Volley"]
    assert all(state.battlefield[p].tapped for p in (1, 2, 3, 4))
    assert not state.players[0].pool.get("R")


def test_a_spell_whose_target_is_gone_does_nothing() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Fold into Mist | gy - | play 2 Mistshore, "
                  "3 Mistshore, 4 Burrtusk Boar")
    act(state, "cast Kindlewhip @4")
    act(state, "cast Fold into Mist @4")  # p2 bounces its own Boar in response
    events = resolve_stack(state)
    assert 4 not in state.battlefield
    assert names(state, 1, "hand") == ["Burrtusk Boar"]
    assert life(state) == (20, 20)
    assert names(state, 0, "graveyard") == ["Kindlewhip"]
    assert any(e.kind == "fizzle" for e in events)
    assert state.battlefield[1].tapped  # its mana stays spent


def test_an_aura_whose_creature_is_gone_goes_to_the_graveyard() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kiln-Tempered Edge | gy - | "
                  "play 1 Ashpeak, 2 Burrtusk Boar // p2 20 | lib 5 | hand Fold into Mist | "
                  "gy - | play 3 Mistshore, 4 Mistshore")
    act(state, "cast Kiln-Tempered Edge @2")
    act(state, "cast Fold into Mist @2")
    pass_priority(state)
    assert names(state, 0, "hand") == ["Burrtusk Boar"]
    assert names(state, 0, "graveyard") == ["Kiln-Tempered Edge"]
    assert not any(p.name == "Kiln-Tempered Edge" for p in state.battlefield.values())


# -- automatic passing -------------------------------------------------------------------


def test_a_player_who_can_play_nothing_is_passed_for() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Burrtusk Boar, Unbidden Doubts | gy - | "
                  "play 2 Murkfen, 3 Mossvale")
    act(state, "cast Kindlewhip @p2")
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.options) == (1, "priority", ("pass",))
    assert decision.forced == "pass"


def test_with_automatic_passing_off_the_player_is_asked() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Murkfen | manual")
    act(state, "cast Kindlewhip @p2")
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.options) == (1, "priority", ("pass",))
    assert decision.forced is None
    settle(state)  # settle makes forced choices only: p2 is still asked
    assert asked(state) == (1, "priority")
    act(state, "pass")
    auto(state)
    assert state.players[1].life == 18


def test_with_automatic_passing_off_a_main_phase_with_nothing_to_do_is_asked() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Burrtusk Boar | gy - | play - | manual "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.options) == (0, "main", ("end",))
    assert decision.forced is None


def test_with_automatic_passing_on_a_main_phase_with_nothing_to_do_ends() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Burrtusk Boar | gy - | play - "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    assert state.pending()[0].forced == "end"


def test_a_player_with_a_castable_instant_is_asked() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Kindlewhip | gy - | play 2 Ashpeak")
    act(state, "cast Kindlewhip @p2")
    decision = state.pending()[0]
    assert decision.options == ("pass", "cast Kindlewhip")
    assert decision.forced is None


def test_an_instant_without_the_mana_for_it_is_passed_for() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand Kindlewhip | gy - | play 2 Ashpeak T, 3 Mossvale")
    act(state, "cast Kindlewhip @p2")
    assert state.pending()[0].forced == "pass"


# -- losing --------------------------------------------------------------------------


def test_zero_life_loses_at_the_end_of_the_phase_not_in_its_middle() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 2 | lib 5 | hand - | gy - | play -")
    act(state, "cast Kindlewhip @p2")
    auto(state)
    assert state.players[1].life == 0
    assert not state.over
    assert asked(state) == (0, "main")
    act(state, "end")
    assert state.over
    assert state.outcome().winners == (0,)


def test_a_player_at_zero_life_may_recover_before_the_phase_ends() -> None:
    # Cinder Levy takes both to 0 at p1's upkeep; p1's Tombhaunt Lich drains 1
    # from p2 in the same upkeep, so at its end only p2 is at 0.
    state = parse("2 p2 end // p1 1 | lib 5 | hand - | gy - | play 1 Cinder Levy, "
                  "2 Tombhaunt Lich T, 3 Murkfen T // p2 2 | lib 5 | hand - | gy - | play -")
    until(state, lambda: (state.active, state.phase) == (0, "upkeep"))
    assert asked(state) == (0, "priority")
    assert life(state) == (0, 1)
    assert not state.over
    act(state, "use 2.1 @p2")
    pass_priority(state)
    assert state.over
    assert life(state) == (1, 0)
    assert state.outcome().winners == (0,)


def test_zero_life_loses_at_the_start_of_an_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 0 | lib 5 | hand - | gy - | play 2 Palebark Stag")
    act(state, "attack 1")
    assert state.over
    assert state.outcome().winners == (0,)


def test_zero_life_loses_at_the_end_of_an_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 3 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1")
    auto(state)
    assert state.over
    assert state.players[1].life == 0
    assert state.outcome().winners == (0,)


def test_zero_life_in_the_middle_of_an_attack_waits_for_its_end() -> None:
    # Kindlewhip in the window after attackers are declared takes p2 to 0: the
    # attack goes on (blocks, damage) and p2 loses when it ends.
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak, "
                  "2 Burrtusk Boar // p2 2 | lib 5 | hand - | gy - | play 3 Palebark Stag")
    act(state, "attack 2")
    act(state, "cast Kindlewhip @p2")
    pass_priority(state)
    assert state.players[1].life == 0
    assert not state.over
    assert asked(state) == (1, "block")
    act(state, "block 3>2")
    pass_priority(state)
    assert state.over
    assert 2 not in state.battlefield  # the attack was fought out
    assert state.outcome().winners == (0,)


def test_zero_life_after_the_first_strike_step_waits_for_the_end_of_the_attack() -> None:
    # The Scorchback Runner's first-strike damage takes p2 to 0; the regular step
    # still happens (the Boar and the Scholar trade damage) before p2 loses.
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Scorchback Runner, "
                  "2 Burrtusk Boar // p2 1 | lib 5 | hand - | gy - | play 3 Glimmer Scholar")
    act(state, "attack 1,2")
    pass_until(state, "block")
    act(state, "block 3>2")
    pass_priority(state)
    assert state.over
    assert state.outcome().winners == (0,)
    assert state.battlefield[3].damage == 2  # the regular step was fought
    assert state.battlefield[2].damage == 1


# -- prevention outside combat ------------------------------------------------------------


def test_prevention_outside_the_combat_window_does_not_give_back_life() -> None:
    # Lantern Acolyte prevents the *next* damage: the 2 already dealt stay dealt.
    state = parse("3 p1 end // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Lantern Acolyte")
    act(state, "cast Kindlewhip @p2")
    resolve_stack(state)
    assert state.players[1].life == 18
    auto(state)
    assert asked(state) == (1, "priority")
    act(state, "use 2.1 @p2")
    resolve_stack(state)
    assert state.players[1].life == 18


def test_prevention_outside_the_combat_window_does_not_remove_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Timely Intercession | gy - | "
                  "play 1 Ashpeak, 2 Dawnfield, 3 Tidewatch Oracle // p2 20 | lib 5 | hand - | "
                  "gy - | play -")
    act(state, "cast Kindlewhip @3")
    resolve_stack(state)
    assert state.battlefield[3].damage == 2
    act(state, "cast Timely Intercession @3")
    resolve_stack(state)
    assert state.battlefield[3].damage == 2


def test_a_player_may_name_the_lands_that_pay() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak, 3 Mossvale // p2 20 | lib 5 | hand - | gy - | play -")
    assert state.canonical(0, "cast Kindlewhip with 2") == "cast Kindlewhip with 2"
    for wrong in ("cast Kindlewhip with 3", "cast Kindlewhip with 9", "land Ashpeak with 1",
                  "cast Kindlewhip with ٣"):
        with pytest.raises(ValueError):
            state.canonical(0, wrong)
    state.apply(0, "cast Kindlewhip with 2")
    state.apply(0, "p2")
    assert [state.battlefield[p].tapped for p in (1, 2, 3)] == [False, True, False]


def test_observations_hide_hands_and_libraries() -> None:
    from rules.duel import GAME

    state = GAME.new({}, 2, 5, [{"deck": "ember-and-grove"}, {"deck": "tide-and-night"}])
    assert isinstance(state, DuelState)
    mine, theirs = state.players[0].hand, state.players[1].hand
    for seat, own, other in ((0, mine, theirs), (1, theirs, mine)):
        view = state.observe(seat)
        assert list(view.hand) == [state.cards[c] for c in own]
        assert not set(other) & set(view.names)  # the other hand's cards are not even named
        assert not set(state.players[0].library + state.players[1].library) & set(view.names)
        assert [p["hand"] for p in view.players] == [len(mine), len(theirs)]
    spectator = state.observe(None)
    assert spectator.hand == () and not set(mine + theirs) & set(spectator.names)


def test_a_seat_may_turn_automatic_passing_off_in_its_setup() -> None:
    from rules.duel import GAME

    state = GAME.new({}, 2, 5, [{"deck": "ember-and-grove", "auto_pass": False}, None])
    assert isinstance(state, DuelState)
    assert [p.auto_pass for p in state.players] == [False, True]


def test_the_starter_decks_are_legal() -> None:
    from rules.duel.cards import card_set
    from rules.duel.decks import STARTERS, deck_colours, starter

    for name, colours in STARTERS.items():
        deck = starter(name)
        assert len(deck) >= 40 and set(deck) <= set(card_set())
        assert deck_colours(deck) <= set(colours)
        lands = [n for n in deck if card_set()[n].type == "land"]
        assert 15 <= len(lands) <= 18
        assert all(set(card_set()[n].produces) <= set(colours) for n in lands)


@pytest.mark.parametrize("seats", [None, 2, 3, 4])
def test_the_rules_fit_an_embed_in_every_language(seats: int | None) -> None:
    """``/rules duel`` in every language, with every option that changes it, stays under
    4,000 characters and is made of the catalogs' words (no key shown)."""
    for options in ({}, {"ante": True, "head_start": "card", "auto_pass": False},
                    {"head_start": "life"}, {"head_start": "draw"}):
        paragraphs = rules_text(DuelOptions.parse(options), seats)
        for locale in LOCALES:
            text = "\n\n".join(say(paragraph, locale) for paragraph in paragraphs)
            assert len(text) < 4000 and "duel." not in text, (locale, len(text))
    written = "\n\n".join(say(p, "pt_BR") for p in rules_text(DuelOptions.parse({}), 3))
    assert written.startswith("**Arcane Duel** — 3 jogadores, todos contra todos, 20 de vida")


def test_a_duel_reads_in_portuguese() -> None:
    """What happens, what is asked and why a choice is refused read in Portuguese to a
    Portuguese reader, the cards by their Portuguese names; the same in English."""
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    said = [narrate(e, ["Ada", "Bo"], "pt_BR") for e in act(state, "cast Kindlewhip @p2")]
    assert "Ada conjura Chicote de Brasa em Bo." in said
    decision = state.decision_for(1)
    assert decision is not None
    assert say(decision.prompt, "pt_BR") == "Responder a Chicote de Brasa?"
    assert say(decision.prompt, "en") == "Respond to Kindlewhip?"
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play 1 Ashpeak "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    with pytest.raises(IllegalChoice) as refused:
        state.apply(0, "cast Kindlewhip with 7")
    assert say(refused.value.text, "pt_BR") == "7 não é uma fonte de mana sua desvirada"
    assert say(refused.value.text, "en") == "7 is not an untapped mana source of yours"
