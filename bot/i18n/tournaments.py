"""Tournament words that are data (issue 33): a stored pairing's label read back as a
phrase, a store's refusal (a phrase) as :class:`~bot.i18n.Text`, and a catalog text kept
as a template for words made thousands of times a page. Their keys are the ones the
rules, the store and ``bot.tournaments.terms`` wrote, not written here; all are of the
``tournaments`` catalog."""

from __future__ import annotations

import json
from functools import lru_cache

from bot.i18n import DEFAULT, Text
from bot.i18n.catalogs import loaded
from rules.phrases import Phrase, Words

DOMAIN = "tournaments."
"""Every key read back here is of the tournaments catalog."""


def text_of(words: Phrase) -> Text:
    """A phrase (the rules' or the store's words) as :class:`~bot.i18n.Text`, which an
    exception carries: its English is its ``str()``.

    >>> text_of(Phrase("tournaments.label.pod", number=2)).english()
    'Pod 2'
    """
    if isinstance(words, Text):
        return words
    return Text(words.key, count=words.count, **dict(words.args))


def label_code(label: Words) -> str:
    """A pairing's label as the store keeps it: a phrase as its key and arguments
    (JSON), never as words; plain text as it is.

    >>> label_code(Phrase("tournaments.label.pod", number=2))
    '["tournaments.label.pod", {"number": 2}]'
    >>> label_code("")
    ''
    """
    if isinstance(label, str):
        return label
    return json.dumps([label.key, dict(label.args)])


def label_words(stored: str) -> Words:
    """A stored label (:func:`label_code`) as words: a phrase again, or the text a
    label stored before labels were keys (shown as it is).

    >>> label_words('["tournaments.label.pod", {"number": 2}]')
    Phrase(tournaments.label.pod(number=2))
    >>> label_words("Semi-final 1")
    'Semi-final 1'
    """
    if not stored.startswith('["' + DOMAIN):
        return stored
    try:
        key, args = json.loads(stored)
        return Phrase(str(key), **{str(name): value for name, value in dict(args).items()})
    except (ValueError, TypeError):
        return stored


@lru_cache(maxsize=1024)
def raw_template(key: str, locale: str) -> str:
    """The catalog's own text of ``key`` in ``locale`` (English where that catalog lacks
    it), its placeholders unfilled: for ``str.format`` where a page makes the same words
    thousands of times (a pairing's result).

    >>> raw_template("tournaments.result.wins", "pt_BR")
    '{name} vence {score}'
    """
    for tried in (locale, DEFAULT):
        entry = loaded(tried).entries.get(key)
        if entry is not None and not entry.plural:
            return entry.forms[0]
    raise KeyError(f"no catalog has {key!r} as a plain entry")
