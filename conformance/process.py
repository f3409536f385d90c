"""A testee process: the harness's end of the pipes, never blocking on a misbehaving testee.

One thread, one `selectors` loop: requests are written without blocking (a
testee that stops reading cannot stall the harness), answers are split into
lines as they arrive, standard error is drained into a bounded tail, and every
wait has a deadline. The process runs in its own session, so killing it takes
its children too (a Node or shell wrapper).
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections import deque


class TesteeGone(Exception):
    """The process exited, or closed its output."""


class Testee:
    STDERR_TAIL = 4096

    def __init__(self, command: str | list[str], cwd: str | None = None) -> None:
        self.command = command
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None

    # ---------------------------------------------------------------- lifecycle

    def start(self) -> None:
        args = shlex.split(self.command) if isinstance(self.command, str) else list(self.command)
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.cwd, start_new_session=True, bufsize=0,
        )
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ, "out")
        self.sel.register(self.proc.stderr, selectors.EVENT_READ, "err")
        self.outgoing = bytearray()
        self.incoming = bytearray()
        self.lines: deque[bytes] = deque()
        self.stderr_tail = bytearray()
        self.closed = False

    def kill(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.sel.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self.proc = None

    def stop(self, grace: float = 2.0) -> None:
        """Ask politely (`stop`), then kill."""
        if self.proc is None:
            return
        try:
            self.send({"type": "stop"})
            deadline = time.monotonic() + grace
            while self.outgoing and time.monotonic() < deadline:
                self._pump(0.05)
            self.proc.stdin.close()
            self.proc.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except (OSError, subprocess.TimeoutExpired, TesteeGone, ValueError):
            pass
        self.kill()

    @property
    def stderr(self) -> str:
        return self.stderr_tail.decode("utf-8", "replace").strip()

    # ---------------------------------------------------------------- traffic

    def send(self, message: dict) -> None:
        self.outgoing += json.dumps(message, separators=(",", ":")).encode() + b"\n"
        self._flush()

    def _flush(self) -> None:
        if not self.outgoing:
            return
        try:
            written = os.write(self.proc.stdin.fileno(), self.outgoing)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, OSError):
            raise TesteeGone("the testee closed its input") from None
        del self.outgoing[:written]

    def _pump(self, timeout: float) -> None:
        """Wait up to `timeout` for output, moving bytes both ways."""
        self._flush()
        if self.closed:
            raise TesteeGone("the testee closed its output")
        # Wait for the input pipe to drain too, while requests are queued behind a full pipe.
        writing = bool(self.outgoing)
        if writing:
            self.sel.register(self.proc.stdin, selectors.EVENT_WRITE, "in")
        try:
            events = self.sel.select(timeout)
        finally:
            if writing:
                self.sel.unregister(self.proc.stdin)
        for key, _ in events:
            if key.data == "in":
                self._flush()
                continue
            try:
                chunk = os.read(key.fileobj.fileno(), 1 << 20)
            except BlockingIOError:
                continue
            if key.data == "err":
                if chunk:
                    self.stderr_tail += chunk
                    del self.stderr_tail[:-self.STDERR_TAIL]
                else:
                    self.sel.unregister(key.fileobj)
                continue
            if not chunk:
                self.closed = True
                continue
            if b"\n" not in chunk:  # a long answer arriving in pieces: only append (no quadratic re-splitting)
                self.incoming += chunk
                continue
            head, _, tail = chunk.rpartition(b"\n")
            self.incoming += head
            self.lines.extend(self.incoming.split(b"\n"))
            self.incoming = bytearray(tail)

    def read_line(self, deadline: float) -> bytes | None:
        """The next line of output, or None when the deadline passes first."""
        while not self.lines:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if self.closed:
                raise TesteeGone(f"the testee exited (status {self.proc.poll()})")
            self._pump(min(remaining, 0.5))
        return self.lines.popleft()
