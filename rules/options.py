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
rules.errors.BadOptions: options.error.digits(name='rounds', given="'٣'")
>>> Demo.parse({"speed": 1})
Traceback (most recent call last):
...
rules.errors.BadOptions: options.error.unknown(game='Demo', given="'speed'", names='rounds, colour')
>>> for spec in Demo.specs():
...     print(spec.describe())
rounds: rounds to play (a whole number from 1 to 9; default 3)
colour: your colour (red or blue; default red)

Refusals and descriptions are words (:class:`~rules.phrases.Phrase`), made in each
reader's language by ``bot``: :meth:`OptionSpec.describe_words`,
:meth:`OptionSpec.allowed_words`, :meth:`OptionSpec.label_words`. The English
:meth:`OptionSpec.describe` and :meth:`OptionSpec.label` stay for the command line and
for reading what is typed (a choice's English label is one way to type it).
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo

from rules.errors import BadOptions, shown
from rules.phrases import Phrase, Words

OptionKind = Literal["number", "yes/no", "choice"]
YES = ("true", "yes", "y", "on", "1")
NO = ("false", "no", "n", "off", "0")
MAX_DIGITS = 9
"""Longest whole number an option accepts as text (no option needs more)."""
_NUMBER = re.compile(r"-?[0-9]+")
"""A whole number as text: ASCII digits only (``str.isdigit`` takes ``²`` and ``٣``)."""
_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
Labeller = Callable[["OptionSpec", Any], Words]
"""``(spec, choice) -> words``: how a choice is named to a reader (``bot`` names
choices in the reader's language)."""


def _listed(words: Sequence[Words]) -> Words:
    """Words one after another, with commas between (``a, b, c``), as one phrase."""
    if len(words) == 1:
        return words[0]
    return Phrase("options.list", first=words[0], rest=_listed(words[1:]))


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

    def label_words(self, value: Any, label: Labeller | None = None) -> Words:
        """How ``value`` is shown, as words: yes, no and "the game decides" in the
        reader's language; a choice by ``label`` (the bot's, in the reader's language),
        else its English label; a number as it is.

        >>> spec = OptionSpec("teams", "yes/no", None, "")
        >>> str(spec.label_words(True)), str(spec.label_words(None))
        ('options.yes()', 'options.game_decides()')
        """
        if value is None:
            return Phrase("options.game_decides")
        if isinstance(value, bool):
            return Phrase("options.yes") if value else Phrase("options.no")
        if label is not None and self.kind == "choice":
            return label(self, value)
        return self.label(value)

    def allowed_words(self, label: Labeller | None = None) -> Phrase:
        """What may be given, as words (a long list of choices is shortened); choices
        named by ``label`` (see :meth:`label_words`).

        >>> str(OptionSpec("n", "number", 1, "", minimum=1, maximum=9).allowed_words())
        'options.allowed.number(least=1, most=9)'
        """
        if self.kind == "number":
            return Phrase("options.allowed.number", least=self.minimum, most=self.maximum)
        if self.kind == "yes/no":
            return Phrase("options.allowed.yes_no")
        shown_choices: list[Words] = [self.label_words(c, label) for c in self.choices]
        if len(shown_choices) > 6:
            shown_choices = [*shown_choices[:4], "…", shown_choices[-1]]
        if len(shown_choices) == 1:
            return Phrase("options.allowed.one", choice=shown_choices[0])
        return Phrase("options.allowed.choices", choices=_listed(shown_choices[:-1]),
                      last=shown_choices[-1])

    def describe_words(self, description: Words | None = None,
                       label: Labeller | None = None) -> Phrase:
        """What the option is, allows and defaults to, as words (``/rules``):
        ``description`` in the reader's language if given (else the declared English),
        choices named by ``label`` (see :meth:`label_words`).

        >>> spec = OptionSpec("n", "number", 3, "rounds", minimum=1, maximum=9)
        >>> str(spec.describe_words())  # doctest: +NORMALIZE_WHITESPACE
        "options.describe(description='rounds',
        allowed=Phrase(options.allowed.number(least=1, most=9)), default='3')"
        """
        description = self.description if description is None else description
        allowed = self.allowed_words(label)
        if self.default is None:
            return Phrase("options.describe_no_default", description=description,
                          allowed=allowed)
        return Phrase("options.describe", description=description, allowed=allowed,
                      default=self.label_words(self.default, label))

    def read(self, value: Any) -> Any:
        """``value`` (text, or a value of the option's own type) as the option's
        value; :class:`BadOptions` names the input otherwise.

        >>> OptionSpec("n", "number", 1, "", minimum=1, maximum=50).read("４")
        Traceback (most recent call last):
        ...
        rules.errors.BadOptions: options.error.digits(name='n', given="'４'")
        """
        if value is None:
            if self.optional:
                return None
            raise BadOptions(Phrase("options.error.needs_value", name=self.name,
                                    allowed=self.allowed_words()))
        if isinstance(value, str):
            return self._read_text(value)
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOptions(Phrase("options.error.not_number", name=self.name,
                                        given=shown(value)))
            return self._in_bounds(value)
        if self.kind == "yes/no":
            if not isinstance(value, bool):
                raise BadOptions(Phrase("options.error.yes_no", name=self.name, given=shown(value)))
            return value
        if value in self.choices and not isinstance(value, bool):
            return value
        raise BadOptions(Phrase("options.error.one_of", name=self.name,
                                allowed=self.allowed_words(), given=shown(value)))

    def _read_text(self, value: str) -> Any:
        text = value.strip().lower()
        if text in self.aliases:
            return self.aliases[text]
        if self.optional and text in ("", "default", "none"):
            return None
        if self.kind == "number":
            if not _NUMBER.fullmatch(text):
                raise BadOptions(Phrase("options.error.digits", name=self.name,
                                        given=shown(value)))
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
            raise BadOptions(Phrase("options.error.yes_no", name=self.name, given=shown(value)))
        for choice in self.choices:
            if text in (str(choice).lower(), self.label(choice).lower()):
                return choice
        raise BadOptions(Phrase("options.error.one_of", name=self.name,
                                allowed=self.allowed_words(), given=shown(value)))

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
        rules.errors.BadOptions: options.error.range(name='depth', least=0, most=30, given="'-1'")
        """
        return BadOptions(Phrase("options.error.range", name=self.name, least=self.minimum,
                                 most=self.maximum, given=shown(value)))


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
                raise BadOptions(Phrase("options.error.unknown", game=cls.title,
                                        given=shown(key), names=names))
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


def _reason(error: ValidationError) -> Words:
    """The first problem of a validation error, as the words its validator
    gave (cross-option checks raise ``ValueError(Phrase(…))``, or ``ValueError("…")``)."""
    problem = error.errors()[0]
    cause = (problem.get("ctx") or {}).get("error")
    if cause is not None:
        said = cause.args[0] if cause.args else None
        return said if isinstance(said, Phrase) else str(cause)
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
