"""Real Kafka traffic, recorded: a client library talking to a broker that logcodec did not write,
through a relay that keeps each connection's two byte streams (issue 39: a capture of real client
and broker traffic is what `kafka.conversation` must read).

The broker is librdkafka's mock cluster (its C implementation of the broker's side of the
protocol, which confluent-kafka starts in this process with `test.mock.num.brokers`); the clients
are kafkajs (Node.js), aiokafka (Python) and sarama (Go, Debian's 1.22, built here as
`sarama_protocol` builds its reader), each in a process of its own running the scenario of
`kafka_captures/scenario.json`. A client is pointed at the broker, and every connection it opens
is sent to the relay instead (kafkajs's `socketFactory`; aiokafka's sockets' `connect`; sarama's
`Net.Proxy` dialer), so the connections to the broker it learns from Metadata are recorded too.
What is recorded is what the two programs wrote, byte for byte (`logcodec.relay`, what `logcodec
record` runs): the layout of the TANK captures of `../shared/corpus`, one `connN.c2s.bin` (client
to broker) and `connN.s2c.bin` a connection, in the order they were opened.

`python -m tests.codecs.kafka_capture [CLIENT ...]` records the captures kept in
`schemas/kafka/captures/<client>/` (with a `manifest.json` of what made them), which
`kafka.conversation`'s check vectors read (`schemas/kafka/conversation.checks.yaml`, then `logcodec
generate`); tests/codecs/test_kafka_captures.py reads them, and records new ones where the programs
are installed.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from logcodec.relay import Relay, captured

from tests.net import capturing

from . import sarama_protocol

HERE = Path(__file__).with_name("kafka_captures")  # the scenario and the clients' scripts
SCENARIO = json.loads((HERE / "scenario.json").read_text())
REPO = Path(__file__).resolve().parents[2]
#: the captures kept, one folder a client: the check vectors of `kafka.conversation` read them
#: (schemas/kafka/conversation.checks.yaml)
CAPTURES = REPO / "schemas" / "kafka" / "captures"
KAFKAJS = REPO / "conformance" / "testees" / "kafkajs" / "node_modules"


@dataclass(frozen=True)
class Client:
    name: str
    package: str  # what `version` names
    script: str  # in kafka_captures/

    def missing(self) -> str | None:
        """Why this client cannot run here, or None."""
        if self.name == "sarama":
            return None if sarama_protocol.available() else "needs go and sarama (golang-go golang-github-shopify-sarama-dev)"
        if self.name == "kafkajs":
            if shutil.which("node") is None:
                return "node is not installed"
            if not (KAFKAJS / "kafkajs").is_dir():
                return f"{KAFKAJS}/kafkajs is missing (npm ci --prefix {KAFKAJS.parent})"
            return None
        return _missing_module(self.package)

    def version(self) -> str:
        if self.name == "sarama":  # Debian's package says it: 1.22.1-1 (its sources do not)
            shown = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "golang-github-shopify-sarama-dev"],
                                   capture_output=True, text=True, check=False)
            return re.sub(r"-[^-]*$", "", shown.stdout) or "unknown"
        if self.name == "kafkajs":
            return json.loads((KAFKAJS / "kafkajs" / "package.json").read_text())["version"]
        return importlib.metadata.version(self.package)

    def command(self, broker_port: int, relay_port: int) -> list[str]:
        script = str(HERE / self.script)
        if self.name == "sarama":
            return [str(_sarama_client()), str(HERE / "scenario.json"), str(broker_port), str(relay_port)]
        if self.name == "kafkajs":
            return ["node", script, str(KAFKAJS), str(broker_port), str(relay_port)]
        return [sys.executable, script, str(broker_port), str(relay_port)]


CLIENTS = {c.name: c for c in [Client("kafkajs", "kafkajs", "kafkajs_client.js"),
                                Client("aiokafka", "aiokafka", "aiokafka_client.py"),
                                Client("sarama", "sarama", "sarama_client.go")]}
#: the kept capture whose connections were also captured as packets (`record(packets=True)`):
#: `capture.pcap` and `capture.pcapng` beside its frames
PACKETS = "aiokafka-packets"


@functools.cache
def _sarama_client() -> Path:
    """sarama_client.go built once a process, against Debian's sarama (GOPATH mode, as
    `sarama_protocol.build` builds its reader)."""
    folder = Path(tempfile.mkdtemp(prefix="logcodec-sarama-client-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # (its build cache too)
    program = folder / "src" / "logcodec_capture"
    program.mkdir(parents=True)
    shutil.copy(HERE / "sarama_client.go", program / "main.go")
    binary = folder / "sarama-client"
    env = {**os.environ, "GOPATH": f"{folder}{os.pathsep}{sarama_protocol.GOCODE}", "GO111MODULE": "off",
           "GOFLAGS": "", "GOCACHE": str(folder / "cache")}
    subprocess.run(["go", "build", "-o", str(binary), "logcodec_capture"], env=env, check=True, capture_output=True,
                   cwd=folder)
    return binary


def _missing_module(name: str) -> str | None:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return f"Python package {name!r} is not installed"
    return None


def broker_missing() -> str | None:
    """Why librdkafka's mock cluster cannot be started here, or None."""
    return _missing_module("confluent-kafka")


