"""`logcodec docs` without a browser: the decode API, its answers to bad input, and a crawl of
every link of the site, served and as files."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from logcodec.conformance.judge import formats_with_vectors

import logcodec
from logcodec import docserver

from .conftest import DOCS, ROOT, SMALL_LIMIT, vector_case, vectors


def post(base: str, body, raw: bytes | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else json.dumps(body).encode()
    req = urllib.request.Request(base + "api/decode", data=data, method="POST",
                                 headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


# ---------------------------------------------------------------- decoding


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_every_valid_vector_decodes_with_ranges_over_every_byte(base, fmt):
    """The API's value is the vector's; the ranges of the fields cover every byte of the input."""
    for group in vectors(fmt)["testGroups"]:
        for t in group["tests"]:
            if t["result"] != "valid" or not t["bytes"] or len(t["bytes"]) > 2 * SMALL_LIMIT:
                continue  # empty input gets a message (test_bad_input_gets_a_message)
            status, answer = post(base, {"format": fmt, "hex": t["bytes"], "params": t.get("params", {})})
            assert status == 200 and answer["error"] is None, (t["tcId"], answer)
            assert answer["value"] == t["value"], t["tcId"]
            size = len(t["bytes"]) // 2
            covered = bytearray(size)
            for path, r in answer["ranges"].items():
                if len(r) == 2:
                    assert 0 <= r[0] <= r[1] <= size, (t["tcId"], path, r)
                    covered[r[0]:r[1]] = b"\x01" * (r[1] - r[0])
                else:  # inside processed bytes: the outer field is a path of the answer
                    assert r[2] in answer["ranges"], (t["tcId"], path, r)
            assert all(covered), (t["tcId"], [i for i, c in enumerate(covered) if not c][:8])


def test_ranges_agree_with_the_hex_dump_of_the_docs():
    """The spans the live server computes (the installed trace variants) against the ones the docs'
    example shows (the trace variants `logcodec generate` rendered and loaded), field by field."""
    from logcodec import inspector as inspecting
    from tests.generator.test_docs import Tree, legend_rows

    inspector = inspecting.builtin()
    checked = 0
    for fmt in logcodec.formats():
        family, name = fmt.split(".")
        tree = Tree((DOCS / family / f"{name}.html").read_text())
        text = "".join(n if isinstance(n, str) else n.text() for n in tree.root.children)
        tc_id = re.search(r"golden vector (\S+) from", text)
        if not tc_id:
            continue
        t = vector_case(fmt, where=lambda t: str(t["tcId"]) == tc_id.group(1))
        ranges = inspector.decode(fmt, bytes.fromhex(t["bytes"]), params=t.get("params"))["ranges"]
        for path, offset, length, _ in legend_rows(tree):
            assert ranges.get(path, [None])[:2] == [int(offset), int(offset) + int(length)], (fmt, path)
            checked += 1
    assert checked > 100


def test_detects_the_format(base):
    batch = vector_case("kafka.record_batch_v2")
    status, answer = post(base, {"format": "auto", "hex": batch["bytes"]})
    assert status == 200 and answer["format"] == "kafka.record_batch_v2" and answer["detected"]
    assert {"kafka.record_set", "inkless.batch_block"} <= set(answer["candidates"])  # they hold batches too
    bundle = vector_case("tank.bundle", where=lambda t: len(t["value"]["messages"]) > 1)
    status, answer = post(base, {"hex": bundle["bytes"]})  # "format" left out: detect
    assert status == 200 and answer["format"] == "tank.bundle" and answer["value"] == bundle["value"]


def test_an_error_has_its_kind_offset_and_path(base):
    t = vector_case("kafka.record_batch_v2", "invalid", lambda t: t.get("error") == "checksum_mismatch")
    status, answer = post(base, {"format": "kafka.record_batch_v2", "hex": t["bytes"]})
    assert status == 200 and answer["value"] is None
    assert answer["error"]["kind"] == "checksum_mismatch" and answer["error"]["path"] == "record_batch_v2.crc"
    assert answer["error"]["offset"] == 17 and "stored" in answer["error"]["detail"]
    # What was decoded before the error, with its ranges: the stored CRC is there.
    before = answer["partial_value"]
    assert before["crc"] == int(answer["error"]["detail"].split()[1].rstrip(","), 16) and before["magic"] == 2
    assert answer["ranges"]["crc"] == [17, 21] and "records" not in before


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_a_truncated_vector_gives_the_bytes_of_the_field_where_they_ran_out(inspector, fmt):
    """Every truncated golden vector (cut at each field boundary): the field its error names has a
    range, within the input and holding the error's offset."""
    from logcodec.inspector import value_path

    cut = [t for g in vectors(fmt)["testGroups"] for t in g["tests"] if t.get("error") == "truncated" and t["bytes"]]
    for t in cut:
        answer = inspector.decode(fmt, bytes.fromhex(t["bytes"]), params=t.get("params"))
        path = value_path(answer["error"]["path"])
        assert answer["error"]["kind"] == "truncated" and path, t["tcId"]
        r = answer["ranges"][path]
        assert len(r) == 3 or r[0] <= r[1] <= len(t["bytes"]) // 2, (t["tcId"], path, r)
        if len(r) == 2 and answer["error"]["offset"] is not None:
            assert r[0] <= answer["error"]["offset"] <= r[1], (t["tcId"], path, r)  # (a varint's: where it ran out)


