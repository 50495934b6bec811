"""The ``croupier`` command: ``run`` (Discord), ``local`` (terminal), ``web`` (the web
companion), ``perft``, ``cards``, ``selfplay``, ``backup``, ``migrate``.

With no subcommand it connects to Discord when a token is configured and opens
the local table otherwise — which is what ``make run`` does.

Every game's options come from its declaration (:mod:`rules.options`): each
becomes a flag of its game (``croupier local GAME --option-name VALUE``), listed with
its choices in ``--help`` and read by the same code as everywhere else, so a
refusal reads the same here as at the table or in Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from bot.config import Settings
from bot.discord_side.cluster import Cluster
from bot.errors import said
from bot.i18n import locale_of
from bot.matches.levels import checked_level, computer_named, levels_said
from bot.matches.results import place_label
from rules.arena import play
from rules.core import DEFAULT_LEVEL, LEVELS, GameInfo
from rules.errors import BadOptions
from rules.options import GameOptions, OptionSpec
from rules.registry import games
from rules.words import plural
from storage.engine import is_postgres

WEB_PORT = 8080
"""``croupier web``'s port without ``--port`` or ``CROUPIER_WEB_PORT``."""
MAX_DEPTH = 30
"""Deepest perft asked for (each level multiplies the count, and the time)."""
MAX_GAMES = 100_000
MAX_SHARDS = 100_000
"""Most shards (and so clusters) ``croupier run`` takes: far past the biggest bots'."""
LEFT = 0
"""Exit status after Ctrl-C at the local table: a documented way to leave it (every
choice is saved), not a failure — and ``make run`` then says nothing more, where
128 + SIGINT would add "make: *** [run] Error 130"."""
OPTION_PREFIX = "option_"
DESCRIPTION = ("Croupier deals and referees card games. With no command, it connects to "
               "Discord when DISCORD_TOKEN is set (in .env), and otherwise opens the local "
               "table: play in the terminal against computer players.")
"""What ``croupier --help`` says first (plain words: argparse shows text as it is)."""


