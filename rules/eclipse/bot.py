"""Eclipse's computer player.

It sees only what its seat may see (its own hand and the table) and plays
every decision with a simple idea:

* **card** — the card most likely to win against a card drawn from those it
  has not seen (so a defender matches the attacker's likely top);
* **number** — the number most likely to win against any number the other side
  may present, picked at random among the near-best so it cannot be read;
* **deposit** — fill the loser's fullest subset, followers included, toward six;
* **safe** — use the safe set to survive a complete subset, otherwise to thin its
  largest subset, but never complete the safe set for nothing;
* **counterattack** — when it holds a strong card and has cards to shed, moving
  them onto other players' fullest subsets; hosts give from their largest
  subset to the attacker's fullest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.core import GameState
from rules.eclipse.cards import FOLLOWER, Card
from rules.eclipse.judge import judge, settle
from rules.eclipse.placement import COMPLETE
from rules.eclipse.state import COUNTER, KEEP, NEW, SKIP, EclipseState
from rules.eclipse.view import EclipseView


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The computer's choice for ``seat`` (a legal option of its pending decision)."""
    assert isinstance(state, EclipseState)
    decision = state.decision_for(seat)
    assert decision is not None, "the computer was asked to move without a decision"
    options = decision.options
    if len(options) == 1:
        return options[0]
    view = state.observe(seat)
    kind = decision.kind
    if kind == "card":
        return _card(state, view, seat, options)
    if kind == "number":
        return _number(view, seat, options, rng)
    if kind == "deposit":
        return _deposit(view, options)
    if kind == "safe":
        return _safe(view, seat, options)
    if kind == "counter":
        return _counter(state, view, seat)
    if kind in ("counter-card", "give-card"):
        return _card_to_move(view, seat, options)
    if kind == "counter-place":
        return _place_elsewhere(view, options)
    if kind == "give-place":
        return _place_home(view, options)
    return rng.choice(options)


def unseen_symbol_cards(state: EclipseState, view: EclipseView) -> list[Card]:
    """Symbol cards this seat cannot see: not in its hand, not on the table."""
    seen = {card.id for card in view.hand or ()}
    for subsets in view.subsets:
        seen.update(card.id for subset in subsets for card in subset.cards)
    if view.safe_set:
        seen.update(card.id for card in view.safe_set.cards)
    return [card for card in state.cards if not card.follower and card.id not in seen]


def win_chance(mine: Card, theirs: Card, attacking: bool) -> float:
    """The chance that ``mine`` beats ``theirs``, numbers presented at random."""
    attacker, defender = (mine, theirs) if attacking else (theirs, mine)
    verdict = judge(attacker, defender)
    if verdict.winner is not None:
        return 1.0 if verdict.attacker_wins == attacking else 0.0
    ranges = verdict.numbers
    assert ranges is not None
    wins = total = 0
    for a in ranges[0]:
        for d in ranges[1]:
            total += 1
            wins += settle(attacker, defender, a, d).attacker_wins == attacking
    return wins / total


def _card(state: EclipseState, view: EclipseView, seat: int, options: Sequence[str]) -> str:
    attacking = seat == view.attacker
    unseen = unseen_symbol_cards(state, view) or [c for c in state.cards if not c.follower]
    best, best_score = options[0], -1.0
    for code in options:
        card = state.deck_def.card_by_code(code)
        chance = sum(win_chance(card, other, attacking) for other in unseen) / len(unseen)
        # Between equal chances keep the stronger card (shields, high numbers) for later.
        score = chance - card.number / 1000
        if score > best_score:
            best, best_score = code, score
    return best


def _number(view: EclipseView, seat: int, options: Sequence[str],
            rng: random.Random) -> str:
    reveal = view.reveal
    assert reveal is not None and reveal.attacker_card and reveal.defender_card
    attacking = seat == view.attacker
    a_card, d_card = reveal.attacker_card, reveal.defender_card
    ranges = judge(a_card, d_card).numbers
    assert ranges is not None
    theirs = ranges[1] if attacking else ranges[0]
    scores = {}
    for option in options:
        mine = int(option)
        wins = 0
        for other in theirs:
            a, d = (mine, other) if attacking else (other, mine)
            wins += settle(a_card, d_card, a, d).attacker_wins == attacking
        scores[option] = wins / len(theirs)
    top = max(scores.values())
    near = [o for o, s in scores.items() if s >= top - 0.15]
    return rng.choice(near)


def _deposit(view: EclipseView, options: Sequence[str]) -> str:
    loser = view.attacker if view.reveal and view.reveal.winner == view.defender else view.defender
    subsets = view.subsets[loser]

    def size_after(option: str) -> tuple[int, int]:
        where, _, extra = option.partition("+")
        followers = int(extra) if extra else 0
        before = 0 if where == NEW else subsets[int(where) - 1].size
        return before + 1 + followers, followers

    return max(options, key=size_after)


def _safe(view: EclipseView, seat: int, options: Sequence[str]) -> str:
    mine = view.subsets[seat]
    codes = [o for o in options if o != KEEP]
    complete = [s for s in mine if s.size >= COMPLETE]
    for subset in complete:
        for card in subset.cards:
            if card.code in codes:
                return card.code
    safe_size = view.safe_set.size if view.safe_set else 0
    if safe_size + 1 >= COMPLETE or not codes:
        return KEEP
    by_size = sorted(mine, key=lambda s: -s.size)
    for subset in by_size:
        for card in subset.cards:
            if card.code in codes:
                return card.code
    return KEEP


def _counter(state: EclipseState, view: EclipseView, seat: int) -> str:
    in_front = view.cards_in_front(seat)
    largest = max((s.size for s in view.subsets[seat]), default=0)
    if in_front < 4 and largest < 4:
        return SKIP
    unseen = unseen_symbol_cards(state, view)
    hand = [c for c in view.hand or () if not c.follower]
    if not hand or not unseen:
        return SKIP
    best = max(sum(win_chance(card, other, True) for other in unseen) / len(unseen)
               for card in hand)
    return COUNTER if best >= 0.55 else SKIP


def _card_to_move(view: EclipseView, seat: int, options: Sequence[str]) -> str:
    """From its largest subset: the one it most needs to thin."""
    for subset in sorted(view.subsets[seat], key=lambda s: -s.size):
        follower = f"{FOLLOWER}@{subset.number}"
        for card in subset.cards:
            if not card.follower and card.code in options:
                return card.code
        if follower in options:
            return follower
    return options[0]


def _place_elsewhere(view: EclipseView, options: Sequence[str]) -> str:
    def size(option: str) -> int:
        seat_text, _, where = option.partition(":")
        if where == NEW:
            return 0
        return view.subsets[int(seat_text) - 1][int(where) - 1].size

    return max(options, key=size)


def _place_home(view: EclipseView, options: Sequence[str]) -> str:
    subsets = view.subsets[view.attacker]
    return max(options, key=lambda o: 0 if o == NEW else subsets[int(o) - 1].size)
