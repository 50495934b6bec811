"""How the collection commands' answers look in Discord: embeds, pictures (drawn off the
event loop as :class:`~bot.discord_parts.replies.Drawing`\\ s) and the words of packs, collections,
decks, trades and the audit. No I/O and no decisions: the service decides, this shows.

People are named by mention (``<@id>``) in embed texts, which Discord shows as their
names without pinging anyone and which needs no lookup after a restart; pictures, which
cannot show a mention, take the display names the command had at hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.discord_parts.replies import Drawing
from bot.duel.collections import (
    AuditReport,
    CardCounts,
    CollectionPage,
    CollectionRow,
    CopyView,
    DeckView,
    PackOpened,
    PacksWaiting,
    StarterClaimed,
    TradeView,
    file_safe,
    wait_text,
)
from bot.games.duel.collection import render_deck, render_pack, render_trade
from bot.games.presenter import COLOUR
from bot.i18n import Phrase, say, tr, trn
from bot.i18n.cards import card_phrase, card_type_line
from rules.duel.decklists import is_free

GOOD = discord.Colour.green()
OVER = discord.Colour.dark_grey()
WAITING = discord.Colour.gold()
RARITY_MARK = {"rare": "R", "uncommon": "U", "common": "C"}
COLOUR_WORDS = {"W": Phrase("collections.colour.W"), "U": Phrase("collections.colour.U"),
                "B": Phrase("collections.colour.B"), "R": Phrase("collections.colour.R"),
                "G": Phrase("collections.colour.G"), "": Phrase("collections.colour.none")}
RARITY_WORDS = {"common": Phrase("collections.rarity.common"),
                "uncommon": Phrase("collections.rarity.uncommon"),
                "rare": Phrase("collections.rarity.rare")}


def when(seconds: float) -> str:
    """A moment as Discord shows it to each reader in their own time ("in 5 seconds").

    >>> when(1700000000.4)
    '<t:1700000000:R>'
    """
    return f"<t:{int(seconds)}:R>"


def mention(user_id: int) -> str:
    """A person named in an embed's text (shown as their name, pinging no one)."""
    return f"<@{user_id}>"


def labels(copies: Iterable[CopyView]) -> str:
    """Copies as a short list in the locale spoken, alike ones counted: "2× Ashpeak,
    Kindlewhip #3 of 100".

    >>> labels([CopyView(1, "Ashpeak", "common", None, None),
    ...         CopyView(2, "Ashpeak", "common", None, None),
    ...         CopyView(3, "Kindlewhip", "common", 3, 100)])
    '2× Ashpeak, Kindlewhip #3 of 100'
    """
    counted = sorted(Counter(say(copy.label) for copy in copies).items(),
                     key=lambda item: (-item[1], item[0]))
    return ", ".join(trn("collections.times", n, label=label) if n > 1 else label
                     for label, n in counted)


def counts_of(copies: Iterable[CopyView]) -> dict[str, int]:
    """How many copies of each card (for the pictures, which show cards, not serials)."""
    return dict(Counter(copy.card for copy in copies))


# -- packs and starters -----------------------------------------------------------------------
SOURCE_WORDS = {"daily": Phrase("collections.pack.source.daily"),
                "prize": Phrase("collections.pack.source.prize"),
                "win": Phrase("collections.pack.source.win")}


def pack_parts(opened: PackOpened) -> dict[str, Any]:
    """A pack just opened: its cards in words and one picture, rarest first."""
    lines = [f"`{RARITY_MARK[c.rarity]}` {say(c.label)}" for c in opened.copies]
    title = trn("collections.pack.title", len(opened.copies), source=SOURCE_WORDS[opened.source])
    embed = discord.Embed(title=title, colour=COLOUR, description="\n".join(lines))
    after = []
    if opened.waiting:
        after.append(trn("collections.pack.more_waiting", opened.waiting))
    if opened.next_claim_at is not None:
        after.append(tr("collections.pack.next_daily", when=when(opened.next_claim_at)))
    if after:
        embed.add_field(name=tr("collections.pack.next"), value="\n".join(after), inline=False)
    embed.set_image(url="attachment://pack.png")
    copies = [(c.card, "limited" if c.serial is not None else "unlimited", c.serial, c.run_size)
              for c in opened.copies]
    return {"embed": embed, "attachments": [Drawing("pack.png", lambda: render_pack(copies))]}


