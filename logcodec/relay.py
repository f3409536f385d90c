"""A recording relay: it listens, forwards each connection to a server, and keeps what each side
sent, byte for byte (`logcodec record`). It knows no format: what it keeps is what a reader of a
captured connection reads, `kafka.conversation` for Kafka (the client's bytes, then the broker's).

A capture is written in the layout of the TANK captures this project is tested on: in a folder,
`frames/connN.c2s.bin` (what the client sent) and `frames/connN.s2c.bin` (what the server sent),
N counting the connections in the order they were accepted, each file written as its bytes come.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Self

#: the two sides of a connection, as their files name them: what the client sent, what the server sent
SIDES = ("c2s", "s2c")
_CLIENT_FILE = re.compile(rf"^conn(\d+)\.{SIDES[0]}\.bin$")


def side_path(folder: Path, number: int, side: str) -> Path:
    """Where a capture folder holds one side (`SIDES`) of connection `number`."""
    return folder / "frames" / _side_file(number, side)


def _side_file(number: int, side: str) -> str:
    return f"conn{number}.{side}.bin"


def captured(folder: Path) -> list[tuple[int, Path, Path]]:
    """The connections of a capture folder, by number: (N, the client's file, the server's file,
    which may be missing where only the client's side was kept). They are read from `frames/`, or,
    where that holds none, from the folder itself (the files copied out of their `frames/`)."""
    for where in (folder / "frames", folder):
        numbers = sorted(int(m[1]) for p in (where.iterdir() if where.is_dir() else ())
                         if (m := _CLIENT_FILE.match(p.name)))
        if numbers:
            return [(n, where / _side_file(n, SIDES[0]), where / _side_file(n, SIDES[1])) for n in numbers]
    return []


@dataclass
class Connection:
    """One relayed connection: what the client sent and what the server sent, as far as it went
    (kept here when the relay writes no folder; in the folder's files when it does)."""

    number: int
    client: bytearray = field(default_factory=bytearray)
    server: bytearray = field(default_factory=bytearray)


class Relay:
    """Listens on `listen` (port 0: any free one, then `port`) and forwards each connection to
    `target`. Without `folder`, what each side sent is kept in `connections`; with one, it is
    written there as it comes (`frames/connN.c2s.bin`, `.s2c.bin`), so a long capture is not held
    in memory. `close` stops listening and waits for the connections to end."""

    def __init__(self, target: tuple[str, int], listen: tuple[str, int] = ("127.0.0.1", 0),
                 folder: Path | None = None):
        self.target = target
        self.folder = folder
        self.connections: list[Connection] = []
        self._lock = threading.Lock()
        self._pumps: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        family = socket.AF_INET6 if ":" in listen[0] else socket.AF_INET
        self._listener = socket.create_server(listen, family=family)
        self.host, self.port = self._listener.getsockname()[:2]
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:  # the server refuses: so does the relay, as the client would have seen
                client.close()
                continue
            with self._lock:
                kept = Connection(len(self.connections))
                self.connections.append(kept)
                self._sockets += (client, server)
            for source, sink, side, sent in ((client, server, SIDES[0], kept.client),
                                             (server, client, SIDES[1], kept.server)):
                if self.folder is None:
                    keep, done = sent.extend, _nothing
                else:
                    file = self._file(kept.number, side)
                    keep, done = file.write, file.close
                pump = threading.Thread(target=_pump, args=(source, sink, keep, done), daemon=True)
                pump.start()
                self._pumps.append(pump)

    def _file(self, number: int, side: str) -> BinaryIO:
        """A new file for one side of connection `number` (its pump closes it)."""
        path = side_path(self.folder, number, side)
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "wb")

    def close(self, timeout: float = 10.0) -> None:
        """Stop listening; wait up to `timeout` seconds in all for the connections to end, then cut
        those still open (what they sent so far is kept)."""
        deadline = time.monotonic() + timeout
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (a close alone may not)
        self._listener.close()
        self._accepting.join(timeout)
        for pump in self._pumps:
            pump.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)  # wakes its pump's `recv` (a close alone may not)
                s.close()
        for pump in self._pumps:  # each ends on its socket's end, and closes its file
            pump.join(timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pump(source: socket.socket, sink: socket.socket, keep: Callable[[bytes], object],
          done: Callable[[], object]) -> None:
    """Forward what `source` sends to `sink`, each piece also given to `keep`; then end `sink`'s
    side, and call `done` (a file's `close`)."""
    try:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                keep(data)
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)  # the other side sees the end this side made
    finally:
        done()


def _nothing() -> None:
    pass


def address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """`HOST:PORT` or `PORT` as (host, port); a ValueError says what is wrong."""
    host, sep, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT or PORT")
    return (host.strip("[]") if sep and host else default_host), int(port)
