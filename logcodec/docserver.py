"""`logcodec docs`: the docs site on 127.0.0.1, and live decoding through `POST /api/decode`.

The site is the static `generated/docs/`; the golden vectors and JSON Schemas its pages
link to (`../vectors/`, `../schema/` from the site's root, as in the file tree) are
served from beside it, read-only. The API:

- `GET /api/formats`: `{"formats": [{"name", "title", "user"}], "max_bytes", "max_body"}`.
- `POST /api/decode` with the JSON body `{"format": NAME or "auto", "hex": HEX}` (or
  `"base64": TEXT`; optional `"stream": true` for values laid end to end): the canonical
  JSON `value`, `ranges` (field path to `[start, end]`, see `logcodec.inspector`), `texts`
  (field path to the text of a bytes field that is printable UTF-8), the DecodeError as
  `error` (`kind`, `offset`, `path`, `detail`) when there is one, `consumed` and a stream's
  `partial` last value. A format whose root takes params (`kafka.response`: the API it
  answers) is given them as `"params": {"api_key": 3, "api_version": 12}`; `/api/formats`
  lists each format's `params`. With `"auto"`, every format is tried (`logcodec.detection`):
  `candidates` lists those that read the whole input, and `detected` says whether the best
  of them is claimed, on evidence (`undetected` says why not).
- A composite format reads a second input, named by what it `needs` in `/api/formats` (with
  "auto", giving it picks that format): `inkless.block_with_metadata` an Inkless object through
  its `"metadata": {"hex"|"base64"|"text": ...}`, checked as `logcodec inkless validate` checks
  it, the disagreements in `findings` (see `BlockWithMetadata`); `kafka.conversation` a client's
  bytes with the broker's, `"responses": {"hex"|"base64": ...}` (optional), its findings the
  frames that do not read and the responses that answer nothing (see `ConversationPage`).

Bad input is answered, never raised: every failure is a JSON `{"message": ...}` with a
4xx status. The server binds 127.0.0.1 only, refuses bodies over `max_body` before
reading them, and writes no file.
"""

from __future__ import annotations

import http.server
import json
import sys
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from logcodec import composites, detection
from logcodec._api import root_params_problems
from logcodec.inputs import InputError, InputTooLarge, spec_bytes
from logcodec.inspector import Format, Inspector

MAX_BYTES = 256 << 10  # bytes of input one request may decode: the answer (value and ranges) is about 40 times larger
MAX_BODY = 3 * MAX_BYTES  # a JSON body: hex takes two characters a byte, with room for whitespace
DRAIN_LIMIT = 64 << 20  # a body over the limit but under this is read and dropped before the answer


