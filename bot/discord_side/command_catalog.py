"""The English ``commands`` catalog, written from the commands themselves, and what
every other locale's lacks: ``python -m bot.discord_side.command_catalog`` (exit 1 when a
locale misses a key or has one no command uses). docs/i18n-commands.md."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TypeVar

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.config import Settings
from bot.discord_side.client import CroupierBot
from bot.discord_side.translator import DOMAIN, AnyCommand, texts
from bot.i18n import DEFAULT, LOCALES, catalog
from bot.i18n.catalogs import path_of
from rules.registry import shipped_only

T = TypeVar("T")


async def with_tree(use: Callable[[CroupierBot], Awaitable[T]]) -> T:
    """``use(bot)`` on a bot set up offline (a throwaway database, no connection, nothing
    synced): every command the bot publishes is in its tree."""
    with tempfile.TemporaryDirectory() as folder, shipped_only():
        bot = CroupierBot(Settings(_env_file=None, database=str(Path(folder) / "tree.sqlite3")),
                          sync_commands=False)
        try:
            await bot.setup_hook()
            return await use(bot)
        finally:
            await bot.close()


async def command_tree() -> list[AnyCommand]:
    """Every command the bot publishes (a tree's walk): what the catalogs must cover."""
    async def walk(bot: CroupierBot) -> list[AnyCommand]:
        return list(bot.tree.walk_commands())
    return await with_tree(walk)


HEADER = """\
# Croupier's slash commands, English (docs/i18n-commands.md): written by
# `python -m bot.discord_side.command_catalog` from the commands themselves; do not edit.
msgid ""
msgstr ""
"Project-Id-Version: Croupier\\n"
"Language: en\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

"""
"""The English catalog's header (fixed, so that rewriting it changes nothing)."""


def english_catalog(found: Iterable[tuple[str, str]]) -> Catalog:
    """The English ``commands`` catalog of these (key, text) pairs."""
    fresh = Catalog(locale=DEFAULT, domain=DOMAIN, fuzzy=False)
    for key, text in sorted(found):
        fresh.add(key, text)
    return fresh


def main() -> int:
    """Rewrite the English catalog from the commands, and list what each other locale
    lacks or has too many of (exit 1 if anything)."""
    found = dict(texts(asyncio.run(command_tree())))
    with path_of(DOMAIN, DEFAULT).open("wb") as file:
        file.write(HEADER.encode())
        write_po(file, english_catalog(found.items()), width=0, omit_header=True,
                 sort_output=True)
    status = 0
    for locale in LOCALES:
        if locale == DEFAULT:
            continue
        have = {str(m.id) for m in catalog(DOMAIN, locale) if m.id and m.string}
        for key in sorted(found.keys() - have):
            print(f"{locale}: missing {key}: {found[key]}")
            status = 1
        for key in sorted(have - found.keys()):
            print(f"{locale}: unused {key}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
