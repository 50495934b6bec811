"""Property tests: generated text thrown at every parser and every option. Each one
answers with a domain error (a refusal that names the input, briefly) or a
success, never with anything else, and a refusal changes nothing."""

from __future__ import annotations

import functools
import random

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord_parts.limits import EMBED_TOTAL, FIELD_VALUE
from bot.discord_parts.replies import fit_embed
from bot.discord_parts.views import DYNAMIC_ITEMS, known_custom_id
from bot.errors import CroupierError
from bot.matches.live import Player
from bot.matches.service import MatchService
from rules.cells import parse_cell
from rules.core import Decision, Event, GameState
from rules.eclipse.cards import normalise_code
from rules.errors import RulesError
from rules.flank.notation import lay_choice
from rules.nails import Placement, placement_notation
from rules.registry import games
from tests.recording import RecordingTransport

REFUSAL_LENGTH = 600
"""Longest refusal a player may be shown (well inside Discord's 2,000)."""

PROFILE = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow,
                                          HealthCheck.function_scoped_fixture])

# Text players type, weighted toward what breaks parsers: other scripts' digits,
# signs, spaces, braces, very long runs, and near-misses of real notation.
NASTY = st.sampled_from([
    "²", "４", "٣", "߃", "-1", "+3", " 1 0 ", "1_000", "0x1f", "1e3", "{0}", "{s1}", "{boss}",
    "}{", "%s", "\x00", "\u202e", "🂠", "C4", "c4*", "C4**", "-A-1", "A0", "ZZZZ1", "17@C4/90",
    "17@C4/45", "S13f", "S99f", "F@2", "2+1", "new+9", "3:new", "keep", "pass", "resign",
    "yes", "cannot", "P1", "cast Kindlewhip with ٣", "land Ashpeak with 1", "use 999.1",
    "boost 1.Z", "3>4", "1>1,1>1", "none", "p9", "1=99", "p2=1,p2=1", "cancel", "Ashpeak 2",
    "attack", "end", "9" * 500, "A" * 300 + "1", "@", "/", ",", "=", ":", "+",
])
TEXT = st.one_of(st.text(max_size=60), NASTY,
                 st.lists(NASTY, min_size=1, max_size=4).map(" ".join),
                 st.text(alphabet="0123456789²４٣ -+@/:,=*", max_size=30))


def refused(error: BaseException) -> bool:
    """A proper refusal: a domain error whose message is short."""
    return isinstance(error, RulesError | CroupierError) and 0 < len(str(error)) <= REFUSAL_LENGTH


@functools.cache
def positions(name: str, count: int = 6) -> list[GameState]:
    """Seeded positions of a game at several depths, each with a decision pending
    (made when a test first asks, not as the module is collected: every test worker
    collects it, one runs it)."""
    info = games()[name]
    found = []
    rng = random.Random(name)
    for seed in range(count):
        state = info.new({}, info.default_seats, seed)
        for _ in range(rng.randrange(0, 40)):
            pending = state.pending()
            if not pending:
                break
            decision = pending[0]
            state.apply(decision.seat, info.bot(state, decision.seat, rng))
        if state.pending():
            found.append(state)
    return found


@pytest.mark.parametrize("name", ["duel", "eclipse", "flank", "nails"])
@PROFILE
@given(text=TEXT, pick=st.integers(min_value=0, max_value=100))
def test_any_typed_choice_is_refused_by_name_or_applies(name, text, pick):
    states = positions(name)
    state = states[pick % len(states)]
    seat = state.pending()[0].seat
    before = state.notation()
    try:
        canonical = state.canonical(seat, text)
    except Exception as error:  # the property: only refusals
        assert refused(error), f"{name}: {text!r} raised {type(error).__name__}: {error}"
        assert state.notation() == before
        return
    trial = state.copy()
    trial.apply(seat, canonical)  # what was accepted really applies
    assert state.notation() == before


@pytest.mark.parametrize("name", ["flank", "eclipse", "nails", "duel"])
@PROFILE
@given(values=st.dictionaries(st.one_of(st.sampled_from(["board", "stoppers", "cards",
                                                          "stopper_zone", "deck",
                                                          "counterattack", "hand_cap",
                                                          "objective", "teams", "hand-cap",
                                                          "life", "auto_pass"]),
                                         st.text(max_size=20)),
                              st.one_of(TEXT, st.integers(), st.booleans(), st.none()),
                              max_size=4),
       seats=st.integers(min_value=-3, max_value=9))
