"""`logcodec compile SPEC_FOLDER`: a folder of Kafka's JSON message specs in, the formats `request`
and `response` of that spec set out (each API's body, Kafka's record set), as `logcodec generate`
makes `kafka.request` and `kafka.response` from the specs in `schemas/kafka/messages/`: what a user
runs after a Kafka release. The specs are the repository's copy (`schemas/kafka/messages/`)."""

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.generator.test_compile import python_in, run

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "schemas" / "kafka" / "messages"
VECTORS = ROOT / "generated" / "vectors" / "kafka"
#: A spec set of a few APIs: what the frames need (the headers) and two APIs.
FEW = ("RequestHeader", "ResponseHeader", "ApiVersionsRequest", "ApiVersionsResponse", "MetadataRequest",
       "MetadataResponse")


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("specs")
    done = run("compile", str(SPECS), "-o", str(out), "--package", "mykafka")
    assert done.returncode == 0, done.stderr
    assert re.match(r".*mykafka: 18\d module\(s\)", done.stdout), done.stdout
    return out


def test_the_spec_folder_compiles_to_codecs_that_read_every_vector_as_the_shipped_formats(whole):
    """Every golden vector of kafka.request and kafka.response: the same value (or the same kind
    of error), and every valid one written back byte for byte."""
    got = python_in(whole, f"""\
        import json
        import logcodec
        from logcodec.runtime.values import to_json
        from mykafka import request, response
        checked, wrong = 0, []
        for name, module in (("request", request), ("response", response)):
            for group in json.load(open({str(VECTORS)!r} + "/" + name + ".json"))["testGroups"]:
                for t in group["tests"]:
                    data, params = bytes.fromhex(t["bytes"]), t.get("params", {{}})
                    checked += 1
                    try:
                        value = module.decode(data, **params)
                    except logcodec.DecodeError as exc:
                        if t["result"] != "invalid" or exc.kind != t["error"]:
                            wrong.append((t["tcId"], str(exc)))
                        continue
                    if t["result"] == "invalid" or to_json(value) != t["value"]:
                        wrong.append((t["tcId"], "value"))
                    elif module.encode(value, **params) != data:
                        wrong.append((t["tcId"], "encode"))
        print(checked, wrong)""")
    checked, wrong = got.split(" ", 1)
    assert int(checked) > 1600 and wrong.strip() == "[]"


def test_its_records_fields_hold_kafkas_record_set_compiled_alongside(whole):
    package = whole / "mykafka"
    assert {"record_set.py", "record_batch_v2.py", "message_set.py"} <= {p.name for p in package.iterdir()}
    assert "from mykafka.record_set import" in (package / "produce_request.py").read_text()


def test_a_spec_set_without_its_latest_versions_regenerates_codecs_that_refuse_them(tmp_path):
    """Kafka's spec set as it was before Metadata v12: the new codecs read a v11 request as the
    shipped ones do, and refuse a v12 one as a version the spec set does not have."""
    older = tmp_path / "message"
    older.mkdir()
    for name in FEW:
        text = (SPECS / f"{name}.json").read_text()
        if name.startswith("Metadata"):
            text = text.replace('"validVersions": "0-12"', '"validVersions": "0-11"')
        (older / f"{name}.json").write_text(text)
    done = run("compile", str(older), "-o", str(tmp_path / "out"), "--package", "older")
    assert done.returncode == 0, done.stderr
    frames = {t["tcId"].split("/")[-1]: t for g in json.loads((VECTORS / "request.json").read_text())["testGroups"]
              for t in g["tests"]}
    got = python_in(tmp_path / "out", f"""\
        import logcodec
        from older import request
        print(request.decode(bytes.fromhex({frames["metadata_request_v11_filled"]["bytes"]!r})).body.topics[0].name)
        try:
            request.decode(bytes.fromhex({frames["metadata_request_v12_filled"]["bytes"]!r}))
        except logcodec.DecodeError as exc:
            print(exc.kind, exc.offset, exc.path)""")
    assert got.split("\n")[:2] == ["kafka-python", "invalid_value 2 request.header.request_api_version"]


def test_a_broken_spec_is_one_line_naming_its_file_and_line(tmp_path):
    folder = tmp_path / "message"
    shutil.copytree(SPECS, folder, ignore=lambda _, names: [n for n in names if Path(n).stem not in FEW])
    spec = folder / "MetadataRequest.json"
    spec.write_text(spec.read_text().replace('"type": "uuid"', '"type": "uuid4"', 1))
    done = run("compile", str(folder), "-o", str(tmp_path / "out"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert re.search(r"MetadataRequest\.json:45:\d+: .*uuid4", done.stderr), done.stderr


def test_a_spec_folder_is_compiled_alone(tmp_path):
    done = run("compile", str(SPECS), str(ROOT / "schemas" / "kafka" / "record_set.ksy"), "-o", str(tmp_path))
    assert done.returncode == 1 and "compiled alone" in done.stderr
    done = run("compile", str(SPECS), "--vectors", "-o", str(tmp_path))
    assert done.returncode == 1 and "logcodec diff" in done.stderr


def test_compile_of_specs_is_the_code_generate_writes(whole):
    """The same codecs, but for where they live: a module of the spec set is generated/kafka's, its
    imports and format name in the user's package."""
    mine = (whole / "mykafka" / "metadata_response.py").read_text()
    shipped = (ROOT / "generated" / "kafka" / "messages" / "metadata_response.py").read_text()

    def placed(text: str) -> str:
        text = re.sub(r"^# Generated by logcodec from \S+", "#", text, flags=re.M)
        # its C companion's source names where it came from too, and the module names that source by hash
        text = re.sub(r'(_native\.companion\(globals\(\), "\w+", )"[0-9a-f]+"', r"\1", text)
        return re.sub(r"logcodec\.generated\.kafka\.(messages\.)?|mykafka\.|kafka\.(?=metadata_response\")", "", text)

    assert placed(mine) == placed(shipped)


def test_nothing_is_written_for_a_folder_of_no_specs(tmp_path):
    (tmp_path / "empty").mkdir()
    done = run("compile", str(tmp_path / "empty"), "-o", str(tmp_path / "out"))
    assert done.returncode == 2 and "is a directory" in done.stderr and not (tmp_path / "out").exists()

