"""`logcodec docs`: the generated format docs served on 127.0.0.1, with decode-your-bytes."""

from __future__ import annotations

import sys

from logcodec._cli_io import schema_file
from logcodec.cli._names import shipped_data


def cmd_docs(args) -> int:
    import webbrowser

    from logcodec import docserver, inspector

    docs = shipped_data() / "docs"
    if not (docs / "index.html").exists():
        print(f"logcodec docs: no {docs / 'index.html'}; run `logcodec generate` in a checkout", file=sys.stderr)
        return 1
    if args.path:
        print(docs / "index.html")
        return 0
    inspectors = []
    user_formats: list[str] = []
    if args.schema:  # compiled in memory: the server writes no file
        user = docserver.user_inspector(schema_file(args.schema), tuple(args.include or ()))
        inspectors.append(user)
        user_formats = user.names()
    inspectors.append(inspector.builtin())
    app = docserver.DocsServer(docs, inspectors, titles=docserver.titles_of(inspectors), user_formats=user_formats,
                               max_bytes=args.max_bytes, max_body=3 * args.max_bytes)
    server = docserver.make_server(app, args.port, quiet=args.quiet)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {docs} at {url} (decode your own bytes: {url}decode.html; Ctrl-C stops)", flush=True)
    if user_formats:
        print(f"schema {args.schema}: {', '.join(user_formats)}", flush=True)
    if args.open:
        webbrowser.open(url + ("decode.html" if args.schema else ""))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def add_docs(sub) -> None:
    """`logcodec docs`."""
    p = sub.add_parser("docs", help="serve the generated format docs on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
    p.add_argument("--open", action="store_true", help="also open a browser")
    p.add_argument("--path", action="store_true", help="only print the path of index.html")
    p.add_argument("--schema", metavar="KSY", help="also decode this Kaitai schema's format (compiled in memory)")
    p.add_argument("-I", "--include", action="append", metavar="DIR", help="where --schema's imports are looked up")
    p.add_argument("--max-bytes", type=int, default=256 << 10, help="largest input /api/decode takes (default 256 KiB)")
    p.add_argument("--quiet", action="store_true", help="do not log requests")
    p.set_defaults(func=cmd_docs)
