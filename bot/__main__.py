"""Run the Kasino Discord bot, or try it in your browser without Discord.

The bot needs DISCORD_TOKEN, in the environment or in a .env file (copy .env.example).
With --preview it runs against SimCord's local Preview instead: no token, a throwaway
database. Stop either with Ctrl+C (or SIGTERM), however it was started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Iterator

from bot.shell import not_installed

try:
    import aiohttp
    import discord

    from bot.client import StartupError
    from bot.config import Config, ConfigError, load_config
except ModuleNotFoundError as missing:  # a Python without the bot's packages (not the venv's)
    sys.exit(not_installed(missing.name or "a package"))

log = logging.getLogger("bot")

NETWORK_HINT = "Check the network connection (and any proxy or firewall), then start the bot again."
TOKEN_HINT = (
    "Check DISCORD_TOKEN in .env (or the environment): copy the token again from the"
    " Discord Developer Portal, your application > Bot > Reset Token."
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--preview",
        action="store_true",
        help="run against SimCord's local Preview in your browser: no token, throwaway database",
    )
    parser.add_argument(
        "--port", type=int, default=None, help="port for --preview (default: a free one)"
    )
    parser.add_argument(
        "--locale", default="en-US", metavar="LOCALE",
        help="for --preview: the members' Discord client language (sv-SE, fi, en-US)",
    )  # fmt: skip
    parser.add_argument(
        "--server-locale", default="en-US", metavar="LOCALE",
        help="for --preview: the server's language (its public messages), e.g. fi",
    )  # fmt: skip
    parser.add_argument(
        "--deck", default="two", choices=("two", "four"),
        help="for --preview: the server's card deck, two- or four-colour faces",
    )  # fmt: skip
    parser.add_argument(
        "--place", default="server",
        choices=("server", "group-dm", "foreign-server", "ladder", "games", "dm"),
        help="for --preview: where the page plays: the server (default), or where only the"
        " members installed the app: their group DM, or a server without the bot; or"
        " ladder: Bjorn in a second server, to /kasino queue from both; or games: Anna's"
        " games in other places too, for /kasino games; or dm: Anna's DM with the bot, with"
        " her daily digest of two correspondence games",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    migrate = commands.add_parser(
        "migrate-db",
        help="copy the SQLite database into PostgreSQL",
        description="Copy the SQLite database (games in progress, move logs, results) into a"
        " PostgreSQL database and check the counts. Stop the bot first.",
    )
    migrate.add_argument("--to", required=True, metavar="URL", help="postgresql://user:pw@host/db")
    migrate.add_argument(
        "--from", dest="source", default=None, metavar="PATH",
        help="the SQLite file (default: KASINO_DB, or data/kasino.db)",
    )  # fmt: skip
    commands.add_parser("health", help="exit 0 if the running bot is healthy (Docker)")
    rerate = commands.add_parser(
        "ratings",
        help="recompute every rating from the stored results",
        description="Replay every rated match from the stored results and compare with the"
        " stored ratings (exit 1 on a difference); --rebuild also stores the recomputed"
        " ratings. Stop the bot first.",
    )
    how = rerate.add_mutually_exclusive_group(required=True)
    how.add_argument("--rebuild", action="store_true", help="recompute and store")
    how.add_argument("--check", action="store_true", help="only compare")
    rerate.add_argument(
        "--db", default=None, metavar="TARGET", help="the database (default: KASINO_DB)"
    )
    verify = commands.add_parser(
        "verify",
        help="check an exported game record: its deals' commitments and every move",
        description="Recompute each round's deck from its seed, check it against the"
        " commitment (each round's, as How to check gave it) and against every card played"
        " (the engine replays the game), and compare the final scores; recompute the sealed"
        " move log and, given the final head a player saw in their hand view at the end,"
        " prove the record is the match played."
        " Prints OK and what it proved, or what failed. Exit code 0: all proved; 1: failed;"
        " 2: only part proved (an earlier head: the first moves only; an older game's head;"
        " a seed commitment given with fewer than 32 hex digits).",
    )
    verify.add_argument("file", metavar="FILE", help="a record from /kasino export (JSON)")
    verify.add_argument(
        "--head",
        metavar="HEX",
        default=None,
        help="the final head a player saw in their hand view at the end ('Match sealed:'), at least"
        " 16 hex digits (a table's 'moves:' head proves only the moves before it)",
    )
    verify.add_argument(
        "--seed",
        metavar="HEX",
        default=None,
        help="the seed's commitment a player was sent when they joined (32 hex digits;"
        " for a tournament's table, the tournament's)",
    )
    replay = commands.add_parser(
        "replay",
        help="play an exported game record back in the terminal",
        description="Each move in words, each round's end, and the final scores, which must"
        " be the record's (exit code 0, else 1).",
    )
    replay.add_argument("file", metavar="FILE", help="a record from /kasino export (JSON)")
    migrate.add_argument(
        "--replace", action="store_true", help="empty a target that holds data, then copy"
    )
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database into a file (safe while the bot runs)",
        description="Copy the SQLite database (KASINO_DB) into FILE with SQLite's online"
        " backup, safe while the bot runs, and check the copy. For PostgreSQL use pg_dump.",
    )
    backup.add_argument("file", metavar="FILE", help="the backup to write")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    restore = commands.add_parser(
        "restore",
        help="put a backup in place of the SQLite database (stop the bot first)",
        description="Check the backup FILE, keep the current database beside it"
        " (KASINO_DB.before-restore-DATE), and write FILE into KASINO_DB. Stop the bot first.",
    )
    restore.add_argument("file", metavar="FILE", help="a file made by python -m bot backup")
    for command in (backup, restore):
        command.add_argument(
            "--db", default=None, metavar="PATH", help="the database (default: KASINO_DB)"
        )
    return parser.parse_args(argv)


def _http_error(error: discord.HTTPException) -> str:
    """``503 Service Unavailable: the text``, without discord.py's error-code noise."""
    reason = getattr(error.response, "reason", None) or ""
    text = f"{error.status} {reason}".strip()
    if error.text and error.text != reason:
        text += f": {error.text}"
    return text


