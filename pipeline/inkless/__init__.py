"""Inkless objects with their metadata as rows: one per record, or one per batch (or one
validation result per batch, for the validation job: `validation_rows`); from a local directory
or from S3-compatible object storage (`s3://bucket/prefix`); the data source `logcodec.inkless`.

An Inkless object is Kafka v2 record batches laid end to end, with nothing that says whose they
are: its metadata does. So a read pairs each object with its metadata first, on the driver, from
the names of the files under the load path (`_pairing`); whatever cannot be paired is a row with
its `error`, never dropped.

Checks. What `logcodec.inkless.blocks.validate` reports for an object is reported as rows of the
read, each once, split by where it can be found cheaply: problems that need only the metadata and
the object's size are found on the driver while planning and go out with the object's first input
partition (`_planning`); a range's own problems (past the end, not whole batches, a bad CRC, a
record count or offsets that its batches contradict) are found by the task that reads the range,
as it reads it (`_entries`). Dead bytes are normal in the shipped form (batches the control plane
rejected); the `allowDeadBytes` option leaves them out, as `validate(..., allow_dead_bytes=True)`
does.

Storage. Local paths and `s3://bucket/prefix` are read through `pyarrow.fs` (`_storage`). For S3:
`s3Endpoint` (e.g. `http://127.0.0.1:9000` for MinIO or moto; else `AWS_ENDPOINT_URL_S3` /
`AWS_ENDPOINT_URL`, else AWS), `s3Region` (else `AWS_REGION` / `AWS_DEFAULT_REGION`),
`s3AccessKey` / `s3SecretKey` / `s3SessionToken` (else AWS's default chain in each process:
environment, `~/.aws`, an instance role) or `s3Anonymous=true`. The endpoint and region are
resolved on the driver; credentials are not, so a cluster's executors use their own.

The modules, one concern each:

- `_options` and `_schemas`: the options of a read, the tables it returns;
- `_storage`: listing and reading files, local or in object storage;
- `_metadata`: metadata files and documents, and the names that say which files they are;
- `_pairing`: each object paired with its metadata;
- `_ranges` and `_planning`: the plan of a read, and what the metadata alone says of an object;
- `_control_plane`: the plan and the objects' rows when the metadata is Inkless's PostgreSQL
  control plane (`_sources` picks the planner);
- `_entries`: a range's bytes and its entries, checked;
- `_rows`: the record and batch rows, as Arrow batches (`read`);
- `_validation`: the validation job's rows;
- `_files`: what the validation job needs to pick, check and account for a path.

`InklessFormat` says which of them implement the pipeline's protocol (`logcodec.pipeline.formats`).
"""

from __future__ import annotations

from logcodec.pipeline.formats import LogFormat
from logcodec.pipeline.inkless._control_plane import check_options
from logcodec.pipeline.inkless._files import check_path, claim, listed_files
from logcodec.pipeline.inkless._metadata import (
    DOCUMENT_SUFFIXES,
    SIDECAR,
    SIDECAR_SUFFIXES,
    Loaded,
    load_documents,
)
from logcodec.pipeline.inkless._options import (
    ROW_KINDS,
    InklessOptions,
    S3Config,
    parse_options,
)
from logcodec.pipeline.inkless._planning import (
    object_findings,
    object_ranges,
)
from logcodec.pipeline.inkless._ranges import ObjectRange, Problem
from logcodec.pipeline.inkless._rows import range_rows, read
from logcodec.pipeline.inkless._schemas import (
    BATCH_SCHEMA,
    RECORD_SCHEMA,
    batch_row,
    record_row,
    record_run,
    schema,
)
from logcodec.pipeline.inkless._sources import byte_layout, plan
from logcodec.pipeline.inkless._storage import (
    Listed,
    filesystem,
    list_files,
    read_bytes,
)
from logcodec.pipeline.inkless._validation import validation_rows


class InklessFormat(LogFormat[InklessOptions, ObjectRange]):
    """`spark.read.format("logcodec.inkless").load(PATH)`: Inkless objects with their metadata
    (seed or shipped form), under a local directory or `s3://bucket/prefix`."""

    name = "inkless"
    title = "Inkless objects"
    files = "Inkless metadata (*.metadata.*)"
    not_a_log = "not an Inkless object"
    row_kinds = ROW_KINDS
    object_storage = True

    parse_options = staticmethod(parse_options)
    schema = staticmethod(schema)
    plan = staticmethod(plan)
    read = staticmethod(read)
    claim = staticmethod(claim)
    check_path = staticmethod(check_path)
    check_options = staticmethod(check_options)
    listed_files = staticmethod(listed_files)


#: The format the registry registers (`logcodec.pipeline.registry`).
FORMAT = InklessFormat

__all__ = ["FORMAT", "InklessFormat", "ROW_KINDS", "RECORD_SCHEMA", "BATCH_SCHEMA", "record_row", "record_run",
           "batch_row", "InklessOptions", "S3Config", "parse_options", "schema", "filesystem", "Listed", "list_files",
           "read_bytes", "SIDECAR_SUFFIXES", "SIDECAR", "DOCUMENT_SUFFIXES", "Loaded", "load_documents", "Problem",
           "ObjectRange", "plan", "object_ranges", "object_findings", "byte_layout", "read", "range_rows",
           "validation_rows", "claim", "check_path", "listed_files"]
