"""Eclipse in words: the table as text (the terminal, DMs) and what each option
of a decision means ("Bo: subset 2 (☀♂🛡 3/6)").

Only what the view holds is shown, so the channel's view never names a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Decision
from rules.eclipse.cards import FOLLOWER, Card
from rules.eclipse.placement import COMPLETE
from rules.eclipse.state import COUNTER, KEEP, NEW, SKIP
from rules.eclipse.view import EclipseView, SubsetView
from rules.words import plural


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as labels, followers counted: ``☀1♂⚡ ☀6♂⚡ +2F``."""
    symbols = [card.label for card in cards if not card.follower]
    followers = sum(card.follower for card in cards)
    return " ".join(symbols + ([f"+{followers}F"] if followers else [])) or "—"


def subset_text(subset: SubsetView) -> str:
    """``2. ☀♂🛡 3/6: ☀5♂🛡 ☀10♂🛡 +1F``."""
    return f"{subset.number}. {subset.label} {subset.size}/{COMPLETE}: {cards_text(subset.cards)}"


def role(view: EclipseView, seat: int) -> str:
    """``attacker``, ``defender``, ``out`` or empty."""
    if view.out[seat]:
        return "out"
    if view.outcome is None and seat == view.attacker:
        return "attacker"
    if view.outcome is None and seat == view.defender:
        return "defender"
    return ""


def reveal_text(view: EclipseView, names: Sequence[str]) -> str | None:
    """The last reveal in one line, or ``None`` before the first."""
    reveal = view.reveal
    if reveal is None:
        return None
    a_card = reveal.attacker_card.label if reveal.attacker_card else "no card"
    d_card = reveal.defender_card.label if reveal.defender_card else "no card"
    numbers = f" (presented {reveal.numbers[0]} and {reveal.numbers[1]})" if reveal.numbers else ""
    winner = f" → {names[reveal.winner]} wins" if reveal.winner is not None else \
        " → numbers to present"
    return (f"{names[reveal.attacker]} {a_card} vs {names[reveal.defender]} {d_card}{numbers}: "
            f"{reveal.judging}{winner}")


def render_text(view: EclipseView, names: Sequence[str]) -> str:
    """The whole table as text, with this seat's hand if the view holds one."""
    lines = [f"Eclipse — hand {min(view.hands_played + 1, view.hand_cap)} of at most "
             f"{view.hand_cap}, deck {plural(view.deck_size, 'card')}"]
    for seat in range(view.seats):
        you = " (you)" if seat == view.seat else ""
        tag = role(view, seat)
        tag = f" [{tag}]" if tag else ""
        if view.out[seat]:
            lines.append(f"{seat + 1}. {names[seat]}{you}{tag}")
            continue
        lines.append(f"{seat + 1}. {names[seat]}{you}{tag} — hand {view.hand_sizes[seat]}, "
                     f"{view.cards_in_front(seat)} in front")
        lines += [f"     {subset_text(subset)}" for subset in view.subsets[seat]]
    safe = view.safe_set
    lines.append(f"Safe set {safe.size if safe else 0}/{COMPLETE}"
                 + (f" ({safe.label}): {cards_text(safe.cards)}" if safe else ": empty"))
    if view.counterattack:
        lines.append("Counterattack: " + ", ".join(
            f"{card.label if not card.follower else 'follower'} → {names[host]}"
            for card, host in view.counterattack))
    last = reveal_text(view, names)
    if last:
        lines.append(f"Last reveal: {last}")
    if view.seat is not None and view.out[view.seat]:
        lines.append("You are out of the game.")
    elif view.hand is not None:
        lines.append("Your hand: " + ("  ".join(f"{c.label} ({c.code})" for c in view.hand
                                                if not c.follower) or "no symbol cards")
                     + (f"  + {plural(sum(c.follower for c in view.hand), 'follower')}"
                        if any(c.follower for c in view.hand) else ""))
    return "\n".join(lines)


def visible_cards(view: EclipseView) -> dict[str, Card]:
    """Every symbol card the view shows, by code."""
    shown = list(view.hand or ())
    shown += [card for subsets in view.subsets for subset in subsets for card in subset.cards]
    if view.safe_set:
        shown += view.safe_set.cards
    if view.moving:
        shown.append(view.moving)
    return {card.code: card for card in shown if not card.follower}


def option_text(view: EclipseView, decision: Decision, option: str,
                names: Sequence[str]) -> str:
    """What choosing ``option`` does, in words.

    >>> from rules.eclipse.state import EclipseState
    >>> state = EclipseState.position(["S13m", "S10f"])
    >>> decision = state.decision_for(0)
    >>> option_text(state.observe(0), decision, "S13m", ["Ada", "Bo"])
    '☀13♂🦋 (S13m)'
    """
    cards = visible_cards(view)
    kind = decision.kind

    def card(code: str) -> str:
        found = cards.get(code)
        return f"{found.label} ({code})" if found else code

    def subset_of(seat: int, number: str) -> str:
        subsets = view.subsets[seat]
        index = int(number) - 1
        if 0 <= index < len(subsets):
            subset = subsets[index]
            return f"subset {number} ({subset.label} {subset.size}/{COMPLETE})"
        return f"subset {number}"

    if kind == "counter":
        return {COUNTER: "Counterattack", SKIP: "No counterattack"}.get(option, option)
    if kind == "number":
        return f"Present {option}"
    if kind == "safe":
        return "Keep: leave the safe set alone" if option == KEEP else \
            f"Move {card(option)} into the safe set"
    if kind in ("counter-card", "give-card"):
        if option.startswith(FOLLOWER + "@"):
            return f"A follower from your subset {option[2:]}"
        return card(option)
    if kind == "counter-place":
        seat_text, _, where = option.partition(":")
        seat = int(seat_text) - 1
        place = "a new subset" if where == NEW else subset_of(seat, where)
        return f"{names[seat]}: {place}"
    if kind == "give-place":
        return "A new subset" if option == NEW else subset_of(view.attacker, option).capitalize()
    if kind == "deposit":
        where, _, extra = option.partition("+")
        loser = view.defender if view.reveal and view.reveal.winner == view.attacker \
            else view.attacker
        place = "A new subset" if where == NEW else subset_of(loser, where).capitalize()
        followers = int(extra) if extra else 0
        tail = f" + {plural(followers, 'follower')}" if followers else ""
        return f"{place}{tail}"
    return card(option)
