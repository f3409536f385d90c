"""Packet captures of real traffic, made while a context lasts: tcpdump and dumpcap (Wireshark's
capture engine) writing the packets of one TCP port to files. The Kafka capture tests
(`tests.codecs.kafka_capture`) and the `net.*` vectors (`tests.net.net_vectors`) record through it."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path


def missing(commands: dict[str, list[str]]) -> str | None:
    """Why `commands` (file name -> its program and arguments) cannot capture here, or None."""
    absent = sorted({command[0] for command in commands.values() if shutil.which(command[0]) is None})
    if absent:
        return f"needs {' and '.join(absent)} (apt-get install tcpdump tshark)"
    return None if os.geteuid() == 0 else "capturing packets needs root"


@contextlib.contextmanager
def capturing(folder: Path, commands: dict[str, list[str]], port: int):
    """Each of `commands` (file name -> the program and its arguments before the file it writes)
    captures the TCP traffic of `port` into `folder` while the context lasts; each is capturing
    when the context starts, and its file is the caller's (mode 644) when it ends."""
    folder.mkdir(parents=True, exist_ok=True)
    running = []
    try:
        for name, command in commands.items():
            tail = ["-f", f"tcp port {port}"] if command[0] == "dumpcap" else [f"tcp port {port}"]
            running.append(subprocess.Popen([*command, str(folder / name), *tail], stderr=subprocess.PIPE, text=True))
            said = ""
            while "listening on" not in said and "Capturing on" not in said:  # (after what -y chose)
                line = running[-1].stderr.readline()
                if not line:
                    raise RuntimeError(f"{command[0]} does not capture: {said}")
                said += line
        time.sleep(1)  # (dumpcap says it captures a moment before it does)
        yield
    finally:
        time.sleep(1)  # the last packets on their way to the capture
        for process in running:
            process.terminate()
        for process in running:
            process.wait(timeout=30)
            process.stderr.close()
        for name in commands:  # (tcpdump writes as its own user, dumpcap for root alone)
            if (folder / name).exists():
                os.chown(folder / name, os.getuid(), os.getgid())
                (folder / name).chmod(0o644)


def version(program: str) -> str:
    """The first line of what `program --version` says."""
    shown = subprocess.run([program, "--version"], capture_output=True, text=True, check=False)
    return (shown.stdout or shown.stderr).split("\n")[0].strip()
