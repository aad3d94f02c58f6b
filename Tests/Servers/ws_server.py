"""A WebSocket server built on the `websockets` package (an implementation independent of Errand's), for the tests.

Listens on 127.0.0.1. Offers the subprotocols `chat` and `superchat`.

  /echo                 every message sent back as it came (text as text, binary as binary)
  /protocol             one text message: the subprotocol chosen, or "none"; then echoes
  /close/{code}         on the first message, closes with that code and the reason "bye"
  /big/{size}           one binary message of that many bytes, then echoes
  /headers              one text message: the JSON of the handshake's request headers; then echoes
  /extensions           one text message: the extensions in use, as the server sees them ("none" without); then echoes

permessage-deflate is accepted as the package accepts it by default, unless the query says otherwise:
  ?deflate=off                          the offer is declined
  ?server_no_context_takeover           the server compresses each message on its own, offered or not
  ?client_no_context_takeover           the server makes the client compress each message on its own
  ?client_max_window_bits=N             the server asks for a client window of at most N bits (when offered)
  &require_client_max_window_bits       ... and declines an offer without client_max_window_bits

With --tls-cert and --tls-key it serves wss (TLS) instead.

    python3 Tests/Servers/ws_server.py --port 8090
"""
import argparse
import asyncio
import json
import ssl
from urllib.parse import parse_qs, urlsplit

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory


class Protocol(websockets.WebSocketServerProtocol):
    """Chooses the permessage-deflate parameters by the request's query."""

    def process_extensions(self, headers, available_extensions):
        query = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        if query.get("deflate") == ["off"]:
            available_extensions = None
        elif any(name in query for name in ("server_no_context_takeover", "client_no_context_takeover",
                                            "client_max_window_bits")):
            bits = query.get("client_max_window_bits")
            available_extensions = [ServerPerMessageDeflateFactory(
                server_no_context_takeover="server_no_context_takeover" in query,
                client_no_context_takeover="client_no_context_takeover" in query,
                client_max_window_bits=int(bits[0]) if bits else None,
                require_client_max_window_bits="require_client_max_window_bits" in query)]
        return super().process_extensions(headers, available_extensions)


async def echo(socket):
    async for message in socket:
        await socket.send(message)


async def handler(socket, *_):
    path = socket.path.split("?")[0]
    if path == "/protocol":
        await socket.send(socket.subprotocol or "none")
    elif path.startswith("/close/"):
        await socket.recv()
        await socket.close(code=int(path.rsplit("/", 1)[1]), reason="bye")
        return
    elif path.startswith("/big/"):
        await socket.send(bytes(int(path.rsplit("/", 1)[1])))
    elif path == "/headers":
        await socket.send(json.dumps({name.lower(): value for name, value in socket.request_headers.raw_items()}))
    elif path == "/extensions":
        await socket.send(", ".join(repr(extension) for extension in socket.extensions) or "none")
    try:
        await echo(socket)
    except websockets.ConnectionClosed:
        pass


async def main(arguments):
    context = None
    if arguments.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
    async with websockets.serve(handler, "127.0.0.1", arguments.port, subprotocols=["chat", "superchat"],
                                max_size=2**24, create_protocol=Protocol, ssl=context):
        await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    asyncio.run(main(parser.parse_args()))
