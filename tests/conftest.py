"""A PostgreSQL server for the whole test run, and a fresh database on it per test.

The server is started by the first test that needs it (initdb into a temporary folder,
loopback only) and stopped and removed when the run ends. Where PostgreSQL is not
installed its tests are skipped, saying so, except under CI (``CI`` set), where that fails:
``.ci/run`` installs it. ``KASINO_TEST_BACKENDS=sqlite`` runs the SQLite tests alone.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import asyncpg
import pytest

from tests.dbrows import run_sync
from tests.pg_server import NoPostgres, PostgresServer

BACKENDS = tuple(
    name.strip()
    for name in os.environ.get("KASINO_TEST_BACKENDS", "sqlite,postgresql").split(",")
    if name.strip()
)
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The run's PostgreSQL server."""
    try:
        server = PostgresServer().start()
    except NoPostgres as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL server for these tests: {error}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(pg_server: PostgresServer) -> Iterator[str]:
    """A new, empty database for one test, dropped afterwards."""
    name = f"kasino_test_{os.getpid()}_{next(_numbers)}"
    _admin(pg_server.url, f"CREATE DATABASE {name} TEMPLATE template0")
    try:
        yield pg_server.database_url(name)
    finally:
        _admin(pg_server.url, f"DROP DATABASE {name} WITH (FORCE)")


def _admin(url: str, sql: str) -> None:
    async def job() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    run_sync(job)


def backend_params() -> list[object]:
    """The backends to run a test on, as pytest params (ids ``sqlite``, ``postgresql``)."""
    return [pytest.param(name, id=name) for name in BACKENDS]


@pytest.fixture(params=backend_params())
def backend(request: pytest.FixtureRequest) -> str:
    """``"sqlite"`` or ``"postgresql"``: a test using this runs on each."""
    return str(request.param)
