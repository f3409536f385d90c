"""Worker targets for the fuzz tests (the worker runs the one $FUZZ_WORKER_TARGET names).

`misbehave`: the 'format' says how the worker misbehaves (tests/fuzz/test_campaign.py).

`planted`: the real classifier on a codec broken on purpose, in the worker's process only:
$FUZZ_PLANT names the finding class, PLANTS the format fuzzed and the breakage that brings that
class about (tests/fuzz/test_findings.py). The breakages patch the pure build's module, so the
campaign runs them with --build pure.
"""

import os
import signal
import sys
import time

from fuzz import worker as W


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


# ------------------------------------------------------------------------------ planted bugs

class _EqualsAnything(int):
    """What a decoder that skips its CRC check compares the stored CRC with."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__


def skips_its_crc_check(module) -> None:
    """The decoders (`_d_...`, `_i_...`) take any stored CRC; the encoder still computes the real one."""
    real = module._crc32c

    def crc32c(data, *start):
        if sys._getframe(1).f_code.co_name.startswith(("_d_", "_i_")):
            return _EqualsAnything(0)
        return real(data, *start)

    module._crc32c = crc32c


def writes_a_byte_more(module) -> None:
    """The encoder writes a byte after the value: its output does not decode to the value."""
    real = module.encode
    module.encode = lambda value: real(value) + b"\0"


def refuses_to_encode(module) -> None:
    """The encoder refuses every value."""
    import logcodec

    def encode(value):
        raise logcodec.EncodeError("invalid_value", "planted: this encoder refuses every value", None, "entries")

    module.encode = encode


def ignores_a_partial_tail(module) -> None:
    """The decoder drops bytes at the end that do not make a whole element: a second encoding
    of the value without them."""
    import logcodec

    real = module.decode

    def decode(data, **kwargs):
        try:
            return real(data, **kwargs)
        except logcodec.DecodeError as err:
            if err.kind not in ("truncated", "trailing_bytes") or not err.offset:
                raise
            return real(data[:err.offset], **kwargs)

    module.decode = decode


def reports_offsets_past_the_end(module) -> None:
    """The decoder's errors name an offset after the input's last byte."""
    import logcodec

    real = module.decode

    def decode(data, **kwargs):
        try:
            return real(data, **kwargs)
        except logcodec.DecodeError as err:
            raise logcodec.DecodeError(err.kind, err.detail, len(data) + 1, err.path) from None

    module.decode = decode


def iterates_one_element_short(module) -> None:
    """decode_iter stops before the last element."""
    real = module.decode_iter

    def decode_iter(data, **kwargs):
        header, elements = real(data, **kwargs)
        return header, list(elements)[:-1]

    module.decode_iter = decode_iter


def _replaces_decode(behaviour):
    def install(module) -> None:
        module.decode = lambda data, **kwargs: behaviour(data)
    return install


def _index_error(data):
    return data[len(data) + 7]


def _sleep(data):
    time.sleep(60)


def _allocate(data):
    return bytearray(8 << 30)  # 8 GiB, over the address-space limit


def _crash(data):
    os.kill(os.getpid(), signal.SIGSEGV)


#: finding class -> (the format fuzzed, how its codec is broken)
PLANTS = {
    W.BAD_CHECKSUM: ("kafka.record_batch_v2", skips_its_crc_check),
    W.NON_ROUNDTRIP: ("kafka.offset_index", writes_a_byte_more),
    W.UNENCODABLE: ("kafka.offset_index", refuses_to_encode),
    W.NONCANONICAL_PLAIN: ("kafka.offset_index", ignores_a_partial_tail),
    W.OFFSET_OUTSIDE: ("kafka.offset_index", reports_offsets_past_the_end),
    W.ITER_DISAGREES: ("kafka.record_batch_v2", iterates_one_element_short),
    W.FOREIGN: ("kafka.offset_index", _replaces_decode(_index_error)),
    W.TIMEOUT: ("kafka.offset_index", _replaces_decode(_sleep)),
    W.MEMORY: ("kafka.offset_index", _replaces_decode(_allocate)),
    W.KILLED: ("kafka.offset_index", _replaces_decode(_crash)),
}
_installed = False


def planted(format_name: str, data: bytes) -> dict:
    """The classifier, once the breakage $FUZZ_PLANT names is in the codec of `format_name`."""
    global _installed
    if not _installed:
        import logcodec

        fmt, install = PLANTS[os.environ["FUZZ_PLANT"]]
        install(logcodec.codec(fmt))
        _installed = True
    return W.classify(format_name, data)
