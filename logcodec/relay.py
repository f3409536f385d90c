"""A recording relay: it listens, forwards each connection to a server, and keeps what each side
sent, byte for byte (`logcodec record`). It knows no format: what it keeps is what a reader of a
captured connection reads, `kafka.conversation` for Kafka (the client's bytes, then the broker's).

A capture is written in the layout of the TANK captures this project is tested on: in a folder,
`frames/connN.c2s.bin` (what the client sent) and `frames/connN.s2c.bin` (what the server sent),
N counting the connections in the order they were accepted. Each connection's files are written
when both its sides have ended, and those still open when the relay closes.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self


@dataclass
class Connection:
    """One relayed connection: what the client sent, what the server sent."""

    number: int
    client: bytearray = field(default_factory=bytearray)
    server: bytearray = field(default_factory=bytearray)
    ended: int = 0  # sides that have ended (2: both)


class Relay:
    """Listens on `listen` (port 0: any free one, then `port`) and forwards each connection to
    `target`, keeping both sides in `connections`; with `folder`, each connection is also written
    there (`frames/connN.c2s.bin`, `.s2c.bin`). `close` stops listening and waits for the
    connections to end."""

    def __init__(self, target: tuple[str, int], listen: tuple[str, int] = ("127.0.0.1", 0),
                 folder: Path | None = None):
        self.target = target
        self.folder = folder
        self.connections: list[Connection] = []
        self._lock = threading.Lock()
        self._pumps: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._closed = False  # once closed, what is written stays as `close` wrote it
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
            for source, sink, sent in ((client, server, kept.client), (server, client, kept.server)):
                pump = threading.Thread(target=self._pump, args=(source, sink, sent, kept), daemon=True)
                pump.start()
                self._pumps.append(pump)

    def _pump(self, source: socket.socket, sink: socket.socket, sent: bytearray, kept: Connection) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sent += data
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)  # the other side sees the end this side made
        with self._lock:
            kept.ended += 1
            if kept.ended == 2 and self.folder is not None and not self._closed:
                self._write(kept)

    def _write(self, kept: Connection) -> None:
        frames = self.folder / "frames"
        frames.mkdir(parents=True, exist_ok=True)
        (frames / f"conn{kept.number}.c2s.bin").write_bytes(bytes(kept.client))
        (frames / f"conn{kept.number}.s2c.bin").write_bytes(bytes(kept.server))

    def close(self, timeout: float = 10.0) -> None:
        """Stop listening; wait up to `timeout` seconds for each side of each connection to end,
        then close those still open, and write every connection not written yet."""
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (a close alone may not)
        self._listener.close()
        self._accepting.join(timeout)
        for pump in list(self._pumps):
            pump.join(timeout)
        with self._lock:
            self._closed = True
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.close()
            if self.folder is not None:
                for kept in self.connections:
                    if kept.ended < 2:
                        self._write(kept)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """`HOST:PORT` or `PORT` as (host, port); a ValueError says what is wrong."""
    host, sep, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT or PORT")
    return (host.strip("[]") if sep and host else default_host), int(port)
