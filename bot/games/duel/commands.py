"""/card: one Arcane Duel card's picture and words, with names completed as typed."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord_parts.limits import choices
from bot.discord_parts.replies import send
from bot.discord_parts.web_links import link_view, web_page
from bot.errors import CroupierError
from bot.games.duel.card import render_card
from bot.games.duel.collection_messages import counts_line
from bot.games.presenter import COLOUR, shown
from rules.duel.card_ids import card_id
from rules.duel.cards import CardDef, card, card_set
from rules.duel.decklists import card_named, nearest_cards
from rules.duel.text import card_words


class NoSuchCard(CroupierError):
    """A card name nobody printed; the nearest names are suggested."""


def find_card(name: str) -> CardDef:
    """The card called ``name`` (any case, spaces trimmed), or :class:`NoSuchCard`
    naming the nearest ones.

    >>> find_card(" kindlewhip ").name
    'Kindlewhip'
    >>> find_card("Kindlewip")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot...NoSuchCard: There is no card called Kindlewip. Did you mean Kindlewhip?
    """
    found = card_named(name)
    if found is not None:
        return card(found)
    near = nearest_cards(name)
    hint = (" Did you mean " + " or ".join(near) + "?" if near
            else " `/card` completes names as you type.")
    raise NoSuchCard(f"There is no card called {shown(name.strip()[:40])}.{hint}")


async def card_names(interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: card names holding what is typed, those starting with it first."""
    typed = current.strip().casefold()
    names = [c.name for c in card_set().values() if typed in c.name.casefold()]
    names.sort(key=lambda n: (not n.casefold().startswith(typed), n))
    return choices((n, n) for n in names)


WEB_BUTTON = "Open on the web"
"""The label of the link to the card's page on the server's web companion."""


async def web_button(interaction: discord.Interaction, data: CardDef) -> discord.ui.View | None:
    """A link button to the card's page on the server's web companion, when the server
    has its pages on and the bot knows their public address (``CROUPIER_WEB_URL``)."""
    client = interaction.client
    store = getattr(client, "store", None)
    if store is None:
        return None
    base_url = getattr(getattr(client, "settings", None), "web_url", None)
    return link_view(WEB_BUTTON, await web_page(store, base_url, interaction.guild_id,
                                                "cards", card_id(data.name)))


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
    filename = "card-" + data.name.lower().replace(" ", "-").replace("'", "") + ".png"
    embed = discord.Embed(title=data.name, colour=COLOUR, description=shown(card_words(data)))
    collections = getattr(interaction.client, "collections", None)
    if interaction.guild_id is not None and collections is not None:
        counts = await collections.card_counts(interaction.guild_id, interaction.user.id,
                                               data.name)
        embed.add_field(name="Copies", value=counts_line(counts), inline=False)
    embed.set_image(url=f"attachment://{filename}")
    picture = discord.File(io.BytesIO(render_card(data.name)), filename=filename)
    link = await web_button(interaction, data)
    await send(interaction, embed=embed, files=[picture], ephemeral=not public,
               **({"view": link} if link is not None else {}))
