"""The format registry behind `logcodec.decode`, `logcodec.encode` and friends."""

from __future__ import annotations

import importlib
from types import ModuleType

from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from logcodec.runtime.stream import Stream
from logcodec.runtime.values import root_from_json, to_json

#: The packages of the formats this distribution ships, each `logcodec.<name>`: a format's helpers
#: beyond its codecs, its codec tables (`codecs`), its checkers (`checks`) and CLI subcommands.
FORMAT_PACKAGES = ("kafka", "tank", "inkless", "net")


def optional_module(name: str) -> ModuleType | None:
    """The module `name` (a format package's `checks`, `composites`, `codecs`, or its pipeline
    format), or None where neither it nor a package holding it is there; a module that is there
    and is broken raises."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (name == exc.name or name.startswith(f"{exc.name}.")):
            raise
        return None


def _registry() -> dict[str, str]:
    # Imported on use, so that `logcodec generate` works while generated/ is missing or stale.
    from logcodec.generated import FORMATS

    return FORMATS


def formats() -> list[str]:
    """Every format name, e.g. ``kafka.record_batch_v2``."""
    return sorted(_registry())


def codec(format_name: str) -> ModuleType:
    """The generated module of a format: its value classes, `encode`, and the same reads as every
    format's (`decode`, `decode_prefix`, `decode_stream`, `decode_iter`, `decode_columns`,
    `decode_part`), those it cannot offer raising UnsupportedRead (its `READS` lists the others)."""
    try:
        return importlib.import_module(_registry()[format_name])
    except KeyError:
        raise ValueError(f"unknown format {format_name!r}; known: {', '.join(formats())}") from None


def decode(format_name: str, data, *, limits: Limits = DEFAULT_LIMITS, **options):
    """Decode one value of the format from bytes: all of them, where the format's root fills its input
    (the module's `FILLS_INPUT`, every built-in format: bytes after it are `trailing_bytes`), else
    the value at their start, as Kaitai's parsers read it. Raises DecodeError otherwise.
    `options`: what the module's `decode` takes besides `limits`, by name (`tuples=True`,
    `lazy=False`, the root's parameters: `base_seq_num=` for a TANK bundle); one it does not take
    is a TypeError."""
    return codec(format_name).decode(data, limits=limits, **options)


def decode_stream(format_name: str, data, *, limits: Limits = DEFAULT_LIMITS, **options) -> Stream:
    """Decode values laid end to end; a partial last one is reported in `.partial`. `options` as
    `decode`'s."""
    return codec(format_name).decode_stream(data, limits=limits, **options)


def encode(format_name: str, value, **params) -> bytes:
    """Encode a value (an instance of the format's root class, or its canonical JSON form).
    `params`: the root's parameters by name, as the module's `encode` takes them (`api_key=` and
    `api_version=` for a `kafka.response`)."""
    if isinstance(value, dict):
        value = value_from_json(format_name, value, **params)
    return codec(format_name).encode(value, **params)


def value_from_json(format_name: str, data, **params):
    """Build a value of the format's root class from canonical JSON; a missing field that is not
    derived is an EncodeError naming its path. `params`: the root's, as `encode` takes them (a
    `kafka.response`'s `api_key=` selects its body)."""
    return root_from_json(codec(format_name), data, params)


def root_params_problems(module: ModuleType, given: dict, what: str) -> list[str]:
    """What is wrong with `given` as the root's params of a generated module (`what`: how to name
    it): a param it does not take, a value of the wrong kind (its `PARAMS`: an integer or a bool
    each), one it needs and was not given (its `REQUIRED_PARAMS`). The check of the command line's
    `--param` and of the docs server's `"params"`, each saying the problems its own way."""
    kinds = module.PARAMS
    problems = []
    for name, value in given.items():
        if name not in kinds:
            takes = f"its params: {', '.join(kinds)}" if kinds else "it takes none"
            problems.append(f"{what} has no param {name!r}; {takes}")
        elif (kinds[name] == "bool") != isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"param {name} of {what} is {'true or false' if kinds[name] == 'bool' else 'an integer'}, "
                            f"not {value!r}")
    missing = [name for name in getattr(module, "REQUIRED_PARAMS", ()) if name not in given]
    if missing:
        problems.append(f"{what} needs the params {', '.join(missing)}")
    return problems


__all__ = ["codec", "decode", "decode_stream", "encode", "formats", "to_json", "value_from_json"]
