"""The decision model: one option, several, a number split among targets, an order;
the choice made on a timeout and whether it is a strike."""

from __future__ import annotations

from typing import ClassVar

import pytest
from pydantic import Field

from bot.clock import FakeClock
from bot.i18n import say
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from rules.core import Decision, Event, GameInfo, GameState, Outcome, SeatSetup
from rules.errors import IllegalChoice, MalformedChoice
from rules.options import GameOptions
from rules.registry import add_game, remove_game
from tests.recording import RecordingTransport

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines


@pytest.mark.parametrize(("decision", "typed", "canonical"), [
    (Decision(0, "discard", "", ("a", "b", "c"), pick="several", least=1, most=2), "c, a", "a,c"),
    (Decision(0, "discard", "", ("a", "b", "c"), pick="several", least=0, most=3), "", ""),
    (Decision(0, "damage", "", ("x", "y", "z"), pick="split", total=4), "z=3, x=1", "x=1,z=3"),
    (Decision(0, "damage", "", ("x", "y"), pick="split", total=2), "x=0,y=2", "y=2"),
    (Decision(0, "order", "", ("p", "q", "r"), pick="order"), "r,p,q", "r,p,q"),
])
def test_choices_of_every_shape_are_read_into_one_canonical_form(decision, typed, canonical):
    assert decision.canonical(typed) == canonical
    assert decision.canonical(canonical) == canonical


@pytest.mark.parametrize(("decision", "typed", "error", "words"), [
    (Decision(0, "d", "", ("a", "b", "c"), pick="several", least=2, most=2), "a",
     IllegalChoice, "pick 2, not 1"),
    (Decision(0, "d", "", ("a", "b", "c"), pick="several", least=1, most=3), "a,a",
     IllegalChoice, "twice"),
    (Decision(0, "d", "", ("a", "b"), pick="several", least=1, most=2), "a,zz",
     IllegalChoice, "'zz'"),
    (Decision(0, "d", "", ("x", "y"), pick="split", total=3), "x=1,y=1", IllegalChoice,
     "add up to 3, not 2"),
    (Decision(0, "d", "", ("x", "y"), pick="split", total=3), "x=٣", MalformedChoice,
     "'x=٣'"),
    (Decision(0, "d", "", ("x", "y"), pick="split", total=3), "x=-3", MalformedChoice,
     "'x=-3'"),
    (Decision(0, "d", "", ("x", "y"), pick="split", total=3), "x=" + "9" * 5000,
     IllegalChoice, "must add up to 3"),
    (Decision(0, "d", "", ("x", "y"), pick="split", total=30), "x=9999999,y=0",
     IllegalChoice, "must add up to 30"),
    (Decision(0, "d", "", ("p", "q", "r"), pick="order"), "q,p", IllegalChoice,
     "all 3 in order"),
])
def test_bad_choices_of_every_shape_are_refused_by_name(decision, typed, error, words):
    with pytest.raises(error, match=None) as raised:
        decision.canonical(typed)
    english = say(raised.value.text, "en")
    assert words in english and len(english) < 300
    assert say(raised.value.text, "pt_BR") != english


def test_the_only_choice_of_each_shape():
    assert Decision(0, "k", "", ("x",)).only_choice == "x"
    assert Decision(0, "k", "", ("x", "y")).only_choice is None
    assert Decision(0, "k", "", ("a", "b"), pick="several", least=2, most=5).only_choice == "a,b"
    assert Decision(0, "k", "", ("a", "b"), pick="several", least=1, most=2).only_choice is None
    assert Decision(0, "k", "", ("t",), pick="split", total=5).only_choice == "t=5"
    assert Decision(0, "k", "", ("t",), pick="order").only_choice == "t"


def test_options_of_several_may_not_hold_the_separators():
    with pytest.raises(ValueError, match="may not contain"):
        Decision(0, "k", "", ("a,b", "c"), pick="several", most=2)


# -- a game of every shape, through the service ------------------------------------------
class ShapesOptions(GameOptions):
    title: ClassVar[str] = "Shapes"
    rounds: int = Field(1, ge=1, le=3, description="rounds")


