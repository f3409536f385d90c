"""What several commands read from their arguments: format names, the root's parameters, the
composite formats' other inputs, and where the package's own generated data is."""

from __future__ import annotations

from pathlib import Path

from logcodec._cli_io import UsageError


def known_format(name: str, *, composite_ok: bool = True) -> str:
    """`name` if it is a format (or a composite one, where those are taken); otherwise a usage
    error that lists the close names, or all of them."""
    import difflib

    import logcodec
    from logcodec.composites import composites

    known = logcodec.formats() + (list(composites()) if composite_ok else [])
    if name in known:
        return name
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {_either(close)}?" if close else f"known: {', '.join(sorted(known))}"
    raise UsageError(f"unknown format {name!r}; {hint} (logcodec formats lists them)")


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def root_params(module, texts: list[str] | None, what: str) -> dict:
    """The `--param NAME=VALUE` given, checked against the root's parameters (the module's `PARAMS`,
    and every one it needs)."""
    from logcodec._api import root_params_problems

    given = dict(_root_param(text) for text in texts or ())
    problems = root_params_problems(module, given, what)
    if problems:
        raise UsageError(f"--param: {problems[0]} (--param NAME=VALUE)")
    return given


def _root_param(text: str) -> tuple[str, int | bool]:
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise UsageError(f"--param {text!r}: expected NAME=VALUE")
    if value in ("true", "false"):
        return name, value == "true"
    try:
        return name, int(value, 0)
    except ValueError:
        raise UsageError(f"--param {text!r}: the value is an integer, true or false") from None


def other_inputs() -> list[str]:
    """The names of the composite formats' other inputs, each an option of `decode` (--metadata)."""
    from logcodec.composites import composites

    return sorted({other for c in composites().values() for other in c.others})


def shipped_data() -> Path:
    """The generated data this package ships (`docs/`, with its schemas beside the pages, and
    `vectors/`): what a compile or a diff of message specs reads of the shipped formats."""
    import logcodec.generated

    return Path(logcodec.generated.__file__).resolve().parent
