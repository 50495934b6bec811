"""Swiss standings against hand computations, and Swiss pairing on hand-made fields
(issue 18; ``../shared/specs/tournaments.md``, "Swiss arithmetic").

Every figure below was worked out by hand from the results written next to it; the
fractions are exact (the standings compute in fractions, the lines carry floats).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.tournament.model import Entrant, Result
from rules.tournament.round_robin import RoundRobinFormat, circle_round
from rules.tournament.standings import (
    DRAWN_AT_RANDOM,
    swiss_records,
    swiss_standings,
)
from rules.tournament.swiss import Field, SwissFormat, pair_field, swiss_rounds


def win(round_no: int, winner: int, loser: int, games: tuple[int, int] = (2, 0)) -> Result:
    """``winner`` beat ``loser``, ``games`` being (winner's, loser's) games."""
    return Result(round_no, (winner, loser), (1, 2), games)


def bye(round_no: int, player: int) -> Result:
    return Result(round_no, (player,), (1,), (2,))


def approx(value: Fraction) -> object:
    return pytest.approx(float(value), abs=1e-12)


# -- standings ------------------------------------------------------------------------------
def test_the_specs_player_with_a_first_round_bye_who_drops_after_going_3_2() -> None:
    """"A player 3–2 with a first-round bye who then drops: 9 points over 5 rounds,
    MW% 0.60." Their opponents 2, 3, 4, 5 each play only that one round."""
    entrants = [Entrant(1, 1, dropped_after=5), *(Entrant(n, n) for n in (2, 3, 4, 5))]
    results = [bye(1, 1), win(2, 1, 2), win(3, 1, 3, (2, 1)), win(4, 4, 1), win(5, 5, 1, (2, 1))]
    record = swiss_records(entrants, results)[1]
    assert (record.points, record.rounds, record.byes) == (9, 5, 1)
    assert record.mw == Fraction(3, 5)
    # Games: bye 2–0, 2–0, 2–1, 0–2, 1–2 → 7 won of 12: 21 ÷ 36.
    assert (record.game_points, record.games, record.gw) == (21, 12, Fraction(7, 12))
    # Opponents: 2 and 3 lost their only round (MW% floored to 0.33), 4 and 5 won theirs.
    assert record.opponents == (2, 3, 4, 5)
    assert record.omw == (Fraction(33, 100) * 2 + 1 + 1) / 4
    line = next(s for s in swiss_standings(entrants, results, seed=1) if s.entrant == 1)
    assert (line.points, line.record, line.mw, line.dropped) == (9, "3-2-0", 0.6, True)


# Five players, three rounds: a bye each in rounds 1 and 2, a drawn match, a drop.
#   R1: 1 beats 2 2–0; 3 and 4 draw 1–1 with a drawn game; 5 has the bye.
#   R2: 5 beats 1 2–1; 2 beats 3 2–1; 4 has the bye.   3 drops after round 2.
#   R3: 5 beats 2 2–0; 1 beats 4 2–1.
FIVE = [Entrant(1, 1), Entrant(2, 2), Entrant(3, 3, dropped_after=2), Entrant(4, 4),
        Entrant(5, 5)]
