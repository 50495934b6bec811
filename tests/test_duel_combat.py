"""Arcane Duel's combat, one small scenario per rule of /work/shared/specs/duel.md
("Combat" and "Combat details the engine must get exactly right").

Every position is written in the scenario notation (:mod:`rules.duel.notation`),
each permanent that matters with its number; ``attack``, ``block`` and
``assign`` drive the attack.
"""

from __future__ import annotations

import pytest

from rules.core import Event
from rules.duel.cards import card_set
from rules.duel.notation import act, parse, pass_until
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


def auto(state: DuelState) -> list[Event]:
    """Make the automatic passes of priority windows, but stop at any other
    decision (a main phase whose only option is ``end`` would end the turn)."""
    events: list[Event] = []
    while (pending := state.pending()) and pending[0].kind == "priority" \
            and pending[0].forced is not None:
        events += state.apply(pending[0].seat, pending[0].forced)
    return events


def pass_priority(state: DuelState) -> list[Event]:
    """Both players pass every priority window until another kind of decision."""
    events: list[Event] = []
    while (pending := state.pending()) and pending[0].kind == "priority":
        events += state.apply(pending[0].seat, "pass")
    return events


def blocks(state: DuelState) -> tuple[str, ...]:
    """Pass the window after attackers are declared; the defender's block
    options, or ``()`` when they are not asked to block (the attack then goes
    on to its end)."""
    pass_priority(state)
    pending = state.pending()
    return pending[0].options if pending and pending[0].kind == "block" else ()


def to_prevention(state: DuelState) -> None:
    """Pass until the prevention window after a combat damage step, then make
    the automatic passes in it."""
    while state.window is None or state.window.kind != "prevent":
        decision = state.pending()[0]
        assert decision.kind == "priority", decision
        state.apply(decision.seat, "pass")
    auto(state)


def gone(state: DuelState, pid: int) -> bool:
    """Whether permanent ``pid`` went to its owner's graveyard."""
    return pid not in state.battlefield and pid in state.players[state.owners[pid]].graveyard


def life(state: DuelState) -> tuple[int, int]:
    return state.players[0].life, state.players[1].life


# -- attacking ------------------------------------------------------------------------


def test_attacking_taps_the_attackers() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Palebark Stag // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1,2")
    assert state.battlefield[1].tapped and state.battlefield[2].tapped
    assert state.combat is not None and state.combat.attackers == [1, 2]


def test_only_untapped_creatures_without_summoning_sickness_may_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar T, "
                  "2 Palebark Stag S, 3 Brasswing Kestrel S, 4 Glimmer Scholar, "
                  "5 Stonegear Hulk, 6 Ashpeak // p2 20 | lib 5 | hand - | gy - | play -")
    state.apply(0, "attack")
    assert asked(state) == (0, "attack")
    assert options(state) == ("4", "5")
    for pid in ("1", "2", "3", "6"):
        with pytest.raises(IllegalChoice):
            state.apply(0, pid)


def test_no_attack_without_a_creature_able_to_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar T, "
                  "2 Palebark Stag S, 3 Sparkwheel Turret // p2 20 | lib 5 | hand - | gy - | "
                  "play -")
    assert "attack" not in options(state)


def test_a_creature_that_cannot_attack_is_not_offered() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Brinewing Skimmer, "
                  "2 Burrtusk Boar // p2 20 | lib 5 | hand - | gy - | play 3 Leaden Skychain")
    state.apply(0, "attack")
    assert options(state) == ("2",)


def test_unblocked_attackers_damage_the_defending_player() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Palebark Stag // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1,2")
    auto(state)
    assert life(state) == (20, 15)
    assert asked(state) == (0, "main")
    assert "attack" not in options(state)  # one attack a turn


def test_tapped_creatures_cannot_block() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Glimmer Scholar T, 3 Bastion Sentry")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)


def test_a_summoning_sick_creature_may_block() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Glimmer Scholar S")
    act(state, "attack 1")
    assert blocks(state) == ("2>1",)


