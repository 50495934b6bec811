"""The scenario notation: a whole duel position in one string, and short actions.

A position is the turn, the active player and the phase, then each player's
part, separated by `` // ``; a player's fields are separated by `` | ``::

    3 p1 main // p1 20 | lib 12 | hand Kindlewhip, Ashpeak | gy - | play 5 Ashpeak T,
      6 Scorchback Runner S D1 // p2 18 | lib Mossvale, Mossvale | hand - | gy - | play 9 Mossvale

(on one line).

* the first part: turn number, the active player (``p1``/``p2``) and the phase
  (``upkeep``, ``draw``, ``main``, ``discard`` or ``end``), then ``attacked`` once
  the active player has made this turn's attack; a position opens the
  phase's priority window, the active player first (in ``main``: their main
  phase decision);
* a player: life, then ``lib`` (the library top first, or a number of basic
  lands of no consequence), ``hand``, ``gy`` (the graveyard), ``play`` (the
  battlefield), ``-`` for an empty zone; optionally ``pool`` (``pool RRG``),
  ``land-played``, ``manual`` (automatic passing turned off) and ``ante``
  (``ante Kindlewhip``: the card set aside for ante);
* a permanent: its number, its name, then flags: ``T`` tapped, ``S`` summoning
  sick, ``D<n>`` damage, ``R<n>`` regeneration shields, ``@<n>`` the permanent
  it enchants.

Cards not on the battlefield are numbered after the highest permanent, in the
order written. :func:`render` (from :mod:`rules.duel.position`, which a duel writes
itself with) writes a position the same way, so a position read and written again
is the same text. (A position with a spell on the stack,
a combat or a spell being announced is written with those parts as a comment
after ``#``, which reading ignores: tests reach such moments by actions.)

Actions (:func:`act`), for whoever is deciding: ``land Ashpeak``, ``cast
Kindlewhip @p2`` (``@`` a target: ``p1``, a number or a card's name; ``X=3`` for X),
``use 7.1 @6``, ``boost 7.B``, ``attack 6,7`` (``band 6+7`` after it to band;
``@p3`` names the player attacked in a free-for-all), ``block 3>6,4>6`` or
``block none``, ``assign 3=2,p2=1``, ``discard Ashpeak, Ashpeak 2``,
``pass``, ``end``.

>>> state = parse("1 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | "
...               "play 1 Ashpeak, 2 Scorchback Runner // p2 20 | lib 5 | hand - | gy - | play -")
>>> render(state) == render(parse(render(state)))
True
>>> _ = act(state, "cast Kindlewhip @p2")
>>> _ = settle(state)  # both pass: it resolves
>>> state.players[1].life
18
"""

from __future__ import annotations

import re

from rules.core import Decision, Event
from rules.duel.board import Permanent
from rules.duel.cards import CardDef, card
from rules.duel.core import PHASES, Window
from rules.duel.position import render
from rules.duel.state import DuelState
from rules.errors import MalformedChoice

__all__ = ["FILLER", "MAX_PLAYERS", "MAX_ZONE", "OPEN_PHASES", "act", "parse", "pass_until",
           "render", "settle"]

MAX_PLAYERS = 4
MAX_ZONE = 250
"""Most cards a zone written as a number holds (the largest deck)."""
OPEN_PHASES = tuple(p for p in PHASES if p not in {"untap", "heal"})
"""The phases a position can stand in (untap and heal ask nobody anything)."""
FILLER = "Dawnfield"
"""What a library written as a number holds."""
_PERMANENT = re.compile(r"^(\d+) ([A-Za-z][A-Za-z' -]*?)((?: (?:T|S|D\d+|R\d+|@\d+))*)$")


