"""The fault server's downloads of a file that changes between requests (imported by fault_server.py).

  /versioned-file/{key}?size=N&cut=M   a file in two versions. The key's first request gets version 1: N bytes (byte
        i is i % 251) with `ETag: "v1"`, announced whole, the connection closed after M bytes (default N/2), so a
        partial file is left. Every later request gets version 2: byte i is (i % 251) ^ 0x5A, never version 1's byte
        at the same offset. `Range: bytes=A-` is answered 206 with the current version's bytes from A when If-Range
        is absent or names the current validator, else 200 with the whole file. Parameters:
          etag=T, etag2=T   version 1's and version 2's ETag exactly as sent (`W/"v1"` is weak; `none` sends none;
                            etag2 defaults to etag)
          size2=N           version 2's length (default N)
          same=1            version 2 has version 1's bytes (only its headers may differ)
          if_range=ignore   Range is honoured whatever If-Range names: a server that ignores If-Range
          lm=S, skew=D      `Last-Modified` S seconds after the epoch, `Date` D seconds later (default 0: a date that
                            is not a strong validator; 1 or more: a strong one, RFC 9110 §8.8.2.2)
          answer416=T       every request with Range gets 416 with `Content-Range: bytes */T`
"""
import socket
from email.utils import formatdate


def _int(params, name, default, low=0, high=64 * 1024 * 1024):
    try:
        return max(low, min(high, int(params.get(name, default))))
    except ValueError:
        return default


# One period of each version's bytes, repeated by C code: a byte-by-byte generator would hold the interpreter for
# a good part of a second per MiB and slow down every other test using the fault server meanwhile.
_PERIOD_1 = bytes(range(251))
_PERIOD_2 = bytes(i ^ 0x5A for i in range(251))


def _pattern(period, size):
    return (period * (size // len(period) + 1))[:size]


def _version(params, count):
    """The bytes and ETag of the version the key's `count`-th request gets."""
    size = _int(params, "size", 100_000, 1)
    etag = params.get("etag", '"v1"')
    if count == 1:
        return _pattern(_PERIOD_1, size), etag
    size = _int(params, "size2", size, 1)
    etag = params.get("etag2", etag)
    return _pattern(_PERIOD_1 if params.get("same") == "1" else _PERIOD_2, size), etag


def versioned_file(handler, key, rest, params, count, path):
    data, etag = _version(params, count)
    size = len(data)
    validators = {}
    if etag != "none":
        validators["ETag"] = etag
    date = None
    if "lm" in params:
        modified = _int(params, "lm", 0, 0, 2**40)
        validators["Last-Modified"] = formatdate(modified, usegmt=True)
        date = formatdate(modified + _int(params, "skew", 0, 0, 10**9), usegmt=True)
    current = validators.get("ETag") or validators.get("Last-Modified")

    byte_range = handler.headers.get("Range", "")
    start = 0
    if byte_range.startswith("bytes=") and byte_range.endswith("-") and byte_range[6:-1].isdigit():
        if "answer416" in params:
            return _send_head(handler, 416, date, {
                **validators, "Content-Range": f"bytes */{_int(params, 'answer416', 0)}", "Content-Length": "0"})
        if_range = handler.headers.get("If-Range")
        if params.get("if_range") == "ignore" or if_range is None or if_range == current:
            start = int(byte_range[6:-1])
    if start >= size:
        return _send_head(handler, 416, date, {**validators, "Content-Range": f"bytes */{size}",
                                               "Content-Length": "0"})
    headers = {**validators, "Content-Type": "application/octet-stream", "Content-Length": str(size - start)}
    if start:
        headers["Content-Range"] = f"bytes {start}-{size - 1}/{size}"
    _send_head(handler, 206 if start else 200, date, headers)
    if handler.command == "HEAD":
        return
    if count == 1:
        cut = _int(params, "cut", size // 2, 0, size)
        handler.wfile.write(data[:cut])
        handler.wfile.flush()
        handler.connection.shutdown(socket.SHUT_RDWR)
        handler.close_connection = True
        return
    handler.wfile.write(data[start:])


def _send_head(handler, status, date, headers):
    """The status line and headers, with `Date` as given (the server's clock otherwise)."""
    handler.send_response_only(status)
    handler.send_header("Server", handler.version_string())
    handler.send_header("Date", date or handler.date_time_string())
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()


ROUTES = {"versioned-file": versioned_file}
