"""A game's options at the local table: typed as ``name=value`` words, read by the
game's own declaration, listed from it, with examples."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from bot.i18n import Text, say, tr
from bot.i18n.options import choice_label, labeller, option_description
from bot.terminal_parts.screen import titled
from rules.core import GameInfo
from rules.errors import BadOptions, shown
from rules.options import GameOptions, OptionSpec


def options_help(info: GameInfo) -> RenderableType:
    """Every option of the game, from its declaration."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("what")
    for spec in info.options.specs():
        line = tr("terminal.options.line", description=option_description(
            info.name, spec.name, spec.description), choices=every_choice(info, spec),
            default=say(spec.label_words(spec.default, labeller(info.name))))
        table.add_row(spec.name, line)
    return titled(tr("terminal.options.heading", game=info.title), table)


def every_choice(info: GameInfo, spec: OptionSpec) -> str:
    """What may be typed for ``spec``, in the locale spoken: every choice as typed, with
    its label where that differs (``classic or space (Space deck)``); yes or no; a
    range of whole numbers."""
    if spec.kind == "yes/no":
        return tr("terminal.options.yes_no")
    if spec.kind != "choice":
        return say(spec.allowed_words())
    typed = []
    for choice in spec.choices:
        label = choice_label(info.name, spec.name, choice, spec.label(choice))
        typed.append(str(choice) + (f" ({label})" if label != str(choice) else ""))
    if len(typed) == 1:
        return typed[0]
    return tr("terminal.options.choices", choices=", ".join(typed[:-1]), last=typed[-1])


def options_example(options: type[GameOptions]) -> str:
    """Two options set otherwise than by default, to typical values, as typed:
    ``deck=space objective=most`` (options with a single choice are left out)."""
    parts = [f"{spec.name}={value}" for spec in options.specs()
             if (value := options_example_value(spec, options)) is not None]
    return " ".join(parts[:2])


def read_options(info: GameInfo, line: str) -> GameOptions:
    """Options typed as ``name=value`` words (``hand-cap=50 deck=space``), read by the
    game's declaration; :class:`BadOptions` names what is wrong."""
    given: dict[str, str] = {}
    for word in line.split():
        name, equals, value = word.partition("=")
        if not equals:
            spec = info.options.spec(name)
            if spec is None:
                example = options_example(info.options) or "name=value"
                raise BadOptions(Text("terminal.options.not_name_value", word=shown(word),
                                      example=example))
            typical = options_example_value(spec, info.options) or spec.default
            raise BadOptions(Text("terminal.options.no_value", word=shown(word),
                                  example=f"{spec.name}={typical}"))
        spec = info.options.spec(name) if name else None
        key = spec.name if spec is not None else name
        if key in given:
            raise BadOptions(Text("terminal.options.twice", name=shown(key)))
        given[key] = value
    return info.options.parse(given)


def options_example_value(spec: OptionSpec,
                          options: type[GameOptions] | None = None) -> str | None:
    """A typical value of one option other than its default, as typed (``None`` if it
    has no other): the game's own example when it declares one (pydantic's
    ``examples``); else the first other choice (the last when the game decides by
    default), the other of yes and no, or a round number near the default (half it,
    say: ``hand_cap=200`` where 400 is the default), never merely the least allowed."""
    declared = _declared_example(spec, options)
    if declared is not None:
        return declared
    if spec.kind == "choice":
        others = [c for c in spec.choices if c != spec.default]
        if not others:
            return None
        return str(others[-1] if spec.default is None else others[0])
    if spec.kind == "yes/no":
        return "no" if spec.default else "yes"
    return str(_typical_number(spec))


def _declared_example(spec: OptionSpec, options: type[GameOptions] | None) -> str | None:
    field = options.model_fields.get(spec.name) if options is not None else None
    for example in (field.examples or []) if field is not None else []:
        if example != spec.default:
            return str(example).lower() if isinstance(example, bool) else str(example)
    return None


def _typical_number(spec: OptionSpec) -> int:
    """A round whole number within the bounds, other than the default and the least:
    half the default, else twice it, else a quarter of the way up the range.

    >>> _typical_number(OptionSpec("life", "number", 20, "", minimum=1, maximum=99))
    10
    >>> _typical_number(OptionSpec("cap", "number", 400, "", minimum=10, maximum=10000))
    200
    >>> _typical_number(OptionSpec("n", "number", 1, "", minimum=1, maximum=9))
    2
    """
    low, high, default = spec.minimum, spec.maximum, spec.default
    assert low is not None and high is not None
    tries = [] if default is None else [_round(default / 2), _round(default * 2)]
    tries.append(_round(low + (high - low) / 4))
    for number in tries:
        if low < number <= high and number != default:
            return number
    return next((n for n in (low + 1, high) if n != default and low < n <= high), high)


def _round(number: float) -> int:
    """``number`` to one significant figure, halves up: 2.5 → 3, 86 → 90, 2502 → 3000."""
    if number < 10:
        return int(number + 0.5)
    scale = 10 ** (len(str(int(number))) - 1)
    return int(number / scale + 0.5) * scale
