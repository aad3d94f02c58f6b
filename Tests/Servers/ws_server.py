"""A WebSocket server built on the `websockets` package (an implementation independent of Errand's), for the tests.

Listens on 127.0.0.1. Offers the subprotocols `chat` and `superchat`.

  /echo                 every message sent back as it came (text as text, binary as binary)
  /protocol             one text message: the subprotocol chosen, or "none"; then echoes
  /close/{code}         on the first message, closes with that code and the reason "bye"
  /big/{size}           one binary message of that many bytes, then echoes
  /headers              one text message: the JSON of the handshake's request headers; then echoes

    python3 Tests/Servers/ws_server.py --port 8090
"""
import argparse
import asyncio
import json

import websockets


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
    try:
        await echo(socket)
    except websockets.ConnectionClosed:
        pass


async def main(port):
    async with websockets.serve(handler, "127.0.0.1", port, subprotocols=["chat", "superchat"], max_size=2**24):
        await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log")
    asyncio.run(main(parser.parse_args().port))