def _network_error(error: BaseException) -> str | None:
    """The one-line explanation of a network failure, or None if it is not one."""
    cause = getattr(error, "os_error", None)
    if isinstance(error, socket.gaierror) or isinstance(cause, socket.gaierror):
        host = getattr(error, "host", None) or "discord.com"
        detail = (cause or error).strerror or "no answer"
        return f"cannot reach Discord: looking up {host} failed ({detail}). {NETWORK_HINT}"
    if isinstance(error, aiohttp.ClientConnectorError):
        detail = error.os_error.strerror or str(error.os_error)
        return f"cannot reach Discord at {error.host}:{error.port} ({detail}). {NETWORK_HINT}"
    if isinstance(error, aiohttp.ClientError | ConnectionError | TimeoutError):
        return f"cannot reach Discord ({type(error).__name__}: {error}). {NETWORK_HINT}"
    return None


def describe_startup_error(error: BaseException, config: Config) -> str | None:
    """One line for a person: what went wrong at start-up and what to do about it.

    None when ``error`` is not a known start-up problem (a bug: let its traceback show).
    """
    if isinstance(error, StartupError):
        return str(error)
    if isinstance(error, discord.LoginFailure):
        return f"Discord rejected the bot token. {TOKEN_HINT}"
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused a privileged intent. The bot needs none; if you changed its"
            " intents, switch them on in the Developer Portal, your application > Bot >"
            " Privileged Gateway Intents."
        )
    if isinstance(error, discord.ConnectionClosed):
        if error.code == 4004:
            return f"Discord rejected the bot token when connecting. {TOKEN_HINT}"
        reason = f": {error.reason}" if error.reason else ""
        return (
            f"Discord closed the connection (code {error.code}{reason})."
            " Try again in a few minutes; see https://discordstatus.com."
        )
    if isinstance(error, discord.GatewayNotFound):
        return (
            "Discord's gateway cannot be found."
            " Try again in a few minutes; see https://discordstatus.com."
        )
    if isinstance(error, discord.HTTPException):
        if error.status >= 500:
            return (
                f"Discord's servers answered {_http_error(error)}. This is on Discord's side:"
                " try again in a few minutes; see https://discordstatus.com."
            )
        if isinstance(error, discord.Forbidden | discord.NotFound) and config.dev_guild_id:
            return (
                f"Discord refused to register the commands in the server DEV_GUILD_ID="
                f"{config.dev_guild_id} ({_http_error(error)}). Invite the bot to that server,"
                " or correct or remove DEV_GUILD_ID in .env."
            )
        return (
            f"Discord answered {_http_error(error)} while starting."
            " Check the application in the Discord Developer Portal, then start the bot again."
        )
    return _network_error(error)


