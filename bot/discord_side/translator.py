"""The slash commands' words in every language: discord.py's ``app_commands.Translator``
over the ``commands`` catalogs of :mod:`bot.i18n` (docs/i18n-commands.md).

Each string is looked up by a key made from where it stands, never by its English text:
``command.<command path>.description``, ``command.<path>.<option>.description`` and
``command.<path>.<option>.choice.<value>`` (the path is the command's qualified name,
dotted: ``command.tournament.create.format.choice.swiss``). No cog spells a key, so no
command can be left without one; the English in the code is what Discord shows by
default, and ``locales/en/LC_MESSAGES/commands.po`` is kept equal to it (``python -m
bot.discord_side.command_catalog`` rewrites it). Command and option *names* stay English in
every language (the decision in docs/i18n-commands.md): a ``….name`` entry would be
published, but no catalog has one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, catalog, locale_of

DOMAIN = "commands"
"""The catalogs of the slash commands' words."""
PREFIX = "command."
"""Every key of the ``commands`` domain starts so (one key space with ``messages``)."""

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def path_of_command(command: AnyCommand | app_commands.ContextMenu) -> str:
    """A command's key path: its qualified name, dotted (``tournament.create``)."""
    return PREFIX + command.qualified_name.replace(" ", ".")


def option_path(parameter: app_commands.Parameter) -> str:
    """An option's key path: its command's, then its name as Discord knows it."""
    return f"{path_of_command(parameter.command)}.{parameter.display_name}"


def choice_key(parameter: app_commands.Parameter, choice: app_commands.Choice[Any]) -> str:
    """A choice's key: its option's path, then its value (not its English name)."""
    return f"{option_path(parameter)}.choice.{choice.value}"


def texts(commands: Iterable[AnyCommand]) -> Iterator[tuple[str, str]]:
    """Every translatable text of ``commands`` (a tree's walk) as (key, English text):
    descriptions of commands, groups and options, and choice names."""
    for command in commands:
        yield f"{path_of_command(command)}.description", str(command.description)
        if isinstance(command, app_commands.Group):
            continue
        for parameter in command.parameters:
            yield f"{option_path(parameter)}.description", str(parameter.description)
            for choice in parameter.choices:
                yield choice_key(parameter, choice), choice.name


class CommandTranslator(app_commands.Translator):
    """Looks each command string up in the locale's ``commands`` catalog by its key.

    English (the default locale) is the text in the code, so nothing is published for
    it; for another locale, the catalog's text, or nothing when it lacks the key (Discord
    then shows the default). A choice does not know its option, so the translator finds
    it in ``tree`` by identity."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.tree = tree
        self._choices: dict[int, tuple[app_commands.Choice[Any], str | None]] = {}

    def _index_choices(self) -> None:
        # The choice objects are kept with their keys, so an id is never reused. A choice
        # object two options share has no one key: it is published untranslated, which
        # tests/test_command_translations.py reports.
        found: dict[int, tuple[app_commands.Choice[Any], str | None]] = {}
        for command in self.tree.walk_commands():
            if not isinstance(command, app_commands.Command):
                continue
            for parameter in command.parameters:
                for choice in parameter.choices:
                    key = choice_key(parameter, choice)
                    if id(choice) in found and found[id(choice)][1] != key:
                        key = None
                    found[id(choice)] = (choice, key)
        self._choices = found

    def key_of(self, context: app_commands.TranslationContextTypes) -> str | None:
        """The catalog key of the string at ``context`` (``None``: none of ours)."""
        data: Any = context.data
        location = context.location
        if location in (Where.command_name, Where.group_name):
            return f"{path_of_command(data)}.name"
        if location in (Where.command_description, Where.group_description):
            return f"{path_of_command(data)}.description"
        if location is Where.parameter_name:
            return f"{option_path(data)}.name"
        if location is Where.parameter_description:
            return f"{option_path(data)}.description"
        if location is Where.choice_name:
            if id(data) not in self._choices:
                self._index_choices()
            found = self._choices.get(id(data))
            return found[1] if found is not None and found[0] is data else None
        return None

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The text of ``string`` in ``locale``, or ``None`` to keep the default."""
        ours = _catalog_for(locale.value)
        if ours is None:
            return None
        key = self.key_of(context)
        return None if key is None else text_in(key, ours)


@lru_cache(maxsize=64)
def _catalog_for(value: str) -> str | None:
    """The catalog of ours written for Discord's locale ``value`` exactly, if not the
    default's: Portuguese from Portugal (Discord has no ``pt-PT`` yet) would not get
    Brazilian words by the language alone. Asked for every string of every command in
    every locale Discord has at each sync, so remembered.

    >>> _catalog_for("pt-BR"), _catalog_for("en-US"), _catalog_for("ja")
    ('pt_BR', None, None)
    """
    ours = locale_of(value)
    exactly = value.replace("-", "_").lower() == ours.lower()
    return ours if ours != DEFAULT and exactly else None


def text_in(key: str, locale: str) -> str | None:
    """``key``'s text in ``locale``'s ``commands`` catalog, or ``None`` if untranslated."""
    message = catalog(DOMAIN, locale).get(key)
    if message is None or not message.string or isinstance(message.string, tuple | list):
        return None
    return str(message.string)
