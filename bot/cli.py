"""The ``croupier`` command: ``run`` (Discord), ``local`` (terminal), ``perft``, ``selfplay``.

With no subcommand it connects to Discord when a token is configured and opens
the local table otherwise — which is what ``make run`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import time
from collections.abc import Sequence

from bot.config import Settings
from rules.errors import BadOptions
from rules.registry import games, get_game


def _game_options(args: argparse.Namespace) -> dict[str, object]:
    options: dict[str, object] = {}
    for key in ("board", "stoppers", "cards"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    return options


def _add_flank_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", type=int, help="Flank: N for an N×N board (0: unbounded)")
    parser.add_argument("--stoppers", type=int, help="Flank: stoppers per player")
    parser.add_argument("--cards", type=int, help="Flank: cards per player")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests)."""
    parser = argparse.ArgumentParser(prog="croupier", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    local = sub.add_parser("local", help="play in the terminal against the computer")
    local.add_argument("game", nargs="?", choices=sorted(games()),
                       help="the game (asked when left out)")
    local.add_argument("--seats", type=int, help="players, you included")
    _add_flank_options(local)
    perft = sub.add_parser("perft", help="count leaf positions to a depth")
    perft.add_argument("game", choices=["flank"])
    perft.add_argument("--depth", type=int, required=True)
    _add_flank_options(perft)
    selfplay = sub.add_parser("selfplay", help="computer against computer, with a summary")
    selfplay.add_argument("game", nargs="?", default="flank", choices=sorted(games()))
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--seats", type=int)
    _add_flank_options(selfplay)
    return parser


def cmd_perft(args: argparse.Namespace) -> int:
    """Print the leaf count; Flank perft defaults to no stoppers (the classic check)."""
    from rules.flank.perft import main_perft

    options = _game_options(args)
    options.setdefault("stoppers", 0)
    started = time.perf_counter()
    leaves = main_perft(options, args.depth)
    elapsed = time.perf_counter() - started
    print(leaves)
    print(f"# depth {args.depth}, options {options}, {elapsed:.2f} s", file=sys.stderr)
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play seeded computer-vs-computer games and summarise them."""
    info = get_game(args.game)
    seats = args.seats or info.default_seats
    wins = [0] * seats
    draws = steps = 0
    started = time.perf_counter()
    for n in range(args.games):
        seed = args.seed + n
        state = info.new(_game_options(args), seats, seed)
        rng = random.Random(seed)
        while (outcome := state.outcome()) is None:
            for decision in state.pending():
                state.apply(decision.seat, info.bot(state, decision.seat, rng))
                steps += 1
        if outcome.is_draw:
            draws += 1
        else:
            for seat in outcome.winners:
                wins[seat] += 1
        print(f"game {n + 1} (seed {seed}): places {outcome.places}, scores {outcome.scores},"
              f" {outcome.reason}")
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {steps} choices in {elapsed:.2f} s; wins by seat {wins}, "
          f"draws {draws}")
    return 0


def cmd_local(args: argparse.Namespace, settings: Settings) -> int:
    """The terminal table."""
    from bot.local import play_local

    try:
        asyncio.run(play_local(str(settings.database), game=args.game,
                               options=_game_options(args), seats=args.seats))
    except (KeyboardInterrupt, EOFError):
        print("\nBye; your game is saved.")
    return 0


def cmd_run(settings: Settings) -> int:
    """Connect to Discord."""
    token = settings.token
    if token is None:
        print("No Discord token: set DISCORD_TOKEN in .env (see README.md). "
              "`croupier local` plays in the terminal.", file=sys.stderr)
        return 2
    from bot.client import CroupierBot

    CroupierBot(settings).run(token, log_handler=None)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``croupier`` console script."""
    args = build_parser().parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "perft":
            return cmd_perft(args)
        if args.command == "selfplay":
            return cmd_selfplay(args)
        if args.command == "run" or (args.command is None and settings.token):
            return cmd_run(settings)
        if args.command is None:
            args = build_parser().parse_args(["local"])
        return cmd_local(args, settings)
    except BadOptions as error:
        print(f"croupier: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
