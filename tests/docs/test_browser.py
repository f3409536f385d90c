"""The docs in a real browser: headless Chromium through selenium (see conftest.py).

Each test takes a few seconds; they are skipped, with the reason, where Chromium, its driver or
selenium is missing (`.ci/run` installs them)."""

from __future__ import annotations

import json

import pytest

import logcodec

from .conftest import DOCS, SMALL_LIMIT, vector_case

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

PAGES = (["index.html", "decode.html", "conformance/protocol.html", "conformance/results.html"]
         + [f"{f.replace('.', '/')}.html" for f in logcodec.formats()])
#: The format pages with a hex dump: those of the formats with golden vectors (Kafka's protocol
#: frames have none yet).
DUMPED = {f"{f.replace('.', '/')}.html" for f in logcodec.formats() if (DOCS.parent / "vectors" / f"{f.replace('.', '/')}.json").is_file()}


@pytest.fixture(autouse=True)
def fresh_log(browser):
    """Each test reads only its own browser log: the session's browser keeps what earlier tests
    logged (a refused input, a page opened as a file), and tests run in any order (pytest-xdist)."""
    browser.get_log("browser")


def wait(browser, condition, timeout: float = 10):
    return WebDriverWait(browser, timeout).until(lambda d: condition(d))


def severe_logs(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def open_decode(browser, base, fmt: str, hex_text: str):
    """Paste `hex_text` into the decode page, pick the format and decode; returns when the answer is shown."""
    browser.get(base + "decode.html")
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "online")
    browser.execute_script("document.getElementById('input').value = arguments[0];"
                           "document.getElementById('format').value = arguments[1];", hex_text, fmt)
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda d: not d.find_element(By.ID, "result").get_attribute("hidden")
         or not d.find_element(By.ID, "error").get_attribute("hidden"))


@pytest.mark.parametrize("page", PAGES)
def test_each_page_loads_and_fits_1400px(browser, base, page):
    browser.get(base + page)
    assert browser.find_element(By.TAG_NAME, "h1").text
    assert browser.execute_script("return window.innerWidth") <= 1400
    # Nothing wider than the window: wide content scrolls inside its own box.
    assert browser.execute_script("return document.documentElement.scrollWidth") <= \
        browser.execute_script("return window.innerWidth"), page
    tables = browser.execute_script(
        "return [...document.querySelectorAll('table')].filter(t => !t.closest('.scroll'))"
        ".map(t => t.getBoundingClientRect().right)")
    assert all(right <= 1400 for right in tables), page
    if page.count("/") == 1 and not page.startswith("conformance"):  # a format page
        svg = browser.find_element(By.CSS_SELECTOR, "#diagram ~ .diagram-box svg.diagram")
        assert svg.find_elements(By.CSS_SELECTOR, "g.dg-box")  # a box per type
    if page in DUMPED:
        # Its hex dump boxes each field: a byte that starts a field stands apart from the one before.
        gaps = browser.execute_script(
            "return [...document.querySelectorAll('table.hexdump .hex span.fs')].slice(1, 40)"
            ".map(s => parseFloat(getComputedStyle(s).marginLeft))")
        assert gaps and min(gaps) > 0, page
    assert severe_logs(browser) == [], page


# Where the text of an element wraps: for each line after the first, the characters before and
# after the break (each character's box, through a Range, tells its line).
LINE_BREAKS = """
const el = arguments[0], breaks = [];
const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
let top = null, before = '';
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  for (let i = 0; i < node.length; i++) {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    const y = range.getBoundingClientRect().top;
    if (top !== null && y > top + 2) breaks.push(before + '|' + node.data[i]);
    top = y; before = node.data[i];
  }
}
return breaks;
"""


def test_the_index_breaks_no_format_name_inside_a_word(browser, base):
    """A format's name may wrap after a dot or an underscore at most (`inkless.b / atch_bloc / k` was shown)."""
    browser.get(base + "index.html")
    names = browser.find_elements(By.CSS_SELECTOR, "#formats tbody td:first-child code")
    assert len(names) == len(logcodec.formats())
    for name in names:
        breaks = browser.execute_script(LINE_BREAKS, name)
        assert all(b[0] in "._" for b in breaks), (name.text, breaks)


