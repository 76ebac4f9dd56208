"""Start-up and shutdown: readable one-line errors, the database always closed, and a
preview that one Ctrl+C (or a SIGTERM) stops cleanly.

Discord is faked at the HTTP level: discord.py's REST base URL is pointed at a small
server on 127.0.0.1 (a wrong token is its 401 answer, as Discord's would be), and a
failed DNS look-up is a patched ``socket.getaddrinfo``, so nothing depends on this
machine's network.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot.__main__ import main, parse_args
from bot.client import KasinoBot
from bot.config import Config
from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[2]
APP_ID = 1456074443980800001
GUILD_ID = 1456074443980899999


def database_threads(wait: float = 2.0) -> list[threading.Thread]:
    """aiosqlite's worker threads still running (each open connection has one) after
    waiting up to ``wait`` seconds for closed ones to finish."""
    deadline = time.monotonic() + wait
    while True:
        threads = [
            thread
            for thread in threading.enumerate()
            if thread.is_alive() and "_connection_worker_thread" in thread.name
        ]
        if not threads or time.monotonic() > deadline:
            return threads
        time.sleep(0.01)


class FakeDiscord(ThreadingHTTPServer):
    """Answers discord.py's REST calls from ``routes``: (method, path) -> (status, body)."""

    daemon_threads = True

    def __init__(self, routes: dict[tuple[str, str], tuple[int, object]]) -> None:
        self.routes = routes
        super().__init__(("127.0.0.1", 0), FakeDiscordHandler)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/api/v10"


class FakeDiscordHandler(BaseHTTPRequestHandler):
    server: FakeDiscord

    def answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        path = self.path.split("?")[0].removeprefix("/api/v10")
        status, body = self.server.routes.get(
            (self.command, path), (404, {"message": "404: Not Found", "code": 0})
        )
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_PUT = do_POST = do_PATCH = answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def fake_discord(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    server = FakeDiscord({})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.base)
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A token, a database in tmp_path, only error logs; the root logger restored after."""
    monkeypatch.chdir(tmp_path)
    for name in ("DEV_GUILD_ID", "KASINO_DB", "LOG_LEVEL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.real-token")
    monkeypatch.setenv("KASINO_DB", str(tmp_path / "data" / "kasino.db"))
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield tmp_path
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    """stderr must be exactly one line, an ``error:`` line, and no traceback."""
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def test_a_wrong_token_is_one_line(
    environment: Path, fake_discord: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_discord.routes[("GET", "/users/@me")] = (401, {"message": "401: Unauthorized", "code": 0})
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "token" in line and "DISCORD_TOKEN" in line and ".env" in line
    assert "not.a.real-token" not in line
    assert not database_threads()


def test_no_dns_is_one_line(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """discord.com cannot be looked up (what an offline machine sees)."""

    def no_dns(host: object, *args: object, **kwargs: object) -> object:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "discord.com" in line and "network" in line


def test_connection_refused_is_one_line(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "cannot reach Discord" in line and "network" in line


def test_discord_server_error_is_one_line(
    environment: Path, fake_discord: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_discord.routes[("GET", "/users/@me")] = (503, {"message": "Service Unavailable"})
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "503" in line and "try again" in line


def logged_in(fake_discord: FakeDiscord) -> None:
    """Answer the two calls of a successful login."""
    user = {"id": str(APP_ID), "username": "kasino", "discriminator": "0", "avatar": None}
    user["bot"] = True
    app = {
        "id": str(APP_ID),
        "name": "Kasino",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
        "flags": 0,
    }
    fake_discord.routes[("GET", "/users/@me")] = (200, user)
    fake_discord.routes[("GET", "/oauth2/applications/@me")] = (200, app)


def test_an_error_in_setup_hook_closes_the_database(
    environment: Path,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The token is good, but the bot is not in the DEV_GUILD_ID server: the command
    sync in setup_hook fails after the database was opened."""
    logged_in(fake_discord)
    path = f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
    fake_discord.routes[("PUT", path)] = (403, {"message": "Missing Access", "code": 50001})
    monkeypatch.setenv("DEV_GUILD_ID", str(GUILD_ID))
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "DEV_GUILD_ID" in line and "Missing Access" in line
    assert (environment / "data" / "kasino.db").exists()  # it was opened...
    assert not database_threads()  # ...and closed


