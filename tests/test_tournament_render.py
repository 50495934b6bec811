"""Tournament pictures and text: pairings and standings that fit a phone (names of any
script, long names cut, byes, pods, dropped players, tie notes, pages), elimination
brackets (every match of a 64-player single and a 16-player double bracket, byes,
winners highlighted, the last rounds only beyond 64), the same bytes every time, and
code-block text no wider than a phone shows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import bot.pictures.tournament as tournament_render
from bot.pictures.common import MAX_SIDE, clean
from bot.pictures.tournament import (
    BOX_H,
    BRACKET_MAX_WIDTH,
    BYE,
    NAME_SIZE,
    PAGE_ROWS,
    PAIR_COLUMN_W,
    SLOT_H,
    STANDING_HEADS,
    TBD,
    TEXT_LINES,
    TEXT_WIDTH,
    WIDTH,
    WINNER_FILL,
    Bracket,
    BracketMatch,
    Slot,
    TableRow,
    bracket_layout,
    cells,
    champion_of,
    draw_bracket,
    draw_pairings,
    draw_standings,
    pairings_pages,
    pairings_text,
    percent,
    render_bracket,
    render_pairings,
    render_standings,
    standing_cells,
    standings_columns,
    standings_pages,
    standings_text,
    table_rows,
)
from rules.tournament.model import Entrant, Result, RoundPlan, Standing
from rules.tournament.standings import DRAWN_AT_RANDOM, swiss_standings
from tests.images import Drawn, count, direct_text_calls, drawn_text, opened, undrawable

BASES = ["Ada Lovelace", "Bo", "José Ærø", "🎲 Dice Queen 👑", "博士 王", "Мария",
         "Grace Brewster Murray Hopper, Rear Admiral", "محمد", "Zoë — the 2nd",
         "x" * 60, "👍🏽", "Nils`code`"]
"""Names of every kind: plain, short, accented, emoji, CJK, Cyrillic, long, Arabic,
dashes, one long word, emoji only, backticks."""


def player(k: int) -> str:
    """Entrant ``k``'s (1-based) name: a number first, so that a name cut short is still
    told apart, then one of :data:`BASES`."""
    return f"P{k} {BASES[k % len(BASES)]}"


def shows(calls: Sequence[Drawn], name: str) -> int:
    """How many drawn strings are ``name`` as the font draws it, whole or cut short with
    an ellipsis."""
    whole = clean(name)
    return sum(1 for c in calls if c.text == whole
               or (c.text.endswith("…") and len(c.text) > 3 and whole.startswith(c.text[:-1])))


# --- data to draw --------------------------------------------------------------------------


def seeding(size: int) -> list[int]:
    """Seeds top to bottom in a bracket of ``size`` places: 1 v 8, 4 v 5, 2 v 7, 3 v 6."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, n - seed)]
    return order


def _decide(a: Slot, b: Slot, decided: bool) -> int | None:
    """The winner of ``a`` v ``b``: whoever plays a bye, else (once ``decided``) the
    better seed."""
    if a.bye or b.bye:
        return 1 if a.bye else 0
    if not decided or a.name is None or b.name is None:
        return None
    return 0 if (a.seed or 0) < (b.seed or 0) else 1


def _match(round_no: int, index: int, a: Slot, b: Slot, decided: bool,
           side: str = "winners") -> BracketMatch:
    winner = _decide(a, b, decided)
    score = None
    if winner is not None and not (a.bye or b.bye):
        score = (2, 1) if winner == 0 else (0, 2)
    return BracketMatch(round_no, index, (a, b), winner, side,  # type: ignore[arg-type]
                        f"R{round_no} match {index + 1}", score)


def _advance(match: BracketMatch) -> Slot:
    return TBD if match.winner is None else match.slots[match.winner]


def _loser(match: BracketMatch) -> Slot:
    if match.winner is None:
        return TBD
    other = match.slots[1 - match.winner]
    return TBD if other.bye else other