FORMAT_PAGES = [f"{f.replace('.', '/')}.html" for f in logcodec.formats()]

# Each arrow of the structure diagram sampled every pixel along its length: the points that lie
# inside a box (by more than a quarter pixel: an arrow's ends lie on a box's edge, rounded to a
# tenth), and the labels whose text covers a box.
DIAGRAM_GEOMETRY = """
const svg = document.querySelector('svg.diagram'), holder = svg.closest('.diagram-box');
const boxes = [...svg.querySelectorAll('g.dg-box')].map(g => {
  const r = g.querySelector(':scope > rect');
  return {name: g.querySelector('.dg-name').textContent, x: +r.getAttribute('x'), y: +r.getAttribute('y'),
          w: +r.getAttribute('width'), h: +r.getAttribute('height')};
});
const inside = (x, y, b, m) => x > b.x + m && x < b.x + b.w - m && y > b.y + m && y < b.y + b.h - m;
const crossings = [];
for (const [k, path] of [...svg.querySelectorAll('path.dg-edge')].entries()) {
  const length = path.getTotalLength();
  for (let s = 0; s <= length; s += 1) {
    const p = path.getPointAtLength(s);
    for (const b of boxes) if (inside(p.x, p.y, b, 0.25)) crossings.push(`arrow ${k} crosses ${b.name} at ${p.x},${p.y}`);
  }
}
const covered = [];
for (const label of svg.querySelectorAll('text.dg-label')) {
  const t = label.getBBox();
  for (const b of boxes) {
    if (t.x < b.x + b.w && t.x + t.width > b.x && t.y < b.y + b.h && t.y + t.height > b.y) {
      covered.push(`label ${label.textContent} covers ${b.name}`);
    }
  }
}
return {svg: svg.getBoundingClientRect().width, room: holder.clientWidth, scrolls: holder.scrollWidth > holder.clientWidth,
        boxes: boxes.length, arrows: svg.querySelectorAll('path.dg-edge').length, crossings: [...new Set(crossings.map(c => c.split(' at ')[0]))],
        covered};
"""


@pytest.mark.parametrize("page", FORMAT_PAGES)
def test_structure_diagram_fits_the_page_and_no_arrow_crosses_a_box(browser, base, page):
    """At 1,400 px the diagram is no wider than its box (no sideways scrolling), and no arrow or
    label runs over a box."""
    browser.get(base + page)
    got = browser.execute_script(DIAGRAM_GEOMETRY)
    # every format of more than one type has a type that holds another (kafka.frame has one type)
    assert got["arrows"] > 0 or got["boxes"] == 1, (page, got["boxes"])
    assert got["svg"] <= got["room"] and not got["scrolls"], (page, got["svg"], got["room"])
    assert got["crossings"] == [], page
    assert got["covered"] == [], page


def test_conformance_matrix_fits_1400px(browser, base):
    browser.get(base + "conformance/results.html")
    table = browser.find_element(By.CSS_SELECTOR, "table.matrix")
    box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", table)
    assert box[1] <= 1400 and box[1] - box[0] < 1400
    # Every format has its two rows, every shipped testee a column.
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 2 * len(logcodec.formats())
    heads = table.find_elements(By.CSS_SELECTOR, "thead tr:last-child th")
    assert len(heads) == len(list((DOCS.parents[1] / "conformance" / "results").glob("*.json")))
    # The reference (logcodec, whose output the vectors are) under its own heading, left of the judged ones.
    reference, judged = table.find_elements(By.CSS_SELECTOR, "thead tr.groups th")[2:]
    assert reference.text.startswith("Reference") and judged.text == "Judged implementations"
    edge = browser.execute_script("return arguments[0].getBoundingClientRect().right", reference)
    assert heads[0].text.startswith("logcodec") and edge <= browser.execute_script(
        "return arguments[0].getBoundingClientRect().left", judged) <= browser.execute_script(
        "return arguments[0].getBoundingClientRect().left", heads[1])


