"""Kafka's JSON message language, a second front end: its specs read into their IR, every problem
placed (`reading.py`, `spec.py`). Issue 39 turns them into logcodec's model, for the formats
`kafka.request` and `kafka.response`."""

from .reading import SpecReader, read_specs
from .spec import FieldSpec, FieldType, MessageSpec, StructSpec, Versions

__all__ = ["FieldSpec", "FieldType", "MessageSpec", "SpecReader", "StructSpec", "Versions", "read_specs"]