def test_a_creature_blocks_one_attacker_at_most() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Palebark Stag // p2 20 | lib 5 | hand - | gy - | play 3 Glimmer Scholar")
    act(state, "attack 1,2")
    assert set(blocks(state)) == {"3>1", "3>2"}
    with pytest.raises(IllegalChoice):
        act(state, "block 3>1,3>2")


def test_several_blockers_and_the_attackers_controller_splits_its_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Deepcoil Serpent "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Burrtusk Boar, 3 Palebark Stag")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1,3>1")
    auto(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.total) == (0, "assign", 5)
    assert set(decision.options) == {"2", "3"}
    with pytest.raises(IllegalChoice):
        act(state, "assign 2=1,3=3")  # the split must add up to the power
    act(state, "assign 2=2,3=3")
    auto(state)
    assert gone(state, 2) and gone(state, 3)
    assert gone(state, 1)  # 2 + 3 from the blockers
    assert life(state) == (20, 20)


def test_the_attacker_may_put_all_its_damage_on_one_blocker() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Deepcoil Serpent "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Burrtusk Boar, 3 Palebark Stag")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1,3>1")
    auto(state)
    act(state, "assign 3=5")
    auto(state)
    assert gone(state, 3)
    assert state.battlefield[2].damage == 0


# -- first strike ------------------------------------------------------------------------


def test_a_first_striker_kills_its_blocker_and_takes_no_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Burrtusk Boar")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    assert gone(state, 2)
    assert state.battlefield[1].damage == 0


def test_first_strike_damage_comes_in_two_steps() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer, "
                  "2 Palebark Stag | manual // p2 20 | lib 5 | hand - | gy - | "
                  "play 3 Burrtusk Boar, 4 Glimmer Scholar | manual")
    act(state, "attack 1,2")
    blocks(state)
    act(state, "block 3>1,4>2")
    while state.window is None or state.window.kind != "prevent":
        act(state, "pass")
    combat = state.combat
    assert combat is not None and combat.step == "first"
    assert state.battlefield[3].damage == 2  # the Lancer struck first
    assert 3 in state.battlefield  # destroyed only once the window closes
    assert state.battlefield[2].damage == 0 and state.battlefield[4].damage == 0
    act(state, "pass")
    act(state, "pass")
    assert gone(state, 3)
    assert state.combat is not None and state.combat.step == "regular"
    assert state.window is not None and state.window.kind == "prevent"
    assert state.battlefield[4].damage == 3  # the Stag strikes in the regular step
    assert state.battlefield[2].damage == 1
    assert state.battlefield[1].damage == 0


def test_first_strikers_on_both_sides_strike_together() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Sunmantle Paladin")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    assert gone(state, 1) and gone(state, 2)


def test_an_attacker_regenerated_in_the_first_strike_step_deals_no_regular_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Peatbog Revenant R1 "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Ridgeline Lancers")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    revenant = state.battlefield[1]
    assert (revenant.tapped, revenant.damage, revenant.shields) == (True, 0, 0)
    assert state.battlefield[2].damage == 0  # it left combat before the regular step


def test_a_blocker_regenerated_in_the_first_strike_step_deals_no_regular_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Rattlebone Thrall R1")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    thrall = state.battlefield[2]
    assert (thrall.tapped, thrall.damage, thrall.shields) == (True, 0, 0)
    assert state.battlefield[1].damage == 0
    assert life(state) == (20, 20)  # the Lancer stays blocked


def test_gaining_first_strike_after_blocks_deals_damage_in_the_first_step_only() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Rivetbound Phalanx, "
                  "2 Ashpeak, 3 Ashpeak // p2 20 | lib 5 | hand - | gy - | "
                  "play 4 Kelpshell Crawler")
    act(state, "attack 1")
    assert blocks(state) == ("4>1",)
    act(state, "block 4>1")
    assert asked(state) == (0, "priority")
    act(state, "use 1.1")  # 2: first strike until end of turn
    auto(state)
    assert state.table.has(1, "first strike")
    assert asked(state) == (0, "main")
    assert state.battlefield[4].damage == 3  # once, in the first-strike step
    assert state.battlefield[1].damage == 1
    assert 4 in state.battlefield


