"""A deliberately broken testee for the harness's own tests: logcodec's codecs plus one fault.

    python tests/conformance/broken_testee.py MODE [TRIGGER]

MODE: wrong_value, crash, hang, garbage, wrong_seq, always_crash, never_start, slow_start, ok,
import_error (a traceback on stderr and status 1 before the handshake), hang_often (hangs on
the 5th request of each life), quit (exits with status 0 after its 4th answer of each life),
slow (sleeps 20 ms before each answer).
TRIGGER: a substring of the request's hex bytes or of the encoded value that picks the requests
the fault hits (default: all). `crash`, `hang_often` and `quit` count requests instead.
"""

import json
import os
import sys
import time

from logcodec.conformance.own_testee import implementation
from logcodec.conformance.testee import answer

mode = sys.argv[1]
trigger = sys.argv[2] if len(sys.argv) > 2 else ""
if mode == "import_error":
    import a_module_that_does_not_exist  # noqa: F401  (the traceback goes to stderr, the status is 1)
impl = implementation()
if mode == "never_start":
    sys.exit(1)
if mode == "slow_start":
    time.sleep(30)
handled = 0
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "start":
        reply = {"type": "started", "protocol": 1, "implementation": {"name": f"broken-{mode}", "version": "0"},
                 "formats": {f: sorted(ops) for f, ops in impl.handlers.items()}}
    elif request["type"] == "stop":
        break
    else:
        handled += 1
        hit = trigger in json.dumps(request)
        if mode == "always_crash" or (mode == "crash" and handled == 5):
            print("simulated crash", file=sys.stderr, flush=True)
            os._exit(7)
        if (hit and mode == "hang") or (mode == "hang_often" and handled % 5 == 0):
            time.sleep(3600)
        if mode == "slow":
            time.sleep(0.02)
        if hit and mode == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        reply = answer(impl, request)
        if hit and mode == "wrong_seq":
            reply["seq"] += 1000
        if hit and mode == "wrong_value" and reply.get("ok") and "value" in reply:
            reply["value"]["base_offset"] = str(int(reply["value"]["base_offset"]) + 1)
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
    if mode == "quit" and handled == 4:
        sys.exit(0)
