"""The rules of Arcane Duel as players read them (``/rules duel``; under 3,000 characters)."""

RULES_TEXT = """\
**Arcane Duel** — two players, 20 life each, a deck of 40 cards or more (a starter deck \
until you own cards). Open with 7 cards; who starts is drawn at random.

**A turn.** Untap → upkeep → draw a card (an empty library loses) → **main**: play one land, \
cast creatures, artifacts, enchantments and sorceries, make one attack → discard down to 7 → \
end → heal (damage and "until end of turn" effects go away). New creatures cannot attack \
until your next turn.

**Mana.** Lands tap for one mana of their colour; costs are paid automatically. \
A card's colour is the colour of its cost.

**Fast effects.** Instants, interrupts and abilities of permanents can be played in any \
priority window: after every phase and every announced spell or action, each player in turn. \
Spells go on a stack and resolve last in, first out once both players pass. An interrupt \
resolves at once (only another interrupt may answer it) and can counter a spell. \
A spell whose target is gone does nothing; its mana stays spent. Windows where you can \
play nothing are passed for you (option `auto_pass`).

**Combat.** Choose attackers (they tap). The defender blocks: each creature blocks one \
attacker, several may block the same one. First strikers deal damage first. Flying: only \
fliers block. Landwalk: unblockable if the defender has that land. Protection from a \
colour: not blocked, targeted or damaged by it. Trample: damage beyond lethal goes to the \
player. Banding: a band attacks as one; its owner splits the damage it takes. After damage, \
a window for prevention and regeneration; then creatures with lethal damage die.

**Losing.** 0 life or less at the end of a phase or at the start or end of an attack, or \
drawing from an empty library. Both at once: a draw.

**In Discord.** `/play duel` opens a table (`deck:` picks your starter, `vs_bot:true` plays \
the computer); others take a seat with `/join deck:`. The channel shows the battlefield \
picture, whose move it is, the stack and a running log. Your hand comes by DM as a picture, \
the cards you can play now marked. Act from the DM: menus to play a land, cast a spell \
(then its target and X) or use an ability; buttons to attack, end the turn, pass, cancel or \
block nobody; a form to divide damage. Closed DMs: the table's **My hand** button, then \
`/choose`. `/card name` shows any card.
"""
