"""A worker target for tests/fuzz/test_pool.py: the 'format' says how to misbehave."""

import os
import signal
import time


def misbehave(format_name: str, data: bytes) -> dict:
    if format_name == "sleep":
        time.sleep(60)
    if format_name == "allocate":
        try:
            blocks = [bytearray(64 << 20) for _ in range(64)]  # 4 GiB, over the address-space limit
        except MemoryError:
            return {"cls": "memory_error", "kind": "decode", "detail": "MemoryError"}
        return {"cls": "accepted", "kind": str(len(blocks)), "detail": ""}
    if format_name == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    return {"cls": "accepted", "kind": "", "detail": ""}