def test_pasting_a_golden_vector_shows_its_tree(browser, base):
    t = vector_case("kafka.record_batch_v2", where=lambda t: any(r["headers"] for r in t["value"]["records"]))
    open_decode(browser, base, "kafka.record_batch_v2", t["bytes"])
    assert browser.find_element(By.ID, "error").get_attribute("hidden")
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("kafka.record_batch_v2") and f"{len(t['bytes']) // 2} bytes" in status
    lines = {el.get_attribute("data-path"): el for el in browser.find_elements(By.CSS_SELECTOR, ".tree .node")}
    # The first two levels are open: each field of the batch and each record are there.
    for key, value in t["value"].items():
        assert key in lines, key
        if not isinstance(value, (dict, list)):
            shown = lines[key].find_element(By.CSS_SELECTOR, ":scope > .line > .val").text
            assert shown.strip('"') == str(value), key
    assert len([p for p in lines if p.startswith("records[") and p.count(".") == 0]) == len(t["value"]["records"])
    # The hex view shows the bytes.
    shown = browser.execute_script("return [...document.querySelectorAll('#hex .hbytes span[data-o]')]"
                                   ".map(s => s.textContent).join('')")
    assert shown == t["bytes"][:len(shown)] and len(shown) >= min(len(t["bytes"]), 2 * 16 * 20)


def test_selecting_a_node_highlights_its_bytes_and_a_byte_names_its_field(browser, base):
    t = vector_case("kafka.record_batch_v2", where=lambda t: t["value"]["attributes"]["compression"] == "none"
                    and t["value"]["records"] and t["value"]["records"][0]["key"])
    open_decode(browser, base, "kafka.record_batch_v2", t["bytes"])
    ranges = json.loads(browser.execute_script(
        "return fetch('api/decode', {method: 'POST', body: JSON.stringify({format: 'kafka.record_batch_v2', hex: arguments[0]})})"
        ".then(r => r.text())", t["bytes"]))["ranges"]
    node = browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="records[0]"] > .line')
    node.click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hex span.sel"))
    selected = browser.execute_script("return [...new Set([...document.querySelectorAll('#hex .hbytes span.sel')]"
                                      ".map(s => +s.dataset.o))]")
    start, end = ranges["records[0]"]
    assert selected == list(range(start, end))
    assert "records[0]" in browser.find_element(By.ID, "selection").text
    # A byte of the first record's key: its field is named, and its tree node selected.
    k0, k1 = ranges["records[0].key"]
    browser.find_element(By.CSS_SELECTOR, f'#hex .hbytes span[data-o="{k0}"]').click()
    wait(browser, lambda d: "records[0].key" in d.find_element(By.ID, "selection").text)
    line = browser.find_element(By.CSS_SELECTOR, ".tree .line.selected")
    assert line.find_element(By.XPATH, "..").get_attribute("data-path") == "records[0].key"
    assert f"byte {k0}" in browser.find_element(By.ID, "selection").text


def shown_text(browser, path: str) -> str | None:
    """The text the tree shows beside a node's hex, or None; the node's parent is opened first."""
    parent = path.rsplit(".", 1)[0]
    node = browser.find_element(By.CSS_SELECTOR, f'.tree .node[data-path="{parent}"]')
    if "closed" in node.get_attribute("class").split():
        node.find_element(By.CSS_SELECTOR, ":scope > .line > .tog").click()
    line = browser.find_element(By.CSS_SELECTOR, f'.tree .node[data-path="{path}"] > .line')
    texts = line.find_elements(By.CSS_SELECTOR, ":scope > .txt")
    return texts[0].text if texts else None


