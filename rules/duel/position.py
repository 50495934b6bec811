"""A duel's position written in the scenario notation (:func:`render`). The notation
itself, reading a position back and acting on it are :mod:`rules.duel.notation`'s;
writing needs only the table, so that a duel can write itself
(:meth:`~rules.duel.state.DuelState.notation`) without the reader."""

from __future__ import annotations

from rules.duel.board import Permanent
from rules.duel.core import DuelCore


def render(state: DuelCore) -> str:
    """The position in scenario notation."""
    head = f"{state.turn} {state.player_ref(state.active)} {state.phase}" + (
        " attacked" if state.attacked else "")
    parts = [head]
    for seat, player in enumerate(state.players):
        fields = [f"{state.player_ref(seat)} {player.life}",
                  "lib " + _names(state, player.library),
                  "hand " + _names(state, player.hand),
                  "gy " + _names(state, player.graveyard),
                  "play " + (", ".join(_permanent(p) for p in state.battlefield.values()
                                      if p.controller == seat) or "-")]
        mana = "".join(c * n for c, n in sorted(player.pool.items()) if n > 0)
        if mana:
            fields.append("pool " + mana)
        if player.land_played:
            fields.append("land-played")
        if not player.auto_pass:
            fields.append("manual")
        if player.ante is not None:
            fields.append("ante " + state.cards[player.ante])
        parts.append(" | ".join(fields))
    text = " // ".join(parts)
    notes = []
    if state.stack:
        notes.append("stack " + ", ".join(f"{i.id} {i.name}" + (f" @{i.target}" if i.target
                                                                  else "")
                                          for i in state.stack))
    if state.combat is not None:
        notes.append(f"combat {state.combat.stage} attackers "
                     + ",".join(map(str, state.combat.attackers)))
    if state.casting is not None:
        notes.append("announcing")
    return text + (" # " + "; ".join(notes) if notes else "")


def _names(state: DuelCore, cids: list[int]) -> str:
    return ", ".join(state.cards[c] for c in cids) or "-"


def _permanent(perm: Permanent) -> str:
    flags = ("T" if perm.tapped else "") , ("S" if perm.sick else ""), \
        (f"D{perm.damage}" if perm.damage else ""), (f"R{perm.shields}" if perm.shields else ""), \
        (f"@{perm.attached}" if perm.attached is not None else "")
    return " ".join([str(perm.id), perm.name, *[f for f in flags if f]])