FIVE_RESULTS = [
    win(1, 1, 2), Result(1, (3, 4), (1, 1), (1, 1), drawn_games=1), bye(1, 5),
    win(2, 5, 1, (2, 1)), win(2, 2, 3, (2, 1)), bye(2, 4),
    win(3, 5, 2), win(3, 1, 4, (2, 1)),
]
# By hand (the floor is 0.33 = 33/100, not 1/3):
#   MW%: 1: 6/9; 2: 3/9 = 1/3 (above the floor); 3: 1/6 → 0.33; 4: (1 + 3 + 0)/9 = 4/9;
#        5: 9/9.
#   GW%: 1: games 2–0, 1–2, 2–1 → 5 won of 8: 15/24 = 5/8.
#        2: 0–2, 2–1, 0–2 → 2 of 7: 6/21 = 2/7 → 0.33.
#        3: 1–1 (+1 drawn), 1–2 → 2 won, 3 lost, 1 drawn of 6: 7/18.
#        4: 1–1 (+1 drawn), bye 2–0, 1–2 → 4 won, 3 lost, 1 drawn of 8: 13/24.
#        5: bye 2–0, 2–1, 2–0 → 6 of 7: 18/21 = 6/7.
#   OMW% (byes are not opponents; 3 counts with their two rounds):
#        1: (1/3 + 1 + 4/9)/3 = 16/27;  2: (2/3 + 33/100 + 1)/3 = 599/900;
#        3: (4/9 + 1/3)/2 = 7/18;       4: (33/100 + 2/3)/2 = 299/600;
#        5: (2/3 + 1/3)/2 = 1/2.
#   OGW%: 1: (33/100 + 6/7 + 13/24)/3 = 7261/12600;  2: (5/8 + 7/18 + 6/7)/3 = 943/1512;
#        3: (13/24 + 33/100)/2 = 523/1200;  4: (7/18 + 5/8)/2 = 73/144;
#        5: (5/8 + 33/100)/2 = 191/400.
FIVE_BY_HAND = {
    # player: (points, record, MW%, GW%, OMW%, OGW%)
    1: (6, "2-1-0", Fraction(2, 3), Fraction(5, 8), Fraction(16, 27), Fraction(7261, 12600)),
    2: (3, "1-2-0", Fraction(1, 3), Fraction(33, 100), Fraction(599, 900),
        Fraction(943, 1512)),
    3: (1, "0-1-1", Fraction(33, 100), Fraction(7, 18), Fraction(7, 18), Fraction(523, 1200)),
    4: (4, "1-1-1", Fraction(4, 9), Fraction(13, 24), Fraction(299, 600), Fraction(73, 144)),
    5: (9, "3-0-0", Fraction(1), Fraction(6, 7), Fraction(1, 2), Fraction(191, 400)),
}


def test_five_players_with_byes_a_draw_and_a_drop_every_figure_by_hand() -> None:
    records = swiss_records(FIVE, FIVE_RESULTS)
    for player, (points, _, mw, gw, omw, ogw) in FIVE_BY_HAND.items():
        r = records[player]
        assert (r.points, r.mw, r.gw, r.omw, r.ogw) == (points, mw, gw, omw, ogw), player
    lines = swiss_standings(FIVE, FIVE_RESULTS, seed=7)
    assert [s.entrant for s in lines] == [5, 1, 4, 2, 3]
    assert [s.rank for s in lines] == [1, 2, 3, 4, 5]
    for line in lines:
        points, record, mw, gw, omw, ogw = FIVE_BY_HAND[line.entrant]
        assert (line.points, line.record) == (points, record)
        assert line.mw == approx(mw) and line.gw == approx(gw)
        assert line.omw == approx(omw) and line.ogw == approx(ogw)
        assert line.dropped == (line.entrant == 3) and line.note == ""


def test_the_tiebreakers_in_order_omw_then_gw_then_ogw() -> None:
    # One round: 1 beats 2 2–1 with a drawn game, 3 beats 4 2–1. 1 and 3: 3 points,
    # OMW% 0.33 each (their opponents lost their only match): GW% 7/12 (2 won and 1
    # drawn of 4: 7 ÷ 12) against 2/3 (6/9): 3 first. 2 and 4: 0 points, OMW% 1 each,
    # GW% 4/12 and 3/9, both 1/3, tied; OGW% 7/12 (1's GW%) against 2/3 (3's): 4 first.
    entrants = [Entrant(n, n) for n in (1, 2, 3, 4)]
    results = [Result(1, (1, 2), (1, 2), (2, 1), drawn_games=1), win(1, 3, 4, (2, 1))]
    lines = swiss_standings(entrants, results, seed=0)
    assert [s.entrant for s in lines] == [3, 1, 4, 2]
    assert [s.note for s in lines] == ["", "", "", ""]
    assert [s.omw for s in lines] == [0.33, 0.33, 1.0, 1.0]
    assert [s.gw for s in lines] == [approx(Fraction(2, 3)), approx(Fraction(7, 12)),
                                     approx(Fraction(1, 3)), approx(Fraction(1, 3))]
    assert lines[2].ogw == approx(Fraction(2, 3)) and lines[3].ogw == approx(Fraction(7, 12))


