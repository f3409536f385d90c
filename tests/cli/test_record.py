"""`logcodec record` and `logcodec.relay.Relay`: each connection forwarded to the server, and what
each side sent kept byte for byte, written as `frames/connN.c2s.bin` and `.s2c.bin`."""

from __future__ import annotations

import re
import socket
import socketserver
import subprocess
import sys
import threading

import pytest

from logcodec.relay import Relay, address


class _Shouter(socketserver.BaseRequestHandler):
    """Answers each piece it gets in capitals, and says goodbye when the client ends its side."""

    goodbye = b"bye"

    def handle(self):
        while data := self.request.recv(65536):
            self.request.sendall(data.upper())
        self.request.sendall(self.goodbye)


class _Quiet(_Shouter):
    """A shouter that says nothing when the client ends its side."""

    goodbye = b""


def _serving(handler):
    s = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    s.daemon_threads = True
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return s


@pytest.fixture
def server():
    with _serving(_Shouter) as s:
        yield s.server_address[:2]
        s.shutdown()


@pytest.fixture
def quiet_server():
    with _serving(_Quiet) as s:
        yield s.server_address[:2]
        s.shutdown()


def _talk(port: int, *pieces: bytes) -> bytes:
    """Send each piece (reading its answer), end the client's side, and read what is left."""
    with socket.create_connection(("127.0.0.1", port)) as c:
        heard = b""
        for piece in pieces:
            c.sendall(piece)
            heard += c.recv(65536)
        c.shutdown(socket.SHUT_WR)
        while data := c.recv(65536):
            heard += data
    return heard


def test_each_side_is_kept_in_the_order_connections_came(server):
    with Relay(server) as relay:
        assert _talk(relay.port, b"hello", b" world") == b"HELLO WORLDbye"
        assert _talk(relay.port, b"again") == b"AGAINbye"
    first, second = relay.connections
    assert (first.number, bytes(first.client), bytes(first.server)) == (0, b"hello world", b"HELLO WORLDbye")
    assert (second.number, bytes(second.client), bytes(second.server)) == (1, b"again", b"AGAINbye")


def test_with_a_folder_each_side_is_written_there_not_kept(server, tmp_path):
    with Relay(server, folder=tmp_path) as relay:
        assert _talk(relay.port, b"hello", b" world") == b"HELLO WORLDbye"
        assert _talk(relay.port, b"again") == b"AGAINbye"
    assert [(c.number, c.client, c.server) for c in relay.connections] == [(0, b"", b""), (1, b"", b"")]
    frames = tmp_path / "frames"
    assert (frames / "conn0.c2s.bin").read_bytes() == b"hello world"
    assert (frames / "conn0.s2c.bin").read_bytes() == b"HELLO WORLDbye"
    assert (frames / "conn1.c2s.bin").read_bytes() == b"again"
    assert sorted(p.name for p in frames.iterdir()) == ["conn0.c2s.bin", "conn0.s2c.bin", "conn1.c2s.bin",
                                                       "conn1.s2c.bin"]


def test_connections_still_open_when_it_closes_are_cut_and_kept_as_far_as_they_went(quiet_server, tmp_path):
    relay = Relay(quiet_server, folder=tmp_path)
    open_ones = [socket.create_connection(("127.0.0.1", relay.port)) for _ in range(4)]
    for n, c in enumerate(open_ones):
        c.sendall(b"half %d" % n)
        assert c.recv(65536) == b"HALF %d" % n
    relay.close(timeout=0.5)
    for n, c in enumerate(open_ones):
        c.settimeout(10)
        assert c.recv(10) == b""  # the relay ended it
        c.close()
        assert (tmp_path / "frames" / f"conn{n}.c2s.bin").read_bytes() == b"half %d" % n
        assert (tmp_path / "frames" / f"conn{n}.s2c.bin").read_bytes() == b"HALF %d" % n


def test_a_server_that_refuses_is_refused_to_the_client(tmp_path):
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with Relay(("127.0.0.1", port)) as relay, socket.create_connection(("127.0.0.1", relay.port)) as c:
        c.settimeout(10)
        assert c.recv(10) == b""
    assert relay.connections == []


@pytest.mark.parametrize("text,expected", [("9092", ("127.0.0.1", 9092)), ("broker:9092", ("broker", 9092)),
                                           ("[::1]:9092", ("::1", 9092))])
def test_addresses(text, expected):
    assert address(text) == expected


@pytest.mark.parametrize("text", ["broker", "broker:port", "broker:70000", ""])
def test_bad_addresses(text):
    with pytest.raises(ValueError, match="is not HOST:PORT or PORT"):
        address(text)


def _record(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "logcodec", "record", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_the_command_records_until_its_time_is_up(server, tmp_path):
    out = tmp_path / "capture"
    p = _record("--to", f"{server[0]}:{server[1]}", "--out", str(out), "--seconds", "5")
    first = p.stdout.readline()
    port = int(re.search(r"listening on 127\.0\.0\.1:(\d+)", first)[1])
    assert _talk(port, b"ping") == b"PINGbye"
    rest, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "1 connection recorded in" in rest and "--format kafka.conversation" in rest
    assert (out / "frames" / "conn0.c2s.bin").read_bytes() == b"ping"
    assert (out / "frames" / "conn0.s2c.bin").read_bytes() == b"PINGbye"


def test_the_command_refuses_a_folder_with_a_capture_and_a_bad_address(server, tmp_path):
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "conn0.c2s.bin").write_bytes(b"x")
    p = _record("--to", f"127.0.0.1:{server[1]}", "--out", str(tmp_path), "--seconds", "1")
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "is not empty: record into a new folder" in err
    p = _record("--to", "nowhere", "--out", str(tmp_path / "new"), "--seconds", "1")
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "'nowhere' is not HOST:PORT or PORT" in err
