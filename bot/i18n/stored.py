"""Words kept in the store as keys and arguments (docs/i18n.md: storage keeps no
sentences): a :class:`~rules.phrases.Phrase` written as JSON and read back, its seats
and inner phrases too; plain text stays as it is. The one place stored keys are read
back as data."""

from __future__ import annotations

import json

from rules.phrases import Named, Phrase, Seat, Words


def stored_words(reason: Words) -> str:
    """Words as the store keeps them (an outcome's reason, say): text as it is, a phrase
    as its key and arguments in JSON, never its words, so that what was stored in
    English reads in Portuguese.

    >>> stored_words(Phrase("x.y", count=2, who=Seat(0), why=Phrase("x.z")))
    '{"key": "x.y", "count": 2, "args": {"who": {"seat": 0}, "why": {"key": "x.z"}}}'
    """
    return reason if isinstance(reason, str) else json.dumps(_encoded(reason),
                                                             ensure_ascii=False)


def read_words(stored: str) -> Words:
    """A stored reason (:func:`stored_reason`) as words again: a phrase, or the text.

    >>> read_words(stored_words(Phrase("x.y", count=2, who=Seat(0), card=Named("cards", "Ox")))
    ...            ) == Phrase("x.y", count=2, who=Seat(0), card=Named("cards", "Ox"))
    True
    >>> read_words("{s0} forfeited")
    '{s0} forfeited'
    """
    if not stored.startswith('{"key": '):
        return stored
    try:
        found = json.loads(stored)
    except ValueError:
        return stored
    return _decoded(found) if isinstance(found, dict) else stored


def _encoded(value: object) -> object:
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Named):
        return {"named": value.domain, "name": value.name}
    if isinstance(value, Phrase):
        made: dict[str, object] = {"key": value.key}
        if value.count is not None:
            made["count"] = value.count
        if value.args:
            made["args"] = {name: _encoded(arg) for name, arg in value.args}
        return made
    return value


def _decoded(value: object) -> object:
    if isinstance(value, dict) and set(value) == {"seat"}:
        return Seat(int(value["seat"]))
    if isinstance(value, dict) and set(value) == {"named", "name"}:
        return Named(str(value["named"]), str(value["name"]))
    if isinstance(value, dict) and "key" in value:
        args = {name: _decoded(arg) for name, arg in (value.get("args") or {}).items()}
        return Phrase(str(value["key"]), count=value.get("count"), **args)
    return value
