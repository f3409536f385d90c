"""sarama's protocol readers as an independent check of the `kafka.request` and `kafka.response`
vectors (issue 39): the Go client, Debian's `golang-github-shopify-sarama-dev` (1.22.1) built with
`golang-go`.

sarama reads each request body and response of the versions it knows with a hand-written
`decode(pd, version)` per type, which its package keeps to itself. A copy of the package with one
file of ours (`sarama/zz_logcodec.go`) reaches them, and a small program (`sarama/main.go`)
reads frames given as JSON. Its values are Go structs whose maps lose the wire's order, so the
check is what sarama's reader itself checks: each valid frame of a version it knows reads without
error to its last byte (`versionedDecode` refuses bytes left over), the layout of every field of
that version as sarama has it. The versions it knows are those its types' `requiredVersion` names.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

#: Where Debian installs sarama's sources, and the Go packages it imports.
GOCODE = Path(os.environ.get("LOGCODEC_GOCODE", "/usr/share/gocode"))
SARAMA = GOCODE / "src" / "github.com" / "Shopify" / "sarama"
HERE = Path(__file__).with_name("sarama")
#: The response header sarama's broker connection takes off before a response's reader runs.
HEADER = 4


def available() -> bool:
    return shutil.which("go") is not None and (SARAMA / "request.go").is_file()


@functools.cache
def known() -> dict[str, dict[int, int]]:
    """The newest version sarama knows of each API's request and response, by API key: the
    highest its type's `requiredVersion` names (0 where it names none)."""
    sources = "\n".join(p.read_text() for p in sorted(SARAMA.glob("*.go")) if not p.name.endswith("_test.go"))
    allocate = re.search(r"func allocateBody\(.*?\n}", sources, re.DOTALL)[0]
    types = {"request": _cases(allocate), "response": _cases((HERE / "zz_logcodec.go").read_text())}
    return {kind: {key: _newest(sources, name) for key, name in by_key.items()} for kind, by_key in types.items()}


def _cases(switch: str) -> dict[int, str]:
    return {int(key): name for key, name in re.findall(r"case (\d+):\s*return &(\w+)\{", switch)}


def _newest(sources: str, name: str) -> int:
    body = re.search(rf"func \(\w+ \*{name}\) requiredVersion\(\) KafkaVersion \{{(.*?)\n}}", sources, re.DOTALL)
    versions = [int(v) for case in re.findall(r"case ([\d, ]+):", body[1] if body else "") for v in case.split(",")]
    return max(versions, default=0)


def reads(kind: str, api_key: int, api_version: int, flexible: bool) -> bool:
    """Whether sarama reads this version of the API (it reads no flexible version: 1.22 predates them)."""
    newest = known()[kind].get(api_key)
    return not flexible and newest is not None and api_version <= newest


def flags(kind: str, api_key: int, api_version: int, flexible: bool) -> list[str]:
    """A valid vector's sarama flag: `Sarama` where sarama reads its version."""
    return ["Sarama"] if reads(kind, api_key, api_version, flexible) else []


NOTE = ("A version sarama knows (the Go client, Debian's golang-github-shopify-sarama-dev): its own "
        "reader of the version reads the frame without error to its last byte "
        "(tests/codecs/test_sarama_protocol.py).")


def build(folder: Path) -> Path:
    """The checking program, built in `folder` from a copy of sarama with our file added."""
    package = folder / "src" / "github.com" / "Shopify" / "sarama"
    package.mkdir(parents=True, exist_ok=True)
    for source in SARAMA.glob("*.go"):
        if not source.name.endswith("_test.go"):
            shutil.copy(source, package / source.name)
    shutil.copy(HERE / "zz_logcodec.go", package / "zz_logcodec.go")
    program = folder / "src" / "logcodec_sarama"
    program.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "main.go", program / "main.go")
    binary = folder / "logcodec-sarama"
    env = {**os.environ, "GOPATH": f"{folder}{os.pathsep}{GOCODE}", "GO111MODULE": "off", "GOFLAGS": "",
           "GOCACHE": str(folder / "cache")}
    subprocess.run(["go", "build", "-o", str(binary), "logcodec_sarama"], env=env, check=True, capture_output=True,
                   cwd=folder)
    return binary


def read_all(binary: Path, frames: list[dict]) -> dict:
    """sarama's reading of each frame ({id, kind, key, version, hex}), by id."""
    done = subprocess.run([str(binary)], input=json.dumps(frames), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)