class BadInput(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def root_params(given, module) -> dict:
    """The root's params of a decode request, by name, checked against the module's `PARAMS` (an
    integer or a bool each, and every one the root needs), or BadInput saying what is wrong."""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise BadInput(400, "\"params\" must be an object: {\"NAME\": VALUE}")
    problems = root_params_problems(module, given, module.FORMAT)
    if problems:
        raise BadInput(400, f"{problems[0]} (\"params\": {{\"NAME\": VALUE}})")
    return given


def parse_bytes(body: dict, max_bytes: int = MAX_BYTES, what: str = "the input") -> bytes:
    """The input bytes of a decode request (`hex` or `base64`), or BadInput saying what is wrong
    (`what`: the input, the metadata)."""
    try:
        return spec_bytes(body, max_bytes, what)
    except InputTooLarge as exc:
        raise BadInput(413, str(exc)) from None
    except InputError as exc:
        raise BadInput(400, str(exc)) from None


class DocsServer:
    """The state of one `logcodec docs`: where the files are and what can be decoded."""

    def __init__(self, docs: Path, inspectors: list[Inspector], *, max_bytes: int = MAX_BYTES,
                 max_body: int = MAX_BODY, titles: dict[str, str] | None = None,
                 user_formats: tuple = ()) -> None:
        self.docs = Path(docs).resolve()
        # The site's links to vectors and JSON Schemas go above it, as the files lie (generated/).
        self.mounts = {"vectors": self.docs.parent / "vectors", "schema": self.docs.parent / "schema"}
        self.inspectors = inspectors
        self.max_bytes, self.max_body = max_bytes, max_body
        self.titles = titles or {}
        self.user_formats = set(user_formats)
        # Formats read from the input and a second one (an Inkless object and its metadata), where
        # the formats they are built on are here.
        self.paired = composites.pages(inspectors)
        for p in self.paired.values():
            self.titles.setdefault(p.name, p.title)

    def formats(self) -> list[str]:
        return [n for i in self.inspectors for n in i.names()] + list(self.paired)

    def format_info(self) -> list[dict]:
        """What `GET /api/formats` lists: each format's name and title, whether it is the user's,
        and for a paired format the second input it needs and examples of both inputs."""
        out = [{"name": n, "title": self.titles.get(n, n), "user": n in self.user_formats,
                "params": list(i.formats[n].module.REQUIRED_PARAMS)}  # those it needs
               for i in self.inspectors for n in i.names()]
        for p in self.paired.values():
            out.append({"name": p.name, "title": p.title, "user": False, "needs": p.needs,
                        "examples": p.examples(self.mounts["vectors"])})
        return out

    def inspector(self, name: str) -> Inspector | None:
        return next((i for i in self.inspectors if name in i.formats), None)

    def file_for(self, url_path: str) -> Path | None:
        """The file a GET names, inside the site or a mount; None for anything else."""
        parts = [p for p in unquote(url_path).split("/") if p not in ("", ".")]
        if any(p == ".." or "\\" in p or p.startswith(".") for p in parts):
            return None
        base = self.docs
        if parts and parts[0] in self.mounts:
            base, parts = self.mounts[parts[0]], parts[1:]
        path = base.joinpath(*parts) if parts else base
        if path.is_dir():
            path = path / "index.html"
        try:
            path.resolve().relative_to(base.resolve())
        except ValueError:
            return None
        return path if path.is_file() else None

    def decode(self, body: dict) -> dict:
        if not isinstance(body, dict):
            raise BadInput(400, "the body must be a JSON object: {\"format\": NAME, \"hex\": HEX}")
        name = body.get("format", "auto")
        stream = body.get("stream", False)
        if not isinstance(name, str):
            raise BadInput(400, "\"format\" must be a format's name or \"auto\"")
        if not isinstance(stream, bool):
            raise BadInput(400, "\"stream\" must be true or false")
        data = parse_bytes(body, self.max_bytes)
        given = [p for p in self.paired.values() if body.get(p.needs["key"]) is not None]
        if given or name in self.paired:
            return self.decode_paired(name, data, body, given)
        if name in ("", "auto"):
            return self.detect(data, stream)
        inspector = self.inspector(name)
        if inspector is None:
            raise BadInput(404, f"unknown format {name!r}; known: {', '.join(self.formats())}")
        return inspector.decode(name, data, stream=stream,
                                params=root_params(body.get("params"), inspector.formats[name].module))

    def decode_paired(self, name: str, data: bytes, body: dict, given: list) -> dict:
        """A format read from two inputs (each names its second one, `needs["key"]`); with "auto",
        the one whose second input was given."""
        detected = name in ("", "auto")
        paired = (given[0] if len(given) == 1 else None) if detected else self.paired.get(name)
        wrong = [p for p in given if p is not paired]
        if paired is None or wrong:
            keys = " and ".join(f"\"{p.needs['key']}\"" for p in (wrong or given))
            there = ", ".join(p.name for p in (wrong or given))
            raise BadInput(400, f"{keys} goes with {there}, not with {name}" if not detected else
                           f"give one second input, not {keys}: it names the format")
        second = body.get(paired.needs["key"])
        if second is None and not paired.needs.get("optional"):
            raise BadInput(400, f"{paired.name} needs its {paired.needs['label'].lower()} too: add "
                                f"\"{paired.needs['key']}\": {{\"hex\": HEX}} (or \"base64\", or \"text\")")
        try:
            answer = paired.decode(data, second, self.max_bytes)
        except InputTooLarge as exc:
            raise BadInput(413, str(exc)) from None
        except InputError as exc:
            raise BadInput(400, str(exc)) from None
        if detected:
            answer["detected"], answer["candidates"] = True, [paired.name]
        return answer

    def detect(self, data: bytes, stream: bool) -> dict:
        """`"format": "auto"`: the reading with the most evidence (`logcodec.detection`), the user's
        formats first among equals; `detected` only where the bytes vouch for it."""
        answer = detection.detect(self.inspectors, data, stream=stream, preferred=frozenset(self.user_formats))
        if not answer["detected"]:
            answer["undetected"] = detection.unclaimed_reason(answer)
        return answer


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "logcodec-docs"
    app: DocsServer  # set on the subclass made by `make_server`
    quiet = False

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        if not self.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    # ------------------------------------------------------------ answers

    def send_json(self, status: int, obj) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def message(self, status: int, text: str) -> None:
        self.send_json(status, {"message": text})

    # ------------------------------------------------------------ methods

    def do_GET(self) -> None:
        self.guard(self.get)

    def do_HEAD(self) -> None:
        self.guard(self.get)

    def do_POST(self) -> None:
        self.guard(self.post)

    def _refuse(self) -> None:
        self.guard(lambda: self.message(405, f"{self.command} is not supported here"))

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def guard(self, action) -> None:
        """Whatever goes wrong is a JSON message, never a traceback to the client."""
        try:
            action()
        except BadInput as exc:
            self.message(exc.status, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug: say so, keep serving
            self.log_message("error: %r", exc)
            try:
                self.message(500, f"internal error ({type(exc).__name__}); please report it with the input")
            except OSError:
                pass

    def get(self) -> None:
        path = urlsplit(self.path).path
        if path == "/api/formats":
            app = self.app
            self.send_json(200, {"formats": app.format_info(), "max_bytes": app.max_bytes, "max_body": app.max_body})
            return
        if path.startswith("/api/"):
            self.message(404 if path != "/api/decode" else 405,
                         "POST a JSON body to /api/decode" if path == "/api/decode" else f"no API at {path}")
            return
        file = self.app.file_for(path)
        if file is None:
            self.send_response(404)
            body = b"<!DOCTYPE html><title>Not found</title><p>Not found. <a href=\"/\">The docs' index</a>.</p>\n"
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        data = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", _content_type(file))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def post(self) -> None:
        path = urlsplit(self.path).path
        if path != "/api/decode":
            raise BadInput(404, f"no API at {path}; POST to /api/decode")
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            self.close_connection = True
            raise BadInput(411, "a body with a Content-Length is needed")
        n = int(length)
        if n > self.app.max_body:
            self.close_connection = True
            # Read and drop a body of moderate size, so that the client, still sending it, gets the
            # message (a browser reports a connection closed mid-request as a network error);
            # beyond that the connection is closed at once. Nothing of it is kept.
            if n <= DRAIN_LIMIT:
                left = n
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 16))
                    if not chunk:
                        break
                    left -= len(chunk)
            raise BadInput(413, f"the request is {n:,} bytes; the limit is {self.app.max_body:,} "
                                f"(inputs up to {self.app.max_bytes:,} bytes)")
        raw = self.rfile.read(n)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):  # (nesting too deep for the parser)
            raise BadInput(400, "the body is not JSON: send {\"format\": NAME, \"hex\": HEX}") from None
        self.send_json(200, self.app.decode(body))


