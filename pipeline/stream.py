"""Tailing logs: `spark.readStream.format(...)` of a `Tailing` format (`formats.Tailing`: Kafka's and
TANK's) through PySpark's Python streaming data source API (`DataSourceStreamReader`).

A stream's offset is the log's own position, per partition directory (keyed by its path under the
load path): the segment (Kafka: its base offset, the file's name; TANK: its base sequence number,
which stays when TANK renames a segment as it rolls it) and the byte position up to which its
entries were read, with the format's state there, if it has one (`STATE`; TANK's is the sequence
number of the next message, which a TANK bundle does not store):

    {"orders-0": {"segment": "00000000000000000368", "position": 18342}}
    {"clicks/0": {"segment": "41", "position": 5120, "seq": 97}}

A micro-batch reads, per partition, from its start offset to its end offset: the rest of the
segment it starts in, every segment after it whole, and the active (last) segment up to the end of
its complete entries (`Tailing.complete_end` of the format: an entry cut short at the end of the file, still
being written, is not read until it is complete, and zeros after the last entry, a preallocated
segment's, are not read at all). A segment that is no longer the last one is read to its end, as a
batch read reads it (what is cut short or broken there is reported then). The rows are the batch
reader's (`read` of the format, same options and schema), so each entry becomes rows exactly once
per offset range, and Spark's checkpoint of the offsets makes a restarted query go on where it was.

Options: those of the batch read (`rows`, `mode`, `splitBytes`, `glob`, `topic`, `partition`) and
`startingOffsets`: `earliest` (default: everything already in the logs, then what comes) or `latest`
(only what is written after the query starts). A partition directory that appears later is read
from its start.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from logcodec.pipeline.formats import Tailing
from logcodec.pipeline.partitions import Ranges
from logcodec.pipeline.plan import pack
from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

STARTING = ("earliest", "latest")
#: Where an offset keeps the format's state at its position (`formats.Tailing`), when not None.
STATE = "seq"


def stream_options(options: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """(the options of the batch read, `startingOffsets`); a bad value is a ValueError naming it."""
    rest = {k: v for k, v in options.items() if k.lower() != "startingoffsets"}
    starting = next((v for k, v in options.items() if k.lower() == "startingoffsets"), "earliest").strip().lower()
    if starting not in STARTING:
        raise ValueError(f"option startingOffsets={starting!r}: expected earliest or latest")
    return rest, starting


def _order(segment: str) -> tuple:
    """Segments named by numbers follow in their order, then others by name."""
    return (0, int(segment), "") if segment.isdigit() else (1, 0, segment)


def _relisting(plan, attempts: int = 5):
    """`plan()`, listed again when a file it listed was renamed or deleted meanwhile (TANK rolls a
    segment by renaming it; Kafka deletes old segments)."""
    for attempt in range(attempts):
        try:
            return plan()
        except FileNotFoundError:
            if attempt + 1 == attempts:
                raise


class LogStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Tails the logs under a path: see the module's docstring. `fmt` is a `Tailing` format (a
    `LogFormat` too: its `read` reads the micro-batches)."""

    def __init__(self, fmt: Tailing, options: Any, starting: str = "earliest") -> None:
        self.fmt = fmt
        self.options = options
        self.starting = starting
        self.target: dict | None = None   # Trigger.AvailableNow: where to stop

    def initialOffset(self) -> dict:
        return self._latest({}) if self.starting == "latest" else {}

    def latestOffset(self, start: dict | None = None, limit=None) -> dict:
        if self.target is not None:
            return self.target
        return self._latest(start or {})

    def prepareForTriggerAvailableNow(self) -> None:
        self.target = self._latest({})

    def _latest(self, start: dict) -> dict:
        return _relisting(lambda: self._latest_once(start))

    def _latest_once(self, start: dict) -> dict:
        """The offset up to which the logs can be read now, from `start` (where the last micro-batch ended)."""
        offsets = dict(start)
        for key, (_, _, segments) in self.fmt.stream_partitions(self.options).items():
            if not segments:
                continue
            last, path, state = segments[-1]
            at = start.get(key)
            if at is not None and _order(at["segment"]) > _order(last):
                continue  # its segments are gone (deleted, truncated): keep the offset
            if at is not None and at["segment"] == last:
                position, state = at["position"], at.get(STATE)
            else:
                position = 0
            end, state = self.fmt.complete_end(path, position, state)
            offsets[key] = {"segment": last, "position": end, **({STATE: state} if state is not None else {})}
        return dict(sorted(offsets.items()))

    def partitions(self, start: dict, end: dict) -> list[Ranges]:
        return _relisting(lambda: self._partitions_once(start, end))

    def _partitions_once(self, start: dict, end: dict) -> list[Ranges]:
        ranges = []
        listing = self.fmt.stream_partitions(self.options)
        for key, stop in sorted(end.items()):
            begin = start.get(key)
            if key not in listing or begin == stop:
                continue
            topic, partition, segments = listing[key]
            for segment, path, state in segments:
                if begin is not None and _order(segment) < _order(begin["segment"]):
                    continue
                if _order(segment) > _order(stop["segment"]):
                    break
                if begin is not None and segment == begin["segment"]:
                    first, state = begin["position"], begin.get(STATE)
                else:
                    first = 0  # with the state the listing gives at the segment's start
                last = stop["position"] if segment == stop["segment"] else None
                ranges += self.fmt.stream_ranges(segment, path, first, last, topic, partition, state, self.options)
        return [Ranges(group) for group in pack(ranges, self.options.split_bytes)]

    def read(self, partition: InputPartition):
        # A segment renamed since it was planned (TANK renames the active segment as it rolls it;
        # Kafka renames a segment `.deleted` a while before deleting it) is read where it is now.
        ranges = [r if Path(r.path).exists() else self.fmt.relocate(r) for r in partition.value or []]
        return self.fmt.read(ranges, self.options)

    def commit(self, end: dict) -> None:
        pass  # the logs are the broker's: nothing to release