def test_a_first_striker_unblocked_deals_its_damage_once() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer, "
                  "2 Burrtusk Boar // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1,2")
    auto(state)
    assert life(state) == (20, 16)


# -- flying ------------------------------------------------------------------------------


def test_only_fliers_may_block_a_flier() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Brinewing Skimmer "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Burrtusk Boar, 3 Cloudmane Colt")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)
    with pytest.raises(IllegalChoice):
        act(state, "block 2>1")


def test_a_flier_may_block_a_creature_without_flying() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Brinewing Skimmer")
    act(state, "attack 1")
    assert blocks(state) == ("2>1",)


def test_a_flier_that_gains_flying_in_response_escapes_ground_blockers() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Sudden Updraft | gy - | play 1 Mistshore, "
                  "2 Burrtusk Boar // p2 20 | lib 5 | hand - | gy - | play 3 Palebark Stag")
    act(state, "attack 2")
    act(state, "cast Sudden Updraft @2")
    assert blocks(state) == ()
    assert life(state) == (20, 18)


# -- landwalk -------------------------------------------------------------------------

WALKERS = [
    ("plains", "Mosaic Warden", "Dawnfield"),
    ("island", "Harbor Smuggler", "Mistshore"),
    ("swamp", "Marshstep Lizard", "Murkfen"),
    ("mountain", "Cragborn Raider", "Ashpeak"),
    ("forest", "Burrtusk Boar", "Mossvale"),
]


def test_the_landwalk_tests_cover_every_landwalk_type_of_the_set() -> None:
    kinds = set()
    for data in card_set().values():
        words = [*data.keywords]
        words += [e.keyword for a in data.abilities for e in a.effects if e.keyword]
        words += [e.keyword for e in (*data.spell, *data.enters) if e.keyword]
        words += [k for s in data.statics for k in s.keywords]
        kinds |= {w.split(":", 1)[1] for w in words if w and w.startswith("landwalk:")}
    assert kinds <= {kind for kind, _, _ in WALKERS}
    for kind, walker, land in WALKERS:
        assert f"landwalk:{kind}" in card_set()[walker].keywords
        assert card_set()[land].basic == kind


@pytest.mark.parametrize(("kind", "walker", "land"), WALKERS)
def test_landwalk_is_unblockable_while_the_defender_controls_that_land(
        kind: str, walker: str, land: str) -> None:
    state = parse(f"3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 {walker} "
                  f"// p2 20 | lib 5 | hand - | gy - | play 2 {land}, 3 Glimmer Scholar")
    act(state, "attack 1")
    assert blocks(state) == ()
    assert state.players[1].life == 18


@pytest.mark.parametrize(("kind", "walker", "land"), WALKERS)
def test_landwalk_is_blockable_without_that_land(kind: str, walker: str, land: str) -> None:
    other = "Mistshore" if land != "Mistshore" else "Dawnfield"
    state = parse(f"3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 {walker} "
                  f"// p2 20 | lib 5 | hand - | gy - | play 2 {other}, 3 Glimmer Scholar")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)


@pytest.mark.parametrize(("walker", "land"), [("Harbor Smuggler", "Gloamtide Marsh"),
                                              ("Marshstep Lizard", "Murmuring Catacomb")])
def test_a_non_basic_land_making_that_colour_does_not_count_for_landwalk(
        walker: str, land: str) -> None:
    state = parse(f"3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 {walker} "
                  f"// p2 20 | lib 5 | hand - | gy - | play 2 {land}, 3 Glimmer Scholar")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)


def test_landwalk_gained_before_blocks_makes_the_attacker_unblockable() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Fenrot Ghoul, "
                  "2 Murkfen // p2 20 | lib 5 | hand - | gy - | play 3 Murkfen, "
                  "4 Glimmer Scholar")
    act(state, "attack 1")
    act(state, "use 1.1")  # B: swampwalk until end of turn
    assert blocks(state) == ()
    assert state.players[1].life == 18


# -- protection -----------------------------------------------------------------------