_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".json": "application/json; charset=utf-8", ".svg": "image/svg+xml", ".ksy": "text/plain; charset=utf-8",
          ".txt": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8"}


def _content_type(path: Path) -> str:
    return _TYPES.get(path.suffix, "application/octet-stream")


def make_server(app: DocsServer, port: int = 0, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A server bound to 127.0.0.1 (never another address); port 0 picks a free one."""
    handler = type("BoundHandler", (Handler,), {"app": app, "quiet": quiet})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def titles_of(inspectors: list[Inspector]) -> dict[str, str]:
    return {name: title for i in inspectors for name, title in i.titles().items()}


def user_inspector(path: Path, include: tuple = ()) -> Inspector:
    """A user's schema (and those it imports), compiled in memory for `logcodec docs --schema`, both
    variants (the codec and its trace); nothing is written."""
    # the generator, loaded only for a user's schema
    from logcodec.generator.compile import load
    from logcodec.generator.in_memory import load_modules
    from logcodec.generator.python.trace import trace_module

    _, schemas = load([Path(path)], "lcdocs_user", include)
    modules = load_modules(schemas)
    return Inspector({s.id: Format(s.id, modules[trace_module(s.module)].TITLE, modules[s.module],
                                   modules[trace_module(s.module)]) for s in schemas if not s.root.primitive})


def serve_in_thread(app: DocsServer, port: int = 0, quiet: bool = True):
    """(server, base URL): a server running in a daemon thread, for tests and embedding."""
    server = make_server(app, port, quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


__all__ = ["DocsServer", "BadInput", "make_server", "parse_bytes", "serve_in_thread", "MAX_BYTES", "MAX_BODY"]
