"""Kaitai's links (`_parent`, `_root`) on decoded values of real files. Where a schema's
expressions read a link off a value (`_parent._parent`), the decoders, which make each value with
its parent and root before reading its fields, set the links Kaitai's rules give (`kaitai_links`,
a walk over the decoded value), structure for structure; elsewhere they set none (the decoders and
lazy instances hold their parent and root themselves), and the values are no cycles.

Skips without the gallery and its real-file corpus."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from logcodec.runtime import primitives

from . import files, runner

#: Formats whose expressions read a link off a value (`_parent._parent.linked_section` in elf,
#: `_parent._parent.symbol_name_table_offset` in microsoft_pe), whose values hold structures of their own types, lists of them, types
#: read in either byte order (elf) and instances computed while decoding.
LINKED = ("executable/elf.ksy", "executable/microsoft_pe.ksy")
#: Formats that read `_parent` and `_root` only as they decode, with switches on their types (gif,
#: dns_packet, msgpack), types read in either byte order (gettext_mo), imported schemas' types
#: (wav: riff) and instances computed while decoding (dns_packet).
UNLINKED = ("image/gif.ksy", "network/dns_packet.ksy", "serialization/msgpack.ksy", "database/gettext_mo.ksy",
            "media/wav.ksy")


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


def kaitai_links(value) -> None:
    """Set Kaitai's `_parent` and `_root` on an unlinked decoded value, walking it from the top:
    each structure's holder, and the root it was read under. As Kaitai's parsers (0.11) pass
    neither from one schema to another, a structure of another schema's type has no `_parent`, and
    no `_root` unless it is that schema's root type (its own root). A structure linked already
    keeps its links: a value instance that names one (`value: _root.items[idx]`) holds it, as
    Kaitai's does, without adopting it."""
    todo: list = [(value, None)]
    seen: set[int] = set()
    while todo:
        v, holder = todo.pop()
        if isinstance(v, list):
            todo.extend((item, holder) for item in v)
            continue
        if not dataclasses.is_dataclass(v) or id(v) in seen:
            continue
        seen.add(id(v))
        if primitives.computed(v, "_root") is not None or primitives.computed(v, "_parent") is not None:
            continue
        if holder is not None and type(holder).__module__ == type(v).__module__:
            v._parent, v._root = holder, holder._root
        else:
            own_root = getattr(sys.modules[type(v).__module__], "ROOT", None) is type(v)
            v._parent, v._root = None, v if own_root else None
        for f in dataclasses.fields(v):  # fields, and the instances computed so far
            if not f.metadata.get("param"):
                todo.append((primitives.computed(v, f.name), v))


def decoded_files(schema: str):
    """(path, value) for each real file of `schema` that our module decodes (skips the test when
    the module cannot be had)."""
    module = files.our_module(schema)
    if isinstance(module, str):
        pytest.skip(module)
    for path in files.corpus().get(schema, []):
        try:
            yield path, module.decode(path.read_bytes())
        except primitives.DecodeError:
            continue


@pytest.mark.skipif(not runner.available() or not files.corpus(), reason="no gallery or real-file corpus")
@pytest.mark.parametrize("schema", LINKED)
def test_decoded_links_are_kaitais(schema):
    checked = parented = 0
    for path, value in decoded_files(schema):
        decoded = links(value)
        parented += sum(p is not None for _, p, _ in decoded)
        unlink(value)
        assert {p for _, p, _ in links(value)} == {None}, "unlink left a link"
        kaitai_links(value)
        assert decoded == links(value), path.name
        checked += 1
    assert checked, f"no file of {schema} decodes"
    assert parented, f"no structure of the files of {schema} has a parent"


@pytest.mark.skipif(not runner.available() or not files.corpus(), reason="no gallery or real-file corpus")
@pytest.mark.parametrize("schema", UNLINKED)
def test_no_link_is_kept_where_no_expression_reads_one(schema):
    checked = held = 0
    for path, value in decoded_files(schema):
        held += len(list(structures(value))) - 1  # structures held by another: Kaitai's would link them
        assert {link for _, p, r in links(value) for link in (p, r)} == {None}, path.name
        checked += 1
    assert checked, f"no file of {schema} decodes"
    assert held, f"no structure of the files of {schema} is held by another"
