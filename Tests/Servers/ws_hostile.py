"""A raw-socket WebSocket server that sends what a polite server never does, for the tests.

Python standard library only; listens on 127.0.0.1. After a valid handshake (except /bad-accept), each path sends
its fault, then reads the client's frames until a close frame or the end, and records the close code the client
sent under `?key=K`.

  /invalid-utf8         a text frame that is not UTF-8
  /invalid-utf8-split   a text message whose second fragment breaks the character the first began
  /long-control         a ping of 126 bytes
  /masked               a masked text frame
  /reserved-bits        a text frame with RSV1 set
  /abrupt               closes the TCP connection without a close frame
  /split                the text frame "one byte at a time" written byte by byte, then a close 1000
  /oversize             a 100 MB binary message in 64 KiB fragments (stops when the client hangs up)
  /oversize-frame       the header of one 100 MB binary frame
  /silent               reads, answers nothing (no pong, no close)
  /invalid-utf8-early   a text frame of 64 bytes: "κόσμε", then bytes that are not UTF-8; the rest never comes
  /invalid-utf8-early-fragment  a whole first fragment, then a continuation frame as above
  /never-reads          reads nothing after the handshake (a tiny receive buffer) and sends nothing, for a minute
  /never-reads-pings    reads nothing (a tiny receive buffer) and sends pings until the client has not read for a
                        two seconds, then records "stalled" under K/stalled (see /report) and holds for a minute
  /bad-accept           a 101 with a wrong Sec-WebSocket-Accept
  /no-answer            reads the upgrade and never answers it
  /extension-answer?value=V   a 101 whose Sec-WebSocket-Extensions is V, then a close 1000
  /rsv1-undeclined      declines permessage-deflate, then sends "Hello" compressed with RSV1 set
  /rsv1-continuation    accepts permessage-deflate; a compressed first fragment, then a continuation with RSV1
  /deflate-invalid      accepts permessage-deflate; a text frame with RSV1 whose payload is not deflate data
  /deflate-bomb         accepts permessage-deflate; one binary message of 4 GiB of zeros, compressed (about
                        4 MB on the wire, in 4 MiB steps; stops when the client hangs up)
  GET /report?key=K     (plain HTTP) {"close": code, "reason": text} once the client's close frame for K arrived,
                        {"close": null} if the connection ended without one (waits up to 10 s)

    python3 Tests/Servers/ws_hostile.py --port 8091
"""
import argparse
import base64
import hashlib
import json
import select
import socket
import struct
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CONDITION = threading.Condition()
REPORTS = {}


def frame(opcode, payload=b"", fin=True, rsv=0, mask=None):
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    length = len(payload)
    mask_bit = 0x80 if mask else 0
    if length < 126:
        head += bytes([mask_bit | length])
    elif length < 65536:
        head += bytes([mask_bit | 126]) + struct.pack(">H", length)
    else:
        head += bytes([mask_bit | 127]) + struct.pack(">Q", length)
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        head += mask
    return head + payload


def read_exact(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_frame(conn):
    first, second = read_exact(conn, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack(">H", read_exact(conn, 2))[0]
    elif length == 127:
        length = struct.unpack(">Q", read_exact(conn, 8))[0]
    mask = read_exact(conn, 4) if second & 0x80 else b"\0\0\0\0"
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read_exact(conn, length)))
    return first & 0x0F, payload


def record(key, close, reason=""):
    with CONDITION:
        REPORTS[key] = {"close": close, "reason": reason}
        CONDITION.notify_all()


def read_until_close(conn, key):
    try:
        while True:
            opcode, payload = read_frame(conn)
            if opcode == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                record(key, code, payload[2:].decode("utf-8", "replace"))
                return
    except (EOFError, OSError):
        record(key, None)


def report(conn, query):
    key = query.get("key", [""])[0]
    deadline = time.time() + (60 if key.endswith("/stalled") else 10)
    with CONDITION:
        while key not in REPORTS and time.time() < deadline:
            CONDITION.wait(deadline - time.time())
        body = json.dumps(REPORTS.get(key, {"close": None, "reason": "no connection"})).encode()
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
                 % len(body) + body)


def serve(conn):
    try:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = conn.recv(4096)
            if not chunk:
                return
            head += chunk
        lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
        target = urlsplit(lines[0].split(" ")[1])
        query = parse_qs(target.query)
        if target.path == "/report":
            report(conn, query)
            return
        headers = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in lines[1:]}
        accept = base64.b64encode(hashlib.sha1(headers.get("sec-websocket-key", "").encode() + GUID).digest())
        if target.path == "/bad-accept":
            accept = base64.b64encode(b"not the right one")
        if target.path == "/no-answer":
            read_until_end(conn)
            return
        extensions = b""
        if target.path == "/extension-answer":
            extensions = b"Sec-WebSocket-Extensions: " + query.get("value", [""])[0].encode() + b"\r\n"
        elif target.path in DEFLATING and "permessage-deflate" in headers.get("sec-websocket-extensions", ""):
            extensions = b"Sec-WebSocket-Extensions: permessage-deflate\r\n"
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n" + extensions + b"\r\n")
        fault(conn, target.path, query.get("key", [""])[0])
    except OSError:
        pass
    finally:
        conn.close()


