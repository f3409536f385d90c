"""The docs' page per Kafka API (`generator/docs/api_pages.py`), as generated into
`generated/docs/kafka/apis/`: every API of Kafka's specs has one, linked from the index, and a
page says what each version changed as Kafka's own spec says it in its comments."""

import html
import json
import re
from pathlib import Path

import pytest
from logcodec.generator.message_specs import read_specs

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "generated" / "docs"
SPECS = REPO / "schemas" / "kafka" / "messages"


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def changes_of(page: str, kind: str) -> dict[int, str]:
    """{version: what the page says it changed} in the `kind` (request or response) section."""
    section = page[page.index(f'id="{kind}-versions"'):]
    section = section[:section.index("</ul>")]
    return {int(v): text_of(what) for v, what in re.findall(r"<li><b>v(\d+)</b>: (.*?)</li>", section)}


def test_every_api_has_a_page_linked_from_the_index():
    apis = [s.name.removesuffix("Request") for s in read_specs(SPECS) if s.kind == "request"]
    index = (DOCS / "index.html").read_text()
    for name in apis:
        assert (DOCS / "kafka" / "apis" / f"{name}.html").is_file(), name
        assert f'href="kafka/apis/{name}.html"' in index
    assert len(apis) == len(list((DOCS / "kafka" / "apis").glob("*.html")))


# What FetchRequest.json's own comments say of its versions ("Version 3 adds MaxBytes", ...).
@pytest.mark.parametrize(("version", "said"), [
    (1, "the same fields as v0"), (3, "MaxBytes: added"), (4, "IsolationLevel: added"),
    (5, "Topics[].Partitions[].LogStartOffset: added"), (9, "Topics[].Partitions[].CurrentLeaderEpoch: added"),
    (11, "RackId: added"), (12, "made flexible"), (12, "Topics[].Partitions[].LastFetchedEpoch: added"),
    (13, "Topics[].TopicId: added"), (15, "ReplicaState: tagged field 1 added"),
    (17, "Topics[].Partitions[].ReplicaDirectoryId: tagged field 0 added"),
])
def test_the_fetch_page_says_what_each_version_changed(version, said):
    changes = changes_of((DOCS / "kafka" / "apis" / "Fetch.html").read_text(), "request")
    assert said in changes[version]
    assert list(changes) == list(range(18))


def test_the_grid_marks_the_versions_a_field_is_in():
    page = (DOCS / "kafka" / "apis" / "Fetch.html").read_text()
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", page) if "<code>MaxBytes</code>" in r)
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)[:18]
    assert cells == [""] * 3 + ["x"] * 15  # "versions": "3+"


def test_each_api_page_links_the_decode_page_to_its_frames():
    """The request's link carries the golden vector of its latest version; the response's its API
    too (the params a response needs), and the hex is that vector's."""
    vectors = {kind: [t for g in json.loads((REPO / "generated" / "vectors" / "kafka" / f"{kind}.json").read_text())
                      ["testGroups"] for t in g["tests"] if t["result"] == "valid"] for kind in ("request", "response")}
    for spec in (s for s in read_specs(SPECS) if s.kind == "request"):
        page = (DOCS / "kafka" / "apis" / f"{spec.name.removesuffix('Request')}.html").read_text()
        request, response = (html.unescape(h) for h in re.findall(r'class="decode-link"><a href="([^"]+)"', page))
        assert request.startswith("../../decode.html#format=kafka.request")
        assert response.startswith(f"../../decode.html#format=kafka.response&api_key={spec.api_key}")
        ours = [t for t in vectors["response"] if t["params"]["api_key"] == spec.api_key]
        if ours:  # an API kafka-python knows: its latest version's frame
            latest = max(t["params"]["api_version"] for t in ours)
            fields = dict(part.split("=") for part in response.split("#")[1].split("&"))
            assert int(fields["api_version"]) == latest
            assert fields["hex"] in {t["bytes"] for t in ours if t["params"]["api_version"] == latest}
        else:
            assert "hex=" not in response
