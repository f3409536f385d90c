"""Coverage-guided mode: atheris (libFuzzer for Python) on the pure build, seeded with the vectors.

Runs in a child process (``python -m fuzz.coverage``) because libFuzzer exits the process on a crash
and takes over argv. The target decodes with every selected format, read with each set of root
params its vectors have (a Kafka response's API): the first two input bytes pick a format and its
params. Anything but a DecodeError is a crash, which atheris saves as ``crash-*`` in the run
folder. Skipped with a message when atheris is not installed (``pip install -e '.[fuzz]'``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(format_names: list[str], seconds: float, seed: int, out: Path, memory_mb: int) -> int:
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("atheris is not installed (pip install -e '.[fuzz]'); coverage-guided mode skipped")
        return 0
    run_dir = out / time.strftime(f"%Y%m%d-%H%M%S-atheris-seed{seed}")
    corpus = run_dir / "corpus"
    corpus.mkdir(parents=True)
    from fuzz.seeds import load_seeds

    seeds = [s for name in format_names for s in load_seeds(name)]
    targets = sorted({(s.format, s.params) for s in seeds})  # (format, its root params)
    for s in seeds:
        index = targets.index((s.format, s.params)).to_bytes(2, "big")
        (corpus / f"{s.format}-{s.id.replace('/', '_')}").write_bytes(index + s.data)
    env = dict(os.environ, LOGCODEC_PURE="1", FUZZ_TARGETS=json.dumps(targets),
               PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    cmd = [sys.executable, "-m", "fuzz.coverage", f"-max_total_time={int(seconds)}", f"-seed={seed}",
           f"-rss_limit_mb={memory_mb}", "-timeout=10", f"-artifact_prefix={run_dir}/", str(corpus)]
    print("running:", " ".join(cmd))
    proc = subprocess.run(cmd, cwd=ROOT, env=env)
    crashes = sorted(run_dir.glob("crash-*")) + sorted(run_dir.glob("timeout-*")) + sorted(run_dir.glob("oom-*"))
    print(f"atheris: exit {proc.returncode}; {len(crashes)} artifact(s) in {run_dir}")
    return 1 if crashes else 0


def _target():
    import atheris

    with atheris.instrument_imports():
        import logcodec
        for name in logcodec.formats():
            logcodec.codec(name)
    targets = [(name, dict(params)) for name, params in json.loads(os.environ["FUZZ_TARGETS"])]

    def test_one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        name, params = targets[int.from_bytes(data[:2], "big") % len(targets)]
        try:
            logcodec.decode(name, data[2:], lazy=False, **params)
        except logcodec.DecodeError as err:
            if err.offset is None or not 0 <= err.offset <= len(data) - 2:
                raise AssertionError(f"offset outside the input: {err}") from None

    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    _target()