def test_bytes_that_are_printable_text_show_it_beside_their_hex(browser, base):
    t = vector_case("kafka.record_batch_v2", where=lambda t: t["tcId"] == "third_party/kafka_python_gzip")
    open_decode(browser, base, "kafka.record_batch_v2", t["bytes"])
    key = browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="records[0]"]')
    assert t["value"]["records"][0]["key"] == "6b65792d30"
    assert shown_text(browser, "records[0].key") == '"key-0"'
    assert "6b65792d30" in key.find_element(By.CSS_SELECTOR, '.node[data-path="records[0].key"] > .line > .val').text
    assert shown_text(browser, "records[0].value").startswith('"value-0 value-0')
    assert shown_text(browser, "records[0].offset_delta") is None  # a number
    # Bytes that are not printable UTF-8 (zeros) show their hex alone.
    binary = vector_case("kafka.record_batch_v2", where=lambda t: t["tcId"] == "basic/hundred_records")
    open_decode(browser, base, "kafka.record_batch_v2", binary["bytes"])
    assert binary["value"]["records"][0]["value"] == "0000000000000000"
    assert shown_text(browser, "records[0].value") is None


def test_a_corrupted_vector_shows_the_error_at_its_offset(browser, base):
    t = vector_case("kafka.record_batch_v2", "invalid", lambda t: t.get("error") == "checksum_mismatch")
    open_decode(browser, base, "kafka.record_batch_v2", t["bytes"])
    error = browser.find_element(By.ID, "error")
    assert not error.get_attribute("hidden")
    assert "checksum_mismatch" in error.text and "offset 17" in error.text and "record_batch_v2.crc" in error.text
    marked = browser.find_elements(By.CSS_SELECTOR, "#hex .hbytes span.err")
    assert [m.get_attribute("data-o") for m in marked] == ["17"]
    # The fields decoded before the error are in the tree; the stored CRC is marked.
    marked_node = browser.find_element(By.CSS_SELECTOR, ".tree .line.errnode")
    assert marked_node.find_element(By.XPATH, "..").get_attribute("data-path") == "crc"
    assert browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="base_offset"]')
    # A cut-off one: truncated, its offset marked too.
    cut = vector_case("kafka.record_batch_v2")["bytes"]
    open_decode(browser, base, "kafka.record_batch_v2", cut[: len(cut) // 2])
    text = browser.find_element(By.ID, "error").text
    assert "truncated" in text
    offset = int(text.split("offset ")[1].split()[0])
    assert browser.find_element(By.CSS_SELECTOR, "#hex .hbytes span.err").get_attribute("data-o") == str(offset)


def marked_field(browser) -> tuple[str, str]:
    """(path, shown value) of the tree node marked as the error's."""
    line = browser.find_element(By.CSS_SELECTOR, ".tree .line.errnode")
    return line.find_element(By.XPATH, "..").get_attribute("data-path"), line.find_element(By.CSS_SELECTOR, ".val").text


def error_bytes(browser) -> list[int]:
    """The offsets the hex view marks as the error's: its offset, and the bytes of its field."""
    return browser.execute_script("return [...new Set([...document.querySelectorAll('#hex .hbytes span.err, "
                                  "#hex .hbytes span.errf')].map(s => +s.dataset.o))].sort((a, b) => a - b)")


@pytest.mark.parametrize(("fmt", "tc_id", "cut", "path", "first_byte"), [
    ("kafka.record_batch_v2", "basic/three_records", 70, "records", 61),  # the sized records, 9 bytes of 27
    ("inkless.batch_block", "basic/one_batch", 46, "batches[0].producer_id", 43),  # read in a run with the fields before
    ("tank.bundle", "basic/fifteen_messages", 51, "messages[14].has_key", None),  # no byte left for it
])
def test_a_truncated_value_marks_the_field_where_the_bytes_ran_out(browser, base, fmt, tc_id, cut, path, first_byte):
    """Not the root: the deepest field the error's path names, made a node of the tree when the error stopped
    the decoding before it, with the bytes that were left for it."""
    data = vector_case(fmt, where=lambda t: t["tcId"] == tc_id)["bytes"][:2 * cut]
    open_decode(browser, base, fmt, data)
    error = browser.find_element(By.ID, "error").text
    assert "truncated" in error and path in error
    marked, shown = marked_field(browser)
    assert marked == path and "not decoded" in shown
    if first_byte is not None:
        assert error_bytes(browser) == list(range(first_byte, cut))
    # The whole value is marked only when the error's path names no field of it (bytes after its end).
    whole = vector_case("kafka.record_batch_v2")["bytes"]
    open_decode(browser, base, "kafka.record_batch_v2", whole + "00")
    assert "trailing_bytes" in browser.find_element(By.ID, "error").text
    assert marked_field(browser)[0] == ""


def test_detection_and_bad_input_messages(browser, base):
    t = vector_case("tank.bundle", where=lambda t: len(t["value"]["messages"]) > 1)
    open_decode(browser, base, "auto", t["bytes"])
    assert browser.find_element(By.ID, "status").text.startswith("tank.bundle (detected")
    open_decode(browser, base, "auto", "deadbeef000102")  # garbage: read as a record set's cut-off entry, no more
    status = browser.find_element(By.ID, "status")
    assert status.text.startswith("No format detected; the nearest reading is kafka.record_set")
    assert "warn" in status.get_attribute("class").split()
    callout = browser.find_element(By.ID, "error").text
    assert "No format detected: it reads as kafka.record_set, but no rule of its schema checks" in callout
    assert "not an error" not in callout
    open_decode(browser, base, "auto", "what is this?")  # (without "?" it would be base64)
    assert "neither hex nor base64" in browser.find_element(By.ID, "error").text
    assert browser.find_element(By.ID, "result").get_attribute("hidden")
    open_decode(browser, base, "auto", "abc")
    assert "neither hex nor base64" in browser.find_element(By.ID, "error").text or \
        "odd number" in browser.find_element(By.ID, "error").text
    open_decode(browser, base, "auto", "")
    assert "empty" in browser.find_element(By.ID, "error").text


def test_a_large_file_is_refused_before_it_is_read(browser, base, tmp_path):
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (SMALL_LIMIT + 1))
    browser.get(base + "decode.html")
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "online")
    browser.find_element(By.ID, "file").send_keys(str(big))
    wait(browser, lambda d: not d.find_element(By.ID, "error").get_attribute("hidden"))
    assert "was not loaded" in browser.find_element(By.ID, "error").text
    assert browser.find_element(By.ID, "input").get_attribute("value") == ""
    small = tmp_path / "batch.bin"
    small.write_bytes(bytes.fromhex(vector_case("kafka.record_batch_v2")["bytes"]))
    browser.find_element(By.ID, "file").send_keys(str(small))
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith("kafka.record_batch_v2"))


