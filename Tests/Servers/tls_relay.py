#!/usr/bin/env python3
"""TLS in front of a TCP server: with --target set to an HTTP proxy, an HTTPS proxy (TLS to the proxy itself).

It accepts TLS on 127.0.0.1 with the given certificate, opens a plain connection to --target for each client and
copies bytes both ways. Every connection it relays is appended to the --log file as one JSON line
({"tls": version, "target": "host:port"}), so a test can show that a request took the TLS route.
"""
import argparse
import json
import socket
import socketserver
import ssl
import threading

LOG_LOCK = threading.Lock()


def pump(source, target):
    try:
        while True:
            chunk = source.recv(65536)
            if not chunk:
                break
            target.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Relay(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--target", required=True, help="host:port to relay to")
    parser.add_argument("--certificate", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.certificate, args.key)

    class Handler(socketserver.BaseRequestHandler):
        def handle(self):
            try:
                client = context.wrap_socket(self.request, server_side=True)
            except (ssl.SSLError, OSError):
                return
            with LOG_LOCK, open(args.log, "a") as log:
                log.write(json.dumps({"tls": client.version(), "target": args.target}) + "\n")
            upstream = socket.create_connection((host, int(port)))
            back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
            back.start()
            pump(client, upstream)
            back.join()
            client.close()
            upstream.close()

    with Relay(("127.0.0.1", args.port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
