"""The SDK's Client against scripted in-process hosts: the Play protocol, typed
decisions and events, rejections, pauses, debug notes, reconnection, redirects,
failover across hosts and TLS (the behaviour of the C++ kit, botkits/cpp/client.h)."""

import math
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import grpc

from scripted_host import (ScriptedHost, code, decision, events, free_port, game_over, paused, redirect, rejected,
                           stubs, welcome)

import metropolis_bot as mb

ROLL = None  # filled in setUpModule, from the protocol reference


def setUpModule():
    global ROLL, END_TURN, SETTLE, ROAD
    stubs()
    ROLL, END_TURN = code("roll"), code("end_turn")
    SETTLE, ROAD = code("build_settlement", 18), code("build_road", 17)


def fast(**kw):
    """Options with short backoffs, so that the tests wait milliseconds, not seconds."""
    o = mb.Options(game_id="g1", token="t0", reconnect_initial_backoff_ms=10, reconnect_max_backoff_ms=40,
                   finish_grace_ms=2000)
    for k, v in kw.items():
        setattr(o, k, v)
    return o


def hello_of(requests, test=None):
    first = next(requests)
    assert first.WhichOneof("msg") == "hello", first
    return first.hello


def answers(requests, n):
    return [next(requests).answer for _ in range(n)]


def answered_decisions(steps, got):
    """A host's script: the welcome, a decision at each of `steps` with only
    "roll" legal, each answer kept in `got`, then the game's end."""

    def script(call, requests, context):
        hello_of(requests)
        yield welcome()
        for step in steps:
            yield decision(step, [ROLL])
            got.append(next(requests).answer)
        yield game_over()

    return script


class Hosts:
    """Stops every host a test started."""

    def __init__(self, test):
        self.hosts = []
        test.addCleanup(self.stop)

    def start(self, script, **kw):
        h = ScriptedHost(script, **kw)
        self.hosts.append(h)
        return h

    def stop(self):
        for h in self.hosts:
            h.stop()