DEFLATING = {"/rsv1-continuation", "/deflate-invalid", "/deflate-bomb"}
# RFC 7692 §7.2.3.1: "Hello", compressed, without the 0x00 0x00 0xff 0xff tail.
HELLO = bytes([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])


def read_until_end(conn):
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


BOMB = []


def bomb_steps():
    """The first and every later 4 MiB of zeros, compressed (a step after the first is always the same bytes)."""
    with CONDITION:
        if not BOMB:
            compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
            zeros = bytes(4 << 20)
            BOMB.extend(compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH) for _ in range(2))
        return BOMB


def deflate_bomb(conn):
    first, later = bomb_steps()
    try:
        conn.sendall(frame(0x2, first, fin=False, rsv=0x40))
        for index in range(1, 1024):
            conn.sendall(frame(0x0, later, fin=index == 1023))
    except OSError:
        pass


def hold(seconds):
    """Keeps the connection open without reading it: the peer's writes fill the buffers and block."""
    threading.Event().wait(seconds)


def send_pings_until_stalled(conn):
    """Sends pings (each owed a pong the server never reads) until the client has read nothing for two seconds."""
    batch = frame(0x9, bytes(125)) * 512
    pending = b""
    while True:
        if not pending:
            pending = batch
        _, writable, _ = select.select([], [conn], [], 2.0)
        if not writable:
            return
        pending = pending[conn.send(pending):]


def fault(conn, path, key):
    if path.startswith("/never-reads"):
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    if path == "/never-reads":
        hold(60)
        return
    elif path == "/never-reads-pings":
        send_pings_until_stalled(conn)
        record(key + "/stalled", None, "stalled")
        hold(60)
        return
    elif path == "/invalid-utf8-early":
        # Autobahn 6.4.3: "κόσμε" and then U+110000's bytes, which no UTF-8 holds, in a frame whose rest is withheld.
        conn.sendall(bytes([0x81, 64]) + "κόσμε".encode() + b"\xf4\x90\x80\x80")
    elif path == "/invalid-utf8-early-fragment":
        conn.sendall(frame(0x1, "κόσμε".encode(), fin=False) + bytes([0x80, 64]) + b"ok \xf4\x90\x80\x80")
    elif path == "/invalid-utf8":
        conn.sendall(frame(0x1, b"\xce\xba\xff"))
    elif path == "/invalid-utf8-split":
        conn.sendall(frame(0x1, b"ok \xce", fin=False) + frame(0x0, b"A"))
    elif path == "/long-control":
        conn.sendall(frame(0x9, bytes(126)))
    elif path == "/masked":
        conn.sendall(frame(0x1, b"masked", mask=b"\x01\x02\x03\x04"))
    elif path == "/reserved-bits":
        conn.sendall(frame(0x1, b"rsv", rsv=0x40))
    elif path == "/abrupt":
        record(key, None)
        conn.shutdown(socket.SHUT_RDWR)
        return
    elif path == "/split":
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for byte in frame(0x1, b"one byte at a time"):
            conn.sendall(bytes([byte]))
            time.sleep(0.002)
        conn.sendall(frame(0x8, struct.pack(">H", 1000) + b"done"))
    elif path == "/oversize":
        chunk = bytes(65536)
        try:
            conn.sendall(frame(0x2, chunk, fin=False))
            for _ in range(1600):
                conn.sendall(frame(0x0, chunk, fin=False))
        except OSError:
            pass
    elif path == "/oversize-frame":
        conn.sendall(bytes([0x82, 127]) + struct.pack(">Q", 100_000_000))
    elif path == "/silent":
        pass
    elif path == "/extension-answer":
        conn.sendall(frame(0x8, struct.pack(">H", 1000)))
    elif path == "/rsv1-undeclined":
        conn.sendall(frame(0x1, HELLO, rsv=0x40))
    elif path == "/rsv1-continuation":
        conn.sendall(frame(0x1, HELLO[:3], fin=False, rsv=0x40) + frame(0x0, HELLO[3:], rsv=0x40))
    elif path == "/deflate-invalid":
        conn.sendall(frame(0x1, b"\xff\xff\xff\xff not deflate", rsv=0x40))
    elif path == "/deflate-bomb":
        deflate_bomb(conn)
    read_until_close(conn, key)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log")
    port = parser.parse_args().port
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
