"""The Arcane Duel benchmark measures sane figures from a few duels."""

from __future__ import annotations

from bench import duel as bench_duel
from bench.figures import missed


def test_the_duel_benchmark_measures_every_figure_from_a_few_duels() -> None:
    computer = bench_duel.computer_rate(2, runs=2)
    assert computer.duels == 2 and computer.runs == 2
    assert 0 < computer.decisions < computer.choices
    assert computer.decisions_per_s > 0 and computer.duels_per_s > 0
    assert 0 < computer.p99_ms <= computer.slowest_ms

    engine = bench_duel.random_rate(2, runs=1)
    assert engine.choices > 0 and engine.choices_per_s > 0

    record = bench_duel.against_random(4)
    assert record.wins + record.draws + record.losses == record.duels == 4
    assert 0.0 <= record.win_rate <= 1.0

    figures = bench_duel.figures(computer, engine, record)
    assert len({f.name for f in figures}) == len(figures) == 5
    assert all(f.group == "duel" and f.name and f.unit and f.note for f in figures)
    assert all(f.value > 0 for f in figures if f.unit != "rate")
    by_name = {f.name: f for f in figures}
    slowest = by_name["computer: slowest decision"]
    assert (slowest.compare, slowest.target, slowest.gates) == ("<=", 1_000.0, False)
    rate = by_name["computer vs random: win rate"]
    assert (rate.compare, rate.target, rate.gates) == (">=", 0.95, True)
    assert rate.value == record.win_rate
    # Only the win rate gates.
    assert [f.name for f in figures if f.gates and f.target is not None] == [rate.name]
    assert missed(figures) in ([], [rate])


def test_the_same_seeded_duel_plays_alike() -> None:
    assert bench_duel.against_random_duel(3) == bench_duel.against_random_duel(3)
    first, _ = bench_duel.random_duel(5)
    again, _ = bench_duel.random_duel(5)
    assert first == again


def test_the_duel_pictures_benchmark_measures_every_figure_quickly() -> None:
    from bench import duel_table

    figures = duel_table.measure(repeats=1, cards=2, positions=1, duels=2)
    by_name = {f.name: f for f in figures}
    assert len(by_name) == len(figures) == 7
    assert all(f.group == "duel pictures" and f.value > 0 and f.note for f in figures)
    timed = [f for f in figures if f.target is not None]
    assert {f.name for f in timed} == {"card picture, first time", "hand of 7",
                                       "busy battlefield"}
    # Absolute speeds are reported beside their 100 ms target, never gating.
    assert all((f.compare, f.target, f.gates) == ("<=", 100.0, False) for f in timed)
    assert not missed(figures)
    assert by_name["memory per active duel"].unit == "KiB"


def test_the_collection_pictures_benchmark_measures_its_figures() -> None:
    from bench import duel_table

    figures = duel_table.collection_figures(repeats=1, packs=1)
    assert [f.name for f in figures] == ["pack picture", "pack picture, again", "deck picture",
                                         "deck picture, caches cleared"]
    assert all(f.value > 0 and f.note for f in figures)
