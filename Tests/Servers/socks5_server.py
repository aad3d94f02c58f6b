#!/usr/bin/env python3
"""A SOCKS5 proxy (RFC 1928) for the proxy tests: no authentication, CONNECT only, 127.0.0.1 only.

Every tunnel it opens is appended to the --log file as one JSON line: {"type": "ipv4"|"domain"|"ipv6", "host": ...,
"port": ...}, so a test can tell whether the client or the proxy resolved the host name (socks5 against socks5h).
"""
import argparse
import ipaddress
import json
import socket
import socketserver
import struct
import threading

LOG_LOCK = threading.Lock()


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("client closed during the handshake")
        data += chunk
    return data


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


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        client = self.request
        try:
            version, count = read_exactly(client, 2)
            methods = read_exactly(client, count)
            if version != 5 or 0 not in methods:
                client.sendall(b"\x05\xff")
                return
            client.sendall(b"\x05\x00")
            version, command, _, kind = read_exactly(client, 4)
            if kind == 1:
                host, label = str(ipaddress.IPv4Address(read_exactly(client, 4))), "ipv4"
            elif kind == 3:
                host, label = read_exactly(client, read_exactly(client, 1)[0]).decode("idna"), "domain"
            elif kind == 4:
                host, label = str(ipaddress.IPv6Address(read_exactly(client, 16))), "ipv6"
            else:
                client.sendall(b"\x05\x08\x00\x01" + bytes(6))
                return
            (port,) = struct.unpack("!H", read_exactly(client, 2))
            if command != 1:
                client.sendall(b"\x05\x07\x00\x01" + bytes(6))
                return
            with LOG_LOCK, open(self.server.log_path, "a") as log:
                log.write(json.dumps({"type": label, "host": host, "port": port}) + "\n")
            try:
                upstream = socket.create_connection((host, port), timeout=10)
            except OSError:
                client.sendall(b"\x05\x05\x00\x01" + bytes(6))
                return
            upstream.settimeout(None)
            bound_host, bound_port = upstream.getsockname()[:2]
            address = ipaddress.ip_address(bound_host)
            reply_kind = b"\x01" if address.version == 4 else b"\x04"
            client.sendall(b"\x05\x00\x00" + reply_kind + address.packed + struct.pack("!H", bound_port))
            other = threading.Thread(target=pump, args=(upstream, client), daemon=True)
            other.start()
            pump(client, upstream)
            other.join()
        except (ConnectionError, OSError, ValueError):
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()
    server = Server(("127.0.0.1", arguments.port), Handler)
    server.log_path = arguments.log
    server.serve_forever()


if __name__ == "__main__":
    main()
