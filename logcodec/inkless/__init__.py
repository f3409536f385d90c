"""Inkless (diskless Kafka): batch blocks and their metadata, beyond the codecs of the
`inkless.*` formats.

- `logcodec.inkless.document`: the seed's document form of block metadata (YAML, JSON), Kafka's
  UUID texts, object keys and the order of topic ids;
- `logcodec.inkless.shipped`: the metadata Inkless itself ships, rows of its `files` and
  `batches` tables;
- `logcodec.inkless.blocks`: building blocks, reading a partition back and validating metadata
  against its object, in either form;
- `logcodec.inkless.checks`: the checkers of Inkless's check vectors;
- `logcodec.inkless.cli`: the `logcodec inkless` subcommands.

Every public name of the first three is also here: `logcodec.inkless.BlockBuilder`,
`logcodec.inkless.load_metadata`, `logcodec.inkless.dump_yaml`.
"""

from .blocks import *  # noqa: F403
from .blocks import __all__ as _blocks_all
from .document import *  # noqa: F403
from .document import __all__ as _document_all
from .shipped import *  # noqa: F403
from .shipped import __all__ as _shipped_all

__all__ = [*_document_all, *_shipped_all, *_blocks_all]