def test_protection_cannot_be_blocked_by_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Peatbog Revenant, "
                  "3 Glimmer Scholar")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)


def test_protection_cannot_be_targeted_by_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kindlewhip, Fold into Mist | gy - | "
                  "play 1 Ashpeak, 2 Mistshore, 3 Mistshore // p2 20 | lib 5 | hand - | gy - | "
                  "play 4 Kelpshell Crawler, 5 Burrtusk Boar")
    state.apply(0, "cast Kindlewhip")
    assert set(options(state)) == {"p1", "p2", "5", "cancel"}
    with pytest.raises(IllegalChoice):
        state.apply(0, "4")
    state.apply(0, "cancel")
    state.apply(0, "cast Fold into Mist")
    assert "4" in options(state)  # blue may target it


def test_a_spell_with_only_protected_targets_cannot_be_cast() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Sepulchral Chill | gy - | "
                  "play 1 Murkfen, 2 Murkfen // p2 20 | lib 5 | hand - | gy - | "
                  "play 3 Sunmantle Paladin")
    assert "cast Sepulchral Chill" not in options(state)


def test_protection_cannot_be_enchanted_by_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Kiln-Tempered Edge | gy - | "
                  "play 1 Ashpeak, 2 Kelpshell Crawler, 3 Burrtusk Boar // p2 20 | lib 5 | "
                  "hand - | gy - | play -")
    state.apply(0, "cast Kiln-Tempered Edge")
    assert "2" not in options(state)
    assert "3" in options(state)


def test_an_aura_of_a_colour_falls_off_when_the_creature_gains_protection_from_it() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Dawnsilver Aegis | gy - | "
                  "play 1 Burrtusk Boar, 2 Corpse-Fed Might @1, 3 Dawnfield, 4 Dawnfield "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "cast Dawnsilver Aegis @1")
    auto(state)
    assert state.table.has(1, "protection:B")
    assert gone(state, 2)  # a black aura cannot enchant it any more
    assert state.table.power(1) == 2


def test_protection_prevents_combat_damage_of_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Slagfoot Brute "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Emberward Knight")
    act(state, "attack 1")
    assert blocks(state) == ("2>1",)
    act(state, "block 2>1")
    auto(state)
    assert gone(state, 1)
    assert state.battlefield[2].damage == 0


def test_protection_prevents_spell_damage_of_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Bedrock Convulsion | gy - | "
                  "play 1 Ashpeak, 2 Ashpeak, 3 Ashpeak // p2 20 | lib 5 | hand - | gy - | "
                  "play 4 Kelpshell Crawler, 5 Burrtusk Boar")
    act(state, "cast Bedrock Convulsion X=2")
    auto(state)
    assert gone(state, 5)
    assert state.battlefield[4].damage == 0
    assert life(state) == (18, 18)


def test_protection_from_a_continuous_artifact_stops_while_it_is_tapped() -> None:
    text = ("3 p2 main // p1 20 | lib 5 | hand - | gy - | play 1 Hexward Sigilstone{}, "
            "2 Burrtusk Boar // p2 20 | lib 5 | hand Gravecold Touch | gy - | "
            "play 3 Murkfen, 4 Murkfen, 5 Murkfen")
    assert "cast Gravecold Touch" not in options(parse(text.format("")))
    assert "cast Gravecold Touch" in options(parse(text.format(" T")))


def test_a_flier_with_protection_cannot_be_blocked_by_a_flier_of_that_colour() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Stormcrag Harrier "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Brinewing Skimmer, "
                  "3 Cloudmane Colt, 4 Burrtusk Boar")
    act(state, "attack 1")
    assert blocks(state) == ("3>1",)


# -- trample ------------------------------------------------------------------------------


def trample_position(blockers: str) -> DuelState:
    """Magma Ridgeback (4/4 trample, red) attacks; p2 controls ``blockers``."""
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Magma Ridgeback "
                  f"// p2 20 | lib 5 | hand - | gy - | play {blockers}")
    act(state, "attack 1")
    blocks(state)
    return state


