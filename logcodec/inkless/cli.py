"""`logcodec inkless`: build, read and validate Inkless objects and their metadata from the command
line. Its modules are imported when a subcommand runs, so `logcodec --help` stays quick."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from logcodec._cli_io import UsageError, read_input, write_json
from logcodec.runtime.errors import LogcodecError


def _inkless_batch_arg(text: str) -> tuple[str, int, str]:
    """TOPIC:PARTITION:FILE (a Kafka topic name has no ':'; the file may)."""
    topic, _, rest = text.partition(":")
    partition, _, file = rest.partition(":")
    if not topic or not partition.isdigit() or not file:
        raise argparse.ArgumentTypeError(f"{text!r} is not TOPIC:PARTITION:FILE")
    return topic, int(partition), file


def _inkless_topic_id_arg(text: str) -> tuple[str, bytes]:
    """TOPIC=UUID, the id as 8-4-4-4-12 hex or Kafka's 22 base64url characters."""
    from .document import uuid_from_either_text

    topic, _, text_id = text.rpartition("=")
    try:
        if topic:
            return topic, uuid_from_either_text(text_id)
    except LogcodecError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not TOPIC=UUID (8-4-4-4-12 hex or 22 base64url characters)")


def _inkless_next_offset_arg(text: str) -> tuple[tuple[str, int], int]:
    """TOPIC:PARTITION=OFFSET."""
    where, _, offset = text.rpartition("=")
    topic, _, partition = where.rpartition(":")
    if not topic or not partition.isdigit() or not offset.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not TOPIC:PARTITION=OFFSET")
    return (topic, int(partition)), int(offset)


def _inkless_uuid_arg(text: str) -> bytes:
    from .document import uuid_from_either_text

    try:
        return uuid_from_either_text(text)
    except LogcodecError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a UUID (8-4-4-4-12 hex or 22 base64url characters)") from None


def _metadata_encoding(path: str, form: str) -> str:
    """The seed form as its document in JSON (.json) or YAML (.yaml, .yml), else binary (.bin,
    .ikbm, anything); the shipped form is always JSON."""
    suffix = Path(path).suffix.lower()
    if form == "shipped":
        return "json"
    return {".json": "json", ".yaml": "yaml", ".yml": "yaml"}.get(suffix, "binary")


def cmd_inkless_build(args) -> int:
    from . import blocks

    builder = blocks.BlockBuilder(
        broker=args.broker, prefix=args.prefix, size_limit=None, window_ms=None, topic_ids=dict(args.topic_id),
        next_offsets=dict(args.next_offset), file_id=args.file_id,
        **({"clock": lambda: args.time} if args.time is not None else {}),
        **({"new_block_id": lambda: args.block_id} if args.block_id is not None else {}))
    for topic, partition, file in args.batch:
        try:
            builder.add(topic, partition, read_input(file))
        except LogcodecError as exc:
            raise exc.within(file) from None
    closed = builder.flush()
    if not closed:
        print("logcodec inkless build: the --batch files hold no batches", file=sys.stderr)
        return 1
    (block,) = closed
    metadata = block.seed_metadata if args.form == "seed" else block.shipped_metadata
    encoding = _metadata_encoding(args.metadata, args.form)
    Path(args.object).write_bytes(block.data)
    Path(args.metadata).write_bytes(blocks.dump_metadata(metadata, encoding))
    partitions = len({(e.topic_id, e.partition) for e in block.entries})
    print(f"{args.object}: {len(block.data)} bytes, {len(block.entries)} batch(es) of {partitions} partition(s), "
          f"object key {block.object_key}; {args.metadata}: {args.form} form, {encoding}")
    return 0


def _metadata_source(args) -> str:
    """The metadata named by the METADATA argument or by --metadata (exactly one of them)."""
    if (args.metadata is None) == (args.metadata_option is None):
        raise UsageError("name the metadata once: METADATA (a file) or --metadata (a file or postgresql://...)")
    return args.metadata if args.metadata is not None else args.metadata_option


def _inkless_inputs(args):
    from . import blocks

    if args.metadata_source != args.metadata:
        args.metadata = args.metadata_source  # as the messages name it
    return read_input(args.object), blocks.load_metadata(read_input(args.metadata), args.form)


def _from_control_plane(args, run):
    """Run `run(control_plane_module, store)` against the control plane at --metadata and the
    objects at OBJECT; its failures are one line: a usage error (exit 2) when the database or the
    storage cannot be used as given, a data error (exit 1) otherwise."""
    from . import control_plane as cp

    if args.form not in (None, "shipped"):
        raise UsageError("a control plane's metadata is its files and batches rows: the shipped form")
    try:
        store = cp.ObjectStore(args.object, endpoint=args.s3_endpoint)
        return run(cp, store)
    except cp.ControlPlaneError as exc:
        if exc.usage:
            raise UsageError(str(exc)) from None
        raise ValueError(str(exc)) from None
    except cp.StorageError as exc:
        raise UsageError(str(exc)) from None


