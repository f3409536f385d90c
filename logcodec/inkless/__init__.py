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

Every public name of the first three is also here, imported on first use (the command line adds
this package's subcommands, and `logcodec --help` should not load the codecs for that):
`logcodec.inkless.BlockBuilder`, `logcodec.inkless.load_metadata`, `logcodec.inkless.dump_yaml`.
"""

import importlib

_SUBMODULES = ("document", "shipped", "blocks")


def __getattr__(name: str):
    for sub in _SUBMODULES:
        module = importlib.import_module(f"{__name__}.{sub}")
        if name in module.__all__:
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *(n for sub in _SUBMODULES
                                 for n in importlib.import_module(f"{__name__}.{sub}").__all__)})