def test_omw_ranks_before_gw() -> None:
    # R1: 1 beats 2 2–1, 3 beats 4 2–0, 5 beats 6 2–0.
    # R2: 2 beats 4 2–0, 5 beats 1 2–0, 6 beats 3 2–0.
    # 3 points: 1 (opponents 2: 1/2, 5: 1 → OMW% 3/4; games 2 of 5 → GW% 2/5),
    #           6 (5: 1, 3: 1/2 → 3/4; 2 of 4 → 1/2),
    #           2 (1: 1/2, 4: 0.33 → 83/200; 3 of 5 → 3/5),
    #           3 (4: 0.33, 6: 1/2 → 83/200; 2 of 4 → 1/2).
    # So 6 above 1 and 2 above 3 by GW%, but 1 above 2 by OMW% despite a worse GW%.
    entrants = [Entrant(n, n) for n in range(1, 7)]
    results = [win(1, 1, 2, (2, 1)), win(1, 3, 4), win(1, 5, 6),
               win(2, 2, 4), win(2, 5, 1), win(2, 6, 3)]
    records = swiss_records(entrants, results)
    assert [(records[p].omw, records[p].gw) for p in (1, 6, 2, 3)] == [
        (Fraction(3, 4), Fraction(2, 5)), (Fraction(3, 4), Fraction(1, 2)),
        (Fraction(83, 200), Fraction(3, 5)), (Fraction(83, 200), Fraction(1, 2))]
    lines = swiss_standings(entrants, results, seed=0)
    assert [s.entrant for s in lines] == [5, 6, 1, 2, 3, 4]
    assert all(s.note == "" for s in lines)


def test_a_true_tie_is_drawn_at_random_said_so_and_the_same_for_a_seed() -> None:
    # 1 and 3 won 2–0 against 2 and 4, who lost 0–2: every figure equal pairwise.
    entrants = [Entrant(n, n) for n in (1, 2, 3, 4)]
    results = [win(1, 1, 2), win(1, 3, 4)]
    tops = set()
    for seed in range(20):
        lines = swiss_standings(entrants, results, seed)
        assert {lines[0].entrant, lines[1].entrant} == {1, 3}
        assert [s.note for s in lines] == ["", DRAWN_AT_RANDOM, "", DRAWN_AT_RANDOM]
        assert lines == swiss_standings(list(reversed(entrants)), list(reversed(results)), seed)
        tops.add(lines[0].entrant)
    assert tops == {1, 3}  # the seed decides, both ways


def test_floors_both_lose_and_the_bye_adding_no_opponent() -> None:
    # 1 goes 1–4 (3 points over 5 rounds: 1/5, floored to 0.33) winning only games
    # it needs; 2 and 1 are given "both lose" in round 1 (a loss each, no games).
    entrants = [Entrant(n, n) for n in range(1, 7)]
    results = [Result(1, (1, 2), (2, 2), both_lose=True), bye(1, 3),
               win(2, 3, 1), win(3, 4, 1), win(4, 1, 5, (2, 1)), win(5, 6, 1, (2, 1))]
    records = swiss_records(entrants, results)
    one = records[1]
    assert (one.points, one.wins, one.losses, one.draws, one.rounds) == (3, 1, 4, 0, 5)
    assert one.mw == Fraction(33, 100)
    # Games: both-lose with none recorded, 0–2, 0–2, 2–1, 1–2 → 3 won of 10: 9/30 =
    # 0.3, floored to 0.33.
    assert (one.game_points, one.games, one.gw) == (9, 10, Fraction(33, 100))
    assert (records[2].points, records[2].losses, records[2].games) == (0, 1, 0)
    assert records[2].gw == Fraction(33, 100)  # played a round, no game: the floor
    # 3: a bye and a win over 1 — only 1 is an opponent.
    assert records[3].opponents == (1,) and records[3].omw == Fraction(33, 100)
    assert records[3].mw == 1 and records[3].gw == 1