def _inkless_topic(text: str, metadata, topic_ids: dict) -> dict:
    """How --topic names the topic: an id given by --topic-id; in the seed form, a name the
    metadata lists, else an id; in the shipped form (ids only), an id, else the id the builder
    derives from a name."""
    from . import blocks
    from .document import uuid_from_either_text

    if text in topic_ids:
        return {"topic_id": topic_ids[text]}
    if blocks.metadata_form(metadata) == "seed" and any(tp.name == text for tp in metadata.topic_partitions):
        return {"topic": text}
    try:
        return {"topic_id": uuid_from_either_text(text)}
    except LogcodecError:
        return {"topic_id": blocks.topic_id_for_name(text)} if blocks.metadata_form(metadata) == "shipped" \
            else {"topic": text}


def _record_json(record) -> dict:
    """A record in the canonical JSON's spirit: 64-bit numbers as decimal text, bytes as hex, a
    control record's typed key and value as their canonical JSON."""
    import logcodec

    def content(v):
        if v is None:
            return None
        return bytes(v).hex() if isinstance(v, (bytes, bytearray, memoryview)) else logcodec.to_json(v)

    return {"offset": str(record.offset),
            "timestamp": None if record.timestamp is None else str(record.timestamp),
            "timestamp_type": {0: "create_time", 1: "log_append_time"}.get(record.timestamp_type),
            "key": content(record.key), "value": content(record.value),
            "headers": [{"key": k, "value": content(v)} for k, v in record.headers]}


def cmd_inkless_read(args) -> int:
    import logcodec

    from . import blocks, control_plane

    args.metadata_source = _metadata_source(args)
    if control_plane.is_database_url(args.metadata_source):
        return _from_control_plane(args, lambda cp, store: _read_control_plane(args, cp, store))
    data, metadata = _inkless_inputs(args)
    topic = _inkless_topic(args.topic, metadata, dict(args.topic_id))
    if args.batches:
        found = blocks.read_batches(data, metadata, partition=args.partition, from_offset=args.offset, **topic)
        lines = [logcodec.to_json(b) for b in found]
    else:
        found = blocks.read_records(data, metadata, partition=args.partition, from_offset=args.offset, **topic)
        lines = [_record_json(r) for r in found]
    for line in lines:
        write_json(line, compact=True)
    return 0


def _read_control_plane(args, cp, store) -> int:
    """`logcodec inkless read STORE --metadata postgresql://...`: the partition as a broker's fetch
    reads it (`find_batches_v2`), as JSON lines."""
    import logcodec

    from .document import uuid_from_either_text

    ids = dict(args.topic_id)
    try:
        topic = {"topic_id": ids.get(args.topic) or uuid_from_either_text(args.topic)}
    except LogcodecError:
        topic = {"topic": args.topic}
    with cp.ControlPlane(args.metadata_source, statement_timeout_s=args.statement_timeout) as plane:
        found = cp.read_batches(plane, store, partition=args.partition, from_offset=args.offset, **topic)
        for batch in found:
            if args.batches:
                write_json(logcodec.to_json(batch), compact=True)
                continue
            from logcodec.kafka.records import batch_records

            for record in batch_records(batch):
                if args.offset is None or record.offset >= args.offset:
                    write_json(_record_json(record), compact=True)
    return 0


def _validate_control_plane(args, cp, store) -> int:
    """`logcodec inkless validate STORE --metadata postgresql://...`: each finding on a line."""
    scope = {"object_key": args.object_key, "partition": args.partition}
    if args.topic is not None:
        from .document import uuid_from_either_text

        try:
            scope["topic_id"] = uuid_from_either_text(args.topic)
        except LogcodecError:
            scope["topic"] = args.topic
    elif args.partition is not None:
        raise UsageError("--partition needs --topic")
    count = 0
    with cp.ControlPlane(args.metadata_source, statement_timeout_s=args.statement_timeout) as plane:
        for finding in cp.validate(plane, store, allow_dead_bytes=args.allow_dead_bytes, **scope):
            print(finding, flush=True)
            count += 1
    if not count:
        print(f"{args.object}: storage agrees with {cp.redacted(args.metadata_source)}")
    return 1 if count else 0


def cmd_inkless_validate(args) -> int:
    from . import blocks, control_plane

    args.metadata_source = _metadata_source(args)
    if control_plane.is_database_url(args.metadata_source):
        return _from_control_plane(args, lambda cp, store: _validate_control_plane(args, cp, store))
    if args.object_key is not None or args.topic is not None or args.partition is not None:
        raise UsageError("--object-key, --topic and --partition choose what of a control plane to check: "
                         "they need --metadata postgresql://...")
    data, metadata = _inkless_inputs(args)
    findings = blocks.validate(data, metadata, allow_dead_bytes=args.allow_dead_bytes)
    for finding in findings:
        print(finding)
    if not findings:
        print(f"{args.object}: {len(data)} bytes match {args.metadata} ({blocks.metadata_form(metadata)} form)")
    return 1 if findings else 0


