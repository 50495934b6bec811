"""The tournament benchmark at a tiny size: it pairs, recomputes the standings, counts
rematches and reports its figures with their targets."""

from __future__ import annotations

from bench import tournament as bench_tournament
from bench.figures import missed


def test_the_tournament_benchmark_measures_pairing_and_standings() -> None:
    got = bench_tournament.measure(players=24, paired_round=3, rounds=4, runs=1, seed=5)
    assert (got.players, got.paired_round, got.rounds) == (24, 3, 4)
    assert got.pairing_ms > 0 and got.standings_ms > 0
    assert len(got.round_ms) == 4 and got.rematches == 0

    figures = bench_tournament.figures(got)
    assert [f.name for f in figures] == [
        "pairing round 3, 24 players", "slowest round of 4, 24 players",
        "standings after 4 rounds, 24 players", "rematches paired (avoidable)"]
    assert all(f.group == "tournament" and f.target is not None and f.gates for f in figures)
    assert not missed(figures)


def test_the_playout_stops_before_the_round_to_pair() -> None:
    entrants, results, times, rematches = bench_tournament.playout(10, 3, seed=2, stop_before=3)
    assert {r.round for r in results} == {1, 2} and len(times) == 2 and rematches == 0
    assert len(entrants) == 10