def whole(name: str, minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse ``type`` reading a whole number strictly, as options are read:
    ASCII digits only, within bounds, refusals naming the input.

    >>> whole("depth", 0, 30)("4")
    4
    >>> whole("depth", 0, 30)("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: depth must be a whole number from 0 to 30, not '-1'
    """
    spec = OptionSpec(name, "number", minimum, "", minimum=minimum, maximum=maximum)

    def read(text: str) -> int:
        try:
            return spec.read(text)
        except BadOptions as refusal:
            raise argparse.ArgumentTypeError(said(refusal, None)) from None

    read.__name__ = name  # argparse names the type in some messages
    return read


def _help_text(text: str) -> str:
    return text.replace("%", "%%")  # argparse formats help with %


def add_game_options(parser: argparse.ArgumentParser, options: type[GameOptions]) -> None:
    """A flag per declared option (``--hand-cap`` for ``hand_cap``), its choices in
    the help; values are kept as typed and read by :meth:`GameOptions.parse`."""
    if not options.specs():
        return
    group = parser.add_argument_group(f"{options.title} options")
    for spec in options.specs():
        flags = [f"--{spec.name.replace('_', '-')}"]
        if "_" in spec.name:
            flags.append(f"--{spec.name}")
        group.add_argument(*flags, dest=OPTION_PREFIX + spec.name, metavar="VALUE",
                           help=_help_text(f"{spec.description} ({spec.every_choice()}; "
                                           f"default {spec.label(spec.default)})"))


def given_options(args: argparse.Namespace) -> dict[str, str]:
    """The options given on the command line, by name, as typed."""
    return {key.removeprefix(OPTION_PREFIX): value for key, value in vars(args).items()
            if key.startswith(OPTION_PREFIX) and value is not None}


def _game_parser(sub: Any, info: GameInfo) -> argparse.ArgumentParser:
    parser = sub.add_parser(info.name, help=f"{info.title} ({info.seat_range()})",
                            description=f"{info.title} ({info.seat_range()}).")
    parser.set_defaults(game_parser=parser)
    return parser


def _seats_argument(parser: argparse.ArgumentParser, info: GameInfo) -> None:
    if info.min_seats != info.max_seats:
        parser.add_argument("--seats", type=whole("seats", info.min_seats, info.max_seats),
                            help=f"players, you included ({info.min_seats}–{info.max_seats}; "
                                 f"default {info.default_seats})")


def _level_arguments(parser: argparse.ArgumentParser, own: bool, *,
                     each: bool = False) -> None:
    """``--level`` (and with ``each``, ``--levels``), given before the game or after
    it, as :func:`_selfplay_arguments`' are."""
    unset = argparse.SUPPRESS if own else None
    parser.add_argument("--level", choices=LEVELS, default=unset,
                        help=f"the computer players' level ({levels_said()}"
                             + ("; default normal)" if each else
                                "; without it, the table asks)"))
    if each:
        parser.add_argument("--levels", type=level_list, default=unset, metavar="L1,L2,…",
                            help="each player's level in seat order, e.g. hard,normal")


LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the local table looks for its language without ``--lang``, in POSIX's order."""


def _lang_argument(parser: argparse.ArgumentParser, own: bool) -> None:
    """``--lang``, given before the game or after it (as ``--level`` is)."""
    parser.add_argument("--lang", default=argparse.SUPPRESS if own else None,
                        metavar="LOCALE",
                        help="the table's language: en or pt-BR (default: from LC_ALL, "
                             "LC_MESSAGES or LANG; English when none is one Croupier speaks)")


def table_language(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The local table's locale: ``--lang`` if given, else the environment's (the first
    of :data:`LANGUAGE_VARIABLES` set); English for anything Croupier does not speak.

    >>> table_language("pt-BR"), table_language(None, {"LANG": "pt_BR.UTF-8"})
    ('pt_BR', 'pt_BR')
    >>> table_language(None, {"LC_ALL": "C.UTF-8", "LANG": "pt_BR.UTF-8"})
    'en'
    """
    if given:
        return locale_of(given)
    found = os.environ if environ is None else environ
    return locale_of(next((found[name] for name in LANGUAGE_VARIABLES if found.get(name)), None))


def level_list(text: str) -> tuple[str, ...]:
    """An argparse ``type`` reading ``--levels``: levels separated by commas.

    >>> level_list("hard, normal")
    ('hard', 'normal')
    >>> level_list("hard,expert")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: each level is easy, normal or hard, not 'expert'
    """
    levels = tuple(part.strip() for part in text.split(","))
    for level in levels:
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(f"each level is {levels_said()}, not {level!r}")
    return levels


def _selfplay_arguments(parser: argparse.ArgumentParser, own: bool) -> None:
    """``--games`` and ``--seed``, given before the game or after it: on a game's
    own parser they stay unset unless given, so as not to undo the first."""
    parser.add_argument("--games", type=whole("games", 1, MAX_GAMES),
                        default=argparse.SUPPRESS if own else 10,
                        help="games to play (default 10)")
    parser.add_argument("--seed", type=whole("seed", 0, 999_999_999),
                        default=argparse.SUPPRESS if own else 1,
                        help="the first game's seed (default 1)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests)."""
    known = games()
    parser = argparse.ArgumentParser(
        prog="croupier", description=DESCRIPTION,
        epilog=f"Each command has its own --help (croupier local --help, croupier local "
               f"{next(iter(known))} --help).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    run = sub.add_parser(
        "run", help="connect to Discord (needs DISCORD_TOKEN)",
        description="Connect to Discord. Several processes can share the bot: each is one "
                    "cluster and connects the shards range(I, S, N) of S (docs/scaling.md); "
                    "more than one cluster needs a PostgreSQL database.")
    run.set_defaults(game_parser=run)  # refusals show run's usage
    run.add_argument("--cluster", type=whole("cluster", 0, MAX_SHARDS - 1), metavar="I",
                     help="this process's cluster, from 0 to N-1 (with --clusters)")
    run.add_argument("--clusters", type=whole("clusters", 1, MAX_SHARDS), metavar="N",
                     help="how many cluster processes share the bot (default 1)")
    run.add_argument("--shards", type=whole("shards", 1, MAX_SHARDS), metavar="S",
                     help="the bot's shard count, at least N (with --clusters; default "
                          "Discord's recommended count, rounded up to a multiple of N)")

    local = sub.add_parser("local", help="play in the terminal against the computer",
                           description="Play in the terminal against computer players. "
                                       "Without a game, you are asked which game, how many "
                                       "players and which options.")
    _level_arguments(local, own=False)
    _lang_argument(local, own=False)
    local_games = local.add_subparsers(dest="game", metavar="GAME",
                                       title="games (each has its own --help)")
    for info in known.values():
        game = _game_parser(local_games, info)
        _seats_argument(game, info)
        _level_arguments(game, own=True)
        _lang_argument(game, own=True)
        add_game_options(game, info.options)

    perft = sub.add_parser("perft", help="count leaf positions to a depth",
                           description="Count the move sequences of a given length from a new "
                                       "game, to check a move generator.")
    perft_games = perft.add_subparsers(dest="game", metavar="GAME", required=True,
                                       title="games that count")
    for info in known.values():
        if info.perft is None:
            continue
        game = _game_parser(perft_games, info)
        game.add_argument("--depth", type=whole("depth", 0, MAX_DEPTH), required=True,
                          help=f"moves to look ahead (0–{MAX_DEPTH})")
        add_game_options(game, info.options)

    cards = sub.add_parser("cards", help="every card of a game, in words",
                           description="List a game's cards with their cost, type and text.")
    cards_games = cards.add_subparsers(dest="game", metavar="GAME", required=True,
                                       title="games with cards to list")
    for info in known.values():
        if info.catalogue is None:
            continue
        game = _game_parser(cards_games, info)
        game.add_argument("name", nargs="?", default="",
                          help="only the cards whose name holds this (any case)")

    backup = sub.add_parser(
        "backup", help="copy the SQLite database, safe while the bot runs",
        description="Copy the bot's SQLite database (CROUPIER_DATABASE) to FILE while the bot "
                    "may be running: the copy is the database as it was at one moment. "
                    "A PostgreSQL database is backed up with pg_dump instead.")
    backup.add_argument("file", metavar="FILE", help="the backup file to write")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")

    migrate = sub.add_parser(
        "migrate", help="copy a SQLite database into a new PostgreSQL database",
        description="Copy a whole community (every match and its log, results, ratings, "
                    "settings, collections, trades, tournaments) from a SQLite file into a new, "
                    "empty PostgreSQL database, checked table by table before it commits. "
                    "Stop the bot first; afterwards set CROUPIER_DATABASE to the URL.")
    migrate.add_argument("--from", dest="source", metavar="FILE", required=True,
                         help="the SQLite database file")
    migrate.add_argument("--to", dest="target", metavar="URL", required=True,
                         help="the PostgreSQL database, postgresql://user@host/name")

    web = sub.add_parser(
        "web", help="serve the web companion's pages (read-only)",
        description="Serve the web pages of the servers that turned them on (/config web): "
                    "tournaments, replays, leaderboards, players, cards. Read-only, from the "
                    "same database as the bot (CROUPIER_DATABASE); run it beside the bot, "
                    "behind a reverse proxy (README).")
    web.set_defaults(game_parser=web)
    web.add_argument("--host", metavar="HOST",
                     help="the address to listen on (default CROUPIER_WEB_HOST, 127.0.0.1)")
    web.add_argument("--port", type=whole("port", 1, 65535), metavar="N",
                     help=f"the port (default CROUPIER_WEB_PORT, else {WEB_PORT})")

    selfplay = sub.add_parser("selfplay", help="computer against computer, with a summary",
                              description="Computer against computer, with a summary. "
                                          f"The game is {next(iter(known))} unless named.")
    selfplay_games = selfplay.add_subparsers(dest="game", metavar="GAME",
                                             title="games (each has its own --help)")
    selfplay.set_defaults(game_parser=selfplay)
    _selfplay_arguments(selfplay, own=False)
    _level_arguments(selfplay, own=False, each=True)
    for info in known.values():
        game = _game_parser(selfplay_games, info)
        _selfplay_arguments(game, own=True)
        _level_arguments(game, own=True, each=True)
        _seats_argument(game, info)
        add_game_options(game, info.options)
    return parser


def _options_or_exit(args: argparse.Namespace, info: GameInfo,
                     seats: int | None = None) -> GameOptions:
    """The command line's options for ``info``, checked by the game (and with
    ``seats``, checked to deal that many players); a refusal ends the command as
    a usage error naming it."""
    try:
        options = info.options.parse(given_options(args))
        if seats is not None:
            info.new(options, seats, 0)
    except BadOptions as refusal:
        _usage_error(args, said(refusal, None))
    return options


def cmd_perft(args: argparse.Namespace) -> int:
    """Print the leaf count of a new game with the given options."""
    info = games()[args.game]
    assert info.perft is not None
    options = _options_or_exit(args, info)
    started = time.perf_counter()
    leaves = info.perft(options, args.depth)
    elapsed = time.perf_counter() - started
    print(leaves)
    print(f"# {info.title}, depth {args.depth}, options {options.stored()}, {elapsed:.2f} s",
          file=sys.stderr)
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    """Print the game's cards (those whose name holds the search, if given)."""
    info = games()[args.game]
    assert info.catalogue is not None
    entries = info.catalogue(args.name)
    if not entries:
        print(f"No {info.title} card's name holds {args.name!r}.", file=sys.stderr)
        return 1
    print("\n\n".join(entries))
    print(f"# {plural(len(entries), 'card')}", file=sys.stderr)
    return 0


def _usage_error(args: argparse.Namespace, refusal: str) -> NoReturn:
    """End the command as a usage error naming ``refusal``."""
    parser: argparse.ArgumentParser = getattr(args, "game_parser", None) or build_parser()
    parser.error(refusal)


def _levels_or_exit(args: argparse.Namespace, info: GameInfo, seats: int) -> list[str]:
    """Each seat's computer level from ``--level`` or ``--levels`` (default normal),
    each one the game has; a refusal ends the command as a usage error."""
    level, levels = getattr(args, "level", None), getattr(args, "levels", None)
    if level is not None and levels is not None:
        _usage_error(args, "give --level (every player's) or --levels (each player's), "
                           "not both")
    if levels is not None and len(levels) != seats:
        _usage_error(args, f"--levels names {plural(len(levels), 'level')} for "
                           f"{plural(seats, 'player')}: one for each")
    chosen = list(levels) if levels is not None else [level or DEFAULT_LEVEL] * seats
    try:
        return [checked_level(info, each) for each in chosen]
    except BadOptions as refusal:
        _usage_error(args, said(refusal, None))


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play seeded computer-vs-computer games and summarise them (players numbered
    from 1, each with its level), through :func:`rules.arena.play` like every other
    computer-against-computer game."""
    info = games()[args.game] if args.game else next(iter(games().values()))
    seats = getattr(args, "seats", None) or info.default_seats
    options = _options_or_exit(args, info, seats)
    levels = _levels_or_exit(args, info, seats)
    players = [info.computer(level) for level in levels]
    wins = [0] * seats
    draws = steps = 0
    started = time.perf_counter()
    for n in range(args.games):
        seed = args.seed + n
        played = play(info, options, seed, players)
        outcome = played.outcome
        steps += played.choices
        if outcome.is_draw:
            draws += 1
        else:
            for seat in outcome.winners:
                wins[seat] += 1
        order = sorted(range(seats), key=lambda s: outcome.places[s])
        places = ", ".join(
            f"{place_label(outcome.places[s], outcome.places)} player {s + 1}"
            + ("" if outcome.scores is None else f" ({outcome.scores[s]})") for s in order)
        # Computer players with no names: the simulation's players are numbered.
        said = outcome.said([f"player {s + 1}" for s in range(seats)])
        print(f"game {n + 1} (seed {seed}): {places}; {said}")
    elapsed = time.perf_counter() - started
    tally = ", ".join(f"{computer_named(f'player {s + 1}', levels[s])} {wins[s]}"
                      for s in range(seats))
    print(f"{info.title}: {plural(args.games, 'game')}, {plural(steps, 'choice')} in "
          f"{elapsed:.2f} s; wins: {tally}; {plural(draws, 'draw')}")
    return 0


def cmd_local(args: argparse.Namespace, settings: Settings) -> int:
    """The terminal table. Ctrl-C leaves at once (every choice is already saved)."""
    from bot.terminal.table import play_local

    seats = getattr(args, "seats", None)
    level = getattr(args, "level", None)
    given = given_options(args)
    if args.game is not None:  # checked before the table opens, as a usage error
        info = games()[args.game]
        _options_or_exit(args, info, seats or info.default_seats)
        if level is not None:
            _levels_or_exit(args, info, 1)
    try:
        # Only what was given: a saved game is offered when it has those options;
        # without a level, the table asks for one as a new game opens.
        asyncio.run(play_local(str(settings.database), game=args.game,
                               options=given or None, seats=seats, level=level,
                               locale=table_language(getattr(args, "lang", None))))
    except KeyboardInterrupt:
        return LEFT
    return 0


def cluster_or_exit(args: argparse.Namespace) -> Cluster:
    """This process's cluster from ``run``'s flags (none: the one process), checked
    together; a refusal ends the command as a usage error naming it."""
    index, count, shards = (getattr(args, name, None) for name in ("cluster", "clusters",
                                                                    "shards"))
    if count is None:
        for flag, given in (("--cluster", index), ("--shards", shards)):
            if given is not None:
                _usage_error(args, f"{flag} needs --clusters: how many cluster processes "
                                   "share the bot (1 for this one alone)")
        return Cluster()
    if index is None:
        if count > 1:
            _usage_error(args, f"--clusters {count} needs --cluster: which one this process "
                               f"is, from 0 to {count - 1}")
        index = 0
    if index >= count:
        _usage_error(args, f"--cluster must be from 0 to {count - 1} with --clusters {count}, "
                           f"not {index}")
    if shards is not None and shards < count:
        _usage_error(args, f"--shards {shards} is fewer than --clusters {count}: every "
                           "cluster needs a shard at least")
    return Cluster(index, count, shards)


def several_clusters_refused(settings: Settings, cluster: Cluster) -> str | None:
    """Why ``cluster`` cannot run on ``settings``' database, if it cannot: clusters
    share one database, and a SQLite file is one process's (docs/scaling.md)."""
    if cluster.count == 1 or is_postgres(settings.database):
        return None
    return (f"--clusters {cluster.count} needs a PostgreSQL database, and CROUPIER_DATABASE "
            f"is the SQLite file {settings.database}: several processes, on several "
            "machines, cannot share one SQLite file. Copy it with `croupier migrate --from "
            f"{settings.database} --to postgresql://…`, then set CROUPIER_DATABASE to that "
            "URL (docs/scaling.md).")


def cmd_run(settings: Settings, cluster: Cluster | None = None) -> int:
    """Connect to Discord: the one process, or ``cluster``'s shards."""
    cluster = cluster or Cluster()
    refusal = several_clusters_refused(settings, cluster)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    token = settings.token
    if token is None:
        print("No Discord token: set DISCORD_TOKEN in .env (see README.md). "
              "`croupier local` plays in the terminal.", file=sys.stderr)
        return 2
    from bot.discord_side.client import make_bot

    # Slash commands belong to the application, not to a shard: one cluster publishes
    # them (Discord limits how often a bot may), the others serve them.
    bot = make_bot(settings, cluster, sync_commands=cluster.index == 0)
    if settings.web_port is None or cluster.index != 0:  # one process serves the web
        bot.run(token, log_handler=None)
        return 0
    try:
        asyncio.run(run_with_web(bot, token, settings, settings.web_port))
    except KeyboardInterrupt:  # as discord.py's run() leaves
        return 0
    except WebRefused as refused:
        print(f"No web pages (CROUPIER_WEB_PORT={settings.web_port}): {refused.__cause__}. "
              "Unset CROUPIER_WEB_PORT to run the bot alone.", file=sys.stderr)
        return 1
    return 0


class WebRefused(Exception):
    """The in-process web pages could not start (their port, their store)."""


async def run_with_web(bot: Any, token: str, settings: Settings, port: int) -> None:
    """The bot and, in the same process, the web pages over a read-only store of the
    bot's database (migrated first, as the bot would)."""
    from bot.web.serve import serving
    from storage import Store
    from storage.errors import ReadOnlyStore

    await (await Store.open(settings.database)).close()  # the schema current
    async with contextlib.AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(serving(settings.database, settings.web_host,
                                                    port))
        except (OSError, ReadOnlyStore) as refused:  # the bot's own errors stay its own
            raise WebRefused() from refused
        logging.getLogger(__name__).info("web pages at http://%s:%d/", settings.web_host,
                                         port)
        async with bot:
            await bot.start(token)


def cmd_web(args: argparse.Namespace, settings: Settings) -> int:
    """``croupier web``: the web companion in a process of its own, until Ctrl-C."""
    from bot.web.serve import serve_forever
    from storage.errors import ReadOnlyStore

    host = args.host or settings.web_host
    port = args.port or settings.web_port or WEB_PORT
    started = asyncio.Event()

    async def serve() -> None:
        task = asyncio.create_task(serve_forever(settings.database, host, port, started))
        waiting = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if started.is_set():
            print(f"Serving the web pages at http://{host}:{port}/ (Ctrl-C stops).",
                  flush=True)
        else:
            waiting.cancel()
        await task

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        return 0
    except ReadOnlyStore as refused:
        print(f"No web pages: {refused}.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"No web pages: cannot listen at {host}:{port} ({exc.strerror or exc}).",
              file=sys.stderr)
        return 1
    return 0


def cmd_backup(args: argparse.Namespace, settings: Settings) -> int:
    """``croupier backup FILE``: the SQLite database copied while the bot may run."""
    from storage.backup import BackupRefused, backup
    from storage.engine import is_postgres

    database = settings.database
    if is_postgres(database):
        print("The database is PostgreSQL: back it up with pg_dump (see docs/scaling.md).",
              file=sys.stderr)
        return 2
    try:
        made = backup(database, args.file, replace=args.force)
    except BackupRefused as refused:
        print(f"No backup made: {refused}.", file=sys.stderr)
        return 1
    print(f"Backed up {database} to {made.target}: schema version {made.schema_version}, "
          f"{made.matches} match{'' if made.matches == 1 else 'es'}, "
          f"{made.size_bytes / 1e6:.1f} MB, "
          f"in {made.seconds:.1f} s.")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """``croupier migrate --from FILE --to URL``: SQLite to a new PostgreSQL database."""
    from storage.engine import is_postgres
    from storage.transfer import TransferRefused, copy_store

    if not is_postgres(args.target):
        print(f"--to must be a postgresql:// URL, not {args.target!r}.", file=sys.stderr)
        return 2
    try:
        made = asyncio.run(copy_store(args.source, args.target))
    except TransferRefused as refused:
        print(f"Nothing copied: {refused}.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"Nothing copied: could not reach the PostgreSQL database ({exc}).",
              file=sys.stderr)
        return 1
    except Exception as exc:  # the driver's own refusals: a missing database, a password
        logging.getLogger(__name__).debug("migrate failed", exc_info=True)
        print(f"Nothing copied: the PostgreSQL database refused ({type(exc).__name__}: "
              f"{exc}).", file=sys.stderr)
        return 1
    print(f"Copied {made.total:,} rows in {len(made.rows)} tables in {made.seconds:.1f} s, "
          "each table checked against the source. Now set CROUPIER_DATABASE to the URL.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``croupier`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "perft":
        return cmd_perft(args)
    if args.command == "selfplay":
        return cmd_selfplay(args)
    if args.command == "cards":
        return cmd_cards(args)
    if args.command == "backup":
        return cmd_backup(args, settings)
    if args.command == "migrate":
        return cmd_migrate(args)
    if args.command == "run":
        return cmd_run(settings, cluster_or_exit(args))
    if args.command == "web":
        return cmd_web(args, settings)
    if args.command is None and settings.token:
        return cmd_run(settings)
    if args.command is None:
        args = parser.parse_args(["local"])
    return cmd_local(args, settings)


if __name__ == "__main__":
    sys.exit(main())