def test_trample_assigns_lethal_damage_to_the_blocker_and_the_rest_to_the_player() -> None:
    state = trample_position("2 Burrtusk Boar")
    act(state, "block 2>1")
    auto(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.total) == (0, "assign", 4)
    assert set(decision.options) == {"2", "p2"}
    act(state, "assign 2=2,p2=2")
    auto(state)
    assert gone(state, 2)
    assert life(state) == (20, 18)
    assert state.battlefield[1].damage == 2


def test_trample_refuses_damage_to_the_player_before_each_blocker_has_lethal() -> None:
    state = trample_position("2 Burrtusk Boar")
    act(state, "block 2>1")
    auto(state)
    with pytest.raises(IllegalChoice):
        act(state, "assign 2=1,p2=3")
    with pytest.raises(IllegalChoice):
        act(state, "assign p2=4")


def test_trample_may_put_all_its_damage_on_the_blocker() -> None:
    state = trample_position("2 Burrtusk Boar")
    act(state, "block 2>1")
    auto(state)
    act(state, "assign 2=4")
    auto(state)
    assert gone(state, 2)
    assert life(state) == (20, 20)


def test_trample_lethal_counts_the_damage_already_on_the_blocker() -> None:
    state = trample_position("2 Burrtusk Boar D1")
    act(state, "block 2>1")
    auto(state)
    act(state, "assign 2=1,p2=3")
    auto(state)
    assert gone(state, 2)
    assert life(state) == (20, 17)


def test_trample_over_several_blockers_needs_lethal_on_each() -> None:
    state = trample_position("2 Burrtusk Boar, 3 Brinewing Skimmer")
    act(state, "block 2>1,3>1")
    auto(state)
    with pytest.raises(IllegalChoice):
        act(state, "assign 2=2,p2=2")
    act(state, "assign 2=2,3=1,p2=1")
    auto(state)
    assert gone(state, 2) and gone(state, 3)
    assert life(state) == (20, 19)


def test_trample_lethal_ignores_protection_and_the_protected_blocker_takes_nothing() -> None:
    state = trample_position("2 Emberward Knight")
    act(state, "block 2>1")
    auto(state)
    with pytest.raises(IllegalChoice):
        act(state, "assign 2=2,p2=2")  # lethal is its toughness, protection or not
    act(state, "assign 2=3,p2=1")
    auto(state)
    assert life(state) == (20, 19)
    assert state.battlefield[2].damage == 0  # the red damage to it is prevented
    assert state.battlefield[1].damage == 3  # the Knight's damage


def test_trample_cannot_reach_the_player_past_a_big_protected_blocker() -> None:
    state = trample_position("2 Kelpshell Crawler")
    act(state, "block 2>1")
    auto(state)
    with pytest.raises(IllegalChoice):
        act(state, "assign 2=3,p2=1")
    act(state, "assign 2=4")
    auto(state)
    assert life(state) == (20, 20)
    assert state.battlefield[2].damage == 0


def test_trample_lethal_ignores_prevention() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Magma Ridgeback "
                  "// p2 20 | lib 5 | hand Timely Intercession | gy - | play 2 Burrtusk Boar, "
                  "3 Dawnfield")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    act(state, "cast Timely Intercession @2")  # prevent the next 4 damage to the Boar
    auto(state)
    act(state, "assign 2=2,p2=2")
    auto(state)
    assert life(state) == (20, 18)
    assert state.battlefield[2].damage == 0


# -- banding ------------------------------------------------------------------------------


def test_a_band_needs_a_creature_with_banding() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Palebark Stag // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1,2")
    assert asked(state) == (0, "priority")  # no band decision
    assert state.combat is not None and state.combat.band == ()
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Torchbearer Militia, "
                  "2 Palebark Stag // p2 20 | lib 5 | hand - | gy - | play -")
    state.apply(0, "attack")
    state.apply(0, "1,2")
    assert asked(state) == (0, "band")
    assert set(options(state)) == {"none", "1+2"}


