"""Game options, declared once per game.

A game declares its options as one pydantic model, a subclass of
:class:`GameOptions`: a field per option, with its type (a whole number with
bounds, yes/no, or a choice among fixed values), its default and a one-line
description. That declaration is all there is: :meth:`GameOptions.parse` checks
what people give (typed text from the terminal, values from Discord, a stored
match's options) and :meth:`GameOptions.specs` describes each option for the
slash command ``/play``, the local table, the command line and ``/rules``.

Text is read strictly: a whole number is ASCII digits only (no ``²``, ``４``,
``٣``, signs, inner spaces or thousands of digits), and every refusal is a
:class:`~rules.errors.BadOptions` naming the input, shortened.

>>> from typing import Literal
>>> from pydantic import Field
>>> class Demo(GameOptions):
...     title: ClassVar[str] = "Demo"
...     rounds: int = Field(3, ge=1, le=9, description="rounds to play")
...     colour: Literal["red", "blue"] = Field("red", description="your colour")
>>> Demo.parse({"Rounds": " 5 ", "colour": "BLUE"})
Demo(rounds=5, colour='blue')
>>> Demo.parse({"rounds": "٣"})
Traceback (most recent call last):
...
rules.errors.BadOptions: rounds must be a whole number written with the digits 0-9, not '٣'
>>> Demo.parse({"speed": 1})
Traceback (most recent call last):
...
rules.errors.BadOptions: Demo has no option 'speed'; its options are rounds, colour
>>> for spec in Demo.specs():
...     print(spec.describe())
rounds: rounds to play (a whole number from 1 to 9; default 3)
colour: your colour (red or blue; default red)
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

from rules.errors import BadOptions, shown

OptionKind = Literal["number", "yes/no", "choice"]
YES = ("true", "yes", "y", "on", "1")
NO = ("false", "no", "n", "off", "0")
MAX_DIGITS = 9
"""Longest whole number an option accepts as text (no option needs more)."""
_NUMBER = re.compile(r"-?[0-9]+")
"""A whole number as text: ASCII digits only (``str.isdigit`` takes ``²`` and ``٣``)."""
_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One declared option, as every surface (Discord, terminal, /rules) needs it.

    ``choices`` lists the allowed values of a choice, ``labels`` how some of
    them are shown, ``aliases`` other words accepted for them. ``optional``
    options may be left unset (``None``), meaning the game decides.
    """

    name: str
    kind: OptionKind
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    labels: Mapping[Any, str] = field(default_factory=dict)
    aliases: Mapping[str, Any] = field(default_factory=dict)
    optional: bool = False

    def label(self, value: Any) -> str:
        """How ``value`` is shown to people.

        >>> OptionSpec("teams", "yes/no", None, "").label(True)
        'yes'
        """
        if value is None:
            return "the game decides"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return self.labels.get(value, str(value))

    def allowed(self) -> str:
        """What may be given, in words (a long list of choices is shortened)."""
        if self.kind == "number":
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.kind == "yes/no":
            return "yes or no"
        shown_choices = [self.label(c) for c in self.choices]
        if len(shown_choices) > 6:
            shown_choices = [*shown_choices[:4], "…", shown_choices[-1]]
        if len(shown_choices) == 1:
            return shown_choices[0]
        return ", ".join(shown_choices[:-1]) + " or " + shown_choices[-1]

    def every_choice(self) -> str:
        """What may be given, every choice named as typed, with its label where
        that differs (full help texts list them all).

        >>> OptionSpec("deck", "choice", "classic", "", choices=("classic", "space"),
        ...            labels={"space": "Space deck"}).every_choice()
        'classic or space (Space deck)'
        """
        if self.kind != "choice":
            return self.allowed()
        typed = [str(c) + (f" ({self.label(c)})" if self.label(c) != str(c) else "")
                 for c in self.choices]
        return typed[0] if len(typed) == 1 else ", ".join(typed[:-1]) + " or " + typed[-1]

    def describe(self) -> str:
        """One line for help texts: name, description, what is allowed, the default."""
        default = "" if self.default is None else f"; default {self.label(self.default)}"
        return f"{self.name}: {self.description} ({self.allowed()}{default})"

    def read(self, value: Any) -> Any:
        """``value`` (text, or a value of the option's own type) as the option's
        value; :class:`BadOptions` names the input otherwise.

        >>> OptionSpec("n", "number", 1, "", minimum=1, maximum=50).read("４")
        Traceback (most recent call last):
        ...
        rules.errors.BadOptions: n must be a whole number written with the digits 0-9, not '４'
        """
        if value is None:
            if self.optional:
                return None
            raise BadOptions(f"{self.name} needs a value ({self.allowed()})")
        if isinstance(value, str):
            return self._read_text(value)
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOptions(f"{self.name} must be a whole number, not {shown(value)}")
            return self._in_bounds(value)
        if self.kind == "yes/no":
            if not isinstance(value, bool):
                raise BadOptions(f"{self.name} is yes or no, not {shown(value)}")
            return value
        if value in self.choices and not isinstance(value, bool):
            return value
        raise BadOptions(f"{self.name} is {self.allowed()}, not {shown(value)}")

    def _read_text(self, value: str) -> Any:
        text = value.strip().lower()
        if text in self.aliases:
            return self.aliases[text]
        if self.optional and text in ("", "default", "none"):
            return None
        if self.kind == "number":
            if not _NUMBER.fullmatch(text):
                raise BadOptions(f"{self.name} must be a whole number written with the "
                                 f"digits 0-9, not {shown(value)}")
            # A number of any length is refused by its range, never converted whole;
            # zeros in front count for nothing.
            if len(text.removeprefix("-").lstrip("0")) > MAX_DIGITS:
                raise self._out_of_range(value)
            return self._in_bounds(int(text), value)
        if self.kind == "yes/no":
            if text in YES:
                return True
            if text in NO:
                return False
            raise BadOptions(f"{self.name} is yes or no, not {shown(value)}")
        for choice in self.choices:
            if text in (str(choice).lower(), self.label(choice).lower()):
                return choice
        raise BadOptions(f"{self.name} is {self.allowed()}, not {shown(value)}")

    def _in_bounds(self, number: int, typed: Any = None) -> int:
        """``number`` if within the bounds; the refusal names what was ``typed``."""
        assert self.minimum is not None and self.maximum is not None
        if not self.minimum <= number <= self.maximum:
            raise self._out_of_range(number if typed is None else typed)
        return number

    def _out_of_range(self, value: Any) -> BadOptions:
        """The refusal of a whole number outside the bounds: it says the bounds.

        >>> OptionSpec("depth", "number", 0, "", minimum=0, maximum=30).read("-1")
        Traceback (most recent call last):
        ...
        rules.errors.BadOptions: depth must be a whole number from 0 to 30, not '-1'
        """
        return BadOptions(f"{self.name} must be a whole number from {self.minimum} to "
                          f"{self.maximum}, not {shown(value)}")


