"""An upload server: parses multipart/form-data bodies as they arrive and echoes what it saw of each part.

Python standard library only; listens on 127.0.0.1. The body is parsed while it is read, in bounded memory, so a
1 GiB upload costs the server no more than a small one.

  POST|PUT /upload[/...]    200 JSON:
        {"method", "content_type", "content_length" (the header, or null), "transfer_encoding" (or null),
         "boundary", "body_size", "body_sha256", "preamble_size", "epilogue_size",
         "parts": [{"headers": [[name, value], ...] (raw, decoded as UTF-8), "name", "filename" (or null),
                    "content_type" (or null), "size", "sha256"}]}
        With ?contents=1 also "body_base64" and each part's "content_base64" (for small bodies).
        A body that is not well-formed multipart answers 400 JSON {"error", "body_size", "body_sha256"}.
  POST|PUT /echo[/...]      200 JSON {"method", "headers": [[name, value], ...], "body_size", "body_sha256"} for any
                            body (a single file's upload, say)

`name` and `filename` are the Content-Disposition parameters as HTML's form encoding writes them: the quoted string
taken as is (no backslash escapes), with %22, %0D and %0A turned back into '"', CR and LF.

    python3 Tests/Servers/upload_server.py --port 8083      (--port 0: a free port, named on the first line)
"""
import argparse
import base64
import hashlib
import json
import signal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 256 * 1024


class BodyReader:
    """The request body as it arrives: by Content-Length, chunked, or nothing; hashes and counts every byte."""

    def __init__(self, handler):
        self.stream = handler.rfile
        self.hash = hashlib.sha256()
        self.size = 0
        length = handler.headers.get("Content-Length")
        self.chunked = "chunked" in (handler.headers.get("Transfer-Encoding") or "").lower()
        self.remaining = int(length) if length is not None and not self.chunked else 0
        self.chunk_left = 0
        self.done = False

    def read(self):
        data = self._read_chunked() if self.chunked else self._read_sized()
        self.hash.update(data)
        self.size += len(data)
        return data

    def _read_sized(self):
        if self.remaining <= 0:
            return b""
        data = self.stream.read(min(CHUNK, self.remaining))
        if not data:
            raise ValueError("the body ended before its Content-Length")
        self.remaining -= len(data)
        return data

    def _read_chunked(self):
        if self.done:
            return b""
        if self.chunk_left == 0:
            line = self.stream.readline(1024).strip()
            size = int(line.split(b";")[0], 16)
            if size == 0:
                while self.stream.readline(1024).strip():
                    pass
                self.done = True
                return b""
            self.chunk_left = size
        data = self.stream.read(min(CHUNK, self.chunk_left))
        if not data:
            raise ValueError("the chunked body ended early")
        self.chunk_left -= len(data)
        if self.chunk_left == 0:
            self.stream.readline(16)
        return data

    def drain(self):
        while self.read():
            pass


def unescape(value):
    return value.replace("%22", '"').replace("%0D", "\r").replace("%0A", "\n")


def disposition_parameters(value):
    """The parameters of a Content-Disposition value, quoted strings taken as HTML's form encoding writes them."""
    params = {}
    index = value.find(";")
    while 0 <= index < len(value):
        index += 1
        while index < len(value) and value[index] in " \t":
            index += 1
        equals = value.find("=", index)
        if equals < 0:
            break
        key = value[index:equals].strip().lower()
        index = equals + 1
        if index < len(value) and value[index] == '"':
            end = value.find('"', index + 1)
            if end < 0:
                raise ValueError("an unterminated quoted parameter")
            params[key] = unescape(value[index + 1:end])
            index = value.find(";", end)
        else:
            end = value.find(";", index)
            params[key] = value[index:end if end >= 0 else len(value)].strip()
            index = end
    return params