def band_position(blockers: str) -> DuelState:
    """Torchbearer Militia (2/1 banding) and Slagfoot Brute (3/2) attack as a band."""
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Torchbearer Militia, "
                  f"2 Slagfoot Brute // p2 20 | lib 5 | hand - | gy - | play {blockers}")
    act(state, "attack 1,2 band 1+2")
    assert state.combat is not None and set(state.combat.band) == {1, 2}
    return state


def test_a_band_is_blocked_as_a_unit() -> None:
    state = band_position("3 Tidewatch Oracle")
    assert blocks(state) == ("3>1", "3>2")  # either member names the one unit
    act(state, "block 3>1")
    auto(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.total) == (0, "assign", 2)
    act(state, "assign 1=1,2=1")
    auto(state)
    assert gone(state, 3)  # both members dealt damage to it: 2 + 3 ≥ 4
    assert life(state) == (20, 20)  # neither member is unblocked


def test_blocking_any_member_of_a_band_blocks_the_band() -> None:
    state = band_position("3 Tidewatch Oracle")
    blocks(state)
    act(state, "block 3>2")  # names the Brute, the band's second member
    auto(state)
    act(state, "assign 2=2")
    auto(state)
    assert gone(state, 3)
    assert life(state) == (20, 20)


def test_the_bands_controller_divides_the_damage_dealt_to_the_band() -> None:
    state = band_position("3 Tidewatch Oracle")
    blocks(state)
    act(state, "block 3>1")
    auto(state)
    act(state, "assign 1=2")  # all of the Oracle's 2 damage on the Militia
    auto(state)
    assert gone(state, 1)
    assert state.battlefield[2].damage == 0


def test_band_members_keep_their_protection_from_the_blockers_damage() -> None:
    # Howling Sootfiend has protection from white; Mosaic Warden blocks the band
    # and turns white: its damage to the Sootfiend is prevented.
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Torchbearer Militia, "
                  "2 Howling Sootfiend // p2 20 | lib 5 | hand - | gy - | play 3 Mistshore, "
                  "4 Mosaic Warden")
    act(state, "attack 1,2 band 1+2")
    blocks(state)
    act(state, "block 4>1")
    auto(state)
    act(state, "use 4.1")  # 1: the Warden becomes white
    auto(state)
    assert state.table.colour(4) == "W"
    act(state, "assign 2=2")
    auto(state)
    assert 2 in state.battlefield
    assert state.battlefield[2].damage == 0
    assert gone(state, 4)


def test_a_banding_blocker_lets_the_defender_divide_the_attackers_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Fernshade Prowler "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Vigil Squire, "
                  "3 Shieldbearer Phalanx")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1,3>1")
    auto(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.total) == (1, "assign", 3)
    assert set(decision.options) == {"2", "3"}
    act(state, "assign 3=3")
    auto(state)
    assert state.battlefield[2].damage == 0
    assert state.battlefield[3].damage == 3
    assert state.battlefield[1].damage == 2


def test_banding_and_trample_in_an_attacking_band() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Torchbearer Militia, "
                  "2 Magma Ridgeback // p2 20 | lib 5 | hand - | gy - | play 3 Burrtusk Boar")
    act(state, "attack 1,2 band 1+2")
    assert blocks(state) == ("3>1", "3>2")
    act(state, "block 3>2")  # blocking one member blocks the band
    auto(state)
    splits = {}
    while asked(state) == (0, "assign"):
        decision = state.pending()[0]
        if "p2" in decision.options:  # the Ridgeback's trample
            splits["trample"] = decision.options
            with pytest.raises(IllegalChoice):
                act(state, "assign 3=1,p2=3")
            act(state, "assign 3=2,p2=2")
        else:  # the Boar's damage to the band
            splits["band"] = decision.options
            act(state, "assign 2=2")
        auto(state)
    assert set(splits) == {"trample", "band"}
    assert life(state) == (20, 18)
    assert gone(state, 3)
    assert state.battlefield[1].damage == 0
    assert state.battlefield[2].damage == 2


