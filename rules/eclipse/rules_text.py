"""The rules of Eclipse as players read them (``/rules eclipse``; under 4,000 characters),
written from the game's options and its table's size."""

from __future__ import annotations

from rules.eclipse.cards import BOTTOM_SIGN, EMBLEM_SIGN, EMBLEMS, TOP_SIGN, emblem_max
from rules.eclipse.options import EclipseOptions
from rules.eclipse.placement import COMPLETE
from rules.eclipse.state import HAND_SIZE
from rules.words import plural, table_size

MIN_SEATS, MAX_SEATS = 2, 6


def rules_text(options: EclipseOptions, seats: int | None) -> str:
    """The rules of a game with ``options`` at a table of ``seats`` (``None``: any).

    >>> text = rules_text(EclipseOptions.parse({"counterattack": 2, "hand_cap": 30}), 4)
    >>> text.split(";")[0]
    '**Eclipse** — 4 players'
    >>> "move exactly 2 of them" in text and "After 30 hands" in text
    True
    """
    deck = options.cards
    symbols = [card for card in deck.cards if not card.follower]
    followers = len(deck.cards) - len(symbols)
    numbers = sorted({card.number for card in symbols})
    emblems = " > ".join(f"{EMBLEM_SIGN[e]} {e}" for e in EMBLEMS)
    tops = " or ".join(f"{TOP_SIGN[t]} {t}" for t in sorted({c.top for c in symbols if c.top},
                                                              key=list(TOP_SIGN).index))
    bottoms = " or ".join(BOTTOM_SIGN[b] for b in BOTTOM_SIGN)
    maxima = f"{emblem_max(EMBLEMS[0])}–{emblem_max(EMBLEMS[-1])}"
    return "\n\n".join([
        f"**Eclipse** — {table_size(seats, MIN_SEATS, MAX_SEATS)}; eliminate everyone else. "
        f"{plural(len(deck.cards), 'card')} (the `{deck.name}` deck): "
        f"{plural(len(symbols), 'symbol card')} (top {tops}; bottom {bottoms}; an emblem "
        f"{emblems}, whose maneuver maximum is {maxima}; a number {numbers[0]}–{numbers[-1]}) "
        f"and {plural(followers, 'follower')}. Cards are written `S13f` (sun, 13, ♀), "
        "`M4m` (moon, 4, ♂).",

        f"**Deal.** {HAND_SIZE} cards each, by DM. A hand without a symbol card returns a "
        "follower to the bottom of the deck and draws until it has one. A random player "
        "attacks the next seat.",

        "**A hand.** Attacker and defender each pick a symbol card secretly; both are "
        "revealed together. Tops differ → attacker wins. Same top and the defender's card is "
        "♂: the higher emblem wins; two shields → higher number; same emblem with numbers "
        "further apart than its maximum → higher number; otherwise a *maneuver*: both "
        "secretly present a number of the emblem's range (♂ cards 1–max, ♀ cards 0–max). "
        "Different numbers → higher card number wins; equal → s = sum, the lower card adds "
        "s, the higher subtracts s, higher total wins. Same top and the defender's card is "
        "♀: each presents a number of their own card's range; both numbers plus both card "
        "numbers even → attacker, odd → defender. Every other tie goes to the defender.",

        "**Deposit.** The winner puts the winning card (and any followers from their hand) "
        "into one existing or new subset in front of the loser. The loser's card goes under "
        f"the deck; they draw one. A winner with an empty hand draws {HAND_SIZE}.",

        "**Subsets.** ♂: same top and emblem. ♀: same top, numbers all odd or all even. "
        f"Followers join any subset; {COMPLETE} cards make it complete. A subset that loses "
        "its last symbol card sends its followers under the deck.",

        f"**Safe set.** One shared set of up to {COMPLETE} symbol cards (♂ or ♀ rule of its "
        "first card, sun and moon may mix). The loser may move one symbol card from their "
        "subsets into it. If it is already complete when someone loses, that loser is "
        "**out** and takes it with them.",

        "**Out.** A loser with a complete subset is out (after the safe-set step). The "
        "player after the winner then attacks; otherwise the defender becomes the next "
        "attacker.",

        _counterattack(options.counterattack),

        "**End.** Last player in wins. A player who must play and has no symbol card (the "
        "deck cannot supply one) loses the hand and nothing is deposited; if neither can "
        f"play, the defender wins. After {options.hand_cap} hands the game ends: the players "
        "still in rank by fewest cards in front, then by seat order from the next attacker; "
        "players out rank below them, the last one out first.",

        "**Options.** `counterattack` (cards moved, 0 = off), `hand_cap` (hands before the "
        "end), `deck`.",
    ]) + "\n"


def _counterattack(count: int) -> str:
    if count == 0:
        return ("**Counterattack.** This game has no counterattacks (`counterattack:0`).")
    return (f"**Counterattack.** An attacker with at least {plural(count, 'card')} in subsets "
            f"may first move exactly {count} of them into other players' subsets. If the "
            "attacker then loses the hand, the cards come back and every host gives the "
            "attacker one card from their own subsets.")