def _spec(name: str, info: FieldInfo) -> OptionSpec:
    """The :class:`OptionSpec` of one pydantic field."""
    annotation = info.annotation
    optional = False
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        optional = len(members) < len(get_args(annotation))
        if len(members) != 1:
            raise TypeError(f"option {name}: one type (or it and None), not {annotation}")
        annotation = members[0]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    labels = extra.get("labels", {})
    aliases = {str(k).lower(): v for k, v in extra.get("aliases", {}).items()}
    common = {"name": check_key(name), "default": info.default,
              "description": info.description or "", "labels": labels, "aliases": aliases,
              "optional": optional}
    if annotation is bool:
        return OptionSpec(kind="yes/no", **common)
    if annotation is int:
        bounds = {type(m): m for m in info.metadata}
        low, high = bounds.get(annotated_types.Ge), bounds.get(annotated_types.Le)
        if low is None or high is None:
            raise TypeError(f"option {name}: a whole number needs ge= and le= bounds")
        return OptionSpec(kind="number", minimum=int(low.ge), maximum=int(high.le), **common)
    if get_origin(annotation) is Literal:
        return OptionSpec(kind="choice", choices=get_args(annotation), **common)
    raise TypeError(f"option {name}: {annotation} is not an option type (int, bool, Literal)")


