"""The baseline client of the WebSocket benchmark: the `websockets` package's asyncio client, one connection, a
message of SIZE bytes sent and its echo awaited COUNT times. Prints one JSON line: seconds, cpu_seconds (this
process's user + system time over the same stretch), messages.

    python3 ws_client.py --url ws://127.0.0.1:PORT/echo --size 1024 --count 10000
"""
import argparse
import asyncio
import json
import os
import time

import websockets


async def run(url, size, count):
    message = os.urandom(size)
    async with websockets.connect(url, max_size=None, compression=None, ping_interval=None) as socket:
        await socket.send(message)
        await socket.recv()
        started, cpu = time.perf_counter(), time.process_time()
        for _ in range(count):
            await socket.send(message)
            echo = await socket.recv()
            if len(echo) != size:
                raise SystemExit(f"an echo of {len(echo)} bytes, not {size}")
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "messages": count}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    arguments = parser.parse_args()
    asyncio.run(run(arguments.url, arguments.size, arguments.count))


if __name__ == "__main__":
    main()