def starter_parts(claimed: StarterClaimed) -> dict[str, Any]:
    """A starter just claimed: its deck, saved under its name, as a picture."""
    cards = counts_of(claimed.copies)
    embed = discord.Embed(
        title=tr("collections.starter.title", deck=claimed.deck_name), colour=GOOD,
        description=trn("collections.starter.claimed", len(claimed.copies),
                        deck=claimed.deck_name))
    embed.set_image(url="attachment://starter.png")
    return {"embed": embed, "attachments": [
        Drawing("starter.png", lambda: render_deck(cards, claimed.deck_name))]}


def packs_text(waiting: PacksWaiting, now: float) -> str:
    """``/pack list`` in words."""
    lines = []
    if waiting.given:
        lines.append(trn("collections.packs.waiting", len(waiting.given)))
        shown = waiting.given[:10]
        lines += [tr("collections.packs.given.prize", when=when(p.given_at)) if p.why == "prize"
                  else tr("collections.packs.given.win", when=when(p.given_at)) for p in shown]
        if len(waiting.given) > len(shown):
            lines.append(trn("collections.packs.given.more", len(waiting.given) - len(shown)))
    else:
        lines.append(tr("collections.packs.none_waiting"))
    if not waiting.daily:
        lines.append(tr("collections.packs.no_daily"))
    elif waiting.daily_due_at is None or waiting.daily_due_at <= now:
        lines.append(tr("collections.packs.daily_ready"))
    else:
        lines.append(tr("collections.packs.daily_due", when=when(waiting.daily_due_at),
                        wait=wait_text(waiting.daily_due_at - now)))
    if waiting.win_packs:
        lines.append(tr("collections.packs.win_packs"))
    return "\n".join(lines)


# -- collections and cards --------------------------------------------------------------------
def _row_line(row: CollectionRow, own: bool) -> str:
    colour = say(COLOUR_WORDS.get(row.colour or "", COLOUR_WORDS[""]))
    kind = tr("collections.row.kind", colour=colour, type=card_type_line(row.card))
    parts = [f"`{row.count:>3}×` **{say(card_phrase(row.card))}**", kind,
             say(RARITY_WORDS[row.rarity])]
    if own and row.free < row.count:
        # Only to its owner: what is held by a trade or an ante is their business.
        parts.append(trn("collections.row.held", row.count - row.free))
    if row.serials:
        parts.append(say(row.serials_text))
    return " · ".join(parts)


COLOUR_FILTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G",
                  "colourless": ""}
"""A colour filter's value and its colour's letter."""
TYPE_WORDS = {"land": Phrase("collections.type.land"),
              "creature": Phrase("collections.type.creature"),
              "artifact": Phrase("collections.type.artifact"),
              "artifact creature": Phrase("collections.type.artifact_creature"),
              "enchantment": Phrase("collections.type.enchantment"),
              "enchant creature": Phrase("collections.type.enchant_creature"),
              "enchant artifact": Phrase("collections.type.enchant_artifact"),
              "enchant land": Phrase("collections.type.enchant_land"),
              "enchant enchantment": Phrase("collections.type.enchant_enchantment"),
              "sorcery": Phrase("collections.type.sorcery"),
              "instant": Phrase("collections.type.instant"),
              "interrupt": Phrase("collections.type.interrupt")}
EDITION_WORDS = {"limited": Phrase("collections.edition.limited"),
                 "unlimited": Phrase("collections.edition.unlimited")}
