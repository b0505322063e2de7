#!/usr/bin/env python3
"""The gateway's load client (bench/gateway_load.sh runs it against a stack it starts).

  pages       leaderboard pages (the top, a random offset, around a random player, a
              name search) and player pages of random players, one request at a time
              over a kept-alive connection: latency quantiles as the client sees them
              (server time plus the loopback round trip).
  spectators  N live streams of one game at once, opened before the game starts:
              how many connect, how many follow it to game_over, and for every view
              of the game how long after its first spectator the last one had it.
"""
import argparse
import asyncio
import http.client
import json
import random
import resource
import sys
import time


def quantiles(values):
    values = sorted(values)
    if not values:
        return "n=0"
    q = lambda p: values[min(len(values) - 1, int(p * len(values)))]
    return (f"n={len(values)} p50={q(0.5) * 1000:.2f} ms p90={q(0.9) * 1000:.2f} ms "
            f"p99={q(0.99) * 1000:.2f} ms max={values[-1] * 1000:.2f} ms")


def pages(args):
    host, port = args.gateway.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    rng = random.Random(7)

    def get(path):
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            raise SystemExit(f"GET {path}: HTTP {response.status}: {body[:300]!r}")
        return elapsed, json.loads(body)

    # The first read builds the board in Redis from PostgreSQL: timed apart.
    first, board = get(f"/api/v1/ladders/{args.ladder}/leaderboard?limit=50")
    total = board["total"]
    print(f"first leaderboard read (builds the board of {total} players in Redis): {first * 1000:.0f} ms")
    kinds = {
        "leaderboard top 50": lambda: f"/api/v1/ladders/{args.ladder}/leaderboard?limit=50",
        "leaderboard at a random offset": lambda: (
            f"/api/v1/ladders/{args.ladder}/leaderboard?offset={rng.randrange(max(1, total - 50))}&limit=50"),
        "leaderboard around a random player": lambda: (
            f"/api/v1/ladders/{args.ladder}/leaderboard?around={args.prefix}{rng.randrange(1, args.players + 1)}"
            f"&limit=50"),
        "leaderboard name search": lambda: (
            f"/api/v1/ladders/{args.ladder}/leaderboard?q={args.prefix}{rng.randrange(1, args.players + 1)}&limit=20"),
        "player page of a random player": lambda: f"/api/v1/players/{args.prefix}{rng.randrange(1, args.players + 1)}",
    }
    for name, path in kinds.items():
        times = [get(path())[0] for _ in range(args.requests)]
        print(f"{name:36s} {quantiles(times)}")


async def spectator(args, index, results, views, started):
    host, port = args.gateway.split(":")
    result = {"status": None, "views": 0, "events": 0, "over": False, "error": None}
    results[index] = result
    try:
        reader, writer = await asyncio.open_connection(host, int(port), limit=1 << 24)
        writer.write(f"GET /api/v1/live/{args.game}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        await writer.drain()
        status_line = await reader.readline()
        result["status"] = int(status_line.split()[1])
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        started.set()
        if result["status"] != 200:
            writer.close()
            return
        # Chunked: the chunks' contents concatenated are the event stream.
        buffer = b""
        while True:
            size_line = await reader.readline()
            if not size_line:
                break
            size = int(size_line.strip(), 16)
            if size == 0:
                break
            chunk = await reader.readexactly(size + 2)
            now = time.monotonic()
            buffer += chunk[:-2]
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                fields = dict(line.split(b": ", 1) for line in event.split(b"\n") if b": " in line)
                name = fields.get(b"event")
                if name == b"view":
                    result["views"] += 1
                    views.setdefault(int(fields[b"id"]), []).append(now)
                elif name == b"events":
                    result["events"] += 1
                elif name == b"game_over":
                    result["over"] = True
        writer.close()
    except Exception as e:  # counted, not fatal: the summary says how many failed
        result["error"] = repr(e)


async def spectators(args):
    results, views = {}, {}
    started = asyncio.Event()
    tasks = []
    start = time.monotonic()
    for i in range(args.spectators):
        tasks.append(asyncio.create_task(spectator(args, i, results, views, started)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # in waves, like a crowd rather than one packet storm
    # Every stream has its headers (or failed) before the game starts.
    while sum(1 for r in results.values() if r["status"] is not None or r["error"]) < args.spectators:
        await asyncio.sleep(0.05)
    connected = sum(1 for r in results.values() if r["status"] == 200)
    print(f"{connected} of {args.spectators} spectators connected in {time.monotonic() - start:.2f} s; "
          f"statuses {sorted(set(r['status'] for r in results.values()))}", flush=True)
    open(args.ready_file, "w").write("ready\n")
    await asyncio.gather(*tasks)
    over = sum(1 for r in results.values() if r["over"])
    errors = [r["error"] for r in results.values() if r["error"]]
    print(f"{over} of {connected} followed the game to game_over; {len(errors)} errors {errors[:3]}")
    per = [r["views"] for r in results.values() if r["status"] == 200]
    if per:
        print(f"views per spectator: min {min(per)} max {max(per)} (of {len(views)} distinct steps seen); "
              f"events messages per spectator: {min(r['events'] for r in results.values() if r['status'] == 200)}")
    lags = [t - min(times) for times in views.values() for t in times]
    print(f"delay of each view after its first spectator had it: {quantiles(lags)}")
    return 0 if over == args.spectators else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["pages", "spectators"])
    parser.add_argument("--gateway", required=True, help="HOST:PORT")
    parser.add_argument("--ladder", default="bench")
    parser.add_argument("--prefix", default="rank-", help="the seeded players' names: PREFIX1..PREFIXn")
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300, help="per kind of page")
    parser.add_argument("--game", help="spectators: the live game")
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--ready-file", help="spectators: written once every stream is open")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.mode == "pages":
        pages(args)
        return 0
    return asyncio.run(spectators(args))


if __name__ == "__main__":
    sys.exit(main())
