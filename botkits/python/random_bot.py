#!/usr/bin/env python3
"""A Metropolis bot that plays uniformly random legal moves: the smallest complete
example of the Play protocol (proto/metropolis/v1/gamehost.proto).

    botkits/python/generate.sh                    # once: stubs into botkits/python/gen
    python3 botkits/python/random_bot.py --host 127.0.0.1:50051 --game GAME_ID --token TOKEN

Needs grpcio and protobuf (Debian: python3-grpcio python3-protobuf). Exit status: 0
when the game is over, 1 when the stream failed or ended early (the gRPC status is
printed), 2 for bad arguments or a missing gRPC runtime or stubs.
"""

import argparse
import hashlib
import json
import os
import queue
import random
import sys
import threading

try:
    import grpc
except ImportError:
    print("random_bot: needs grpcio and protobuf (Debian: apt-get install python3-grpcio python3-protobuf, "
          "then run it with /usr/bin/python3)", file=sys.stderr)
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))


def log(msg):
    print(f"random_bot: {msg}", file=sys.stderr, flush=True)


def parse_args():
    p = argparse.ArgumentParser(description="Play one seat of a Metropolis game with uniformly random legal moves.")
    p.add_argument("--host", required=True, help="the game host, HOST:PORT")
    p.add_argument("--game", required=True, help="the game id")
    p.add_argument("--token", required=True, help="the seat's token, from CreateGame")
    p.add_argument("--seed", type=int, help="seed of the random choices (default: unpredictable)")
    p.add_argument("--stubs", default=os.environ.get("METROPOLIS_PY_STUBS", os.path.join(HERE, "gen")),
                   help="folder of the generated stubs (default: $METROPOLIS_PY_STUBS, else botkits/python/gen)")
    p.add_argument("--tls-ca", default=os.environ.get("METROPOLIS_TLS_CA", ""),
                   help="PEM CA bundle: reach the host over TLS, verified against it "
                        "(default: $METROPOLIS_TLS_CA, else plaintext)")
    p.add_argument("--verbose", action="store_true", help="log every decision")
    p.add_argument("--record", help="append one JSON line for the finished game to this file: what the seat saw, "
                                    "for the game checker (docs/FAILURES.md)")
    args = p.parse_args()
    args.credentials = None
    if args.tls_ca:
        try:
            with open(args.tls_ca, "rb") as f:
                args.credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
        except OSError as e:
            p.error(f"--tls-ca: {args.tls_ca}: {e.strerror}")
    return args


def load_stubs(folder):
    """Imports the generated modules; they import each other as metropolis.v1.*"""
    sys.path.insert(0, os.path.abspath(folder))
    try:
        from metropolis.v1 import game_pb2, gamehost_pb2, gamehost_pb2_grpc
    except ImportError as e:
        log(f"cannot import the stubs from {folder} ({e}); generate them with botkits/python/generate.sh {folder}")
        sys.exit(2)
    return game_pb2, gamehost_pb2, gamehost_pb2_grpc


class SeatLog:
    """What the seat saw, as every Metropolis bot kit records it: per stream session
    the welcome step and the last events step, a SHA-256 over every event received
    as the line "type seat other a b c code\\n", and the result. The game checker
    recomputes the digest from the stored game (docs/FAILURES.md, "The checker")."""

    def __init__(self):
        self.digest = hashlib.sha256()
        self.segments = []
        self.last_step = 0
        self.seen = False
        self.backwards = 0
        self.result = None

    def see(self, step):
        if self.seen and step < self.last_step:
            self.backwards += 1
        self.last_step = max(self.last_step, step) if self.seen else step
        self.seen = True

    def welcome(self, step):
        self.see(step)
        self.segments.append([step, step])

    def events(self, events):
        self.see(events.step)
        if not self.segments:
            self.segments.append([0, 0])
        self.segments[-1][1] = events.step
        for e in events.events:
            code = e.action.code if e.HasField("action") else 0
            self.digest.update(f"{e.type} {e.seat} {e.other} {e.a} {e.b} {e.c} {code}\n".encode())

    def record(self, game_id, seat, reason_name):
        r = self.result
        reason = reason_name(r.reason)
        if reason.startswith("END_REASON_"):
            reason = reason[len("END_REASON_"):]
        return json.dumps({"game": game_id, "seat": seat, "segments": self.segments,
                           "events_sha256": self.digest.hexdigest(), "last_step": self.last_step,
                           "backwards": self.backwards, "reason": reason, "winner": r.winner,
                           "vp": list(r.vp), "actions": r.actions}, separators=(",", ":"))