def parse(text: str, seed: int = 0) -> DuelState:
    """A position from scenario notation (see the module's text); the RNG is
    seeded ``seed``. :class:`MalformedChoice` names what does not read."""
    text = text.split("#", 1)[0]
    parts = [p.strip() for p in text.split("//")]
    if len(parts) < 3:
        raise MalformedChoice("a position is a head and two players, separated by //")
    if len(parts) > MAX_PLAYERS + 1:
        raise MalformedChoice(f"a position has at most {MAX_PLAYERS} players")
    head = parts[0].split()
    if len(head) not in (3, 4) or _number(head[0]) is None or head[2] not in OPEN_PHASES \
            or head[3:] not in ([], ["attacked"]):
        raise MalformedChoice(f"{parts[0][:40]!r} is not 'turn p<n> phase [attacked]' "
                              f"(phases: {', '.join(OPEN_PHASES)})")
    state = DuelState.empty(len(parts) - 1, seed, 20)
    state.turn = _number(head[0]) or 0
    state.active = _seat(head[1], state.seats)
    state.phase = head[2]
    state.attacked = head[3:] == ["attacked"]
    later: list[tuple[int, list[int], list[str]]] = []
    antes: dict[int, list[int]] = {}
    """Each seat's ante, a zone of one card while reading (numbered in order too)."""
    for seat, part in enumerate(parts[1:]):
        fields = [f.strip() for f in part.split("|")]
        who_life = fields[0].split()
        if len(who_life) != 2 or _seat(who_life[0], state.seats) != seat:
            raise MalformedChoice(f"{fields[0][:40]!r} should be 'p{seat + 1} <life>'")
        if _number(who_life[1].removeprefix("-")) is None:
            raise MalformedChoice(f"p{seat + 1}'s life {who_life[1][:20]!r} is not a whole "
                                  "number")
        player = state.players[seat]
        player.life = int(who_life[1])
        seen: set[str] = set()
        for field in fields[1:]:
            key, _, value = field.partition(" ")
            value = value.strip()
            if key in seen:
                raise MalformedChoice(f"p{seat + 1} has {key!r} twice")
            seen.add(key)
            if key == "play":
                for entry in _list(value):
                    _place(state, seat, entry)
            elif key in {"lib", "hand", "gy"}:
                zone = {"lib": player.library, "hand": player.hand,
                        "gy": player.graveyard}[key]
                count = _number(value)
                if count is not None and count > MAX_ZONE:
                    raise MalformedChoice(f"a zone holds at most {MAX_ZONE} cards")
                names = [FILLER] * count if count is not None else _list(value)
                later.append((seat, zone, names))
            elif key == "pool":
                if not re.fullmatch(r"[WUBRG]{1,99}", value):
                    raise MalformedChoice(f"{value[:40]!r} is not mana like RRG (W U B R G)")
                for colour in value:
                    player.pool[colour] = player.pool.get(colour, 0) + 1
            elif key == "land-played":
                player.land_played = True
            elif key == "manual":
                player.auto_pass = False
            elif key == "ante":
                if not value:
                    raise MalformedChoice(f"p{seat + 1}'s ante is one card's name")
                later.append((seat, antes.setdefault(seat, []), [value]))
            else:
                raise MalformedChoice(f"{key!r} is not a field (lib, hand, gy, play, pool, "
                                      "land-played, manual, ante)")
    for seat, zone, names in later:
        for name in names:
            zone.append(state.new_card(_card_name(name), seat))
    for seat, (cid,) in antes.items():
        state.players[seat].ante = cid
    for perm in state.battlefield.values():
        if perm.attached is not None and perm.attached not in state.battlefield:
            raise MalformedChoice(f"{perm.id} {perm.name} enchants {perm.attached}, "
                                  "which is not in play")
    state.window = Window("main" if state.phase == "main" else "fast", state.active)
    state.advance()
    return state