def _ctrl_c_stops() -> None:
    """Let Ctrl+C (SIGINT) stop this process whoever started it.

    A shell starts background jobs (``cmd &`` in a script, a test suite run as a job) with
    SIGINT ignored, and the children they start inherit that: Python then installs no
    KeyboardInterrupt and asyncio no handler, so the bot would stop only on SIGTERM.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def _sigterm_cancels(task: asyncio.Task[None]) -> Iterator[list[bool]]:
    """While inside, SIGTERM (``docker stop``) cancels ``task``, as Ctrl+C does.

    Yields a list whose one flag tells whether it happened.
    """
    loop = asyncio.get_running_loop()
    terminated = [False]

    def terminate() -> None:
        terminated[0] = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, terminate)
    except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
        yield terminated
        return
    try:
        yield terminated
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


async def _until_stopped(run: Callable[[], Awaitable[None]]) -> None:
    """Await ``run()``; a SIGTERM ends it like Ctrl+C, but returns normally."""
    task = asyncio.current_task()
    assert task is not None
    with _sigterm_cancels(task) as terminated:
        try:
            await run()
        except asyncio.CancelledError:
            if not terminated[0]:
                raise


async def run_bot(config: Config) -> None:
    """Log in, open the database, connect; the database is closed however this ends."""
    from bot.client import make_bot

    assert config.token is not None
    bot = make_bot(config)
    bot.freeze_on_start = True
    try:
        async with bot:  # leaving it calls bot.close(), which closes the database
            await bot.start(config.token)
    finally:
        await bot.close_storage()  # in case close() itself failed


async def _ratings(target: object, *, write: bool) -> int:
    """``ratings --check`` / ``--rebuild``: one line, exit 1 when the stored values differ
    from the replay (after ``--rebuild`` they no longer do)."""
    from bot.storage import Storage
    from bot.storage.rerate import rebuild

    storage = await Storage.open(str(target))
    try:
        report = await rebuild(storage, write=write)
    finally:
        await storage.close()
    print(report.summary())
    return 1 if report.differences and not write else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = parse_args(argv)
    if args.command in ("verify", "replay"):
        from bot.records.cli import replay_file, verify_file

        if args.command == "verify":
            return verify_file(args.file, head=args.head, seed=args.seed)
        return replay_file(args.file)
    try:
        config = load_config(require_token=not (args.preview or args.command))
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "health":
        from bot.health import check

        return check(config.health_file)
    if args.command == "migrate-db":
        from bot.migrate import migrate_db

        return migrate_db(config, args.source, args.to, replace=args.replace)
    if args.command in ("backup", "restore"):
        from bot.backup import backup_command, restore_command

        if args.command == "backup":
            return backup_command(config, args.file, db=args.db, force=args.force)
        return restore_command(config, args.file, db=args.db)
    if args.command == "ratings":
        return asyncio.run(_ratings(args.db or config.db_path, write=args.rebuild))
    discord.utils.setup_logging(level=getattr(logging, config.log_level), root=True)
    _ctrl_c_stops()
    if args.preview:
        return _preview(
            config, args.port, args.locale, args.server_locale, args.deck, place=args.place
        )
    try:
        asyncio.run(_until_stopped(lambda: run_bot(config)))
    except KeyboardInterrupt:
        pass
    except Exception as error:
        message = describe_startup_error(error, config)
        if message is None:
            raise
        log.debug("the bot stopped on an error", exc_info=error)
        print(f"error: {message}", file=sys.stderr)
        return 1
    print("bot stopped", flush=True)
    return 0


def _preview(
    config: Config,
    port: int | None,
    locale: str = "en-US",
    server_locale: str = "en-US",
    deck: str = "two",
    *,
    place: str = "server",
) -> int:
    from bot.preview import PreviewUnavailable, run_preview

    def start() -> Awaitable[None]:
        return run_preview(
            config, port=port, locale=locale, server_locale=server_locale, deck=deck, place=place
        )

    try:
        asyncio.run(_until_stopped(start))
    except KeyboardInterrupt:
        pass
    except PreviewUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except StartupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except Exception as error:
        # SimCord reports a port it cannot bind as its SetupError, caused by the OSError.
        # (A TimeoutError is an OSError too, but a bot that did not settle is no port's.)
        cause = error if isinstance(error, OSError) else error.__cause__
        if port is None or not isinstance(cause, OSError) or isinstance(cause, TimeoutError):
            raise
        print(
            f"error: cannot start the preview on port {port} ({cause.strerror or cause})."
            " Choose another --port, or leave it out for a free one.",
            file=sys.stderr,
        )
        return 1
    print("preview stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
