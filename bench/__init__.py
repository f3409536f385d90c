"""Throughput benchmarks of logcodec's generated codecs against third-party implementations.

Run ``python -m bench kafka`` from the repository root; see ``bench/README.md``.
"""