def _number(text: str) -> int | None:
    """A whole number written with at most six ASCII digits, else ``None``."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def _seat(text: str, seats: int) -> int:
    if not re.fullmatch(r"p[1-9]", text) or int(text[1:]) > seats:
        raise MalformedChoice(f"{text!r} is not a player (p1 … p{seats})")
    return int(text[1:]) - 1


def _list(value: str) -> list[str]:
    return [] if value in {"", "-"} else [v.strip() for v in value.split(",")]


def _card_name(name: str) -> str:
    try:
        return card(name).name
    except KeyError:
        raise MalformedChoice(f"there is no card {name!r}") from None


def _place(state: DuelState, seat: int, entry: str) -> None:
    found = _PERMANENT.match(entry)
    if found is None:
        raise MalformedChoice(f"{entry!r} is not 'number name [T] [S] [D1] [R1] [@n]'")
    cid = int(found[1])
    if cid in state.cards:
        raise MalformedChoice(f"card number {cid} is used twice")
    state.new_card(_card_name(found[2]), seat, cid)
    perm = Permanent(cid, found[2], seat, seat, sick=False)
    for flag in found[3].split():
        if flag == "T":
            perm.tapped = True
        elif flag == "S":
            perm.sick = True
        elif _number(flag[1:]) is None:
            raise MalformedChoice(f"{flag[:12]!r} needs a number of up to six digits")
        elif flag[0] == "D":
            perm.damage = int(flag[1:])
        elif flag[0] == "R":
            perm.shields = int(flag[1:])
        else:
            perm.attached = int(flag[1:])
    state.battlefield[cid] = perm


def act(state: DuelState, action: str) -> list[Event]:
    """Apply one short action for whoever decides now; returns its events.
    Forced choices (an automatic pass) are not made: see :func:`settle`."""
    pending = state.pending()
    if not pending:
        raise MalformedChoice("nobody is deciding: the duel is over")
    seat = pending[0].seat
    verb, _, rest = action.strip().partition(" ")
    events: list[Event] = []
    if verb in {"cast", "use"}:
        body, _, target = rest.partition("@")
        x_match = re.search(r"\bX=(\d+)", body)
        body = re.sub(r"\s*\bX=\d+", "", body).strip()
        if verb == "cast":  # refused before anything is announced
            data = _casting_card(body)
            if x_match is not None and not data.cost_parts.x:
                raise MalformedChoice(f"{data.name} has no X in its cost")
            if target.strip() and data.target_effect() is None and data.enchants is None:
                raise MalformedChoice(f"{data.name} takes no target")
        events += state.apply(seat, f"{verb} {body}")
        if x_match is not None:
            events += state.apply(seat, x_match[1])
        if target.strip():
            events += state.apply(seat, _ref(state, target.strip()))
        return events
    if verb == "attack":
        rest, _, defender = rest.partition("@")
        events += state.apply(seat, "attack")
        decision = state.decision_for(seat)
        if decision is not None and decision.kind == "defender":
            events += state.apply(seat, defender.strip() or "?")
        attackers, _, band = rest.partition(" band ")
        events += state.apply(seat, attackers.strip())
        decision = state.decision_for(seat)
        if decision is not None and decision.kind == "band":
            events += state.apply(seat, band.strip() or "none")
        return events
    if verb in {"block", "assign", "discard"}:
        return state.apply(seat, rest.strip())
    return state.apply(seat, action.strip())


def _casting_card(body: str) -> CardDef:
    name = body.split(" with ")[0].strip()
    try:
        return card(name)
    except KeyError:
        raise MalformedChoice(f"there is no card {name[:40]!r}") from None


def _ref(state: DuelState, text: str) -> str:
    if re.fullmatch(r"p[1-9]|\d+", text):
        return text
    for perm in state.battlefield.values():
        if perm.name == text:
            return str(perm.id)
    for item in reversed(state.stack):
        if item.name == text:
            return str(item.id)
    raise MalformedChoice(f"{text!r} is neither a player, a number nor a card in play")


def settle(state: DuelState) -> list[Event]:
    """Make every forced choice (automatic passes) until someone must choose."""
    events: list[Event] = []
    while True:
        pending = state.pending()
        if not pending or pending[0].forced is None:
            return events
        events += state.apply(pending[0].seat, pending[0].forced)


def pass_until(state: DuelState, kind: str, seat: int | None = None) -> list[Event]:
    """Pass (and make forced choices) until a decision of ``kind`` (for
    ``seat``) is asked; for tests that skip ahead."""
    events: list[Event] = []
    for _ in range(500):
        pending = state.pending()
        if not pending:
            return events
        decision: Decision = pending[0]
        if decision.kind == kind and (seat is None or decision.seat == seat):
            return events
        if decision.forced is not None:
            events += state.apply(decision.seat, decision.forced)
        elif decision.kind == "priority":
            events += state.apply(decision.seat, "pass")
        elif decision.kind == "main":
            events += state.apply(decision.seat, "end")
        elif decision.kind == "block":
            events += state.apply(decision.seat, "none")
        else:
            raise MalformedChoice(f"cannot pass a {decision.kind!r} decision")
    raise MalformedChoice(f"no {kind!r} decision came")
