"""A local replica of TheMealDB and The Met Collection API, for tests, demos and offline use of the CLIs.

Python standard library only; listens on 127.0.0.1. The two services live in replica_mealdb.py (paths under
/api/json/v1/1/ and /api/json/v2/{key}/) and replica_met.py (paths under /public/collection/v1/), each serving sample
data the project wrote itself; replica_synthetic.py serves a generated Met collection of any size, changing over
time, under /synthetic/{size}/{seed}/{epoch}/. Every request is logged: GET /__requests returns the log as JSON
(`[{"time", "method", "path", "query", "headers"}]`, `query` exactly as received, still percent-encoded), and
DELETE /__requests clears it. With --log FILE the log is also appended to FILE as JSON lines.

POST /__settings?size_variants=missing makes every picture's size variant answer 404 (TheMealDB's `/small`,
`/medium`, `/large`, `/preview` and ingredients' `-small` … files, the Met's `web-large` images), as a server that
has only the originals does; POST /__settings?size_variants=served restores them. GET /__settings shows the settings.

    python3 Tests/Servers/replica.py --port 8080
    python3 Tests/Servers/replica.py --port 0 --synthetic 20000/7/0    # port 0: a free one, printed on start
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import replica_mealdb  # noqa: E402
import replica_met  # noqa: E402
import replica_synthetic  # noqa: E402

LOG = []
LOG_LOCK = threading.Lock()
LOG_FILE = None
# With --synthetic SIZE/SEED/EPOCH, the Met's own paths serve that synthetic collection instead of the sample.
SYNTHETIC = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ErrandReplica/1.0"

    def log_message(self, format, *args):  # keep stderr quiet; the request log is the record
        pass

    def record(self):
        path, _, query = self.path.partition("?")
        entry = {"time": time.time(), "method": self.command, "path": path, "query": query,
                 "headers": {k: v for k, v in self.headers.items()}}
        with LOG_LOCK:
            LOG.append(entry)
            if LOG_FILE:
                with open(LOG_FILE, "a") as f:
                    f.write(json.dumps(entry) + "\n")
        return path, query

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

    def do_GET(self):
        if self.path.startswith("/__settings"):
            return self.send_json(200, self.server.settings())
        if self.path.startswith("/__requests"):
            with LOG_LOCK:
                return self.send_json(200, list(LOG))
        path, query = self.record()
        if SYNTHETIC and replica_met.handles(path):
            path = f"{replica_synthetic.ROOT}{SYNTHETIC}{path}"
        for service in (replica_mealdb, replica_met, replica_synthetic):
            if service.handles(path):
                return service.handle(self, path, query)
        self.send_json(404, {"message": "no such path on the replica"})

    do_HEAD = do_GET

    def do_POST(self):
        if not self.path.startswith("/__settings"):
            self.record()
            return self.send_json(405, {"message": "method not allowed"})
        _, _, query = self.path.partition("?")
        choice = dict(parse_qsl(query)).get("size_variants")
        if choice not in ("missing", "served"):
            return self.send_json(400, {"message": "size_variants must be missing or served"})
        self.server.size_variants_served = choice == "served"
        self.send_json(200, self.server.settings())

    def do_DELETE(self):
        if self.path.startswith("/__requests"):
            with LOG_LOCK:
                LOG.clear()
            return self.send_json(200, [])
        self.record()
        self.send_json(405, {"message": "method not allowed"})


class Server(ThreadingHTTPServer):
    # socketserver's default backlog of 5 drops the SYNs of a client opening 8 connections at once; the kernel then
    # resends them a second later, and requests sent together arrive a second apart, which no real service does.
    request_queue_size = 128
    daemon_threads = True
    # Whether pictures' size variants exist (POST /__settings); every thread reads it, one request at a time sets it.
    size_variants_served = True

    def settings(self):
        return {"size_variants": "served" if self.size_variants_served else "missing"}


def main():
    global LOG_FILE, SYNTHETIC
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--log", help="also append every request to this file as JSON lines")
    parser.add_argument("--synthetic", metavar="SIZE/SEED/EPOCH",
                        help="serve this synthetic collection at the Met's paths (see replica_synthetic.py)")
    args = parser.parse_args()
    LOG_FILE = args.log
    if args.synthetic:
        parts = args.synthetic.split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            parser.error("--synthetic takes SIZE/SEED/EPOCH, as 2000/7/0")
        SYNTHETIC = args.synthetic
    server = Server(("127.0.0.1", args.port), Handler)
    print(f"replica on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