class Bot:
    def __init__(self, args, stubs):
        self.args = args
        self.game_pb2, self.pb, self.grpc_pb = stubs
        self.rng = random.Random(args.seed)
        self.seat = None
        self.answered = 0  # decisions answered
        self.rejected = 0
        self.seat_log = SeatLog()

    def play(self, host):
        """Plays one Play stream on `host`. Returns the GameOver message, or the
        Redirect message when the game runs elsewhere. Raises grpc.RpcError."""
        pb = self.pb
        requests = queue.Queue()  # what we send; None half-closes the stream

        def request_iterator():
            while (msg := requests.get()) is not None:
                yield msg

        channel = (grpc.secure_channel(host, self.args.credentials) if self.args.credentials
                   else grpc.insecure_channel(host))
        with channel:
            stub = self.grpc_pb.GameHostStub(channel)
            call = stub.Play(request_iterator(), metadata=[("authorization", f"Bearer {self.args.token}")])
            hello = pb.PlayHello(game_id=self.args.game)
            if self.seat_log.seen:
                # How far this seat saw the game: a host whose copy is behind voids
                # the game rather than show the seat a different one from there.
                hello.last_step_seen = self.seat_log.last_step
            requests.put(pb.PlayRequest(hello=hello))

            decision = None  # the decision we are answering
            untried = []     # its legal codes we have not tried yet
            finish = None    # GameOver or Redirect, once received
            try:
                for update in call:
                    kind = update.WhichOneof("msg")
                    if kind == "welcome":
                        self.seat = update.welcome.seat
                        self.seat_log.welcome(update.welcome.step)
                        log(f"playing seat {self.seat} of game {update.welcome.game_id} on {host}")
                    elif kind == "decision":
                        # Pick one of the legal codes uniformly and send it with the step.
                        decision = update.decision
                        self.seat_log.see(decision.step)
                        untried = list(decision.view.legal)
                        if not untried:
                            raise Stuck(f"decision at step {decision.step} lists no legal action")
                        self.answer(requests, decision.step, untried)
                        self.answered += 1
                    elif kind == "events":
                        self.seat_log.events(update.events)
                        # What happened; a random bot needs none of it, except that the
                        # game has moved past our decision (answered, or taken by the
                        # fallback bot after the deadline).
                        if decision is not None and update.events.step > decision.step:
                            decision = None
                    elif kind == "rejected":
                        # Our answer was refused. If the decision is still open, try
                        # another legal action; if the game has moved on (we were too
                        # late), do nothing: a new decision will come when it is our turn.
                        self.rejected += 1
                        log(f"rejected at step {update.rejected.step}: {update.rejected.error}")
                        if decision is not None and update.rejected.step == decision.step:
                            if not untried:
                                raise Stuck("every legal action was rejected")
                            self.answer(requests, decision.step, untried)
                    elif kind == "paused":
                        # The host cannot save the game for now: nothing moves, and the
                        # decision owed comes again when it goes on (an answer sent
                        # meanwhile is refused).
                        if update.paused.paused:
                            decision = None
                        log("game paused by its host: " + update.paused.reason if update.paused.paused
                            else "game goes on after a pause")
                    elif kind in ("game_over", "redirect"):
                        # The host ends the stream after these: half-close ours, read on
                        # until it does, and hang up if that takes more than 5 seconds.
                        finish = getattr(update, kind)
                        if kind == "game_over":
                            self.seat_log.result = finish.result
                        requests.put(None)
                        timer = threading.Timer(5, call.cancel)
                        timer.daemon = True
                        timer.start()
            except grpc.RpcError:
                if finish is None:
                    raise
            finally:
                requests.put(None)
            if finish is None:
                raise Stuck("the host ended the stream before the game was over")
            return finish

    def answer(self, requests, step, untried):
        code = untried.pop(self.rng.randrange(len(untried)))
        if self.args.verbose:
            log(f"step {step}: {code:#018x}")
        requests.put(self.pb.PlayRequest(
            answer=self.pb.PlayAnswer(step=step, action=self.game_pb2.Action(code=code))))


class Stuck(Exception):
    """The game cannot go on for us (the stream itself did not fail)."""


def main():
    args = parse_args()
    bot = Bot(args, load_stubs(args.stubs))
    host, redirected = args.host, False
    try:
        while True:
            result = bot.play(host)
            if result.DESCRIPTOR.name != "Redirect":
                break
            if redirected:
                log(f"redirected twice (now to {result.host}); giving up")
                return 1
            log(f"game {result.game_id} runs on {result.host}: reconnecting")
            host, redirected = result.host, True
    except grpc.RpcError as e:
        log(f"stream failed: {e.code().name}: {e.details()}")
        return 1
    except Stuck as e:
        log(str(e))
        return 1

    r = result.result
    if args.record:
        with open(args.record, "a") as f:
            f.write(bot.seat_log.record(args.game, bot.seat, bot.game_pb2.EndReason.Name) + "\n")
    reason = bot.game_pb2.EndReason.Name(r.reason)
    winner = f"seat {r.winner}" if r.winner >= 0 else "nobody"
    print(f"random_bot: game over: seat {bot.seat}, {bot.answered} decisions answered, "
          f"{bot.rejected} rejected, winner {winner} ({reason}), vp {list(r.vp)}, "
          f"{r.actions} actions, {r.turns} turns", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