class ShapesState(GameState):
    """Each round: seat 0 discards 1–2 of a, b, c; seat 1 splits 3 among x and y, then
    orders p, q, r; seat 0 says yes or no (on a timeout: no, and no strike)."""

    game = "shapes"
    STEPS: ClassVar[tuple[str, ...]] = ("several", "split", "order", "answer")

    def __init__(self, seats: int, seed: int, setup: tuple[SeatSetup, ...]) -> None:
        super().__init__(seats, seed)
        self.log: list[str] = []
        self.setup = setup

    def decisions(self) -> tuple[Decision, ...]:
        if len(self.log) >= len(self.STEPS):
            return ()
        kind = self.STEPS[len(self.log)]
        if kind == "several":
            return (Decision(0, kind, "Discard 1–2", ("a", "b", "c"), pick="several",
                             least=1, most=2),)
        if kind == "split":
            return (Decision(1, kind, "Split 3", ("x", "y"), pick="split", total=3),)
        if kind == "order":
            return (Decision(1, kind, "Order", ("p", "q", "r"), pick="order"),)
        return (Decision(0, kind, "Yes or no?", ("yes", "no"), default="no", strike=False),)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self.log.append(choice)
        return [Event("did", f"{{s{seat}}} chose {choice}.")]

    def _outcome(self) -> Outcome | None:
        return Outcome((1, 2), None, "done") if len(self.log) >= len(self.STEPS) else None

    def observe(self, seat: int | None) -> tuple[str, ...]:
        return tuple(self.log)

    def notation(self) -> str:
        return "|".join(self.log)


def _bot(state: GameState, seat: int, rng: object) -> str:
    decision = state.decision_for(seat)
    assert decision is not None
    return decision.only_choice or decision.options[0]


SHAPES = GameInfo(name="shapes", title="Shapes", min_seats=2, max_seats=2,
                  new_state=lambda options, seats, seed, setup: ShapesState(seats, seed, setup),
                  options=ShapesOptions, bot=_bot, rules_text="Shapes.", setup="a word")


@pytest.fixture
def shapes():
    add_game(SHAPES)
    yield SHAPES
    remove_game(SHAPES.name)


async def test_every_shape_through_the_service_and_a_timeout_without_a_strike(store, shapes):
    clock = FakeClock()
    service = MatchService(store, RecordingTransport(), clock=clock,
                           timing=Timing(turn_seconds=60, warn_seconds=10))
    ada, bo = Player(1, "Ada"), Player(2, "Bo")
    await service.open_lobby(ada, guild_id=1, channel_id=9, game="shapes",
                             setup={"word": "sun"})
    await service.join(bo, 9, setup={"word": "moon"})
    match = await service.start(ada, 9)
    assert match.state.setup == ({"word": "sun"}, {"word": "moon"})
    assert (await service.submit(1, match.id, "c,a")).choice == "a,c"
    assert (await service.submit(2, match.id, "y=3")).choice == "y=3"
    assert (await service.submit(2, match.id, "q,r,p")).choice == "q,r,p"
    clock.advance(61)
    await service.tick()
    await service.settle()
    assert match.finished and match.state.log == ["a,c", "y=3", "q,r,p", "no"]
    assert [s.strikes for s in match.seats] == [0, 0]
    restored = await store.matches.get(match.id)
    assert [s.setup for s in restored.seats] == [{"word": "sun"}, {"word": "moon"}]


def test_a_game_without_setup_refuses_it(shapes):
    from rules.errors import BadOptions
    from rules.registry import get_game
    with pytest.raises(BadOptions) as refused:
        get_game("flank").new({}, 2, 1, [{"deck": "x"}, None])
    assert say(refused.value.text, "en") == "Flank seats bring nothing to the table"
    assert SHAPES.new({}, 2, 1, [{"w": 1}, None]).setup == ({"w": 1}, None)


async def test_menus_pick_several_at_once_and_splits_come_as_a_form_or_typed(store, shapes):
    from bot.games import presenter_for

    service = MatchService(store, RecordingTransport())
    ada, bo = Player(1, "Ada"), Player(2, "Bo")
    await service.open_lobby(ada, guild_id=1, channel_id=9, game="shapes")
    await service.join(bo, 9)
    match = await service.start(ada, 9)
    presenter = presenter_for("shapes")
    several = presenter.private(match, match.private_view(0))
    (menu,) = several["view"].children
    assert (menu.item.min_values, menu.item.max_values) == (1, 2)
    assert [o.value for o in menu.item.options] == ["a", "b", "c"]
    await service.submit(1, match.id, "b")
    split = presenter.private(match, match.private_view(1))
    (form,) = split["view"].children  # a form of one number per option …
    assert form.item.custom_id == f"cr:split:{match.id}:{match.state.step}"
    field = next(f for f in split["embed"].fields if f.name == "Your decision")
    assert "/choose" in field.value and "x=3" in field.value  # … or typed
    await service.settle()