def test_trample_against_banding_blockers_is_divided_by_the_defender() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Mosshorn Charger "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Vigil Squire, "
                  "3 Shieldbearer Phalanx")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1,3>1")
    auto(state)
    decision = state.pending()[0]
    assert (decision.seat, decision.kind, decision.total) == (1, "assign", 4)
    act(state, "assign 3=4")
    auto(state)
    assert life(state) == (20, 20)
    assert state.battlefield[3].damage == 4
    assert 2 in state.battlefield and state.battlefield[2].damage == 0


# -- regeneration ---------------------------------------------------------------------------


def test_a_regeneration_shield_saves_a_creature_from_lethal_combat_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Slagfoot Brute "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Peatbog Revenant R1")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    events = auto(state)
    revenant = state.battlefield[2]
    assert (revenant.tapped, revenant.damage, revenant.shields) == (True, 0, 0)
    assert any(e.kind == "regenerated" for e in events)
    assert gone(state, 1)


def test_regeneration_shields_stack_and_each_is_used_once() -> None:
    state = parse("3 p2 main // p1 20 | lib 5 | hand - | gy - | play 1 Peatbog Revenant R2 "
                  "// p2 20 | lib 5 | hand Gravecold Touch, Gravecold Touch, Gravecold Touch | "
                  "gy - | play 2 Murkfen, 3 Murkfen, 4 Murkfen, 5 Murkfen, 6 Murkfen, "
                  "7 Murkfen, 8 Murkfen, 9 Murkfen, 10 Murkfen")
    act(state, "cast Gravecold Touch @1")
    pass_priority(state)
    assert state.battlefield[1].shields == 1 and state.battlefield[1].tapped
    act(state, "cast Gravecold Touch @1")
    pass_priority(state)
    assert 1 in state.battlefield and state.battlefield[1].shields == 0
    act(state, "cast Gravecold Touch @1")
    pass_priority(state)
    assert gone(state, 1)


def test_a_regeneration_ability_used_in_the_prevention_window_saves_the_creature() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Slagfoot Brute "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Rattlebone Thrall, 3 Murkfen")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    to_prevention(state)
    assert asked(state) == (1, "priority")
    assert "use 2.1" in options(state)
    act(state, "use 2.1")  # B: regenerate
    auto(state)
    thrall = state.battlefield[2]
    assert (thrall.tapped, thrall.damage) == (True, 0)
    assert state.battlefield[1].damage == 1


def test_a_regeneration_instant_in_the_prevention_window_saves_the_creature() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Slagfoot Brute "
                  "// p2 20 | lib 5 | hand Deathless Reprieve | gy - | play 2 Burrtusk Boar, "
                  "3 Murkfen")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    to_prevention(state)
    act(state, "cast Deathless Reprieve @2")
    auto(state)
    assert 2 in state.battlefield and state.battlefield[2].tapped
    assert gone(state, 1)


# -- mana-enhanced power ------------------------------------------------------------------


def test_mana_enhanced_power_any_number_of_times() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Bellows Salamander, "
                  "2 Ashpeak, 3 Ashpeak, 4 Ashpeak // p2 20 | lib 5 | hand - | gy - | play -")
    for _ in range(3):
        assert "boost 1.R" in options(state)
        act(state, "boost 1.R")
        assert asked(state) == (0, "main")
    assert "boost 1.R" not in options(state)  # no mana left
    assert (state.table.power(1), state.table.toughness(1)) == (4, 3)
    act(state, "attack 1")
    auto(state)
    assert life(state) == (20, 16)


def test_the_defender_boosts_a_blocker_after_blocks() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Bellows Salamander, 3 Ashpeak, "
                  "4 Ashpeak")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    assert asked(state) == (1, "priority")
    act(state, "boost 2.R")
    act(state, "boost 2.R")
    assert state.table.power(2) == 3
    auto(state)
    pass_priority(state)
    assert gone(state, 1)


def test_mana_enhanced_toughness_saves_a_blocker() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Deepcoil Serpent "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Bastion Sentry, 3 Dawnfield, "
                  "4 Dawnfield")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    auto(state)
    act(state, "boost 2.W")
    act(state, "boost 2.W")
    pass_priority(state)
    assert state.battlefield[2].damage == 5
    assert state.table.toughness(2) == 6


