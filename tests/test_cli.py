"""The ``croupier`` command line: every game's options from its declaration, strict
numbers, perft and selfplay for any game, and nothing in it naming a game."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import build_parser, given_options, main
from bot.terminal.table import options_example_value
from rules.arena import play
from rules.core import GameInfo
from rules.registry import add_game, games, remove_game
from tests import levelgame

ROOT = Path(__file__).resolve().parent.parent


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The usage error ``argv`` gets (argparse's exit status 2)."""
    with pytest.raises(SystemExit) as ended:
        main(list(argv))
    assert ended.value.code == 2
    return capsys.readouterr().err


def test_perft_counts_from_the_games_declared_options(capsys) -> None:
    assert main(["perft", "flank", "--board", "8", "--stoppers", "0", "--depth", "4"]) == 0
    assert capsys.readouterr().out.strip() == "244"
    assert main(["perft", "flank", "--board", "8x8", "--stoppers", "0", "--depth", "0"]) == 0
    assert capsys.readouterr().out.strip() == "1"


def test_perft_refuses_a_negative_depth_and_bad_options(capsys) -> None:
    err = refused(capsys, "perft", "flank", "--depth", "-1")
    assert "argument --depth: depth must be a whole number from 0 to 30, not '-1'" in err
    assert "depth must be a whole number from 0 to 30, not '31'" in refused(
        capsys, "perft", "flank", "--depth", "31")
    assert "depth must be a whole number from 0 to 30, not '9999999999'" in refused(
        capsys, "perft", "flank", "--depth", "9999999999")
    assert "written with the digits 0-9, not '٣'" in refused(capsys, "perft", "flank",
                                                             "--depth", "٣")
    assert "board is unbounded, 4×4, 6×6, 8×8, … or 26×26, not '7'" in refused(
        capsys, "perft", "flank", "--board", "7", "--depth", "1")
    # Only games that count offer perft.
    assert "invalid choice: 'eclipse'" in refused(capsys, "perft", "eclipse", "--depth", "1")


def test_every_option_of_every_game_is_a_flag_of_its_game() -> None:
    parser = build_parser()
    args = parser.parse_args(["local", "nails", "--deck", "space", "--objective", "most"])
    assert args.game == "nails" and given_options(args) == {"deck": "space",
                                                            "objective": "most"}
    args = parser.parse_args(["local", "eclipse", "--hand-cap", "50", "--seats", "4"])
    assert given_options(args) == {"hand_cap": "50"} and args.seats == 4
    args = parser.parse_args(["selfplay", "--games", "3", "flank", "--stopper-zone", "ring"])
    assert (args.game, args.games, given_options(args)) == ("flank", 3,
                                                            {"stopper_zone": "ring"})
    for info in games().values():
        for spec in info.options.specs():
            value = options_example_value(spec) or str(spec.default)
            args = parser.parse_args(["local", info.name, f"--{spec.name.replace('_', '-')}",
                                      value])
            assert given_options(args) == {spec.name: value}


