"""A throwaway PostgreSQL cluster for the tests: started in a temp dir on 127.0.0.1, then removed.

Standard library only, so `.ci/run` can use it before the virtualenv exists:

    python3 tests/postgres.py start   # prints `URL DIR`; the URL is the admin connection
    python3 tests/postgres.py stop DIR

PostgreSQL refuses to run as root: as root, initdb and pg_ctl run as the `postgres` user
(`runuser -u postgres --`), which the Debian package creates.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

URL_VARIABLE = "TABLEHAND_TEST_POSTGRES"  # an admin URL the tests may create databases with
_databases = itertools.count(1)


class NoPostgres(RuntimeError):
    """PostgreSQL could not be found or started here; the message says why."""


@dataclass(frozen=True)
class Cluster:
    """A running throwaway cluster."""

    url: str
    directory: Path


def bin_dir() -> Path:
    """Return the directory of initdb and pg_ctl: PG_BINDIR, Debian's newest, or the PATH."""
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if debian:
        return Path(debian[-1]).parent
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise NoPostgres("no PostgreSQL server found (initdb is not installed)")


def _as_server_user(directory: Path) -> list[str]:
    """Return the command prefix that runs PostgreSQL's tools as a user it accepts."""
    if os.geteuid() != 0:
        return []
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise NoPostgres("running as root, and there is no `postgres` user to run it as") from None
    os.chown(directory, user.pw_uid, user.pw_gid)
    return ["runuser", "-u", "postgres", "--"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start() -> Cluster:
    """Initialise and start a cluster listening on 127.0.0.1 only; raise NoPostgres if it can't."""
    tools = bin_dir()
    directory = Path(tempfile.mkdtemp(prefix="tablehand-pg-"))
    try:
        prefix = _as_server_user(directory)
        data, port = directory / "data", _free_port()
        _run([*prefix, str(tools / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
              "--no-sync", "-E", "UTF8", "--locale", "C"])  # fmt: skip
        # Throwaway data: durability off, for speed. Sockets only on loopback and in the dir.
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {directory} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        )
        _run([*prefix, str(tools / "pg_ctl"), "-D", str(data), "-o", options,
              "-l", str(directory / "server.log"), "-w", "-t", "60", "start"])  # fmt: skip
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return Cluster(f"postgresql://postgres@127.0.0.1:{port}/postgres", directory)


def stop(directory: Path) -> None:
    """Stop the cluster in `directory` at once and remove it."""
    directory = Path(directory)
    if (directory / "data").exists():
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*prefix, str(bin_dir() / "pg_ctl"), "-D", str(directory / "data"), "-m",
             "immediate", "-w", "stop"],
            capture_output=True, check=False,
        )  # fmt: skip
    shutil.rmtree(directory, ignore_errors=True)


@asynccontextmanager
async def fresh_database(admin_url: str) -> AsyncIterator[str]:
    """Create an empty database on the server for the block; drop it after (needs asyncpg)."""
    import asyncpg

    name = f"tablehand_{os.getpid()}_{next(_databases)}"
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield f"{admin_url.rpartition('/')[0]}/{name}"
    finally:
        admin = await asyncpg.connect(admin_url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise NoPostgres(f"{Path(command[-1]).name}: {error}") from None
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise NoPostgres(f"{' '.join(command[:6])} … failed: {last[0]}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["start"]:
        cluster = start()
        print(cluster.url, cluster.directory)
    elif sys.argv[1:2] == ["stop"] and len(sys.argv) == 3:
        stop(Path(sys.argv[2]))
    else:
        sys.exit("usage: postgres.py start | stop DIR")