class GameOptions(BaseModel):
    """Base of every game's options: frozen, no unknown keys. Subclasses set
    ``title`` (the game's name, for messages) and declare fields as
    ``name: int = Field(default, ge=…, le=…, description=…)``, ``bool`` or a
    ``Literal[…]`` of choices (optionally ``| None`` for "the game decides")."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    title: ClassVar[str] = "This game"

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """Every option, in declaration order."""
        cached = cls.__dict__.get("_specs")
        if cached is None:
            cached = tuple(_spec(name, info) for name, info in cls.model_fields.items())
            cls._specs = cached  # type: ignore[attr-defined]  # one per subclass
        return cached

    @classmethod
    def spec(cls, name: str) -> OptionSpec | None:
        """The option called ``name`` (any case, ``-`` for ``_``), if there is one."""
        key = name.strip().lower().replace("-", "_")
        return next((s for s in cls.specs() if s.name == key), None)

    @classmethod
    def parse(cls, given: Mapping[str, Any] | GameOptions | None = None) -> Self:
        """Options from what people or storage give: names in any case, values as
        text or as the option's own type; unset keys take their defaults."""
        if isinstance(given, cls):
            return given
        if isinstance(given, GameOptions):
            given = given.stored()
        values: dict[str, Any] = {}
        for key, value in (given or {}).items():
            spec = cls.spec(key) if isinstance(key, str) else None
            if spec is None:
                names = ", ".join(s.name for s in cls.specs()) or "none"
                raise BadOptions(f"{cls.title} has no option {shown(key)}; "
                                 f"its options are {names}")
            if value is not None:  # unset: the default
                values[spec.name] = spec.read(value)
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            raise BadOptions(_reason(exc)) from None

    def stored(self) -> dict[str, Any]:
        """Every option's value, as storage keeps it (plain JSON types)."""
        return self.model_dump(mode="json")

    def changed(self) -> dict[str, Any]:
        """The options that were really chosen: those whose value would differ if
        they were left out (what a lobby shows; an option whose default follows
        another's, like cards after the board, is not counted).

        >>> from rules.flank.options import FlankOptions
        >>> FlankOptions.parse({"board": 8, "cards": 32}).changed()
        {'board': 8}
        """
        stored = self.stored()
        found = {}
        for spec in self.specs():
            without = {k: v for k, v in stored.items() if k != spec.name}
            value = getattr(self, spec.name)
            try:
                if getattr(type(self).parse(without), spec.name) == value:
                    continue
            except BadOptions:  # the others alone do not stand: this one matters
                pass
            found[spec.name] = value
        return found


def _reason(error: ValidationError) -> str:
    """The first problem of a validation error, as the sentence its validator
    wrote (cross-option checks raise ``ValueError("…")``)."""
    problem = error.errors()[0]
    cause = (problem.get("ctx") or {}).get("error")
    if cause is not None:
        return str(cause)
    where = ".".join(str(part) for part in problem.get("loc", ()))
    return f"{where}: {problem.get('msg', 'not allowed')}" if where else problem.get("msg", "")


def check_key(name: str) -> str:
    """An option name as surfaces need it: lower case, ``a-z0-9_``, at most 32
    characters (Discord's limit for option names).

    >>> check_key("hand_cap")
    'hand_cap'
    """
    if not _KEY.fullmatch(name):
        raise TypeError(f"option name {name!r} must be a-z, 0-9 and _, at most 32 characters")
    return name
