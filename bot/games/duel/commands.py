"""/card: one Arcane Duel card's picture and words, with names completed as typed."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord_parts.limits import choices
from bot.discord_parts.replies import channel_locale, reader_locale, send
from bot.discord_parts.web_links import link_view, web_page
from bot.duel.card_words import face_words
from bot.duel.card_words import name as card_name
from bot.errors import CroupierError
from bot.games.duel.card import render_card
from bot.games.duel.collection_messages import counts_line
from bot.games.presenter import COLOUR, shown
from bot.i18n import LOCALES, Text, current, speaking, tr
from bot.i18n.cards import card_phrase, cards_named, nearest_named
from rules.duel.card_ids import card_by_id, card_id
from rules.duel.cards import CardDef, card, card_set
from rules.duel.decklists import card_named, nearest_cards


class NoSuchCard(CroupierError):
    """A card name nobody printed; the nearest names are suggested."""


def find_card(name: str) -> CardDef:
    """The card called ``name`` in any language Croupier speaks (any case, spaces
    trimmed), or :class:`NoSuchCard` naming the nearest ones.

    >>> find_card(" kindlewhip ").name, find_card("Chicote de Brasa").name
    ('Kindlewhip', 'Kindlewhip')
    >>> find_card("Kindlewip")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot...NoSuchCard: There is no card called Kindlewip. Did you mean Kindlewhip?
    """
    found = card_named(name)
    if found is not None:
        return card(found)
    wanted = name.strip().casefold()
    for key in cards_named(name)[:1]:  # a name matched whole comes first
        data = card_of(key)
        if any(card_name(data, locale).casefold() == wanted for locale in LOCALES):
            return data
    near = nearest_cards(name) or [card_of(key).name for key in nearest_named(name)]
    typed = shown(name.strip()[:40])
    if near:
        raise NoSuchCard(Text("collections.card.no_such_near", typed=typed,
                              near=_either([card_phrase(n) for n in near])))
    raise NoSuchCard(Text("collections.card.no_such", typed=typed))


def _either(names: list[Text | str]) -> Text | str:
    if len(names) == 1:
        return names[0]
    return Text("collections.card.or", first=names[0], rest=_either(names[1:]))


def card_of(key: str) -> CardDef:
    """The card whose id is ``key`` (one :func:`bot.i18n.cards.cards_named` gave)."""
    found = card_by_id(key)
    if found is None:  # pragma: no cover - the catalog's ids are the set's (a test holds it)
        raise NoSuchCard(Text("collections.card.no_such", typed=shown(key)))
    return found


async def card_names(interaction: discord.Interaction,
                     current_text: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: cards whose name holds what is typed in any language Croupier
    speaks, shown in the reader's, those starting with it first; the value is the
    card's name in the set (what every command reads)."""
    typed = current_text.strip().casefold()
    found = [card_of(key) for key in cards_named(typed)] if typed else list(card_set().values())
    spoken = reader_locale(interaction)  # autocomplete passes no interaction check
    shown_names = [(card_name(data, spoken), data.name) for data in found]
    shown_names.sort(key=lambda pair: (not pair[0].casefold().startswith(typed),
                                       pair[0].casefold()))
    return choices(shown_names)


async def web_button(interaction: discord.Interaction, data: CardDef) -> discord.ui.View | None:
    """A link button to the card's page on the server's web companion, when the server
    has its pages on and the bot knows their public address (``CROUPIER_WEB_URL``)."""
    client = interaction.client
    store = getattr(client, "store", None)
    if store is None:
        return None
    base_url = getattr(getattr(client, "settings", None), "web_url", None)
    return link_view(tr("collections.card.web"), await web_page(
        store, base_url, interaction.guild_id, "cards", card_id(data.name)))


@app_commands.command(name="card", description="Show an Arcane Duel card.")
@app_commands.describe(name="The card's name", public="Show it to the channel too "
                                                      "(default: only you)")
@app_commands.autocomplete(name=card_names)
async def show_card(interaction: discord.Interaction,
                    name: app_commands.Range[str, 1, 100], public: bool = False) -> None:
    """``/card``: only the asker sees it unless ``public``: looking up a card in
    your hand must not tell the table what you hold. On a server it also says how
    many copies the asker owns (and how many are free of trades and ante), how many
    exist there, and what is left of the card's limited run."""
    data = find_card(name)
    counts = None
    collections = getattr(interaction.client, "collections", None)
    if interaction.guild_id is not None and collections is not None:
        counts = await collections.card_counts(interaction.guild_id, interaction.user.id,
                                               data.name)
    # A card shown to the channel is in the server's language; to the asker, in theirs.
    with speaking(await channel_locale(interaction) if public else current()):
        filename = f"card-{card_id(data.name)}.png"
        embed = discord.Embed(title=card_name(data), colour=COLOUR,
                              description=shown(face_words(data)))
        if counts is not None:
            embed.add_field(name=tr("collections.card.copies"), value=counts_line(counts),
                            inline=False)
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(render_card(data.name)), filename=filename)
        link = await web_button(interaction, data)
    await send(interaction, embed=embed, files=[picture], ephemeral=not public,
               **({"view": link} if link is not None else {}))
