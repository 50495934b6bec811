"""Eclipse in words: the table as text (the terminal, DMs) and what each option
of a decision means ("Bo: subset 2 (☀♂🛡 3/6)"), as phrases (``bot.i18n`` says them in
the reader's language; notation and the cards' symbols stay as they are).

Only what the view holds is shown, so the channel's view never names a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Decision
from rules.eclipse.cards import FOLLOWER, Card
from rules.eclipse.placement import COMPLETE
from rules.eclipse.state import COUNTER, KEEP, NEW, SKIP
from rules.eclipse.terms import lines as joined_lines
from rules.eclipse.terms import listed, steps
from rules.eclipse.view import EclipseView, SubsetView
from rules.phrases import Phrase, Words


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as labels, followers counted: ``☀1♂⚡ ☀6♂⚡ +2F``."""
    symbols = [card.label for card in cards if not card.follower]
    followers = sum(card.follower for card in cards)
    return " ".join(symbols + ([f"+{followers}F"] if followers else [])) or "—"


def subset_text(subset: SubsetView) -> Words:
    """``2. ☀♂🛡 3/6: ☀5♂🛡 ☀10♂🛡 +1F``."""
    return Phrase("eclipse.text.subset", number=subset.number, label=subset.shown,
                  size=subset.size, complete=COMPLETE, cards=cards_text(subset.cards))


def role(view: EclipseView, seat: int) -> str:
    """``attacker``, ``defender``, ``out`` or empty (a seat's role, not words:
    :data:`ROLE_WORD` says it)."""
    if view.out[seat]:
        return "out"
    if view.outcome is None and seat == view.attacker:
        return "attacker"
    if view.outcome is None and seat == view.defender:
        return "defender"
    return ""


ROLE_WORD: dict[str, Phrase] = {"attacker": Phrase("eclipse.role.attacker"),
                                "defender": Phrase("eclipse.role.defender"),
                                "out": Phrase("eclipse.role.out")}


def reveal_text(view: EclipseView, names: Sequence[str]) -> Words | None:
    """The last reveal in one line, or ``None`` before the first."""
    reveal = view.reveal
    if reveal is None:
        return None
    no_card = Phrase("eclipse.reveal.no_card")
    numbers: Words = Phrase("eclipse.reveal.presented", attacker=reveal.numbers[0],
                            defender=reveal.numbers[1]) if reveal.numbers else ""
    result = Phrase("eclipse.reveal.wins", who=names[reveal.winner]) \
        if reveal.winner is not None else Phrase("eclipse.reveal.awaiting")
    return Phrase("eclipse.reveal.line", attacker=names[reveal.attacker],
                  attacker_card=reveal.attacker_card.label if reveal.attacker_card else no_card,
                  defender=names[reveal.defender],
                  defender_card=reveal.defender_card.label if reveal.defender_card else no_card,
                  numbers=numbers, judging=steps(reveal.judging), result=result)


def hand_text(hand: Sequence[Card]) -> Words:
    """A hand's symbol cards with their codes, and how many followers it holds."""
    symbols = "  ".join(f"{c.label} ({c.code})" for c in hand if not c.follower)
    cards: Words = symbols or Phrase("eclipse.text.no_symbol_cards")
    followers = sum(c.follower for c in hand)
    if followers:
        return Phrase("eclipse.text.your_hand_followers", count=followers, cards=cards)
    return Phrase("eclipse.text.your_hand", cards=cards)


def render_text(view: EclipseView, names: Sequence[str]) -> Words:
    """The whole table as text, with this seat's hand if the view holds one."""
    lines: list[Words] = [Phrase("eclipse.text.head", count=view.deck_size,
                                 hand=min(view.hands_played + 1, view.hand_cap),
                                 cap=view.hand_cap)]
    for seat in range(view.seats):
        name: Words = Phrase("eclipse.text.you", name=names[seat]) if seat == view.seat \
            else names[seat]
        tag = role(view, seat)
        tagged: Words = Phrase("eclipse.text.tag", role=ROLE_WORD[tag]) if tag else ""
        if view.out[seat]:
            lines.append(Phrase("eclipse.text.seat", number=seat + 1, name=name, tag=tagged))
            continue
        lines.append(Phrase("eclipse.text.seat_in_play", number=seat + 1, name=name,
                            tag=tagged, hand=view.hand_sizes[seat],
                            front=view.cards_in_front(seat)))
        lines += [Phrase("eclipse.text.indented", line=subset_text(subset))
                  for subset in view.subsets[seat]]
    safe = view.safe_set
    if safe:
        lines.append(Phrase("eclipse.text.safe_set", size=safe.size, complete=COMPLETE,
                            label=safe.shown, cards=cards_text(safe.cards)))
    else:
        lines.append(Phrase("eclipse.text.safe_set_empty", complete=COMPLETE))
    if view.counterattack:
        lines.append(Phrase("eclipse.text.counterattack", moves=listed([
            Phrase("eclipse.text.moved", card=card.shown, host=names[host])
            for card, host in view.counterattack])))
    last = reveal_text(view, names)
    if last:
        lines.append(Phrase("eclipse.text.last_reveal", reveal=last))
    if view.seat is not None and view.out[view.seat]:
        lines.append(Phrase("eclipse.text.you_are_out"))
    elif view.hand is not None:
        lines.append(hand_text(view.hand))
    return joined_lines(lines)


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
                names: Sequence[str]) -> Words:
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

    def subset_of(seat: int, number: str, start: bool = False) -> Phrase:
        subsets = view.subsets[seat]
        index = int(number) - 1
        if 0 <= index < len(subsets):
            subset = subsets[index]
            about = {"number": number, "label": subset.shown, "size": subset.size,
                     "complete": COMPLETE}
            return Phrase("eclipse.option.subset_start", **about) if start else \
                Phrase("eclipse.option.subset", **about)
        return Phrase("eclipse.option.subset_bare_start", number=number) if start else \
            Phrase("eclipse.option.subset_bare", number=number)

    if kind == "counter":
        return {COUNTER: Phrase("eclipse.option.counter"),
                SKIP: Phrase("eclipse.option.skip")}.get(option, option)
    if kind == "number":
        return Phrase("eclipse.option.present", number=option)
    if kind == "safe":
        return Phrase("eclipse.option.keep") if option == KEEP else \
            Phrase("eclipse.option.to_safe", card=card(option))
    if kind in ("counter-card", "give-card"):
        if option.startswith(FOLLOWER + "@"):
            return Phrase("eclipse.option.follower_from", number=option[2:])
        return card(option)
    if kind == "counter-place":
        seat_text, _, where = option.partition(":")
        seat = int(seat_text) - 1
        place = Phrase("eclipse.option.new_subset") if where == NEW else subset_of(seat, where)
        return Phrase("eclipse.option.in_front", name=names[seat], place=place)
    if kind == "give-place":
        return Phrase("eclipse.option.new_subset_start") if option == NEW else \
            subset_of(view.attacker, option, start=True)
    if kind == "deposit":
        where, _, extra = option.partition("+")
        loser = view.defender if view.reveal and view.reveal.winner == view.attacker \
            else view.attacker
        place = Phrase("eclipse.option.new_subset_start") if where == NEW else \
            subset_of(loser, where, start=True)
        followers = int(extra) if extra else 0
        if followers:
            return Phrase("eclipse.option.with_followers", count=followers, place=place)
        return place
    return card(option)
