"""A check vector's `file:` input (generator/checks.py): the bytes of a file under the definition's
folder, mutated like any input; a path that leaves the folder is the definition's error."""

from __future__ import annotations

import pytest
from logcodec.generator.checks import CheckBuilder
from logcodec.generator.problems import SchemaError

SPEC = {"checker": "kafka.conversation", "inputs": ["requests", "responses"], "tests": []}


def builder(folder):
    return CheckBuilder(SPEC, "schemas/x/y.checks.yaml", {}, folder)


def test_a_file_under_the_folder_is_read_and_mutated(tmp_path):
    (tmp_path / "captures").mkdir()
    (tmp_path / "captures" / "a.bin").write_bytes(bytes(range(8)))
    b = builder(tmp_path)
    assert b.input_bytes("t", "requests", {"file": "captures/a.bin"}) == bytes(range(8))
    assert b.input_bytes("t", "requests", {"file": "captures/a.bin", "truncate": 3,
                                           "patch": [{"offset": 0, "hex": "ff"}]}) == b"\xff\x01\x02"


@pytest.mark.parametrize("name", ["../outside.bin", "/etc/hostname", "captures/../../outside.bin", "missing.bin", 7])
def test_a_path_outside_the_folder_or_no_file_is_the_definitions_error(tmp_path, name):
    (tmp_path.parent / "outside.bin").write_bytes(b"x")
    with pytest.raises(SchemaError, match=r"schemas/x/y.checks.yaml: t: input 'requests': file"):
        builder(tmp_path).input_bytes("t", "requests", {"file": name})
