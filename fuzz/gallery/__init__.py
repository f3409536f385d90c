"""The differential campaign on Kaitai's format gallery (issue 37): inputs from random values of
each schema and from mutations of real files, decoded by the official compiler's Python parser
and by logcodec, compared leaf by leaf. ``python -m fuzz.gallery --help``; see fuzz/README.md.
"""