def test_an_error_deep_inside_keeps_the_entries_before_it(base):
    t = vector_case("kafka.record_set", "invalid", lambda t: ".entries[1]." in t.get("comment", "") or
                    t["tcId"] == "invalid/v1_crc_mismatch")
    status, answer = post(base, {"format": "kafka.record_set", "hex": t["bytes"]})
    assert status == 200 and answer["error"]["path"].startswith("record_set.entries[1].")
    entries = answer["partial_value"]["entries"]
    assert len(entries) == 2 and "crc" in json.dumps(entries[1])
    first = answer["ranges"]["entries[0]"]
    assert first[0] == 0 and answer["ranges"]["entries[1]"][0] == first[1]


def test_trailing_bytes_keep_the_value_and_a_stream_reports_its_partial_tail(base):
    t = vector_case("kafka.record_batch_v2")
    status, answer = post(base, {"format": "kafka.record_batch_v2", "hex": t["bytes"] + "00"})
    assert status == 200 and answer["value"] == t["value"]
    assert answer["error"]["kind"] == "trailing_bytes" and answer["error"]["offset"] == len(t["bytes"]) // 2
    status, answer = post(base, {"format": "kafka.record_batch_v2", "stream": True,
                                 "hex": t["bytes"] * 2 + t["bytes"][:30]})
    assert status == 200 and answer["error"] is None and answer["value"] == [t["value"]] * 2
    assert answer["partial"]["kind"] == "truncated" and answer["consumed"] == len(t["bytes"])
    assert answer["ranges"]["[1]"] == [len(t["bytes"]) // 2, len(t["bytes"])]


def at_path(value, path: str):
    """The part of a JSON value at a value path (`[0].records[1].key`)."""
    for name, index in re.findall(r"(\w+)|\[(\d+)\]", path):
        value = value[name] if name else value[int(index)]
    return value


def test_printable_text_is_utf8_that_prints():
    from logcodec.inspector import MAX_TEXT, printable_text

    assert printable_text(b"user-0") == "user-0"
    assert printable_text("é → ✓".encode()) == "é → ✓"
    assert printable_text(b"two\tlines\r\n") == "two\tlines\r\n"
    assert printable_text(b"\x00\x00") is None  # a control character
    assert printable_text(b"\xffuser") is None  # not UTF-8
    assert printable_text(b"") is None  # nothing to show
    assert printable_text(b"k" * 1000) == "k" * (MAX_TEXT - 1) + "…"


def test_bytes_fields_that_are_printable_text_come_with_it(base):
    """`texts` names bytes fields only (a text field is text already), each with the text its hex spells."""
    t = vector_case("kafka.record_batch_v2", where=lambda t: t["tcId"] == "third_party/kafka_python_gzip")
    answer = post(base, {"format": "kafka.record_batch_v2", "hex": t["bytes"]})[1]
    assert answer["texts"]["records[0].key"] == "key-0"  # 6b65792d30
    assert answer["texts"]["records[0].value"].startswith("value-0 value-0")
    binary = vector_case("kafka.record_batch_v2", where=lambda t: t["tcId"] == "basic/hundred_records")
    answer = post(base, {"format": "kafka.record_batch_v2", "hex": binary["bytes"]})[1]
    assert binary["value"]["records"][0]["value"] == "0000000000000000"
    assert "records[0].value" not in answer["texts"] and "records[1].value" not in answer["texts"]
    text_key = vector_case("kafka.record_batch_v2", where=lambda t: t["tcId"] == "headers/unicode_header_key")
    answer = post(base, {"format": "kafka.record_batch_v2", "hex": text_key["bytes"]})[1]
    assert text_key["value"]["records"][0]["headers"][0]["key"] == "clé-ключ-键"  # a str field
    assert "records[0].headers[0].key" not in answer["texts"] and answer["texts"]["records[0].headers[0].value"] == "ü"
    # In a stream, under each value's index; and each text is what its field's hex spells.
    answer = post(base, {"format": "kafka.record_batch_v2", "stream": True, "hex": t["bytes"] * 2})[1]
    assert answer["texts"]["[1].records[2].key"] == "key-2"
    for path, text in answer["texts"].items():
        assert bytes.fromhex(at_path(answer["value"], path)).decode() == text, path


def test_a_partial_trailing_entry_is_named(base):
    t = vector_case("kafka.record_set", where=lambda t: t["value"]["partial_entry"])
    status, answer = post(base, {"format": "kafka.record_set", "hex": t["bytes"]})
    assert status == 200 and answer["error"] is None and answer["partial_tails"] == ["partial_entry"]
    start, end = answer["ranges"]["partial_entry"]
    assert end == len(t["bytes"]) // 2 and end - start == len(t["value"]["partial_entry"]) // 2
    whole = vector_case("kafka.record_set", where=lambda t: not t["value"]["partial_entry"] and t["value"]["entries"])
    assert post(base, {"format": "kafka.record_set", "hex": whole["bytes"]})[1]["partial_tails"] == []


def test_base64_input(base):
    import base64

    t = vector_case("tank.segment_index")
    text = base64.b64encode(bytes.fromhex(t["bytes"])).decode()
    status, answer = post(base, {"format": "tank.segment_index", "base64": text})
    assert status == 200 and answer["value"] == t["value"]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("body, status, words", [
    ({"format": "kafka.record_batch_v2", "hex": "00 zz"}, 400, "not hex"),
    ({"format": "kafka.record_batch_v2", "hex": "abc"}, 400, "odd number"),
    ({"format": "kafka.record_batch_v2", "hex": "  "}, 400, "empty"),
    ({"format": "kafka.record_batch_v2", "base64": "@@@@"}, 400, "neither hex nor base64"),
    ({"format": "kafka.record_batch_v2"}, 400, "needs \"hex\""),
    ({"format": "no.such", "hex": "00"}, 404, "unknown format"),
    ({"format": 3, "hex": "00"}, 400, "format"),
    ({"format": "auto", "hex": "00", "stream": "yes"}, 400, "stream"),
    ({"format": "auto", "hex": ["00"]}, 400, "string"),
    ([1, 2], 400, "JSON object"),
    ({"format": "auto", "hex": "00" * (SMALL_LIMIT + 1)}, 413, "limit"),
    ({"format": "kafka.response", "hex": "00000007"}, 400, "needs the params api_key, api_version"),
    ({"format": "kafka.response", "hex": "00000007", "params": {"api_key": 3}}, 400, "needs the params api_version"),
    ({"format": "kafka.response", "hex": "00", "params": {"api_key": 3, "api_version": 1, "x": 1}}, 400,
     "has no param 'x'"),
    ({"format": "kafka.response", "hex": "00", "params": {"api_key": "3", "api_version": 1}}, 400, "an integer"),
    ({"format": "kafka.record_batch_v2", "hex": "00", "params": [1]}, 400, "must be an object"),
])
def test_bad_input_gets_a_message(base, body, status, words):
    got, answer = post(base, body)
    assert got == status and words in answer["message"], answer


def test_garbage_bodies_get_a_message(base):
    for raw in (b"{not json", b"\xff\xfe\x00", b"", b"[" * 100_000):
        status, answer = post(base, None, raw=raw)
        assert status == 400 and "not JSON" in answer["message"], raw


def test_a_body_over_the_limit_is_refused(base):
    status, answer = post(base, {"format": "auto", "hex": "00" * (2 * SMALL_LIMIT)})
    assert status == 413 and "limit" in answer["message"]
    # Without reading it: a client announcing a huge body gets the answer at once.
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.putrequest("POST", "/api/decode")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(10 << 30))
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 413 and "limit" in json.load(response)["message"]
    conn.close()