def test_a_player_who_never_played_and_results_naming_strangers() -> None:
    entrants = [Entrant(1, 1), Entrant(2, 2), Entrant(3, 3, dropped_after=0)]
    records = swiss_records(entrants, [win(1, 1, 2)])
    # Nothing to divide: every figure at the floor, 0.33 (nobody's opponent either).
    floor = Fraction(33, 100)
    assert (records[3].rounds, records[3].mw, records[3].gw, records[3].omw) == (
        0, floor, floor, floor)
    assert swiss_standings(entrants, [win(1, 1, 2)], 1)[-1].entrant == 3
    with pytest.raises(ValueError, match="not an entrant"):
        swiss_records(entrants, [win(1, 1, 9)])


# -- pairing --------------------------------------------------------------------------------
def field_of(points: dict[int, int], met: dict[int, set[int]] | None = None,
             byes: dict[int, int] | None = None, round_no: int = 2) -> Field:
    """A field ranked in the order ``points`` lists its players."""
    met = dict(met or {})
    for a, others in list(met.items()):
        for b in others:
            met.setdefault(b, set()).add(a)
    return Field(round_no, list(points), points, met, byes or {})


def rematches(field: Field, pairings: tuple[tuple[int, ...], ...]) -> int:
    return field.cost(pairings)[0]


def test_a_greedy_walk_would_rematch_where_the_matching_does_not() -> None:
    # Four players on the same points; 3 and 4 have met. Pairing down the standings
    # (1–2, then 3–4) paints itself into a rematch; the whole field at once does not.
    field = field_of({1: 3, 2: 3, 3: 3, 4: 3}, {3: {4}})
    pairings = pair_field(field, seed=1)
    assert rematches(field, pairings) == 0
    assert {frozenset(p) for p in pairings} in ({frozenset({1, 3}), frozenset({2, 4})},
                                               {frozenset({1, 4}), frozenset({2, 3})})


def test_no_rematch_while_one_is_avoidable_even_at_the_price_of_floats() -> None:
    # 1 and 2 (6 points) have met: both float down rather than meet again.
    field = field_of({1: 6, 2: 6, 3: 3, 4: 3}, {1: {2}})
    pairings = pair_field(field, seed=3)
    assert rematches(field, pairings) == 0
    assert all(len(p) == 2 and field.points[p[0]] == 6 and field.points[p[1]] == 3
               for p in pairings)


def test_a_rematch_when_nothing_else_is_possible() -> None:
    field = field_of({1: 3, 2: 0}, {1: {2}})
    assert pair_field(field, seed=1) == ((1, 2),)


def test_the_float_is_the_lowest_of_an_odd_group_and_meets_the_top_of_the_next() -> None:
    field = field_of({1: 6, 2: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 0, 8: 0})
    pairings = pair_field(field, seed=5)
    assert (3, 4) in pairings
    assert {frozenset(p) for p in pairings} >= {frozenset({1, 2}), frozenset({7, 8})}
    # If the lowest has already met the top of the next group, the next best: the
    # lowest floats to the second of the group below.
    field = field_of({1: 6, 2: 6, 3: 6, 4: 3, 5: 3, 6: 3, 7: 0, 8: 0}, {3: {4}})
    assert (3, 5) in pair_field(field, seed=5)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    points = {1: 6, 2: 3, 3: 3, 4: 0, 5: 0}
    assert pair_field(field_of(points), seed=1)[-1] == (5,)
    assert pair_field(field_of(points, byes={5: 1}), seed=1)[-1] == (4,)
    # Nobody has a second bye while an active player has none: here only 1.
    assert pair_field(field_of(points, byes={2: 1, 3: 1, 4: 1, 5: 1}), seed=1)[-1] == (1,)
    # Everyone has had one: the lowest-ranked again.
    every = dict.fromkeys(points, 1)
    assert pair_field(field_of(points, byes=every), seed=1)[-1] == (5,)


def test_the_bye_moves_up_rather_than_force_a_rematch() -> None:
    # 5 is due the bye, but 1 has met 2, 3 and 4: without 5 to play, 1 would have to
    # meet someone again. With the bye on 4 instead: 1–5 and 2–3, no rematch.
    field = field_of({1: 6, 2: 3, 3: 3, 4: 0, 5: 0}, {1: {2, 3, 4}, 2: {4}, 3: {4}})
    pairings = pair_field(field, seed=2)
    assert rematches(field, pairings) == 0
    assert pairings == ((1, 5), (2, 3), (4,))


