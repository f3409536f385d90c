"""Kaitai Struct's language test suite as a yardstick for Kaitai-compatible Python code.

`python -m tests.kaitai_suite` compiles each of the suite's schemas with the
official compiler (npm `kaitai-struct-compiler`, Python target) and/or with
`logcodec compile`, parses the spec's input, and judges every `.kst` assert
with this package's own evaluator (`kexpr` parses Kaitai expressions,
`evaluator` evaluates them with Kaitai's semantics). See `runner` for the
options and outcomes, `official` and `logcodec_impl` for each adapter and
how the suite's exception names map to what each implementation raises.
The suite itself is not part of the repository: pass its folder (default
`../shared/corpus/kaitai_struct_tests`); the tests skip without it.
"""