def test_every_input_that_decodes_nothing_still_gets_an_answer(base):
    """Random bytes and every prefix of a vector: an answer with an error, never a server error."""
    import random

    rng = random.Random(16)
    t = vector_case("kafka.record_set")
    inputs = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) for _ in range(20)]
    inputs += [bytes.fromhex(t["bytes"])[:n] for n in range(1, len(t["bytes"]) // 2, 7)]
    for data in inputs:
        for fmt in ("auto", "kafka.record_set", "tank.response"):
            status, answer = post(base, {"format": fmt, "hex": data.hex()})
            assert status == 200 and (answer["error"] or answer["partial"] or answer["value"] is not None)


def test_other_methods_and_paths(base):
    for method, path, status in (("GET", "api/decode", 405), ("PUT", "api/decode", 405), ("DELETE", "index.html", 405),
                                 ("GET", "api/nothing", 404), ("POST", "index.html", 404)):
        req = urllib.request.Request(base + path, method=method, data=b"{}" if method in ("PUT", "POST") else None)
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        assert err.value.code == status and "message" in json.load(err.value), (method, path)
    for path in ("../../pyproject.toml", "%2e%2e/%2e%2e/pyproject.toml", "vectors/../../schemas/kafka/record_batch_v2.ksy",
                 ".hidden", "kafka/"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(base + path, timeout=30)
        assert err.value.code == 404, path


def test_binds_loopback_only(site):
    server, _ = site
    assert server.server_address[0] == "127.0.0.1"
    import inspect

    assert "host" not in inspect.signature(docserver.make_server).parameters  # no way to ask for another


def test_the_built_in_formats_are_served_without_the_generator():
    """The decode page's ranges come from the trace modules installed with the codecs: serving and
    decoding every format (and detecting one) imports nothing of `logcodec.generator`, and no
    profiling hook is set."""
    script = r'''
import json, sys
import importlib.abc
class NoGenerator(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "logcodec.generator" or name.startswith("logcodec.generator."):
            raise ImportError("the docs imported the generator: " + name)
sys.meta_path.insert(0, NoGenerator())
import logcodec
from pathlib import Path
import logcodec.generated
from logcodec import docserver, inspector
from logcodec.conformance.judge import formats_with_vectors
docs = Path(logcodec.generated.__file__).resolve().parent / "docs"
vectors = Path(logcodec.generated.__file__).resolve().parent / "vectors"
app = docserver.DocsServer(docs, [inspector.builtin()])
answers = {}
for fmt in formats_with_vectors():
    family, name = fmt.split(".")
    test = next(t for g in json.loads((vectors / family / f"{name}.json").read_text())["testGroups"]
                for t in g["tests"] if t["result"] == "valid" and t["bytes"])
    answer = app.decode({"format": fmt, "hex": test["bytes"], "params": test.get("params", {})})
    answers[fmt] = (answer["error"], bool(answer["ranges"]), sys.getprofile() is None)
answers["auto"] = app.decode({"format": "auto", "hex": test["bytes"]})["format"]
print(json.dumps(answers))
'''
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout)
    assert answers.pop("auto") in logcodec.formats()
    assert answers == {fmt: [None, True, True] for fmt in formats_with_vectors()}


def test_the_server_writes_no_file(tmp_path):
    """`logcodec docs --schema`, asked to decode good and bad input, opens no file for writing
    (an audit hook watches every open of the process)."""
    schema = ROOT / "tests" / "generator" / "schemas" / "demo" / "feature_tour.ksy"
    script = r'''
import json, os, sys, threading, urllib.request, urllib.error
writes = []
def hook(event, args):
    if event == "open" and len(args) >= 3 and not isinstance(args[0], int):  # an fd: a pipe to a formatter, say
        path, mode, flags = args[0], args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
            writes.append(str(path))
sys.addaudithook(hook)
from pathlib import Path
import logcodec.generated
from logcodec import docserver, inspector
docs = Path(logcodec.generated.__file__).resolve().parent / "docs"
inspectors = [docserver.user_inspector(Path(sys.argv[1])), inspector.builtin()]
app = docserver.DocsServer(docs, inspectors, titles=docserver.titles_of(inspectors), max_bytes=4096, max_body=12288)
server, base = docserver.serve_in_thread(app)
for body in ({"format": "auto", "hex": sys.argv[2]}, {"format": "feature_tour", "hex": "4c43"}, {"hex": "zz"},
             {"hex": "00" * 5000}, {"format": "auto", "hex": "00"}):
    req = urllib.request.Request(base + "api/decode", data=json.dumps(body).encode(), method="POST")
    try:
        urllib.request.urlopen(req).read()
    except urllib.error.HTTPError as e:
        e.read()
urllib.request.urlopen(base + "index.html").read()
print(json.dumps(writes))
'''
    t = vector_case("kafka.record_batch_v2")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script, str(schema), t["bytes"]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == []
    assert list(tmp_path.iterdir()) == []


SENSOR_LOG = """
meta: {id: sensor_log, endian: be}
seq:
  - {id: magic, contents: "SLOG"}
  - {id: crc, type: u4, -lc-checksum: {algorithm: crc32c, from: num_readings}}
  - {id: num_readings, type: u2, -lc-count-of: readings}
  - {id: readings, type: reading, repeat: expr, repeat-expr: num_readings}
types:
  reading:
    seq:
      - {id: sensor, type: u1, enum: sensor_kind}
      - {id: len_name, type: u1, -lc-size-of: name}
      - {id: name, type: str, size: len_name, encoding: UTF-8}
      - {id: value, type: s4}
enums:
  sensor_kind: {1: temperature, 2: humidity}
"""


def test_a_users_schema_is_decoded_and_detected(tmp_path):
    """The README's own format, given as `logcodec docs --schema`: compiled in memory, decoded with
    its ranges, and found by detection."""
    from logcodec import inspector as inspecting

    (tmp_path / "sensor_log.ksy").write_text(SENSOR_LOG)
    user = docserver.user_inspector(tmp_path / "sensor_log.ksy")
    assert user.names() == ["sensor_log"]
    data = "534c4f472a04a6eb000101076b69746368656e000000d7"  # the README's example
    app = docserver.DocsServer(DOCS, [user, inspecting.builtin()], user_formats=user.names())
    answer = app.decode({"hex": data})
    assert answer["format"] == "sensor_log" and answer["error"] is None
    assert answer["value"]["readings"] == [{"sensor": "temperature", "len_name": 7, "name": "kitchen", "value": 215}]
    assert {k: v for k, v in answer["ranges"].items() if not k.startswith("readings[0].")} == {
        "magic": [0, 4], "crc": [4, 8], "num_readings": [8, 10], "readings": [10, 23], "readings[0]": [10, 23]}
    assert answer["ranges"]["readings[0].name"] == [12, 19] and answer["ranges"]["readings[0].value"] == [19, 23]
    broken = app.decode({"format": "sensor_log", "hex": data[:-2] + "00"})
    assert broken["error"]["kind"] == "checksum_mismatch" and broken["error"]["offset"] == 4


def test_the_command_serves_a_users_schema(tmp_path):
    """`logcodec docs --schema X.ksy --port 0`, as a user runs it: the address on the first line,
    the schema's format listed and decoded."""
    (tmp_path / "sensor_log.ksy").write_text(SENSOR_LOG)
    exe = Path(sys.executable).with_name("logcodec")
    server = subprocess.Popen([str(exe), "docs", "--schema", "sensor_log.ksy", "--port", "0", "--quiet"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line + (server.stderr.read() if server.poll() is not None else "")
        with urllib.request.urlopen(match.group(1) + "api/formats", timeout=30) as r:
            formats = json.load(r)["formats"]
        assert {"name": "sensor_log", "title": "sensor_log", "user": True, "params": []} in formats
        # The built-in formats, the user's, and those read with a second input (an Inkless object and
        # its metadata, a client's bytes and the broker's).
        assert sorted(f["name"] for f in formats) == sorted([*logcodec.formats(), "sensor_log",
                                                             "inkless.block_with_metadata", "kafka.conversation"])
        status, answer = post(match.group(1), {"hex": "534c4f472a04a6eb000101076b69746368656e000000d7"})
        assert status == 200 and answer["format"] == "sensor_log" and answer["ranges"]["crc"] == [4, 8]
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sensor_log.ksy"]


# ---------------------------------------------------------------- links


class Links(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.links, self.ids = [], set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if key in a and a[key] is not None and not (tag == "a" and key == "src"):
                self.links.append(a[key])


def crawl(start: str, fetch) -> tuple[int, list[str]]:
    """Follow every link of the site from `start`; returns (documents seen, broken links)."""
    seen, todo, broken, pages = set(), [start], [], {}
    while todo:
        url = todo.pop()
        doc = url.split("#")[0]
        if doc in seen:
            continue
        seen.add(doc)
        text = fetch(doc)
        if text is None:
            broken.append(doc)
            continue
        if doc.endswith(".html") or doc.endswith("/"):
            parsed = Links(text)
            pages[doc] = parsed
            for link in parsed.links:
                if link.startswith(("http://", "https://", "mailto:", "data:")):
                    continue
                todo.append(urljoin(doc, link))
    for doc, parsed in pages.items():  # fragments name an element of their page
        for link in parsed.links:
            if "#" not in link or link.startswith(("http://", "https://")):
                continue
            target, frag = urljoin(doc, link).split("#", 1)
            if target in pages and "=" not in frag and frag not in pages[target].ids:
                broken.append(f"{doc} -> {link}")
    return len(seen), broken


def test_crawl_the_served_site(base):
    def fetch(url):
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                return r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError:
            return None

    seen, broken = crawl(base + "index.html", fetch)
    assert broken == [] and seen > 30


def test_crawl_the_files():
    def fetch(url):
        path = Path(urlsplit(url).path)
        return path.read_text() if path.is_file() else None

    seen, broken = crawl((DOCS / "index.html").as_uri(), fetch)
    assert broken == [] and seen > 30
