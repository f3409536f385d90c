"""The Python back end: logcodec's codec modules from the IR (`emit.py`), with Kaitai's
expressions translated to Python and type-checked by Kaitai's rules (`translate.py`), and the
Jinja templates of a module and a value class (`templates/`)."""

from .emit import ModuleEmitter, primitive_of

__all__ = ["ModuleEmitter", "primitive_of"]
