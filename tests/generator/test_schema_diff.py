"""`logcodec diff OLD NEW` on folders of `.ksy` schemas (`generator/schema_diff.py`): this
repository's schemas against copies with one change each, judged wire-breaking or not, with the
golden vectors of OLD decoded under NEW; and a real pair from the repository's history."""

import shutil
import subprocess
from pathlib import Path

import pytest

from logcodec.cli import main

REPO = Path(__file__).resolve().parents[2]


def copy(folder: Path) -> Path:
    """TANK's schemas and the common ones they import, copied into `folder`."""
    for family in ("tank", "common"):
        shutil.copytree(REPO / "schemas" / family, folder / family)
    return folder


def run(capsys, old, new) -> tuple[int, list[str]]:
    code = main(["diff", str(old), str(new)])
    return code, capsys.readouterr().out.splitlines()


def edit(folder: Path, rel: str, old: str, new: str) -> None:
    path = folder / rel
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


INDEX = "tank/segment_index.ksy"
SAME_VECTORS = "vectors: tank/segment_index.ksy: 6 of 6 valid vectors of OLD decode to the same value under NEW"


@pytest.fixture
def pair(tmp_path):
    return copy(tmp_path / "old"), copy(tmp_path / "new")


def index_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if "segment_index" in line]


def test_the_same_schemas_have_no_change_and_every_vector_decodes_alike(capsys, pair):
    code, lines = run(capsys, *pair)
    assert code == 0
    assert [line for line in lines if not line.startswith("vectors: ")] == []
    assert SAME_VECTORS in lines
    assert all(" not compared" not in line and "(another value)" not in line for line in lines)


def test_a_field_retyped_breaks_the_wire_and_its_vectors(capsys, pair):
    old, new = pair
    edit(new, INDEX, "      - id: file_offset\n        type: u4", "      - id: file_offset\n        type: u8")
    code, lines = run(capsys, old, new)
    assert code == 1
    assert index_lines(lines)[0] == 'tank/segment_index.ksy:entry: seq[1] file_offset.type: "u4" -> "u8" (wire-breaking)'
    assert index_lines(lines)[1].startswith("vectors: tank/segment_index.ksy: ") and SAME_VECTORS not in lines
    assert any("no longer decodes" in line or "another value" in line for line in index_lines(lines)[2:])


def test_a_rename_breaks_no_wire_but_changes_the_values(capsys, pair):
    old, new = pair
    edit(new, INDEX, "      - id: file_offset\n", "      - id: ofs_bundle\n")
    code, lines = run(capsys, old, new)
    assert code == 0
    assert index_lines(lines)[0] == "tank/segment_index.ksy:entry: seq[1] ofs_bundle: renamed from file_offset"
    # the values' field names are the schema's: a vector's value now has another key
    assert any(line.endswith("(another value)") for line in index_lines(lines))


def test_documentation_changes_nothing(capsys, pair):
    old, new = pair
    edit(new, INDEX, "The sparse index of a segment", "The sparse index of one segment")
    code, lines = run(capsys, old, new)
    assert code == 0 and SAME_VECTORS in lines and index_lines(lines) == [SAME_VECTORS]


def test_whether_the_root_fills_its_input_is_read(capsys, pair):
    old, new = pair
    edit(new, INDEX, "  -lc-fills-input: true\n", "")
    code, lines = run(capsys, old, new)
    assert code == 1
    assert index_lines(lines)[0] == "tank/segment_index.ksy: meta.-lc-fills-input: true -> none (wire-breaking)"


def test_a_field_added_and_a_type_added(capsys, pair):
    old, new = pair
    edit(new, INDEX, "      - id: file_offset\n", "      - id: flags\n        type: u1\n        doc: New.\n      - id: file_offset\n")
    edit(new, INDEX, "types:\n", "types:\n  spare:\n    doc: Unused.\n    seq: []\n")
    code, lines = run(capsys, old, new)
    assert code == 1
    assert index_lines(lines)[:3] == ["tank/segment_index.ksy:entry: seq[1] flags: field added (wire-breaking)",
                                      "tank/segment_index.ksy:entry: seq[2] file_offset: moved from seq[1] (wire-breaking)",
                                      "tank/segment_index.ksy:spare: type added"]


def test_a_schema_that_is_not_yaml_is_named(capsys, pair):
    old, new = pair
    (new / INDEX).write_text("meta: [\n")
    assert main(["diff", str(old), str(new)]) == 1
    assert "new/tank/segment_index.ksy:2:1: is not YAML" in capsys.readouterr().err


def test_folders_of_two_kinds_are_a_usage_error(tmp_path, capsys):
    copy(tmp_path / "ksy")
    (tmp_path / "specs").mkdir()
    shutil.copy(REPO / "schemas" / "kafka" / "messages" / "FetchRequest.json", tmp_path / "specs")
    assert main(["diff", str(tmp_path / "ksy"), str(tmp_path / "specs")]) == 2
    assert "different kinds" in capsys.readouterr().err


def _history_has(commit: str) -> bool:
    try:
        return subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", commit], capture_output=True,
                              check=False).returncode == 0
    except OSError:
        return False


@pytest.mark.skipif(not _history_has("68d22af"), reason="no git history here")
def test_a_real_pair_from_the_history_changed_docs_only(tmp_path, capsys):
    """68d22af kept Kafka's negative lengths below -1 and wrote them back: the generator changed, the
    schemas only in their docs (and vectors were added). No wire change, every vector alike."""
    for side, commit in (("old", "68d22af^"), ("new", "68d22af")):
        (tmp_path / side).mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "schemas/tank", "schemas/common"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp_path / side)], input=archive, check=True)
    code, lines = run(capsys, tmp_path / "old" / "schemas", tmp_path / "new" / "schemas")
    assert code == 0
    assert [line for line in lines if not line.startswith("vectors: ")] == []
    assert any(line.startswith("vectors: tank/segment_index.ksy: 6 of 6") for line in lines)
