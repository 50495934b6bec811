"""Tournaments in other languages (issue 33): the pictures of pairings, standings and
brackets (single, double elimination, a top cut) keep every text inside the picture
and apart in the pseudo-locale (40 % longer words) with long names; their text versions
and the words around them come from the catalog (no English left); and the Portuguese
a Brazilian reads."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from bot.discord_side.tournament_posts import to_render_bracket
from bot.i18n import pseudo, say, speaking
from bot.pictures import tournament as render
from bot.pictures.common import clean
from bot.tournaments.terms import ordinal, pairing_result
from rules.tournament.elimination import DoubleEliminationFormat, SingleEliminationFormat
from rules.tournament.model import Entrant, Result, RoundPlan
from rules.tournament.pods import PodsFormat
from rules.tournament.standings import DRAWN_AT_RANDOM
from tests.pseudo import english_left, pictures_checked

LONG = "Ŵíĺĥéĺḿíñá Ţĥé Ĺóñğéšţ-Ñáḿéď Ƥĺáýéŕ Øƒ Ţĥéḿ Áĺĺ"
"""A long name, with no ASCII letter (it is no English, cut short or not)."""
SHOWN = (LONG, clean(LONG), "Open")
"""What is no words: the name as given and as a picture draws it, a tournament's name."""


@pytest.fixture
def spoken_pseudo() -> Iterator[None]:
    """Speak the pseudo-locale."""
    pseudo.enable()
    try:
        with speaking("qps"):
            yield
    finally:
        pseudo.enable(False)


def people(count: int) -> list[Entrant]:
    """Entrants seeded 1…``count``, the last a computer player (ids below 0)."""
    return [Entrant(id=100 + seed if seed < count else -count, seed=seed)
            for seed in range(1, count + 1)]


def entrant_rows(count: int) -> list[SimpleNamespace]:
    """The store's entrants as the bracket converter reads them: long names, and a
    computer entrant (named in the reader's words)."""
    rows = [SimpleNamespace(user_id=100 + seed, seed=seed, name=f"{LONG} {seed}")
            for seed in range(1, count)]
    return [*rows, SimpleNamespace(user_id=-count, seed=count, name=f"Computer {count}")]


def english_drawn(text: str) -> list[str]:
    """The English left in a text a picture drew: the font has no thorn, so a picture
    draws the pseudo-locale's "þ" (its "p") as "th", which is no English."""
    return english_left(text.replace("th", "þ"), SHOWN)


def played(fmt: SingleEliminationFormat | DoubleEliminationFormat, field: list[Entrant],
           rounds: int) -> list[Result]:
    """``rounds`` rounds of ``fmt`` played, the higher seed winning (the first round of
    a top cut is the one after the Swiss)."""
    results: list[Result] = []
    for _ in range(rounds):
        plan = fmt.next_round(field, results, 0)
        if plan is None:
            break
        for seats in plan.pairings:
            if len(seats) == 1:
                results.append(Result(plan.round, seats, (1,), (2,)))
            else:
                results.append(Result(plan.round, seats, (1, 2), (2, 1)))
    return results


BRACKETS = {
    "single": (SingleEliminationFormat(third_place=True), 6, 1),
    "double": (DoubleEliminationFormat(), 12, 3),
    "top cut": (SingleEliminationFormat(first_round=6, third_place=True), 8, 2),
}


@pytest.mark.parametrize("kind", list(BRACKETS))
def test_brackets_keep_their_words_inside_in_the_pseudo_locale(kind: str,
                                                               spoken_pseudo: None) -> None:
    fmt, count, rounds = BRACKETS[kind]
    field = people(count)
    bracket = fmt.bracket(field, played(fmt, field, rounds))
    with pictures_checked() as placed:
        drawn = to_render_bracket(bracket, entrant_rows(count))  # type: ignore[arg-type]
        render.draw_bracket(f"{LONG} — Open", drawn)
    texts = [one.text for one in placed]
    assert any(text.startswith("⟦Çóḿ") for text in texts), [t for t in texts if "Ç" in t]
    left = [text for text in texts if english_drawn(text)]
    assert left == []
    assert all(say(match.label) for match in drawn.matches)


def test_pairings_and_standings_keep_their_words_inside_in_the_pseudo_locale(
        spoken_pseudo: None) -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=2)
    plan = pods.next_round(people(9), [], 3)
    assert plan is not None
    names = {100 + k: f"{LONG} {k}" for k in range(1, 10)}
    rows = [render.TableRow(row.table, row.players, say(label))
            for row, label in zip(render.table_rows(RoundPlan(1, plan.pairings), names),
                                  plan.labels, strict=True)]
    lines, _ = _standings()
    with pictures_checked() as placed:
        render.draw_pairings(f"{LONG} — Open", 1, rows)
        render.draw_pairings(LONG, 2, [render.TableRow(1, (LONG, LONG + " 2"), ""),
                                       render.TableRow(None, (LONG, None))])
        render.draw_standings(LONG, lines, {line.entrant: LONG for line in lines})
        render.draw_standings(LONG, [], {})
    left = [one.text for one in placed if english_drawn(one.text)]
    assert left == []
    texts = [render.pairings_text(LONG, 1, rows),
             render.standings_text(LONG, lines, {line.entrant: LONG for line in lines})]
    assert [text for text in texts if english_left(text, [LONG])] == []
    for text in texts:
        assert all(render.cells(line) <= render.TEXT_WIDTH for line in text.split("\n")[1:-1])


def _standings() -> tuple[list[render.Standing], dict[int, str]]:
    lines = [render.Standing(1, 101, 9, 3, 0, 0, 0.5, 1.0, 0.5),
             render.Standing(2, 102, 6, 2, 1, 0, 0.5, 0.6, 0.5, dropped=True),
             render.Standing(2, 103, 6, 2, 1, 0, 0.5, 0.6, 0.5, note=DRAWN_AT_RANDOM)]
    return lines, {}


def test_a_brazilian_reads_the_tournament_in_portuguese() -> None:
    with speaking("pt_BR"):
        rows = [render.TableRow(1, ("Ana", "Bia"), "Semifinal 1"),
                render.TableRow(None, ("Caio", None))]
        text = render.pairings_text("Copa", 2, rows)
        assert "Pareamentos da rodada 2" in text and "folga" in text
        lines, _ = _standings()
        standings = render.standings_text("Copa", lines, {101: "Ana", 102: "Bia", 103: "Caio"})
        assert "Classificação" in standings and "V-D-E" in standings
        assert "Bia (desistiu)" in standings and "* Desempate: sorteado" in standings
        assert "100,0" in standings and "100.0" not in standings  # numbers as Brazil writes
        done = SimpleNamespace(done=True, is_bye=False, both_lose=False, drawn_games=1,
                               decided_by="organiser", in_play=False, places=(2, 1),
                               games=(1, 2))
        assert pairing_result(done, ["Ana", "Bia"]) == \
            "Bia vence 2-1 (1 empatado) (lançado pelo organizador)"
        assert ordinal(3) == "3º"
    with speaking("en"):
        assert pairing_result(done, ["Ana", "Bia"]) == \
            "Bia wins 2-1 (1 drawn) (entered by the organiser)"
