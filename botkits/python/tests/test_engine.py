"""The local engine from the host's messages (metropolis_bot.engine and the engine's
config_from_message / view_from_message): real messages a host sent (data/), read into
the engine's GameConfig and View, checked against the engine's own rules, and the bad
ones refused with the field named. Needs the engine's module (PYTHONPATH=build/<preset>/python)."""

import base64
import os
import subprocess
import sys
import unittest

from scripted_host import KIT, stubs

import metropolis_bot as mb
from metropolis_bot import engine as local
from metropolis_bot.types import Decision, Welcome

sys.path.insert(0, KIT)
HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    """The Welcome and the decisions of data/host_messages.txt, as the SDK hands them to a bot."""
    pb = stubs().gamehost_pb2
    welcome, decisions = None, []
    with open(os.path.join(HERE, "data", "host_messages.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            kind, step, data = line.split()
            u = pb.PlayUpdate.FromString(base64.b64decode(data))
            if kind == "welcome":
                welcome = Welcome(u.welcome.game_id, "host", u.welcome.seat, 0, False, u.welcome)
                continue
            d = u.decision
            legal = [mb.Action(c) for c in d.view.legal]
            decisions.append((kind, Decision(d.step, welcome.seat, d.view, legal, 1000, 1000, welcome)))
    return welcome, decisions


class EngineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = local.engine()
        cls.welcome, cls.decisions = load()

    def test_config_from_the_welcome_and_from_a_message_built_here(self):
        m = self.m
        config = local.local_config(self.welcome)
        self.assertEqual(config, m.GameConfig())  # created with the defaults
        want = m.GameConfig("base", seats=3, options={"victory_points": 8, "bank_limited": False}, board=7)
        msg = stubs().game_pb2.GameConfig(num_seats=3)
        msg.board.terrain.extend(want.terrain)
        msg.board.token.extend(want.tokens)
        msg.board.harbor.extend(want.harbors)
        msg.options.ruleset = 1  # RULESET_BASE
        msg.options.victory_points = 8
        msg.options.bank_limited = False
        self.assertEqual(m.config_from_message(msg), want)
        msg.num_seats = 9
        with self.assertRaisesRegex(ValueError, r"^num_seats: 9 is not one of 3\.\.4"):
            m.config_from_message(msg)

    def test_every_decision_reads_into_a_view_the_engine_agrees_with(self):
        m = self.m
        self.assertGreaterEqual(len(self.decisions), 8)
        kinds = set()
        for kind, d in self.decisions:
            with self.subTest(kind=kind, step=d.step):
                kinds.add(d.kind)
                self.assertEqual(d.kind, kind)
                view = local.local_view(d)
                self.assertEqual(view.viewer, d.seat)
                self.assertEqual([a.code for a in view.legal_actions()], list(d.view.legal))
                self.assertEqual(len(view.observation()), m.observation_size())
                # A full state consistent with the view is one where the seat has the
                # legal actions the host listed: the view was read whole and right.
                for seed in (1, 2):
                    state = view.sample_state(seed)
                    state.validate()
                    self.assertEqual(state.action_count, d.step)
                    self.assertEqual(state.current_player, d.seat)
                    self.assertEqual([a.code for a in state.legal_actions()], list(d.view.legal))
                    self.assertEqual(state.view(d.seat).legal_actions(), view.legal_actions())
        self.assertIn("turn", kinds)
        self.assertIn("discard", kinds)

    def test_bad_messages_are_refused_with_the_field_named(self):
        m = self.m
        config = local.local_config(self.welcome)
        _, d = self.decisions[-1]

        def broken(change):
            v = type(d.view)()
            v.CopyFrom(d.view)
            change(v)
            return v

        cases = [
            (lambda v: v.position.road_owner.__setitem__(3, 9), r"position\.road_owner\[3\]: 9 is not a seat \(-1\.\.3\)"),
            (lambda v: v.position.players[0].__setattr__("settlements", 1), r"position\.players\[0\]\.settlements: 0x1"),
            (lambda v: v.position.token.pop(), r"position\.token: 18 values, expected 19"),
            (lambda v: v.legal.__setitem__(0, 0xFF << 56), r"legal\[0\]: code 0xff00000000000000 names no action"),
            (lambda v: v.position.players[1].hand.__setitem__(2, 300), r"position\.players\[1\]\.hand\[2\]: 300 is not"),
            (lambda v: v.position.pending.add(kind=99), r"position\.pending\[\d+\]\.kind: 99 is not a pending kind"),
        ]
        for change, error in cases:
            with self.subTest(error=error), self.assertRaisesRegex(ValueError, error):
                m.view_from_message(broken(change), config)
        with self.assertRaisesRegex(ValueError, "position: missing"):
            m.view_from_message(object(), config)

    def test_engine_bots_decide_from_the_view_and_skip_what_was_refused(self):
        make = local.engine_decider("heuristic")
        for kind, d in self.decisions:
            decide = make(7, False)
            first = decide(d)
            self.assertIn(first, list(d.view.legal))
            if len(d.legal) > 1:
                d.rejected = [first]
                self.assertNotEqual(decide(d), first)
                d.rejected = []
        with self.assertRaises(ValueError):
            local.engine_decider("no-such-bot")

    def test_the_example_search_bot_answers_with_a_note(self):
        import search_bot
        bot = search_bot.SearchBot(iterations=20, seed=3)
        for kind, d in self.decisions[:4]:
            answer = bot.decide(d)
            self.assertIn(answer.action, list(d.view.legal))
            self.assertIn(f"of {len(d.legal)} legal", answer.note)

    def test_the_example_search_bot_refuses_bad_flags(self):
        from metropolis_bot import _stubs
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([KIT] + sys.path))
        base = [sys.executable, os.path.join(KIT, "search_bot.py"), "--stubs", _stubs.stubs_folder(),
                "--host", "h:1", "--game", "g", "--token", "t"]
        for extra, error in ((["--bot", "random"], "--bot: this program plays its own bot"),
                             (["--iterations", "0"], "--iterations: 0 is out of range (1..100000)"),
                             (["--iterations", "many"], "--iterations: 'many' is not a number")):
            r = subprocess.run(base + extra, capture_output=True, text=True, timeout=60, env=env)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(error, r.stderr)


if __name__ == "__main__":
    unittest.main()
