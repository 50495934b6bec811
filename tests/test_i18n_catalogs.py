"""The catalogs stay complete (docs/i18n.md): every key of every domain has its text in
every locale, with the same placeholders, and every plural form the locale's CLDR rules
ask for; every placeholder is a plain ``{name}``; the code uses keys literally, every key
it names exists, and no ``messages`` key is left unused. The catalogs and the code are
read once for the whole file."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.i18n import DEFAULT, LANGUAGE_KEY, LOCALES, catalog, name_of, translate
from bot.i18n.catalogs import DOMAINS, fields, loaded

ROOT = Path(__file__).resolve().parent.parent
CODE = ("bot", "commands", "rules", "storage")
KEYED_CALLS = {"Text", "Phrase", "translate", "plural", "tr", "trn"}
KEYED_MODULES = {"bot.i18n", "rules.phrases"}
DATA_KEYED = {"commands", "cards"}
"""Domains whose keys are made from data (a command's name, a card's id) rather than
written in the code: each has its own test that every key is used."""
"""The calls whose first argument is a key: written literally, so a key's uses are found
by reading the code (and by grep)."""
OTHERS = [locale for locale in LOCALES if locale != DEFAULT]


def _entries(domain: str, locale: str) -> dict[str, tuple[str, ...] | str]:
    """``{key: text or plural forms}`` of a catalog, the header left out."""
    return {(m.id[0] if isinstance(m.id, tuple | list) else m.id):
            (tuple(m.string) if isinstance(m.string, tuple | list) else m.string)
            for m in catalog(domain, locale) if m.id}


def _forms(text: tuple[str, ...] | str) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def _keyed_names(tree: ast.Module) -> dict[str, str]:
    """The names a module calls :mod:`bot.i18n`'s keyed functions by (as imported,
    ``i18n.translate`` too), each to the function's own name."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in KEYED_MODULES:
            names |= {alias.asname or alias.name: alias.name for alias in node.names
                      if alias.name in KEYED_CALLS}
        elif isinstance(node, ast.ImportFrom) and node.module == "bot" \
                and any(alias.name == "i18n" for alias in node.names):
            names |= {f"i18n.{call}": call for call in KEYED_CALLS}
    return names


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


@cache
def _code() -> tuple[frozenset[str], tuple[tuple[str, str, bool], ...], tuple[str, ...]]:
    """Every string literal of our code; every keyed call as (key, where, plural); and
    the keyed calls whose key is not a literal."""
    literals: set[str] = set()
    calls: list[tuple[str, str, bool]] = []
    computed: list[str] = []
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "i18n" in path.parts:
                continue  # the package that makes text from keys
            where = str(path.relative_to(ROOT))
            tree = ast.parse(path.read_text(encoding="utf-8"))
            ours = _keyed_names(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    literals.add(node.value)
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = _called(node.func)
                if name not in ours:
                    continue
                name = ours[name]
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    counted = (name in ("plural", "trn")
                               or any(k.arg == "count" for k in node.keywords))
                    calls.append((first.value, f"{where}:{node.lineno}", counted))
                else:
                    computed.append(f"{where}:{node.lineno}")
    found, unread = _template_calls()
    literals |= {key for key, _, _ in found}
    return frozenset(literals), tuple(calls + found), tuple(computed + unread)


TEMPLATES = ROOT / "bot" / "web" / "templates"
TEMPLATE_CALL = re.compile(r"\b(trh|trn|tr)\(\s*(\"[^\"]*\"|'[^']*'|[^\s)][^,)]*)")
"""A keyed call in a web template (``bot.web.render``'s ``tr``, ``trn``, ``trh``) and
its first argument."""


def _template_calls() -> tuple[list[tuple[str, str, bool]], list[str]]:
    """The web templates' keyed calls as (key, where, plural), and where a key is not a
    literal string: the templates name their words by key too (``{{ tr("web.…") }}``)."""
    calls, computed = [], []
    for path in sorted(TEMPLATES.rglob("*.html")):
        where = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            for call, first in TEMPLATE_CALL.findall(line):
                if first[:1] in "\"'" and first[-1:] == first[:1] and len(first) > 1:
                    calls.append((first[1:-1], f"{where}:{number}", call == "trn"))
                else:
                    computed.append(f"{where}:{number}")
    return calls, computed


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", OTHERS)
def test_every_key_is_translated_with_the_same_placeholders(domain: str, locale: str) -> None:
    english, other = _entries(domain, DEFAULT), _entries(domain, locale)
    assert sorted(set(english) - set(other)) == [], f"missing in {locale}"
    assert sorted(set(other) - set(english)) == [], f"in {locale} but not in English"
    wrong = []
    for key, text in english.items():
        theirs = other[key]
        if isinstance(text, tuple) != isinstance(theirs, tuple):
            wrong.append(f"{key}: plural in one catalog only")
            continue
        wanted = set().union(*(fields(form) for form in _forms(text)))
        for form in _forms(theirs):
            if not form.strip() or fields(form) != wanted:
                wrong.append(f"{key}: {form!r} should use {sorted(wanted)}")
    assert wrong == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_plural_entries_have_every_form_the_locale_has(domain: str, locale: str) -> None:
    read = catalog(domain, locale)
    cldr = Catalog(locale=locale)
    assert (read.num_plurals, read.plural_expr) == (cldr.num_plurals, cldr.plural_expr), \
        f"{domain}.po of {locale}: Plural-Forms should be {cldr.plural_forms!r}"
    short = [key for key, text in _entries(domain, locale).items()
             if isinstance(text, tuple) and (len(text) != cldr.num_plurals or not all(text))]
    assert short == []


@pytest.mark.parametrize("locale", LOCALES)
def test_every_placeholder_is_a_plain_name_and_no_key_is_in_two_domains(locale: str) -> None:
    # Reading the locale checks both (as the bot does at its first use of it).
    loaded.cache_clear()
    assert loaded(locale).entries


def test_keys_are_used_literally_and_exist() -> None:
    _, calls, computed = _code()
    assert computed == (), "a key must be a literal string where it is used"
    english = {key: text for domain in DOMAINS for key, text in _entries(domain, DEFAULT).items()}
    missing = [f"{where}: {key}" for key, where, _ in calls if key not in english]
    assert missing == []
    kind = [f"{where}: {key}" for key, where, counted in calls
            if counted != isinstance(english[key], tuple)]
    assert kind == [], "a plural key is used with a count, any other without"


def test_no_message_is_left_unused() -> None:
    literals, _, _ = _code()
    unused = [key for domain in DOMAINS if domain not in DATA_KEYED
              for key in _entries(domain, DEFAULT)
              if key not in literals and not key.startswith(LANGUAGE_KEY)]
    assert unused == []


def test_each_language_is_named_in_its_own_words() -> None:
    names = [name_of(locale) for locale in LOCALES]
    assert all(names) and len(set(names)) == len(names)
    assert not [key for key in _entries("messages", DEFAULT)
                if key.startswith(LANGUAGE_KEY) and key[len(LANGUAGE_KEY):] not in LOCALES]


def test_a_value_is_never_read_as_a_template() -> None:
    hostile = "{page} **@everyone** {0} {__class__}"
    for locale in LOCALES:
        text = translate("error.wrong_game", locale, game=hostile, wanted="`x`")
        assert hostile in text and "`x`" in text