class PlayTest(unittest.TestCase):
    def setUp(self):
        self.hosts = Hosts(self)
        self.logs = []

    def run_client(self, options, decide, **kw):
        client = mb.Client()
        result = client.run(options, decide, on_log=self.logs.append, **kw)
        return client, result

    def test_plays_a_game_with_typed_decisions_and_events(self):
        seen = {}

        def script(call, requests, context):
            hello = hello_of(requests)
            seen["hello"] = hello
            seen["metadata"] = dict(context.invocation_metadata())
            yield welcome(step=0, seat=0)
            yield events(3, (0, -2, 0, code("dice", 4, 3)), (1, 0, 2))  # chance: dice; seat 0 produced
            yield decision(3, [SETTLE, ROAD], texts=["build_settlement n18", "build_road e17"])
            seen["answer"] = next(requests).answer
            yield decision(4, [END_TURN], pending=(9, 0))  # a discard decision (kind 9)
            seen["answer2"] = next(requests).answer
            yield game_over()

        host = self.hosts.start(script)
        got = {"decisions": [], "events": []}

        def decide(d):
            got["decisions"].append(d)
            return d.legal_of("build_settlement")[0] if d.step == 3 else d.legal[0].code

        client, result = self.run_client(fast(host=host.address, want_text=True), decide,
                                         on_events=lambda step, evs: got["events"].append((step, evs)))
        self.assertEqual(seen["hello"].game_id, "g1")
        self.assertTrue(seen["hello"].want_text)
        self.assertFalse(seen["hello"].take_over)
        self.assertFalse(seen["hello"].HasField("last_step_seen"))
        self.assertEqual(seen["metadata"]["authorization"], "Bearer t0")
        self.assertEqual((seen["answer"].step, seen["answer"].action.code), (3, SETTLE))
        self.assertEqual((seen["answer2"].step, seen["answer2"].action.code), (4, END_TURN))
        self.assertFalse(seen["answer"].HasField("debug"))

        d = got["decisions"][0]
        self.assertEqual((d.step, d.seat, d.kind, d.pending), (3, 0, "turn", None))
        self.assertEqual([a.name for a in d.legal], ["build_settlement", "build_road"])
        self.assertEqual([a.text for a in d.legal], ["build_settlement n18", "build_road e17"])
        self.assertEqual((d.legal[0].a, d.legal[1].a), (18, 17))
        self.assertEqual((d.decision_ms_left, d.time_bank_ms_left), (1000, 60000))
        self.assertEqual(d.welcome.game_id, "g1")
        self.assertEqual(got["decisions"][1].kind, "discard")
        self.assertEqual(got["decisions"][1].pending.role, "decision")

        step, evs = got["events"][0]
        self.assertEqual(step, 3)
        self.assertEqual([e.name for e in evs], ["action", "produced"])
        self.assertEqual((evs[0].action.name, evs[0].action.a, evs[0].action.b), ("dice", 4, 3))
        self.assertIsNone(evs[1].action)

        self.assertEqual(result, mb.Result("WON", 2, [13, 9, 8, 7], 1234, 56))
        s = client.stats
        self.assertEqual((s.seat, s.decisions_received, s.decisions_answered, s.rejections, s.reconnects),
                         (0, 2, 2, 0, 0))

    def test_events_inside_a_decision_reach_on_events_before_decide(self):
        """CAPABILITY_EVENTS_IN_DECISION: asked for unless turned off; a decision's events
        are handed to on_events before decide, as an Events update's would be."""
        pb = stubs().gamehost_pb2
        for ask in (True, False):
            seen = {}

            def script(call, requests, context):
                seen["capabilities"] = list(hello_of(requests).capabilities)
                yield welcome(step=0, seat=0)
                d = decision(3, [SETTLE, ROAD])
                d.decision.events.CopyFrom(events(3, (0, -2, 0, code("dice", 4, 3))).events)
                yield d
                next(requests)
                yield game_over()

            host = self.hosts.start(script)
            order = []

            def decide(d):
                order.append(f"decide {d.step}")
                return d.legal[0].code

            self.run_client(fast(host=host.address, events_in_decision=ask, view_deltas=False), decide,
                            on_events=lambda step, evs: order.append(f"events {step} {[e.name for e in evs]}"))
            self.assertEqual(order, ["events 3 ['action']", "decide 3"])
            self.assertEqual(seen["capabilities"], [pb.CAPABILITY_EVENTS_IN_DECISION] if ask else [])

    def test_view_deltas_are_rebuilt_from_the_last_decision_answered(self):
        """CAPABILITY_VIEW_DELTAS: asked for; a delta is applied to the view of the last
        decision answered; one against a view the client does not hold ends the run."""
        pb = stubs().gamehost_pb2
        for wrong_base in (False, True):
            seen = {}

            def script(call, requests, context):
                seen["capabilities"] = list(hello_of(requests).capabilities)
                yield welcome(step=0, seat=0)
                first = decision(3, [SETTLE, ROAD])
                first.decision.view.position.turn = 1
                first.decision.view.hand_total.extend([4, 5, 6, 7])
                yield first
                next(requests)
                second = decision(5, [])
                d = second.decision
                d.ClearField("view")
                d.view_delta.base_step = 4 if wrong_base else 3
                d.view_delta.fields.append(8)  # View.legal
                d.view_delta.changed.legal.append(ROAD)
                d.view_delta.position_fields.append(9)  # Position.turn
                d.view_delta.changed.position.turn = 2
                yield second
                next(requests)
                yield game_over()

            host = self.hosts.start(script)
            views = []

            def decide(d):
                views.append((d.step, list(d.view.legal), d.view.position.turn, list(d.view.hand_total)))
                return d.legal[0].code

            if wrong_base:
                with self.assertRaises(mb.PlayError) as e:
                    self.run_client(fast(host=host.address, view_deltas=True), decide)
                self.assertIn("a view delta against step 4, but the last decision answered was at step 3",
                              e.exception.message)
                self.assertEqual(len(views), 1)
            else:
                self.run_client(fast(host=host.address, view_deltas=True), decide)
                self.assertEqual(views, [(3, [SETTLE, ROAD], 1, [4, 5, 6, 7]), (5, [ROAD], 2, [4, 5, 6, 7])])
            self.assertEqual(seen["capabilities"], [pb.CAPABILITY_EVENTS_IN_DECISION, pb.CAPABILITY_VIEW_DELTAS])

    def test_a_view_delta_naming_an_unknown_field_is_refused(self):
        view = stubs().game_pb2.View(viewer=1)
        delta = stubs().game_pb2.ViewDelta(fields=[999])
        with self.assertRaisesRegex(ValueError, "View has no field 999"):
            mb.view_delta.apply_view_delta(view, delta)
        self.assertEqual(view.viewer, 1)

    def test_rejected_answer_asks_again_and_never_resends(self):
        got = {}

        def script(call, requests, context):
            hello_of(requests)
            yield welcome()
            yield decision(5, [SETTLE, ROAD])
            first = next(requests).answer
            yield rejected(5, "BLD-1: edge 17 is not connected to your network")
            second = next(requests).answer
            yield rejected(5, "BLD-2: no")
            # The bot chose SETTLE again: nothing may come for step 5. The fallback bot
            # moves; the next decision is answered as usual.
            yield decision(7, [END_TURN])
            third = next(requests).answer
            got["answers"] = [(a.step, a.action.code) for a in (first, second, third)]
            yield game_over()

        host = self.hosts.start(script)
        asked = []

        def decide(d):
            asked.append((d.step, list(d.rejected), d.rejected_error))
            if d.step == 5 and len(d.rejected) == 1:
                return ROAD  # another action after the first refusal
            return d.legal[0]  # SETTLE (an Action) for step 5, refused twice over

        client, _ = self.run_client(fast(host=host.address), decide)
        self.assertEqual(got["answers"], [(5, SETTLE), (5, ROAD), (7, END_TURN)])
        self.assertEqual(len(asked), 4)
        self.assertEqual(asked[1][1][0].code, SETTLE)
        self.assertEqual(asked[1][2], "BLD-1: edge 17 is not connected to your network")
        self.assertEqual([getattr(a, "code", a) for a in asked[2][1]], [SETTLE, ROAD])
        self.assertEqual((client.stats.rejections, client.stats.decisions_answered), (2, 2))
        self.assertTrue(any("again after it was rejected" in line for line in self.logs), self.logs)

    def test_rejection_of_an_older_step_needs_nothing(self):
        def script(call, requests, context):
            hello_of(requests)
            yield welcome()
            yield decision(5, [SETTLE])
            next(requests)
            yield events(6, (0, 0, 0, SETTLE))
            yield rejected(4, "stale: the game is at step 6")
            yield decision(8, [END_TURN])
            self.assertEqual(next(requests).answer.step, 8)
            yield game_over()

        host = self.hosts.start(script)
        asked = []
        client, _ = self.run_client(fast(host=host.address), lambda d: asked.append(d.step) or d.legal[0])
        self.assertEqual(asked, [5, 8])

    def test_pause_drops_the_decision_owed_until_it_comes_again(self):
        def script(call, requests, context):
            hello_of(requests)
            yield welcome()
            yield decision(5, [SETTLE, ROAD])
            next(requests)
            yield paused(True)
            # The answer sent meanwhile is refused as "paused": not the action's fault,
            # so the client must not ask the bot again.
            yield rejected(5, "paused: the game's store cannot be written")
            yield paused(False)
            yield decision(5, [SETTLE, ROAD])
            again = next(requests).answer
            self.assertEqual((again.step, again.action.code), (5, SETTLE))
            yield game_over()

        host = self.hosts.start(script)
        asked = []
        self.run_client(fast(host=host.address), lambda d: asked.append(len(d.rejected)) or d.legal[0])
        self.assertEqual(asked, [0, 0])
        self.assertTrue(any("paused by its host" in line for line in self.logs), self.logs)
        self.assertTrue(any("goes on after a pause" in line for line in self.logs), self.logs)

    def test_debug_note_cut_at_a_character_and_non_finite_evaluation_left_out(self):
        got = []
        notes = {
            1: mb.Answer(ROLL, note="é" * 200, evaluation=math.nan),   # 400 bytes
            2: mb.Answer(ROLL, note="short", evaluation=0.75),
            3: mb.Answer(ROLL, evaluation=math.inf),                    # nothing left to send
            4: mb.Answer(ROLL, evaluation=-2),
        }
        host = self.hosts.start(answered_decisions(range(1, 5), got))
        self.run_client(fast(host=host.address), lambda d: notes[d.step])
        first = got[0].debug
        self.assertEqual(first.note, "é" * 128)
        self.assertLessEqual(len(first.note.encode()), 256)
        self.assertFalse(first.HasField("evaluation"))
        self.assertEqual((got[1].debug.note, got[1].debug.evaluation), ("short", 0.75))
        self.assertFalse(got[2].HasField("debug"))
        self.assertEqual((got[3].debug.note, got[3].debug.evaluation), ("", -2.0))
        self.assertEqual(mb.cut_note("a" * 255 + "€"), "a" * 255)  # a 3-byte character at 255..257
        self.assertEqual(mb.cut_note("a" * 253 + "€"), "a" * 253 + "€")

    def test_resign_sends_the_resignation_and_the_game_ends(self):
        got = []
        host = self.hosts.start(answered_decisions([1], got))
        _, result = self.run_client(fast(host=host.address), lambda d: mb.RESIGN)
        self.assertEqual(len(got), 1)
        self.assertTrue(got[0].resign)
        self.assertEqual(got[0].step, 1)
        self.assertFalse(got[0].HasField("action"))
        self.assertIsNotNone(result)
        self.assertTrue(any("the bot resigns" in line for line in self.logs), self.logs)

    def test_answer_by_text(self):
        got = []
        host = self.hosts.start(answered_decisions([1], got))
        self.run_client(fast(host=host.address), lambda d: "roll")
        self.assertEqual((got[0].action.code, got[0].action.text), (0, "roll"))

    def test_a_decide_that_returns_no_action_says_so(self):
        def script(call, requests, context):
            hello_of(requests)
            yield welcome()
            yield decision(1, [ROLL])
            while context.is_active():
                time.sleep(0.05)

        host = self.hosts.start(script)
        with self.assertRaisesRegex(TypeError, r"decide returned None: return one of decision\.legal"):
            self.run_client(fast(host=host.address), lambda d: None)


