"""python3 -m metropolis_bot: plays seats with a bot, as the C++ kit's metropolis-bot does
(botkits/cpp/bot_settings.cc): one game (--host --game --token), a ladder's games
(--ladder --matchmaker --api-token [--games N]) or tournaments (--compete). Prints one
summary line per finished game on stdout, progress on stderr.

Exit status: 0 every game was played to its end (whoever won), 1 one could not be (the gRPC
status code and message are printed), 2 bad flags.
"""

import argparse
import os
import random
import sys
import threading

from . import _stubs
from .client import Client, Options, PlayError
from .ladder import compete, wait_for_seat
from .types import Answer

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
PROG = "metropolis_bot"


def log(message):
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # argparse's own refusals, and ours: one line, then where to look; exit 2.
        print(f"{PROG}: {message}\n(see python3 -m {PROG} --help)", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def parser():
    p = Parser(
        prog=f"python3 -m {PROG}",
        usage=(f"python3 -m {PROG} --host ADDR --game ID --token T [--bot SPEC] [flags]\n"
               f"       python3 -m {PROG} --ladder ID --matchmaker ADDR --api-token T [--games N] [flags]\n"
               f"       python3 -m {PROG} --compete --matchmaker ADDR --api-token T [--capacity N] [--sessions N] [--games N]"),
        description="Plays one seat of a game on a Metropolis game host, reconnecting when the stream drops (the "
                    "host's fallback bot plays the seat meanwhile), and prints one summary line when the game is over.",
        epilog="exit status: 0 the game is over (whoever won), 1 it could not be played to its end (the gRPC status "
               "code and message are printed), 2 bad flags.")
    p.add_argument("--host", metavar="ADDR", help="the game host, HOST:PORT (env METROPOLIS_HOST)")
    p.add_argument("--game", metavar="ID", help="the game id")
    p.add_argument("--token", metavar="T", help="the seat's token from CreateGame (env METROPOLIS_TOKEN)")
    p.add_argument("--tls-ca", metavar="FILE", help="PEM CA bundle: reach the game hosts and the matchmaker over "
                   "TLS, verified against it (env METROPOLIS_TLS_CA; default: plaintext)")
    p.add_argument("--ladder", metavar="ID", help="ladder mode: queue on this ladder instead of --host/--game/--token")
    p.add_argument("--matchmaker", metavar="ADDR", help="ladder and compete modes: the matchmaker, HOST:PORT or "
                   "several A,B (env METROPOLIS_MATCHMAKER)")
    p.add_argument("--api-token", metavar="T", help="ladder and compete modes: the bot's API token "
                   "(env METROPOLIS_API_TOKEN)")
    p.add_argument("--games", metavar="N", help="ladder mode: games to play one after another (default 1); compete "
                   "mode: stop after N games (default: play until stopped)")
    p.add_argument("--compete", action="store_true", help="tournament mode: stay available to the matchmaker and "
                   "play every tournament game it sends")
    p.add_argument("--capacity", metavar="N", help="compete mode: games at once (1..16, default 1)")
    p.add_argument("--sessions", metavar="N", help="compete mode: hold N Compete streams, each with --capacity; a "
                   "duplicate set's rotations go to separate streams, one each while there are enough (1..16, "
                   "default 1; with N > 1 it plays until stopped)")
    p.add_argument("--bot", metavar="SPEC", help="the bot: random (default, pure Python), or a "
                   "spec of the local engine's bots (heuristic, search:iterations=200, ...; needs the engine's "
                   "Python module, docs/PYTHON.md)")
    p.add_argument("--seed", metavar="N", help="seed of the bot's random stream (default: unpredictable)")
    p.add_argument("--take-over", action="store_true", help="replace a stream that already plays the seat")
    p.add_argument("--view-deltas", action="store_true", help="ask the host for views as deltas against the last "
                   "decision answered (about a sixth of the bytes)")
    p.add_argument("--quiet", action="store_true", help="print only the summary line and errors")
    p.add_argument("--verbose", action="store_true", help="also log every decision and event")
    p.add_argument("--debug-notes", action="store_true", help="send a note with each answer (what the bot chose, "
                   "of how many), which the bot's author reads in the replay (docs/GAMEHOST.md, \"Debug notes\")")
    p.add_argument("--record", metavar="FILE", help="append one JSON line per finished game to FILE: what the seat "
                   "saw, for the game checker")
    p.add_argument("--max-reconnects", metavar="N", help="consecutive reconnect attempts after a dropped stream "
                   "before giving up (default 20: about 70 s)")
    p.add_argument("--stubs", metavar="DIR", help="the generated stubs (default: $METROPOLIS_PY_STUBS, else "
                   "botkits/python/gen; botkits/python/generate.sh makes them)")
    return p


def _int(p, flag, value, lo, hi):
    try:
        n = int(value, 10)
    except ValueError:
        p.error(f"--{flag}: '{value}' is not a number")
    if not lo <= n <= hi:
        p.error(f"--{flag}: {n} is out of range ({lo}..{hi})")
    return n


def parse(argv, env=os.environ, extra_flags=None, own_bot=False):
    """The settings from the command line and the environment; exits 2 on bad flags.
    extra_flags(parser) may add a program's own flags (search_bot.py); own_bot: the
    program decides itself, so --bot has no place."""
    p = parser()
    if extra_flags:
        extra_flags(p)
    a = p.parse_args(argv)
    if own_bot and a.bot is not None:
        p.error("--bot: this program plays its own bot")
    a.bot = a.bot or "random"
    given = {k for k, v in vars(a).items() if v not in (None, False)}

    def flag_or_env(name, var):
        value = getattr(a, name.replace("-", "_"))
        return value if value is not None else env.get(var, "")

    a.tls_ca_pem = None
    ca = flag_or_env("tls-ca", "METROPOLIS_TLS_CA")
    if ca:
        try:
            with open(ca, "rb") as f:
                a.tls_ca_pem = f.read()
        except OSError as e:
            p.error(f"--tls-ca: {ca}: {e.strerror}")
    a.host = flag_or_env("host", "METROPOLIS_HOST")
    a.token = flag_or_env("token", "METROPOLIS_TOKEN")
    if "capacity" in given and not a.compete:
        p.error("--capacity needs --compete")
    if "sessions" in given and not a.compete:
        p.error("--sessions needs --compete")
    if a.compete or a.ladder:
        mode = "--compete" if a.compete else "--ladder"
        if a.compete and a.ladder:
            p.error("--compete and --ladder exclude each other")
        a.matchmaker = flag_or_env("matchmaker", "METROPOLIS_MATCHMAKER")
        a.api_token = flag_or_env("api-token", "METROPOLIS_API_TOKEN")
        if not a.matchmaker:
            p.error(f"--matchmaker (or METROPOLIS_MATCHMAKER) is required with {mode}")
        if not a.api_token:
            p.error(f"--api-token (or METROPOLIS_API_TOKEN) is required with {mode}")
        if given & {"game", "token"} or (a.compete and "host" in given):
            p.error(f"--host, --game and --token come from the matchmaker with {mode}" if a.compete
                    else "--game and --token come from the matchmaker with --ladder")
        a.games = _int(p, "games", a.games, 1, 1_000_000) if a.games is not None else (0 if a.compete else 1)
        a.capacity = _int(p, "capacity", a.capacity, 1, 16) if a.capacity is not None else 1
        a.sessions = _int(p, "sessions", a.sessions, 1, 16) if a.sessions is not None else 1
        # Stopping after N games would leave the other streams waiting for a seat.
        if a.sessions > 1 and "games" in given:
            p.error("--games needs one session (--sessions 1)")
    else:
        if given & {"games", "matchmaker", "api_token"}:
            p.error("--games, --matchmaker and --api-token need --ladder or --compete")
        if not a.host:
            p.error("--host (or METROPOLIS_HOST) is required")
        if not a.game:
            p.error("--game is required")
        if not a.token:
            p.error("--token (or METROPOLIS_TOKEN) is required")
        a.games = 1
    if a.quiet and a.verbose:
        p.error("--quiet and --verbose exclude each other")
    if a.record == "":
        p.error("--record needs a file")
    a.seed = _int(p, "seed", a.seed, 0, 2**64 - 1) if a.seed is not None else None
    a.max_reconnects = _int(p, "max-reconnects", a.max_reconnects, 0, 1000) if a.max_reconnects is not None else 20
    if a.stubs:
        _stubs.use_stubs(a.stubs)
    if not own_bot:
        try:
            a.make_decider = deciders(a.bot)
        except _stubs.StubsMissing:
            a.make_decider = None  # main() says so
        except ValueError as e:
            p.error(f"--bot: {e}")
    a.parser = p
    return a


def deciders(spec):
    """A factory of decide functions for --bot: make(seed, notes) -> decide(decision)."""
    if spec == "random":
        return random_decider
    from .engine import EngineMissing, engine_decider
    try:
        return engine_decider(spec)
    except EngineMissing as e:
        raise ValueError(f"'{spec}' is a bot of the local engine: {e}") from None


def random_decider(seed, notes):
    """Uniformly random among the legal actions not refused yet."""
    rng = random.Random(seed)

    def decide(d):
        refused = {getattr(r, "code", r) for r in d.rejected}
        choices = [a for a in d.legal if a.code not in refused] or d.legal
        action = rng.choice(choices)
        if notes:
            return Answer(action, note=f"random chose {action} of {len(d.legal)} legal")
        return action
    return decide


def summary(game_id, client):
    s, r = client.stats, client.stats.result
    return (f"{PROG}: game over: game={game_id} seat={s.seat} decisions={s.decisions_answered} "
            f"rejected={s.rejections} reconnects={s.reconnects} winner={r.winner} result={r.reason} "
            f"vp={','.join(map(str, r.vp))} actions={r.actions} turns={r.turns}")


class Runner:
    def __init__(self, a):
        self.a = a
        self.lock = threading.Lock()
        self.seed = a.seed if a.seed is not None else random.SystemRandom().getrandbits(64)

    def options(self, host, game_id, token, other_hosts=()):
        a = self.a
        return Options(host=host, game_id=game_id, token=token, other_hosts=list(other_hosts),
                       take_over=a.take_over, want_text=a.verbose, tls_ca=a.tls_ca_pem,
                       max_reconnect_attempts=a.max_reconnects, view_deltas=a.view_deltas)

    def play(self, options, number):
        """Plays one game; True when it was played to its end."""
        a = self.a
        decide = a.make_decider(self.seed + number, a.debug_notes)
        callbacks = {}
        if not a.quiet:
            callbacks["on_log"] = log
        if a.verbose:
            inner = decide

            def decide(d):
                answer = inner(d)
                shown = answer.action if isinstance(answer, Answer) else answer
                log(f"step {d.step}: {shown} (of {len(d.legal)}, {d.kind}, {d.decision_ms_left} ms left)")
                return answer

            def on_events(step, events):
                for e in events:
                    log(f"event (to step {step}): {e.name} seat={e.seat} other={e.other} a={e.a} b={e.b} c={e.c}"
                        + (f" {e.action}" if e.action else ""))
            callbacks["on_events"] = on_events
        client = Client()
        try:
            client.run(options, decide, **callbacks)
        except PlayError as e:
            print(f"{PROG}: game {options.game_id}: {e.code.name}: {e.message}", file=sys.stderr, flush=True)
            return False
        except Exception as e:  # the bot's own bug: this game is lost, the others go on
            import traceback
            traceback.print_exc()
            print(f"{PROG}: game {options.game_id}: the bot failed: {e!r}", file=sys.stderr, flush=True)
            return False
        with self.lock:
            if a.record:
                with open(a.record, "a") as f:
                    f.write(client.record() + "\n")
            print(summary(options.game_id, client), flush=True)
        return True

    def run(self):
        a = self.a
        if not a.quiet:
            log(f"bot {a.bot}, seed {self.seed}" + (f", host {a.host}" if a.host else ""))
        if a.compete:
            return self.run_compete()
        for number in range(a.games):
            if a.ladder:
                on_queued = None
                if a.verbose:
                    def on_queued(q):
                        log(f"queued: position {q.position} of {q.queue_size}, waited {q.waited_ms} ms")
                try:
                    seat = wait_for_seat(a.matchmaker, a.ladder, a.api_token, on_queued=on_queued,
                                         on_retry=lambda why: log(f"queueing again after: {why}"),
                                         tls_ca=a.tls_ca_pem)
                except PlayError as e:
                    print(f"{PROG}: queueing on {a.ladder}: {e.code.name}: {e.message}", file=sys.stderr)
                    return EXIT_FAILED
                if not a.quiet:
                    log(f"seated in game {seat.game_id} on {seat.host}")
                options = self.options(seat.host, seat.game_id, seat.seat_token, seat.other_hosts)
            else:
                options = self.options(a.host, a.game, a.token)
            if not self.play(options, number):
                return EXIT_FAILED
        return EXIT_OK

    def run_compete(self):
        a = self.a
        started, failed, threads, errors = [0], [0], [], []

        def play(seat, number):
            if not self.play(self.options(seat.host, seat.game_id, seat.seat_token, seat.other_hosts), number):
                with self.lock:
                    failed[0] += 1

        def on_seat(seat):
            with self.lock:
                started[0] += 1
                number = started[0]
            if not a.quiet:
                log(f"seated in game {seat.game_id} of tournament {seat.tournament} on {seat.host}")
            t = threading.Thread(target=play, args=(seat, number), daemon=True)
            t.start()
            threads.append(t)
            return a.games == 0 or number < a.games

        def session():
            try:
                compete(a.matchmaker, a.api_token, on_seat, capacity=a.capacity,
                        on_retry=lambda why: log(f"competing again after: {why}"), tls_ca=a.tls_ca_pem)
            except PlayError as e:
                errors.append(e)

        # Each session its own stream: the matchmaker sends a duplicate set's rotations
        # to separate ones (docs/TOURNAMENTS.md, "Rotations in lockstep").
        sessions = [threading.Thread(target=session, daemon=True) for _ in range(a.sessions - 1)]
        for t in sessions:
            t.start()
        session()
        for t in sessions:
            t.join()
        for t in threads:
            t.join()
        if errors:
            e = errors[0]
            print(f"{PROG}: competing: {e.code.name}: {e.message}", file=sys.stderr)
            return EXIT_FAILED
        return EXIT_FAILED if failed[0] else EXIT_OK


def main(argv=None, extra_flags=None, make_decider=None, name=None):
    """Runs the command line. A program with a bot of its own passes make_decider(args,
    seed, notes) -> decide, which replaces --bot, its name for the log, and
    extra_flags(parser) for flags of its own."""
    a = parse(sys.argv[1:] if argv is None else argv, extra_flags=extra_flags, own_bot=make_decider is not None)
    if make_decider:
        a.bot = name or os.path.basename(sys.argv[0])
    try:
        _stubs.modules()
        _stubs.protocol()
    except _stubs.StubsMissing as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_USAGE
    if make_decider:
        try:
            a.make_decider = lambda seed, notes: make_decider(a, seed, notes)
            a.make_decider(0, False)  # refuses bad settings now, not at the first decision
        except (ValueError, ImportError) as e:
            a.parser.error(str(e))
    try:
        return Runner(a).run()
    except KeyboardInterrupt:
        return EXIT_FAILED
