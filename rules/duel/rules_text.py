"""The rules of Arcane Duel as players read them (``/rules duel``; under 3,500 characters),
written from the duel's options and its table's size."""

from __future__ import annotations

from rules.duel.core import HAND_LIMIT, OPENING_HAND
from rules.duel.decks import DECK_SIZE
from rules.duel.options import DuelOptions
from rules.words import table_size

MIN_SEATS, MAX_SEATS = 2, 4


def _head_start(options: DuelOptions) -> str:
    """How moving first is offset (``head_start``), in one sentence.

    >>> _head_start(DuelOptions.parse({"head_start": "life", "life": 7}))
    'Every other player starts with 8 life (`head_start:life`); all draw every turn.'
    """
    match options.head_start:
        case "no-draw":
            return "The first player skips the draw of their first turn."
        case "draw":
            return ("The first player draws on their first turn too (`head_start:draw`, "
                    "the seed's rule).")
        case "card":
            return (f"Every other player opens with {OPENING_HAND + 1} cards "
                    "(`head_start:card`); all draw every turn.")
    return (f"Every other player starts with {options.life + 1} life (`head_start:life`); "
            "all draw every turn.")


def rules_text(options: DuelOptions, seats: int | None) -> str:
    """The rules of a duel with ``options`` at a table of ``seats`` (``None``: any).

    >>> text = rules_text(DuelOptions.parse({"life": 7}), 3)
    >>> text.split(",")[0]
    '**Arcane Duel** — 3 players'
    >>> "7 life each" in text and "free-for-all" in text
    True
    """
    ffa = seats is not None and seats > 2
    if seats is None:
        table = (f"{table_size(seats, MIN_SEATS, MAX_SEATS)} (2 play a duel, 3 or 4 a "
                 "free-for-all)")
    elif ffa:
        table = f"{table_size(seats, MIN_SEATS, MAX_SEATS)}, a free-for-all"
    else:
        table = table_size(seats, MIN_SEATS, MAX_SEATS)
    parts = [
        f"**Arcane Duel** — {table}, {options.life} life each, a deck of {DECK_SIZE} cards or "
        f"more (a starter deck until you own cards). Open with {OPENING_HAND} cards; who "
        "starts is drawn at random. " + _head_start(options),

        "**A turn.** Untap → upkeep → draw a card (an empty library loses) → **main**: play "
        "one land, cast creatures, artifacts, enchantments and sorceries, make one attack → "
        f"discard down to {HAND_LIMIT} → end → heal (damage and \"until end of turn\" effects "
        "go away). New creatures cannot attack until your next turn.",

        "**Mana.** Lands tap for one mana of their colour; costs are paid automatically. "
        "A card's colour is the colour of its cost.",

        "**Fast effects.** Instants, interrupts and abilities of permanents can be played in "
        "any priority window: after every phase and every announced spell or action, each "
        "player in turn. Spells go on a stack and resolve last in, first out once every "
        "player passes. An interrupt resolves at once (only another interrupt may answer it) "
        "and can counter a spell. A spell whose target is gone does nothing; its mana stays "
        "spent. " + ("Windows where you can play nothing are passed for you (`auto_pass`)."
                     if options.auto_pass else
                     "Every window waits for you, even where you can play nothing "
                     "(`auto_pass:no`)."),

        "**Combat.** Choose attackers (they tap)"
        + (", all at one opponent, chosen first" if ffa else "") + ". The defender blocks: "
        "each creature blocks one attacker, several may block the same one. First strikers "
        "deal damage first. Flying: only fliers block. Landwalk: unblockable if the defender "
        "has that land. Protection from a colour: not blocked, targeted or damaged by it. "
        "Trample: damage beyond lethal goes to the player. Banding: a band attacks as one; "
        "its owner splits the damage it takes. After damage, a window for prevention and "
        "regeneration; then creatures with lethal damage die.",

        "**Losing.** 0 life or less at the end of a phase or at the start or end of an "
        "attack, or drawing from an empty library. " + (
            "A player who loses leaves with everything they control and play goes on; "
            "\"your opponent\" on a card means each opponent. The last one standing wins; "
            "players out together share a place." if ffa else "Both at once: a draw."),
    ]
    if options.ante:
        parts.append("**Ante.** Each player's top library card is set aside, face up, before "
                     "the opening hands; the winner keeps "
                     + ("both" if seats == 2 else "them all") + ", a draw gives them back.")
    parts.append(
        "**In Discord.** `/play duel` opens a table (`deck:` picks your starter, `vs_bot:true` "
        "plays the computer); others take a seat with `/join deck:`. The channel shows the "
        "battlefield picture, whose move it is, the stack and a running log. Your hand comes "
        "by DM as a picture, the cards you can play now marked. Act from the DM: menus to "
        "play a land, cast a spell (then its target and X) or use an ability; buttons to "
        "attack, end the turn, pass, cancel or block nobody; a form to divide damage. Closed "
        "DMs: the table's **My hand** button, then `/choose`. `/card name` shows any card.")
    return "\n\n".join(parts) + "\n"