def add_parser(sub) -> None:
    """`logcodec inkless build|read|validate`, added to the command line's subcommands."""
    ink = sub.add_parser("inkless", help="build, read and validate Inkless objects and their metadata")
    isub = ink.add_subparsers(dest="inkless_command", required=True, metavar="SUBCOMMAND")
    form_help = "metadata form: the seed's block_metadata or Inkless's shipped files/batches rows"

    p = isub.add_parser("build", help="lay batches out as one object and write its metadata",
                        description="Lay out the batches as Inkless does (by topic id, then partition) in one object "
                                    "and write its metadata. The seed form is binary unless METADATA ends in .json or "
                                    ".yaml/.yml (its document form); the shipped form is JSON.")
    p.add_argument("object", metavar="OBJECT", help="the object file to write")
    p.add_argument("metadata", metavar="METADATA", help="the metadata file to write")
    p.add_argument("--batch", action="append", required=True, type=_inkless_batch_arg, metavar="TOPIC:PARTITION:FILE",
                   help="a file of v2 batches end to end for a partition (repeatable, in produce order)")
    p.add_argument("--form", choices=["seed", "shipped"], default="seed", help=form_help + " (default seed)")
    p.add_argument("--topic-id", action="append", type=_inkless_topic_id_arg, default=[], metavar="TOPIC=UUID",
                   help="a topic's id (repeatable; default: a UUID derived from the name)")
    p.add_argument("--next-offset", action="append", type=_inkless_next_offset_arg, default=[],
                   metavar="TOPIC:PARTITION=OFFSET", help="first absolute offset of a partition in the shipped rows "
                                                          "(repeatable; default 0)")
    p.add_argument("--broker", type=int, default=0, help="id of the uploading broker (default 0)")
    p.add_argument("--prefix", default="inkless", help="object key prefix (default inkless)")
    p.add_argument("--block-id", type=_inkless_uuid_arg, help="the block's UUID (default: random)")
    p.add_argument("--time", type=int, help="commit time in ms since the epoch (default: now)")
    p.add_argument("--file-id", type=int, default=1, help="file_id of the shipped rows (default 1)")
    p.set_defaults(func=cmd_inkless_build)

    for name, func, what in [("read", cmd_inkless_read, "print one partition's records as JSON lines"),
                             ("validate", cmd_inkless_validate, "check metadata against an object; "
                                                                "print each finding, exit 1 if any")]:
        p = isub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ". The metadata's form and "
                            "encoding are recognised by content. With --metadata postgresql://..., the metadata is "
                            "read from Inkless's control plane (read-only) and OBJECT is where the objects are: a "
                            "directory or s3://bucket/prefix, under which each files row's object_key is found.")
        p.add_argument("object", metavar="OBJECT", help="the object file (with a control plane: the directory or "
                                                        "s3://bucket/prefix of the objects)")
        p.add_argument("metadata", metavar="METADATA", nargs="?", help="its metadata, in either form")
        p.add_argument("--metadata", dest="metadata_option", metavar="METADATA",
                       help="the metadata: a file, or Inkless's control plane as postgresql://user@host:port/db "
                            "(the password from the URL, PGPASSWORD or ~/.pgpass)")
        p.add_argument("--form", choices=["seed", "shipped"], help=form_help + " (default: as found)")
        p.add_argument("--s3-endpoint", metavar="URL", help="http(s)://host:port of S3-compatible storage (else "
                                                            "AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS)")
        p.add_argument("--statement-timeout", type=float, default=60.0, metavar="SECONDS",
                       help="longest a query of the control plane may run (default 60)")
        p.set_defaults(func=func)
        if name == "read":
            p.add_argument("--topic", required=True, help="topic name, or id (8-4-4-4-12 hex or base64url)")
            p.add_argument("--partition", type=int, required=True, help="partition number")
            p.add_argument("--offset", type=int, help="only records from this offset on")
            p.add_argument("--topic-id", action="append", type=_inkless_topic_id_arg, default=[], metavar="TOPIC=UUID",
                           help="a topic's id, when the metadata names topics by id (repeatable)")
            p.add_argument("--batches", action="store_true", help="print the batches' canonical JSON instead")
        else:
            p.add_argument("--allow-dead-bytes", action="store_true",
                           help="bytes no entry covers are no finding (normal in the shipped form after a rejection)")
            p.add_argument("--object-key", metavar="KEY", help="with a control plane: check only this object")
            p.add_argument("--topic", help="with a control plane: check the objects holding this topic's batches "
                                           "(its name in logs, or its id)")
            p.add_argument("--partition", type=int, help="with --topic: only those holding this partition's")