def test_a_database_that_cannot_be_opened_is_one_line(
    environment: Path,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    logged_in(fake_discord)
    (environment / "a-file").write_text("not a folder")
    monkeypatch.setenv("KASINO_DB", str(environment / "a-file" / "kasino.db"))
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "cannot open the database" in line and "KASINO_DB" in line


def test_an_unreachable_postgresql_is_one_line_without_the_password(
    environment: Path,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    logged_in(fake_discord)
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("KASINO_DB", f"postgresql://kasino:s3cret@127.0.0.1:{port}/kasino")
    assert main([]) == 1
    line = one_error_line(capsys)
    assert "cannot open the database postgresql://kasino:***@127.0.0.1" in line
    assert "KASINO_DB" in line and "s3cret" not in line


@pytest.mark.parametrize(
    "value", ["mysql://k@db/kasino", "postgresql://k@db:port/kasino", "postgresql:///kasino"]
)
def test_a_malformed_kasino_db_is_one_line(
    environment: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    monkeypatch.setenv("KASINO_DB", value)
    assert main([]) == 2
    assert "KASINO_DB" in one_error_line(capsys)


def test_a_preview_port_in_use_is_one_line(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--preview", "--port", str(port)]) == 1
    line = one_error_line(capsys)
    assert f"port {port}" in line and "--port" in line
    assert not database_threads()


@pytest.mark.parametrize("failure", ["error", "cancelled"])
async def test_close_closes_the_database_whatever_happens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """``close`` closes the database even when closing the gateway fails or is cancelled."""

    async def failing_close(self: commands.Bot) -> None:
        if failure == "error":
            raise RuntimeError("the gateway did not close")
        await asyncio.sleep(60)

    bot = KasinoBot(Config(token=None, db_path=tmp_path / "kasino.db"))
    bot.storage = await Storage.open(bot.config.db_path)
    assert database_threads(wait=0)
    monkeypatch.setattr(commands.Bot, "close", failing_close)
    closing = asyncio.ensure_future(bot.close())
    await asyncio.sleep(0.05)
    closing.cancel()
    with pytest.raises((RuntimeError, asyncio.CancelledError)):
        await closing
    assert bot.storage is None
    assert not database_threads()


def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--preview" in out and "DISCORD_TOKEN" in out
    assert "``" not in out and "`" not in out


def _ignored_sigint() -> None:  # pragma: no cover - runs in the child before exec
    # As a shell starts background jobs: SIGINT ignored. Ctrl+C must stop the bot even so.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_one_signal_stops_the_preview_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """``python -m bot --preview``: one Ctrl+C (or a SIGTERM, as ``docker stop`` sends)
    closes the database, removes the throwaway folder and exits without a traceback."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TMPDIR": str(temp),
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DISCORD_TOKEN", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "--preview", "--port", "0"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_ignored_sigint,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    output: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while not any("preview running: open http://127.0.0.1:" in line for line in output):
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "".join(output)
            output.append(line)
        assert any(temp.iterdir())  # the throwaway database folder
        child.send_signal(stop)
        try:
            code = child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("the preview was still running 20 s after one signal:\n" + "".join(output))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    while (line := lines.get(timeout=5)) is not None:
        output.append(line)
    text = "".join(output)
    assert code in (0, 130), text
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert "preview stopped" in text
    assert not any(temp.iterdir()), text


HANGING_LOGIN = """
import runpy, socket, sys, threading
import discord.http
server = socket.socket()  # accepts the login request and never answers it
server.bind(("127.0.0.1", 0))
server.listen()
def accept():
    global held  # kept open, so the request hangs
    held = server.accept()
    print("login request", flush=True)
threading.Thread(target=accept, daemon=True).start()
discord.http.Route.BASE = f"http://127.0.0.1:{server.getsockname()[1]}/api/v10"
print("logging in", flush=True)
sys.argv = ["python -m bot"]
runpy.run_module("bot", run_name="__main__")
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_one_signal_stops_the_bot_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """``python -m bot`` waiting on Discord stops on one Ctrl+C or SIGTERM, exit code 0."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "not.a.real-token",
        "KASINO_DB": str(tmp_path / "kasino.db"),
        "LOG_LEVEL": "WARNING",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", HANGING_LOGIN],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_ignored_sigint,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "logging in\n"
        # the signal comes once the bot waits on Discord, however slow the machine is
        assert child.stdout.readline() == "login request\n"
        child.send_signal(stop)
        output, _ = child.communicate(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, output
    assert "Traceback" not in output and "bot stopped" in output, output
