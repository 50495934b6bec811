"""The rules of Eclipse as players read them (``/rules eclipse``; under 4,000 characters)."""

RULES_TEXT = """\
**Eclipse** — 2 to 6 players; eliminate everyone else. 72 cards: 60 symbol cards \
(top ☀ sun or 🌙 moon; bottom ♂ or ♀; an emblem 🛡 shield > ⚡ bolt > ⚙ cog > 🦋 butterfly > \
⭐ star, whose maneuver maximum is 1–5; a number 1–15) and 12 followers. Cards are written \
`S13f` (sun, 13, ♀), `M4m` (moon, 4, ♂).

**Deal.** 6 cards each, by DM. A hand without a symbol card returns a follower to the \
bottom of the deck and draws until it has one. A random player attacks the next seat.

**A hand.** Attacker and defender each pick a symbol card secretly; both are revealed \
together. Tops differ → attacker wins. Same top and the defender's card is ♂: the higher \
emblem wins; two shields → higher number; same emblem with numbers further apart than its \
maximum → higher number; otherwise a *maneuver*: both secretly present a number of the \
emblem's range (♂ cards 1–max, ♀ cards 0–max). Different numbers → higher card number wins; \
equal → s = sum, the lower card adds s, the higher subtracts s, higher total wins. Same top \
and the defender's card is ♀: each presents a number of their own card's range; both numbers \
plus both card numbers even → attacker, odd → defender. Every other tie goes to the defender.

**Deposit.** The winner puts the winning card (and any followers from their hand) into one \
existing or new subset in front of the loser. The loser's card goes under the deck; they \
draw one. A winner with an empty hand draws 6.

**Subsets.** ♂: same top and emblem. ♀: same top, numbers all odd or all even. Followers \
join any subset; 6 cards make it complete. A subset that loses its last symbol card sends \
its followers under the deck.

**Safe set.** One shared set of up to 6 symbol cards (♂ or ♀ rule of its first card, sun \
and moon may mix). The loser may move one symbol card from their subsets into it. If it is \
already complete when someone loses, that loser is **out** and takes it with them.

**Out.** A loser with a complete subset is out (after the safe-set step). The player \
after the winner then attacks; otherwise the defender becomes the next attacker.

**Counterattack.** An attacker with at least 3 cards in subsets may first move exactly 3 \
of them into other players' subsets. If the attacker then loses the hand, the cards come \
back and every host gives the attacker one card from their own subsets.

**End.** Last player in wins. A player who must play and has no symbol card (the deck \
cannot supply one) loses the hand and nothing is deposited; if neither can play, the \
defender wins. After 400 hands the game ends: the players still in rank by fewest cards in \
front, then by seat order from the next attacker; players out rank below them, the last one \
out first.

**Options.** `counterattack` (cards moved, 0 = off), `hand_cap`, `deck`.
"""
