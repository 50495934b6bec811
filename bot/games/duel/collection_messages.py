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
from rules.duel.cards import COLOUR_NAMES
from rules.duel.decklists import is_free

GOOD = discord.Colour.green()
OVER = discord.Colour.dark_grey()
WAITING = discord.Colour.gold()
RARITY_MARK = {"rare": "R", "uncommon": "U", "common": "C"}


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
    """Copies as a short list, alike ones counted: "2× Ashpeak, Kindlewhip #3 of 100".

    >>> labels([CopyView(1, "Ashpeak", "common", None, None),
    ...         CopyView(2, "Ashpeak", "common", None, None),
    ...         CopyView(3, "Kindlewhip", "common", 3, 100)])
    '2× Ashpeak, Kindlewhip #3 of 100'
    """
    counted = sorted(Counter(copy.label for copy in copies).items(),
                     key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{n}× {label}" if n > 1 else label for label, n in counted)


def counts_of(copies: Iterable[CopyView]) -> dict[str, int]:
    """How many copies of each card (for the pictures, which show cards, not serials)."""
    return dict(Counter(copy.card for copy in copies))


# -- packs and starters -----------------------------------------------------------------------
SOURCE_WORDS = {"daily": "Your daily pack", "prize": "A prize pack", "win": "A pack for a win"}


def pack_parts(opened: PackOpened) -> dict[str, Any]:
    """A pack just opened: its cards in words and one picture, rarest first."""
    lines = [f"`{RARITY_MARK[c.rarity]}` {c.label}" for c in opened.copies]
    title = f"{SOURCE_WORDS[opened.source]}: {len(opened.copies)} cards, rarest first"
    embed = discord.Embed(title=title, colour=COLOUR, description="\n".join(lines))
    after = []
    if opened.waiting:
        after.append(f"{opened.waiting} more pack{'s' if opened.waiting != 1 else ''} "
                     "waiting: /pack open again.")
    if opened.next_claim_at is not None:
        after.append(f"Next daily pack {when(opened.next_claim_at)}.")
    if after:
        embed.add_field(name="Next", value="\n".join(after), inline=False)
    embed.set_image(url="attachment://pack.png")
    copies = [(c.card, "limited" if c.serial is not None else "unlimited", c.serial, c.run_size)
              for c in opened.copies]
    return {"embed": embed, "attachments": [Drawing("pack.png", lambda: render_pack(copies))]}


def starter_parts(claimed: StarterClaimed) -> dict[str, Any]:
    """A starter just claimed: its deck, saved under its name, as a picture."""
    cards = counts_of(claimed.copies)
    embed = discord.Embed(
        title=f"Starter claimed: {claimed.deck_name}", colour=GOOD,
        description=f"{len(claimed.copies)} cards are now yours, saved as the deck "
                    f"**{claimed.deck_name}**: play it with `/play duel`. /pack open brings "
                    "more cards.")
    embed.set_image(url="attachment://starter.png")
    return {"embed": embed, "attachments": [
        Drawing("starter.png", lambda: render_deck(cards, claimed.deck_name))]}


def packs_text(waiting: PacksWaiting, now: float) -> str:
    """``/pack list`` in words."""
    lines = []
    if waiting.given:
        lines.append(f"**{len(waiting.given)} pack{'s' if len(waiting.given) != 1 else ''} "
                     "waiting** (/pack open opens the oldest):")
        shown = waiting.given[:10]
        lines += [f"• {'a prize' if p.why == 'prize' else 'a win'}, given {when(p.given_at)}"
                  for p in shown]
        if len(waiting.given) > len(shown):
            lines.append(f"• … and {len(waiting.given) - len(shown)} more")
    else:
        lines.append("No given pack is waiting.")
    if not waiting.daily:
        lines.append("There is no daily pack on this server.")
    elif waiting.daily_due_at is None or waiting.daily_due_at <= now:
        lines.append("Your daily pack is ready: /pack open.")
    else:
        lines.append(f"Your next daily pack is due {when(waiting.daily_due_at)} "
                     f"(in {wait_text(waiting.daily_due_at - now)}).")
    if waiting.win_packs:
        lines.append("Each rated duel you win here brings a pack.")
    return "\n".join(lines)


# -- collections and cards --------------------------------------------------------------------
def _row_line(row: CollectionRow, own: bool) -> str:
    colour = COLOUR_NAMES.get(row.colour or "", "colourless")
    parts = [f"`{row.count:>3}×` **{row.card}**", f"{colour} {row.type}", row.rarity]
    if own and row.free < row.count:
        # Only to its owner: what is held by a trade or an ante is their business.
        parts.append(f"{row.count - row.free} held by a trade or ante")
    if row.serials:
        parts.append(row.serials_text)
    return " · ".join(parts)


def collection_parts(page: CollectionPage, viewer: int, filters: str,
                     items: Sequence[discord.ui.Item[Any]]) -> dict[str, Any]:
    """One page of a collection, with its page buttons."""
    own = viewer == page.owner
    head = f"**Collection of {mention(page.owner)}**" + (f" · {filters}" if filters else "")
    if page.rows:
        body = "\n".join(_row_line(row, own) for row in page.rows)
    elif filters:
        body = "No card matches."
    else:
        body = ("No cards yet: /starter gives a starter deck, /pack open a pack." if own
                else "No cards yet.")
    embed = discord.Embed(colour=COLOUR, description=f"{head}\n{body}")
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {page.cards} different cards, "
                          f"{page.copies} copies")
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return {"embed": embed, "view": view if items else None}


