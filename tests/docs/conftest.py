"""Fixtures of the docs tests: a `logcodec docs` server in this process, and a headless Chromium.

The browser tests need Debian's `chromium` and `chromium-driver` and the `selenium` package (the
test extra); `.ci/run` installs them. Where one is missing they are skipped, saying which.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from logcodec import docserver
from logcodec import inspector as inspectors_module

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "generated" / "docs"
VECTORS = ROOT / "generated" / "vectors"
SMALL_LIMIT = 64 << 10  # the test server's input limit: small, so that refusals are cheap to test


@pytest.fixture(scope="session")
def inspector():
    return inspectors_module.builtin()


@pytest.fixture(scope="session")
def site(inspector):
    """(server, base URL) of the docs with the built-in formats."""
    app = docserver.DocsServer(DOCS, [inspector], titles=docserver.titles_of([inspector]),
                               max_bytes=SMALL_LIMIT, max_body=3 * SMALL_LIMIT)
    server, url = docserver.serve_in_thread(app)
    yield server, url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base(site):
    return site[1]


def vectors(fmt: str) -> dict:
    family, name = fmt.split(".")
    return json.loads((VECTORS / family / f"{name}.json").read_text())


def vector_case(fmt: str, result: str = "valid", where=lambda t: True) -> dict:
    return next(t for g in vectors(fmt)["testGroups"] for t in g["tests"] if t["result"] == result and where(t))


def _chromedriver() -> str | None:
    return shutil.which("chromedriver") or next((p for p in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
                                                 if Path(p).exists()), None)


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium 1400 px wide, driven by selenium; skipped when either is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    driver_path, chromium = _chromedriver(), _chromium()
    if driver_path is None or chromium is None:
        pytest.skip("Chromium or its driver is missing (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
