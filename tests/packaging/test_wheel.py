"""The installed package is whole: a wheel built from this tree, installed into a fresh virtual
environment, works from a folder outside the repository.

One wheel is built for the module (a copy of the tree, so no old `build/` folder leaks into it),
with the compiled codecs when a C compiler is there (setup.py), and installed with its
dependencies from the package index (pip's cache makes that quick). Every command runs in a
temporary folder with a clean environment: the repository is not on the path, and the
compiled-build cache is an empty folder, so only what the wheel ships is used.

Slow (a wheel build with mypyc takes minutes): `-m "not packaging"` leaves it out.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from tests.packaging.installed import DEMO, REPO, compiler_present

pytestmark = pytest.mark.packaging

def test_the_installed_package_is_used_not_the_checkout(installed):
    where = installed.python("import logcodec; print(logcodec.__file__)").stdout.strip()
    assert Path(where).is_relative_to(installed.venv), where
    assert not Path(where).is_relative_to(REPO)


def test_a_vector_of_every_format_decodes(installed):
    script = """
import json, pathlib, logcodec, logcodec.generated
vectors = pathlib.Path(logcodec.generated.__file__).parent / "vectors"
out = {}
for fmt in logcodec.formats():
    family, name = fmt.split(".", 1)
    test = None
    if (vectors / family / f"{name}.json").exists():  # (tests/laws/test_laws.py names those without)
        doc = json.loads((vectors / family / f"{name}.json").read_text())
        test = next(t for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid")
        value = logcodec.decode(fmt, bytes.fromhex(test["bytes"]), **test.get("params", {}))
        assert logcodec.to_json(value) == test["value"], (fmt, test["tcId"])
    fast = getattr(logcodec.codec(fmt), "_FAST", None)  # a C companion, where the module has one
    helper = getattr(getattr(logcodec.codec(fmt), "_untracked", None), "__self__", None)  # runtime/untracked.c
    out[fmt] = {"tcId": test and test["tcId"], "native": logcodec.codec(fmt).NATIVE, "fast": fast and fast.__file__,
                "untracked": helper and helper.__file__}
print(json.dumps(out))
"""
    result = json.loads(installed.python(script).stdout)
    formats = json.loads(installed.python(
        "import json, logcodec.generated; print(json.dumps(sorted(logcodec.generated.FORMATS)))").stdout)
    assert sorted(result) == formats and len(formats) >= 10
    assert {f.split(".")[0] for f in formats} >= {"kafka", "tank", "inkless"}
    native = {fmt: r["native"] for fmt, r in result.items()}
    if compiler_present():  # the wheel carries compiled codecs, found inside the package
        assert not installed.wheel.name.endswith("-none-any.whl"), installed.wheel.name  # a platform wheel
        for fmt, path in native.items():
            assert path and Path(path).is_relative_to(installed.venv) and "/logcodec/_native/" in path, (fmt, path)
        fast = result["kafka.record_batch_v2"]["fast"]
        assert fast and Path(fast).is_relative_to(installed.venv) and "/logcodec/_native/" in fast, fast
        for fmt, r in result.items():  # the runtime's C helper, which each compiled decoder calls
            assert r["untracked"] and "/logcodec/_native/_lcn_untracked_fast_" in r["untracked"], (fmt, r)
    else:
        assert all(path is None for path in native.values()), native
        assert installed.wheel.name.endswith("-py3-none-any.whl")


def test_the_package_data_is_installed(installed):
    script = """
import json, pathlib, logcodec.conformance, logcodec.generated, logcodec.generator
conf = pathlib.Path(logcodec.conformance.__file__).parent
gen = pathlib.Path(logcodec.generated.__file__).parent
print(json.dumps({
    "protocol": (conf / "PROTOCOL.md").is_file(), "schema": (conf / "protocol.schema.json").is_file(),
    "expected": sorted(p.stem for p in (conf / "expected").glob("*.yaml")),
    "kafkajs": (conf / "testees" / "kafkajs" / "testee.js").is_file(),
    "json_schemas": len(list((gen / "schema").rglob("*.json"))),
    # each back end's templates, and the official compiler's driver
    "templates": {name: len(list((pathlib.Path(logcodec.generator.__file__).parent / name / "templates").iterdir()))
                  for name in ("python", "construct", "docs")},
    "compile_js": (pathlib.Path(logcodec.generator.__file__).parent / "kaitai" / "compile.js").is_file(),
    # Kafka's message specs, where the kafkajs testee looks for them (its specs.js: three folders up)
    "specs": sorted(p.name for p in (conf / "testees" / "kafkajs" / ".." / ".." / ".." / "schemas" / "kafka"
                                      / "messages").iterdir() if p.suffix != ".json"),
    "n_specs": len(list((conf.parent / "schemas" / "kafka" / "messages").glob("*Request.json"))),
    "ksy": len(list((conf.parent / "schemas").rglob("*.ksy"))),
    # the captures of real traffic that kafka.conversation's check vectors read (`file:`)
    "captures": sorted(p.relative_to(conf.parent / "schemas").as_posix()
                       for p in (conf.parent / "schemas" / "kafka" / "captures").rglob("*") if p.is_file()),
}))
"""
    found = json.loads(installed.python(script).stdout)
    assert found["protocol"] and found["schema"] and found["kafkajs"]
    shipped = json.loads(installed.python(
        "import json; from logcodec.conformance.impls import SHIPPED; print(json.dumps(sorted(SHIPPED)))").stdout)
    assert found["expected"] == shipped
    assert found["json_schemas"] >= 10 and found["compile_js"]
    specs = REPO / "schemas" / "kafka" / "messages"
    assert found["specs"] == ["LICENSE", "NOTICE", "README.md", "SOURCE.md"]
    captures = REPO / "schemas" / "kafka" / "captures"
    assert found["captures"] == sorted(p.relative_to(REPO / "schemas").as_posix() for p in captures.rglob("*")
                                       if p.is_file())
    assert found["n_specs"] == len(list(specs.glob("*Request.json"))) == 88
    assert found["ksy"] >= 15
    assert found["templates"]["docs"] >= 5 and found["templates"]["python"] >= 1 and found["templates"]["construct"] >= 1


def test_the_shipped_testees_whose_runtimes_are_present_run(installed):
    missing = json.loads(installed.python(
        "import json; from logcodec.conformance.impls import SHIPPED; "
        "print(json.dumps({n: s.missing() for n, s in SHIPPED.items()}))").stdout)
    listed = installed.logcodec("conformance", "list").stdout
    for name, why in missing.items():  # `list` says ready exactly when the testee can run
        assert re.search(rf"^{re.escape(name)}\s.*\n\s+{'ready' if why is None else 'unavailable'}", listed, re.M), listed
    ready = [name for name, why in missing.items() if why is None]
    assert {"logcodec", "kaitai", "kafka-python"} <= set(ready), missing
    for name in ready:
        report = installed.work / f"{name}.jsonl"
        proc = installed.logcodec("conformance", "run", "--impl", name, "--quiet", "--json", str(report), check=False)
        assert proc.returncode == 0, f"{name}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        lines = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
        assert not lines[0]["gave_up"], name
        outcomes = [line["outcome"] for line in lines if line["type"] == "case"]
        assert outcomes and "not_run" not in outcomes and "crash" not in outcomes, name
        assert outcomes.count("pass") > 0, name


def test_the_docs_are_served(installed):
    server = subprocess.Popen([str(installed.bin / "logcodec"), "docs", "--port", "0"], cwd=installed.work,
                              env=installed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line + server.stderr.read() if server.poll() is not None else line
        assert Path(line.split()[1]).is_relative_to(installed.venv), line
        for page in ("index.html", "kafka/record_batch_v2.html", "inkless/batch_block.html",
                     "conformance/protocol.html", "conformance/results.html"):
            with urllib.request.urlopen(match.group(1) + page, timeout=30) as response:
                assert response.status == 200 and b"<html" in response.read().lower(), page
        # Live decoding works installed: the field layout comes from the schema copies in the docs.
        vector = json.loads((REPO / "generated" / "vectors" / "kafka" / "record_batch_v2.json").read_text())
        test = next(t for g in vector["testGroups"] for t in g["tests"] if t["result"] == "valid")
        request = urllib.request.Request(match.group(1) + "api/decode", method="POST",
                                         data=json.dumps({"format": "auto", "hex": test["bytes"]}).encode())
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.load(response)
        assert answer["format"] == "kafka.record_batch_v2" and answer["value"] == test["value"], answer
        assert answer["ranges"]["crc"] == [17, 21]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_schema_compiles_and_imports(installed):
    if installed.logcodec("compile", "--help", check=False).returncode != 0:
        pytest.skip("this build has no `logcodec compile` command")
    for schema in DEMO.glob("feature_tour.ksy"):
        shutil.copy(schema, installed.work / schema.name)
    installed.logcodec("compile", "feature_tour.ksy", "-o", "out", "--package", "demo")
    script = """
import sys; sys.path.insert(0, "out")
import demo.feature_tour as m
assert callable(m.decode) and callable(m.encode) and m.ROOT is not None
print(m.__file__)
"""
    where = installed.python(script).stdout.strip()
    assert Path(where).is_relative_to(installed.work), where