def counts_line(counts: CardCounts) -> str:
    """``/card``'s line about copies: yours, the server's, and the limited run."""
    mine = f"You own {counts.owned}" + (f" ({counts.free} free)" if counts.locked else "")
    if counts.run_size is not None:
        run = f"limited run: {counts.run_left} of {counts.run_size} left"
    elif is_free(counts.card):
        run = "a basic land: free and unlimited"
    else:
        run = "limited run: none printed yet"
    return f"{mine} · {counts.in_server} in this server · {run}"


# -- decks ------------------------------------------------------------------------------------
def deck_state(view: DeckView) -> str:
    """Whether a deck can be played now, and if not why; and, if it can, whether it can
    be staked at an ante table."""
    if view.problem is not None:
        return f"Not playable yet: {view.problem}"
    if view.ante_problem is not None:
        return f"Ready to play; not for ante: {view.ante_problem}"
    return "Ready to play."


def deck_parts(view: DeckView, saying: str = "") -> dict[str, Any]:
    """A deck: its picture, size and legality (what is short, what is locked)."""
    embed = discord.Embed(title=f"Deck {view.name}", colour=GOOD if view.problem is None
                          else WAITING, description=(f"{saying}\n" if saying else "")
                          + f"{view.total} cards. {deck_state(view)}")
    filename = f"deck-{file_safe(view.name)}.png"
    embed.set_image(url=f"attachment://{filename}")
    cards = dict(view.cards)
    return {"embed": embed, "attachments": [
        Drawing(filename, lambda: render_deck(cards, view.name))]}


def decks_text(views: Sequence[DeckView]) -> str:
    """``/deck list`` in words."""
    if not views:
        return "You have no decks here. /starter gives one; /deck create makes one."
    return "\n".join(f"• **{v.name}**: {v.total} cards. {deck_state(v)}" for v in views)


# -- trades -----------------------------------------------------------------------------------
def trade_status(view: TradeView) -> str:
    """Where a trade stands, for both to read."""
    offerer, receiver = mention(view.offerer), mention(view.receiver)
    if view.status == "open":
        return (f"Waiting for {receiver} to accept or decline; either may cancel. "
                f"Expires {when(view.expires_at)}.")
    if view.status == "accepted":
        ticks = " · ".join(f"{who} {'✅ confirmed' if done else 'not yet confirmed'}"
                           for who, done in ((offerer, view.offerer_confirmed),
                                             (receiver, view.receiver_confirmed)))
        opens = view.confirm_opens_at or 0.0
        return (f"Accepted. Both confirm once the window opens {when(opens)} "
                f"(a guard against last-second swaps). {ticks}. Expires "
                f"{when(view.expires_at)}.")
    if view.status == "done":
        return (f"Done: the cards changed hands. {offerer} got: {labels(view.get) or 'nothing'}."
                f" {receiver} got: {labels(view.give) or 'nothing'}.")
    return {"declined": f"Declined by {receiver}: every card is free again.",
            "cancelled": "Cancelled: every card is free again.",
            "expired": "Expired before it was done: every card is free again."}[view.status]


def trade_embed(view: TradeView) -> discord.Embed:
    """A trade's offer message: who gives what, where it stands."""
    colour = {"open": WAITING, "accepted": WAITING, "done": GOOD}.get(view.status, OVER)
    embed = discord.Embed(title=f"Trade #{view.id}", colour=colour)
    embed.add_field(name="Offered", value=f"{mention(view.offerer)} gives: "
                    + (labels(view.give) or "nothing"), inline=False)
    embed.add_field(name="Asked for", value=f"{mention(view.receiver)} gives: "
                    + (labels(view.get) or "nothing (a gift)"), inline=False)
    embed.add_field(name="Status", value=trade_status(view), inline=False)
    return embed


def trade_picture(view: TradeView, offerer: str, receiver: str) -> Drawing:
    """The picture of what each side gives (display names: a picture shows no mention)."""
    sides = [(f"{offerer} gives", counts_of(view.give)), (f"{receiver} gives",
                                                          counts_of(view.get))]
    return Drawing(f"trade-{view.id}.png", lambda: render_trade(sides))


def trade_list_text(views: Sequence[TradeView], links: Mapping[int, str]) -> str:
    """``/trade list``: someone's open trades, each with a link to its offer message."""
    if not views:
        return "You have no open trades here. /trade offer makes one."
    lines = []
    for view in views:
        link = f" ({links[view.id]})" if view.id in links else ""
        lines.append(f"• **Trade #{view.id}**{link}: {mention(view.offerer)} gives "
                     f"{labels(view.give) or 'nothing'} for {labels(view.get) or 'nothing'} "
                     f"from {mention(view.receiver)}. {trade_status(view)}")
    return "\n".join(lines)


# -- the audit --------------------------------------------------------------------------------
def audit_text(report: AuditReport, most: int = 15) -> str:
    """``/audit`` in words: the books balance, or what is wrong."""
    if not report.problems:
        return (f"The books balance: {report.copies} copies, {report.ledger_rows} ledger "
                "rows. Every copy has one owner, and the ledger explains each one.")
    shown = "\n".join(f"• {problem}" for problem in report.problems[:most])
    more = len(report.problems) - most
    return (f"The audit found {len(report.problems)} problem"
            f"{'s' if len(report.problems) != 1 else ''} ({report.copies} copies, "
            f"{report.ledger_rows} ledger rows):\n{shown}"
            + (f"\n… and {more} more (see the attached list)." if more > 0 else ""))