@contextlib.contextmanager
def mock_broker():
    """(host, port) of a one-broker librdkafka mock cluster, up while the context lasts."""
    import confluent_kafka

    # log_level 3: errors only (librdkafka says at notice level that the mock replaced the servers)
    owner = confluent_kafka.Producer({"test.mock.num.brokers": 1, "log_level": 3})
    try:
        (broker,) = owner.list_topics(timeout=10).brokers.values()
        yield broker.host, broker.port
    finally:
        owner.flush(1)
        del owner


#: The packet captures a recording with `packets` also makes, beside its frames: file -> the program
#: and its arguments before the file (`tests.net.capturing`). Both capture the loopback interface,
#: where the client's connections to the relay run.
SNIFFERS = {"capture.pcap": ["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-w"],
            "capture.pcapng": ["dumpcap", "-q", "-i", "lo", "-w"]}


def sniffers_missing() -> str | None:
    """Why the packet captures cannot be made here (tcpdump and dumpcap, as root), or None."""
    return capturing.missing(SNIFFERS)


def record(client: Client, folder: Path, timeout: float = 180.0, packets: bool = False) -> list[tuple[bytes, bytes]]:
    """Run the scenario with `client` against a fresh mock broker, through a relay that writes each
    connection's two sides to `folder` (`frames/connN.c2s.bin`, `.s2c.bin`); add a manifest, and
    return them. With `packets`, tcpdump and dumpcap also capture the client's connections to the
    relay as packets (`tests.net.capturing`): the same bytes, as a pcap and a pcapng file. A client that fails
    raises, with the end of what it wrote to stderr."""
    import confluent_kafka

    with mock_broker() as broker:
        relay = Relay(broker, folder=folder)
        try:
            with capturing.capturing(folder, SNIFFERS, relay.port) if packets else contextlib.nullcontext():
                done = subprocess.run(client.command(broker[1], relay.port), capture_output=True, text=True,
                                      timeout=timeout, check=False)
        finally:
            relay.close()
    if done.returncode != 0:
        raise RuntimeError(f"{client.name} exited {done.returncode}: {done.stderr[-2000:]}")
    manifest = {"client": {"name": client.name, "version": client.version()},
                "broker": {"name": "librdkafka mock cluster (confluent-kafka's test.mock.num.brokers)",
                           "librdkafka": confluent_kafka.libversion()[0],
                           "confluent-kafka": importlib.metadata.version("confluent-kafka")},
                "scenario": SCENARIO, "connections": len(relay.connections),
                "recorded by": "logcodec.relay.Relay (logcodec record)"}
    if packets:
        manifest["packets"] = {name: f"{command[0]} {capturing.version(command[0])}, capturing the loopback interface"
                               for name, command in SNIFFERS.items()}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return recorded(folder)


def recorded(folder: Path) -> list[tuple[bytes, bytes]]:
    """The connections of a capture folder, in order: (client to broker, broker to client)."""
    return [(client.read_bytes(), broker.read_bytes()) for _, client, broker in captured(folder)]


def main(argv: list[str] | None = None) -> int:
    """Record the kept captures of the clients named (all, by default), and the one kept with its
    packet captures (`PACKETS`, when it is named or none is)."""
    names = (sys.argv[1:] if argv is None else argv) or [*CLIENTS, PACKETS]
    for name in names:
        client, packets = CLIENTS[name.removesuffix("-packets")], name.endswith("-packets")
        if why := client.missing() or broker_missing() or (packets and sniffers_missing()):
            print(f"{name}: not recorded, {why}", file=sys.stderr)
            continue
        folder = CAPTURES / name
        shutil.rmtree(folder, ignore_errors=True)
        sides = record(client, folder, packets=packets)
        print(f"{name} {client.version()}: {len(sides)} connections in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
