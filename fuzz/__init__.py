"""The fuzzing campaign of issue 11: mutants of the golden vectors and amplification inputs, run on
the compiled and the pure build in workers with time and memory limits.

Run ``python -m fuzz --help`` from the repository root; see ``fuzz/README.md``.
"""
