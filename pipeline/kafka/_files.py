"""Where Kafka logs lie and how they are told apart: a segment `<topic>-<partition>/<base
offset>.log` (or any file of record sets), its topic and partition from its directory's name,
and what the validation job needs to pick and check a path (`claim`, `check_path`,
`listed_files`)."""

from __future__ import annotations

import re
from pathlib import Path

from logcodec.pipeline.formats import Claim
from logcodec.pipeline.kafka import resync
from logcodec.pipeline.plan import ReadOptions, files_under, partition_number

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError

_rs = codec("kafka.record_set")
_TOPIC_PARTITION = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)$")


def topic_partition(directory: Path) -> tuple[str | None, int | None]:
    """Topic and partition from a Kafka log directory's name, `<topic>-<partition>`; else (None, None)."""
    m = _TOPIC_PARTITION.match(directory.name)
    partition = partition_number(m.group("partition")) if m else None
    return (m.group("topic"), partition) if partition is not None else (None, None)


def labels(directory: Path, options: ReadOptions) -> tuple[str | None, int | None]:
    """The topic and partition on the rows of the logs in `directory`: the `topic` and `partition`
    options where given, else what the directory's name says (`topic_partition`)."""
    topic, partition = topic_partition(directory)
    return (options.topic if options.topic is not None else topic,
            options.partition if options.partition is not None else partition)


def claim(file: Path) -> Claim | None:
    """A `.log` file whose first bytes frame a Kafka entry (by `kafka.record_set`'s entry header:
    offset, size, and a magic byte the entry decoder accepts where it reads it) is Kafka's by
    CONTENT; any other `.log` is READABLE (the reader reads it, and says what is wrong with it)."""
    if file.suffix != ".log":
        return None
    with open(file, "rb") as f:
        head = f.read(max(_rs.ENTRY_HEADER, resync.MAGIC_AT + 1))
    if len(head) > resync.MAGIC_AT and head[resync.MAGIC_AT] in resync.MAGICS:
        try:
            _rs.entry_size(head)
            return Claim.CONTENT
        except DecodeError:
            pass
    return Claim.READABLE


def check_path(path: Path) -> None:
    """A file is read whatever its name; a directory must hold `*.log` files somewhere below it."""
    if path.is_dir() and not any(path.rglob("*.log")):
        raise ValueError(f"no Kafka logs (*.log) under {path}")


def listed_files(options: ReadOptions) -> dict[str, int]:
    """{file: size} of every file the read covers (those `glob` matches under a directory)."""
    return {str(f): f.stat().st_size for f in files_under(Path(options.path), options.glob)}