def winners_rounds(n: int, played: int | None) -> list[list[BracketMatch]]:
    """A single elimination bracket of ``n`` entrants seeded 1..n, byes to the top
    seeds, the first ``played`` rounds decided (all when ``None``) by the better seed."""
    size = 1 << max(1, (n - 1).bit_length())
    order = seeding(size)
    slots = [Slot(player(s), s) if s <= n else BYE for s in order]
    rounds: list[list[BracketMatch]] = []
    number = 1
    while len(slots) > 1:
        decided = played is None or number <= played
        rounds.append([_match(number, i, slots[2 * i], slots[2 * i + 1], decided)
                       for i in range(len(slots) // 2)])
        slots = [_advance(m) for m in rounds[-1]]
        number += 1
    return rounds


def single_bracket(n: int, played: int | None = None) -> Bracket:
    return Bracket(tuple(m for r in winners_rounds(n, played) for m in r))


def double_bracket(n: int, played: int | None = None, reset: bool = False) -> Bracket:
    """A double elimination bracket of ``n`` (a power of two) entrants: the winners'
    bracket as :func:`single_bracket`; the losers' bracket's odd rounds pair the round
    before's winners (round 1: the winners' first round's losers), its even rounds meet
    them with the losers of the next winners' round; the grand final (``reset``: won by
    the losers' champion, so a reset follows, won by the winners' champion)."""
    wb = winners_rounds(n, played)
    limit = None if played is None else 2 * played - 1
    lb: list[list[BracketMatch]] = []
    comers = [_loser(m) for m in wb[0]]
    number = 1
    while True:
        decided = limit is None or number <= limit
        if number == 1 or number % 2 == 1:
            pairs = [(comers[2 * i], comers[2 * i + 1]) for i in range(len(comers) // 2)]
        else:
            drop = [_loser(m) for m in wb[number // 2]]
            pairs = list(zip(comers, drop, strict=True))
        if not pairs:
            break
        lb.append([_match(number, i, a, b, decided, "losers") for i, (a, b) in enumerate(pairs)])
        comers = [_advance(m) for m in lb[-1]]
        if len(comers) == 1 and number % 2 == 0:
            break
        number += 1
    top, bottom = _advance(wb[-1][0]), comers[0]
    final = BracketMatch(1, 0, (top, bottom), None, "final", "Grand final")
    matches = [m for r in wb + lb for m in r]
    if top.name is not None and bottom.name is not None:
        final = BracketMatch(1, 0, (top, bottom), 1 if reset else 0, "final", "Grand final")
    matches.append(final)
    if reset:
        matches.append(BracketMatch(2, 0, (bottom, top), 1, "final", "Reset"))
    else:
        matches.append(BracketMatch(2, 0, (TBD, TBD), None, "final", "Reset"))
    return Bracket(tuple(matches))


def some_rows(n: int, pods: bool = False) -> list[TableRow]:
    """``n`` tables (pods of 3 to 6 when ``pods``), every third labelled, and a bye."""
    rows, k = [], 1
    for table in range(1, n + 1):
        size = 3 + table % 4 if pods else 2
        rows.append(TableRow(table, tuple(player(k + j) for j in range(size)),
                             f"Pod {table}" if pods else "Semi-final 1" if table % 3 == 0
                             else ""))
        k += size
    rows.append(TableRow(None, (player(k), None)))
    return rows


def some_standings(n: int) -> tuple[list[Standing], dict[int, str]]:
    """``n`` players' standings after some rounds: figures of every width (100.0 and 33.0,
    a record with two-digit counts), every seventh dropped, two tie notes."""
    lines = []
    for k in range(n):
        wins, losses, draws = max(0, 10 - k % 11), k % 11, k % 3
        note = "drawn at random" if k % 9 == 4 else "seeded draw, round 2" if k == 6 else ""
        lines.append(Standing(k + 1, 100 + k, 3 * wins + draws, wins, losses, draws,
                              omw=0.33 + (k % 7) / 10, gw=1.0 if k == 0 else 2 / 3,
                              ogw=0.5 + (k % 5) / 11, mw=0.5, dropped=k % 7 == 3, note=note))
    return lines, {100 + k: player(k + 1) for k in range(n) if k != 5}  # one name missing


# --- pairings ------------------------------------------------------------------------------


def test_pairings_fit_a_phone_and_show_every_player_table_label_and_bye() -> None:
    rows = some_rows(20)
    image = opened(render_pairings("Spring Open 🎲", 3, rows))
    assert image.width == WIDTH <= 520 and image.height <= MAX_SIDE
    with drawn_text() as calls:
        drawn = draw_pairings("Spring Open 🎲", 3, rows)
    assert drawn.size == image.size
    texts = [c.text for c in calls]
    assert texts[:2] == ["Spring Open ?", "Round 3 pairings"]
    for row in rows:
        for name in row.players:
            if name is not None:
                assert shows(calls, name) == 1, name
    assert [t for t in texts if t.isdigit()] == [str(r.table) for r in rows if r.table]
    assert texts.count("bye") == 1 and texts.count("vs") == 20
    assert texts.count("Semi-final 1") == 6
    names = [c for c in calls if c.size == NAME_SIZE and not c.text.isdigit()]
    assert all(c.length <= PAIR_COLUMN_W for c in names)
    assert all(c.xy[0] + c.length <= WIDTH for c in calls if c.anchor == "la")
    assert any(c.text.endswith("…") for c in names)  # the long names were cut
    assert not undrawable(calls)


def test_pods_list_three_to_six_names_per_table() -> None:
    rows = some_rows(8, pods=True)
    assert {len(r.players) for r in rows[:-1]} == {3, 4, 5, 6}
    with drawn_text() as calls:
        draw_pairings("Pods", 2, rows)
    texts = [c.text for c in calls]
    assert "Players" in texts and "Opponent" not in texts and "vs" not in texts
    for row in rows:
        for name in row.players:
            if name is not None:
                assert shows(calls, name) == 1, name
    assert [t for t in texts if t.startswith("Pod ")] == [f"Pod {k}" for k in range(1, 9)]
    assert not undrawable(calls)


def test_a_big_round_is_drawn_a_page_at_a_time() -> None:
    rows = some_rows(250)
    pages = pairings_pages(rows)
    assert pages == 8
    seen: list[str] = []
    for page in range(1, pages + 1):
        with drawn_text() as calls:
            image = draw_pairings("Big", 9, rows, page)
        assert image.width == WIDTH and image.height <= MAX_SIDE
        assert calls[1].text == f"Round 9 pairings · page {page} of {pages}"
        numbers = [c.text for c in calls if c.text.isdigit()]
        assert len(numbers) <= PAGE_ROWS
        seen += numbers
    assert seen == [str(k) for k in range(1, 251)]
    for page in (0, pages + 1):
        with pytest.raises(ValueError, match="page"):
            render_pairings("Big", 9, rows, page)
    tall = some_rows(60, pods=True)  # labels and three lines a pod: pages by height
    for page in range(1, pairings_pages(tall) + 1):
        assert draw_pairings("Pods", 1, tall, page).height <= MAX_SIDE


def test_no_pairings_and_rows_from_a_round_plan() -> None:
    assert pairings_pages([]) == 1
    with drawn_text() as calls:
        draw_pairings("Empty", 1, [])
    assert "No pairings." in [c.text for c in calls]
    plan = RoundPlan(4, ((5,), (1, 2), (3, 4, 6)), ("Bye", "Final", "Pod 1"))
    rows = table_rows(plan, {1: "Ada", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed"})
    assert rows == [TableRow(1, ("Ada", "Bo"), "Final"),
                    TableRow(2, ("Cy", "Di", "Player 6"), "Pod 1"),
                    TableRow(None, ("Ed", None), "Bye")]


# --- standings -----------------------------------------------------------------------------


def test_standings_show_every_figure_and_every_column_fits() -> None:
    lines, names = some_standings(20)
    image = opened(render_standings("Spring Open — after round 5", lines, names))
    assert image.width == WIDTH and image.height <= MAX_SIDE
    with drawn_text() as calls:
        draw_standings("Spring Open — after round 5", lines, names)
    texts = [c.text for c in calls]
    assert texts[0] == "Spring Open - after round 5"
    assert [t for t in texts if t in STANDING_HEADS] == list(STANDING_HEADS)
    marks = {"drawn at random": "*", "seeded draw, round 2": "**"}
    columns = standings_columns(lines)
    figures = [c for c in calls if c.anchor == "ra"]
    for line in lines:
        expected = [cell for k, cell in enumerate(standing_cells(line, marks)) if k != 1]
        assert all(cell in texts for cell in expected), expected
        assert shows(calls, names.get(line.entrant, f"Player {line.entrant}")) == 1
    assert "100.0" in texts and "33.0" in texts and "10-0-0" in texts
    assert "Player 105" in texts  # the missing name
    # Every column's text inside its column: figures right-aligned, names from the left.
    for call in figures:
        k = next(k for k in range(len(STANDING_HEADS)) if k != 1
                 and abs(columns.lefts[k] + columns.widths[k] - 10 - call.xy[0]) < 0.5)
        assert call.xy[0] - call.length >= columns.lefts[k], call
    name_calls = [c for c in calls if c.anchor == "la" and c.xy[0] == columns.lefts[1]
                  and c.text != "Player"]
    assert len(name_calls) == len(lines)
    assert all(c.length <= columns.widths[1] - 10 for c in name_calls)
    assert columns.lefts[-1] + columns.widths[-1] <= WIDTH - 12 + 0.5
    assert texts.count("dropped") == sum(line.dropped for line in lines) == 3
    notes = [t for t in texts if t.startswith("*")]
    assert notes == ["* Tie with the line above: drawn at random (ranks 5, 14)",
                     "** Tie with the line above: seeded draw, round 2 (rank 7)"]
    assert "5*" in texts and "7**" in texts
    assert not undrawable(calls)


def test_the_swiss_standings_are_drawn_as_computed() -> None:
    # Eight players, three rounds, one bye and one drop: every line as the rules rank it.
    entrants = [Entrant(k, k, dropped_after=2 if k == 8 else None) for k in range(1, 9)]
    results = [Result(1, (1, 2), (1, 2), (2, 0)), Result(1, (3, 4), (2, 1), (1, 2)),
               Result(1, (5, 6), (1, 1), (1, 1), drawn_games=1),
               Result(1, (7, 8), (1, 2), (2, 1)),
               Result(2, (1, 4), (1, 2), (2, 1)), Result(2, (5, 7), (2, 1), (0, 2)),
               Result(2, (2, 3), (1, 2), (2, 0)), Result(2, (6, 8), (2, 1), (1, 2)),
               Result(3, (1, 7), (1, 2), (2, 1)), Result(3, (4, 2), (2, 1), (0, 2)),
               Result(3, (3, 6), (1, 2), (2, 0)), Result(3, (5,), (1,), (2,))]
    lines = swiss_standings(entrants, results, seed=4)
    names = {k: player(k) for k in range(1, 9)}
    with drawn_text() as calls:
        draw_standings("Swiss", lines, names)
    texts = [c.text for c in calls]
    marks = {DRAWN_AT_RANDOM: "*"}
    for line in lines:
        for k, cell in enumerate(standing_cells(line, marks)):
            assert k == 1 or cell in texts, (line, cell)
        assert shows(calls, names[line.entrant]) == 1
    assert texts.count("dropped") == 1
    assert "33.0" in texts  # the floor, 0.33
    block = standings_text("Swiss", lines, names)
    assert all(cells(line) <= TEXT_WIDTH for line in lines_of(block))


def test_percentages_have_one_decimal() -> None:
    assert [percent(x) for x in (2 / 3, 0.33, 1.0, 0.6, 0.4999)] == [
        "66.7", "33.0", "100.0", "60.0", "50.0"]


def test_five_hundred_players_take_pages_of_thirty_two() -> None:
    lines, names = some_standings(500)
    pages = standings_pages(lines)
    assert pages == 16
    ranks: list[str] = []
    for page in range(1, pages + 1):
        with drawn_text() as calls:
            image = draw_standings("Huge", lines, names, page)
        assert image.width == WIDTH and image.height <= MAX_SIDE
        columns = standings_columns(lines)
        shown = [c.text.rstrip("*") for c in calls
                 if c.anchor == "ra" and c.xy[0] < columns.lefts[1] and c.text != "#"]
        assert len(shown) <= PAGE_ROWS
        ranks += shown
    assert ranks == [str(k) for k in range(1, 501)]
    with pytest.raises(ValueError, match="page"):
        render_standings("Huge", lines, names, 17)
    with drawn_text() as calls:
        draw_standings("Nobody", [], {})
    assert "No players yet." in [c.text for c in calls]


# --- brackets ------------------------------------------------------------------------------


def check_layout(bracket: Bracket) -> None:
    """Every match of ``bracket`` has a box inside the picture, no two overlap, and
    every line joins two boxes."""
    layout = bracket_layout(bracket)
    assert set(layout.boxes) == {m.key for m in bracket.matches}
    boxes = [*layout.boxes.values(), layout.champion]
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= layout.width and 0 <= y0 < y1 <= layout.height
        assert y1 - y0 == BOX_H
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            p, q = boxes[a], boxes[b]
            assert p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1], (p, q)
    for start, end in layout.links:
        assert layout.boxes[start][2] < layout.boxes[end][0]


def names_in(bracket: Bracket) -> dict[str, int]:
    """How many times each player's name is in a slot of ``bracket``."""
    found: dict[str, int] = {}
    for match in bracket.matches:
        for slot in match.slots:
            if slot.name is not None:
                found[slot.name] = found.get(slot.name, 0) + 1
    return found


def test_a_64_player_single_elimination_bracket_draws_every_match() -> None:
    bracket = single_bracket(64)
    assert len(bracket.matches) == 63
    check_layout(bracket)
    image = opened(render_bracket("Big Open", bracket))
    assert image.width <= BRACKET_MAX_WIDTH and image.height <= MAX_SIDE
    assert image.size == draw_bracket("Big Open", bracket).size  # never scaled down
    with drawn_text() as calls:
        draw_bracket("Big Open", bracket)
    champion = champion_of(bracket)
    assert champion == player(1)
    for name, times in names_in(bracket).items():
        # Each slot's name once, and the champion once more in the champion's box.
        assert shows(calls, name) == times + (name == champion), name
    texts = [c.text for c in calls]
    assert texts[1] == "Single elimination · 64 entrants"
    assert [t for t in texts if t in ("Round 1", "Round 2", "Round 3", "Quarter-finals",
                                       "Semi-finals", "Final", "Champion")] == [
        "Round 1", "Round 2", "Round 3", "Quarter-finals", "Semi-finals", "Final", "Champion"]
    assert texts.count("2") >= 63  # every match's score ("2" for its winner)
    assert not undrawable(calls)
    assert len(bracket_layout(bracket).links) == 62


def test_a_16_player_double_elimination_bracket_draws_every_match() -> None:
    bracket = double_bracket(16, reset=True)
    sides = [m.side for m in bracket.matches]
    assert (sides.count("winners"), sides.count("losers"), sides.count("final")) == (15, 14, 2)
    check_layout(bracket)
    layout = bracket_layout(bracket)
    wb = [box for key, box in layout.boxes.items() if key[0] == "winners"]
    lb = [box for key, box in layout.boxes.items() if key[0] == "losers"]
    assert max(b[3] for b in wb) < min(b[1] for b in lb)  # winners above, losers below
    finals = [layout.boxes[("final", 1, 0)], layout.boxes[("final", 2, 0)], layout.champion]
    assert all(b[0] > max(x[2] for x in wb + lb) for b in finals)  # finals on the right
    assert [b[0] for b in finals] == sorted(b[0] for b in finals)
    image = opened(render_bracket("Double", bracket))
    assert image.width <= BRACKET_MAX_WIDTH and image.height <= MAX_SIDE
    with drawn_text() as calls:
        draw_bracket("Double", bracket)
    champion = champion_of(bracket)
    assert champion == player(1)
    for name, times in names_in(bracket).items():
        assert shows(calls, name) == times + (name == champion), name
    texts = [c.text for c in calls]
    for words in ("Winners' bracket", "Losers' bracket", "Winners' final", "Losers' final",
                  "Grand final", "Reset", "Champion", "Double elimination · 16 entrants"):
        assert words in texts, words
    assert not undrawable(calls)


def test_a_64_player_double_elimination_bracket_stays_within_its_width() -> None:
    bracket = double_bracket(64)
    check_layout(bracket)
    layout = bracket_layout(bracket)
    assert layout.width <= BRACKET_MAX_WIDTH and layout.hidden == {"winners": 0, "losers": 0}
    assert champion_of(bracket) == player(1)  # won the grand final: the reset is not played


def test_byes_are_shown_and_undecided_slots_left_empty() -> None:
    bracket = single_bracket(12, played=1)
    with drawn_text() as calls:
        draw_bracket("Twelve", bracket)
    texts = [c.text for c in calls]
    assert texts.count("bye") == 4
    assert texts[1] == "Single elimination · 12 entrants"
    assert champion_of(bracket) is None
    for name, times in names_in(bracket).items():
        assert shows(calls, name) == times, name
    check_layout(bracket)


def test_a_winner_is_highlighted_and_the_champion_framed_in_gold() -> None:
    bracket = single_bracket(4)
    image = draw_bracket("Four", bracket)
    layout = bracket_layout(bracket)
    for match in bracket.matches:
        x0, y0, x1, _ = layout.boxes[match.key]
        assert match.winner is not None
        for k in (0, 1):
            slot = image.crop((x0 + 2, y0 + k * SLOT_H + 2, x1 - 2, y0 + (k + 1) * SLOT_H - 2))
            assert (count(slot, WINNER_FILL) > 100) == (k == match.winner)
    undecided = draw_bracket("Four", single_bracket(4, played=0))
    assert count(undecided, WINNER_FILL) == 0


def test_beyond_64_entrants_only_the_last_rounds_are_drawn_and_said_so() -> None:
    bracket = single_bracket(500, played=4)
    layout = bracket_layout(bracket)
    assert layout.hidden == {"winners": 3}
    assert {key[1] for key in layout.boxes} == {4, 5, 6, 7, 8, 9}
    assert len([k for k in layout.boxes if k[1] == 4]) == 32
    with drawn_text() as calls:
        image = draw_bracket("Huge", bracket)
    assert calls[1].text == "Single elimination · 500 entrants · not shown: rounds 1-3"
    assert image.width <= BRACKET_MAX_WIDTH and image.height <= MAX_SIDE
    big_double = double_bracket(128)
    layout = bracket_layout(big_double)
    assert layout.hidden == {"winners": 1, "losers": 2}
    assert layout.width <= BRACKET_MAX_WIDTH
    with drawn_text() as calls:
        draw_bracket("Huge", big_double)
    assert calls[1].text == ("Double elimination · 128 entrants · not shown: winners' round 1"
                             " and losers' rounds 1-2")


def test_small_brackets_and_bad_ones() -> None:
    two = single_bracket(2)
    assert len(two.matches) == 1
    check_layout(two)
    assert opened(render_bracket("Two", two)).width < 600
    with pytest.raises(ValueError, match="winners"):
        bracket_layout(Bracket(()))
    match = two.matches[0]
    with pytest.raises(ValueError, match="two matches"):
        bracket_layout(Bracket((match, match)))
    with pytest.raises(ValueError, match="winner"):
        bracket_layout(Bracket((BracketMatch(1, 0, (TBD, TBD), winner=2),)))


# --- the same picture every time, nothing undrawable, text through the helper --------------


def test_every_picture_is_the_same_every_time() -> None:
    rows, (lines, names) = some_rows(10), some_standings(10)
    makers = [lambda: render_pairings("A", 1, rows),
              lambda: render_standings("A", lines, names),
              lambda: render_bracket("A", single_bracket(16)),
              lambda: render_bracket("A", double_bracket(8, played=2))]
    for make in makers:
        assert make() == make()
    assert render_bracket("A", single_bracket(16)) != render_bracket("A", single_bracket(16, 2))


def test_no_picture_draws_a_glyph_the_font_lacks() -> None:
    rows, (lines, names) = some_rows(12, pods=True), some_standings(12)
    with drawn_text() as calls:
        draw_pairings("博 🎲 — Open", 1, rows)
        draw_standings("博 🎲 — Open", lines, names)
        draw_bracket("博 🎲 — Open", double_bracket(8, played=2))
    assert calls and not undrawable(calls)
    assert "? ? - Open" in [c.text for c in calls]


def test_every_text_the_pictures_draw_goes_through_the_helper() -> None:
    assert direct_text_calls(Path(tournament_render.__file__)) == []


# --- text ----------------------------------------------------------------------------------


def lines_of(block: str) -> list[str]:
    """A code block's lines, fences checked and left out."""
    lines = block.split("\n")
    assert lines[0] == "```" and lines[-1] == "```"
    return lines[1:-1]


def test_pairings_text_fits_a_phone() -> None:
    rows = some_rows(90)
    pages = pairings_pages(rows, text=True)
    assert pages == 4  # 121 lines: 30 tables are labelled
    seen = []
    for page in range(1, pages + 1):
        block = pairings_text("Spring Open, the big one with a long title", 3, rows, page)
        lines = lines_of(block)
        assert len(block) <= 2000 and len(lines) <= TEXT_LINES
        assert all(cells(line) <= TEXT_WIDTH and "`" not in line for line in lines), lines
        assert lines[1] == f"Round 3 pairings (page {page} of {pages})"
        seen += [line.split()[0] for line in lines[3:] if line[:3].strip()]
    assert seen == [str(k) for k in range(1, 91)] + ["-"]  # the bye last
    text = "\n".join(pairings_text("A", 1, rows, p) for p in range(1, pages + 1))
    assert text.count("bye") == 1 and text.count("Semi-final 1") == 30
    for row in rows:
        for name in row.players:
            if name is not None:  # each name, or its start, in the text
                start = name.replace("`", "'")[:8]
                assert start in text, name


def test_pods_in_text() -> None:
    rows = some_rows(40, pods=True)
    for page in range(1, pairings_pages(rows, text=True) + 1):
        block = pairings_text("Pods", 2, rows, page)
        lines = lines_of(block)
        assert len(block) <= 2000 and len(lines) <= TEXT_LINES
        assert all(cells(line) <= TEXT_WIDTH for line in lines)
        assert lines[2] == "  #  Players"


def test_standings_text_fits_a_phone() -> None:
    lines, names = some_standings(100)
    pages = standings_pages(lines, text=True)
    assert pages == 6  # 19 players a page: two lines each, and the heading's six
    body = []
    for page in range(1, pages + 1):
        block = standings_text("Spring Open — after round 5", lines, names, page)
        shown = lines_of(block)
        assert len(block) <= 2000 and len(shown) <= TEXT_LINES
        assert all(cells(line) <= TEXT_WIDTH for line in shown), shown
        body += shown[4:]
    players = [line for line in body if line[:3].strip().isdigit()]
    assert [int(line[:3]) for line in players] == list(range(1, 101))
    for line, text in zip(lines, players, strict=True):
        assert text.endswith(f"{line.points:>4}")
        assert ("(dropped)" in text) == line.dropped
        assert ("*" in text) == bool(line.note)
    figures = [line for line in body if line.startswith("    ") and "-" in line[:12]]
    for line, text in zip(lines, figures, strict=True):
        assert text.split() == [line.record, percent(line.omw), percent(line.gw),
                                percent(line.ogw)]
    assert "* Tie broken: drawn at random" in body


def test_wide_letters_count_double_in_the_text() -> None:
    names = {1: "博士" * 30, 2: "🎲" * 30, 3: "e\u0301" * 50, 4: "a`b\nc"}
    lines = [Standing(k, k, 3, 1, 0, 0, 0.5, 0.5, 0.5) for k in range(1, 5)]
    shown = lines_of(standings_text("博士" * 40, lines, names))
    assert all(cells(line) <= TEXT_WIDTH for line in shown), shown
    assert any("博士" in line for line in shown) and any("a'b c" in line for line in shown)
    rows = [TableRow(1, (names[1], names[2])), TableRow(2, (names[3], names[4]), "博" * 50)]
    assert all(cells(line) <= TEXT_WIDTH for line in lines_of(pairings_text("T", 1, rows)))


def test_text_pages_that_do_not_exist_are_refused() -> None:
    with pytest.raises(ValueError, match="page"):
        pairings_text("A", 1, some_rows(3), 2)
    with pytest.raises(ValueError, match="page"):
        standings_text("A", [], {}, 0)
    assert "No players yet." in standings_text("A", [], {})
    assert "No pairings." in pairings_text("A", 1, [])
