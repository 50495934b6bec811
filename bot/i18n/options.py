"""A game option's own words in the reader's language: its description and its choices'
labels, which the slash command ``/play <game>`` already publishes in every language
(the ``commands`` catalogs, ``command.play.<game>.<option>.description`` and
``….choice.<value>``). The one place these keys are made from data (a game's and an
option's name), so ``/rules`` and the lobby say an option as ``/play`` does.

>>> from rules.registry import games
>>> name, info = next(iter(games().items()))
>>> spec = info.options.specs()[0]
>>> option_description(name, spec.name, spec.description, "en") == spec.description
True
>>> option_description("nowhere", "x", "as declared", "pt_BR")
'as declared'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import DEFAULT, say, translate
from bot.i18n.catalogs import loaded

PLAY = "command.play."
"""Where ``/play``'s subcommands keep their words (one subcommand per game)."""


def _said(key: str, english: str, locale: str | None) -> str:
    """``key``'s text in ``locale`` when some catalog has it, else ``english`` (an option
    ``/play`` does not publish: a test's game, a list too long for Discord's choices)."""
    if key not in loaded(DEFAULT).entries:
        return english
    return translate(key, locale)


def option_description(game: str, option: str, english: str, locale: str | None = None) -> str:
    """What ``game``'s ``option`` is, in ``locale`` (``None``: the locale spoken)."""
    return _said(f"{PLAY}{game}.{option}.description", english, locale)


def choice_label(game: str, option: str, value: object, english: str,
                 locale: str | None = None) -> str:
    """How ``game``'s ``option`` names its choice ``value``, in ``locale``.

    >>> choice_label("nowhere", "x", 1, "one", "pt_BR")
    'one'
    """
    return _said(f"{PLAY}{game}.{option}.choice.{value}", english, locale)


def labeller(game: str) -> Callable[[Any, Any], str]:
    """``(spec, choice) -> label``: how ``game``'s options name their choices in the locale
    spoken (what :meth:`rules.options.OptionSpec.label_words` asks for)."""
    return lambda spec, value: choice_label(game, spec.name, value, spec.label(value))


def option_value(game: str, spec: Any, value: object) -> str:
    """``value`` of ``game``'s option ``spec`` (a :class:`rules.options.OptionSpec`) as
    the reader is told it, in the locale spoken: yes/no, a choice as ``/play`` names it.

    >>> from bot.i18n import speaking
    >>> from rules.options import OptionSpec
    >>> with speaking("pt_BR"):
    ...     option_value("nowhere", OptionSpec("teams", "yes/no", None, ""), True)
    'sim'
    """
    return say(spec.label_words(value, labeller(game)))
