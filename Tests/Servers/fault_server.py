"""A fault server: answers with the failures an HTTP client must survive, and logs every request with its time.

Python standard library only; listens on 127.0.0.1. Every fault path has the form /{fault}/{key}/..., where `key` is
any string a test picks to keep its counters and log apart from other tests running at the same time.

  /ok/{key}                         200 JSON {"key", "count", "path", "query"} (count: requests so far for the key)
  /status/{key}/{code}              that status, JSON body
  /fail/{key}/{n}/{status}          the first n requests answer `status`, later ones 200 JSON; with
                                    ?retry_after=S a `Retry-After: S` header, with ?retry_after_date=S an HTTP-date S
                                    seconds ahead (rounded up to the next whole second)
  /slow/{key}?ms=N                  200 JSON after N ms; /__stats reports the most requests in flight at once
  /close-mid-body/{key}             Content-Length 1000, 100 bytes, then the connection closes
  /reset/{key}                      the connection is reset (RST) before any response
  /stall/{key}?seconds=S            headers (Content-Length 100), then nothing for S seconds (default 30)
  /trickle/{key}?bytes=N&interval_ms=M   N bytes (default 20), one every M ms (default 100)
  /malformed-json/{key}             200 application/json that is not valid JSON
  /truncated-gzip/{key}             200 Content-Encoding: gzip whose gzip stream is cut short (framed correctly by its
                                    Content-Length); to `Accept-Encoding: identity`, half the announced body, then close
  /blocked/{key}                    403 text/html bot-protection page
  /oversized/{key}?bytes=N          200 with N bytes (default 8 MiB), streamed
  /gzip-bomb/{key}?mb=N             200 Content-Encoding: gzip, a few KB that inflate to N MiB of zeros (default 64)
                                    naming the status, so a client that hands the redirect up can check its body
  /redirect-loop/{key}              302 to itself, forever
  /redirect-to-http/{key}           302 to http://127.0.0.1:{port}/ok/{key} (from the TLS listener: an https→http
                                    downgrade)
  /wrong-content-type/{key}?type=T  JSON body labelled T (default text/html)
  /auth/{key}?token=T               200 JSON when the request has `Authorization: Bearer T`, else 401
  /redirect/{key}/{status}/...?to=L that status (300-399) with `Location: L` exactly as given (relative, empty, not a
                                    URL, any scheme); without `to`, no Location at all; body "redirect {status} body"
  /flaky-file/{key}?size=N&cut=M    N bytes (byte i is i % 251) with `ETag: "v1"`, honouring `Range: bytes=A-` (206)
                                    when If-Range is absent or "v1"; the key's first request announces them all and
                                    closes the connection after M bytes (default N/2)
  /versioned-file/{key}?size=N&...  a file whose version, ETag, length or Last-Modified changes between requests, and
                                    which may ignore If-Range or answer 416 (fault_downloads.py names the parameters)
  /echo/{key}/...                   200 JSON {"method", "path", "query", "headers", "body", "length"}: the request as
                                    it arrived, its body as text

  /cache/{key}?h=Name:Value&...    200 with each `h` as a header line, in order (repeat `h` for repeated lines; a
                                    Name of `Date` or `Server` replaces the default one), body `body {count}` (or
                                    ?body=TEXT, then `TEXT {count}`); with ?etag=E and a request `If-None-Match: E`,
                                    304 with the same `h` lines and no body; ?status=N answers N; ?location=L and
                                    ?content-location=L send those fields; `h2` lines replace the `h` ones from
                                    the key's second request on. HEAD answers the same head, no body.

  GET /__log?key=K                  [{"time", "method", "path", "query", "headers", "length"}] for every request of
                                    key K (`length`: its body's bytes)
                                    (all requests without `key`); `time` is seconds since the epoch, float
  DELETE /__log?key=K               forgets the key's log and counters
  GET /__stats?key=K                {"count", "in_flight", "max_in_flight"}
  GET /__info                       {"http": URL, "https": URL or null}

With a certificate (--tls-cert/--tls-key, or the test harness's $SERVERS_STATE/tls/server.pem and server.key) it also
serves the same paths over TLS on a second free port, named by /__info.

    python3 Tests/Servers/fault_server.py --port 8081 --log requests.jsonl
"""
import argparse
import gzip
import json
import os
import socket
import ssl
import struct
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, unquote

