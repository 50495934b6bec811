"""Single and double elimination (rules/tournament/elimination.py): seeding, byes to the
top seeds, labels, brackets played to the end with every match decided, who lost how
often, the grand final and its reset, draws, "both lose", drops, standings; and
random brackets of 2–500 players with random results."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import say
from rules.errors import RulesError
from rules.phrases import Phrase, Words
from rules.tournament.elimination import (
    BYE,
    Bracket,
    BracketError,
    DoubleEliminationFormat,
    SingleEliminationFormat,
    bracket_order,
    bracket_size,
)
from rules.tournament.model import Entrant, Result, RoundPlan

Format = SingleEliminationFormat | DoubleEliminationFormat
Decide = Callable[[int, tuple[int, ...]], Result]
PROFILE = settings(max_examples=60, deadline=None, derandomize=True, database=None)
FORMATS = [SingleEliminationFormat(), SingleEliminationFormat(third_place=True),
           DoubleEliminationFormat(), DoubleEliminationFormat(bracket_reset=False)]
FORMAT_IDS = ["single", "single+third", "double", "double-no-reset"]


def english(labels: Sequence[Words]) -> tuple[str, ...]:
    """Labels as an English reader reads them."""
    return tuple(say(label, "en") for label in labels)


@contextmanager
def refused(error: type[RulesError], pattern: str) -> Iterator[None]:
    """Expect ``error`` whose English words match ``pattern``."""
    with pytest.raises(error) as caught:
        yield
    assert re.search(pattern, say(caught.value.text, "en")), say(caught.value.text, "en")


def field(players: int) -> list[Entrant]:
    """Entrants 101, 102, … seeded 1, 2, …"""
    return [Entrant(id=100 + seed, seed=seed) for seed in range(1, players + 1)]


def win(round_no: int, winner: int, loser: int) -> Result:
    return Result(round_no, (winner, loser), (1, 2), (2, 0))


def bye(round_no: int, who: int) -> Result:
    return Result(round_no, (who,), (1,), (2,))


def random_winner(rng: random.Random) -> Decide:
    def decide(round_no: int, seats: tuple[int, ...]) -> Result:
        if len(seats) == 1:
            return bye(round_no, seats[0])
        first, second = seats if rng.random() < 0.5 else seats[::-1]
        return win(round_no, first, second)
    return decide


def play(fmt: Format, entrants: list[Entrant], decide: Decide,
         drops: Callable[[int, list[Entrant]], list[Entrant]] | None = None,
         ) -> tuple[list[Entrant], list[Result], list[RoundPlan]]:
    """Plays a bracket to the end, checking each round on the way."""
    results: list[Result] = []
    plans: list[RoundPlan] = []
    while (plan := fmt.next_round(entrants, results, 0)) is not None:
        assert fmt.next_round(entrants, results, 0) == plan  # asked again: the same
        assert not fmt.finished(entrants, results)
        assert plan.round == (plans[-1].round + 1 if plans else fmt.first_round)
        assert len(plan.labels) == len(plan.pairings) and all(plan.labels)
        seated = [who for pairing in plan.pairings for who in pairing]
        assert len(seated) == len(set(seated)), "someone in two matches of a round"
        active = {e.id for e in entrants if e.active_in(plan.round)}
        assert set(seated) <= active, "a dropped player was paired"
        assert all(1 <= len(pairing) <= 2 for pairing in plan.pairings)
        plans.append(plan)
        results += [decide(plan.round, pairing) for pairing in plan.pairings]
        if drops:
            entrants = drops(plan.round, entrants)
        assert len(plans) < 40
    assert fmt.finished(entrants, results)
    return entrants, results, plans


def lives(fmt: Format, bracket: Bracket, entrant: int) -> int:
    """How many losses put ``entrant`` out: one in single elimination (two for a
    semi-final loser who then loses the third-place match), two in double."""
    if isinstance(fmt, DoubleEliminationFormat):
        return 2
    third = [m for m in bracket.matches if m.id == "3P"]
    return 2 if third and entrant in third[0].slots else 1


def losses(bracket: Bracket) -> Counter[int]:
    """Matches each player lost, from the bracket (a forfeit is a loss)."""
    lost: Counter[int] = Counter()
    for match in bracket.matches:
        if match.status == "done":
            for who in match.slots:
                if isinstance(who, int) and who != match.winner:
                    lost[who] += 1
    return lost


def check_complete(bracket: Bracket) -> None:
    """Every match decided or void; every winner sits where the bracket sends them."""
    for match in bracket.matches:
        assert match.status in ("done", "void"), f"{match.id} is {match.status}"
        assert match.label
        if match.status == "void":
            continue
        if match.winner is not None:
            assert match.winner in match.slots
        if match.winner_to and match.winner is not None:
            target, slot = match.winner_to
            assert bracket.match(target).slots[slot] == match.winner


# -- Seeding ------------------------------------------------------------------------------

def test_the_spec_top_cut_order() -> None:
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(4) == (1, 4, 2, 3)
    plan = SingleEliminationFormat().next_round(field(8), [], 0)
    assert plan.pairings == ((101, 108), (104, 105), (102, 107), (103, 106))
    assert english(plan.labels) == ("Quarter-final 1", "Quarter-final 2", "Quarter-final 3",
                           "Quarter-final 4")


@pytest.mark.parametrize("size", [2 ** k for k in range(1, 10)])
def test_bracket_order_keeps_the_top_seeds_apart(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # The top b seeds sit in b different blocks of size / b: they cannot meet before
    # the round with b players left (1 and 2 only in the final).
    blocks = 1
    while blocks <= size:
        homes = {order.index(seed) // (size // blocks) for seed in range(1, blocks + 1)}
        assert len(homes) == blocks
        blocks *= 2


def test_bracket_sizes_and_bad_orders() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 64, 65, 500)] == [2, 4, 4, 8, 64, 128, 512]
    with pytest.raises(ValueError):
        bracket_order(6)


@pytest.mark.parametrize("players", range(2, 65))
@pytest.mark.parametrize("fmt", FORMATS[::2], ids=["single", "double"])
def test_byes_go_to_the_top_seeds(fmt: Format, players: int) -> None:
    plan = fmt.next_round(field(players), [], 0)
    size = bracket_size(players)
    byes = [pairing[0] for pairing in plan.pairings if len(pairing) == 1]
    assert byes == [100 + seed for seed in bracket_order(size) if seed <= size - players]
    assert len(plan.pairings) == size // 2
    assert sorted(who for pairing in plan.pairings for who in pairing) == \
        [e.id for e in field(players)]


def test_seeds_not_ids_order_the_bracket() -> None:
    people = [Entrant(id=7, seed=3), Entrant(id=9, seed=1), Entrant(id=3, seed=2)]
    assert SingleEliminationFormat().next_round(people, [], 0).pairings == ((9,), (3, 7))


def test_labels_name_each_round() -> None:
    single = SingleEliminationFormat(third_place=True)
    _, _, plans = play(single, field(16), random_winner(random.Random(1)))
    assert [english(plan.labels) for plan in plans][1:] == [
        ("Quarter-final 1", "Quarter-final 2", "Quarter-final 3", "Quarter-final 4"),
        ("Semi-final 1", "Semi-final 2"),
        ("Final", "Third-place match")]
    assert say(plans[0].labels[0], "en") == "Round of 16, match 1"
    _, _, plans = play(DoubleEliminationFormat(), field(8), random_winner(random.Random(1)))
    labels = [say(label, "en") for plan in plans for label in plan.labels]
    assert labels[:4] == ["Winners' quarter-final 1", "Winners' quarter-final 2",
                          "Winners' quarter-final 3", "Winners' quarter-final 4"]
    for name in ("Winners' final", "Losers' round 1, match 2", "Losers' semi-final",
                 "Losers' final", "Grand final"):
        assert name in labels
    assert len(labels) == len(set(labels))
    portuguese = [say(label, "pt_BR") for plan in plans for label in plan.labels]
    assert portuguese[:2] == ["Quartas de final da chave superior, partida 1",
                              "Quartas de final da chave superior, partida 2"]
    assert "Grande final" in portuguese and "Final da chave inferior" in portuguese


# -- Played to the end ----------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 65))
def test_single_elimination_played_out(players: int) -> None:
    fmt = SingleEliminationFormat()
    entrants, results, plans = play(fmt, field(players), random_winner(random.Random(players)))
    bracket = fmt.bracket(entrants, results)
    check_complete(bracket)
    assert len(plans) == fmt.rounds(entrants)
    lost = losses(bracket)
    champion = bracket.champion
    assert champion is not None and lost[champion] == 0
    assert all(lost[e.id] == 1 for e in entrants if e.id != champion)
    assert all(m.winner == champion for m in bracket.matches if champion in m.slots)
    final = bracket.match(f"R{len(plans)}-1")
    assert say(final.label, "en") == "Final" and final.winner == champion
    lines = fmt.standings(entrants, results)
    assert [line.entrant for line in lines[:2]] == [champion, final.loser]
    if players >= 4:
        semis = {m.loser for m in bracket.matches
                 if say(m.label, "en").startswith("Semi-final")} - {None}
        assert {line.entrant for line in lines if line.rank == 3} == semis
        assert [line.rank for line in lines[2:4]] == [3, 3]
    assert fmt.next_round(entrants, results, 0) is None


@pytest.mark.parametrize("players", range(2, 65))
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_played_out(players: int, reset: bool) -> None:
    fmt = DoubleEliminationFormat(bracket_reset=reset)
    entrants, results, plans = play(fmt, field(players), random_winner(random.Random(players)))
    bracket = fmt.bracket(entrants, results)
    check_complete(bracket)
    lost = losses(bracket)
    champion = bracket.champion
    assert champion is not None
    final = bracket.match("GF")
    runner_up = next(line.entrant for line in fmt.standings(entrants, results)
                     if line.rank == 2)
    for entrant in entrants:
        if entrant.id == champion:
            # Unbeaten; or beaten once: by the losers' champion in a grand final that was
            # then reset, or (the losers' champion) in the winners' bracket.
            assert lost[entrant.id] == (0 if final.winner == champion == final.slots[0]
                                        else 1)
        elif entrant.id == runner_up and not reset and final.winner == final.slots[1]:
            assert lost[entrant.id] == 1  # the grand final without a reset
        else:
            assert lost[entrant.id] == 2, entrant
    size = bracket_size(players)
    columns = size.bit_length() - 1
    if reset:
        played_reset = final.winner == final.slots[1]
        assert (bracket.match("GF2").status == "done") == played_reset
        assert len(plans) == 2 * columns + played_reset
    else:
        assert "GF2" not in {m.id for m in bracket.matches}
        assert len(plans) == 2 * columns == fmt.rounds(entrants)


def test_double_elimination_rounds_play_winners_and_losers_together() -> None:
    fmt = DoubleEliminationFormat(bracket_reset=False)
    _, results, plans = play(fmt, field(16), random_winner(random.Random(4)))
    bracket = fmt.bracket(field(16), results)
    for match in bracket.matches:
        if match.section == "winners":
            assert match.round == match.column
        elif match.section == "losers":
            assert match.round == match.column + 1
    assert bracket.match("GF").round == 8 == len(plans)


@pytest.mark.parametrize("players", [8, 16, 32, 64])
def test_no_rematch_in_the_losers_bracket_first_rounds(players: int) -> None:
    """Losers of winners' round 2 cross into the losers' bracket so that they meet
    nobody they have played (and losers' round 1 pairs players who never met). (With 4
    players winners' round 2 is the final: its loser meets the losers' bracket's only
    survivor, whoever that is.)"""
    fmt = DoubleEliminationFormat()
    for trial in range(20):
        entrants, results, _ = play(fmt, field(players), random_winner(random.Random(trial)))
        bracket = fmt.bracket(entrants, results)
        met: set[frozenset[int]] = set()
        for match in sorted(bracket.matches, key=lambda m: m.round or 0):
            pair = frozenset(who for who in match.slots if isinstance(who, int))
            if len(pair) == 2:
                if match.section == "losers" and match.column <= 2:
                    assert pair not in met, (match.id, pair)
                met.add(pair)


# -- The grand final -------------------------------------------------------------------------

def test_bracket_reset_when_the_losers_champion_wins_the_grand_final() -> None:
    fmt = DoubleEliminationFormat()
    people = field(2)
    results = [win(1, 101, 102)]
    assert fmt.next_round(people, results, 0) == RoundPlan(
        2, ((101, 102),), (Phrase("tournaments.label.grand_final"),))
    results.append(win(2, 102, 101))
    assert fmt.next_round(people, results, 0) == RoundPlan(
        3, ((101, 102),), (Phrase("tournaments.label.grand_final_reset"),))
    results.append(win(3, 102, 101))
    assert fmt.finished(people, results)
    bracket = fmt.bracket(people, results)
    assert bracket.champion == 102 and bracket.match("GF2").winner == 102
    lines = fmt.standings(people, results)
    assert [(line.rank, line.entrant, line.record) for line in lines] == [
        (1, 102, "2-1-0"), (2, 101, "1-2-0")]


def test_no_reset_when_the_unbeaten_player_wins_the_grand_final() -> None:
    fmt = DoubleEliminationFormat()
    people = field(2)
    results = [win(1, 101, 102), win(2, 101, 102)]
    assert fmt.finished(people, results)
    bracket = fmt.bracket(people, results)
    assert bracket.champion == 101 and bracket.match("GF2").status == "void"


def test_without_reset_the_grand_final_decides() -> None:
    fmt = DoubleEliminationFormat(bracket_reset=False)
    people = field(2)
    results = [win(1, 101, 102), win(2, 102, 101)]
    assert fmt.finished(people, results)
    assert fmt.bracket(people, results).champion == 102
    assert fmt.rounds(people) == 2 and DoubleEliminationFormat().rounds(people) is None


# -- Draws, "both lose", drops -----------------------------------------------------------------

def test_a_drawn_match_advances_the_higher_seed() -> None:
    fmt = SingleEliminationFormat()
    people = field(4)
    results = [Result(1, (101, 104), (1, 1), (1, 1)), win(1, 103, 102)]
    assert fmt.next_round(people, results, 0).pairings == ((101, 103),)
    match = fmt.bracket(people, results).match("R1-1")
    assert match.winner == 101 and "higher seed" in say(match.note, "en")
    line = next(line for line in fmt.standings(people, results) if line.entrant == 104)
    assert line.record == "0-0-1"


def test_both_lose_puts_both_out_and_the_next_opponent_has_a_bye() -> None:
    fmt = SingleEliminationFormat()
    people = field(4)
    results = [Result(1, (101, 104), (2, 2), both_lose=True), win(1, 102, 103)]
    assert fmt.next_round(people, results, 0) == RoundPlan(
        2, ((102,),), (Phrase("tournaments.label.final"),))
    results.append(bye(2, 102))
    assert fmt.finished(people, results)
    # Nobody reached the final against 102: everyone else went out in round 1.
    lines = fmt.standings(people, results)
    assert [(line.rank, line.entrant) for line in lines] == [
        (1, 102), (2, 101), (2, 103), (2, 104)]
    assert say(lines[2].note, "en") == "out in the same round, listed by seed"
    assert say(lines[2].note, "pt_BR") == "eliminados na mesma rodada, em ordem de cabeça de chave"


def test_a_dropped_player_forfeits_the_next_match() -> None:
    fmt = SingleEliminationFormat()
    people = field(8)
    results = [win(1, 101, 108), win(1, 104, 105), win(1, 102, 107), win(1, 103, 106)]
    people = [Entrant(e.id, e.seed, 1) if e.id == 104 else e for e in people]
    plan = fmt.next_round(people, results, 0)
    assert plan.pairings == ((101,), (102, 103))  # 104 dropped: 101 has a walkover
    results += [bye(2, 101), win(2, 103, 102)]
    bracket = fmt.bracket(people, results)
    walkover = bracket.match("R2-1")
    assert walkover.slots == (101, 104) and walkover.winner == 101 and walkover.loser == 104
    assert "dropped" in say(walkover.note, "en")
    lines = {line.entrant: line for line in fmt.standings(people, results)}
    assert lines[104].dropped and lines[104].rank == 3 == lines[102].rank


def test_players_dropped_before_the_start_take_no_place_in_the_bracket() -> None:
    fmt = DoubleEliminationFormat()
    people = [*field(5), Entrant(id=106, seed=6, dropped_after=0)]
    plan = fmt.next_round(people, [], 0)
    assert len(plan.pairings) == 4 and 106 not in {w for p in plan.pairings for w in p}
    assert fmt.standings(people, [])[-1].entrant == 106


def test_a_dropped_player_is_never_paired_again_in_the_losers_bracket() -> None:
    fmt = DoubleEliminationFormat()
    people = field(8)
    results = [win(1, 101, 108), win(1, 104, 105), win(1, 102, 107), win(1, 103, 106)]
    people = [Entrant(e.id, e.seed, 1) if e.id == 108 else e for e in people]
    plan = fmt.next_round(people, results, 0)
    assert (105,) in plan.pairings  # 108 dropped after losing: 105 walks over
    assert 108 not in {who for pairing in plan.pairings for who in pairing}


def test_everyone_dropping_ends_the_bracket() -> None:
    fmt = SingleEliminationFormat()
    people = [Entrant(e.id, e.seed, 1) for e in field(4)]
    results = [win(1, 101, 104), win(1, 102, 103)]
    assert fmt.next_round(people, results, 0) is None
    assert fmt.finished(people, results)
    assert fmt.bracket(people, results).champion is None


# -- Refusals -------------------------------------------------------------------------------

def test_results_that_fit_no_match_are_refused() -> None:
    fmt = SingleEliminationFormat()
    people = field(4)
    with refused(BracketError, "no match"):
        fmt.next_round(people, [win(1, 101, 102)], 0)
    with refused(BracketError, "two results"):
        fmt.next_round(people, [win(1, 101, 104), win(1, 104, 101), win(1, 102, 103)], 0)
    with refused(BracketError, "before round 1 was finished"):
        fmt.next_round(people, [win(1, 101, 104), win(2, 101, 102)], 0)
    with refused(BracketError, "no round 3"):
        fmt.next_round(people, [win(1, 101, 104), win(1, 102, 103), win(2, 101, 102),
                                win(3, 101, 102)], 0)
    assert issubclass(BracketError, RulesError) and issubclass(BracketError, ValueError)


def test_a_round_half_played_is_not_the_next_round() -> None:
    fmt = SingleEliminationFormat()
    people = field(4)
    with refused(BracketError, "Semi-final 2 has no result yet"):
        fmt.next_round(people, [win(1, 101, 104)], 0)
    assert not fmt.finished(people, [win(1, 101, 104)])
    bracket = fmt.bracket(people, [win(1, 101, 104)])
    assert bracket.match("R1-1").status == "done" and bracket.match("R1-2").status == "ready"
    assert bracket.match("R2-1").slots == (101, None)


def test_tiny_fields() -> None:
    for fmt in FORMATS:
        assert fmt.next_round([], [], 0) is None and fmt.finished([], [])
        one = field(1)
        assert fmt.next_round(one, [], 0) is None and fmt.rounds(one) == 0
        assert fmt.standings(one, [], 0)[0].rank == 1
        assert fmt.bracket(one, []).champion == 101


def test_a_top_cut_starts_after_the_swiss_rounds() -> None:
    fmt = SingleEliminationFormat(first_round=6)
    people = field(8)
    swiss = [win(r, 101 + r, 102 + r) for r in range(1, 6)]
    plan = fmt.next_round(people, swiss, 0)
    assert plan.round == 6 and plan.pairings[0] == (101, 108)
    assert fmt.standings(people, swiss)[0].points == 0  # the Swiss results are not counted


def test_the_bracket_picture_says_where_everyone_goes() -> None:
    fmt = DoubleEliminationFormat()
    people = field(6)
    bracket = fmt.bracket(people, [])
    assert bracket.kind == "double" and bracket.size == 8
    first = bracket.match("W1-1")
    assert first.slots == (101, BYE) and first.status == "ready" and first.round == 1
    assert first.winner_to == ("W2-1", 0) and first.loser_to == ("L1-1", 0)
    assert bracket.match("W2-1").slots == (None, None)
    assert bracket.match("W2-1").status == "waiting"
    assert [len(column) for column in bracket.section("winners")] == [4, 2, 1]
    assert [len(column) for column in bracket.section("losers")] == [2, 2, 1, 1]
    assert [m.id for m in bracket.section("grand_final")[0]] == ["GF"]
    with pytest.raises(KeyError):
        bracket.match("Z9")
    # Five players: seeds 1, 2 and 3 have byes, so losers' match 2 of round 1 waits for
    # two byes' losers (nobody): a void match, never paired.
    people = field(5)
    entrants, results, _ = play(fmt, people, random_winner(random.Random(3)))
    done = fmt.bracket(entrants, results)
    assert done.match("L1-2").slots == (BYE, BYE) and done.match("L1-2").status == "void"
    assert done.match("L1-2").round is None
    assert done.match("L1-1").slots[0] == BYE and done.match("L1-1").status == "done"


# -- Random brackets ---------------------------------------------------------------------------

@PROFILE
@given(players=st.integers(2, 500), fmt=st.sampled_from(FORMATS), seed=st.integers(0, 2**32))
def test_random_brackets_are_complete_and_correct(players: int, fmt: Format, seed: int) -> None:
    rng = random.Random(seed)
    entrants, results, plans = play(fmt, field(players), random_winner(rng))
    bracket = fmt.bracket(entrants, results)
    check_complete(bracket)
    lost = losses(bracket)
    champion = bracket.champion
    assert champion is not None
    assert lost[champion] <= (0 if isinstance(fmt, SingleEliminationFormat) else 1)
    assert all(lost[e.id] <= lives(fmt, bracket, e.id) for e in entrants)
    # Everyone is out but the champion (and the runner-up of a grand final not reset, or
    # the third-place match's winner).
    assert sum(lost[e.id] < lives(fmt, bracket, e.id) for e in entrants) <= 2
    lines = fmt.standings(entrants, results)
    assert sorted(line.entrant for line in lines) == sorted(e.id for e in entrants)
    assert lines[0].entrant == bracket.champion and lines[0].rank == 1
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    expected = fmt.rounds(entrants)
    if expected is not None:
        assert len(plans) == expected
    # The byes of round 1 are the top seeds', and nobody else has one in round 1.
    byes = sorted(p[0] for p in plans[0].pairings if len(p) == 1)
    assert byes == [100 + s for s in range(1, bracket_size(players) - players + 1)]


@PROFILE
@given(players=st.integers(2, 200), fmt=st.sampled_from(FORMATS), seed=st.integers(0, 2**32))
def test_random_brackets_with_drops_draws_and_double_losses(players: int, fmt: Format,
                                                            seed: int) -> None:
    rng = random.Random(seed)

    def decide(round_no: int, seats: tuple[int, ...]) -> Result:
        roll = rng.random()
        if len(seats) == 1:
            return bye(round_no, seats[0])
        if roll < 0.05:
            return Result(round_no, seats, (2, 2), both_lose=True)
        if roll < 0.1:
            return Result(round_no, seats, (1, 1))
        return win(round_no, *(seats if roll < 0.55 else seats[::-1]))

    def drops(round_no: int, entrants: list[Entrant]) -> list[Entrant]:
        return [Entrant(e.id, e.seed, round_no)
                if e.dropped_after is None and rng.random() < 0.04 else e for e in entrants]

    start = field(players)
    entrants, results, plans = play(fmt, start, decide, drops)
    bracket = fmt.bracket(entrants, results)
    check_complete(bracket)
    dropped = {e.id: e.dropped_after for e in entrants if e.dropped_after is not None}
    for plan in plans:
        for pairing in plan.pairings:
            assert all(dropped.get(who, plan.round) >= plan.round for who in pairing)
    lost = losses(bracket)
    champion = bracket.champion
    assert champion is None or lost[champion] < lives(fmt, bracket, champion)
    assert all(lost[e.id] <= lives(fmt, bracket, e.id) for e in entrants)
    lines = fmt.standings(entrants, results)
    assert sorted(line.entrant for line in lines) == sorted(e.id for e in entrants)
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    assert {line.entrant for line in lines if line.dropped} == set(dropped)


def test_the_format_names() -> None:
    assert SingleEliminationFormat().name == "single"
    assert DoubleEliminationFormat().name == "double"


def test_one_replay_answers_the_same_every_time() -> None:
    fmt = DoubleEliminationFormat()
    entrants, results, _ = play(fmt, field(11), random_winner(random.Random(9)))
    assert fmt.bracket(entrants, results) == fmt.bracket(list(entrants), list(results))
    assert fmt.standings(entrants, results, 1) == fmt.standings(entrants, results, 2)
