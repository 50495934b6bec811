"""A game's options at the local table: typed as ``name=value`` words, read by the
game's own declaration, listed from it, with examples."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table

from bot.local_screen import titled
from rules.core import GameInfo
from rules.errors import BadOptions, shown
from rules.options import GameOptions, OptionSpec


def options_help(info: GameInfo) -> RenderableType:
    """Every option of the game, from its declaration."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("what")
    for spec in info.options.specs():
        table.add_row(spec.name, f"{spec.description} ({spec.every_choice()}; "
                                 f"default {spec.label(spec.default)})")
    return titled(f"{info.title} options (type name=value):", table)


def options_example(options: type[GameOptions]) -> str:
    """Two options set otherwise than by default, as typed: ``deck=space objective=most``
    (options with a single choice are left out)."""
    parts = [f"{spec.name}={value}" for spec in options.specs()
             if (value := options_example_value(spec)) is not None]
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
                raise BadOptions(f"{shown(word)} is not name=value (e.g. {example})")
            raise BadOptions(f"{shown(word)} has no value: write name=value, e.g. "
                             f"{spec.name}={options_example_value(spec) or spec.default}")
        spec = info.options.spec(name) if name else None
        key = spec.name if spec is not None else name
        if key in given:
            raise BadOptions(f"{shown(key)} is given twice")
        given[key] = value
    return info.options.parse(given)


def options_example_value(spec: OptionSpec) -> str | None:
    """A value of one option other than its default, as typed (``None`` if it has no
    other): the first other choice, or the last when the game decides by default."""
    if spec.kind == "choice":
        others = [c for c in spec.choices if c != spec.default]
        if not others:
            return None
        return str(others[-1] if spec.default is None else others[0])
    if spec.kind == "yes/no":
        return "no" if spec.default else "yes"
    return str(spec.minimum if spec.minimum != spec.default else spec.maximum)
