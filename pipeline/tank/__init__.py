"""TANK partition directories as rows: one per message, or one per bundle (or one validation
result per bundle and per bad index entry, for the validation job); the data source
`logcodec.tank`.

A TANK base directory holds `<topic>/<partition>/` folders of segment files
(`logcodec.tank.containers`): bundles laid end to end, each after a varint length. A bundle that
is not sparse does not store its sequence numbers: they follow from the segment's base (in its
file name) and from how many messages came before. So a segment can only be cut where the
sequence number is known without reading what precedes it: at the entries of the segment's
`.index` (sequence number and file offset of a bundle, about every 4 KB), or, without an index,
where a walk of the bundle headers says (`bundle_span`: lengths and message counts, nothing
decompressed). Each range checks the log against the index entries it meets.

The modules, one concern each:

- `_schemas`: the tables a read returns and its options;
- `_files`: where partition directories lie, their topics and partitions, which files are TANK's;
- `_framing`: walking a segment by lengths and bundle headers;
- `_indexes`: a segment's index, read for planning and checked against the log;
- `_planning`: the plan of a read (`SegmentRange`);
- `_bundles`: reading a range's bundles, the log checked against the index;
- `_rows`: the message and bundle rows, as Arrow batches (`read`);
- `_validation`: the validation job's rows;
- `_tailing`: tailing partition directories (`spark.readStream`).

`TankFormat` says which of them implement the pipeline's protocol (`logcodec.pipeline.formats`).
"""

from __future__ import annotations

from logcodec.pipeline.formats import Pushdown, Tailing
from logcodec.pipeline.plan import ReadOptions
from logcodec.pipeline.tank._bundles import BundleRead, bundles
from logcodec.pipeline.tank._files import (
    check_path,
    claim,
    listed_files,
    partition_directories,
)
from logcodec.pipeline.tank._framing import bundle_span, header_points
from logcodec.pipeline.tank._indexes import index_findings, index_points
from logcodec.pipeline.tank._planning import SegmentRange, plan, push
from logcodec.pipeline.tank._rows import bundle_rows, read, record_rows
from logcodec.pipeline.tank._schemas import (
    BUNDLE_SCHEMA,
    RECORD_SCHEMA,
    ROW_KINDS,
    bundle_row,
    parse_options,
    record_row,
    record_run,
    schema,
)
from logcodec.pipeline.tank._tailing import (
    complete_end,
    relocate,
    stream_partitions,
    stream_ranges,
)
from logcodec.pipeline.tank._validation import validation_rows


class TankFormat(Pushdown[ReadOptions, SegmentRange], Tailing[ReadOptions, SegmentRange]):
    """`spark.read.format("logcodec.tank").load(PATH)`: TANK partition directories
    (`<base>/<topic>/<partition>/`, or any directory above or at them);
    `spark.readStream.format("logcodec.tank")` tails them (`stream`)."""

    name = "tank"
    title = "TANK logs"
    files = "TANK logs (*.log, *.ilog)"
    not_a_log = "not a TANK log"
    row_kinds = ROW_KINDS

    parse_options = staticmethod(parse_options)
    schema = staticmethod(schema)
    plan = staticmethod(plan)
    read = staticmethod(read)
    claim = staticmethod(claim)
    check_path = staticmethod(check_path)
    listed_files = staticmethod(listed_files)
    push = staticmethod(push)
    stream_partitions = staticmethod(stream_partitions)
    complete_end = staticmethod(complete_end)
    stream_ranges = staticmethod(stream_ranges)
    relocate = staticmethod(relocate)


#: The format the registry registers (`logcodec.pipeline.registry`).
FORMAT = TankFormat

__all__ = ["FORMAT", "TankFormat", "ROW_KINDS", "RECORD_SCHEMA", "BUNDLE_SCHEMA", "record_row", "record_run",
           "bundle_row", "parse_options", "schema", "partition_directories", "claim", "check_path", "listed_files",
           "push", "plan", "SegmentRange", "index_points", "header_points", "bundle_span", "stream_partitions",
           "complete_end", "relocate", "stream_ranges", "read", "BundleRead", "bundles", "record_rows",
           "bundle_rows", "validation_rows", "index_findings"]
