"""A Server-Sent Events server for the tests: event streams that drop, resume from Last-Event-ID and end with 204.

Python standard library only; listens on 127.0.0.1. Every path has the form /{route}/{key}..., where `key` is any
string a test picks to keep its log apart from other tests.

  /events/{key}?total=N&per_connection=M&retry=MS
        text/event-stream of events `id: i`, `event: tick`, `data: event i` for i from Last-Event-ID + 1 (1 without
        the header) to N (default 10); after M events (default: all) the connection is closed mid-stream. A request
        whose Last-Event-ID is N or more gets 204 No Content. With `retry`, each connection first sends `retry: MS`.
  /status/{key}/{code}      that status with a text/plain body
  /wrong-type/{key}         200 text/html
  /hold/{key}               one event, then holds the connection open until the client closes it
  /closed/{key}?timeout=S   waits (at most S seconds, default 5) until the client closed /hold/{key}; 200 {"closed": true}
                            or 408 {"closed": false}
  /spec/{key}               a BOM and the WHATWG examples with CR, LF and CRLF line ends, written a few bytes at a time
  GET /__log?key=K          [{"path", "query", "last_event_id", "accept", "cache_control", "authorization"}] for every
                            request of key K

    python3 Tests/Servers/sse_server.py --port 8082
"""
import argparse
import json
import select
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
CONDITION = threading.Condition(LOCK)
LOGS = {}      # key -> [entry]
CLOSED = set()  # keys whose /hold connection the client closed

SPEC_STREAM = (
    b"\xef\xbb\xbf"                                 # a leading byte order mark, ignored
    b": a comment\r\n"
    b"data: first\r\ndata: second\r\n\r\n"          # CRLF line ends, two data lines
    b"event: named\rdata:  two spaces\r\r"          # CR line ends; only one space after the colon is dropped
    b"id: 7\ndata\n\n"                              # LF; a field name alone is an empty value
    b"data:third\nretry: 250\nunknown: x\n\n"       # no space after the colon; retry; an unknown field
    b"retry: soon\nid\ndata: fourth\n\n"            # an invalid retry is ignored; an empty id resets the last ID
    b"data: never dispatched"                       # the stream ends without a blank line
)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/")
        route = parts[0] if parts else ""
        key = parts[1] if len(parts) > 1 else ""
        if route == "__log":
            with LOCK:
                return self.json(200, LOGS.get(query.get("key", ""), []))
        with LOCK:
            LOGS.setdefault(key, []).append({
                "path": url.path, "query": url.query, "last_event_id": self.headers.get("Last-Event-ID"),
                "accept": self.headers.get("Accept"), "cache_control": self.headers.get("Cache-Control"),
                "authorization": self.headers.get("Authorization")})
        if route == "events":
            return self.events(query)
        if route == "status":
            code = int(parts[2]) if len(parts) > 2 else 500
            return self.body(code, "text/plain", b"status %d\n" % code)
        if route == "wrong-type":
            return self.body(200, "text/html", b"<!DOCTYPE html><html><body>not events</body></html>")
        if route == "hold":
            return self.hold(key)
        if route == "closed":
            return self.closed(key, float(query.get("timeout", "5")))
        if route == "spec":
            return self.spec()
        self.body(404, "text/plain", b"no such route\n")

    def json(self, code, value):
        self.body(code, "application/json", json.dumps(value).encode())

    def body(self, code, content_type, data):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()

    def events(self, query):
        total = int(query.get("total", "10"))
        per_connection = int(query.get("per_connection", str(total)))
        last = self.headers.get("Last-Event-ID")
        start = int(last) + 1 if last and last.isdigit() else 1
        if start > total:
            self.send_response(204)
            self.end_headers()
            return
        self.start_stream()
        try:
            if "retry" in query:
                self.wfile.write(b"retry: %s\n\n" % query["retry"].encode())
            sent = 0
            for i in range(start, total + 1):
                if sent == per_connection:
                    break
                self.wfile.write(b"id: %d\nevent: tick\ndata: event %d\n\n" % (i, i))
                self.wfile.flush()
                sent += 1
        except OSError:
            pass
        # Closing here, after the last event of this connection, is the drop.

    def hold(self, key):
        self.start_stream()
        self.wfile.write(b"id: 1\ndata: held\n\n")
        self.wfile.flush()
        sock = self.connection
        deadline = time.time() + 30
        while time.time() < deadline:
            readable, _, _ = select.select([sock], [], [], 0.5)
            if readable:
                try:
                    if not sock.recv(1024):
                        break
                except OSError:
                    break
        with CONDITION:
            CLOSED.add(key)
            CONDITION.notify_all()

    def closed(self, key, timeout):
        deadline = time.time() + timeout
        with CONDITION:
            while key not in CLOSED and time.time() < deadline:
                CONDITION.wait(deadline - time.time())
            closed = key in CLOSED
        self.json(200 if closed else 408, {"closed": closed})

    def spec(self):
        self.start_stream()
        for i in range(0, len(SPEC_STREAM), 3):
            self.wfile.write(SPEC_STREAM[i:i + 3])
            self.wfile.flush()
            time.sleep(0.001)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
