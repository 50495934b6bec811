"""The local table's help: what may be typed at the "Which game?" prompt and in a
game, and how a decision of several picks is answered.

How to answer a decision comes from its shape alone (:class:`~rules.core.Decision`'s
``pick``, ``least``, ``most`` and ``total``), never from the game: one place says,
for every game, how to pick several (commas between), how to pick none, how to
split an amount and how to put things in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from bot.i18n import say, tr
from bot.terminal.commands import commands_help
from bot.terminal_parts.screen import STYLES
from bot.terminal_parts.sitting import LocalCommand
from rules.core import AMOUNT_SEP, LIST_SEP, NOTHING, Decision, GameInfo
from rules.phrases import Words

COMMANDS = "legal board picture hand rules stats resign help quit"
"""The words of the commands every game has at the local table, in English (typed in
any language; a catalog may add its own, :func:`bot.terminal.typed.is_word`)."""
EXAMPLE_PICKS = 2
"""How many options an example of a pick of several names, at most."""


def help_text(info: GameInfo, commands: Sequence[LocalCommand] = (),
              decision: Decision | None = None) -> str:
    """What the person may type in this game: its notation, how to answer the
    ``decision`` when it takes several picks, every command here and the names of
    the game's own (their help is :func:`~bot.terminal.commands.commands_help`)."""
    typed = (say(info.notation_help) or tr("terminal.help.type_legal")).rstrip(". ")
    lines = [f"{typed}."]
    if (notes := game_notes(info)) is not None:
        lines.append(say(notes))
    if decision is not None and (how := pick_help(decision)) is not None:
        lines.append(how)
    lines.append(tr("terminal.help.also", commands=in_game_commands(info)))
    if commands:
        lines.append(tr("terminal.help.own", game=info.title,
                        words=", ".join(c.word for c in commands)))
    return "\n".join(lines)


def in_game_commands(info: GameInfo | None) -> str:
    """Every game's commands at this table; for ``info``, only those it has (the hand's
    picture in games that draw hands)."""
    group = (tr("terminal.help.legal_group") if info is None or info.option_group else "")
    hand = tr("terminal.help.hand_command") if info is None or draws_hands(info) else ""
    return tr("terminal.help.commands", group=group, hand=hand)


def game_notes(info: GameInfo) -> Words | None:
    """What the game's presenter adds to the help here (how its pieces are listed, say)."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.games import presenter_for

    return presenter_for(info.name).terminal_notes


def draws_hands(info: GameInfo) -> bool:
    """Whether the game's presenter draws a seat's hand (for ``picture hand``)."""
    # Imported here: the presenters bring discord.py, which the terminal needs only now.
    from bot.games import presenter_for
    from bot.games.presenter import GamePresenter

    return type(presenter_for(info.name)).hand_png is not GamePresenter.hand_png


def table_help(known: Sequence[GameInfo],
               own: Sequence[tuple[GameInfo, Sequence[LocalCommand]]]) -> RenderableType:
    """The help at the "Which game?" prompt: how to choose, every game's commands,
    and each game's own commands with how they are typed."""
    hands = [info.title for info in known if draws_hands(info)]
    lines: list[RenderableType] = [
        Text(tr("terminal.help.choosing", first=known[0].title), style=STYLES["hint"]),
        Text(tr("terminal.help.in_a_game", commands=in_game_commands(None)),
             style=STYLES["hint"])]
    if hands:
        lines.append(Text(tr("terminal.help.hands", games=", ".join(hands)),
                          style=STYLES["hint"]))
    for info, commands in own:
        lines.append(commands_help(info, commands))
    return Group(*lines)


# -- how to answer a decision -----------------------------------------------------------------
def pick_hint(decision: Decision) -> str | None:
    """A few words for the prompt on how to answer a decision of several picks, a
    split or an order (``None`` for a pick of one).

    >>> pick_hint(Decision(0, "block", "", ("4>2", "5>3"), pick="several", least=0, most=2))
    'up to 2, commas between, e.g. 4>2,5>3; Enter: none'
    """
    options, example = decision.options, _example(decision)
    if decision.pick == "several":
        least, most = decision.least, decision.most
        if least == 0:
            return (tr("terminal.hint.up_to", most=most, example=example) if most > 1
                    else tr("terminal.hint.one", example=example)) \
                + tr("terminal.hint.enter_none", nothing=NOTHING)
        if least == most:
            return tr("terminal.hint.pick_one", example=example) if least == 1 else \
                tr("terminal.hint.pick_exactly", least=least, example=example)
        return tr("terminal.hint.between", least=least, most=most, example=example)
    if decision.pick == "split":
        return tr("terminal.hint.split", sep=AMOUNT_SEP, total=decision.total, example=example)
    if decision.pick == "order":
        return tr("terminal.hint.order", all=len(options), example=example)
    return None


def pick_help(decision: Decision) -> str | None:
    """How to answer a decision of several picks, a split or an order, in a sentence
    (``None`` for a pick of one): how to pick several, and how to pick none when
    that is allowed.

    >>> print(pick_help(Decision(0, "attack", "", ("1", "18"), pick="several", least=1,
    ...                          most=2)))
    Pick 1 to 2: one (e.g. 1) or several with commas between (e.g. 1,18).
    """
    options, example = decision.options, _example(decision)
    first = options[0] if options else ""
    if decision.pick == "several":
        least, most = decision.least, decision.most
        if least == 0:
            if most > 1:
                return tr("terminal.how.up_to", most=most, first=first, example=example,
                          nothing=NOTHING)
            return tr("terminal.how.one_or_none", first=first, nothing=NOTHING)
        if least == most:
            return (tr("terminal.how.exactly_several", least=least, example=example)
                    if least > 1 else tr("terminal.how.exactly_one", least=least,
                                         example=example))
        if least == 1:
            return tr("terminal.how.one_to", least=least, most=most, first=first,
                      example=example)
        return tr("terminal.how.between", least=least, most=most, example=example)
    if decision.pick == "split":
        total = decision.total
        whole = f"{first}{AMOUNT_SEP}{total}"
        if example != whole:
            return tr("terminal.how.split_or", total=total, sep=AMOUNT_SEP, whole=whole,
                      example=example)
        return tr("terminal.how.split", total=total, sep=AMOUNT_SEP, whole=whole)
    if decision.pick == "order":
        return tr("terminal.how.order", all=len(options), example=example)
    return None


def prompt_text(decision: Decision, names: Sequence[str] = ()) -> str:
    """The move prompt: the decision's own words, then how to answer it when it takes
    more than one pick."""
    hint = pick_hint(decision)
    prompt = say(decision.prompt, names=names)
    return f"{prompt} ({hint}) > " if hint else f"{prompt} > "


def _example(decision: Decision) -> str:
    """A choice in the decision's notation, naming at most :data:`EXAMPLE_PICKS` options
    for a pick of several (its least when more), every one (shortened) for an order."""
    options = decision.options
    if not options:
        return ""
    if decision.pick == "split":
        total = decision.total
        if len(options) > 1 and total > 1:
            return (f"{options[0]}{AMOUNT_SEP}{total - 1}{LIST_SEP}"
                    f"{options[1]}{AMOUNT_SEP}1")
        return f"{options[0]}{AMOUNT_SEP}{total}"
    if decision.pick == "order":
        shown = LIST_SEP.join(options[:4])
        return shown + (f"{LIST_SEP}…" if len(options) > 4 else "")
    count = max(decision.least, min(EXAMPLE_PICKS, decision.most, len(options)), 1)
    return LIST_SEP.join(options[:count])
