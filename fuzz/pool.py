"""Worker processes with a time limit per input and an address-space limit, for one build.

Each worker is ``python -m fuzz.worker`` (fuzz/worker.py) on pipes; results stream back one per
input, so the parent always knows which input is running. An input that outlives its time limit
gets its worker killed (SIGKILL) and is recorded as a time-out; a worker that dies is recorded as
killed, with its exit signal; either way a new worker takes the rest of the batch and the run goes
on. Peak memory is the workers' peak resident size (VmHWM): reported by a live worker after each
input, and read by the parent from a worker about to be killed or that ran a single input
(``fresh=True``, bombs).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from fuzz import worker as W

ROOT = Path(__file__).resolve().parent.parent
_LEN = struct.Struct(">I")
START_TIMEOUT = 120.0  # importing the codecs (and loading compiled builds) on a busy machine


@dataclass
class Job:
    id: int
    format: str
    data: bytes
    params: dict = field(default_factory=dict)  # the root's params the input is read with


class Worker:
    def __init__(self, build: str, memory_mb: int, target: str | None = None) -> None:
        env = dict(os.environ)
        env.pop("LOGCODEC_PURE", None)
        if build == "pure":
            env["LOGCODEC_PURE"] = "1"
        if target:  # another campaign's classifier (module:function), e.g. the gallery's comparison
            env["FUZZ_WORKER_TARGET"] = target
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
        self.proc = subprocess.Popen([sys.executable, "-m", "fuzz.worker", "--memory-mb", str(memory_mb)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env)
        self.fd = self.proc.stdout.fileno()
        self.buffer = bytearray()
        self.pending: deque[Job] = deque()
        self.deadline = 0.0
        self.hello = self._first_message()

    def _first_message(self) -> dict:
        end = time.monotonic() + START_TIMEOUT
        while True:
            message = self.take()
            if message is not None:
                return message
            if time.monotonic() > end or not self.read(end - time.monotonic()):
                raise RuntimeError(f"fuzz worker did not start (exit {self.proc.poll()})")

    def send(self, jobs: list[Job], timeout: float) -> None:
        self.pending.extend(jobs)
        blob = pickle.dumps([(j.id, j.format, j.data, j.params) for j in jobs], protocol=pickle.HIGHEST_PROTOCOL)
        self.proc.stdin.write(_LEN.pack(len(blob)) + blob)
        self.proc.stdin.flush()
        self.deadline = time.monotonic() + timeout

    def read(self, wait: float) -> bool:
        """Read what is there within `wait` seconds; False at end of file (the worker died)."""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, wait))
        if not ready:
            return True
        chunk = os.read(self.fd, 1 << 20)
        self.buffer += chunk
        return bool(chunk)

    def take(self) -> dict | None:
        """The next complete message, if one has arrived."""
        if len(self.buffer) < _LEN.size:
            return None
        size = _LEN.unpack_from(self.buffer)[0]
        if len(self.buffer) < _LEN.size + size:
            return None
        message = pickle.loads(bytes(self.buffer[_LEN.size:_LEN.size + size]))
        del self.buffer[:_LEN.size + size]
        return message

    def end(self, kill: bool) -> tuple[int, int]:
        """Stop the worker; returns (wait status, its peak RSS in KB). The peak is read before it
        ends; for a worker that died by itself only wait4's ru_maxrss is left (an upper bound)."""
        peak = W.peak_rss_kb(self.proc.pid)
        if kill:
            # os.kill, not Popen.kill: that one polls first and would reap the child, and
            # wait4 below would lose its exit status.
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            self.proc.stdin.close()
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
        except ChildProcessError:
            return 0, peak
        self.proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        return status, peak or usage.ru_maxrss


def _death(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return f"killed by {signal.Signals(sig).name}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


class Pool:
    """`workers` processes of one build; `run` feeds them jobs and calls `on_result` for each."""

    def __init__(self, build: str, workers: int = 2, timeout: float = 10.0, memory_mb: int = 1024,
                 batch: int = 16, fresh: bool = False, target: str | None = None) -> None:
        self.build, self.size, self.timeout, self.memory_mb = build, workers, timeout, memory_mb
        self.target = target  # what the workers run on each job (None: fuzz.worker.classify)
        self.batch, self.fresh = (1 if fresh else batch), fresh
        self.workers: list[Worker] = []
        self.builds: dict[str, str] = {}
        self.started = 0

    def _spawn(self) -> Worker:
        w = Worker(self.build, self.memory_mb, self.target)
        self.builds = w.hello["builds"]
        self.started += 1
        return w

    def run(self, jobs: Iterable[Job], on_result: Callable[[Job, dict], None],
            stop: Callable[[], bool] = lambda: False) -> None:
        source: Iterator[Job] = iter(jobs)
        retry: deque[Job] = deque()
        exhausted = False

        def next_batch() -> list[Job]:
            nonlocal exhausted
            out = []
            while len(out) < self.batch and retry:
                out.append(retry.popleft())
            while len(out) < self.batch and not exhausted and not stop():
                job = next(source, None)
                if job is None:
                    exhausted = True
                else:
                    out.append(job)
            return out

        try:
            while True:
                self._fill(next_batch)
                busy = [w for w in self.workers if w.pending]
                if not busy:
                    return
                self._poll(busy, on_result, retry)
        finally:
            for w in self.workers:
                w.end(kill=True)
            self.workers = []

    def _fill(self, next_batch) -> None:
        while len(self.workers) < self.size:
            self.workers.append(self._spawn())
        for w in self.workers:
            if not w.pending:
                jobs = next_batch()
                if jobs:
                    w.send(jobs, self.timeout)

    def _poll(self, busy: list[Worker], on_result, retry: deque) -> None:
        wait = min(w.deadline for w in busy) - time.monotonic()
        ready, _, _ = select.select([w.fd for w in busy], [], [], max(0.0, min(wait, 1.0)))
        for w in busy:
            alive = w.read(0) if w.fd in ready else True
            retire = False
            while (message := w.take()) is not None:
                job = w.pending.popleft()
                w.deadline = time.monotonic() + self.timeout
                if message["cls"] == W.MEMORY:
                    retire = True  # it exits after a MemoryError: its other inputs go to a fresh one
                if self.fresh:  # one input per worker: its whole-life peak, read by wait4
                    message["rss_kb"] = max(message.get("rss_kb") or 0, w.end(kill=False)[1])
                    self.workers.remove(w)
                    on_result(job, message)
                    break
                on_result(job, message)
                if retire:
                    w.end(kill=True)
                    retry.extendleft(reversed(w.pending))
                    self.workers.remove(w)
                    break
            else:
                if not alive or (w.pending and time.monotonic() > w.deadline):
                    self._replace(w, on_result, retry, timed_out=alive and bool(w.pending))

    def _replace(self, w: Worker, on_result, retry: deque, timed_out: bool) -> None:
        status, rss_kb = w.end(kill=True)
        if w.pending:
            job = w.pending.popleft()
            if timed_out:
                result = {"cls": W.TIMEOUT, "kind": "", "detail": f"no answer within {self.timeout:g} s"}
            else:
                result = {"cls": W.KILLED, "kind": _death(status), "detail": f"worker {_death(status)}"}
            result.update(id=job.id, ms=self.timeout * 1000 if timed_out else None, rss_kb=rss_kb)
            on_result(job, result)
            retry.extendleft(reversed(w.pending))
        self.workers.remove(w)