import fault_downloads

LOCK = threading.Lock()
LOGS = {}          # key -> [entry]
COUNTS = {}        # key -> requests so far
IN_FLIGHT = {}     # key -> requests in /slow now
MAX_IN_FLIGHT = {}  # key -> most at once
LOG_FILE = None
URLS = {"http": None, "https": None}

BLOCK_PAGE = b"""<!DOCTYPE html>
<html><head><title>Just a moment...</title></head>
<body><h1>Checking your browser before accessing the site.</h1>
<p>This process is automatic. Your browser will redirect to your requested content shortly.</p></body></html>
"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ErrandFault/1.0"

    def log_message(self, format, *args):  # the request log is the record
        pass

    def finish(self):
        # After a reset or a cut-off body the socket is gone; flushing it must not print a traceback.
        try:
            super().finish()
        except OSError:
            pass

    # MARK: plumbing

    def parse(self):
        path, _, query = self.path.partition("?")
        segments = [unquote(s) for s in path.split("/") if s]
        params = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
        return path, query, segments, params

    def record(self, path, query, key):
        entry = {"time": time.time(), "method": self.command, "path": path, "query": query, "key": key,
                 "headers": {k: v for k, v in self.headers.items()}, "length": len(getattr(self, "body", b""))}
        with LOCK:
            LOGS.setdefault(key, []).append(entry)
            COUNTS[key] = COUNTS.get(key, 0) + 1
            count = COUNTS[key]
            if LOG_FILE:
                with open(LOG_FILE, "a") as f:
                    f.write(json.dumps(entry) + "\n")
        return count

    def read_body(self):
        self.body = b""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            self.body = b"".join(chunks)
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.body = self.rfile.read(length)

    def send_body(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_json(self, status, value, headers=None):
        self.send_body(status, json.dumps(value), "application/json", headers)

    def int_param(self, params, name, default, low=0, high=10**9):
        try:
            return max(low, min(high, int(params.get(name, default))))
        except ValueError:
            return default

    # MARK: dispatch

    def handle_any(self):
        self.read_body()
        path, query, segments, params = self.parse()
        if segments and segments[0].startswith("__"):
            return self.control(segments[0], params)
        if len(segments) < 2:
            return self.send_json(404, {"message": "paths are /{fault}/{key}/...; see the server's docstring"})
        fault, key, rest = segments[0], segments[1], segments[2:]
        count = self.record(path, query, key)
        handler = FAULTS.get(fault)
        if handler is None:
            return self.send_json(404, {"message": f"no fault named {fault}"})
        try:
            handler(self, key, rest, params, count, path)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = handle_any

    def control(self, name, params):
        key = params.get("key")
        if name == "__log":
            with LOCK:
                if self.command == "DELETE":
                    for table in (LOGS, COUNTS, IN_FLIGHT, MAX_IN_FLIGHT):
                        table.pop(key, None)
                    return self.send_json(200, [])
                entries = list(LOGS.get(key, [])) if key is not None else [e for v in LOGS.values() for e in v]
            entries.sort(key=lambda e: e["time"])
            return self.send_json(200, entries)
        if name == "__stats":
            with LOCK:
                stats = {"count": COUNTS.get(key, 0), "in_flight": IN_FLIGHT.get(key, 0),
                         "max_in_flight": MAX_IN_FLIGHT.get(key, 0)}
            return self.send_json(200, stats)
        if name == "__info":
            return self.send_json(200, URLS)
        self.send_json(404, {"message": "no such control path"})

    # MARK: faults

    def ok(self, key, rest, params, count, path):
        self.send_json(200, {"key": key, "count": count, "path": path, "query": params})

    def status(self, key, rest, params, count, path):
        code = int(rest[0]) if rest and rest[0].isdigit() else 500
        self.send_json(code, {"key": key, "status": code, "count": count})

    def fail(self, key, rest, params, count, path):
        if len(rest) < 2 or not rest[0].isdigit() or not rest[1].isdigit():
            return self.send_json(400, {"message": "use /fail/{key}/{n}/{status}"})
        failures, code = int(rest[0]), int(rest[1])
        if count > failures:
            return self.send_json(200, {"key": key, "count": count})
        headers = {}
        if "retry_after" in params:
            headers["Retry-After"] = params["retry_after"]
        if "retry_after_date" in params:
            ahead = float(params["retry_after_date"])
            # HTTP-dates have whole seconds: round up so the client never waits less than asked.
            headers["Retry-After"] = formatdate(int(time.time() + ahead) + 1, usegmt=True)
        if code == 403 and params.get("html", "1") == "1":
            return self.send_body(403, BLOCK_PAGE, "text/html; charset=utf-8", headers)
        self.send_json(code, {"key": key, "count": count, "status": code}, headers)

    def slow(self, key, rest, params, count, path):
        delay = self.int_param(params, "ms", 100, 0, 60_000) / 1000
        with LOCK:
            IN_FLIGHT[key] = IN_FLIGHT.get(key, 0) + 1
            MAX_IN_FLIGHT[key] = max(MAX_IN_FLIGHT.get(key, 0), IN_FLIGHT[key])
        try:
            time.sleep(delay)
        finally:
            with LOCK:
                IN_FLIGHT[key] -= 1
        self.send_json(200, {"key": key, "count": count, "query": params})

    def close_mid_body(self, key, rest, params, count, path):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"[" + b"1," * 49 + b"1")
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def reset(self, key, rest, params, count, path):
        # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def stall(self, key, rest, params, count, path):
        seconds = self.int_param(params, "seconds", 30, 0, 120)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "100")
        self.end_headers()
        self.wfile.flush()
        time.sleep(seconds)
        self.close_connection = True

    def trickle(self, key, rest, params, count, path):
        size = self.int_param(params, "bytes", 20, 0, 10_000)
        interval = self.int_param(params, "interval_ms", 100, 0, 10_000) / 1000
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        for _ in range(size):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(interval)

    def malformed_json(self, key, rest, params, count, path):
        self.send_body(200, b'{"meals": [{"idMeal": "52772", "strMeal": "Teriyaki', "application/json")

    def truncated_gzip(self, key, rest, params, count, path):
        body = json.dumps({"key": key, "numbers": [n * n % 9973 for n in range(3000)]}).encode()
        if self.headers.get("Accept-Encoding", "").strip().lower() == "identity":
            # A client that asked for no compression gets the body uncompressed, cut short the same way: half of the
            # Content-Length it announces, then the connection closes.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        whole = gzip.compress(body)
        self.send_body(200, whole[: len(whole) // 2], "application/json", {"Content-Encoding": "gzip"})

    def blocked(self, key, rest, params, count, path):
        self.send_body(403, BLOCK_PAGE, "text/html; charset=utf-8")

    def oversized(self, key, rest, params, count, path):
        size = self.int_param(params, "bytes", 8 * 1024 * 1024, 0, 512 * 1024 * 1024)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        chunk = b"\0" * 65536
        left = size
        while left > 0 and self.command != "HEAD":
            piece = chunk[: min(left, len(chunk))]
            self.wfile.write(piece)
            left -= len(piece)

    def redirect_loop(self, key, rest, params, count, path):
        self.send_body(302, b"", "text/plain", {"Location": f"/redirect-loop/{key}?hop={count}"})

    def redirect_to_http(self, key, rest, params, count, path):
        self.send_body(302, b"", "text/plain", {"Location": f"{URLS['http']}/ok/{key}"})

    def auth(self, key, rest, params, count, path):
        expected = "Bearer " + params.get("token", "")
        if self.headers.get("Authorization") != expected:
            return self.send_json(401, {"message": "token missing or expired"}, {"WWW-Authenticate": "Bearer"})
        self.send_json(200, {"key": key, "count": count})

    def redirect(self, key, rest, params, count, path):
        code = self.int_param({"s": rest[0] if rest else "302"}, "s", 302, 300, 399)
        headers = {"Location": params["to"]} if "to" in params else {}
        self.send_body(code, f"redirect {code} body", "text/plain", headers)

    def flaky_file(self, key, rest, params, count, path):
        size = self.int_param(params, "size", 100_000, 1, 64 * 1024 * 1024)
        cut = self.int_param(params, "cut", size // 2, 0, size)
        data = bytes(i % 251 for i in range(size))
        start = 0
        byte_range = self.headers.get("Range", "")
        if byte_range.startswith("bytes=") and self.headers.get("If-Range", '"v1"') == '"v1"':
            start = int(byte_range[6:].split("-")[0] or 0)
        self.send_response(206 if start else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("ETag", '"v1"')
        self.send_header("Content-Length", str(size - start))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.end_headers()
        if count == 1:
            self.wfile.write(data[:cut])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        self.wfile.write(data[start:])

    def echo(self, key, rest, params, count, path):
        self.send_json(200, {
            "method": self.command, "path": path, "query": params,
            "headers": {k: v for k, v in self.headers.items()},
            "body": self.body.decode("utf-8", "replace"), "length": len(self.body)})

    def gzip_bomb(self, key, rest, params, count, path):
        # Zeros compress about a thousandfold: 64 MiB inflate from ~64 KB on the wire, no Content-Length of the whole.
        size = self.int_param(params, "mb", 64, 1, 1024) * 1024 * 1024
        body = GZIP_BOMB_CACHE.get(size)
        if body is None:
            body = GZIP_BOMB_CACHE[size] = gzip.compress(b"\0" * size, compresslevel=9)
        self.send_body(200, body, "application/json", {"Content-Encoding": "gzip"})

    def cache(self, key, rest, params, count, path):
        # parse_qs keeps only the last of a repeated name above; the header lines need every one, in order.
        query = self.path.partition("?")[2]
        lines = []
        # From the key's second request on, `h2` lines (when there are any) stand in for the `h` ones.
        chosen = "h2" if count >= 2 and "h2=" in query else "h"
        for name, value in parse_qsl(query, keep_blank_values=True):
            if name == chosen and ":" in value:
                field, _, text = value.partition(":")
                lines.append((field.strip(), text.strip()))
            elif name in ("location", "content-location"):
                lines.append((name.title(), value))
        etag = params.get("etag")
        status = self.int_param(params, "status", 200, 100, 599)
        if etag is not None and self.headers.get("If-None-Match") == etag:
            status = 304
        body = b"" if status == 304 else f"{params.get('body', 'body')} {count}".encode("utf-8")
        names = {field.lower() for field, _ in lines}
        self.send_response_only(status)
        if "date" not in names:
            self.send_header("Date", formatdate(usegmt=True))
        if etag is not None and "etag" not in names:
            self.send_header("ETag", etag)
        self.send_header("Content-Type", "text/plain")
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        for field, text in lines:
            self.send_header(field, text)
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def wrong_content_type(self, key, rest, params, count, path):
        self.send_body(200, json.dumps({"key": key}), params.get("type", "text/html"))


FAULTS = {
    "ok": Handler.ok, "status": Handler.status, "fail": Handler.fail, "slow": Handler.slow,
    "close-mid-body": Handler.close_mid_body, "reset": Handler.reset, "stall": Handler.stall,
    "trickle": Handler.trickle, "malformed-json": Handler.malformed_json, "truncated-gzip": Handler.truncated_gzip,
    "blocked": Handler.blocked, "oversized": Handler.oversized,
    "redirect-loop": Handler.redirect_loop,
    "redirect-to-http": Handler.redirect_to_http, "wrong-content-type": Handler.wrong_content_type,
    "auth": Handler.auth, "gzip-bomb": Handler.gzip_bomb, "redirect": Handler.redirect, "echo": Handler.echo,
    "flaky-file": Handler.flaky_file, "cache": Handler.cache,
}
FAULTS.update(fault_downloads.ROUTES)
GZIP_BOMB_CACHE = {}


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def start_tls(cert, key_file):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key_file)
    server = Server(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    URLS["https"] = f"https://localhost:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()


def main():
    global LOG_FILE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--log", help="also append every request to this file as JSON lines")
    parser.add_argument("--tls-cert", help="certificate for the TLS listener")
    parser.add_argument("--tls-key", help="private key for the TLS listener")
    args = parser.parse_args()
    LOG_FILE = args.log
    server = Server(("127.0.0.1", args.port), Handler)
    # The port the server got: with --port 0 the kernel picks a free one, which only the bound socket knows.
    URLS["http"] = f"http://127.0.0.1:{server.server_address[1]}"
    cert, key_file = args.tls_cert, args.tls_key
    state = os.environ.get("SERVERS_STATE")
    if not cert and state and os.path.exists(os.path.join(state, "tls", "server.pem")):
        cert, key_file = os.path.join(state, "tls", "server.pem"), os.path.join(state, "tls", "server.key")
    if cert and key_file:
        start_tls(cert, key_file)
    print(f"fault server on {URLS['http']} (TLS: {URLS['https'] or 'off'})", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
