"""`logcodec record`: a relay that records each connection's two sides (`logcodec.relay`)."""

from __future__ import annotations

import time
from pathlib import Path

from logcodec._cli_io import UsageError


def cmd_record(args) -> int:
    from logcodec.relay import SIDES, Relay, address, side_path

    try:
        target, listen = address(args.to), address(args.listen)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out = Path(args.out)
    if (out / "frames").is_dir() and any((out / "frames").iterdir()):
        raise UsageError(f"{out / 'frames'} is not empty: record into a new folder")
    relay = Relay(target, listen, folder=out)
    print(f"listening on {relay.host}:{relay.port}, forwarding to {target[0]}:{target[1]}; each connection is "
          f"written to {out / 'frames'}/connN.c2s.bin (the client's bytes) and connN.s2c.bin (the server's) as they "
          f"come ({f'for {args.seconds:g} s' if args.seconds else 'Ctrl-C stops'})", flush=True)
    try:
        if args.seconds:
            time.sleep(args.seconds)
        else:
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    relay.close(timeout=args.linger)
    n = len(relay.connections)
    print(f"{n} connection{'' if n == 1 else 's'} recorded in {out / 'frames'}", flush=True)
    if n:
        client, server = (side_path(out, 0, side) for side in SIDES)
        print(f"a Kafka connection reads with: logcodec decode --format kafka.conversation {client} --responses {server}; "
              f"all of them: logcodec decode --format kafka.capture {out}", flush=True)
    return 0


def add_record(sub) -> None:
    """`logcodec record`."""
    p = sub.add_parser("record", help="relay connections to a server and record what each side sent",
                       description="Listen, forward each connection to --to, and write what each side sent, byte "
                                   "for byte: OUT/frames/connN.c2s.bin (the client's) and connN.s2c.bin (the "
                                   "server's), as `logcodec decode --format kafka.conversation` reads a Kafka "
                                   "connection. Point the client at the relay (for Kafka, a broker whose "
                                   "advertised listener is the relay's address, so that the connections the "
                                   "client opens after Metadata come through it too).")
    p.add_argument("--to", required=True, metavar="HOST:PORT", help="the server to forward to")
    p.add_argument("--listen", default="127.0.0.1:0", metavar="[HOST:]PORT",
                   help="where to listen (default 127.0.0.1 and a free port, printed)")
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="the folder the capture is written to")
    p.add_argument("--seconds", type=float, default=0.0, help="stop after this long (default: at Ctrl-C)")
    p.add_argument("--linger", type=float, default=5.0,
                   help="seconds to wait, when stopping, for open connections to end before they are cut (default 5)")
    p.set_defaults(func=cmd_record)