def test_any_options_are_refused_by_name_or_make_a_game(name, values, seats):
    info = games()[name]
    try:
        info.new(values, seats, 1)
    except Exception as error:
        assert refused(error), f"{name} {values!r}: {type(error).__name__}: {error}"


@PROFILE
@given(text=TEXT)
def test_the_small_parsers(text):
    for parse in (parse_cell, normalise_code, Placement.parse, lambda t: lay_choice(t, True),
                  lambda t: placement_notation(17, t, 90)):
        try:
            parse(text)
        except Exception as error:
            assert refused(error), f"{parse}: {text!r}: {type(error).__name__}: {error}"


@PROFILE
@given(text=TEXT, pick=st.sampled_from(["several", "split", "order"]))
def test_choices_of_every_shape(text, pick):
    decision = Decision(0, "k", "", ("a", "b", "c"), pick=pick, least=1, most=2, total=3)
    try:
        canonical = decision.canonical(text)
    except Exception as error:
        assert refused(error), f"{pick}: {text!r}: {type(error).__name__}: {error}"
        return
    assert decision.canonical(canonical) == canonical


@PROFILE
@given(names=st.lists(TEXT, min_size=2, max_size=2))
def test_names_show_as_they_are(names):
    text = Event("x", "{s0} plays against {s1}; {{literal}}").render(names)
    assert text == f"{names[0]} plays against {names[1]}; {{literal}}"


@PROFILE
@given(custom_id=st.one_of(st.text(max_size=100), st.builds(
    lambda kind, a, b: f"cr:{kind}:{a}:{b}",
    st.sampled_from(["pick", "hand", "keys", "page", "lobby", "lb", "reset"]), TEXT, TEXT)))
def test_custom_ids_are_ours_or_not_never_an_error(custom_id):
    assert known_custom_id(custom_id, DYNAMIC_ITEMS) in (True, False)


@PROFILE
@given(title=st.text(max_size=400), value=st.text(max_size=3000), count=st.integers(0, 40))
def test_every_embed_fits_discord_s_limits(title, value, count):
    embed = discord.Embed(title=title, description=value * 3)
    for _ in range(count):
        embed.add_field(name=title, value=value)
    embed.set_footer(text=value)
    fitted = fit_embed(embed)
    assert len(fitted) <= EMBED_TOTAL and all(len(f.value or "") <= FIELD_VALUE
                                              for f in fitted.fields)


async def test_typed_choices_through_the_service_change_nothing(store):
    """The service refuses what the rules refuse, and its refusals are short too."""
    service = MatchService(store, RecordingTransport())
    ada, bo = Player(1, "Ada"), Player(2, "Bo")
    await service.open_lobby(ada, guild_id=1, channel_id=3, game="eclipse")
    await service.join(bo, 3)
    match = await service.start(ada, 3, fill_with_bots=True)
    await service.settle()
    samples = ["²", "٣", "{0}", "9" * 5000, "", " ", "S99f", "resign", "x" * 201, "\x00",
               "S1f S2f", "new+99", "1:new"]
    for text in samples:
        before = match.state.notation()
        for user in (1, 2, 3):
            try:
                await service.submit(user, match.id, text)
            except Exception as error:
                assert refused(error), f"{text!r}: {type(error).__name__}: {error}"
                assert match.state.notation() == before
        assert match.next_seq == len(await store.matches.choices(match.id))
    await service.settle()


@PROFILE
@given(setup=st.dictionaries(st.sampled_from(["deck", "auto_pass", "other"]),
                             st.one_of(TEXT, st.integers(), st.booleans(), st.none(),
                                       st.lists(st.one_of(TEXT, st.sampled_from(
                                           ["Ashpeak", "Kindlewhip"])), max_size=60)),
                             max_size=3))
def test_any_duel_seat_setup_is_refused_by_name_or_makes_a_duel(setup):
    info = games()["duel"]
    try:
        info.new({}, 2, 1, [setup, None])
    except Exception as error:
        assert refused(error), f"{setup!r}: {type(error).__name__}: {error}"