def test_as_a_file_the_decode_page_says_it_needs_the_server(browser):
    browser.get((DOCS / "decode.html").as_uri())
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "offline")
    assert browser.find_element(By.ID, "offline").is_displayed()
    assert browser.find_element(By.ID, "go").get_attribute("disabled")


def test_a_field_inside_compressed_bytes_points_at_them(browser, base):
    t = vector_case("kafka.record_batch_v2", where=lambda t: t["value"]["attributes"]["compression"] == "gzip"
                    and t["value"]["records"])
    open_decode(browser, base, "kafka.record_batch_v2", t["bytes"])
    browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="records[0]"] > .line').click()
    text = browser.find_element(By.ID, "selection").text
    assert "of the decompressed records" in text
    ranges = json.loads(browser.execute_script(
        "return fetch('api/decode', {method: 'POST', body: JSON.stringify({format: 'kafka.record_batch_v2', hex: arguments[0]})})"
        ".then(r => r.text())", t["bytes"]))["ranges"]
    start, end = ranges["records"]
    selected = browser.execute_script("return [...new Set([...document.querySelectorAll('#hex .hbytes span.sel')]"
                                      ".map(s => +s.dataset.o))]")
    assert selected == list(range(start, end))


def test_a_partial_trailing_entry_is_shown_as_such(browser, base):
    t = vector_case("kafka.record_set", where=lambda t: t["value"]["partial_entry"] and t["value"]["entries"])
    open_decode(browser, base, "kafka.record_set", t["bytes"])
    note = browser.find_element(By.ID, "error")
    assert note.is_displayed() and "warn" in note.get_attribute("class").split()
    assert "A partial trailing entry" in note.text and "partial_entry" in note.text
    assert browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="entries[0]"]')


