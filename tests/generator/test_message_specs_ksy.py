"""The second front end's translation (`generator/message_specs/to_ksy.py`, `frames.py`,
`documents.py`): every request and response of Kafka's specs becomes a `.ksy` schema that the
passes take under the house rules and the official Kaitai compiler compiles too, and the
primitive of their compact lengths (`biased_uvarint`) reads and writes as it says."""

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from logcodec.generator import kaitai
from logcodec.generator.message_specs import read_specs
from logcodec.generator.message_specs.documents import frame_rels, spec_documents
from logcodec.generator.message_specs.to_ksy import snake
from logcodec.generator.problems import SchemaError
from logcodec.generator.reading import load_all

from logcodec.runtime.errors import DecodeError, EncodeError
from tests.generator.tiny_schemas import compiled

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"


@pytest.fixture(scope="module")
def documents():
    return spec_documents(SCHEMAS)


def test_every_request_and_response_is_a_schema_and_the_frames_import_them(documents):
    specs = read_specs(SCHEMAS / "kafka" / "messages")
    bodies = {f"kafka/messages/{snake(s.name)}.ksy" for s in specs if s.kind in ("request", "response")}
    assert set(documents) == bodies | {"kafka/request.ksy", "kafka/response.ksy", "kafka/messages/tagged_field.ksy"}
    assert frame_rels(documents) == ["kafka/request.ksy", "kafka/response.ksy"]
    formats = {s.format_name: s for s in load_all(SCHEMAS)}  # the house rules hold: a doc on every field
    request, response = formats["kafka.request"], formats["kafka.response"]
    # and each the two primitives and the tagged field's schema
    assert len(request.imports) + len(response.imports) == len(bodies) + 6
    assert {s.folder for s in request.imports if not s.root.primitive} == {"kafka/messages"}
    assert not any(s.is_format for s in request.imports if not s.root.primitive)


def test_the_official_compiler_compiles_every_translation(documents):
    """The official Kaitai compiler reads the translations as it reads any schema (it found a
    rule of the translation's that logcodec's passes had let through: `valid` on a varint type
    reads its `.value`)."""
    try:
        node = kaitai._node()
    except SchemaError as exc:
        pytest.skip(str(exc))
    files = {p.relative_to(SCHEMAS).as_posix(): yaml.safe_load(p.read_text()) for p in SCHEMAS.rglob("*.ksy")}
    files.update({rel: yaml.safe_load(text) for rel, text in documents.items()})
    main = [rel for rel in documents if rel.startswith("kafka/messages/")]
    request = {"target": "python", "debug": False, "files": files, "main": main}
    proc = subprocess.run([node, str(kaitai.COMPILE_JS)], input=json.dumps(request), capture_output=True, text=True, check=False,
                          cwd=kaitai.COMPILE_JS.parent.parent.parent, timeout=600)
    answer = json.loads(proc.stdout)
    assert answer["ok"], answer.get("errors")
    assert {f"{Path(rel).stem}.py" for rel in main} <= set(answer["outputs"])


BIASED = """
meta:
  id: biased
  endian: be
  imports: [common/biased_uvarint]
seq:
  - id: len_name
    type: biased_uvarint(32)
    -lc-size-of: name
    -lc-absent: -1
  - id: name
    type: str
    encoding: UTF-8
    size: len_name.value
    if: len_name.value >= 0
"""


def test_a_biased_varint_holds_its_value_plus_one(tmp_path):
    common = {"common/biased_uvarint.ksy": (SCHEMAS / "common" / "biased_uvarint.ksy").read_text()}
    _, m = compiled(tmp_path, BIASED, "biased", common)
    assert (m.decode(b"\x00").name, m.decode(b"\x00").len_name) == (None, -1)
    assert m.decode(b"\x01").name == "" and m.decode(b"\x04abc").name == "abc"
    long = "x" * 200
    assert m.decode(b"\xc9\x01" + long.encode()).name == long  # 201 = 0xc9 0x01
    assert m.encode(m.Biased(name=None)) == b"\x00" and m.encode(m.Biased(name="abc")) == b"\x04abc"
    assert m.encode(m.Biased(name=long)) == b"\xc9\x01" + long.encode()
    for bad in (b"\x80\x00", b"\xff\xff\xff\xff\x7f"):  # overlong; past 32 bits
        with pytest.raises(DecodeError):
            m.decode(bad)
    with pytest.raises(EncodeError):
        m.encode(m.Biased(len_name=-2, name=None))
