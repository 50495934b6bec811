"""Hammer & Nails: the count shown during play and the final count are one computation
(issue 28: the local table said "count 13" through the game and the result 14, because
the count shown left out the nails in hand, which the final count adds).

During play everyone sees each count without the hands (they are secret), and each
seat sees its own hand's part too; once the game is over every view shows the final
count, the outcome's scores, in the table, the DM and the local table's words."""

from __future__ import annotations

import random
import re

from bot import i18n
from bot.games import presenter_for
from bot.matches.live import LiveMatch
from rules.nails import GAME as NAILS
from rules.nails import NailsState
from rules.nails.state import NailsView
from rules.nails.text import player_line as player_words
from storage.models import MatchRow, SeatRow

NAMES = ("Ada", "Bo", "Cy", "Di")


def player_line(view: NailsView, names: list[str], seat: int) -> str:
    """A seat's line of the text view, in English."""
    return i18n.say(player_words(view, names, seat), "en")


DEALER = {"final_round": "dealer"}
DIFFERED = ((0, 2, DEALER), (1, 4, DEALER), (0, 2, {**DEALER, "deck": "space"}),
            (0, 3, {**DEALER, "deck": "workshop4"}), (3, 2, DEALER))
"""Games (seed, seats, options) where the count shown at the end, hands left out,
was not the final count (found under the ending they are played with)."""


def finished(seed: int, seats: int, options: dict, check=None) -> NailsState:
    state = NAILS.new(options, seats, seed)
    rng = random.Random(seed)
    while not state.over:
        if check is not None:
            check(state)
        decision = state.pending()[0]
        state.apply(decision.seat, NAILS.bot(state, decision.seat, rng))
    return state


def shown_count(line: str) -> int:
    return int(re.search(r"count (\d+)", line).group(1))


def test_the_count_at_the_end_is_the_final_count_everywhere():
    for seed, seats, options in DIFFERED:
        state = finished(seed, seats, options)
        scores = state.outcome().scores
        for seat in (None, *range(seats)):
            view = state.observe(seat)
            assert view.showing == scores
            for s in range(seats):
                assert shown_count(player_line(view, NAMES, s)) == scores[s]
        assert scores == tuple(state.totals())
        assert list(scores) != state.totals(hands=()), "hands counted for nothing here"
        row = MatchRow(id=seed + 1, game="nails", options=NAILS.options.parse(options).stored(),
                       seed=seed, guild_id=1, channel_id=1, host_id=1, max_seats=seats,
                       status="active", seats=[SeatRow(seat=i, user_id=i + 1, name=NAMES[i],
                                                       is_bot=False) for i in range(seats)])
        match = LiveMatch(row=row, info=NAILS, state=state, finished=True)
        embed, _ = presenter_for("nails").board(match)
        for s in range(seats):
            assert shown_count(embed.fields[s].value) == scores[s]


def test_during_play_a_seat_sees_its_own_count_as_the_final_count_would_be():
    """In a two-player game a seat knows its whole count: what everyone sees plus the
    nails of its colour in its hand is what the final count would be now."""
    def check(state: NailsState) -> None:
        for seat in range(2):
            view = state.observe(seat)
            mine = view.showing[seat] + view.in_hand
            assert mine == state.totals(hands=(seat,))[seat] == state.totals()[seat]
            line = player_line(view, NAMES, seat)
            assert f"count {view.showing[seat]} + {view.in_hand} in your hand" in line, line
            assert "in your hand" not in player_line(view, NAMES, 1 - seat)
        channel = state.observe(None)
        assert channel.in_hand is None and list(channel.showing) == state.totals(hands=())

    for seed, seats, options in DIFFERED:
        if seats == 2:
            finished(seed, seats, options, check)


def test_in_teams_the_count_shown_says_both_hands_add_to_it():
    """Teammates share a count, and the final count adds both their hands: a seat's own
    line says its teammate's hand adds too, and a team's line says its hands (plural)."""
    state = NAILS.new({}, 4, 1)
    view = state.observe(0)
    assert view.colours[0] == view.colours[2] != view.colours[1] == view.colours[3]
    own = player_line(view, NAMES, 0)
    assert f"count {view.showing[0]} + {view.in_hand} in your hand + your teammate's" in own
    for seat in (1, 2, 3):
        assert f"count {view.showing[seat]} + hands" in player_line(view, NAMES, seat)
    two = NAILS.new({}, 2, 1).observe(0)
    assert "teammate" not in player_line(two, NAMES, 0)
    assert player_line(two, NAMES, 1).split(" · ")[2] == f"count {two.showing[1]} + hand"
