"""A throwaway PostgreSQL server for the tests and the benchmark.

:func:`find_bin` looks for ``initdb`` and ``postgres`` in PATH and then under
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package). :class:`PostgresServer`
runs ``initdb`` into a fresh temporary folder and starts the server on a free loopback
port, its unix socket in that folder, without durability (``fsync=off``: the data is
thrown away) unless ``durable``. PostgreSQL refuses to run as root, so under root both run
as an unprivileged user (``postgres`` if the system has one, else ``nobody``) who is given
the folder.
:meth:`PostgresServer.stop` stops the server and removes the folder.

For the benchmark, ``python tests/pg_server.py [--durable]`` starts one, prints the URL of
an empty database on it, and stops it (removing everything) at Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER = "kasino"


async def fresh_database(url: str, prefix: str) -> str:
    """A new empty database (named ``prefix`` and a random tail) on the server of ``url``,
    as a benchmark run wants one; its URL."""
    import uuid

    import asyncpg

    name = prefix + uuid.uuid4().hex[:12]
    base, _, query = url.partition("?")
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await admin.close()
    return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")


class NoPostgres(RuntimeError):
    """The server cannot be run on this machine; the message says why."""


def find_bin(name: str) -> str | None:
    """The path of a PostgreSQL server program, newest version first, or ``None``."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version_key)
    return candidates[-1] if candidates else None


def _version_key(path: str) -> tuple[int, ...]:
    version = Path(path).parts[-3]
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _runner() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that drops root, and the user it drops to (none if not root)."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        setpriv = shutil.which("setpriv")
        if setpriv:
            return [
                setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
            ], user  # fmt: skip
        runuser = shutil.which("runuser")
        if runuser:
            return [runuser, "-u", name, "--"], user
    raise NoPostgres("running as root, with no unprivileged user or no setpriv/runuser")


class PostgresServer:
    """One running server; :attr:`url` reaches its superuser's ``postgres`` database."""

    def __init__(self, durable: bool = False) -> None:
        initdb, postgres = find_bin("initdb"), find_bin("postgres")
        if not initdb or not postgres:
            raise NoPostgres(
                "PostgreSQL's initdb and postgres are not installed (apt-get install postgresql)"
            )
        self._initdb, self._postgres = initdb, postgres
        self._prefix, self._user = _runner()
        self.root = Path(tempfile.mkdtemp(prefix="kasino-pg-"))
        self.port = _free_port()
        self._process: subprocess.Popen[bytes] | None = None
        # durable: every commit flushed to disk, as PostgreSQL's defaults (for measuring)
        self.durable = durable

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` database (for creating and dropping others)."""
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{name}?sslmode=disable"

    def start(self) -> PostgresServer:
        """initdb, start, and wait until the server takes connections."""
        data = self.root / "data"
        if self._user is not None:
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self._run([self._initdb, "-D", str(data), "-U", SUPERUSER, "-A", "trust",
                   "-E", "UTF8", "--no-sync", "--no-locale"])  # fmt: skip
        log = open(self.root / "server.log", "wb")  # noqa: SIM115 (the server keeps it)
        options = [
            "-D", str(data), "-p", str(self.port), "-k", str(self.root),
            "-c", "listen_addresses=127.0.0.1",
            "-c", "max_connections=300", "-c", "shared_buffers=32MB",
        ]  # fmt: skip
        if not self.durable:
            options += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                        "-c", "full_page_writes=off"]  # fmt: skip
        self._process = subprocess.Popen(
            [*self._prefix, self._postgres, *options], stdout=log, stderr=subprocess.STDOUT,
            cwd=self.root,
        )  # fmt: skip
        self._wait_ready()
        return self

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(
            [*self._prefix, *command], capture_output=True, cwd=self.root, check=False
        )
        if done.returncode:
            output = (done.stdout + done.stderr).decode(errors="replace").strip()
            raise NoPostgres(f"{Path(command[0]).name} failed: {output[-500:]}")

    def _wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert self._process is not None
            if self._process.poll() is not None:
                raise NoPostgres(f"the server stopped at once: {self.log_tail()}")
            # the server writes "ready" as the last line of postmaster.pid once it takes
            # connections (an open port alone can still answer "starting up")
            pid_file = self.root / "data" / "postmaster.pid"
            try:
                lines = pid_file.read_text().split("\n")
            except OSError:
                lines = []
            if any(line.strip() == "ready" for line in lines[7:]):
                return
            time.sleep(0.05)
        raise NoPostgres(f"the server did not start in {timeout:.0f} s: {self.log_tail()}")

    def log_tail(self) -> str:
        """The end of the server's log."""
        path = self.root / "server.log"
        return path.read_text(errors="replace")[-800:] if path.exists() else ""

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # "fast" shutdown: clients are disconnected
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def main() -> None:
    """Run a server until Ctrl-C or SIGTERM; print the URL of an empty database on it."""
    import argparse
    import asyncio

    import asyncpg

    parser = argparse.ArgumentParser(description="a throwaway PostgreSQL server on loopback")
    parser.add_argument("--durable", action="store_true", help="fsync every commit")
    args = parser.parse_args()
    server = PostgresServer(durable=args.durable).start()

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:

        async def create() -> None:
            conn = await asyncpg.connect(server.url)
            try:
                await conn.execute("CREATE DATABASE kasino TEMPLATE template0")
            finally:
                await conn.close()

        asyncio.run(create())
        print(server.database_url("kasino"), flush=True)
        while server._process is not None and server._process.poll() is None:
            time.sleep(0.5)
        print(f"the server stopped: {server.log_tail()}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
