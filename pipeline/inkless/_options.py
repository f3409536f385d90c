"""The options of an Inkless read, checked once on the driver: the common ones, the `metadata`
path, `allowDeadBytes` and how to reach S3-compatible storage (`s3*`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from logcodec.pipeline.plan import DEFAULT_SPLIT_BYTES, common_options, positive_int

ROW_KINDS = ("record", "batch", "validation")


@dataclass(frozen=True)
class S3Config:
    """How to reach S3-compatible storage; the secrets stay out of reprs and messages."""

    endpoint: str | None = None        # host:port
    scheme: str | None = None          # http or https
    region: str | None = None
    access_key: str | None = field(default=None, repr=False)
    secret_key: str | None = field(default=None, repr=False)
    session_token: str | None = field(default=None, repr=False)
    anonymous: bool = False


@dataclass(frozen=True)
class InklessOptions:
    """The options of `spark.read.format("logcodec.inkless")`, checked once on the driver:
    `rows` (`record`, `batch` or `validation`), `mode` (`permissive` or `failfast`), `splitBytes`, `metadata`
    (a file or directory of metadata documents, local or `s3://`, apart from the objects),
    `allowDeadBytes` and the `s3*` settings (see the module's docstring)."""

    path: str
    rows: str = "record"
    mode: str = "permissive"
    split_bytes: int = DEFAULT_SPLIT_BYTES
    metadata: str | None = None
    allow_dead_bytes: bool = False
    s3: S3Config = S3Config()

    MORE = ("metadata", "allowdeadbytes", "s3endpoint", "s3region", "s3accesskey", "s3secretkey", "s3sessiontoken",
            "s3anonymous")

    @classmethod
    def parse(cls, options: Mapping[str, str], environ: Mapping[str, str] | None = None) -> "InklessOptions":
        """From Spark's (case-insensitive, all-string) options; a bad value is a ValueError naming it.
        The S3 endpoint and region fall back to the environment (`environ`, default os.environ)."""
        env = os.environ if environ is None else environ
        opts, rows, mode = common_options(options, cls.MORE, ROW_KINDS,
                                          "use .load(PATH) with a directory, an object or s3://bucket/prefix")
        endpoint = opts.get("s3endpoint") or env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
        host = scheme = None
        if endpoint:
            parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"option s3Endpoint={endpoint!r}: expected http(s)://host[:port]")
            host, scheme = parts.netloc, parts.scheme
        s3 = S3Config(endpoint=host, scheme=scheme,
                      region=opts.get("s3region") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION"),
                      access_key=opts.get("s3accesskey"), secret_key=opts.get("s3secretkey"),
                      session_token=opts.get("s3sessiontoken"), anonymous=_flag(opts, "s3anonymous"))
        if (s3.access_key is None) != (s3.secret_key is None):
            raise ValueError("options s3AccessKey and s3SecretKey go together")
        return cls(path=opts["path"], rows=rows, mode=mode,
                   split_bytes=positive_int(opts, "splitbytes", DEFAULT_SPLIT_BYTES),
                   metadata=opts.get("metadata") or None, allow_dead_bytes=_flag(opts, "allowdeadbytes"), s3=s3)

    @property
    def failfast(self) -> bool:
        return self.mode == "failfast"


def _flag(opts: dict, name: str) -> bool:
    raw = opts.get(name, "false").lower()
    if raw not in ("true", "false"):
        raise ValueError(f"option {name}={opts[name]!r}: expected true or false")
    return raw == "true"


def parse_options(options: Mapping[str, str]) -> "InklessOptions":
    """The options of a read (`InklessOptions.parse`)."""
    return InklessOptions.parse(options)
