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


def describe_status(status: int | None) -> str:
    """`exited with status 1`, `was killed by SIGSEGV`, or that it is still running."""
    if status is None:
        return "is still running"
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


class Testee:
    STDERR_TAIL = 4096
    EXIT_GRACE = 2.0  # seconds to wait for an exit after the output closed, so the status is known

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
        self.exit_status: int | None = None  # known once the process exited and was waited for

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

    def gone(self, what: str) -> TesteeGone:
        """The error for a testee that closed a pipe, with its exit status once it exits.

        A pipe closes a moment before the process can be reaped, so the status is
        waited for (briefly); meanwhile its standard error is read to the end, since
        its last words are what explains a start-up failure.
        """
        deadline = time.monotonic() + self.EXIT_GRACE
        self._drain_stderr(deadline)
        try:
            self.exit_status = self.proc.wait(timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            return TesteeGone(f"the testee {what} but is still running")
        return TesteeGone(f"the testee {describe_status(self.exit_status)}")

    def _drain_stderr(self, deadline: float) -> None:
        """Read standard error until it closes or the deadline passes."""
        if not any(key.data == "err" for key in self.sel.get_map().values()):
            return
        with selectors.DefaultSelector() as only_stderr:  # stdout may sit at end of file: do not spin on it
            only_stderr.register(self.proc.stderr, selectors.EVENT_READ)
            while (remaining := deadline - time.monotonic()) > 0:
                if only_stderr.select(remaining) and not self._take_stderr():
                    self.sel.unregister(self.proc.stderr)
                    return

    def _take_stderr(self) -> bool:
        """Move what standard error has into the bounded tail; False at its end."""
        try:
            chunk = os.read(self.proc.stderr.fileno(), 1 << 20)
        except BlockingIOError:
            return True
        self.stderr_tail += chunk
        del self.stderr_tail[:-self.STDERR_TAIL]
        return bool(chunk)

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
            raise self.gone("closed its input") from None
        del self.outgoing[:written]

    def _pump(self, timeout: float) -> None:
        """Wait up to `timeout` for output, moving bytes both ways."""
        self._flush()
        if self.closed:
            raise self.gone("closed its output")
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
            if key.data == "err":
                if not self._take_stderr():
                    self.sel.unregister(key.fileobj)
                continue
            try:
                chunk = os.read(key.fileobj.fileno(), 1 << 20)
            except BlockingIOError:
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
                raise self.gone("closed its output")
            self._pump(min(remaining, 0.5))
        return self.lines.popleft()
