"""Arcane Duel's collections at the local table: the person's starter, their daily
pack, their collection and their decks, and a game with a deck of their own.

These are the duel's :class:`~bot.terminal.table.LocalCommand` objects (the duel presenter's
``local_commands`` names this module), typed at the "Which game?" prompt and at a
duel's move prompt. Every one goes through :class:`~bot.duel.collections.CollectionService`
as the Discord commands do, for the local person (:data:`~bot.terminal.table.LOCAL_USER`) in
the local table's own "server", :data:`LOCAL_GUILD`: one collection per database file.

Every refusal is a :class:`~bot.errors.CroupierError` raised before anything is
written (the table shows it; only a pack's picture that cannot be written after all is
refused once its pack is opened). What is typed is repeated only through
:func:`~rules.errors.shown`, so escape codes and long lines come back quoted and short.
"""

from __future__ import annotations

import functools
import os
import stat
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from bot.duel.collections import (
    CollectionError,
    CollectionPage,
    CollectionService,
    CopyView,
    DeckView,
    card_list,
    deck_name,
    file_safe,
    wait_text,
)
from bot.errors import CroupierError
from bot.games.duel.autopass import auto_passing, autopass_value, said, set_auto_pass
from bot.i18n import say
from bot.terminal_parts.files import (
    PATH_SHOWN,
    Unwritable,
    check_new,
    data_folder,
    pictures_folder,
    target,
    write_new,
)
from bot.terminal_parts.screen import titled
from bot.terminal_parts.sitting import LocalCommand, LocalSitting
from rules.core import SeatSetup
from rules.duel.cards import COLOUR_NAMES, card_set
from rules.duel.decks import STARTERS
from rules.errors import shown
from rules.words import plural

LOCAL_GUILD = 0
"""The local table's "server" for collections (Discord's server ids are far larger):
whoever sits at this database's table owns these cards."""
IMPORT_BYTES = 64 * 1024
"""Largest deck-list file read by ``deck import`` (a deck list is some hundred bytes)."""
FILTERS = {"colour": "colour", "color": "colour", "type": "type", "rarity": "rarity",
           "edition": "edition", "name": "name", "sort": "sort", "page": "page"}
"""What ``collection`` takes as ``key=value``, spelt either way, to the service's keys."""
PAGE_DIGITS = 6
"""Longest page number read: more is refused before it is a number at all."""
LOCAL_WORDS = {"/deck create": "deck create", "on this server": "at this table"}
"""The service's refusals speak of Discord; here they say what to type at this table."""

Command = Callable[[LocalSitting, str], Awaitable[SeatSetup]]


def collections(sitting: LocalSitting) -> CollectionService:
    """The collections service over the table's storage and clock (a seam for tests,
    which seed its packs)."""
    return CollectionService(sitting.store, sitting.clock)


def at_this_table(run: Command) -> Command:
    """``run`` with the service's refusals in the local table's words."""
    @functools.wraps(run)
    async def worded(sitting: LocalSitting, rest: str) -> SeatSetup:
        try:
            return await run(sitting, rest)
        except CroupierError as refusal:
            said = str(refusal)
            for discord, here in LOCAL_WORDS.items():
                said = said.replace(discord, here)
            raise CollectionError(said) from None
    return worded


