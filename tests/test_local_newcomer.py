"""What a newcomer stumbled on at the local table (issue 28): how to pick several or
none, numbers out of range, the help, where pictures go, a hand's picture, the end
of a game, which saved game is offered, and the help listing every command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

import pytest

from bot.cli import main
from bot.errors import said
from bot.i18n import say
from bot.matches.live import LiveMatch
from bot.terminal.help import pick_help, pick_hint
from bot.terminal.table import Screen, help_text, legal_text, options_example, play_local
from rules.core import Decision, Event, GameInfo, GameState, Outcome
from rules.duel.notation import act, parse
from rules.errors import BadOptions
from rules.options import GameOptions, OptionSpec
from rules.registry import add_game, games, get_game, remove_game
from storage import Store
from storage.models import MatchRow, SeatRow
from tests.test_local import Player, png_size


def plain(block: object) -> str:
    out: list[str] = []
    Screen(out.append).show(block)
    return out[0]


# -- 1. picking several, or none -------------------------------------------------------------

def test_every_multi_pick_decision_says_how_to_pick_several_and_none() -> None:
    up_to = Decision(0, "block", "Block?", ("4>2", "5>3", "6>3"), pick="several", least=0,
                     most=2)
    assert "commas" in pick_help(up_to) and "none" in pick_help(up_to)
    assert "4>2,5>3" in pick_help(up_to) and "up to 2" in pick_help(up_to)
    assert "Enter" in pick_help(up_to) and "Enter: none" in pick_hint(up_to)
    some = Decision(0, "attack", "Attack?", ("1", "18", "20"), pick="several", least=1, most=3)
    assert "1 to 3" in pick_help(some) and "1,18" in pick_help(some)
    assert "none" not in pick_help(some) and "1,18" in pick_hint(some)
    exact = Decision(0, "discard", "Discard 2", ("a", "b", "c"), pick="several", least=2,
                     most=2)
    assert "exactly 2" in pick_help(exact) and "a,b" in pick_hint(exact)
    split = Decision(0, "damage", "Split 3 damage", ("7", "p2"), pick="split", total=3)
    assert "7=3" in pick_help(split) and "add up to 3" in pick_help(split)
    assert "commas" in pick_help(split)
    order = Decision(0, "order", "Order them", ("p", "q", "r"), pick="order")
    assert "all 3 in order" in pick_help(order) and "p,q,r" in pick_hint(order)
    # One option at a time says nothing more than the prompt.
    assert pick_help(Decision(0, "go", "Go?", ("go", "wait"))) is None
    assert pick_hint(Decision(0, "go", "Go?", ("go", "wait"))) is None


def duel_match(state: GameState) -> LiveMatch:
    seats = [SeatRow(seat=0, user_id=1, name="Tess"),
             SeatRow(seat=1, user_id=1, name="Croupier Bot")]
    row = MatchRow(id=1, game="duel", options={}, seed=1, guild_id=None, channel_id=0,
                   host_id=1, max_seats=2, status="active", seats=seats)
    return LiveMatch(row=row, info=get_game("duel"), state=state)


DUEL = ("6 p1 main // p1 20 | lib Stormcrest Roc, Kindlewhip | hand Kindlewhip, Ashpeak |"
        " gy - | play 1 Ashpeak, 2 Torchbearer Militia, 3 Magma Ridgeback, 8 Mossvale"
        " | pool RR // p2 18 | lib Burrtusk Boar | hand Forgeheat Surge |"
        " gy - | play 4 Burrtusk Boar, 5 Slagfoot Brute, 9 Mossvale")


def test_the_duels_attack_and_blocks_say_how_to_pick_several_or_none() -> None:
    attacking = parse(DUEL)
    attacking.apply(0, "attack")
    decision = attacking.decision_for(0)
    assert decision is not None and decision.kind == "attack"
    said = plain(legal_text(duel_match(attacking), 0))
    assert "2,3" in said and "commas" in said
    assert "2,3" in help_text(get_game("duel"), decision=decision)

    blocking = parse(DUEL)
    act(blocking, "attack 2,3")
    while (decision := blocking.pending()[0]).kind != "block":
        blocking.apply(decision.seat, "pass")
    said = plain(legal_text(duel_match(blocking), 1))
    assert "4>2" in said and "commas" in said and "none" in said
    assert "none" in help_text(get_game("duel"), decision=decision)


class CrowdState(GameState):
    """Pick up to two of a, b, c (or none), then one to three of them."""

    game = "crowd"

    def __init__(self, seats: int, seed: int) -> None:
        super().__init__(seats, seed)
        self.picks: list[str] = []

    def decisions(self) -> tuple[Decision, ...]:
        if len(self.picks) == 0:
            return (Decision(0, "invite", "Invite whom?", ("a", "b", "c"), pick="several",
                             least=0, most=2),)
        if len(self.picks) == 1:
            return (Decision(0, "seat", "Seat whom?", ("a", "b", "c"), pick="several",
                             least=1, most=3),)
        return ()

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self.picks.append(choice)
        return [Event("pick", f"{{s{seat}}} picks {choice or 'nobody'}.")]

    def _outcome(self) -> Outcome | None:
        return Outcome((1, 2), None, "picked") if len(self.picks) == 2 else None

    def observe(self, seat: int | None) -> str:
        return f"picked {self.picks}"

    def notation(self) -> str:
        return str(self.picks)


class NoOptions(GameOptions):
    title: ClassVar[str] = "Crowd"


@pytest.fixture
def crowd() -> Iterator[GameInfo]:
    info = add_game(GameInfo(
        name="crowd", title="Crowd", min_seats=2, max_seats=2,
        new_state=lambda o, seats, seed, setup: CrowdState(seats, seed), options=NoOptions,
        bot=lambda state, seat, rng: "a", rules_text="Pick."))
    yield info
    remove_game("crowd")


async def test_a_pick_of_several_at_the_terminal_says_how_and_enter_picks_none(tmp_path,
                                                                               crowd):
    person = Player(["legal", "help", "", "a, c", "q"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game="crowd",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None and match.finished
    assert person.prompts[0].startswith("Invite whom?") and "Enter: none" in person.prompts[0]
    assert "a,b" in person.prompts[0]
    assert person.prompts[3].startswith("Seat whom?") and "Enter" not in person.prompts[3]
    legal = next(block for block in person.out if block.startswith("Invite whom?"))
    assert "commas" in legal and "none" in legal
    assert any("none (or just Enter) picks none" in block for block in person.out)
    assert "• Tess picks nobody." in person.text and "• Tess picks a,c." in person.text
    assert not person.warnings()


# -- 2. numbers out of range ------------------------------------------------------------------

def test_numbers_out_of_range_say_the_range_and_other_digits_are_still_refused() -> None:
    spec = OptionSpec("players", "number", 3, "", minimum=2, maximum=6)
    for typed in ("99999999999999999999", "-1", "7", "0", "-99999999999"):
        with pytest.raises(BadOptions) as refused:
            spec.read(typed)
        assert said(refused.value, "en").startswith("players must be a whole number from 2 "
                                                    "to 6, not '"), str(refused.value)
    for typed in ("٣", "²", "４", "+2", "1 2", "x"):
        with pytest.raises(BadOptions) as refused:
            spec.read(typed)
        assert "written with the digits 0-9" in said(refused.value, "en"), typed
    with pytest.raises(BadOptions) as refused:
        spec.read(9)
    assert "from 2 to 6, not 9" in said(refused.value, "en")


def test_perft_and_the_players_prompt_say_the_range(capsys, tmp_path) -> None:
    with pytest.raises(SystemExit):
        main(["perft", "flank", "--depth", "-1"])
    assert "depth must be a whole number from 0 to 30, not '-1'" in capsys.readouterr().err


async def test_the_players_prompt_says_the_range_and_explains_itself(tmp_path) -> None:
    person = Player(["eclipse", "99999999999999999999", "?", "3", "", "q"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                     write=person.write, name="Tess")
    assert person.warnings() == ["⚠ players must be a whole number from 2 to 6, not "
                                 "'99999999999999999999'"]
    explained = next(block for block in person.out if "computer" in block and "2 to 6" in block)
    assert "you included" in explained


# -- 3. the help ---------------------------------------------------------------------------------

def test_the_top_level_help_is_whole_and_plain(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out and "`" not in out
    words = " ".join(out.split())
    assert "connects to Discord" in words and "opens the local table" in words
    for command in ("run", "local", "perft", "cards", "selfplay"):
        assert re.search(rf"\n +{command} +\S", out), command


def test_flanks_cards_help_says_one_thing() -> None:
    spec = get_game("flank").options.spec("cards")
    assert spec is not None
    said = f"{spec.description} ({spec.every_choice()})"
    assert "2 to 100 unbounded" in said and "N×N/2 on an N×N board" in said
    assert "at most 100" not in said
    assert "from 2 to 338" in said  # the declared bounds: 338 is 26×26/2


def test_no_help_line_ends_a_sentence_then_goes_on() -> None:
    for info in games().values():
        said = help_text(info)
        assert ".;" not in said and ". ;" not in said and "..." not in said, said


def test_option_examples_use_typical_values_not_the_least() -> None:
    for info in games().values():
        example = options_example(info.options)
        for word in example.split():
            name, value = word.split("=")
            spec = info.options.spec(name)
            assert spec is not None
            if spec.kind == "number":
                assert int(value) not in (spec.minimum, spec.default), (info.name, word)
            info.options.parse({name: value})  # each example is allowed
    assert options_example(get_game("flank").options).startswith("board=8 ")
    assert "life=1 " not in options_example(get_game("duel").options) + " "


# -- 4. pictures go to the data folder ---------------------------------------------------------

async def test_picture_without_a_name_is_saved_in_the_data_folder(tmp_path, monkeypatch):
    here, data = tmp_path / "clone", tmp_path / "data"
    here.mkdir()
    data.mkdir()
    monkeypatch.chdir(here)
    person = Player(["picture"], then="quit")
    match = await play_local(str(data / "croupier.sqlite3"), game="nails",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None
    assert list(here.iterdir()) == []
    (saved,) = (data / "pictures").iterdir()
    assert png_size(saved)[0] > 100
    assert f"Table picture saved to {saved} " in person.text


# -- 5. Hammer & Nails: a tile's zones, and the hand's picture ---------------------------------

async def test_nails_explains_a_tiles_zones_and_saves_the_persons_hand(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    named = tmp_path / "mine.png"
    person = Player(["help", "picture hand", f"picture hand {named}"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game="nails",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None
    # Where the hand is listed, and in the help: the order of a tile's zones.
    assert re.search(r"Your hand \(.*clockwise from the top-left.*\):", person.text)
    assert any("clockwise from the top-left" in block and "picture hand" in block
               for block in person.out)
    from bot.games.nails.pictures import render_hand

    expected = render_hand(match.state.observe(0).hand)
    (default,) = (tmp_path / "pictures").iterdir()
    assert default.name.startswith("croupier-hand-") and default.read_bytes() == expected
    assert named.read_bytes() == expected
    assert f"Hand picture saved to {default} " in person.text
    assert not person.warnings()


async def test_a_game_without_a_hand_picture_says_so(tmp_path):
    person = Player(["picture hand"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game="flank", read_line=person.read_line,
                     write=person.write, name="Tess")
    assert person.warnings() == ["⚠ Flank has no hand picture; nothing was saved."]
    assert not (tmp_path / "pictures").exists()


# -- 6. the end of a game -------------------------------------------------------------------------

class FinishingPlayer(Player):
    """Plays by `legal`; at the end, answers the "Another game?" prompt with ``again``."""

    def __init__(self, again: list[str]) -> None:
        super().__init__()
        self.again = list(again)

    async def read_line(self, prompt: str) -> str:
        if prompt.startswith("Another game?"):
            self.prompts.append(prompt)
            return self.again.pop(0) if self.again else "q"
        if prompt.startswith("Which game?"):
            self.prompts.append(prompt)
            return "quit"
        return await super().read_line(prompt)


async def test_the_end_says_the_result_once_and_offers_another_game(tmp_path):
    person = FinishingPlayer(["s", "n", "q"])
    db = tmp_path / "x.sqlite3"
    last = await play_local(str(db), game="flank", options={"board": 4}, seats=2,
                            read_line=person.read_line, write=person.write, name="Tess")
    text = person.text
    # Two games of the same options, then the game is asked for.
    assert text.count("── The final position ──") == 2
    assert last is not None and last.finished and last.row.options["board"] == 4
    offers = [p for p in person.prompts if p.startswith("Another game?")]
    assert len(offers) == 2 and "board 4×4" in offers[0]
    assert any(p.startswith("Which game?") for p in person.prompts)
    first, second = (m.start() for m in re.finditer("── The final position ──", text))
    end = text[first:second]
    assert "your last move" not in text
    # The table says the result once (the board and the narration are the game's own).
    assert len(re.findall(r"^Result: ", end, re.MULTILINE)) == 1
    shown_at_end = end.split("Your record")[0]
    assert len(re.findall(r"\b(wins?|draw)\b", shown_at_end)) == 1, shown_at_end
    assert len(re.findall(r"^  ", end.split("Result: ")[1].split("Your record")[0],
                          re.MULTILINE)) == 2  # the places


async def test_narration_is_never_dropped_at_the_end(tmp_path):
    person = FinishingPlayer(["q"])
    await play_local(str(tmp_path / "x.sqlite3"), game="flank", options={"board": 4},
                     read_line=person.read_line, write=person.write, name="Tess")
    assert re.search(r"^• Game over", person.text, re.MULTILINE)


# -- 7. which saved game is offered, and how it is described ---------------------------------------

async def test_only_a_saved_game_with_the_options_asked_for_is_offered(tmp_path):
    db = tmp_path / "x.sqlite3"
    first = Player(["<play>", "<play>"], then="quit")
    unbounded = await play_local(str(db), game="flank", read_line=first.read_line,
                                 write=first.write, name="Tess")
    assert unbounded is not None and unbounded.playing

    # Asked for an 8×8 board without stoppers: the unbounded game is not offered as it.
    second = Player(["y"], then="quit")
    board = await play_local(str(db), game="flank", options={"board": "8", "stoppers": "0"},
                             read_line=second.read_line, write=second.write, name="Tess")
    assert not any(p.startswith("Continue") for p in second.prompts)
    assert board is not None and board.id != unbounded.id and board.row.options["board"] == 8

    # Asked for it again: that one is offered, described by its moves, turn and options.
    third = Player(["y"], then="quit")
    again = await play_local(str(db), game="flank", options={"board": "8", "stoppers": "0"},
                             read_line=third.read_line, write=third.write, name="Tess")
    assert again is not None and again.id == board.id
    offer = third.prompts[0]
    assert offer.startswith("Continue your unfinished Flank") and "step" not in offer
    assert "your turn" in offer and "board 8×8" in offer and "stoppers 0" in offer
    assert re.search(r"\b(no move yet|\d+ moves? in)\b", offer)


async def test_a_saved_game_is_described_by_its_moves_not_its_step(tmp_path):
    db = tmp_path / "x.sqlite3"
    first = Player(["<play>", "<play>"], then="quit")
    saved = await play_local(str(db), game="flank", read_line=first.read_line,
                             write=first.write, name="Tess")
    assert saved is not None
    store = await Store.open(db)
    try:
        moves = len(await store.matches.choices(saved.id))
    finally:
        await store.close()
    assert moves >= 4
    again = Player([], then="quit")
    await play_local(str(db), game=None, read_line=again.read_line, write=again.write)
    offer = again.prompts[0]
    assert "step" not in offer and f"{moves} moves in" in offer and "your turn" in offer
    assert "the usual options" in offer


# -- 8. help lists every command -------------------------------------------------------------------

async def test_help_at_which_game_lists_the_general_commands_and_every_games_own(tmp_path):
    person = Player(["help"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                     write=person.write, name="Tess")
    said = "\n".join(person.out[3:])
    for word in ("legal", "board", "picture", "rules", "stats", "resign", "quit", "help"):
        assert re.search(rf"\b{word}\b", said), word
    from bot.terminal.table import game_commands

    for info in games().values():
        for command in game_commands(info):
            assert say(command.usage, "en").split("\n")[0] in said
    assert "picture hand" in said


async def test_help_in_a_game_lists_the_general_commands_and_the_games_own(tmp_path):
    person = Player(["help"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game="duel", read_line=person.read_line,
                     write=person.write, name="Tess")
    said = "\n".join(person.out[-4:])
    for word in ("legal", "board", "picture hand", "rules", "stats", "resign", "quit",
                 "deck create|add|remove NAME"):
        assert word in said, word


async def test_rules_at_the_table_follow_its_options_and_seats(tmp_path):
    """``rules`` in a game says the rules of that game as it is played here: Eclipse
    with counterattack=2 and hand_cap=30 at three seats, not the defaults."""
    person = Player(["rules"], then="quit")
    await play_local(str(tmp_path / "croupier.sqlite3"), game="eclipse",
                     options={"counterattack": 2, "hand_cap": 30}, seats=3,
                     read_line=person.read_line, write=person.write, name="Tess")
    assert "After 30 hands" in person.text and "after 400 hands" not in person.text.lower()
