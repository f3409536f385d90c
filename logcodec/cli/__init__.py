"""The `logcodec` command line.

Bad input ends with exit status 1 and one line on stderr naming the error kind,
the byte offset and the field path; usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import sys

from logcodec._cli_io import UsageError, note
from logcodec.cli._build import add_accelerate, add_compile_and_diff, add_generate
from logcodec.cli._codec import add_decode, add_encode, add_formats
from logcodec.cli._conformance import add_testee_and_conformance
from logcodec.cli._docs import add_docs
from logcodec.cli._pipeline import add_pipeline
from logcodec.cli._record import add_record
from logcodec.inputs import InputError
from logcodec.runtime.errors import LogcodecError


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line, as every other error of the command line."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _version() -> str:
    from logcodec import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="logcodec", description=__doc__.splitlines()[0].rstrip("."))
    parser.add_argument("--version", action="version", version=f"logcodec {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # each command group adds its own; the order here is the order of `logcodec --help`
    add_formats(sub)
    add_generate(sub)
    add_decode(sub)
    add_compile_and_diff(sub)
    add_encode(sub)
    add_accelerate(sub)
    add_testee_and_conformance(sub)
    from logcodec.inkless.cli import add_parser as add_inkless_parser  # noqa: PLC0415 (the format's own)

    add_inkless_parser(sub)
    add_pipeline(sub)
    add_docs(sub)
    add_record(sub)
    return parser


def _command_name(args) -> str:
    """The subcommand as typed (`conformance run`), for the errors' prefix."""
    sub = getattr(args, f"{args.command}_command", None)
    return f"{args.command} {sub}" if sub else args.command


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `logcodec decode ... | head` is fine
        sys.stderr.close()
        return 0
    except UsageError as exc:
        note(_command_name(args), str(exc))
        return 2
    except (LogcodecError, InputError) as exc:
        note(_command_name(args), str(exc))
        return 1
    except (OSError, ValueError) as exc:
        note(_command_name(args), str(exc))
        return 1
    except Exception as exc:  # malformed schemas: a line per problem, naming the file, the place and the YAML path
        from logcodec.generator.problems import SchemaError

        if not isinstance(exc, SchemaError):
            raise
        for line in str(exc).splitlines():
            note(_command_name(args), line)
        return 1


if __name__ == "__main__":
    sys.exit(main())