# -- starter -------------------------------------------------------------------------------
async def claim_starter(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``starter [name or number]``: claim one of the five starters, once; with none
    named, the five are listed and asked for."""
    typed = rest or await _ask_starter(sitting)
    if typed is None:
        sitting.screen.say("No starter claimed.", "hint")
        return None
    claimed = await collections(sitting).claim_starter(LOCAL_GUILD, sitting.user_id,
                                                       _starter_named(typed))
    sitting.screen.say(f"You claimed the {claimed.deck_name} starter: "
                       f"{plural(len(claimed.copies), 'card')} now in your collection, also "
                       f"saved as the deck {claimed.deck_name} (deck play {claimed.deck_name} "
                       "plays it).", "verdict")
    sitting.screen.show(deck_block(await collections(sitting).deck(
        LOCAL_GUILD, sitting.user_id, claimed.deck_name)))
    return None


def _starter_named(typed: str) -> str:
    """A starter's name from its number in the list (1–5) or its name as typed."""
    names = list(STARTERS)
    if typed.isascii() and typed.isdigit() and len(typed) <= 3 \
            and 1 <= int(typed) <= len(names):
        return names[int(typed) - 1]
    return typed


def starters_table() -> RenderableType:
    """The five starters, numbered, with their colours."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("n", justify="right")
    table.add_column("starter", style="bold")
    table.add_column("colours")
    for number, (name, pair) in enumerate(STARTERS.items(), start=1):
        table.add_row(str(number), name, " and ".join(COLOUR_NAMES[c] for c in pair))
    return titled("The starters (40 cards each; one per person):", table)


async def _ask_starter(sitting: LocalSitting) -> str | None:
    sitting.screen.show(starters_table())
    while True:
        answer = await sitting.ask(f"Which starter? 1–{len(STARTERS)} or its name "
                                   "(Enter: none) ")
        if not answer:
            return None
        if _starter_named(answer).casefold() in STARTERS:
            return answer
        sitting.screen.warn(f"{shown(answer)} is not one of 1–{len(STARTERS)} or a "
                            f"starter's name ({', '.join(STARTERS)}).")


# -- pack ----------------------------------------------------------------------------------
async def open_pack(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``pack [file]``: open the daily pack and list it, rarest first; with a file
    (or a folder), save its picture there too. A path the picture could not be
    saved at is refused before the pack is opened."""
    default = time.strftime("croupier-pack-%Y%m%d-%H%M%S.png",
                            time.localtime(sitting.clock.now()))
    folder = pictures_folder(sitting.store.db.path)
    try:
        path = check_new(target(rest, default, folder, suffix=".png"), folder=folder) \
            if rest else None
    except Unwritable as refusal:
        raise CollectionError(f"{refusal} Nothing was done.") from None
    opened = await collections(sitting).open_daily_pack(LOCAL_GUILD, sitting.user_id)
    sitting.screen.show(pack_block(opened.copies))
    if opened.next_claim_at is not None:
        wait = say(wait_text(opened.next_claim_at - sitting.clock.now()))
        sitting.screen.say(f"Your next daily pack is due in {wait}.", "hint")
    if path is not None:
        _save_pack_picture(sitting, opened.copies, path)
    return None


def pack_block(copies: tuple[CopyView, ...]) -> RenderableType:
    """A pack as a table, in the order given (rarest first), limited copies with
    their serial: "#37 of 500"."""
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column in ("card", "rarity", "edition", "type", "colour"):
        table.add_column(column)
    for copy in copies:
        data = card_set()[copy.card]
        edition = ("unlimited" if copy.serial is None else f"#{copy.serial}"
                   + (f" of {copy.run_size}" if copy.run_size else ""))
        table.add_row(Text(copy.card, style="bold"), copy.rarity, edition, data.type,
                      _colour(data.colour))
    return titled(f"Your pack: {plural(len(copies), 'card')}, rarest first", table, "verdict")


def _save_pack_picture(sitting: LocalSitting, copies: tuple[CopyView, ...],
                       path: Path) -> None:
    # Imported here: the picture brings Pillow and the card faces, needed only now.
    from bot.games.duel.collection import render_pack

    picture = render_pack([(c.card, "unlimited" if c.serial is None else "limited",
                            c.serial, c.run_size) for c in copies])
    try:
        write_new(path, picture)
    except Unwritable as refusal:  # a full disk, say: the pack is opened all the same
        sitting.screen.warn(f"{refusal} The pack is in your collection; its picture was "
                            "not saved.")
        return
    sitting.screen.say(f"Pack picture saved to {path} ({len(picture) // 1024 + 1} KB).",
                       "hint")


# -- collection ----------------------------------------------------------------------------
async def show_collection(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``collection [name words] [colour=…] [type=…] [rarity=…] [edition=…] [sort=…]
    [page=N]``: a page of the person's collection."""
    asked = collection_filters(rest)
    page = await collections(sitting).collection(
        LOCAL_GUILD, sitting.user_id, sitting.user_id, **asked)
    sitting.screen.show(collection_block(page, asked))
    if page.page < page.pages:
        again = " ".join(f"{k}={v}" for k, v in asked.items() if k != "page")
        sitting.screen.say(f"More: collection {again + ' ' if again else ''}"
                           f"page={page.page + 1}", "hint")
    return None


def collection_filters(typed: str) -> dict[str, Any]:
    """The service's keywords from ``kessa pyrewyrm rarity=rare sort=count page=2``:
    words before any ``key=`` name the card, and a value runs to the next ``key=``
    (so ``type=artifact creature`` is one value).

    >>> collection_filters("radiant type=artifact creature page=2")
    {'name': 'radiant', 'type': 'artifact creature', 'page': 2}
    """
    given: dict[str, list[str]] = {}
    key = "name"
    for word in typed.split():
        name, equals, value = word.partition("=")
        if equals:
            key = FILTERS.get(name.lower(), "")
            if not key:
                keys = ", ".join(dict.fromkeys(FILTERS.values()))
                raise CollectionError(f"collection takes {keys} as key=value, not "
                                      f"{shown(name)}.")
            if key in given:
                raise CollectionError(f"{key} is given twice.")
            given[key] = [value] if value else []
        else:
            given.setdefault(key, []).append(word)
    asked: dict[str, Any] = {k: " ".join(words) for k, words in given.items()}
    if "type" in asked:
        asked["type"] = asked["type"].replace("-", " ").replace("_", " ")
    if "page" in asked:
        page = asked["page"]
        if not (page.isascii() and page.isdigit() and 0 < len(page) <= PAGE_DIGITS):
            raise CollectionError(f"A page is a whole number such as 2, not {shown(page)}.")
        asked["page"] = int(page)
    return asked


def collection_block(page: CollectionPage, asked: Mapping[str, Any]) -> RenderableType:
    """A collection page as a table, or what to do when it is empty."""
    filtered = {k: v for k, v in asked.items() if k not in ("sort", "page")}
    if not page.rows:
        if filtered:
            said = ", ".join(f"{k} {shown(v)}" for k, v in filtered.items())
            return Text(f"No card in your collection matches {said}.")
        return Text("Your collection is empty: starter claims a starter deck (once), "
                    "pack opens the daily pack.")
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column in ("card", "colour", "type", "rarity", "copies", "editions"):
        table.add_column(column, justify="right" if column == "copies" else "left")
    for row in page.rows:
        editions = [f"{row.unlimited} unlimited"] if row.unlimited else []
        if row.serials:
            editions.append(say(row.serials_text))
        locked = f" ({row.count - row.free} locked)" if row.free < row.count else ""
        table.add_row(Text(row.card, style="bold"), _colour(row.colour), row.type, row.rarity,
                      f"{row.count}{locked}", "; ".join(editions))
    which = " matching " + ", ".join(f"{k} {shown(v)}" for k, v in filtered.items()) \
        if filtered else ""
    return titled(f"Your collection{which}: {plural(page.cards, 'card')}, "
                  f"{page.copies} {'copy' if page.copies == 1 else 'copies'} (page {page.page} of "
                  f"{page.pages})", table)


def _colour(colour: str | None) -> str:
    return COLOUR_NAMES.get(colour or "", "colourless")


# -- decks ---------------------------------------------------------------------------------
async def decks(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck [list|show|create|add|remove|delete|import|export|play] …``."""
    action, _, after = rest.strip().partition(" ")
    handler = DECK_ACTIONS.get(action.lower() or "list")
    if handler is None:
        raise CollectionError(f"deck takes {', '.join(DECK_ACTIONS)}, not {shown(action)} "
                              "(help shows how).")
    return await handler(sitting, after.strip())


async def deck_list(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck list``: every saved deck, and whether it can be played."""
    if rest:
        raise CollectionError(f"deck list takes nothing more, not {shown(rest)}.")
    saved = await collections(sitting).decks(LOCAL_GUILD, sitting.user_id)
    if not saved:
        sitting.screen.say("You have no decks yet: starter gives you one; deck create "
                           "NAME: 4 Kindlewhip, … builds one.")
        return None
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column in ("deck", "cards", "ready?"):
        table.add_column(column, justify="right" if column == "cards" else "left")
    for view in saved:
        table.add_row(Text(view.name, style="bold"), str(view.total),
                      Text("ready to play" if view.problem is None else say(view.problem)))
    sitting.screen.show(titled(f"Your decks ({len(saved)}):", table))
    return None


async def deck_show(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck show NAME``: the deck's cards, and what keeps it from play."""
    sitting.screen.show(deck_block(await collections(sitting).deck(
        LOCAL_GUILD, sitting.user_id, rest)))
    return None


def deck_block(view: DeckView) -> RenderableType:
    """A deck's cards as a table under its name and whether it can be played."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column("count", justify="right")
    table.add_column("card", style="bold")
    table.add_column("type")
    table.add_column("colour")
    for name, count in sorted(view.cards.items(), key=lambda item: (
            card_set()[item[0]].type == "land", item[0])):
        data = card_set()[name]
        table.add_row(f"{count}×", name, data.type, _colour(data.colour))
    state = ("ready to play" if view.problem is None
             else f"not playable yet: {say(view.problem)}")
    return titled(f"Deck {view.name}: {plural(view.total, 'card')}; {state}", table,
                  "verdict" if view.problem is None else "warning")


async def deck_create(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck create NAME: CARDS``: a new deck (or, once confirmed, a replaced one)."""
    name, cards = await _name_and(sitting, rest, "Cards for {name} (e.g. 4 Kindlewhip, 17 "
                                  "Ashpeak; Enter: none) ")
    if cards is None:
        return _nothing(sitting)
    card_list(cards, "deck list")  # read before asking to replace: a bad list asks nothing
    if not await _may_replace(sitting, name):
        return _nothing(sitting)
    view = await collections(sitting).save_deck(LOCAL_GUILD, sitting.user_id, name, cards)
    sitting.screen.show(deck_block(view))
    return None


async def deck_add(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck add NAME: CARDS``: more cards in a saved deck."""
    name, cards = await _name_and(sitting, rest, "Cards to add to {name} (Enter: none) ")
    if cards is None:
        return _nothing(sitting)
    sitting.screen.show(deck_block(await collections(sitting).add_cards(
        LOCAL_GUILD, sitting.user_id, name, cards)))
    return None


async def deck_remove(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck remove NAME: CARDS``: fewer cards in a saved deck."""
    name, cards = await _name_and(sitting, rest, "Cards to take out of {name} (Enter: none) ")
    if cards is None:
        return _nothing(sitting)
    sitting.screen.show(deck_block(await collections(sitting).remove_cards(
        LOCAL_GUILD, sitting.user_id, name, cards)))
    return None


async def deck_delete(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck delete NAME``, once confirmed (the cards stay in the collection)."""
    view = await collections(sitting).deck(LOCAL_GUILD, sitting.user_id, rest)
    if not await sitting.ask_yes(f"Delete the deck {view.name} ({plural(view.total, 'card')}; "
                                 "your cards stay in your collection)? [y/N] ", False,
                                 "y deletes the deck, n keeps it."):
        return _nothing(sitting)
    deleted = await collections(sitting).delete_deck(LOCAL_GUILD, sitting.user_id, view.name)
    sitting.screen.say(f"Deck {deleted} deleted.", "hint")
    return None


async def deck_import(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck import NAME: FILE``: a deck from a deck-list file ("4 Kindlewhip" a line)."""
    name, typed = await _name_and(sitting, rest, "File to read {name} from (Enter: none) ")
    if typed is None:
        return _nothing(sitting)
    text = read_deck_file(typed, data_folder(sitting.store.db.path))
    card_list(text, "deck list")
    if not await _may_replace(sitting, name):
        return _nothing(sitting)
    view = await collections(sitting).save_deck(LOCAL_GUILD, sitting.user_id, name, text)
    sitting.screen.show(deck_block(view))
    return None


def read_deck_file(typed: str, folder: Path) -> str:
    """The text of a deck-list file (UTF-8, at most :data:`IMPORT_BYTES`), found as
    :func:`bot.terminal_parts.files.target` places files (a bare name in ``folder``, the data
    folder, where ``deck export`` saves one), or a :class:`CollectionError` saying why
    it cannot be read."""
    path = target(typed, "", folder, suffix=".txt")
    said = shown(str(path), PATH_SHOWN)
    try:
        # A regular file only: a folder, a pipe or a device would block or never end.
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise CollectionError(f"{said} is not a file.")
        with open(path, "rb") as source:
            data = source.read(IMPORT_BYTES + 1)
    except FileNotFoundError:
        raise CollectionError(f"There is no file {said}.") from None
    except PermissionError:
        raise CollectionError(f"No permission to read {said}.") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or "it cannot be read"
        raise CollectionError(f"Cannot read {said}: {reason}.") from None
    if len(data) > IMPORT_BYTES:
        raise CollectionError(f"{said} is larger than {IMPORT_BYTES // 1024} KB: a deck "
                              "list is one card a line, such as 4 Kindlewhip.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CollectionError(f"{said} is not UTF-8 text.") from None


async def deck_export(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck export NAME [FILE]`` (or ``NAME: FILE``): the deck as a plain list,
    shown, and with a file, saved there as ``deck import`` reads it (a bare file name
    goes in the data folder, beside the database; a folder gets ``NAME.txt``)."""
    service = collections(sitting)
    name, typed = await _deck_and_file(sitting, rest)
    text = await service.export_deck(LOCAL_GUILD, sitting.user_id, name)
    saved = (await service.deck(LOCAL_GUILD, sitting.user_id, name)).name
    if typed is None:
        sitting.screen.say(f"Deck {saved} (deck import reads this list back; deck export "
                           f"{saved} FILE saves it to a file):", "heading")
        sitting.screen.say(text)
        return None
    folder = data_folder(sitting.store.db.path)
    try:
        path = check_new(target(typed, f"{file_safe(saved)}.txt", folder, suffix=".txt"),
                         folder=folder)
        write_new(path, (text + "\n").encode("utf-8"))
    except Unwritable as refusal:
        raise CollectionError(f"{refusal} Nothing was saved.") from None
    sitting.screen.say(f"Deck {saved} saved to {path} (deck import {saved}: {path} reads it "
                       "back).", "hint")
    return None


async def _deck_and_file(sitting: LocalSitting, rest: str) -> tuple[str, str | None]:
    """``NAME: FILE``, ``NAME FILE`` or ``NAME`` split: a deck's name may hold spaces,
    so without a colon the longest first words that name a saved deck are its name."""
    typed, colon, after = rest.partition(":")
    if colon:
        return deck_name(typed), after.strip() or None
    words = rest.split()
    names = {name.casefold() for name in await collections(sitting).deck_names(
        LOCAL_GUILD, sitting.user_id)}
    for end in range(len(words), 0, -1):
        if " ".join(words[:end]).casefold() in names:
            return " ".join(words[:end]), " ".join(words[end:]) or None
    return deck_name(rest), None  # no such deck: the service says which there are


async def deck_play(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck play NAME``: a new game against the computer with this deck, once it is
    legal and every card in it is owned and free."""
    cards = await collections(sitting).deck_for_duel(LOCAL_GUILD, sitting.user_id, rest)
    sitting.screen.say(f"Your deck {deck_name(rest)} ({plural(len(cards), 'card')}) is "
                       "ready: the computer players bring starters.", "hint")
    return {"deck": list(cards)}


DECK_ACTIONS: Mapping[str, Command] = {
    "list": deck_list, "show": deck_show, "create": deck_create, "add": deck_add,
    "remove": deck_remove, "delete": deck_delete, "import": deck_import,
    "export": deck_export, "play": deck_play,
}


async def _name_and(sitting: LocalSitting, rest: str, question: str
                    ) -> tuple[str, str | None]:
    """``NAME: more`` split, the name checked; without the colon, ``question`` asks
    for the rest (``None``: nothing given)."""
    typed, colon, more = rest.partition(":")
    name = deck_name(typed)
    if colon:
        return name, more.strip() or None
    answer = await sitting.ask(question.format(name=name))
    return name, answer or None


async def _may_replace(sitting: LocalSitting, name: str) -> bool:
    """Whether deck ``name`` may be written: it is new, or the person says to replace it."""
    existing = {view.name.casefold(): view for view in await collections(sitting).decks(
        LOCAL_GUILD, sitting.user_id)}
    same = existing.get(name.casefold())  # names ignore case: Burn is burn
    if same is None:
        return True
    cards = plural(same.total, "card")
    return await sitting.ask_yes(f"Replace your deck {same.name} ({cards})? [y/N] ", False,
                                 "y replaces it, n keeps it.")


def _nothing(sitting: LocalSitting) -> SeatSetup:
    sitting.screen.say("Nothing changed.", "hint")
    return None


# -- automatic passing ---------------------------------------------------------------------
async def autopass(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``autopass [on|off]``: during a duel, turn automatic passing on or off for your
    seat (kept with the game: a saved game goes on with it); alone, say how it is."""
    match = sitting.match
    if sitting.service is None or match is None or not match.playing \
            or match.info.name != "duel" or match.seat_of(sitting.user_id) is None:
        raise CollectionError("autopass is for a duel being played: type it at the duel's "
                              "move prompt (a new duel's option auto_pass sets it from the "
                              "start).")
    seat = match.seat_of(sitting.user_id)
    assert seat is not None
    if not rest:
        sitting.screen.say(said(auto_passing(match, seat.seat)) + " (autopass on|off "
                           "changes it.)", "hint")
        return None
    on = autopass_value(rest)
    await set_auto_pass(sitting.service, match, sitting.user_id, on)
    sitting.screen.say(said(on), "hint")
    return None


READS: Mapping[str, Callable[[str], object]] = {"autopass": autopass_value}
"""How the commands that take a value read it (the docs test reads the README's
examples with these)."""


LOCAL_COMMANDS = (
    LocalCommand("starter", "starter [name or 1–5]",
                 "claim a starter deck, once (with none named, the five are listed)",
                 at_this_table(claim_starter)),
    LocalCommand("pack", "pack [file]",
                 "open your daily pack; with a file or folder, save its picture there too",
                 at_this_table(open_pack)),
    LocalCommand("collection", "collection [name] [colour=…] [type=…] [rarity=…]\n"
                 "collection … [edition=limited|unlimited] [sort=name|colour|rarity|count] "
                 "[page=N]", "the cards you own, 20 a page", at_this_table(show_collection)),
    LocalCommand("deck", "deck list\ndeck show|delete|play NAME\n"
                 "deck create|add|remove NAME: 4 Kindlewhip, 17 Ashpeak\n"
                 "deck import NAME: FILE\ndeck export NAME [FILE]",
                 "your decks: build them, see what keeps one from play, share them as "
                 "lists; play starts a game with one (at the Which game? prompt)",
                 at_this_table(decks)),
    LocalCommand("autopass", "autopass [on|off]",
                 "during a duel: pass by itself where you can play nothing (on), or be "
                 "asked in every window (off); alone, says which",
                 at_this_table(autopass)),
)
"""The duel's commands at the local table."""
