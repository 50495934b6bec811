"""The gettext catalogs, read once per process from the ``.po`` files beside this module.

A catalog is ``locales/<locale>/LC_MESSAGES/<domain>.po``; its message ids are stable dotted
keys (``error.not_your_turn``), never English sentences, so English is a catalog like any
other. Nothing is compiled: Babel reads the ``.po`` text at the first use of a locale.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import pseudo

LOCALE_DIR = Path(__file__).resolve().parent / "locales"
"""Where the catalogs live: one folder per locale, one ``.po`` per domain in it."""
DEFAULT = "en"
"""The locale used when none is known, and for any key a catalog lacks."""
PSEUDO = pseudo.PSEUDO
"""The pseudo-locale (accented, longer, bracketed English made from the English catalog;
:mod:`bot.i18n.pseudo`), spoken only where tests turn it on: text in it that is plain
English was never taken from a catalog."""


def _domains() -> tuple[str, ...]:
    found = sorted(p.stem for p in (LOCALE_DIR / DEFAULT / "LC_MESSAGES").glob("*.po"))
    return ("messages", "commands", *(d for d in found if d not in ("messages", "commands")))


DOMAINS: tuple[str, ...] = _domains()
"""The catalogs each locale has: what people read (``messages``, and one domain per area
that has many words: a game, the card set, the web pages …), and the slash commands' own
words (``commands``). A new domain is a new ``.po`` file in every locale's folder."""


def _locales() -> tuple[str, ...]:
    found = sorted(p.name for p in LOCALE_DIR.iterdir()
                   if (p / "LC_MESSAGES").is_dir() and p.name != DEFAULT)
    return (DEFAULT, *found)


LOCALES: tuple[str, ...] = _locales()
"""The supported locales (``en`` first): a new language is a new folder of catalogs."""


@dataclass(frozen=True)
class Entry:
    """One key's text in one locale: one form, or one per plural form."""

    forms: tuple[str, ...]
    plural: bool


@dataclass(frozen=True)
class Loaded:
    """A locale's entries of every domain, and how it picks a plural form."""

    entries: Mapping[str, Entry]
    plural_index: Callable[[int], int]


def fields(template: str) -> set[str]:
    """The placeholders of ``template``; only plain ``{name}`` fields are allowed (no
    attribute, index, conversion or format spec: a catalog never reaches into a value).

    >>> sorted(fields("{who} has {count} cards {{literal}}"))
    ['count', 'who']
    >>> fields("{who.__class__}")
    Traceback (most recent call last):
    ValueError: a placeholder must be a plain {name}: '{who.__class__}'
    """
    names = set()
    for _literal, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"a placeholder must be a plain {{name}}: {template!r}")
        names.add(name)
    return names


def path_of(domain: str, locale: str) -> Path:
    """The ``.po`` file of ``domain`` in ``locale``."""
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalog(domain: str, locale: str) -> Catalog:
    """``domain``'s catalog in ``locale`` as Babel reads it (an empty one if the locale
    has no such file yet); read once per process."""
    path = path_of(domain, locale)
    if not path.exists():
        return Catalog(locale=locale, domain=domain)
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=domain)


@cache
def loaded(locale: str) -> Loaded:
    """Every domain's entries of ``locale``, checked as they are read: a bad placeholder
    or a key in two domains stops the bot at start-up, not in front of a player."""
    if locale == PSEUDO:
        english = loaded(DEFAULT)
        return Loaded(entries=_pseudo_entries(english.entries),
                      plural_index=english.plural_index)
    entries: dict[str, Entry] = {}
    plural_expr = "(n != 1)"
    for domain in DOMAINS:
        read = catalog(domain, locale)
        plural_expr = read.plural_expr or plural_expr
        for message in read:
            if not message.id:
                continue  # the header
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            if key in entries:
                raise ValueError(f"{key!r} is in two catalogs of {locale}")
            plural = isinstance(message.string, tuple | list)
            forms = tuple(message.string) if plural else (message.string,)
            if not all(forms):
                continue  # untranslated: the default locale's text is used
            for form in forms:
                fields(form)
            entries[key] = Entry(forms=forms, plural=plural)
    return Loaded(entries=entries, plural_index=gettext.c2py(plural_expr))


def _pseudo_entries(english: Mapping[str, Entry]) -> dict[str, Entry]:
    """Every English entry made pseudo (the language names kept, so that a list of
    languages still reads)."""
    return {key: entry if key.startswith("language.") else
            Entry(forms=tuple(pseudo.pseudo(form) for form in entry.forms), plural=entry.plural)
            for key, entry in english.items()}