SORT_WORDS = {"colour": Phrase("collections.sort.colour"),
              "rarity": Phrase("collections.sort.rarity"),
              "count": Phrase("collections.sort.count")}


def filter_words(colour: str | None, kind: str | None, rarity: str | None,
                 edition: str | None, name: str | None, sort: str) -> str:
    """A collection page's filters in words ("" when none), in the locale spoken.

    >>> filter_words("red", "creature", None, "limited", "wyrm", "count")
    "red, creature, limited, names holding 'wyrm', by count"
    """
    parts = []
    if colour:
        parts.append(say(COLOUR_WORDS.get(COLOUR_FILTERS.get(colour, ""), COLOUR_WORDS[""])))
    for value, words in ((kind, TYPE_WORDS), (rarity, RARITY_WORDS), (edition, EDITION_WORDS)):
        if value:
            parts.append(say(words[value]) if value in words else value)
    if name:
        parts.append(tr("collections.filter.name", name=name))
    if sort != "name" and sort in SORT_WORDS:
        parts.append(say(SORT_WORDS[sort]))
    return ", ".join(parts)


def collection_parts(page: CollectionPage, viewer: int, filters: str,
                     items: Sequence[discord.ui.Item[Any]]) -> dict[str, Any]:
    """One page of a collection, with its page buttons."""
    own = viewer == page.owner
    head = tr("collections.page.head", owner=mention(page.owner)) \
        + (f" · {filters}" if filters else "")
    if page.rows:
        body = "\n".join(_row_line(row, own) for row in page.rows)
    elif filters:
        body = tr("collections.page.no_match")
    else:
        body = tr("collections.page.empty_own") if own else tr("collections.page.empty")
    embed = discord.Embed(colour=COLOUR, description=f"{head}\n{body}")
    embed.set_footer(text=tr("collections.page.footer", page=page.page, pages=page.pages,
                             cards=page.cards, copies=page.copies))
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return {"embed": embed, "view": view if items else None}


def counts_line(counts: CardCounts) -> str:
    """``/card``'s line about copies: yours, the server's, and the limited run."""
    mine = tr("collections.card.own_free", owned=counts.owned, free=counts.free) \
        if counts.locked else tr("collections.card.own", owned=counts.owned)
    if counts.run_size is not None:
        run = tr("collections.card.run_left", left=counts.run_left, size=counts.run_size)
    elif is_free(counts.card):
        run = tr("collections.card.basic")
    else:
        run = tr("collections.card.run_none")
    return tr("collections.card.counts", mine=mine, here=counts.in_server, run=run)


# -- decks ------------------------------------------------------------------------------------
def deck_state(view: DeckView) -> str:
    """Whether a deck can be played now, and if not why; and, if it can, whether it can
    be staked at an ante table."""
    if view.problem is not None:
        return tr("collections.deck.not_playable", problem=view.problem)
    if view.ante_problem is not None:
        return tr("collections.deck.not_for_ante", problem=view.ante_problem)
    return tr("collections.deck.ready")


def deck_parts(view: DeckView, saying: str = "") -> dict[str, Any]:
    """A deck: its picture, size and legality (what is short, what is locked)."""
    embed = discord.Embed(title=tr("collections.deck.title", deck=view.name),
                          colour=GOOD if view.problem is None else WAITING,
                          description=(f"{saying}\n" if saying else "")
                          + trn("collections.deck.total", view.total, state=deck_state(view)))
    filename = f"deck-{file_safe(view.name)}.png"
    embed.set_image(url=f"attachment://{filename}")
    cards = dict(view.cards)
    return {"embed": embed, "attachments": [
        Drawing(filename, lambda: render_deck(cards, view.name))]}