class MultipartParser:
    """Splits a multipart body fed in pieces; keeps only what a delimiter could still straddle."""

    def __init__(self, boundary, keep_contents=False):
        self.keep_contents = keep_contents
        self.delimiter = b"\r\n--" + boundary
        self.buffer = b"\r\n"  # the first delimiter has no CRLF before it
        self.state = "preamble"
        self.parts = []
        self.part = None
        self.preamble_size = 0
        self.synthetic = 2  # bytes of the CRLF above not yet counted out of the preamble
        self.epilogue_size = 0

    def feed(self, data):
        self.buffer += data
        while self._step():
            pass

    def _step(self):
        if self.state == "preamble":
            at = self.buffer.find(self.delimiter)
            if at < 0:
                keep = len(self.delimiter) - 1
                self._count_preamble(max(0, len(self.buffer) - keep))
                self.buffer = self.buffer[-keep:] if len(self.buffer) > keep else self.buffer
                return False
            self._count_preamble(at)
            self.buffer = self.buffer[at + len(self.delimiter):]
            self.state = "after-delimiter"
            return True
        if self.state == "after-delimiter":
            if len(self.buffer) < 2:
                return False
            if self.buffer[:2] == b"--":
                self.buffer = self.buffer[2:]
                self.state = "epilogue"
                return True
            if self.buffer[:2] != b"\r\n":
                raise ValueError("a delimiter followed by neither CRLF nor --")
            self.buffer = self.buffer[2:]
            self.state = "headers"
            return True
        if self.state == "headers":
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > 64 * 1024:
                    raise ValueError("part headers longer than 64 KiB")
                return False
            self.part = self._start_part(self.buffer[:end])
            self.buffer = self.buffer[end + 4:]
            self.state = "content"
            return True
        if self.state == "content":
            at = self.buffer.find(self.delimiter)
            if at < 0:
                keep = len(self.delimiter) - 1
                if len(self.buffer) > keep:
                    self._content(self.buffer[:-keep])
                    self.buffer = self.buffer[-keep:]
                return False
            self._content(self.buffer[:at])
            self._finish_part()
            self.buffer = self.buffer[at + len(self.delimiter):]
            self.state = "after-delimiter"
            return True
        if self.state == "epilogue":
            self.epilogue_size += len(self.buffer)
            self.buffer = b""
            return False
        return False

    def _count_preamble(self, consumed):
        taken = min(consumed, self.synthetic)
        self.synthetic -= taken
        self.preamble_size += consumed - taken

    def _start_part(self, block):
        headers = []
        for line in block.split(b"\r\n"):
            name, _, value = line.decode("utf-8", "replace").partition(":")
            headers.append([name.strip(), value.strip()])
        fields = {name.lower(): value for name, value in headers}
        params = disposition_parameters(fields.get("content-disposition", ""))
        return {
            "headers": headers, "name": params.get("name"), "filename": params.get("filename"),
            "content_type": fields.get("content-type"), "size": 0, "hash": hashlib.sha256(),
            **({"content": bytearray()} if self.keep_contents else {}),
        }

    def _content(self, data):
        self.part["size"] += len(data)
        self.part["hash"].update(data)
        if self.keep_contents:
            self.part["content"] += data

    def _finish_part(self):
        self.part["sha256"] = self.part.pop("hash").hexdigest()
        if self.keep_contents:
            self.part["content_base64"] = base64.b64encode(bytes(self.part.pop("content"))).decode()
        self.parts.append(self.part)
        self.part = None

    def finish(self):
        if self.state != "epilogue":
            raise ValueError(f"the body ended inside the {self.state} (no closing delimiter)")


def boundary_of(content_type):
    for parameter in content_type.split(";")[1:]:
        key, _, value = parameter.strip().partition("=")
        if key.lower() == "boundary":
            return value.strip('"').encode("latin-1")
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ErrandUpload/1.0"

    def log_message(self, format, *args):
        pass

    def send_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        path = self.path.split("?")[0]
        if path == "/upload" or path.startswith("/upload/"):
            self.upload()
        elif path == "/echo" or path.startswith("/echo/"):
            self.echo()
        else:
            BodyReader(self).drain()
            self.send_json(404, {"error": f"no route {path}"})

    do_PUT = do_POST

    def echo(self):
        reader = BodyReader(self)
        reader.drain()
        self.send_json(200, {
            "method": self.command, "headers": [[name, value] for name, value in self.headers.items()],
            "body_size": reader.size, "body_sha256": reader.hash.hexdigest(),
        })

    def upload(self):
        reader = BodyReader(self)
        content_type = self.headers.get("Content-Type") or ""
        boundary = boundary_of(content_type)
        if not content_type.lower().startswith("multipart/form-data") or not boundary:
            reader.drain()
            self.send_json(400, {"error": f"not multipart/form-data with a boundary: {content_type!r}",
                                 "body_size": reader.size, "body_sha256": reader.hash.hexdigest()})
            return
        keep = "contents=1" in self.path.partition("?")[2].split("&")
        parser = MultipartParser(boundary, keep_contents=keep)
        body = bytearray()
        try:
            while True:
                data = reader.read()
                if not data:
                    break
                if keep:
                    body += data
                parser.feed(data)
            parser.finish()
        except ValueError as error:
            self.close_connection = True
            self.send_json(400, {"error": str(error), "body_size": reader.size,
                                 "body_sha256": reader.hash.hexdigest()})
            return
        extra = {"body_base64": base64.b64encode(bytes(body)).decode()} if keep else {}
        self.send_json(200, {
            **extra, "method": self.command, "content_type": content_type,
            "content_length": self.headers.get("Content-Length"),
            "transfer_encoding": self.headers.get("Transfer-Encoding"),
            "boundary": boundary.decode("latin-1"), "body_size": reader.size, "body_sha256": reader.hash.hexdigest(),
            "preamble_size": parser.preamble_size, "epilogue_size": parser.epilogue_size, "parts": parser.parts,
        })


class Server(ThreadingHTTPServer):
    daemon_threads = True


def main():
    # A parent that blocked SIGTERM in its threads (Foundation's Process spawning from a Dispatch thread) passes the
    # mask on; unblock it so that stopping the server works.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8083)
    parser.add_argument("--log", help="accepted for the test harness; this server keeps no request log")
    args = parser.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    # With --port 0 the system picks the port; the first line says which (errand-bench reads it).
    print(f"upload server on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
