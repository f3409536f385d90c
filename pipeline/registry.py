"""The formats of the pipeline, and the check that each implements the protocol (`formats`).

Each format family of logcodec (`logcodec._api.FORMAT_PACKAGES`) whose files are logs has its
pipeline format in `logcodec.pipeline.<family>`, whose `FORMAT` is its class; they are registered, in that order,
the first time anyone asks (`formats`, `format_named`). `register_format` checks a class against
`formats.LogFormat` and each capability base it derives from before it makes the one object of it
that the data sources, the stream reader and the validation job use; a class that does not
implement the protocol is refused with a `FormatError` that says what is missing.
"""

from __future__ import annotations

import inspect

from logcodec.pipeline.formats import CAPABILITIES, VALIDATION, LogFormat

from logcodec._api import FORMAT_PACKAGES, optional_module

#: The attributes every format sets, and the type of each.
ATTRIBUTES = {"name": str, "title": str, "files": str, "not_a_log": str, "row_kinds": tuple, "object_storage": bool}


class FormatError(TypeError):
    """A format class that does not implement the pipeline's protocol (`formats.LogFormat`)."""


_registered: dict[str, LogFormat] = {}


def formats() -> tuple[LogFormat, ...]:
    """Every registered format, the built-in ones first (in `FORMAT_PACKAGES` order)."""
    if not _registered:
        for family in FORMAT_PACKAGES:
            module = optional_module(f"logcodec.pipeline.{family}")
            if module is not None:  # (else a family whose files are no logs: `net`, packet captures)
                _add(module.FORMAT)
    return tuple(_registered.values())


def format_named(name: str) -> LogFormat:
    """The registered format called `name`; ValueError naming the known ones otherwise."""
    for fmt in formats():
        if fmt.name == name:
            return fmt
    raise ValueError(f"no pipeline format {name!r}; known: {', '.join(f.name for f in formats())}")


def register_format(cls: type[LogFormat]) -> LogFormat:
    """Register the format class `cls`, after the built-in ones, and return its object; FormatError,
    naming every problem (`problems`), when it does not implement the protocol or its name is taken.
    Such a format is known to this process only (the validation job's `validate_local`, the readers):
    the data sources are made when `sources` is imported, and Spark's executors know the built-in ones."""
    formats()
    return _add(cls)


def _add(cls: type[LogFormat]) -> LogFormat:
    found = problems(cls)
    if not found and cls.name in _registered:
        found = [f"the name {cls.name!r} is taken by {type(_registered[cls.name]).__qualname__}"]
    if found:
        raise FormatError(f"format class {getattr(cls, '__qualname__', cls)!r} does not implement the pipeline's "
                          f"protocol (logcodec.pipeline.formats): {'; '.join(found)}")
    fmt = cls()
    _registered[cls.name] = fmt
    return fmt


def problems(cls: type) -> list[str]:
    """What keeps `cls` from being a format: not a `LogFormat` class, an attribute missing or of
    another type, a member of `LogFormat` or of a capability base it derives from left abstract,
    or one that takes other parameters than the base declares."""
    if not (isinstance(cls, type) and issubclass(cls, LogFormat)):
        return [f"{cls!r} is not a class derived from LogFormat"]
    found = [f"{name} must be a {kind.__name__} (LogFormat.{name}), not {getattr(cls, name, None)!r}"
             for name, kind in ATTRIBUTES.items() if not isinstance(getattr(cls, name, None), kind)]
    if not found and not cls.name.isidentifier():
        found.append(f"name {cls.name!r} must be an identifier (the data source is logcodec.<name>)")
    if not found and VALIDATION not in cls.row_kinds:
        found.append(f"row_kinds must offer {VALIDATION!r}, the validation job's rows")
    for base in (LogFormat, *(c for c in CAPABILITIES if issubclass(cls, c))):
        for name in sorted(n for n, member in vars(base).items() if getattr(member, "__isabstractmethod__", False)):
            found += _member_problems(cls, base, name)
    return found


def _member_problems(cls: type, base: type, name: str) -> list[str]:
    """What is wrong with `cls`'s member `name`, which `base` declares: left abstract, not a
    method, or taking other parameters."""
    declared = _parameters(inspect.getattr_static(base, name)) or []
    member = inspect.getattr_static(cls, name)
    if getattr(member, "__isabstractmethod__", False):
        return [(f"it lacks {name}({', '.join(declared)}), which {base.__name__} requires: "
                 f"{_summary(getattr(base, name))}")]
    given = _parameters(member)
    if given is None:
        return [f"{name} must be a method ({base.__name__}.{name}), not {member!r}"]
    if given != declared:
        return [f"{name} takes ({', '.join(given)}), where {base.__name__} declares ({', '.join(declared)})"]
    return []


def _parameters(member) -> list[str] | None:
    """The parameters a member of a class takes when called on an object of it (the names, with
    `*` and `**` for the catch-alls): a method's but its first, a static method's all; None for
    what is no method."""
    if isinstance(member, staticmethod):
        function, bound = member.__func__, 0
    elif isinstance(member, classmethod):
        function, bound = member.__func__, 1
    elif inspect.isfunction(member):
        function, bound = member, 1
    else:
        return None
    return [("*" if p.kind is p.VAR_POSITIONAL else "**" if p.kind is p.VAR_KEYWORD else "") + p.name
            for p in list(inspect.signature(function).parameters.values())[bound:]]


def _summary(function) -> str:
    """The first sentence of a member's documentation."""
    return " ".join((inspect.getdoc(function) or "").split()).split(". ")[0].split("; ")[0]
