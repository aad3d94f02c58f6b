"""A cookie server for the tests: routes that set cookies in every form and report the Cookie field they received.

Python standard library only; listens on 127.0.0.1 (reach it as 127.0.0.1 and as localhost: two hosts, so a test can
cross servers). Every path has the form /{route}/{key}/..., where `key` is any string a test picks.

  /set/{key}/...?c=V&c=W    200; one Set-Cookie field per `c` value, exactly as given (percent-decoded)
  /redirect/{key}/...?to=URL&status=302&c=V
                            a redirect (302 by default) to URL with the same Set-Cookie fields
  /echo/{key}/...           200; the body is the Cookie field received (empty when there was none)
  every route               answers with `X-Cookie-Received`: the Cookie field it received, or `-` for none
  GET /__log?key=K          [{"path", "cookie"}] for every request of key K, cookie null when absent

    python3 Tests/Servers/cookie_server.py --port 8083
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
LOGS = {}  # key -> [entry]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        parts = url.path.strip("/").split("/")
        route = parts[0] if parts else ""
        key = parts[1] if len(parts) > 1 else ""
        cookie = self.headers.get("Cookie")
        if route == "__log":
            with LOCK:
                entries = LOGS.get(query.get("key", [""])[-1], [])
            return self.answer(200, json.dumps(entries).encode(), "application/json", cookie)
        with LOCK:
            LOGS.setdefault(key, []).append({"path": url.path, "cookie": cookie})
        set_cookies = query.get("c", [])
        if route == "set":
            return self.answer(200, b"set\n", "text/plain", cookie, set_cookies)
        if route == "redirect":
            status = int(query.get("status", ["302"])[-1])
            location = query.get("to", ["/echo/" + key])[-1]
            return self.answer(status, b"", "text/plain", cookie, set_cookies, {"Location": location})
        if route == "echo":
            return self.answer(200, (cookie or "").encode(), "text/plain", cookie)
        self.answer(404, b"no such route\n", "text/plain", cookie)

    do_HEAD = do_GET

    def answer(self, code, body, content_type, cookie, set_cookies=(), extra=None):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Cookie-Received", cookie if cookie is not None else "-")
        for value in set_cookies:
            self.send_header("Set-Cookie", value)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


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
