#!/usr/bin/env python3
"""Instructions per request, counted by callgrind: a measure that does not move with the machine's load.

Each point (client, scheme, size, requests in flight) runs errand-bench twice under valgrind's callgrind, with N and
with 2N requests and one round; the difference divided by N is the cost of one request, with start-up, warm-up and
the report cancelled out. With several requests in flight the count moves a little with how the threads meet (valgrind
runs one thread at a time), so those points take the median of --repeats runs.

    instructions.py --bench BIN [--bench BIN2 ...] [--points NAME] [--repeats K]

With two binaries (the same benchmark built from two commits) it prints the ratio of the last to the first.
The nginx URLs and CA come from ERRAND_NGINX_HTTP_URL, ERRAND_NGINX_HTTPS_URL and ERRAND_TEST_CA (scripts/bench sets
them); SHIM names the LD_PRELOAD library built from sigsuspend_copy.c.
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile

# client, scheme, size, requests in flight, N
POINTS = {
    "quick": [
        ("errand-curl", "http", "small", 1, 100),
        ("errand-curl", "https", "small", 1, 100),
        ("raw-libcurl", "http", "small", 1, 100),
    ],
    "one-in-flight": [
        (client, scheme, size, 1, 100 if size == "small" else 40)
        for client in ("errand-curl", "errand-curl-resilient", "errand-transport", "raw-libcurl")
        for scheme in ("http", "https") for size in ("small", "big")
    ] + [("errand-cache-memory", "http", "small", 1, 100)],
    "concurrent": [
        (client, scheme, "small", c, 400)
        for client in ("errand-curl", "errand-curl-resilient") for scheme in ("http", "https") for c in (16, 64)
    ] + [("errand-curl", scheme, "big", 16, 100) for scheme in ("http", "https")]
      + [("errand-cache-memory", "http", "small", c, 100) for c in (16, 64)],
    # Where the caller's and the client's work run, one request in flight (errand-bench's executor variants).
    "executors": [
        (client, scheme, "small", 1, 100)
        for client in ("errand-curl", "errand-curl-on-loop", "errand-curl-send-on-loop", "raw-libcurl")
        for scheme in ("http", "https")
    ],
}
POINTS["all"] = POINTS["one-in-flight"] + POINTS["concurrent"]


def count(binary, point, requests, work):
    client, scheme, size, inflight, _ = point
    out = os.path.join(work, "callgrind.out")
    command = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
        "--url", os.environ["ERRAND_NGINX_HTTP_URL"], "--https-url", os.environ["ERRAND_NGINX_HTTPS_URL"],
        "--ca", os.environ["ERRAND_TEST_CA"], "--download-mib", "0", "--clients", client, "--schemes", scheme,
        "--sizes", size, "--concurrency", str(inflight), "--rounds", "1",
        "--requests", str(requests), "--big-requests", str(requests),
    ]
    env = dict(os.environ, LD_PRELOAD=os.environ["SHIM"])
    run = subprocess.run(command, env=env, capture_output=True, text=True)
    try:
        with open(out) as f:
            total = re.search(r"^totals: (\d+)", f.read(), re.M)
        os.remove(out)
    except FileNotFoundError:
        total = None
    if run.returncode != 0 or not total:
        sys.exit(f"instructions: {os.path.basename(binary)} {' '.join(map(str, point[:4]))} failed:\n{run.stderr[-1500:]}")
    return int(total.group(1))


def per_request(binary, point, repeats, work):
    n = point[4]
    runs = repeats if point[3] > 1 else 1
    return statistics.median(
        (count(binary, point, 2 * n, work) - count(binary, point, n, work)) / n for _ in range(runs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", action="append", required=True, help="an errand-bench binary (give two to compare)")
    parser.add_argument("--points", default="quick", choices=sorted(POINTS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    rows = []
    names = " | ".join(os.path.basename(b) for b in options.bench)
    if not options.json:
        ratio = " | last / first" if len(options.bench) > 1 else ""
        print(f"| client | scheme | size | in flight | instructions per request: {names}{ratio} |")
        print("| --- | --- | --- | ---: |" + " ---: |" * (len(options.bench) + (len(options.bench) > 1)))
    with tempfile.TemporaryDirectory() as work:
        for point in POINTS[options.points]:
            values = [per_request(b, point, options.repeats, work) for b in options.bench]
            row = dict(zip(("client", "scheme", "size", "concurrency"), point[:4]), instructions=values)
            line = f"| {point[0]} | {point[1]} | {point[2]} | {point[3]} | " + " | ".join(f"{v:,.0f}" for v in values)
            if len(values) > 1:
                row["ratio"] = values[-1] / values[0]
                line += f" | {row['ratio']:.3f}"
            rows.append(row)
            if not options.json:
                print(line + " |", flush=True)
    if options.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
