"""The Python back end: logcodec's codec modules from the model (`emit.py`), with Kaitai's
expressions translated to Python (`translate.py`; their types and Kaitai's type rules come from
`generator.types`), and the Jinja templates of a module and a value class (`templates/`)."""

from .emit import ModuleEmitter

__all__ = ["ModuleEmitter"]