def decks_text(views: Sequence[DeckView]) -> str:
    """``/deck list`` in words."""
    if not views:
        return tr("collections.decks.none")
    return "\n".join(trn("collections.decks.line", v.total, deck=v.name, state=deck_state(v))
                     for v in views)


# -- trades -----------------------------------------------------------------------------------
def trade_status(view: TradeView) -> str:
    """Where a trade stands, for both to read."""
    offerer, receiver = mention(view.offerer), mention(view.receiver)
    if view.status == "open":
        return tr("collections.trade.open", receiver=receiver, expires=when(view.expires_at))
    if view.status == "accepted":
        ticks = " · ".join(tr("collections.trade.confirmed", who=who) if done
                           else tr("collections.trade.not_confirmed", who=who)
                           for who, done in ((offerer, view.offerer_confirmed),
                                             (receiver, view.receiver_confirmed)))
        opens = view.confirm_opens_at or 0.0
        return tr("collections.trade.accepted", opens=when(opens), ticks=ticks,
                  expires=when(view.expires_at))
    if view.status == "done":
        nothing = tr("collections.trade.nothing")
        return tr("collections.trade.done", offerer=offerer, receiver=receiver,
                  got=labels(view.get) or nothing, gave=labels(view.give) or nothing)
    if view.status == "declined":
        return tr("collections.trade.declined", receiver=receiver)
    if view.status == "cancelled":
        return tr("collections.trade.cancelled")
    return tr("collections.trade.expired")


def trade_embed(view: TradeView) -> discord.Embed:
    """A trade's offer message: who gives what, where it stands."""
    colour = {"open": WAITING, "accepted": WAITING, "done": GOOD}.get(view.status, OVER)
    embed = discord.Embed(title=tr("collections.trade.title", trade=view.id), colour=colour)
    embed.add_field(name=tr("collections.trade.offered"),
                    value=tr("collections.trade.gives", who=mention(view.offerer),
                             cards=labels(view.give) or tr("collections.trade.nothing")),
                    inline=False)
    embed.add_field(name=tr("collections.trade.asked"),
                    value=tr("collections.trade.gives", who=mention(view.receiver),
                             cards=labels(view.get) or tr("collections.trade.gift")),
                    inline=False)
    embed.add_field(name=tr("collections.trade.status"), value=trade_status(view), inline=False)
    return embed


def trade_picture(view: TradeView, offerer: str, receiver: str) -> Drawing:
    """The picture of what each side gives (display names: a picture shows no mention)."""
    sides = [(tr("collections.trade.side", who=offerer), counts_of(view.give)),
             (tr("collections.trade.side", who=receiver), counts_of(view.get))]
    return Drawing(f"trade-{view.id}.png", lambda: render_trade(sides))


def trade_list_text(views: Sequence[TradeView], links: Mapping[int, str]) -> str:
    """``/trade list``: someone's open trades, each with a link to its offer message."""
    if not views:
        return tr("collections.trades.none")
    lines = []
    nothing = tr("collections.trade.nothing")
    for view in views:
        link = f" ({links[view.id]})" if view.id in links else ""
        lines.append(tr("collections.trades.line", trade=view.id, link=link,
                        offerer=mention(view.offerer), give=labels(view.give) or nothing,
                        get=labels(view.get) or nothing, receiver=mention(view.receiver),
                        status=trade_status(view)))
    return "\n".join(lines)


# -- the audit --------------------------------------------------------------------------------
def audit_text(report: AuditReport, most: int = 15) -> str:
    """``/audit`` in words: the books balance, or what is wrong."""
    if not report.problems:
        return tr("collections.audit.balance", copies=report.copies, rows=report.ledger_rows)
    shown = "\n".join(f"• {problem}" for problem in report.problems[:most])
    more = len(report.problems) - most
    return (trn("collections.audit.found", len(report.problems), copies=report.copies,
                rows=report.ledger_rows) + f"\n{shown}"
            + ("\n" + trn("collections.audit.more", more) if more > 0 else ""))
