"""Croupier's words in every language it speaks (docs/i18n.md).

Text shown to people is looked up by key in the gettext catalogs of ``locales/``
(:mod:`bot.i18n.catalogs`), in a locale this package names (``en``, ``pt_BR`` …:
:data:`LOCALES`). Every layer of ``bot/`` may use it: it knows no Discord.

Placeholders are plain ``{name}`` fields filled with ``str.format``; a value is never
read as a template, so a name with braces stays text.

>>> translate("error.already_seated", "en")
'You are already seated at this table.'
>>> translate("error.already_seated", "pt_BR")
'Você já tem um lugar nesta mesa.'
>>> number(0.6, "pt_BR", digits=2), number(0.6, "en", digits=2)
('0,60', '0.60')
>>> locale_of("pt-BR"), locale_of("en-GB"), locale_of(None), locale_of("ja")
('pt_BR', 'en', 'en', 'en')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from bot.i18n import pseudo
from bot.i18n.catalogs import DEFAULT, LOCALES, PSEUDO, catalog, loaded
from rules.phrases import Named, Phrase, Seat, Words

if TYPE_CHECKING:
    from rules.core import Event

__all__ = ["DEFAULT", "LANGUAGE_KEY", "LOCALES", "NAMERS", "Named", "Number", "Phrase", "Seat",
           "Text", "catalog", "current", "locale_of", "name_of", "narrate", "number", "plural",
           "say", "speak", "speaking", "supported", "tr", "translate", "trn"]


NAMERS: dict[str, Callable[[str, str], str]] = {}
"""How a :class:`~rules.phrases.Named` of each domain is said: ``(name, locale) -> text``,
registered by the module of this package that keeps that domain's data words
(``bot.i18n.<domain>``, imported at the first such name); a domain without one shows the
name as it is."""
_LOOKED: set[str] = set()
"""The domains whose module was looked for (once each)."""

LANGUAGE_KEY = "language."
"""The key prefix under which each catalog names its own language (:func:`name_of`)."""


@dataclass(frozen=True)
class Number:
    """A number given as a placeholder's value, written the locale's way when the text
    is made (``0,60`` in pt-BR): for values carried before the reader's locale is known
    (an exception's arguments). Whole numbers that name things (a match #1234) are
    passed as plain ``int`` and are not grouped."""

    value: int | float | Decimal
    digits: int | None = None


class Text(Phrase):
    """Words carried before the reader's locale is known (an exception's message, a
    phrase inside another message): a :class:`~rules.phrases.Phrase` (a key, its
    arguments and, for a plural entry, the count) that can make its own text. An
    argument may itself be a phrase or a :class:`Number`, made in the same locale.

    >>> places = Text("page.what.tile_places", tile=7)
    >>> Text("error.no_such_page", count=2, what=places, page=3).in_locale("pt_BR")
    'Só existem 2 páginas (lugares da peça 7); a página 3 não existe.'
    """

    __slots__ = ()

    def in_locale(self, locale: str | None) -> str:
        """The text in ``locale`` (``None``: the locale being spoken, :func:`speaking`)."""
        return say(self, locale)

    def english(self) -> str:
        """The text in the default locale (what logs and ``str()`` show)."""
        return self.in_locale(DEFAULT)


_SPEAKING: ContextVar[str | None] = ContextVar("croupier_speaking", default=None)


def current() -> str:
    """The locale being spoken now (:func:`speaking`), else the default.

    >>> current()
    'en'
    """
    return _SPEAKING.get() or DEFAULT


@contextmanager
def speaking(locale: str | None) -> Iterator[str]:
    """Speak ``locale`` (any code :func:`locale_of` reads) inside the ``with``: what
    :func:`tr`, :func:`trn` and :func:`say` make without a locale of their own. A
    context variable, so each interaction's task speaks its own reader's language.

    >>> with speaking("pt-BR"):
    ...     tr("error.already_seated")
    'Você já tem um lugar nesta mesa.'
    """
    token = _SPEAKING.set(locale_of(locale))
    try:
        yield current()
    finally:
        _SPEAKING.reset(token)


def speak(locale: str | None) -> str:
    """Speak ``locale`` from now on in this task (an interaction's whole handling: set
    where it arrives, gone with its task); the locale spoken."""
    _SPEAKING.set(locale_of(locale))
    return current()


def tr(key: str, /, **args: object) -> str:
    """:func:`translate` in the locale being spoken (:func:`speaking`)."""
    return translate(key, current(), **args)


def trn(key: str, count: int, /, **args: object) -> str:
    """:func:`plural` in the locale being spoken (:func:`speaking`)."""
    return plural(key, count, current(), **args)


def say(words: Words | None, locale: str | None = None, names: Sequence[str] = ()) -> str:
    """``words`` made in ``locale`` (``None``: the locale being spoken): a phrase from its
    catalog, with each :class:`~rules.phrases.Seat` it names filled from ``names``; plain
    text as it is (it is no words: notation, a name).

    >>> say(Phrase("error.already_seated"), "pt_BR"), say("C4"), say(None)
    ('Você já tem um lugar nesta mesa.', 'C4', '')
    """
    if words is None:
        return ""
    if isinstance(words, str):
        return words
    locale = current() if locale is None else locale
    args = {name: _shown(value, locale, names) for name, value in words.args}
    if words.count is None:
        return translate(words.key, locale, **args)
    return plural(words.key, words.count, locale, **args)


def narrate(event: Event, names: Sequence[str], locale: str | None = None) -> str:
    """An event's words, its seats named from ``names`` (as Discord text or plain, as
    the caller gives them), in ``locale`` (``None``: the locale being spoken).

    >>> from rules.core import Event
    >>> event = Event("x", Phrase("error.wrong_game", game=Seat(1), wanted="Go"))
    >>> narrate(event, ["Ada", "{s0}"], "en")
    'The game in this channel is {s0}, not Go.'
    """
    if isinstance(event.text, str):
        return event.render(names)
    return say(event.text, locale, names)


def supported(code: object) -> str | None:
    """The supported locale that a Discord locale code (``pt-BR``, ``en-US`` …, or a
    ``discord.Locale``), a POSIX ``LANG`` (``pt_BR.UTF-8``) or a locale of ours names
    (the same locale, else one of its language), or ``None``.

    >>> supported("pt_BR.UTF-8"), supported("PT-br"), supported("pt"), supported("ja")
    ('pt_BR', 'pt_BR', 'pt_BR', None)
    """
    return _supported(str(getattr(code, "value", code) or ""), pseudo.enabled())


@lru_cache(maxsize=256)
def _supported(code: str, pseudo_spoken: bool) -> str | None:
    text = code.split(".")[0].split("@")[0].replace("-", "_").strip()
    if not text:
        return None
    if pseudo_spoken and text.lower().split("_")[0] == PSEUDO:
        return PSEUDO
    for locale in LOCALES:
        if locale.lower() == text.lower():
            return locale
    language = text.split("_")[0].lower()
    return next((locale for locale in LOCALES if locale.split("_")[0].lower() == language),
                None)


def locale_of(code: object) -> str:
    """The locale to speak to someone whose Discord (or terminal) names ``code``
    (:func:`supported`), the default (``en``) for anything else.

    >>> locale_of("pt_BR.UTF-8"), locale_of("en-US"), locale_of(""), locale_of("C")
    ('pt_BR', 'en', 'en', 'en')
    """
    return supported(code) or DEFAULT


def name_of(locale: str) -> str:
    """A supported locale's name in its own words (``Português (Brasil)``): how a
    language is offered to the people who read it. Each catalog names its language
    under ``language.<locale>``.

    >>> [name_of(locale) for locale in LOCALES]
    ['English', 'Português (Brasil)']
    """
    return translate(LANGUAGE_KEY + locale, locale)


def number(value: int | float | Decimal, locale: str | None, /,
           digits: int | None = None) -> str:
    """``value`` written the way ``locale`` writes numbers, with exactly ``digits``
    decimals if given (``0,60`` in pt-BR, ``0.60`` in English).

    >>> number(1234.5, "pt_BR"), number(1234.5, "en"), number(3, "en", digits=1)
    ('1.234,5', '1,234.5', '3.0')
    """
    pattern = None if digits is None else "#,##0" + ("." + "0" * digits if digits else "")
    known = _known(locale)
    return format_decimal(value, format=pattern,
                          locale=DEFAULT if known == PSEUDO else known)


def translate(key: str, locale: str | None, /, **args: object) -> str:
    """The text of ``key`` in ``locale`` (its English text if that catalog lacks it),
    its ``{placeholders}`` filled from ``args``.

    >>> translate("error.wrong_game", "en", game="{wanted}", wanted="Go")
    'The game in this channel is {wanted}, not Go.'
    """
    return _fill(_entry(key, locale, plural=False)[0][0], locale, args)


def plural(key: str, count: int, locale: str | None, /, **args: object) -> str:
    """The form of ``key`` that ``count`` takes in ``locale`` (CLDR's plural rules: one
    form in English for 1, in Portuguese for 0 and 1), filled from ``args``; ``count``
    is also the ``{count}`` placeholder, written the locale's way.

    >>> plural("error.no_such_page", 1, "en", what="the leaderboard", page=5)
    'There is only 1 page of the leaderboard; page 5 does not exist.'
    >>> plural("error.no_such_page", 2, "en", what="the leaderboard", page=5)
    'There are only 2 pages of the leaderboard; page 5 does not exist.'
    """
    forms, index = _entry(key, locale, plural=True)
    locale = _known(locale) if key in loaded(_known(locale)).entries else DEFAULT
    chosen = forms[min(index(count), len(forms) - 1)]
    return _fill(chosen, locale, {"count": Number(count), **args})


def _known(locale: str | None) -> str:
    if locale is None:
        return current()
    if locale == PSEUDO and pseudo.enabled():
        return PSEUDO
    return locale if locale in LOCALES else DEFAULT


def _entry(key: str, locale: str | None, *,
           plural: bool) -> tuple[tuple[str, ...], Callable[[int], int]]:
    for tried in dict.fromkeys((_known(locale), DEFAULT)):
        found = loaded(tried)
        entry = found.entries.get(key)
        if entry is not None:
            if entry.plural != plural:
                raise KeyError(f"{key!r} is {'' if entry.plural else 'not '}a plural entry")
            return entry.forms, found.plural_index
    raise KeyError(f"no catalog has {key!r}")


def _fill(template: str, locale: str | None, args: dict[str, object]) -> str:
    return template.format_map({name: _shown(value, locale) for name, value in args.items()})


def _shown(value: object, locale: str | None, names: Sequence[str] = ()) -> object:
    if isinstance(value, Number):
        return number(value.value, locale, digits=value.digits)
    if isinstance(value, Phrase):
        return say(value, locale, names)
    if isinstance(value, Seat):
        return names[value.seat] if 0 <= value.seat < len(names) else f"#{value.seat + 1}"
    if isinstance(value, Named):
        namer = _namer(value.domain)
        return value.name if namer is None else namer(value.name, locale or current())
    return value


def _namer(domain: str) -> Callable[[str, str], str] | None:
    """The namer of ``domain``: registered, or registered by importing the module of
    this package that keeps the domain's words."""
    if domain not in NAMERS and domain not in _LOOKED and domain.isidentifier():
        _LOOKED.add(domain)  # looked for once
        with suppress(ModuleNotFoundError):
            importlib.import_module(f"{__name__}.{domain}")
    return NAMERS.get(domain)
