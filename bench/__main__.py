"""``python -m bench <suite> [options]``; ``python -m bench kafka --help`` / ``kafka-protocol --help`` /
``tank --help`` / ``gallery --help`` for the options."""

import sys

SUITES = {"kafka": "bench.kafka", "kafka-protocol": "bench.kafka_protocol", "tank": "bench.tank", "pipeline": "bench.pipeline", "compile": "bench.compile",
          "inkless-postgres": "bench.inkless_postgres",
          "gallery": "bench.gallery"}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in SUITES:
        if argv and argv[0] not in ("-h", "--help"):
            print(f"unknown benchmark suite {argv[0]!r}", file=sys.stderr)
        print(f"usage: python -m bench {{{','.join(SUITES)}}} [options]   (see bench/README.md)", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    import importlib

    return importlib.import_module(SUITES[argv[0]]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
