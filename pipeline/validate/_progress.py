"""Progress lines of the validation job on stderr while Spark works: its stages, and how many of
their tasks are done (Spark's own console progress bar is off)."""

from __future__ import annotations

import threading
import time
from typing import TextIO


class Say:
    """Progress lines on a stream (stderr), or nothing."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.lock = threading.Lock()
        self.pending = False  # a \\r line is on screen

    def __bool__(self) -> bool:
        return self.stream is not None

    def __call__(self, line: str, transient: bool = False) -> None:
        if self.stream is None:
            return
        with self.lock:
            if transient and self.tty:
                self.stream.write(f"\r\x1b[Kvalidate: {line}")
                self.pending = True
            else:
                self.stream.write(("\r\x1b[K" if self.pending else "") + f"validate: {line}\n")
                self.pending = False
            self.stream.flush()


class StageProgress:
    """While a block runs Spark jobs: how many of their tasks are done, from Spark's status tracker
    (its console progress bar is off), every half second on a terminal, else at each tenth. The
    block's jobs are told apart by a job group, set for its duration."""

    def __init__(self, spark, say: Say, label: str, interval: float = 0.5) -> None:
        self.sc, self.say, self.label, self.interval = spark.sparkContext, say, label, interval
        self.group = f"logcodec-validate-{id(self)}"
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> "StageProgress":
        if self.say:
            self.started = time.time()
            self.sc.setJobGroup(self.group, f"logcodec validate: {self.label}")
            self.say(f"{self.label} ...")
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.thread is None:
            return
        self.stop.set()
        self.thread.join()
        self.sc.setLocalProperty("spark.jobGroup.id", None)
        if exc[0] is None:
            done, tasks = self._tasks()
            self.say(f"{self.label}: {done} tasks in {time.time() - self.started:.1f} s")

    def _tasks(self) -> tuple[int, int]:
        done = tasks = 0
        try:
            tracker = self.sc.statusTracker()
            for job in tracker.getJobIdsForGroup(self.group):
                info = tracker.getJobInfo(job)
                for stage in info.stageIds if info is not None else ():
                    stage_info = tracker.getStageInfo(stage)
                    if stage_info is not None:
                        done += stage_info.numCompletedTasks
                        tasks += stage_info.numTasks
        except Exception:  # the tracker is advisory: it never fails the job
            pass
        return done, tasks

    def _run(self) -> None:
        last = -1
        while not self.stop.wait(self.interval):
            done, tasks = self._tasks()
            if not tasks:
                continue
            percent = 100 * done // tasks
            if self.say.tty or percent // 10 != last // 10:
                self.say(f"{self.label}: {done}/{tasks} tasks ({percent}%)", transient=True)
                last = percent
