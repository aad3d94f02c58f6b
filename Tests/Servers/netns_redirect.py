"""Runs a command inside a network namespace of its own, next to a loopback server that answers every request with
a redirect to an address off the machine, and reports what the server saw.

Start it as `unshare -n /usr/bin/python3 Tests/Servers/netns_redirect.py TARGET -- COMMAND ARGS...` (`-rn` when not
root): `unshare`
gives this process a network namespace with nothing but its own loopback (brought up here), so even a client that
followed the redirect could reach nothing outside. `{base}` in the command's arguments becomes the server's root
URL. Prints one JSON line: {"status": exit status, "stdout", "stderr", "requests": [paths the server received]}.
"""
import fcntl
import json
import socket
import struct
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SIOCSIFFLAGS = 0x8914
IFF_UP, IFF_LOOPBACK = 0x1, 0x8


def bring_up_loopback():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", IFF_UP | IFF_LOOPBACK))


def main():
    separator = sys.argv.index("--")
    target, command = sys.argv[1], sys.argv[separator + 1:]
    bring_up_loopback()
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass

        def do_GET(self):
            seen.append(self.path)
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    run = subprocess.run([part.replace("{base}", base) for part in command], capture_output=True, text=True,
                         timeout=60)
    server.shutdown()
    print(json.dumps({"status": run.returncode, "stdout": run.stdout, "stderr": run.stderr, "requests": seen}))


if __name__ == "__main__":
    main()