def test_help_lists_each_options_choices(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["local", "nails", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--deck VALUE" in shown and "workshop, space or workshop4; default workshop" in shown
    assert "fewest or most; default the game decides" in shown
    assert "--seats SEATS players, you included (2–4; default 2)" in shown
    with pytest.raises(SystemExit):
        main(["local", "--help"])
    listing = capsys.readouterr().out
    for info in games().values():
        assert info.name in listing and info.title in listing


def test_values_are_read_as_everywhere_else(capsys) -> None:
    assert "deck is workshop, space or workshop4, not 'tarot'" in refused(
        capsys, "local", "nails", "--deck", "tarot")
    assert "hand_cap must be a whole number written with the digits 0-9, not '５０'" in refused(
        capsys, "local", "eclipse", "--hand-cap", "５０")
    assert "seats must be a whole number written with the digits 0-9, not '٣'" in refused(
        capsys, "local", "nails", "--seats", "٣")
    assert "seats must be a whole number from 2 to 4, not '5'" in refused(
        capsys, "local", "nails", "--seats", "5")
    # A count the seat range allows but the game's deck does not: refused before playing.
    assert "the workshop deck is for 2 players or 4 in two teams" in refused(
        capsys, "local", "nails", "--seats", "3")
    assert "games must be a whole number from 1 to 100000, not '0'" in refused(
        capsys, "selfplay", "--games", "0")


def test_selfplay_any_game_with_players_numbered_from_one(capsys) -> None:
    assert main(["selfplay", "nails", "--seats", "4", "--games", "2", "--deck", "space"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().split("\n")
    assert len(lines) == 3
    assert all(re.search(r"\b1st player [1-4]\b", line) for line in lines[:2])
    assert "player 0" not in out and "seat 0" not in out
    assert re.fullmatch(r"Hammer & Nails: 2 games, \d+ choices in [\d.]+ s; wins: player 1 "
                        r"\(normal\) \d, player 2 \(normal\) \d, player 3 \(normal\) \d, "
                        r"player 4 \(normal\) \d; \d+ draws?", lines[-1])


def test_the_default_game_is_the_first_registered(capsys) -> None:
    assert main(["selfplay", "--games", "1"]) == 0
    first = next(iter(games().values()))
    assert capsys.readouterr().out.strip().split("\n")[-1].startswith(
        f"{first.title}: 1 game, ")


def test_run_without_a_token_says_how_to_get_one(monkeypatch, capsys) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert main(["run"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


@pytest.mark.parametrize("path", ["bot/cli.py", *sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / "bot").glob("local*.py"))])
def test_the_command_line_and_the_table_name_no_game(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    for info in games().values():
        for word in (info.name, info.title):
            assert not re.search(rf"\b{re.escape(word)}\b", source, re.IGNORECASE), word


def test_cards_lists_a_games_cards_by_name(capsys) -> None:
    assert main(["cards", "duel", "KINDLE"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kindlewhip  R\nInstant") and "Deal 2 damage" in out
    assert main(["cards", "duel", "no such card"]) == 1
    assert "no such card" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["cards", "flank"])  # Flank has no cards to list


# -- computer levels --------------------------------------------------------------------------
@pytest.fixture
def picks() -> Iterator[GameInfo]:
    yield from levelgame.registered()


def test_selfplay_plays_each_player_at_its_level_and_the_summary_names_them(capsys,
                                                                            picks) -> None:
    assert main(["selfplay", "picks", "--seats", "3", "--levels", "hard,easy,normal",
                 "--games", "2"]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    # Each level picks its own number: hard's 3s beat normal's 2s beat easy's 1s.
    assert lines[0] == ("game 1 (seed 1): 1st player 1 (6), 2nd player 3 (4), 3rd player 2 "
                        "(2); the highest total")
    assert lines[-1].endswith("; wins: player 1 (hard) 2, player 2 (easy) 0, "
                              "player 3 (normal) 0; 0 draws")
    assert main(["selfplay", "--level", "easy", "picks", "--games", "1"]) == 0
    assert capsys.readouterr().out.strip().endswith(
        "wins: player 1 (easy) 0, player 2 (easy) 0; 1 draw")


def test_selfplay_plays_the_arenas_games(capsys) -> None:
    """``croupier selfplay`` and the benchmarks play one game the same way."""
    assert main(["selfplay", "flank", "--board", "6", "--games", "2", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    info = games()["flank"]
    for n, line in enumerate(lines[:2]):
        outcome = play(info, {"board": 6}, 5 + n, [info.bot, info.bot]).outcome
        assert f"; {outcome.said(['player 1', 'player 2'])}" in line


def test_levels_are_refused_by_name_before_anything_plays(capsys, picks) -> None:
    assert "invalid choice: 'expert' (choose from 'easy', 'normal', 'hard')" in refused(
        capsys, "selfplay", "picks", "--level", "expert")
    assert "each level is easy, normal or hard, not 'Hard'" in refused(
        capsys, "selfplay", "picks", "--levels", "Hard,normal")
    assert "--levels names 1 level for 2 players: one for each" in refused(
        capsys, "selfplay", "picks", "--levels", "hard")
    assert "give --level (every player's) or --levels (each player's), not both" in refused(
        capsys, "selfplay", "picks", "--level", "hard", "--levels", "hard,easy")
    assert "invalid choice: 'expert'" in refused(capsys, "local", "picks", "--level", "expert")
    add_game(dataclasses.replace(picks, name="plain", levels={}))
    try:
        assert "Picks has no hard computer player" in refused(
            capsys, "selfplay", "plain", "--level", "hard")
        assert "Picks has no easy computer player" in refused(
            capsys, "local", "plain", "--level", "easy")
    finally:
        remove_game("plain")
    assert capsys.readouterr().out == ""


def test_local_takes_the_level_given_before_or_after_the_game_else_leaves_it_to_ask(
        monkeypatch, picks) -> None:
    asked: list[str | None] = []

    async def table(database: str, **given: object) -> None:
        asked.append(given["level"])  # type: ignore[arg-type]

    monkeypatch.setattr("bot.terminal.table.play_local", table)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    for argv in (["local", "picks", "--level", "hard"], ["local", "--level", "easy", "picks"],
                 ["local", "--level", "easy"], ["local", "picks"], ["local"]):
        assert main(argv) == 0
    assert asked == ["hard", "easy", "easy", None, None]
