"""What the local table says: the table in words or tables, the options of a
decision, a game in a line, the result and the person's record (its help is
:mod:`bot.terminal.help`; a game's options, :mod:`bot.terminal.options`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from bot.i18n import Phrase, number, say, tr, trn
from bot.i18n.options import option_value
from bot.matches.levels import level_word, seat_named
from bot.matches.live import LiveMatch
from bot.matches.results import place_label, reason_said, verdict
from bot.stats.service import StatsService
from bot.terminal.help import pick_help
from bot.terminal_parts.screen import STYLES, titled
from rules.core import Decision
from rules.errors import shown
from rules.phrases import Words
from rules.registry import games
from storage import Store

LOCAL_USER = 1
"""The person at the local table (Discord user ids are far larger)."""
LEGAL_EXPLAINED = 40
"""Up to this many options, `legal` explains each; beyond, it groups or lists them."""


def text_view(match: LiveMatch, seat: int | None) -> str:
    """The game as text for one seat (or the table, for ``None``)."""
    assert match.state is not None
    view = match.state.observe(seat)
    if match.info.text is not None:
        return say(match.info.text(view, list(match.names)), names=match.names)
    return str(view)


def table_view(match: LiveMatch, seat: int | None) -> RenderableType:
    """The game for one seat (or the table, for ``None``): its presenter's rich view
    when it has one, else its text. Built from the seat's observation only."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.games import presenter_for

    if match.state is not None:
        view = presenter_for(match.info.name).terminal(match.state.observe(seat),
                                                       list(match.names))
        if view is not None:
            return view
    return text_view(match, seat)


def legal_text(match: LiveMatch, seat: int, group: str | None = None) -> RenderableType:
    """The seat's options: each explained when there are few; grouped (a tile's
    placements, say) when the game groups them; else listed. With ``group``,
    only that group's options, explained."""
    assert match.state is not None
    decision = match.state.decision_for(seat)
    if decision is None:
        return tr("terminal.legal.nothing")
    options = decision.options
    grouping = match.info.option_group
    if group is not None:
        if grouping is None:
            return tr("terminal.legal.no_groups", game=match.info.title)
        options = tuple(o for o in options if grouping(decision, o) == group)
        if not options:
            groups = sorted({g for o in decision.options
                             if (g := grouping(decision, o)) is not None}, key=_natural)
            return tr("terminal.legal.no_such_group", group=shown(group),
                      groups=", ".join(groups) or tr("terminal.legal.no_group_names"))
    how = pick_help(decision)
    prompt = say(decision.prompt, names=match.names)
    describe = match.info.option_text
    if describe is not None and len(options) <= LEGAL_EXPLAINED:
        observation = match.state.observe(seat)
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        table.add_column("option", no_wrap=True, style="bold")
        table.add_column("meaning")
        for option in options:
            meaning = describe(observation, decision, option, match.names)
            meaning = say(meaning, names=match.names)
            table.add_row(Text(option), Text("" if meaning == option else meaning))
        if how is None:
            return titled(prompt, table)
        return Group(Text(prompt, style=STYLES["heading"]), Text(how),
                     Padding(table, (0, 0, 0, 2)))
    if grouping is not None and group is None:
        grouped = _grouped(prompt, decision, options, grouping, how)
        if grouped is not None:
            return grouped
    # How to pick several comes before the list, which is the last line.
    return (prompt + (f"\n{how}\n" if how else " ")
            + tr("terminal.legal.listed", number=len(options), options=", ".join(options)))



def _natural(key: str) -> tuple[int, int | str]:
    """Number-like group names in numeric order, then the rest."""
    return (0, int(key)) if key.isascii() and key.isdigit() else (1, key)


def _grouped(prompt: str, decision: Decision, options: Sequence[str],
             grouping: Callable[[Decision, str], str | None], how: str | None = None
             ) -> str | None:
    """``17: C4, C4/90, D5`` — one line per group, each option without its group."""
    groups: dict[str, list[str]] = {}
    loose: list[str] = []
    for option in options:
        key = grouping(decision, option)
        if key is None:
            loose.append(option)
        else:
            groups.setdefault(key, []).append(option)
    if not groups:
        return None
    lines = [trn("terminal.legal.grouped", len(options), prompt=prompt,
                 group=next(iter(groups)))]
    if how is not None:
        lines.insert(1, how)
    for key, members in groups.items():
        lines.append(f"  {key}: " + ", ".join(_rest(key, o) for o in members))
    if loose:
        lines.append("  " + tr("terminal.legal.also", options=", ".join(loose)))
    lines.append(tr("terminal.legal.type_whole", example=next(iter(groups.values()))[0]))
    return "\n".join(lines)


def _rest(key: str, option: str) -> str:
    """An option without its group's name and the mark after it (``17@C4`` → ``C4``)."""
    if option.startswith(key) and len(option) > len(key) + 1 and not option[len(key)].isalnum():
        return option[len(key) + 1:]
    return option


