"""What went wrong in a Spark job, in one line.

A failure inside Spark's Python workers reaches the driver wrapped in Spark's own exception: an
`AnalysisException` when the data source could not be planned, a `PythonException` or a
`Py4JJavaError` when a task failed, each with the worker's whole Python traceback and often a
Java stack. `explain(exc)` finds the Python exception that started it (the last line of the last
traceback) and says what to do about the two a cluster hits most: a module that the executors'
Python lacks, and an input path that an executor cannot read (`UnreadableInput`, raised by the
readers where they open files in tasks).
"""

from __future__ import annotations

import re
import socket

#: Where the README says what executors need.
CLUSTER_DOC = "README: Run on a cluster"

_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w]*\.)*(?P<name>[A-Za-z_]\w*(?:Error|Exception|Input|Exit)): ?(?P<msg>.*)$")
_SQLSTATE = re.compile(r"\s*SQLSTATE: \w+\s*$")


class UnreadableInput(OSError):
    """An input file that a task cannot open: the path was found on the driver's host (where reads
    are planned) but is not there, or not readable, where the task runs."""

    def __init__(self, path: str, exc: OSError) -> None:
        why = exc.strerror or type(exc).__name__
        super().__init__(exc.errno, f"{path}: {why} on executor host {socket.gethostname()} (input paths must be "
                                    f"readable from every executor: shared storage, or object storage for a format "
                                    f"that reads it; {CLUSTER_DOC})")
        self.path = path

    def __str__(self) -> str:
        return self.strerror

    def __reduce__(self):
        return _unreadable, (self.errno, self.strerror, self.path)


def _unreadable(errno, message, path):
    exc = UnreadableInput.__new__(UnreadableInput)
    OSError.__init__(exc, errno, message)
    exc.path = path
    return exc


def open_input(path: str):
    """`open(path, "rb")` in a task; an OSError is an `UnreadableInput` that says where and why."""
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UnreadableInput(path, exc) from None


def python_cause(text: str) -> str | None:
    """The exception line ("Name: message") that ends the last Python traceback in `text`; None
    when there is none."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.rstrip().endswith("Traceback (most recent call last):")]
    if not starts:
        return None
    for line in lines[starts[-1] + 1:]:
        if not line.strip() or line[:1].isspace() or line.lstrip().startswith("^"):
            continue
        m = _EXCEPTION_LINE.match(line.strip())
        if m:
            return f"{m.group('name')}: {_SQLSTATE.sub('', m.group('msg'))}".rstrip(": ")
    return None


def explain(exc: BaseException) -> str:
    """One line for a failed Spark job: the Python exception behind it, with what to do about a
    missing module; else the first line of Spark's message."""
    text = str(exc)
    cause = python_cause(text)
    if cause is None:
        first = next((line for line in text.splitlines() if line.strip()), type(exc).__name__)
        return _SQLSTATE.sub("", first)
    m = re.match(r"ModuleNotFoundError: No module named '([\w.]+)'", cause)
    if m:
        module = m.group(1).split(".")[0]
        if module == "logcodec":
            return (f"{cause}: the Python of Spark's workers lacks logcodec and it was not shipped "
                    f"(logcodec.pipeline.register(spark) ships it to a cluster unless spark.logcodec.ship is false; "
                    f"or give spark-submit --py-files the zip that `python -m logcodec.pipeline.ship` writes; "
                    f"{CLUSTER_DOC})")
        return (f"{cause}: the Python of Spark's workers (PYSPARK_PYTHON) lacks it; install logcodec's "
                f"dependencies there ({CLUSTER_DOC})")
    return cause
