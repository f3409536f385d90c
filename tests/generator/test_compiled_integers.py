"""A compiled build reads fixed-width integers by shifts of their bytes (`shapes.int_at`: in a run
of fixed fields, alone, and in a short counted list of numbers), where the interpreted build
calls a struct: both builds of one schema must give the same values, and the same errors, on any
input. mypyc compiles a schema of every width, signedness and byte order here, and its values
and errors are held to the pure build's on random inputs and on every cut of one."""

import json
import os
import subprocess
import sys
import textwrap

from logcodec.generator.compile import compile_schemas

SCHEMA = """
meta:
  id: ints
  endian: be
doc: Integers of every width, signedness and byte order.
seq:
  - {id: flag, type: u1, doc: Whether the conditional fields are there.}
  - {id: a_u1, type: u1, doc: A big-endian run.}
  - {id: a_s1, type: s1, doc: In the run.}
  - {id: a_u2, type: u2, doc: In the run.}
  - {id: a_s2, type: s2, doc: In the run.}
  - {id: a_u4, type: u4, doc: In the run.}
  - {id: a_s4, type: s4, doc: In the run.}
  - {id: a_u8, type: u8, doc: In the run.}
  - {id: a_s8, type: s8, doc: In the run.}
  - {id: c_s8, type: s8, if: flag != 0, doc: Big-endian and alone.}
  - {id: b_u2, type: u2le, doc: A little-endian run.}
  - {id: b_s2, type: s2le, doc: In the run.}
  - {id: b_u4, type: u4le, doc: In the run.}
  - {id: b_s4, type: s4le, doc: In the run.}
  - {id: b_u8, type: u8le, doc: In the run.}
  - {id: b_s8, type: s8le, doc: In the run.}
  - {id: c_u4, type: u4le, if: flag != 0, doc: Little-endian and alone.}
  - {id: num_values, type: u1, doc: How many numbers each list holds.}
  - {id: words, type: s4, repeat: expr, repeat-expr: num_values, doc: Big-endian numbers.}
  - {id: longs, type: u8le, repeat: expr, repeat-expr: num_values, doc: Little-endian numbers.}
"""

READ_ALL = textwrap.dedent("""
    import json, random, sys
    import ints.ints as m
    from logcodec import DecodeError
    rng = random.Random(5)
    inputs = []
    for count in (0, 1, 3, 7, 8, 10, 30):  # below and above the short run's bound (SHORT_RUN)
        for flag in (0, 1):
            size = 1 + 30 + 8 * flag + 28 + 4 * flag + 1 + 12 * count
            for _ in range(20):
                data = bytearray(rng.getrandbits(8) for _ in range(size))
                data[0], data[size - 1 - 12 * count] = flag, count
                inputs.append(bytes(data))
    whole = inputs[-1]
    inputs += [whole[:cut] for cut in range(len(whole))]
    out = []
    for data in inputs:
        try:
            v = m.decode(data)
            out.append({k: getattr(v, k) for k in sorted(m.Ints.__dataclass_fields__)})
        except DecodeError as exc:
            out.append([exc.kind, exc.offset, exc.path, exc.detail])
    print(json.dumps({"native": m.NATIVE is not None, "values": out}))
""")


def test_the_compiled_build_reads_every_integer_as_the_pure_build(tmp_path):
    (tmp_path / "ints.ksy").write_text(SCHEMA)
    compile_schemas([tmp_path / "ints.ksy"], tmp_path / "out", "ints")
    env = {**os.environ, "LOGCODEC_NATIVE_DIR": str(tmp_path / "builds")}
    env.pop("LOGCODEC_PURE", None)
    build = textwrap.dedent(f"""
        from pathlib import Path
        from logcodec.runtime import native
        import ints.ints as m
        native.build(m, Path({str(tmp_path / "builds")!r}), log=lambda *a: None)
    """)
    subprocess.run([sys.executable, "-c", build], cwd=tmp_path / "out", env=env, check=True, capture_output=True)
    runs = {}
    for pure in (False, True):
        run_env = {**env, "LOGCODEC_PURE": "1"} if pure else env
        out = subprocess.run([sys.executable, "-c", READ_ALL], cwd=tmp_path / "out", env=run_env, check=True,
                             capture_output=True, text=True).stdout
        runs[pure] = json.loads(out)
    assert runs[False]["native"] and not runs[True]["native"]
    compiled, interpreted = runs[False]["values"], runs[True]["values"]
    assert compiled == interpreted
    assert sum(isinstance(v, dict) for v in compiled) >= 280  # the whole inputs decode
    assert sum(isinstance(v, list) and v[0] == "truncated" for v in compiled) > 100  # every cut is refused
