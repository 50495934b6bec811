"""The local table: whole games in the "terminal", saved and resumed through SQLite,
driven by a scripted ``read_line`` and a ``write`` that keeps what is shown."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import Field

from bot.games.presenter import GamePresenter
from bot.i18n import say
from bot.matches.live import LiveMatch
from bot.terminal.table import MAX_LINE, Screen, TerminalInput, play_local, result_block
from bot.terminal.words import summary
from rules.core import Decision, Event, GameInfo, GameState, Outcome
from rules.errors import SHOWN
from rules.options import GameOptions
from rules.registry import add_game, get_game, remove_game
from storage import Store
from storage.models import MatchRow, SeatRow
from tests import levelgame

ROOT = Path(__file__).resolve().parent.parent


def first_option(text: str) -> str | None:
    """The first option in what `legal` showed, whichever way it showed them."""
    example = re.search(r"e\.g\. (\S+)\.$", text)
    if example:
        return example.group(1)
    listed = re.search(r"Legal \(\d+\): ([^,\s]+)", text)
    if listed:
        return listed.group(1)
    rows = [line.split()[0] for line in text.split("\n")[1:] if line.startswith("  ")]
    return rows[0] if rows else None


AGAIN = "Another game?"
"""The prompt at the end of a game."""
PLAY = "<play>"
"""In a script: ask `legal`, then answer with the first option it shows."""


class Player:
    """Answers prompts: scripted lines first (:data:`PLAY` plays a legal move),
    then `legal` and its first option, over and over."""

    def __init__(self, lines: list[str] | None = None, *, then: str = "play") -> None:
        self.lines = list(lines or [])
        self.then = then
        self.prompts: list[str] = []
        self.out: list[str] = []
        self._asked_legal = False
        self._offered: str | None = None

    def write(self, text: str) -> None:
        self.out.append(text)
        if self._asked_legal:
            self._asked_legal = False
            self._offered = first_option(text)

    async def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith(AGAIN) and not (self.lines and self.lines[0] != PLAY):
            return "q"  # the game is over: no other game unless the script says so
        if self._offered is not None:
            offered, self._offered = self._offered, None
            return offered
        if self.lines and self.lines[0] != PLAY:
            return self.lines.pop(0)
        if self.lines:
            self.lines.pop(0)
        elif self.then == "eof":
            raise EOFError
        elif self.then == "quit":
            return "quit"
        self._asked_legal = True
        return "legal"

    @property
    def text(self) -> str:
        return "\n".join(self.out)

    def warnings(self) -> list[str]:
        return [line for block in self.out for line in block.split("\n")
                if line.startswith("⚠")]


async def live_rows(db: Path) -> list[MatchRow]:
    store = await Store.open(db)
    try:
        return await store.matches.unfinished()
    finally:
        await store.close()


# -- whole games ------------------------------------------------------------------------------

async def test_a_whole_game_ends_with_the_final_position_the_result_and_the_places(tmp_path):
    person = Player()
    db = tmp_path / "local.sqlite3"
    match = await play_local(str(db), game="flank", options={"board": 6}, seats=2,
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None and match.finished
    text = person.text
    assert "DISCORD_TOKEN" in text  # says how to connect to Discord instead
    before, end = text.split("── The final position ──")
    # What the computer did, narrated as it happened (never repeated at the end) ...
    assert re.search(r"• Croupier Bot lays \S+", before) and "your last move" not in text
    # ... the final position, as the person's seat sees it (the game's own words, but
    # for its verdict, which the table's result says) ...
    assert match.info.text is not None
    final = say(match.info.text(match.state.observe(0), list(match.names)), "en").split("\n")
    assert final[-1].startswith("Game over:") and final[-1] not in end
    assert "\n".join(line.rstrip() for line in final[:-1]) in end
    # ... then the verdict, each place (from 1st), and the person's record.
    assert re.search(r"\nResult: (Tess wins|Croupier Bot wins|A draw); ", end)
    assert re.search(r"\n  =?1st +\S", end) and re.search(r"\n  =?[12](st|nd) +Tess \(you\)", end)
    record = next(block for block in person.out if "Your record at this table" in block)
    assert "Flank" in record and person.prompts[-1].startswith(AGAIN)
    store = await Store.open(db)
    try:
        assert (await store.matches.get(match.id)).status == "finished"
        assert await store.matches.result(match.id) is not None
    finally:
        await store.close()


async def test_hammer_and_nails_groups_placements_and_narrates_the_computer(tmp_path):
    person = Player()
    match = await play_local(str(tmp_path / "nails.sqlite3"), game="nails",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None and match.finished and match.info.name == "nails"
    text = person.text
    assert re.search(r"\nYour hand[ :]", text) and "Key:" in text and "tile@cell/turn" in text
    # `legal` with many placements groups them by tile, each without its tile number.
    grouped = [block for block in person.out if "by group" in block]
    assert grouped
    tile, places = grouped[0].split("\n")[1].strip().split(": ", 1)
    assert tile.isdigit() and "@" not in places
    assert f"e.g. {tile}@" in grouped[0]
    # Each of the computer's turns is narrated: it lays a tile, then draws up.
    assert re.search(r"• Croupier Bot lays tile \d+ at \S+", text)
    record = next(block for block in person.out if "Your record at this table" in block)
    assert re.search(r"Hammer & Nails +1 +[01] +[01] +[01]", record)


async def test_eclipse_with_two_computer_players_asks_game_players_and_options(tmp_path):
    person = Player(["eclipse", "3", "hand-cap=50 counterattack=0"])
    match = await play_local(str(tmp_path / "eclipse.sqlite3"), game=None,
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None and match.finished and match.info.name == "eclipse"
    assert len(match.seats) == 3 and match.seats[0].name == "Tess"
    assert match.row.options["hand_cap"] == 50 and match.row.options["counterattack"] == 0
    assert "Which game?" in person.prompts[0] and "(2–6)" in person.prompts[1]
    assert person.prompts[2].startswith("Options (Enter for the defaults; e.g. ")
    assert "? lists them" in person.prompts[2]
    assert "Your hand:" in person.text and "\nResult: " in person.text
    private = [line for block in person.out for line in block.split("\n")
               if line.startswith("  (only you)")]
    assert private and all("You" in line for line in private)


# -- asking again ---------------------------------------------------------------------------

async def test_a_player_count_the_game_refuses_asks_again(tmp_path):
    # Hammer & Nails takes 2–4 players, but its workshop deck not 3: asked again.
    person = Player(["nails", "3", "", "3", "deck=tarot", "deck=workshop4"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None and len(match.seats) == 3
    assert match.row.options["deck"] == "workshop4"
    warnings = person.warnings()
    assert "the workshop deck is for 2 players or 4 in two teams" in warnings[0]
    assert "deck is workshop, space or workshop4, not 'tarot'" in warnings[1]
    assert [re.match(r"[A-Za-z ,?]+", p).group().strip() for p in person.prompts[:6]] == [
        "Which game?", "Players, you included", "Options", "Players, you included",
        "Options", "Options"]


async def test_options_come_from_the_declaration_and_refusals_name_the_input(tmp_path):
    person = Player(["nails", "2", "?", "deck", "speed=3", "deck=space deck=space", "{0}",
                     "objective=most deck=Space"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None
    assert match.row.options["deck"] == "space" and match.row.options["objective"] == "most"
    listed = next(block for block in person.out if "options (type name=value)" in block)
    for spec in get_game("nails").options.specs():
        assert spec.name in listed and spec.description.split(" (")[0][:30] in listed
    assert "workshop, space or workshop4" in listed
    warnings = person.warnings()
    assert "'deck' has no value: write name=value, e.g. deck=space" in warnings[0]
    assert "has no option 'speed'; its options are deck, objective, teams" in warnings[1]
    assert "'deck' is given twice" in warnings[2]
    assert "'{0}' is not name=value" in warnings[3]


BAD = ["²", "４", "٣", "-1", "+2", "1 2", "{0}", "{s0}", "[bold]x", "9" * 5000, "x" * 100_000]


@pytest.mark.parametrize("where", ["game", "players", "options", "move"])
async def test_bad_input_at_every_prompt_is_refused_by_name(tmp_path, where):
    before = {"game": [], "players": ["eclipse"], "options": ["eclipse", "3"],
              "move": ["eclipse", "3", ""]}[where]
    person = Player([*before, *BAD], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                     write=person.write, name="Tess")
    warnings = person.warnings()
    assert len(warnings) == len(BAD), warnings
    for typed, warning in zip(BAD, warnings, strict=True):
        # Options are words: the refusal names the word at fault.
        named = repr(typed.split()[0] if where == "options" else typed)[:SHOWN - 1]
        assert named in warning, (typed, warning)
        assert len(warning) < 250
    assert "Traceback" not in person.text


async def test_continue_offers_the_right_game_and_a_list_when_several_are_saved(tmp_path):
    db = tmp_path / "local.sqlite3"
    first = Player(["flank", "", "Z", "A1", "help"], then="quit")
    flank = await play_local(str(db), game=None, read_line=first.read_line, write=first.write,
                             name="Tess")
    assert flank is not None and not flank.finished
    warnings = first.warnings()
    assert len(warnings) == 2 and "'Z'" in warnings[0] and "A1" in warnings[1]
    assert any("saved" in line for line in first.out)

    # Asked for another game, the saved Flank game is not the one offered.
    second = Player([], then="quit")
    nails = await play_local(str(db), game="nails", read_line=second.read_line,
                             write=second.write, name="Tess")
    assert nails is not None and nails.id != flank.id and nails.info.name == "nails"
    assert not any("Continue" in p for p in second.prompts)

    # Both are saved: a list, the latest first; a bad answer is asked again.
    third = Player(["٣", "2"], then="quit")
    again = await play_local(str(db), game=None, read_line=third.read_line, write=third.write)
    listing = next(block for block in third.out if "Your unfinished games:" in block)
    assert listing.index("Hammer & Nails") < listing.index("Flank")
    assert third.warnings() == ["⚠ '٣' is not one of 1–2 or n."]
    assert again is not None and again.id == flank.id
    assert again.state.notation() == flank.state.notation()

    # One saved Flank game: asked by name; no is not cancelling it unless a new Flank
    # game replaces it.
    fourth = Player(["E3", "n"], then="quit")
    fresh = await play_local(str(db), game="flank", read_line=fourth.read_line,
                             write=fourth.write)
    assert fourth.prompts[0].startswith("Continue your unfinished Flank, 2 players")
    assert fourth.warnings()[0].startswith("⚠ 'e3' is neither yes nor no")
    assert fresh is not None and fresh.id not in (flank.id, nails.id)
    assert any(f"match #{flank.id}) is cancelled" in line for line in fourth.out)
    live = {row.id: row for row in await live_rows(db)}
    assert set(live) == {nails.id, fresh.id}
    assert live[nails.id].channel_id != live[fresh.id].channel_id


async def test_closed_input_leaves_cleanly_at_any_prompt(tmp_path):
    person = Player([], then="eof")
    assert await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                            write=person.write) is None
    assert person.out[-1] == "Input closed; bye."
    playing = Player(["flank", ""], then="eof")
    match = await play_local(str(tmp_path / "y.sqlite3"), game=None, read_line=playing.read_line,
                             write=playing.write)
    assert match is not None and playing.out[-1] == "Input closed; your game is saved."


async def test_illegal_placements_say_why(tmp_path):
    person = Player(["nails", "", "", "board"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None
    tile = match.state.hands[0][0]
    retry = Player(["y", f"{tile}@Z99", f"{tile}@C4/45"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=retry.read_line,
                     write=retry.write)
    assert retry.warnings() == [
        f"⚠ tile {tile} at Z99 would cover nothing; a tile must cover at least one zone of "
        "the stack",
        "⚠ turn by 0, 90, 180 or 270 degrees, not '45'"]


async def test_rules_are_formatted_not_raw_markdown(tmp_path):
    person = Player(["flank", "", "rules"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                     write=person.write)
    rules = next(block for block in person.out if "outflank" in block and "Stoppers" in block)
    assert "**" not in rules and "\\\n" not in rules
    assert "Stoppers. A stoppered card never flips" in rules


async def test_resigning_asks_first_and_ends_with_the_result(tmp_path):
    person = Player(["flank", "", PLAY, "resign", "maybe", "n", "resign", "y"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game=None, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None and match.finished
    assert person.warnings() == ["⚠ 'maybe' is neither yes nor no: y resigns, n goes on playing."]
    assert "Result: Croupier Bot wins" in person.text
    # The resignation is narrated once, before the end.
    before, end = person.text.split("── The final position ──")
    assert before.count("• Tess forfeits.") == 1 and "forfeits" not in end.split("Result:")[0]


# -- grouping is the game's, not the table's ----------------------------------------------------

class LettersOptions(GameOptions):
    title: ClassVar[str] = "Letters"
    size: int = Field(6, ge=1, le=9, description="numbers per letter")


class LettersState(GameState):
    """One pick of a letter-number pair (``c-4``), then the game is over."""

    game = "letters"

    def __init__(self, seats: int, seed: int, size: int) -> None:
        super().__init__(seats, seed)
        self.size = size
        self.picked: str | None = None

    def decisions(self) -> tuple[Decision, ...]:
        options = (*(f"{a}-{n}" for a in "abcdefgh" for n in range(1, self.size + 1)), "skip")
        return () if self.picked else (Decision(0, "pick", "Pick a pair.", options),)

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self.picked = choice
        return [Event("pick", f"{{s{seat}}} picks {choice}.")]

    def _outcome(self) -> Outcome | None:
        return Outcome((1, 2), None, "picked first") if self.picked else None

    def observe(self, seat: int | None) -> str:
        return f"picked {self.picked}"

    def notation(self) -> str:
        return str(self.picked)


@pytest.fixture
def letters() -> Iterator[GameInfo]:
    info = add_game(GameInfo(
        name="letters", title="Letters", min_seats=2, max_seats=2,
        new_state=lambda o, seats, seed, setup: LettersState(seats, seed, o.size),
        options=LettersOptions, bot=lambda s, seat, rng: "skip", rules_text="Pick.",
        option_text=lambda view, decision, option, names: f"the pair {option}",
        option_group=lambda decision, option: option.split("-")[0] if "-" in option else None))
    yield info
    remove_game("letters")


async def test_legal_groups_any_game_that_groups_its_options(tmp_path, letters):
    person = Player(["legal", "legal c", "legal z"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game="letters", read_line=person.read_line,
                     write=person.write, name="Tess")
    grouped, one, none = person.out[-4:-1]
    assert grouped.split("\n") == [
        "Pick a pair. 49 options, by group (legal a explains one group):",
        *(f"  {a}: 1, 2, 3, 4, 5, 6" for a in "abcdefgh"),
        "  also: skip",
        "Type the whole option, e.g. a-1."]
    assert one.split("\n")[0] == "Pick a pair."
    assert one.split("\n")[1].split() == ["c-1", "the", "pair", "c-1"]
    assert len(one.split("\n")) == 7
    assert none == "No option is in group 'z'; the groups are a, b, c, d, e, f, g, h."
    assert "legal and a group" in person.text  # the help says so, for games that group


# -- the words of a result -------------------------------------------------------------------

def finished(places: tuple[int, ...], bots: tuple[int, ...], scores=None) -> LiveMatch:
    info = get_game("eclipse")
    state = info.new({}, len(places), 1)
    state._resigned = Outcome(places, scores, "last player standing")
    names = ["Tess", "Croupier Bot", "Dealer Bot", "Pit Boss Bot"]
    levels = ["normal", "easy", "hard", "normal"]  # each computer seat's own, shown
    seats = [SeatRow(seat=s, user_id=None if s in bots else 1, name=names[s],
                     is_bot=s in bots, level=levels[s]) for s in range(len(places))]
    row = MatchRow(id=1, game="eclipse", options={}, seed=1, guild_id=None, channel_id=0,
                   host_id=1, max_seats=len(places), status="finished", seats=seats)
    return LiveMatch(row=row, info=info, state=state, finished=True)


def plain(block: object) -> str:
    out: list[str] = []
    Screen(out.append).show(block)
    return out[0]


def test_places_say_ties_as_ties_name_each_computers_level_and_computers_win_together(
) -> None:
    match = finished((3, 1, 1, 4), bots=(1, 2, 3))
    text = plain(result_block(match))
    assert text.split("\n")[0] == "Result: Computer players win; last player standing."
    assert [line.split() for line in text.split("\n")[1:]] == [
        ["=1st", "Croupier", "Bot", "(easy)"], ["=1st", "Dealer", "Bot", "(hard)"],
        ["3rd", "Tess", "(you)"], ["4th", "Pit", "Boss", "Bot", "(normal)"]]
    discord = GamePresenter().result_text(match)
    assert discord.split("\n")[0] == "**Computer players win** (last player standing)"
    assert discord.split("\n")[1:] == ["🥇 =1st Croupier Bot (easy) 🤖",
                                       "🥇 =1st Dealer Bot (hard) 🤖", "🥉 3rd Tess",
                                       "4th Pit Boss Bot (normal) 🤖"]
    shared = finished((1, 2, 2), bots=(1, 2), scores=(5, 3, 3))
    assert "=2nd Croupier Bot (easy) 🤖 — 3" in GamePresenter().result_text(shared)
    assert "**Tess wins**" in GamePresenter().result_text(shared)
    assert "Result: Tess wins" in plain(result_block(shared))
    together = finished((1, 2, 1), bots=(1, 2))
    assert "**Tess and Dealer Bot win**" in GamePresenter().result_text(together)


# -- the terminal itself ------------------------------------------------------------------------

async def test_terminal_lines_are_read_by_the_loop_without_a_thread() -> None:
    read_end, write_end = os.pipe()
    reader = TerminalInput(Screen(lambda text: None), fd=read_end)
    try:
        os.write(write_end, b"C4\r\nna\xefve \xff\n" + b"x" * (MAX_LINE + 10) + b"\nlast")
        os.close(write_end)
        assert await reader.line() == "C4"
        assert await reader.line() == "na\ufffdve \ufffd"
        cut = await reader.line()
        assert cut == "x" * MAX_LINE + "…"
        assert await reader.line() == "last"
        with pytest.raises(EOFError):
            await reader.line()
    finally:
        os.close(read_end)


async def test_a_prompt_cancelled_leaves_no_reader_behind() -> None:
    read_end, write_end = os.pipe()
    reader = TerminalInput(Screen(lambda text: None), fd=read_end)
    try:
        waiting = asyncio.ensure_future(reader.line())
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        loop = asyncio.get_running_loop()
        assert not loop.remove_reader(read_end)  # nothing was left registered
        assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
    finally:
        os.close(read_end)
        os.close(write_end)


def croupier(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "CROUPIER_DATABASE": str(tmp_path / "t.sqlite3"), "DISCORD_TOKEN": "",
           "CROUPIER_LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def read_until(process: subprocess.Popen[bytes], marker: str, seconds: float = 30) -> str:
    import select

    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + seconds
    while marker.encode() not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in {seen.decode(errors='replace')[-500:]!r}"
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, f"output ended before {marker!r}: {seen.decode()[-500:]!r}"
            seen += chunk
    return seen.decode()


def interrupt(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """Ctrl-C, and how the program ended (it must end within seconds)."""
    process.send_signal(signal.SIGINT)
    try:
        out, _ = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError("Ctrl-C did not end the program") from None
    return process.returncode, out.decode()


@pytest.mark.parametrize("answers, prompt", [
    ([], "Which game?"),
    (["eclipse\n"], "Players, you included"),
    (["eclipse\n", "3\n"], "Options (Enter"),
])
def test_ctrl_c_quits_at_once_at_a_setup_prompt(tmp_path, answers, prompt):
    process = croupier(tmp_path, "local")
    assert process.stdin is not None
    for answer in answers:
        process.stdin.write(answer.encode())
    process.stdin.flush()  # the input stays open: the table waits at the prompt
    read_until(process, prompt)
    status, rest = interrupt(process)
    assert status == 0 and rest.strip() == "Bye."


def test_ctrl_c_quits_at_once_during_a_game_and_keeps_it(tmp_path):
    process = croupier(tmp_path, "local", "eclipse", "--seats", "3", "--level", "normal")
    read_until(process, " > ")
    status, rest = interrupt(process)
    assert status == 0
    assert rest.strip() == "Bye — your game is saved; `make run` continues it."
    rows = asyncio.run(live_rows(tmp_path / "t.sqlite3"))
    assert [(row.game, row.status) for row in rows] == [("eclipse", "active")]

    again = croupier(tmp_path, "local")
    read_until(again, "Continue your unfinished Eclipse, 3 players")
    status, rest = interrupt(again)
    assert status == 0 and rest.strip() == "Bye — your unfinished games are kept."
    assert [row.id for row in asyncio.run(live_rows(tmp_path / "t.sqlite3"))] == [rows[0].id]



class CountdownOptions(GameOptions):
    title: ClassVar[str] = "Countdown"
    ticks: int = Field(3000, ge=1, le=10_000, description="the computer's moves")


class CountdownState(GameState):
    """Seat 0 says go once; then seat 1, the computer, ticks a long way down."""

    game = "countdown"

    def __init__(self, seats: int, seed: int, ticks: int) -> None:
        super().__init__(seats, seed)
        self.left = ticks
        self.started = False

    def decisions(self) -> tuple[Decision, ...]:
        if not self.started:
            return (Decision(0, "go", "Say go.", ("go", "wait")),)
        return (Decision(1, "tick", "Tick.", ("tick", "tock")),) if self.left else ()

    def _apply(self, seat: int, choice: str) -> list[Event]:
        if seat == 0:
            self.started = True
        else:
            self.left -= 1
        return []

    def _outcome(self) -> Outcome | None:
        return None if self.left else Outcome((1, 2), None, "counted down")

    def observe(self, seat: int | None) -> str:
        return f"{self.left} to go"

    def notation(self) -> str:
        return str(self.left)


async def test_ctrl_c_while_the_computer_plays_on_stops_it_and_keeps_its_moves(tmp_path):
    add_game(GameInfo(
        name="countdown", title="Countdown", min_seats=2, max_seats=2,
        new_state=lambda o, seats, seed, setup: CountdownState(seats, seed, o.ticks),
        options=CountdownOptions, bot=lambda state, seat, rng: "tick", rules_text="Go."))
    try:
        person = Player(["go"], then="quit")
        db = tmp_path / "x.sqlite3"
        playing = asyncio.ensure_future(play_local(
            str(db), game="countdown", read_line=person.read_line, write=person.write))
        while "go" in person.lines:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        playing.cancel()  # what Ctrl-C does: asyncio.run cancels the main task
        with pytest.raises(asyncio.CancelledError):
            await playing
        assert person.out[-1] == "\nBye — your game is saved; `make run` continues it."
        assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("croupier")]
        # Stopped part-way, not played on to the end; what it played is kept.
        (row,) = await live_rows(db)
        store = await Store.open(db)
        try:
            moves = await store.matches.choices(row.id)
        finally:
            await store.close()
        assert row.status == "active" and 1 < len(moves) < 3001
    finally:
        remove_game("countdown")


# -- the table's picture -----------------------------------------------------------------------

def png_size(path: Path) -> tuple[int, int]:
    """The size of a valid PNG (PIL reads it whole, so a broken file fails here)."""
    from PIL import Image

    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(path) as image:
        image.load()
        return image.size


async def test_picture_saves_the_public_table_as_png(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    named, folder = tmp_path / "my table.png", tmp_path / "elsewhere"
    folder.mkdir()
    person = Player([f"picture {named}", f"PICTURE {folder}", "picture", "picture",
                     f"picture {named}", "help"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game="nails",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None
    default = f"croupier-table-{match.id}-{match.state.step}.png"
    # Without a name: in the pictures folder beside the database, not the current folder.
    saved = [tmp_path / "pictures" / default, named, folder / default]
    for path in saved:
        width, height = png_size(path)
        assert width > 100 and height > 100
    # The three saved the same public picture; asked twice, nothing is overwritten.
    assert len({path.read_bytes() for path in saved}) == 1
    assert sum(f"Table picture saved to {path}" in person.text for path in saved) == 3
    warnings = person.warnings()
    assert len(warnings) == 2 and all("already exists" in w and "Nothing was saved" in w
                                      for w in warnings)
    assert "picture [file]" in person.text  # the help lists the command
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".png"] == [named.name]


def unwritable(tmp_path: Path) -> str:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    return str(locked / "x.png")


@pytest.mark.parametrize("where, said", [
    (lambda tmp: str(tmp / "missing" / "x.png"), "does not exist"),
    (lambda tmp: str(tmp / "notes.txt" / "x.png"), "is a file, not a folder"),
    (lambda tmp: str(tmp / ("x" * 300 + ".png")), "too long a file name"),
    (lambda tmp: str(tmp / "a\x01b.png"), "characters a file name cannot have"),
    (lambda tmp: str(tmp / ("x" * 5000)), "too long a file name"),
    pytest.param(unwritable, "No permission", marks=pytest.mark.skipif(
        os.geteuid() == 0, reason="root writes anywhere")),
], ids=["missing folder", "file as folder", "long name", "control character", "huge path",
        "read-only folder"])
async def test_picture_refuses_a_bad_path_cleanly(tmp_path, where, said):
    (tmp_path / "notes.txt").write_text("mine")
    typed = where(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    person = Player([f"picture {typed}", "board"], then="quit")
    match = await play_local(str(tmp_path / "x.sqlite3"), game="flank",
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None
    (warning,) = person.warnings()
    assert said in warning and warning.endswith("Nothing was saved."), warning
    assert len(warning) < 300 and "Traceback" not in person.text
    after = sorted(p for p in tmp_path.rglob("*") if not p.name.startswith("x.sqlite3"))
    assert after == [p for p in before if not p.name.startswith("x.sqlite3")]
    assert (tmp_path / "notes.txt").read_text() == "mine"


async def test_picture_of_a_game_without_one_says_so_and_saves_nothing(tmp_path, monkeypatch,
                                                                       letters):
    monkeypatch.chdir(tmp_path)
    person = Player(["picture", f"picture {tmp_path / 'x.png'}"], then="quit")
    await play_local(str(tmp_path / "x.sqlite3"), game="letters", read_line=person.read_line,
                     write=person.write, name="Tess")
    assert person.warnings() == ["⚠ Letters has no table picture; nothing was saved."] * 2
    assert not list(tmp_path.glob("*.png"))


# -- the computer's level -----------------------------------------------------------------
@pytest.fixture
def picks() -> Iterator[GameInfo]:
    yield from levelgame.registered()


async def picked_by(db: Path, match_id: int, seat: int) -> set[str]:
    store = await Store.open(db)
    try:
        choices = await store.matches.choices(match_id)
    finally:
        await store.close()
    return levelgame.levels_picked([(c.seat, c.choice) for c in choices], seat)


async def test_without_a_level_the_table_asks_and_the_same_again_keeps_it(tmp_path, picks):
    db = tmp_path / "x.sqlite3"
    person = Player(["expert", "?", "3", PLAY, PLAY, "s"])
    last = await play_local(str(db), game="picks", level=None, read_line=person.read_line,
                            write=person.write, name="Tess")
    assert [p for p in person.prompts if p.startswith("Computer level?")] == [
        "Computer level? 1. easy · 2. normal · 3. hard [normal] "] * 3
    assert person.warnings() == ["⚠ 'expert' is not a level: easy, normal, hard (or 1–3)."]
    assert "hard (thinks ahead, the strongest)" in person.text  # ? explains each
    # Played at hard (the result names the level), and the same again at hard
    # without asking again.
    assert re.search(r"\n  1st +Croupier Bot \(hard\) +6\n", person.text)
    offered = [p for p in person.prompts if p.startswith(AGAIN)]
    assert len(offered) == 2
    assert "(Picks, 2 players, the usual options, hard computer)" in offered[0]
    assert last is not None and last.finished and last.row.computer_level == "hard"
    assert await picked_by(db, last.id, 1) == await picked_by(db, last.id - 1, 1) == {"hard"}


async def test_a_level_given_is_not_asked_and_a_saved_game_of_another_is_not_offered(
        tmp_path, picks):
    db = tmp_path / "x.sqlite3"
    person = Player([PLAY], then="quit")
    easy = await play_local(str(db), game="picks", level="easy", read_line=person.read_line,
                            write=person.write)
    assert easy is not None and not any(p.startswith("Computer level?") for p in person.prompts)
    assert await picked_by(db, easy.id, 1) == {"easy"}
    assert "easy computer" in summary(easy)
    again = Player(["y"], then="quit")
    hard = await play_local(str(db), game="picks", level="hard", read_line=again.read_line,
                            write=again.write)
    assert again.prompts[0].startswith("Your unfinished Picks, 2 players, the usual options, "
                                       "easy computer")
    assert "other options, players or computer level" in again.prompts[0]
    assert hard is not None and hard.id != easy.id and hard.row.computer_level == "hard"
    assert await picked_by(db, hard.id, 1) == {"hard"}
