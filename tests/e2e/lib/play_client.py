#!/usr/bin/env python3
"""Plays a person's seat through the gateway's play API, as the web app does:
reads GET /api/v1/play/{game}/events (server-sent events) and answers each
decision with POST /api/v1/play/{game}/answer. Standard library only.

  play_client.py GATEWAY_URL COOKIE GAME_ID [--reload-after N] [--seed S]

Answers end the turn when they can (the game stays short), else roll, else a
random legal action. --reload-after N closes the stream after N decisions and
opens it again, checking that the new stream starts with a welcome and the
same decision. Prints one JSON line: decisions answered, rejections, whether
a reload resumed, and the result.
"""
import argparse
import http.client
import json
import random
import sys
import urllib.parse


def events(url, cookie, path):
    """Yields (event, data) pairs of one stream; the connection ends with it."""
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
    conn.request("GET", path, headers={"Cookie": cookie, "Accept": "text/event-stream"})
    resp = conn.getresponse()
    if resp.status != 200:
        raise SystemExit(f"play_client: GET {path}: {resp.status} {resp.read()[:300]!r}")
    name, data = None, []
    try:
        while True:
            line = resp.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line == "":
                if name:
                    yield name, json.loads("\n".join(data))
                name, data = None, []
            elif line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
    finally:
        conn.close()


def post(url, cookie, path, body):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", path, body=json.dumps(body), headers={"Cookie": cookie, "Content-Type": "application/json"})
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    return resp.status, payload


def choose(legal, rng):
    for wanted in ("end_turn", "roll"):
        for action in legal:
            if action["text"] == wanted:
                return action
    return rng.choice(legal)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("gateway")
    p.add_argument("cookie")
    p.add_argument("game")
    p.add_argument("--reload-after", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    path = f"/api/v1/play/{a.game}/events"
    answered, rejected, reloaded, welcomes = 0, 0, None, 0
    pending = None  # the decision open when the stream was closed for the reload
    while True:
        first = []
        reopen = False
        for name, data in events(a.gateway, a.cookie, path):
            first.append(name)
            if name == "welcome":
                welcomes += 1
                if data["game_id"] != a.game:
                    raise SystemExit(f"play_client: welcome for {data['game_id']}")
            elif name == "decision":
                if pending is not None:
                    # The reopened stream: welcome first, then the same decision.
                    reloaded = first[0] == "welcome" and data["step"] == pending
                    pending = None
                if a.reload_after and answered == a.reload_after and reloaded is None:
                    pending = data["step"]
                    reopen = True
                    break
                action = choose(data["legal"], rng)
                status, body = post(a.gateway, a.cookie, f"/api/v1/play/{a.game}/answer",
                                    {"step": data["step"], "code": action["code"]})
                if status != 202:
                    raise SystemExit(f"play_client: answer: {status} {body[:300]!r}")
                answered += 1
            elif name == "rejected":
                rejected += 1
            elif name == "error":
                raise SystemExit(f"play_client: error event: {data}")
            elif name == "game_over":
                print(json.dumps({"answered": answered, "rejected": rejected, "welcomes": welcomes,
                                  "reloaded": reloaded, "result": data["result"]}))
                return
        if not reopen:
            raise SystemExit("play_client: the stream ended without game_over")


if __name__ == "__main__":
    sys.exit(main())
