"""Ladder queueing and tournament Compete (botkits/cpp/ladder.h, compete.h) against a
scripted in-process matchmaker, and the command line, python3 -m metropolis_bot, playing
a ladder game and tournament games end to end on scripted hosts."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import grpc

from scripted_host import (KIT, ScriptedHost, ScriptedMatchmaker, assignment, compete_status, decision, free_port,
                           game_over, queued, stubs, welcome)

import metropolis_bot as mb
from metropolis_bot import _stubs, ladder


def setUpModule():
    stubs()


def seat_script(game_id, answered):
    """A game host playing one short game per Play call, counting the answers."""
    def script(call, requests, context):
        hello = next(requests).hello
        assert hello.game_id == game_id or game_id is None, hello
        token = dict(context.invocation_metadata())["authorization"]
        yield welcome(game_id=hello.game_id)
        for step in (1, 2, 3):
            yield decision(step, [mb.make_code("roll"), mb.make_code("end_turn")])
            answered.append((hello.game_id, token, next(requests).answer.step))
        yield game_over(winner=0)
    return script


class LadderTest(unittest.TestCase):
    def setUp(self):
        self.stop = []
        self.addCleanup(lambda: [s.stop() for s in self.stop])

    def start(self, thing):
        self.stop.append(thing)
        return thing

    def test_queues_until_the_assignment(self):
        def enqueue(call, request, context):
            yield queued(3, 5)
            yield queued(0, 5)
            yield assignment("127.0.0.1:1", "g7", "seat-token", seat=2, other_hosts=["127.0.0.1:2"])

        mm = self.start(ScriptedMatchmaker(enqueue=enqueue))
        progress = []
        seat = ladder.wait_for_seat(mm.address, "main", "api-1", on_queued=progress.append)
        self.assertEqual((seat.game_id, seat.seat_token, seat.seat, list(seat.other_hosts)),
                         ("g7", "seat-token", 2, ["127.0.0.1:2"]))
        self.assertEqual([q.position for q in progress], [3, 0])
        request, metadata = mm.requests[0]
        self.assertEqual((request.ladder, metadata["authorization"]), ("main", "Bearer api-1"))

    def test_a_failed_replica_is_retried_on_the_next_and_a_refusal_is_final(self):
        def enqueue(call, request, context):
            if call == 0:
                context.abort(grpc.StatusCode.UNAVAILABLE, "replica going down")
            yield assignment("127.0.0.1:1", "g8", "tok")

        mm = self.start(ScriptedMatchmaker(enqueue=enqueue))
        dead = f"127.0.0.1:{free_port()}"
        retries = []
        seat = ladder.wait_for_seat(f"{mm.address},{dead}", "main", "api", on_retry=retries.append)
        self.assertEqual(seat.game_id, "g8")
        self.assertEqual(len(retries), 2)  # this replica, then the dead one, then this one again
        self.assertTrue(retries[0].startswith(mm.address))

        def refuse(call, request, context):
            context.abort(grpc.StatusCode.NOT_FOUND, "no ladder nope")
            yield

        mm2 = self.start(ScriptedMatchmaker(enqueue=refuse))
        with self.assertRaises(mb.PlayError) as e:
            ladder.wait_for_seat(mm2.address, "nope", "api")
        self.assertEqual((e.exception.code, mm2.enqueue_calls), (grpc.StatusCode.NOT_FOUND, 1))
        self.assertEqual(ladder.split_addresses("a,,b,"), ["a", "b"])

    def test_compete_hands_over_each_seat_until_told_to_stop(self):
        def compete(call, request, context):
            yield compete_status(capacity=request.capacity)
            if call == 0:
                yield assignment("h", "t1-g1", "tok1", tournament="t1", update="CompeteUpdate")
                context.abort(grpc.StatusCode.UNAVAILABLE, "replica died")
            yield assignment("h", "t1-g2", "tok2", tournament="t1", update="CompeteUpdate")
            yield assignment("h", "t1-g3", "tok3", tournament="t1", update="CompeteUpdate")
            while context.is_active():  # more would come; the client hangs up first
                time.sleep(0.05)

        mm = self.start(ScriptedMatchmaker(compete=compete))
        seats, retries = [], []
        ladder.compete(mm.address, "api", lambda a: seats.append(a.game_id) or len(seats) < 3, capacity=2,
                       on_retry=retries.append)
        self.assertEqual(seats, ["t1-g1", "t1-g2", "t1-g3"])
        self.assertEqual(len(retries), 1)
        self.assertEqual(mm.requests[0][0].capacity, 2)


class CommandLineTest(unittest.TestCase):
    def setUp(self):
        self.stop = []
        self.addCleanup(lambda: [s.stop() for s in self.stop])

    def start(self, thing):
        self.stop.append(thing)
        return thing

    def bot(self, *args, env=None):
        full_env = dict(os.environ, PYTHONPATH=KIT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        for var in ("METROPOLIS_HOST", "METROPOLIS_TOKEN", "METROPOLIS_MATCHMAKER", "METROPOLIS_API_TOKEN",
                    "METROPOLIS_TLS_CA"):
            full_env.pop(var, None)
        full_env.update(env or {})
        return subprocess.run([sys.executable, "-m", "metropolis_bot", "--stubs", _stubs.stubs_folder(), *args],
                              capture_output=True, text=True, timeout=120, env=full_env)

    def test_bad_flags_exit_2_with_a_precise_error(self):
        cases = [
            ([], "--host (or METROPOLIS_HOST) is required"),
            (["--host", "h:1", "--token", "t"], "--game is required"),
            (["--host", "h:1", "--game", "g"], "--token (or METROPOLIS_TOKEN) is required"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--games", "2"],
             "--games, --matchmaker and --api-token need --ladder or --compete"),
            (["--ladder", "main", "--api-token", "a"], "--matchmaker (or METROPOLIS_MATCHMAKER) is required with "
                                                       "--ladder"),
            (["--ladder", "main", "--matchmaker", "m:1"], "--api-token (or METROPOLIS_API_TOKEN) is required"),
            (["--ladder", "main", "--matchmaker", "m:1", "--api-token", "a", "--game", "g"],
             "--game and --token come from the matchmaker with --ladder"),
            (["--ladder", "main", "--matchmaker", "m:1", "--api-token", "a", "--games", "x"],
             "--games: 'x' is not a number"),
            (["--compete", "--ladder", "l", "--matchmaker", "m:1", "--api-token", "a"],
             "--compete and --ladder exclude each other"),
            (["--compete", "--matchmaker", "m:1", "--api-token", "a", "--capacity", "17"],
             "--capacity: 17 is out of range (1..16)"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--capacity", "2"], "--capacity needs --compete"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--sessions", "2"], "--sessions needs --compete"),
            (["--compete", "--matchmaker", "m:1", "--api-token", "a", "--sessions", "2", "--games", "3"],
             "--games needs one session (--sessions 1)"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--tls-ca", "/nonexistent/ca.pem"],
             "--tls-ca: /nonexistent/ca.pem: No such file or directory"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--quiet", "--verbose"],
             "--quiet and --verbose exclude each other"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--seed", "-1"], "--seed: -1 is out of range"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--bot", "nonsense"], "--bot: "),
            (["--host", "h:1", "--game", "g", "--token", "t", "--frobnicate"], "unrecognized arguments: --frobnicate"),
            (["--host", "h:1", "--game", "g", "--token", "t", "--bot", "search:iterations=x"], "--bot: "),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                r = self.bot(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertEqual(r.stdout, "")
        r = self.bot("--help")
        self.assertEqual(r.returncode, 0)
        for flag in ("--host", "--game", "--token", "--ladder", "--matchmaker", "--games", "--compete", "--tls-ca",
                     "--seed", "--verbose", "--debug-notes"):
            self.assertIn(flag, r.stdout)

    def test_plays_one_game_and_fails_with_the_status(self):
        answered = []
        host = self.start(ScriptedHost(seat_script("g1", answered)))
        scratch = tempfile.mkdtemp(prefix="metropolis-pysdk-record.")
        self.addCleanup(shutil.rmtree, scratch, ignore_errors=True)
        record = os.path.join(scratch, "record.jsonl")
        r = self.bot("--host", host.address, "--game", "g1", "--seed", "3", "--debug-notes", "--verbose",
                     "--record", record, env={"METROPOLIS_TOKEN": "tok"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^metropolis_bot: game over: game=g1 seat=0 decisions=3 rejected=0 "
                                   r"reconnects=0 winner=0 result=WON vp=13,9,8,7 actions=1234 turns=56\n$")
        self.assertEqual(len(answered), 3)
        self.assertIn("step 1: ", r.stderr)
        with open(record) as f:
            self.assertIn('"game":"g1"', f.read())

        unreachable = f"127.0.0.1:{free_port()}"
        r = self.bot("--host", unreachable, "--game", "g1", "--token", "t")
        self.assertEqual(r.returncode, 1)
        self.assertIn("game g1: UNAVAILABLE: ", r.stderr)

    def test_a_bot_that_raises_loses_its_game_with_the_error(self):
        host = self.start(ScriptedHost(seat_script("g1", [])))
        program = ("import sys; from metropolis_bot.cli import main; "
                   "sys.exit(main(make_decider=lambda args, seed, notes: (lambda d: 1 / 0), name='broken'))")
        env = dict(os.environ, PYTHONPATH=KIT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        r = subprocess.run([sys.executable, "-c", program, "--stubs", _stubs.stubs_folder(), "--host", host.address,
                            "--game", "g1", "--token", "t"], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("game g1: the bot failed: ZeroDivisionError", r.stderr)
        self.assertIn("bot broken, seed", r.stderr)

    def test_plays_ladder_games(self):
        answered = []
        host = self.start(ScriptedHost(seat_script(None, answered)))

        def enqueue(call, request, context):
            yield queued(0, 1)
            yield assignment(host.address, f"ladder-g{call}", f"tok{call}")

        mm = self.start(ScriptedMatchmaker(enqueue=enqueue))
        r = self.bot("--ladder", "main", "--games", "2", "--seed", "1",
                     env={"METROPOLIS_MATCHMAKER": mm.address, "METROPOLIS_API_TOKEN": "api"})
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual([line.split()[3] for line in lines], ["game=ladder-g0", "game=ladder-g1"])
        self.assertEqual({t for _, t, _ in answered}, {"Bearer tok0", "Bearer tok1"})
        self.assertIn("seated in game ladder-g0", r.stderr)

    def test_competes_in_tournament_games(self):
        answered = []
        host = self.start(ScriptedHost(seat_script(None, answered)))

        def compete(call, request, context):
            yield compete_status()
            for i in range(3):
                yield assignment(host.address, f"t-g{i}", f"tok{i}", tournament="t",
                                 update="CompeteUpdate")
            while context.is_active():
                time.sleep(0.05)

        mm = self.start(ScriptedMatchmaker(compete=compete))
        r = self.bot("--compete", "--matchmaker", mm.address, "--api-token", "api", "--games", "2",
                     "--capacity", "2", "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(line.split()[3] for line in r.stdout.splitlines()), ["game=t-g0", "game=t-g1"])
        self.assertEqual(r.stderr, "")

    def test_competes_on_several_sessions_until_stopped(self):
        answered = []
        host = self.start(ScriptedHost(seat_script(None, answered)))

        def compete(call, request, context):
            yield compete_status()
            yield assignment(host.address, f"s{call}-g", f"tok{call}", tournament="t", update="CompeteUpdate")
            while context.is_active():
                time.sleep(0.05)

        mm = self.start(ScriptedMatchmaker(compete=compete))
        env = dict(os.environ, PYTHONPATH=KIT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        bot = subprocess.Popen([sys.executable, "-m", "metropolis_bot", "--stubs", _stubs.stubs_folder(), "--compete",
                                "--matchmaker", mm.address, "--api-token", "api", "--sessions", "3", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while len(answered) < 9 and time.monotonic() < deadline:  # three games of three decisions
            time.sleep(0.05)
        time.sleep(0.5)  # their summary lines
        bot.terminate()
        out, err = bot.communicate(timeout=30)
        self.assertEqual(mm.compete_calls, 3, err)
        self.assertEqual(sorted(line.split()[3] for line in out.splitlines()), ["game=s0-g", "game=s1-g", "game=s2-g"])


if __name__ == "__main__":
    unittest.main()
