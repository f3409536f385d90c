"""Kaitai's format gallery, compiled and imported schema by schema (`runner.py`)."""
