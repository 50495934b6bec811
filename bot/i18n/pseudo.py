"""The pseudo-locale ``qps``: every English text made accented, 40 % longer and
bracketed, so that a test can see at a glance which words never came from a catalog
(plain ASCII English left among the pseudo words) and which pictures have no room for a
language with longer words (docs/i18n.md).

Placeholders, code spans (`/choose`), Discord's own syntax (``<@123>``, ``<t:1:R>``),
addresses and escapes are kept as they are; only letters outside them change.

>>> pseudo("Join {game} now: `/play`!")
'⟦ĴóíñĴó {game} ñóŵñó: `/play`!⟧'
"""

from __future__ import annotations

import math
import os
import re

PSEUDO = "qps"
"""The pseudo-locale's code (Discord's own pseudo-locale is ``qps-ploc``)."""
ENV = "CROUPIER_PSEUDO_LOCALE"
"""Set (to anything) in a process's environment to speak the pseudo-locale there."""
_ENABLED = [bool(os.environ.get(ENV))]

LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒğĥíĵķĺḿñóṕǫŕšţúṽŵẋýžÁƁÇĎÉƑĞĤÍĴĶĹḾÑÓṔǪŔŠŢÚṼŴẊÝŽ")
"""Each ASCII letter's accented stand-in: none of them is ASCII, so English left
untranslated stands out."""
KEPT = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>\s]*>|https?://\S+|\\.|:[a-z0-9_]+:")
"""What is not words: placeholders, code spans, Discord mentions and timestamps,
addresses, escapes and emoji names."""
WORD = re.compile(r"[A-Za-z]+")
LONGER = 0.4


def enable(on: bool = True) -> None:
    """Speak the pseudo-locale in this process: ``qps`` (and Discord's ``qps-ploc``)
    becomes a locale :func:`bot.i18n.supported` knows."""
    _ENABLED[0] = on


def enabled() -> bool:
    """Whether this process speaks the pseudo-locale."""
    return _ENABLED[0]


def _longer(match: re.Match[str]) -> str:
    word = match.group(0)
    extra = math.ceil(len(word) * LONGER)
    return (word + (word * 2)[:extra]).translate(LETTERS)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: its words accented and 40 % longer, the whole in
    ⟦brackets⟧ (see the module's example)."""
    out, last = [], 0
    for kept in KEPT.finditer(text):
        out.append(WORD.sub(_longer, text[last:kept.start()]))
        out.append(kept.group(0))
        last = kept.end()
    out.append(WORD.sub(_longer, text[last:]))
    return "⟦" + "".join(out) + "⟧"


__all__ = ["ENV", "PSEUDO", "enable", "enabled", "pseudo"]