class ReconnectTest(unittest.TestCase):
    def setUp(self):
        self.hosts = Hosts(self)
        self.logs = []

    def play(self, options, decide=lambda d: d.legal[0]):
        client = mb.Client()
        return client, client.run(options, decide, on_log=self.logs.append)

    def test_reconnects_after_a_drop_and_says_the_last_step_seen(self):
        hellos = []

        def script(call, requests, context):
            hellos.append(hello_of(requests))
            if call == 0:
                yield welcome(step=5)
                yield events(9, (1, 1, 2))
                context.abort(grpc.StatusCode.UNAVAILABLE, "host restarting")
            yield welcome(step=11)
            yield decision(11, [ROLL])
            next(requests)
            yield game_over()

        host = self.hosts.start(script)
        client, result = self.play(fast(host=host.address))
        self.assertEqual(result.winner, 2)
        self.assertEqual(len(hellos), 2)
        self.assertFalse(hellos[0].HasField("last_step_seen"))
        self.assertEqual(hellos[1].last_step_seen, 9)
        self.assertFalse(hellos[1].take_over)
        self.assertEqual(client.stats.reconnects, 1)
        self.assertEqual(client.seat_log.segments, [[5, 9], [11, 11]])

    def test_already_exists_is_retried_only_when_reconnecting(self):
        def script(call, requests, context):
            hello_of(requests)
            if call == 0:
                yield welcome()
                context.abort(grpc.StatusCode.INTERNAL, "stream reset")
            if call == 1:  # the host has not yet noticed the old stream is gone
                context.abort(grpc.StatusCode.ALREADY_EXISTS, "another stream plays seat 0")
            yield welcome()
            yield game_over()

        host = self.hosts.start(script)
        self.play(fast(host=host.address))
        self.assertEqual(host.calls, 3)

        def taken(call, requests, context):
            hello_of(requests)
            context.abort(grpc.StatusCode.ALREADY_EXISTS, "another stream plays seat 0")
            yield  # a generator

        other = self.hosts.start(taken)
        with self.assertRaises(mb.PlayError) as e:
            self.play(fast(host=other.address))
        self.assertEqual(e.exception.code, grpc.StatusCode.ALREADY_EXISTS)
        self.assertEqual(other.calls, 1)

    def test_refusals_are_final(self):
        for code_, welcomed in ((grpc.StatusCode.UNAUTHENTICATED, False), (grpc.StatusCode.NOT_FOUND, False),
                                (grpc.StatusCode.ABORTED, True), (grpc.StatusCode.DATA_LOSS, True)):
            def script(call, requests, context, code_=code_, welcomed=welcomed):
                hello_of(requests)
                if welcomed:
                    yield welcome()
                context.abort(code_, "refused")

            host = self.hosts.start(script)
            with self.subTest(code=code_.name), self.assertRaises(mb.PlayError) as e:
                self.play(fast(host=host.address))
            self.assertEqual(e.exception.code, code_)
            self.assertEqual(host.calls, 1)
            if not welcomed:
                self.assertIn(f"({host.address}, game g1)", e.exception.message)

    def test_first_connection_to_an_unreachable_host_fails_at_once(self):
        with self.assertRaises(mb.PlayError) as e:
            self.play(fast(host=f"127.0.0.1:{free_port()}"))
        self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)

    def test_gives_up_after_the_reconnect_budget(self):
        def script(call, requests, context):
            hello_of(requests)
            if call == 0:
                yield welcome()
            context.abort(grpc.StatusCode.UNAVAILABLE, "going away")

        host = self.hosts.start(script)
        with self.assertRaises(mb.PlayError) as e:
            self.play(fast(host=host.address, max_reconnect_attempts=3))
        self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
        self.assertIn("gave up after 3 reconnect attempts", e.exception.message)
        self.assertEqual(host.calls, 4)  # the first stream, then the budget of 3

    def test_follows_a_redirect_and_stops_a_redirect_loop(self):
        hellos = []

        def target(call, requests, context):
            hellos.append(hello_of(requests))
            yield welcome(step=7)
            yield game_over()

        b = self.hosts.start(target)

        def redirecting(call, requests, context):
            hello_of(requests)
            yield welcome(step=3)
            yield redirect(b.address)

        a = self.hosts.start(redirecting)
        client, result = self.play(fast(host=a.address))
        self.assertEqual(result.reason, "WON")
        self.assertEqual(hellos[0].last_step_seen, 3)
        self.assertEqual((client.stats.redirects, client.stats.reconnects), (1, 1))
        self.assertEqual(client.welcome.host, b.address)

        loop = {}

        def pointing(call, requests, context, name):
            hello_of(requests)
            yield redirect(loop["b" if name == "a" else "a"])

        la = self.hosts.start(lambda c, r, x: pointing(c, r, x, "a"))
        lb = self.hosts.start(lambda c, r, x: pointing(c, r, x, "b"))
        loop.update(a=la.address, b=lb.address)
        with self.assertRaises(mb.PlayError) as e:
            self.play(fast(host=la.address, max_redirects=3))
        self.assertEqual(e.exception.code, grpc.StatusCode.ABORTED)
        self.assertIn("redirected more than 3 times", e.exception.message)

    def test_fails_over_to_the_other_hosts_when_the_host_is_unreachable(self):
        def survivor(call, requests, context):
            hello_of(requests)
            yield welcome(step=40)
            yield decision(40, [ROLL])
            next(requests)
            yield game_over()

        b = self.hosts.start(survivor)
        dead = f"127.0.0.1:{free_port()}"
        client, result = self.play(fast(host=dead, other_hosts=[b.address]))
        self.assertEqual(result.winner, 2)
        self.assertEqual(b.calls, 1)
        self.assertTrue(any(f"trying game host {b.address}" in line for line in self.logs), self.logs)

    def test_a_host_that_dies_mid_game_is_replaced_by_one_that_redirects(self):
        # The seat plays on A; A dies. B knows the game went to C (its lease) and
        # redirects there; C plays it to the end, told the last step seen.
        hellos = []

        def on_c(call, requests, context):
            hellos.append(hello_of(requests))
            yield welcome(step=21)
            yield game_over()

        c = self.hosts.start(on_c)

        def on_b(call, requests, context):
            hello_of(requests)
            yield redirect(c.address)

        b = self.hosts.start(on_b)

        def on_a(call, requests, context):
            hello_of(requests)
            if call > 0:  # dead from now on
                context.abort(grpc.StatusCode.UNAVAILABLE, "connection refused")
            yield welcome(step=10)
            yield events(20, (1, 0, 1))
            context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")

        a = self.hosts.start(on_a)
        client, result = self.play(fast(host=a.address, other_hosts=[b.address]))
        self.assertEqual(result.winner, 2)
        self.assertEqual(hellos[0].last_step_seen, 20)
        self.assertEqual((a.calls, b.calls, c.calls), (2, 1, 1))  # A again first, as the C++ kit does
        self.assertEqual(client.stats.reconnects, 1)

    def test_not_found_after_a_welcome_asks_the_other_hosts(self):
        def on_b(call, requests, context):
            hello_of(requests)
            yield welcome(step=30)
            yield game_over()

        b = self.hosts.start(on_b)

        def on_a(call, requests, context):
            hello_of(requests)
            if call == 0:
                yield welcome(step=12)
                context.abort(grpc.StatusCode.UNAVAILABLE, "restarting")
            context.abort(grpc.StatusCode.NOT_FOUND, "no game g1")  # taken over from here

        a = self.hosts.start(on_a)
        client, result = self.play(fast(host=a.address, other_hosts=[b.address]))
        self.assertEqual(result.winner, 2)
        self.assertEqual(b.calls, 1)