def test_a_block_and_its_metadata_show_batches_by_entry_and_findings_marked(browser, base, tmp_path):
    """An Inkless object with a changed byte and its metadata as YAML, pasted into the two boxes."""
    from logcodec.inkless import blocks as inkless_blocks
    from logcodec.inkless import document as inkless

    from .test_block_with_metadata import NAME, check

    t = check("crc_mismatch")
    yaml_text = inkless.dump_yaml(inkless_blocks.load_metadata(bytes.fromhex(t["inputs"]["metadata"])))
    browser.get(base + "decode.html")
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "online")
    assert not browser.find_element(By.ID, "second").is_displayed()  # (with "detect", a closed box)
    Select(browser.find_element(By.ID, "format")).select_by_value(NAME)
    assert browser.find_element(By.ID, "second").is_displayed()
    assert "Block metadata" in browser.find_element(By.ID, "second-box").text
    browser.execute_script("document.getElementById('input').value = arguments[0];"
                           "document.getElementById('second').value = arguments[1];", t["inputs"]["object"], yaml_text)
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith(NAME))
    assert "seed form, 5 entries · 1 finding" in browser.find_element(By.ID, "status").text
    # The batches under their metadata entries, each entry saying whose they are.
    labels = {p: browser.find_element(By.CSS_SELECTOR, f'.tree .node[data-path="{p}"] > .line > .val').text
              for p in ("topic_partitions[0]", "topic_partitions[1]", "topic_partitions[2]")}
    assert labels == {"topic_partitions[0]": "orders/0 · 2 batches", "topic_partitions[1]": "orders/1 · 1 batch",
                      "topic_partitions[2]": "clicks/0 · 2 batches"}
    # The finding: listed, its offset marked in the bytes, its field marked in the tree.
    text = browser.find_element(By.ID, "error").text
    assert "checksum_mismatch at offset 124" in text and "topic_partitions[0].batches[1].record_batch_v2.crc" in text
    marked = browser.find_elements(By.CSS_SELECTOR, "#hex .hbytes span.err")
    assert [m.get_attribute("data-o") for m in marked] == ["124"]
    node = browser.find_element(By.CSS_SELECTOR, ".tree .line.errnode")
    assert node.find_element(By.XPATH, "..").get_attribute("data-path") == "topic_partitions[0].batches[1].record_batch_v2.crc"
    # An entry selected: the bytes its metadata gives it.
    browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="topic_partitions[0].batches[1]"] > .line').click()
    selected = browser.execute_script("return [...new Set([...document.querySelectorAll('#hex .hbytes span.sel')]"
                                      ".map(s => +s.dataset.o))]")
    assert selected == list(range(107, 191))
    assert "bytes 107–190" in browser.find_element(By.ID, "selection").text
    # The metadata's binary file dropped in: read as hex, and decoded with the object again.
    (tmp_path / "meta.bin").write_bytes(bytes.fromhex(t["inputs"]["metadata"]))
    browser.execute_script("document.getElementById('status').textContent = ''")
    browser.find_element(By.ID, "second-file").send_keys(str(tmp_path / "meta.bin"))
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith(NAME))
    assert browser.find_element(By.ID, "second-encoding").get_attribute("value") == "hex"
    assert browser.find_element(By.ID, "second").get_attribute("value") == t["inputs"]["metadata"]
    assert [m.get_attribute("data-o") for m in browser.find_elements(By.CSS_SELECTOR, "#hex .hbytes span.err")] == ["124"]
    assert severe_logs(browser) == []