def test_mana_enhanced_power_ends_at_the_end_of_the_turn() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Bellows Salamander, "
                  "2 Ashpeak, 3 Ashpeak // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "boost 1.R")
    act(state, "boost 1.R")
    assert state.table.power(1) == 3
    act(state, "end")
    pass_until(state, "main", 1)
    assert state.table.power(1) == 1


# -- zero power ------------------------------------------------------------------------------


def test_a_zero_power_attacker_deals_no_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Duskwing Bat "
                  "// p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1")
    events = auto(state)
    assert life(state) == (20, 20)
    assert not any(e.kind == "damage" for e in events)


def test_a_zero_power_blocker_deals_no_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Thornwall Hedge")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    pass_priority(state)  # the Hedge could prevent damage: it is asked in each window
    assert state.battlefield[1].damage == 0
    assert state.battlefield[2].damage == 2


def test_a_zero_power_creature_boosted_deals_damage() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Duskwing Bat, "
                  "2 Murkfen // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1")
    act(state, "boost 1.B")
    auto(state)
    assert life(state) == (20, 19)


# -- the prevention window ------------------------------------------------------------------


def test_the_prevention_window_offers_only_prevention_regeneration_and_interrupts() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 20 | lib 5 | hand Kindlewhip, Rushing Sap, Timely Intercession, "
                  "Sheltering Glow, Deathless Reprieve, Springtide Welling, Quell the Weave, "
                  "Hoarfrost Grip | gy - | play 2 Ashpeak, 3 Mossvale, 4 Dawnfield, 5 Dawnfield, "
                  "6 Murkfen, 7 Mistshore, 8 Mistshore, 9 Thornwall Hedge, 10 Flintspark Adept")
    act(state, "attack 1")
    blocks(state)
    act(state, "block none")
    to_prevention(state)
    assert asked(state) == (1, "priority")
    assert set(options(state)) == {
        "pass", "cast Timely Intercession", "cast Sheltering Glow", "cast Deathless Reprieve",
        "cast Springtide Welling", "use 9.1"}
    with pytest.raises(IllegalChoice):
        act(state, "cast Kindlewhip @p1")
    with pytest.raises(IllegalChoice):
        act(state, "use 10.1 @1")


def test_prevention_in_the_window_gives_back_damage_dealt_in_that_step() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 20 | lib 5 | hand Timely Intercession | gy - | play 2 Burrtusk Boar, "
                  "3 Dawnfield")
    act(state, "attack 1")
    blocks(state)
    act(state, "block 2>1")
    to_prevention(state)
    assert state.battlefield[2].damage == 3  # lethal, but it waits for the window
    act(state, "cast Timely Intercession @2")
    auto(state)
    assert 2 in state.battlefield and state.battlefield[2].damage == 0
    assert gone(state, 1)


def test_prevention_to_a_player_in_the_window_gives_back_life() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Palebark Stag "
                  "// p2 20 | lib 5 | hand - | gy - | play 2 Lantern Acolyte")
    act(state, "attack 1")
    blocks(state)
    act(state, "block none")
    to_prevention(state)
    assert life(state) == (20, 17)
    act(state, "use 2.1 @p2")
    auto(state)
    assert life(state) == (20, 18)


# -- flying × landwalk ----------------------------------------------------------------------


def test_a_flying_landwalker_is_unblockable_even_by_fliers_while_the_land_is_there() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Harbor Smuggler, "
                  "2 Borrowed Pinions @1 // p2 20 | lib 5 | hand - | gy - | play 3 Mistshore, "
                  "4 Brinewing Skimmer, 5 Burrtusk Boar")
    assert state.table.has(1, "flying")
    act(state, "attack 1")
    assert blocks(state) == ()
    assert life(state) == (20, 17)


def test_a_flying_landwalker_without_the_land_is_blocked_only_by_fliers() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Harbor Smuggler, "
                  "2 Borrowed Pinions @1 // p2 20 | lib 5 | hand - | gy - | play 3 Murkfen, "
                  "4 Brinewing Skimmer, 5 Burrtusk Boar")
    act(state, "attack 1")
    assert blocks(state) == ("4>1",)
