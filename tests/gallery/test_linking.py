"""Kaitai's links (`_parent`, `_root`) on decoded values of real files: the functions the generator
writes per type (`_k_<type>`, which `decode` calls) set the links the runtime's generic walk
(`runtime.primitives.linked`) sets, structure for structure.

Skips without the gallery and its real-file corpus."""

from __future__ import annotations

import dataclasses

import pytest

from logcodec.runtime import primitives

from . import files, runner

#: Formats whose values hold structures of their own types, lists of them, switches on their
#: types (gif, dns_packet, msgpack), types read in either byte order (gettext_mo, elf), imported
#: schemas' types (wav: riff) and instances computed while decoding (dns_packet).
SAMPLE = ("image/gif.ksy", "network/dns_packet.ksy", "serialization/msgpack.ksy", "database/gettext_mo.ksy",
          "executable/elf.ksy", "media/wav.ksy")


def structures(value):
    """(path, structure) for every structure under `value` (fields, and instances computed so
    far), each once, in a fixed order."""
    todo, seen = [("", value)], set()
    while todo:
        path, v = todo.pop()
        if isinstance(v, list):
            todo.extend((f"{path}[{i}]", item) for i, item in enumerate(v))
            continue
        if not dataclasses.is_dataclass(v) or id(v) in seen:
            continue
        seen.add(id(v))
        yield path, v
        for f in dataclasses.fields(v):
            if not f.metadata.get("param"):
                todo.append((f"{path}.{f.name}", primitives.computed(v, f.name)))


def links(value) -> list[tuple[str, int | None, int | None]]:
    """Every structure's path with the identities of its `_parent` and `_root`."""
    def ident(x):
        return None if x is None else id(x)
    return [(path, ident(primitives.computed(v, "_parent")), ident(primitives.computed(v, "_root")))
            for path, v in structures(value)]


def unlink(value) -> None:
    for _, v in list(structures(value)):
        v._parent = v._root = None


@pytest.mark.skipif(not runner.available() or not files.corpus(), reason="no gallery or real-file corpus")
@pytest.mark.parametrize("schema", SAMPLE)
def test_generated_links_are_the_runtime_walk_s(schema):
    module = files.our_module(schema)
    if isinstance(module, str):
        pytest.skip(module)
    checked = 0
    for path in files.corpus().get(schema, []):
        try:
            value = module.decode(path.read_bytes())
        except primitives.DecodeError:
            continue
        generated = links(value)
        unlink(value)
        assert {p for _, p, _ in links(value)} == {None}, "unlink left a link"
        primitives.linked(value)
        assert generated == links(value), path.name
        checked += 1
    assert checked, f"no file of {schema} decodes"
