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
from rich.text import Text as RichText

from bot.duel.card_words import rarity_words
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
from bot.errors import said as refusal_said
from bot.games.duel.autopass import auto_passing, autopass_value, said, set_auto_pass
from bot.i18n import Phrase, Text, say, tr, trn
from bot.i18n.cards import card_name
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
from rules.duel.cards import card_set
from rules.duel.decks import STARTERS
from rules.duel.phrasing import card_type, colour, listed
from rules.errors import shown

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


def local_words() -> dict[str, str]:
    """The service's refusals speak of Discord; here they say what to type at this
    table (in the locale spoken)."""
    return {"/deck create": "deck create",
            tr("duel.local.on_this_server"): tr("duel.local.at_this_table")}

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
            words = refusal_said(refusal, None)
            for discord, here in local_words().items():
                words = words.replace(discord, here)
            raise CollectionError(words) from None
    return worded


# -- starter -------------------------------------------------------------------------------
async def claim_starter(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``starter [name or number]``: claim one of the five starters, once; with none
    named, the five are listed and asked for."""
    typed = rest or await _ask_starter(sitting)
    if typed is None:
        sitting.screen.say(tr("duel.local.no_starter"), "hint")
        return None
    claimed = await collections(sitting).claim_starter(LOCAL_GUILD, sitting.user_id,
                                                       _starter_named(typed))
    sitting.screen.say(trn("duel.local.claimed", len(claimed.copies), deck=claimed.deck_name),
                       "verdict")
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
        table.add_row(str(number), name, say(listed([colour(c) for c in pair], last="and")))
    return titled(tr("duel.local.starters"), table)


async def _ask_starter(sitting: LocalSitting) -> str | None:
    sitting.screen.show(starters_table())
    while True:
        answer = await sitting.ask(tr("duel.local.which_starter", most=len(STARTERS)))
        if not answer:
            return None
        if _starter_named(answer).casefold() in STARTERS:
            return answer
        sitting.screen.warn(tr("duel.local.not_a_starter", given=shown(answer),
                               most=len(STARTERS), starters=", ".join(STARTERS)))


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
        raise CollectionError(tr("duel.local.nothing_done", refusal=str(refusal))) from None
    opened = await collections(sitting).open_daily_pack(LOCAL_GUILD, sitting.user_id)
    sitting.screen.show(pack_block(opened.copies))
    if opened.next_claim_at is not None:
        wait = say(wait_text(opened.next_claim_at - sitting.clock.now()))
        sitting.screen.say(tr("duel.local.next_pack", wait=wait), "hint")
    if path is not None:
        _save_pack_picture(sitting, opened.copies, path)
    return None


def pack_block(copies: tuple[CopyView, ...]) -> RenderableType:
    """A pack as a table, in the order given (rarest first), limited copies with
    their serial: "#37 of 500"."""
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column in (tr("duel.local.column.card"), tr("duel.local.column.rarity"),
                   tr("duel.local.column.edition"), tr("duel.local.column.type"),
                   tr("duel.local.column.colour")):
        table.add_column(column)
    for copy in copies:
        data = card_set()[copy.card]
        edition = (tr("duel.local.unlimited") if copy.serial is None
                   else tr("duel.local.serial_of", serial=copy.serial, run=copy.run_size)
                   if copy.run_size else f"#{copy.serial}")
        table.add_row(RichText(card_name(copy.card), style="bold"), rarity_words(copy.rarity),
                      edition, say(card_type(data.type)), _colour(data.colour))
    return titled(trn("duel.local.pack", len(copies)), table, "verdict")


def _save_pack_picture(sitting: LocalSitting, copies: tuple[CopyView, ...],
                       path: Path) -> None:
    # Imported here: the picture brings Pillow and the card faces, needed only now.
    from bot.games.duel.collection import render_pack

    picture = render_pack([(c.card, "unlimited" if c.serial is None else "limited",
                            c.serial, c.run_size) for c in copies])
    try:
        write_new(path, picture)
    except Unwritable as refusal:  # a full disk, say: the pack is opened all the same
        sitting.screen.warn(tr("duel.local.picture_not_saved", refusal=str(refusal)))
        return
    sitting.screen.say(tr("duel.local.picture_saved", path=str(path),
                          size=len(picture) // 1024 + 1), "hint")


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
        sitting.screen.say(tr("duel.local.more", typed=f"collection {again + ' ' if again else ''}"
                                                         f"page={page.page + 1}"), "hint")
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
                raise CollectionError(Text("duel.local.filter_keys", keys=keys,
                                           given=shown(name)))
            if key in given:
                raise CollectionError(Text("duel.local.filter_twice", key=key))
            given[key] = [value] if value else []
        else:
            given.setdefault(key, []).append(word)
    asked: dict[str, Any] = {k: " ".join(words) for k, words in given.items()}
    if "type" in asked:
        asked["type"] = asked["type"].replace("-", " ").replace("_", " ")
    if "page" in asked:
        page = asked["page"]
        if not (page.isascii() and page.isdigit() and 0 < len(page) <= PAGE_DIGITS):
            raise CollectionError(Text("duel.local.page_number", given=shown(page)))
        asked["page"] = int(page)
    return asked


def collection_block(page: CollectionPage, asked: Mapping[str, Any]) -> RenderableType:
    """A collection page as a table, or what to do when it is empty."""
    filtered = {k: v for k, v in asked.items() if k not in ("sort", "page")}
    if not page.rows:
        if filtered:
            asked_for = ", ".join(f"{k} {shown(v)}" for k, v in filtered.items())
            return RichText(tr("duel.local.no_match", asked=asked_for))
        return RichText(tr("duel.local.collection_empty"))
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column, right in ((tr("duel.local.column.card"), False),
                          (tr("duel.local.column.colour"), False),
                          (tr("duel.local.column.type"), False),
                          (tr("duel.local.column.rarity"), False),
                          (tr("duel.local.column.copies"), True),
                          (tr("duel.local.column.editions"), False)):
        table.add_column(column, justify="right" if right else "left")
    for row in page.rows:
        editions = [trn("duel.local.unlimited_copies", row.unlimited)] if row.unlimited else []
        if row.serials:
            editions.append(say(row.serials_text))
        locked = trn("duel.local.locked", row.count - row.free, copies=row.count) \
            if row.free < row.count else str(row.count)
        table.add_row(RichText(card_name(row.card), style="bold"), _colour(row.colour),
                      say(card_type(row.type)), rarity_words(row.rarity), locked,
                      "; ".join(editions))
    copies = trn("duel.local.copies", page.copies)
    heading = (trn("duel.local.collection_matching", page.cards, asked=", ".join(
        f"{k} {shown(v)}" for k, v in filtered.items()), copies=copies, page=page.page,
        pages=page.pages) if filtered else
        trn("duel.local.collection", page.cards, copies=copies, page=page.page,
            pages=page.pages))
    return titled(heading, table)


def _colour(code: str | None) -> str:
    return say(colour(code)) if code else tr("duel.local.colourless")


# -- decks ---------------------------------------------------------------------------------
async def decks(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck [list|show|create|add|remove|delete|import|export|play] …``."""
    action, _, after = rest.strip().partition(" ")
    handler = DECK_ACTIONS.get(action.lower() or "list")
    if handler is None:
        raise CollectionError(Text("duel.local.deck_actions", actions=", ".join(DECK_ACTIONS),
                                   given=shown(action)))
    return await handler(sitting, after.strip())


async def deck_list(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck list``: every saved deck, and whether it can be played."""
    if rest:
        raise CollectionError(Text("duel.local.deck_list_more", given=shown(rest)))
    saved = await collections(sitting).decks(LOCAL_GUILD, sitting.user_id)
    if not saved:
        sitting.screen.say(tr("duel.local.no_decks"))
        return None
    table = Table(box=None, padding=(0, 2, 0, 0))
    for column, right in ((tr("duel.local.column.deck"), False),
                          (tr("duel.local.column.cards"), True),
                          (tr("duel.local.column.ready"), False)):
        table.add_column(column, justify="right" if right else "left")
    for view in saved:
        table.add_row(RichText(view.name, style="bold"), str(view.total),
                      RichText(tr("duel.local.ready") if view.problem is None
                               else say(view.problem)))
    sitting.screen.show(titled(tr("duel.local.decks", decks=len(saved)), table))
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
        table.add_row(f"{count}×", card_name(name), say(card_type(data.type)),
                      _colour(data.colour))
    state = (tr("duel.local.ready") if view.problem is None
             else tr("duel.local.not_playable", problem=say(view.problem)))
    return titled(trn("duel.local.deck", view.total, deck=view.name, state=state), table,
                  "verdict" if view.problem is None else "warning")


async def deck_create(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck create NAME: CARDS``: a new deck (or, once confirmed, a replaced one)."""
    name, cards = await _name_and(sitting, rest, "create")
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
    name, cards = await _name_and(sitting, rest, "add")
    if cards is None:
        return _nothing(sitting)
    sitting.screen.show(deck_block(await collections(sitting).add_cards(
        LOCAL_GUILD, sitting.user_id, name, cards)))
    return None


async def deck_remove(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck remove NAME: CARDS``: fewer cards in a saved deck."""
    name, cards = await _name_and(sitting, rest, "remove")
    if cards is None:
        return _nothing(sitting)
    sitting.screen.show(deck_block(await collections(sitting).remove_cards(
        LOCAL_GUILD, sitting.user_id, name, cards)))
    return None


async def deck_delete(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck delete NAME``, once confirmed (the cards stay in the collection)."""
    view = await collections(sitting).deck(LOCAL_GUILD, sitting.user_id, rest)
    if not await sitting.ask_yes(trn("duel.local.delete", view.total, deck=view.name), False,
                                 tr("duel.local.delete_means")):
        return _nothing(sitting)
    deleted = await collections(sitting).delete_deck(LOCAL_GUILD, sitting.user_id, view.name)
    sitting.screen.say(tr("duel.local.deleted", deck=deleted), "hint")
    return None


async def deck_import(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck import NAME: FILE``: a deck from a deck-list file ("4 Kindlewhip" a line)."""
    name, typed = await _name_and(sitting, rest, "import")
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
            raise CollectionError(Text("duel.local.file.not_a_file", path=said))
        with open(path, "rb") as source:
            data = source.read(IMPORT_BYTES + 1)
    except FileNotFoundError:
        raise CollectionError(Text("duel.local.file.none", path=said)) from None
    except PermissionError:
        raise CollectionError(Text("duel.local.file.permission", path=said)) from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None)
        raise CollectionError(Text("duel.local.file.unreadable_because", path=said,
                                   reason=reason) if reason else
                              Text("duel.local.file.unreadable", path=said)) from None
    if len(data) > IMPORT_BYTES:
        raise CollectionError(Text("duel.local.file.too_big", path=said,
                                   size=IMPORT_BYTES // 1024))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CollectionError(Text("duel.local.file.not_utf8", path=said)) from None


async def deck_export(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``deck export NAME [FILE]`` (or ``NAME: FILE``): the deck as a plain list,
    shown, and with a file, saved there as ``deck import`` reads it (a bare file name
    goes in the data folder, beside the database; a folder gets ``NAME.txt``)."""
    service = collections(sitting)
    name, typed = await _deck_and_file(sitting, rest)
    text = await service.export_deck(LOCAL_GUILD, sitting.user_id, name)
    saved = (await service.deck(LOCAL_GUILD, sitting.user_id, name)).name
    if typed is None:
        sitting.screen.say(tr("duel.local.export_heading", deck=saved), "heading")
        sitting.screen.say(text)
        return None
    folder = data_folder(sitting.store.db.path)
    try:
        path = check_new(target(typed, f"{file_safe(saved)}.txt", folder, suffix=".txt"),
                         folder=folder)
        write_new(path, (text + "\n").encode("utf-8"))
    except Unwritable as refusal:
        raise CollectionError(tr("duel.local.nothing_saved", refusal=str(refusal))) from None
    sitting.screen.say(tr("duel.local.exported", deck=saved, path=str(path)), "hint")
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
    sitting.screen.say(trn("duel.local.deck_ready", len(cards), deck=deck_name(rest)), "hint")
    return {"deck": list(cards)}


DECK_ACTIONS: Mapping[str, Command] = {
    "list": deck_list, "show": deck_show, "create": deck_create, "add": deck_add,
    "remove": deck_remove, "delete": deck_delete, "import": deck_import,
    "export": deck_export, "play": deck_play,
}


async def _name_and(sitting: LocalSitting, rest: str, action: str
                    ) -> tuple[str, str | None]:
    """``NAME: more`` split, the name checked; without the colon, the rest is asked
    for as ``action`` (``create``, ``add``, ``remove``, ``import``) needs it (``None``:
    nothing given)."""
    typed, colon, more = rest.partition(":")
    name = deck_name(typed)
    if colon:
        return name, more.strip() or None
    questions = {"create": tr("duel.local.ask.create", deck=name),
                 "add": tr("duel.local.ask.add", deck=name),
                 "remove": tr("duel.local.ask.remove", deck=name)}
    answer = await sitting.ask(questions.get(action) or tr("duel.local.ask.import", deck=name))
    return name, answer or None


async def _may_replace(sitting: LocalSitting, name: str) -> bool:
    """Whether deck ``name`` may be written: it is new, or the person says to replace it."""
    existing = {view.name.casefold(): view for view in await collections(sitting).decks(
        LOCAL_GUILD, sitting.user_id)}
    same = existing.get(name.casefold())  # names ignore case: Burn is burn
    if same is None:
        return True
    return await sitting.ask_yes(trn("duel.local.replace", same.total, deck=same.name), False,
                                 tr("duel.local.replace_means"))


def _nothing(sitting: LocalSitting) -> SeatSetup:
    sitting.screen.say(tr("duel.local.nothing_changed"), "hint")
    return None


# -- automatic passing ---------------------------------------------------------------------
async def autopass(sitting: LocalSitting, rest: str) -> SeatSetup:
    """``autopass [on|off]``: during a duel, turn automatic passing on or off for your
    seat (kept with the game: a saved game goes on with it); alone, say how it is."""
    match = sitting.match
    if sitting.service is None or match is None or not match.playing \
            or match.info.name != "duel" or match.seat_of(sitting.user_id) is None:
        raise CollectionError(Text("duel.local.autopass_where"))
    seat = match.seat_of(sitting.user_id)
    assert seat is not None
    if not rest:
        sitting.screen.say(tr("duel.local.autopass_now", said=said(auto_passing(match, seat.seat))),
                           "hint")
        return None
    on = autopass_value(rest)
    await set_auto_pass(sitting.service, match, sitting.user_id, on)
    sitting.screen.say(said(on), "hint")
    return None


READS: Mapping[str, Callable[[str], object]] = {"autopass": autopass_value}
"""How the commands that take a value read it (the docs test reads the README's
examples with these)."""


LOCAL_COMMANDS = (
    LocalCommand("starter", Phrase("duel.local.usage.starter"),
                 Phrase("duel.local.summary.starter"), at_this_table(claim_starter)),
    LocalCommand("pack", Phrase("duel.local.usage.pack"), Phrase("duel.local.summary.pack"),
                 at_this_table(open_pack)),
    LocalCommand("collection", Phrase("duel.local.usage.collection"),
                 Phrase("duel.local.summary.collection"), at_this_table(show_collection)),
    LocalCommand("deck", Phrase("duel.local.usage.deck"), Phrase("duel.local.summary.deck"),
                 at_this_table(decks)),
    LocalCommand("autopass", "autopass [on|off]", Phrase("duel.local.summary.autopass"),
                 at_this_table(autopass)),
)
"""The duel's commands at the local table."""
