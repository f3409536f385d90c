"""What every subcommand of the command line shares: its inputs (files, stdin), its JSON output,
its one-line messages and the usage error (exit status 2). Apart from `cli.py`, so that a format
package's subcommands (`logcodec.inkless.cli`) use them without importing the command line that
adds those subcommands."""

from __future__ import annotations

import json
import sys
from pathlib import Path


class UsageError(Exception):
    """The command was given wrongly (an unknown format or parameter, a missing file): exit status 2."""


def read_input(path: str) -> bytes:
    """A file's bytes, or stdin's for `-`; a path that names no file is a usage error."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a file") from None


def schema_file(path: str) -> Path:
    """A schema named on the command line: a missing one is a usage error (a broken one, the
    schema's own error)."""
    if not Path(path).is_file():
        raise UsageError(f"{path}: {'is a directory, not a schema' if Path(path).is_dir() else 'no such file'}")
    return Path(path)


def note(command: str, text: str) -> None:
    """One line on stderr, naming the subcommand (`logcodec inkless read: ...`)."""
    print(f"logcodec {command}: {text}", file=sys.stderr)


def write_json(doc, compact: bool = False) -> None:
    """JSON on stdout, as UTF-8 whatever the locale (text is written as it is, `héllo`, as the API
    gives it)."""
    text = json.dumps(doc, indent=None if compact else 2, ensure_ascii=False)
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