def test_a_captured_connection_shows_each_exchange_with_its_request_in_the_bytes(browser, base):
    """A client's bytes and the broker's, pasted into the two boxes: the exchanges labelled, a
    request's field selected shows its bytes; a response's finding is listed without a byte."""
    pytest.importorskip("kafka.protocol")
    from tests.codecs import kafka_python_frames

    requests, responses, sent, _ = kafka_python_frames.conversation()
    browser.get(base + "decode.html")
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "online")
    Select(browser.find_element(By.ID, "format")).select_by_value("kafka.conversation")
    assert "Broker's bytes" in browser.find_element(By.ID, "second-box").text
    browser.execute_script("document.getElementById('input').value = arguments[0];"
                           "document.getElementById('second').value = arguments[1];", requests.hex(), responses.hex())
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith("kafka.conversation"))
    assert f"{len(sent)} requests, {len(sent) - 1} answered · no finding" in browser.find_element(By.ID, "status").text
    label = browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="exchanges[0]"] > .line > .val').text
    assert label.startswith(f"ApiVersions v3 · correlation id {sent[0][0]} · bytes 0–")
    # A byte of the first request's correlation id (after its size, API key and version): its field is named.
    browser.find_element(By.CSS_SELECTOR, '#hex .hbytes span[data-o="8"]').click()
    wait(browser, lambda d: "exchanges[0].request.header.correlation_id" in d.find_element(By.ID, "selection").text)
    # The broker's first response left out: the others answer out of order, findings in the broker's bytes.
    skipped = responses[4 + int.from_bytes(responses[:4], "big"):]
    browser.execute_script("document.getElementById('second').value = arguments[0];", skipped.hex())
    browser.execute_script("document.getElementById('status').textContent = ''")
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda d: d.find_element(By.ID, "status").text.startswith("kafka.conversation"))
    assert " finding" in browser.find_element(By.ID, "status").text
    assert "answer nothing or out of order" in browser.find_element(By.ID, "error").text
    assert "of the broker's" in browser.find_element(By.ID, "error").text
    assert browser.find_elements(By.CSS_SELECTOR, "#hex .hbytes span.err") == []
    assert severe_logs(browser) == []


def test_an_api_page_opens_the_decode_page_on_its_frame_with_its_params(browser, base):
    """Metadata's page links to its response's golden vector: the decode page opens with the API
    in the params boxes and shows the frame's tree; another version in the box is another reading."""
    browser.get(base + "kafka/apis/Metadata.html")
    link = browser.find_elements(By.CSS_SELECTOR, ".decode-link a")[1]
    assert "format=kafka.response" in link.get_attribute("href")
    link.click()
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "online")
    wait(browser, lambda d: not d.find_element(By.ID, "result").get_attribute("hidden"))
    assert not browser.find_element(By.ID, "params-row").get_attribute("hidden")
    assert browser.find_element(By.ID, "param-api_key").get_attribute("value") == "3"
    assert browser.find_element(By.ID, "param-api_version").get_attribute("value") == "12"
    assert browser.find_element(By.ID, "error").get_attribute("hidden")
    assert browser.find_element(By.CSS_SELECTOR, '.tree .node[data-path="body.topics"]')
    browser.execute_script("document.getElementById('param-api_version').value = '99';")
    browser.find_element(By.ID, "go").click()
    wait(browser, lambda d: not d.find_element(By.ID, "error").get_attribute("hidden"))
    assert "invalid_value" in browser.find_element(By.ID, "error").text
    # A format without params has no boxes; the response's example fills them.
    Select(browser.find_element(By.ID, "format")).select_by_value("kafka.record_batch_v2")
    assert browser.find_element(By.ID, "params-row").get_attribute("hidden")
    browser.find_element(By.CSS_SELECTOR, 'button.example[data-format="kafka.response"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "param-api_key").get_attribute("value") == "1")
    wait(browser, lambda d: browser.find_element(By.ID, "status").text.startswith("kafka.response"))
    assert browser.find_element(By.ID, "error").get_attribute("hidden")
    assert not severe_logs(browser)
