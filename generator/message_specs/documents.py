"""Every folder of message specs under a schemas folder, as the `.ksy` documents the loader reads
beside the files (`Loader(documents=...)`): the second front end's way into the one model.

A folder `<family>/messages/` that holds Kafka's JSON message specs gives, for each request and
response, the schema `<family>/messages/<id>.ksy` (`to_ksy`), and the two frames that dispatch to
them, `<family>/request.ksy` and `<family>/response.ksy` (`frames`): the formats `<family>.request`
and `<family>.response`; and `<family>/messages/tagged_field.ksy`, the entry of a flexible
version's tagged fields, which they all import. A `records` field holds the root of `<family>/record_set.ksy` where the
family has one (Kafka's record set), else its bytes.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from .frames import MESSAGES, frame_schemas
from .reading import read_specs
from .to_ksy import TAGGED_FIELD, snake, tagged_field_schema, translate

#: The schema of a family whose root a `records` field holds.
RECORD_SET = "record_set"


def spec_folders(root: Path) -> list[Path]:
    """The folders of message specs under a schemas folder (`<family>/messages/` with `.json` files)."""
    return [d for d in sorted(Path(root).glob(f"*/{MESSAGES}")) if d.is_dir() and any(d.glob("*.json"))]


def shipped_family(root: Path) -> str | None:
    """The family whose message specs the schemas under `root` were made from (the one holding a
    `messages/` folder: the docs' copy has the translations there), which a folder of message
    specs compiled on its own is read as, so that its `records` fields find that family's record
    set; None when there is none."""
    families = sorted(d.parent.name for d in Path(root).glob(f"*/{MESSAGES}") if d.is_dir())
    return families[0] if families else None


def spec_documents(root: Path) -> dict[str, bytes]:
    """The `.ksy` text of every schema the message specs under `root` make, by the path each is
    read as (relative to `root`); SchemaError naming every problem of a spec folder."""
    out: dict[str, bytes] = {}
    for folder in spec_folders(root):
        has_record_set = (folder.parent / f"{RECORD_SET}.ksy").is_file()
        out.update(family_documents(folder, folder.parent.name, has_record_set))
    return out


def family_documents(folder: Path, family: str, has_record_set: bool) -> dict[str, bytes]:
    """The schemas one folder of message specs makes, read as the family `family`'s
    (`<family>/messages/<id>.ksy`, `<family>/request.ksy`, ...); a `records` field holds the root of
    `<family>/record_set.ksy` when `has_record_set`, else its bytes."""
    out: dict[str, bytes] = {}
    specs = read_specs(folder)
    record_set = f"../{RECORD_SET}" if has_record_set else None
    for spec in specs:
        if spec.kind in ("request", "response"):
            out[f"{family}/{MESSAGES}/{snake(spec.name)}.ksy"] = ksy_bytes(translate(spec, record_set))
    out[f"{family}/{MESSAGES}/{TAGGED_FIELD}.ksy"] = ksy_bytes(tagged_field_schema())
    for kind, doc in frame_schemas(specs).items():
        out[f"{family}/{kind}.ksy"] = ksy_bytes(doc)
    return out


def frame_rels(documents: dict[str, bytes]) -> list[str]:
    """The documents that are formats (the frames); the others are what they import."""
    return sorted(rel for rel in documents if rel.count("/") == 1)


def ksy_bytes(doc: dict) -> bytes:
    """A schema's YAML text, as a `.ksy` file would hold it."""
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100).encode()
