"""Kaitai Struct's language test suite against the construct back end:

    python -m tests.construct.kaitai_suite [SUITE] [--filter SUBSTRING] [--jobs N] [--json OUT] [-v]

The suite's runner (`tests/kaitai_suite/`) with a third implementation: each spec's schema goes
through `logcodec compile --target construct` (the runner's `logcodec compile` command, with the
target added), its input is parsed with the root construct (`<package>.<id>.<id>.parse(data)`)
and the spec's asserts are evaluated on the Container. Construct's values have no `_io`,
`_parent` or `_root`: asserts that read them are `unsupported`. Exceptions map to construct's:
a read past the end is a `StreamError`, a failed `valid:` or `contents:` a `CheckError` or
`ConstError`.

Without the suite (`../shared/corpus/kaitai_struct_tests`) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import json
import sys
from pathlib import Path

from tests.kaitai_suite import corpus, logcodec_impl, runner
from tests.kaitai_suite.evaluator import Access, Unsupported

IMPL = "construct"

EXCEPTIONS = {
    "EndOfStreamError": ("StreamError",),
    "ValidationNotEqualError": ("CheckError", "ConstError"),
    "ValidationLessThanError": ("CheckError",),
    "ValidationGreaterThanError": ("CheckError",),
    "ValidationNotAnyOfError": ("CheckError",),
    "ValidationExprError": ("CheckError",),
    "ValidationNotInEnumError": ("CheckError",),
}


def _value(v):
    """A construct value as the evaluator reads values: an enum label becomes an enum member."""
    from construct import EnumIntegerString

    if isinstance(v, EnumIntegerString):
        return enum.IntEnum("Label", {str(v): int(v)})[str(v)]
    if isinstance(v, list):
        return [_value(x) for x in v]
    return v


class ConstructAccess(Access):
    def is_struct(self, value) -> bool:
        return isinstance(value, dict)

    def attr(self, obj, name: str):
        for candidate in (name, name + "_"):
            if isinstance(obj, dict) and candidate in obj:
                return _value(obj[candidate])
        return super().attr(obj, name)

    def special(self, obj, name: str):
        raise Unsupported(f"`{name}` is not part of construct's values")


class ConstructImpl(logcodec_impl.LogcodecImpl):
    name = IMPL
    access = ConstructAccess()

    def parse(self, spec_id: str, data: bytes):
        module = self.module(spec_id)
        return getattr(module, spec_id).parse(data)

    def roundtrip(self, spec_id: str, data: bytes) -> dict:
        """Serialization with construct: build(parse(b)) against the bytes parsed, judged as
        logcodec's (`same`, `other_bytes`, `refused`: construct raised building, `wrong`)."""
        import io

        from construct import ConstructError

        from logcodec.runtime.errors import LogcodecError
        root = getattr(self.module(spec_id), spec_id)
        stream = io.BytesIO(data)
        value = root.parse_stream(stream)
        used = stream.tell()
        try:
            out = root.build(value)
        except (ConstructError, LogcodecError) as exc:  # a user processor without `encode` is logcodec's
            return {"result": "refused", "detail": f"{type(exc).__name__}: {exc}"[:200]}
        if out == data[:used]:
            return {"result": "same"}
        try:
            again = root.parse(out)
        except ConstructError as exc:
            return {"result": "wrong", "detail": f"does not parse: {exc}"[:200]}
        return {"result": "other_bytes" if again == value else "wrong", "detail": f"{len(out)} bytes for {used}"}

    def module(self, spec_id: str):
        for path in (str(logcodec_impl.FIXTURES), str(self.folder)):
            if path not in sys.path:
                sys.path.insert(0, path)
        return importlib.import_module(f"{self.package}.{spec_id}")

    def exception_matches(self, exc: BaseException, name: str, message: str | None) -> tuple[bool, str]:
        wanted = EXCEPTIONS.get(name.split("<")[0])
        if wanted is None:
            return False, f"no construct error is mapped to {name}"
        if type(exc).__name__ not in wanted:
            return False, f"raised {type(exc).__name__}: {exc}, expected {' or '.join(wanted)}"
        return True, ""


def _install():
    """The runner's hooks, for this implementation (in this process and its forked workers);
    returns what puts the logcodec ones back (the same process may run logcodec's specs next)."""
    make, command = runner._make_impl, logcodec_impl.command

    def restore() -> None:
        runner._make_impl, logcodec_impl.command = make, command

    def make_impl(task: dict):
        if task["impl"] == IMPL:
            return ConstructImpl(Path(task["folder"]), task["package"])
        return make(task)

    runner._make_impl = make_impl
    logcodec_impl.command = lambda: [sys.executable, "-m", "logcodec", "compile", "--target", "construct"]
    return restore


def run(suite: Path, filter_: str | None = None, jobs: int = 4, timeout: float = 20, out: Path | None = None,
        specs: list[str] | None = None, log=print) -> dict:
    """The runner's report for this implementation: every spec (or those whose id contains
    `filter_`, or those named in `specs`)."""
    restore = _install()
    try:
        found = corpus.load_specs(suite, filter_)
        specs = [s for s in found if specs is None or s.id in specs]
        out = out or corpus.REPO / "build" / "kaitai_suite_construct"
        return runner.run_impl(IMPL, suite, specs, out, jobs, timeout, all_formats=False, formats_err=False, log=log)
    finally:
        restore()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.construct.kaitai_suite", description=__doc__.split("\n\n")[0])
    p.add_argument("suite", nargs="?", help="the test suite's folder (default: ../shared/corpus/kaitai_struct_tests)")
    p.add_argument("--filter", metavar="SUBSTRING")
    p.add_argument("--jobs", type=int, default=4)
    p.add_argument("--timeout", type=float, default=20)
    p.add_argument("--json", metavar="OUT")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    suite = Path(args.suite) if args.suite else corpus.REPO.parent / "shared" / "corpus" / "kaitai_struct_tests"
    if not corpus.available(suite):
        print(f"no Kaitai test suite at {suite}: nothing to run")
        return 0
    report = run(suite, args.filter, args.jobs, args.timeout)
    runner.print_report({IMPL: report}, args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