T = TypeVar("T")


def numbered(answer: str, items: Sequence[T]) -> T | None:
    """The item a typed list number (from 1, ASCII digits) names, if any.

    >>> numbered("2", ["a", "b"]), numbered("٢", ["a", "b"]), numbered("3", ["a", "b"])
    ('b', None, None)
    """
    if answer.isascii() and answer.isdigit() and len(answer) <= 3 \
            and 1 <= int(answer) <= len(items):
        return items[int(answer) - 1]
    return None


def result_block(match: LiveMatch) -> RenderableType | None:
    """The verdict and the places, ties said as ties (``=2nd``)."""
    assert match.state is not None
    outcome = match.state.outcome()
    if outcome is None:
        return None
    places = outcome.places
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("place", no_wrap=True)
    table.add_column("player")
    if outcome.scores is not None:
        table.add_column("score", justify="right")
    for seat in sorted(range(len(places)), key=lambda s: places[s]):
        row = match.seats[seat]
        who = (tr("terminal.result.you", name=seat_named(row))
               if row.user_id == LOCAL_USER and not row.is_bot else seat_named(row))
        cells = [place_label(places[seat], places), who]
        if outcome.scores is not None:
            cells.append(number(outcome.scores[seat], None))
        table.add_row(*(Text(cell) for cell in cells))
    said = verdict(match.names, places, match.computer_seats)
    return titled(tr("terminal.result.title", verdict=said,
                     why=reason_said(outcome.reason, match.names)), table, "verdict")


async def stats_text(store: Store, user_id: int) -> RenderableType:
    """The person's record at the local table, game by game."""
    reports = await StatsService(store).reports(None, user_id)
    if not reports:
        return tr("terminal.stats.none")
    known = games()
    table = Table(box=None, padding=(0, 2, 0, 0))
    table.add_column(tr("terminal.stats.game"), justify="left")
    for column in (tr("terminal.stats.played"), tr("terminal.stats.won"),
                   tr("terminal.stats.lost"), tr("terminal.stats.drawn"),
                   tr("terminal.stats.win_rate"), tr("terminal.stats.streak"),
                   tr("terminal.stats.best")):
        table.add_column(column, justify="right")
    for report in reports:
        r = report.record
        title = known[r.game].title if r.game in known else r.game
        table.add_row(title, *(number(n, None) for n in (r.played, r.won, r.lost, r.drawn)),
                      tr("terminal.stats.percent", rate=number(r.win_rate * 100, None, digits=0)),
                      number(r.streak, None), number(r.best_streak, None))
    return titled(tr("terminal.stats.title"), table)


def summary(match: LiveMatch, progress: bool = True) -> str:
    """A game in a line: ``<title>, 2 players, board 8×8, stoppers 0, hard computer —
    12 moves in, your turn (match #5)``; without ``progress``, only its game, players,
    options and computer level."""
    said = trn("terminal.summary.game", len(match.seats), game=match.info.title,
               options=options_text(match), level=level_word(match.row.computer_level))
    if not progress:
        return said
    moves = (trn("terminal.summary.moves", match.next_seq) if match.next_seq
             else tr("terminal.summary.no_move"))
    turn = turn_text(match)
    if turn:
        return tr("terminal.summary.progress_turn", game=said, moves=moves, turn=turn,
                  match_id=match.id)
    return tr("terminal.summary.progress", game=said, moves=moves, match_id=match.id)


def options_text(match: LiveMatch) -> str:
    """The options chosen otherwise than by default, as a lobby shows them
    (``board 8×8, stoppers 0``), or ``the usual options``."""
    options = match.info.options.parse(match.row.options)
    chosen = []
    for name, value in options.changed().items():
        spec = options.spec(name)
        shown_value = option_value(match.info.name, spec, value) if spec is not None else value
        chosen.append(f"{name.replace('_', ' ')} {shown_value}")
    return ", ".join(chosen) or tr("terminal.summary.usual_options")


def turn_text(match: LiveMatch) -> str:
    """Who is to play: ``your turn``, ``Croupier Bot to play`` (empty when nobody)."""
    if match.state is None:
        return ""
    pending = [d.seat for d in match.state.pending()]
    mine = match.seat_of(LOCAL_USER)
    if mine is not None and mine.seat in pending:
        return tr("terminal.summary.your_turn")
    waiting = [match.names[seat] for seat in pending]
    return tr("terminal.summary.to_play", names=", ".join(waiting)) if waiting else ""


def rules_words(written: Words | Sequence[Words]) -> str:
    """A game's rules (``/rules``) as Markdown text in the locale spoken: a text, a
    phrase, or a phrase for each paragraph."""
    if isinstance(written, str | Phrase):
        return say(written)
    return "\n\n".join(say(paragraph) for paragraph in written)