class TlsTest(unittest.TestCase):
    def test_plays_over_tls_verified_against_the_ca(self):
        pki = tempfile.mkdtemp(prefix="metropolis-pysdk-pki.")
        self.addCleanup(shutil.rmtree, pki, ignore_errors=True)
        steps = [
            "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca",
            "openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 1 -subj /CN=other",
            "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost",
            "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' >san.ext",
            "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 "
            "-extfile san.ext",
        ]
        for step in steps:
            subprocess.run(step, shell=True, cwd=pki, check=True, capture_output=True)

        def read(name):
            with open(os.path.join(pki, name), "rb") as f:
                return f.read()

        def script(call, requests, context):
            hello_of(requests)
            yield welcome()
            yield game_over()

        host = ScriptedHost(script, tls=(read("server.key"), read("server.pem")))
        self.addCleanup(host.stop)
        result = mb.Client().run(fast(host=host.address, tls_ca=read("ca.pem")), lambda d: d.legal[0])
        self.assertEqual(result.winner, 2)
        # Another CA does not vouch for the host: the first connection fails.
        with self.assertRaises(mb.PlayError) as e:
            mb.Client().run(fast(host=host.address, tls_ca=read("other.pem")), lambda d: d.legal[0])
        self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)


if __name__ == "__main__":
    unittest.main()
