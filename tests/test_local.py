"""The local table: a whole game in the "terminal", saved and resumed through SQLite."""

from __future__ import annotations

from bot.cli import build_parser, main
from bot.local import LOCAL_CHANNEL, play_local
from storage import Store


class Script:
    """Feeds lines to the table: fixed ones first, then the first legal move each time."""

    def __init__(self, lines: list[str], then_play: bool = True) -> None:
        self.lines = list(lines)
        self.then_play = then_play
        self.prompts: list[str] = []
        self.match = None

    async def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        if not self.then_play:
            raise EOFError
        return "legal"


async def test_a_whole_local_game_against_the_computer(tmp_path):
    out: list[str] = []
    legal_seen: list[str] = []

    def write(text: str) -> None:
        out.append(text)
        if text.startswith("Legal: "):
            legal_seen.append(text.removeprefix("Legal: ").split(", ")[0])

    async def read_line(prompt: str) -> str:
        return legal_seen.pop() if legal_seen else "legal"

    db = tmp_path / "local.sqlite3"
    match = await play_local(str(db), options={"board": 6}, read_line=read_line,
                             write=write, name="Tess")
    assert match is not None and match.finished
    text = "\n".join(out)
    assert "DISCORD_TOKEN" in text  # says how to connect to Discord instead
    assert "Game over:" in out[-2] and "Your record at this table" in out[-1]
    store = await Store.open(db)
    try:
        row = await store.matches.get(match.id)
        assert row.status == "finished"
        assert await store.matches.result(match.id) is not None
    finally:
        await store.close()


async def test_bad_input_is_refused_and_quitting_saves_the_game(tmp_path):
    out: list[str] = []
    db = str(tmp_path / "local.sqlite3")
    first = await play_local(db, read_line=Script(["Z", "A1", "help", "quit"]),
                             write=out.append, name="Tess")
    assert first is not None and not first.finished
    warnings = [line for line in out if line.startswith("⚠")]
    assert len(warnings) == 2 and "'Z'" in warnings[0] and "A1" in warnings[1]
    assert any("saved" in line for line in out)

    resumed: list[str] = []
    again = await play_local(db, read_line=Script(["E3", "y", "quit"]), write=resumed.append,
                             name="Tess")  # a move typed too early is not an answer
    assert again is not None and again.id == first.id
    assert any(line.startswith("⚠ 'e3' is neither yes nor no") for line in resumed)
    assert again.state.notation() == first.state.notation()

    fresh = await play_local(db, read_line=Script(["n", "quit"]), write=out.append)
    assert fresh is not None and fresh.id != first.id
    store = await Store.open(db)
    try:
        assert (await store.matches.get(first.id)).status == "cancelled"
        assert (await store.matches.live_in_channel(LOCAL_CHANNEL)).id == fresh.id
    finally:
        await store.close()


async def test_closed_input_leaves_cleanly(tmp_path):
    out: list[str] = []
    match = await play_local(str(tmp_path / "x.sqlite3"), read_line=Script([], then_play=False),
                             write=out.append)
    assert match is not None and "Input closed" in out[-1]


def test_cli_perft_and_selfplay(capsys):
    assert main(["perft", "flank", "--board", "8", "--depth", "4"]) == 0
    assert capsys.readouterr().out.strip() == "244"
    assert main(["selfplay", "flank", "--games", "2", "--board", "6"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["perft", "flank", "--board", "7", "--depth", "1"]) == 2
    args = build_parser().parse_args(["local", "flank", "--board", "8"])
    assert (args.game, args.board) == ("flank", 8)


def test_run_without_a_token_says_how_to_get_one(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert main(["run"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


async def test_eclipse_in_the_terminal_against_two_computer_players(tmp_path):
    """``make run`` asks for the game and the players, then a whole game of Eclipse
    is played through the same service, choosing from ``legal`` each time."""
    out: list[str] = []
    queued: list[str] = []
    prompts: list[str] = []

    def write(text: str) -> None:
        out.append(text)
        if "\n  " in text:                      # the answer to `legal`
            queued.append(text.split("\n")[1].split()[0])

    async def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            return "eclipse"
        if len(prompts) == 2:
            return "3"
        return queued.pop() if queued else "legal"

    match = await play_local(str(tmp_path / "eclipse.sqlite3"), game=None,
                             read_line=read_line, write=write, name="Tess")
    assert match is not None and match.finished and match.info.name == "eclipse"
    assert len(match.seats) == 3 and match.seats[0].name == "Tess"
    assert "Which game?" in prompts[0] and "(2–6)" in prompts[1]
    text = "\n".join(out)
    assert "Your hand:" in text and "Game over:" in text
    assert any("choose your card" in p for p in prompts)
    # Only the person's own draws are shown privately; the computer players' are not.
    private = [line for line in out if line.startswith("  (only you)")]
    assert private and all("You draw" in line or "You" in line for line in private)


async def test_hammer_and_nails_in_the_terminal(tmp_path):
    """A whole game of Hammer & Nails against the computer, typing placements."""
    out: list[str] = []
    queued: list[str] = []

    def write(text: str) -> None:
        out.append(text)
        if text.startswith("Legal: "):
            queued.append(text.removeprefix("Legal: ").split(", ")[0])
        elif "\n  " in text and not text.startswith("Hammer & Nails"):
            queued.append(text.split("\n")[1].split()[0])

    async def read_line(prompt: str) -> str:
        return queued.pop() if queued else "legal"

    match = await play_local(str(tmp_path / "nails.sqlite3"), game="nails", read_line=read_line,
                             write=write, name="Tess")
    assert match is not None and match.finished and match.info.name == "nails"
    text = "\n".join(out)
    assert "Your hand:" in text and "Game over:" in text and "Key:" in text
    assert "tile@cell/turn" in text
    assert "nails: 1 played" in text and "not rated" in text
