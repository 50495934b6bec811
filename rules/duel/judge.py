"""How good a duel position is for one seat: the ``hard`` computer's judgement.

A number in "cards": life (each point worth more the lower it is), the
creatures and other permanents in play (a creature by its power, toughness and
keywords), lands (the first few matter most), cards in hand, and a race term (how
many turns each side's attackers need to bring the other to 0). A finished duel
is worth :data:`WIN` either way. It reads hands too, so the searching player
hands it only positions it dealt itself (:mod:`rules.duel.unseen`).
"""

from __future__ import annotations

from rules.duel.cards import card
from rules.duel.characteristics import Table
from rules.duel.state import DuelState

WIN = 1000.0
"""A won duel (lost: ``-WIN``); far beyond any position's worth."""
KEYWORD_WORTH = {"flying": 0.8, "first strike": 0.4, "trample": 0.25, "banding": 0.1}
"""A keyword's worth per point of the creature's power."""


def life_worth(life: int) -> float:
    """Life, the last points dearest: losing from 5 to 2 costs more than from 20 to 17.

    >>> life_worth(20) > life_worth(19), life_worth(3) - life_worth(2) > 1.5
    (True, True)
    """
    if life <= 0:
        return -10.0
    low = min(life, 6)
    mid = min(max(life - 6, 0), 8)
    high = max(life - 14, 0)
    return 2.0 * low + 1.1 * mid + 0.5 * high


def creature_worth(table: Table, pid: int) -> float:
    """A creature in play: power, toughness and what its keywords add."""
    power = max(table.power(pid), 0)
    toughness = max(table.toughness(pid), 0)
    worth = 0.8 + 0.9 * power + 0.6 * toughness
    for word in table.keywords(pid):
        if word in KEYWORD_WORTH:
            worth += KEYWORD_WORTH[word] * power
        elif word.startswith(("landwalk", "protection")):
            worth += 0.3 * power + 0.3
    worth += 0.4 * len(table.permanents[pid].card.abilities)
    return worth


def evasive_power(state: DuelState, seat: int, foe: int, table: Table) -> tuple[int, int]:
    """``seat``'s attackers' power against ``foe``: (all of it, what ``foe``'s
    creatures cannot block)."""
    blockers = [p.id for p in state.battlefield.values()
                if p.controller == foe and p.card.is_creature]
    total = evasive = 0
    for perm in state.battlefield.values():
        if perm.controller != seat or not perm.card.is_creature:
            continue
        if table.restricted(perm.id, "cant_attack"):
            continue
        power = max(table.power(perm.id), 0)
        total += power
        if not any(table.permanents[b].card.is_creature and _could_block(table, b, perm.id)
                   for b in blockers):
            evasive += power
    return total, evasive


def _could_block(table: Table, blocker: int, attacker: int) -> bool:
    """Whether ``blocker`` could block ``attacker`` once untapped."""
    perm = table.permanents[blocker]
    was, perm.tapped = perm.tapped, False
    try:
        return table.can_block(blocker, attacker)
    finally:
        perm.tapped = was


def side_worth(state: DuelState, seat: int, table: Table) -> float:
    """What ``seat`` has: life, permanents, lands and hand (lands in hand are
    worth less once enough are in play)."""
    player = state.players[seat]
    worth = life_worth(player.life)
    lands = 0
    for perm in state.battlefield.values():
        if perm.controller != seat:
            continue
        data = perm.card
        if data.is_creature:
            worth += creature_worth(table, perm.id)
        elif data.type == "land":
            lands += 1
        else:
            worth += 0.6 + 0.4 * data.cost_parts.mana_value
    worth += 1.0 * min(lands, 5) + 0.5 * min(max(lands - 5, 0), 2) + 0.1 * max(lands - 7, 0)
    for cid in player.hand:
        if card(state.cards[cid]).type == "land":
            worth += 0.4 if lands >= 6 else 1.0
        else:
            worth += 1.3
    if len(player.library) < 3:
        worth -= 3.0 * (3 - len(player.library))
    return worth


def race(state: DuelState, me: int, foe: int, table: Table) -> float:
    """The race between ``me`` and ``foe``: positive when ``me`` would bring the
    other to 0 in fewer turns, counting only what could get through."""
    mine = evasive_power(state, me, foe, table)
    theirs = evasive_power(state, foe, me, table)
    my_clock = _turns(state.players[foe].life, mine)
    their_clock = _turns(state.players[me].life, theirs)
    return max(-3.0, min(3.0, 0.6 * (their_clock - my_clock)))


def _turns(life: int, power: tuple[int, int]) -> float:
    """Turns to take ``life`` with (total, evasive) power (half the blockable
    power is reckoned to get through)."""
    total, evasive = power
    through = evasive + 0.5 * (total - evasive)
    if life <= 0:
        return 0.0
    return min(10.0, life / through) if through > 0 else 10.0


def worth(state: DuelState, seat: int) -> float:
    """The position's worth to ``seat``: its side minus the others' (their mean),
    :data:`WIN` for a won duel, ``-WIN`` for a lost one, 0 for a draw.

    >>> from rules.registry import get_game
    >>> state = get_game("duel").new({}, 2, 3)
    >>> abs(worth(state, 0) + worth(state, 1)) < 1e-9
    True
    """
    outcome = state.outcome()
    if outcome is not None:
        winners = outcome.winners
        if seat in winners:
            return WIN / len(winners) if len(winners) == 1 else 0.0
        return -WIN
    if seat in state.lost:
        return -WIN
    table = state.table
    foes = state.others(seat)
    mine = side_worth(state, seat, table)
    theirs = sum(side_worth(state, f, table) for f in foes) / len(foes)
    racing = sum(race(state, seat, f, table) for f in foes) / len(foes)
    return mine - theirs + racing