def test_pairing_is_deterministic_and_the_seed_matters() -> None:
    entrants = [Entrant(n, n) for n in range(1, 41)]
    swiss = SwissFormat()
    assert swiss.next_round(entrants, [], 11) == swiss.next_round(entrants, [], 11)
    firsts = {swiss.next_round(entrants, [], seed).pairings for seed in range(5)}
    assert len(firsts) == 5
    first = swiss.next_round(entrants, [], 11)
    assert first is not None
    results = [win(1, a, b) for a, b in first.pairings]
    assert swiss.next_round(entrants, results, 11) == swiss.next_round(
        list(reversed(entrants)), list(reversed(results)), 11)


def test_rounds_finished_dropped_players_and_incomplete_rounds() -> None:
    assert [swiss_rounds(n) for n in (2, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 226)] == [
        3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]
    assert [swiss_rounds(n) for n in (227, 409, 410, 1000)] == [9, 9, 10, 10]
    entrants = [Entrant(n, n) for n in range(1, 7)] + [Entrant(7, 7, dropped_after=0)]
    swiss = SwissFormat(rounds=2)
    assert swiss.rounds(entrants) == 2 and SwissFormat().rounds(entrants) == 3
    first = swiss.next_round(entrants, [], 3)
    assert first is not None and first.round == 1
    assert 7 not in {p for pairing in first.pairings for p in pairing}
    results = [win(1, *pairing) for pairing in first.pairings]
    with pytest.raises(ValueError, match="not complete"):
        swiss.next_round(entrants, results[:-1], 3)
    assert not swiss.finished(entrants, results[:-1])
    # 1 drops after round 1: never paired again, the field is odd, someone has the bye.
    entrants[0] = Entrant(1, 1, dropped_after=1)
    second = swiss.next_round(entrants, results, 3)
    assert second is not None and second.round == 2
    seated = [p for pairing in second.pairings for p in pairing]
    assert sorted(seated) == [2, 3, 4, 5, 6] and len(second.pairings[-1]) == 1
    results += [win(2, *p) if len(p) == 2 else bye(2, p[0]) for p in second.pairings]
    assert swiss.finished(entrants, results)
    assert swiss.next_round(entrants, results, 3) is None
    assert SwissFormat().next_round([Entrant(1, 1)], [], 1) is None
    with pytest.raises(ValueError):
        SwissFormat(rounds=0)


# -- round robin ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 12))
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    entrants = [Entrant(p, p) for p in range(1, n + 1)]
    robin = RoundRobinFormat()
    results: list[Result] = []
    met: list[frozenset[int]] = []
    byes: list[int] = []
    while (plan := robin.next_round(entrants, results, seed=1)) is not None:
        for pairing in plan.pairings:
            if len(pairing) == 1:
                byes.append(pairing[0])
                results.append(bye(plan.round, pairing[0]))
            else:
                met.append(frozenset(pairing))
                results.append(win(plan.round, *pairing))
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert robin.rounds(entrants) == plan_rounds(n) == max(r.round for r in results)
    assert sorted(byes) == (list(range(1, n + 1)) if n % 2 else [])
    assert robin.finished(entrants, results)
    assert [s.rank for s in robin.standings(entrants, results, 1)] == list(range(1, n + 1))


def plan_rounds(n: int) -> int:
    return n if n % 2 else n - 1


def test_round_robin_a_dropped_players_opponents_have_the_bye() -> None:
    entrants = [Entrant(p, p) for p in range(1, 5)]
    robin = RoundRobinFormat()
    first = robin.next_round(entrants, [], 0)
    assert first is not None and first.pairings == circle_round([1, 2, 3, 4], 1)
    results = [win(1, *p) for p in first.pairings]
    entrants[3] = Entrant(4, 4, dropped_after=1)
    second = robin.next_round(entrants, results, 0)
    assert second is not None
    scheduled = circle_round([1, 2, 3, 4], 2)
    partner = next(p for pair in scheduled if 4 in pair for p in pair if p != 4)
    assert (partner,) in second.pairings
    assert 4 not in {p for pairing in second.pairings for p in pairing}
