"""The engine in Python: states, actions, chance, views, notation, records, bots."""

import copy
import pickle
import unittest

import numpy as np

import metropolis


class Engine(unittest.TestCase):
    def test_new_game_and_legal_actions(self):
        s = metropolis.State()
        self.assertEqual(s.current_player, 0)
        self.assertEqual(s.phase, "setup")
        self.assertEqual(s.ruleset, "cities_and_knights")
        legal = s.legal_actions()
        self.assertTrue(legal)
        self.assertEqual(int(s.legal_mask().sum()), len(legal))
        self.assertEqual(s.check(legal[0]), "")

    def test_apply_clone_and_illegal(self):
        s = metropolis.State()
        t = s.clone()
        events = s.apply(s.legal_actions()[0])
        self.assertIsInstance(events, list)
        self.assertNotEqual(s, t)
        self.assertEqual(t, metropolis.State())
        self.assertEqual(copy.deepcopy(s), s)
        before = s.clone()
        with self.assertRaises(metropolis.IllegalActionError) as e:
            s.apply("build_city n0")
        self.assertRegex(str(e.exception), r"[A-Z]+-\d+")  # names the rule
        self.assertEqual(s, before)

    def test_action_text_and_codes(self):
        a = metropolis.Action("build_road e17")
        self.assertEqual(str(a), "build_road e17")
        self.assertEqual(metropolis.Action.decode(a.code), a)
        self.assertEqual(pickle.loads(pickle.dumps(a)), a)
        with self.assertRaises(ValueError):
            metropolis.Action("fly_to_the_moon")

    def play_to_chance(self, s, rng):
        while not s.is_chance_node:
            s.apply(s.legal_actions()[rng.integers(len(s.legal_actions()))])

    def test_chance_nodes(self):
        s = metropolis.State()
        rng = np.random.default_rng(1)
        self.play_to_chance(s, rng)
        self.assertEqual(s.current_player, metropolis.CHANCE)
        outcomes = s.chance_outcomes()
        self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0, places=9)
        self.assertTrue(all(a.is_chance for a, _ in outcomes))
        sampled = s.sample_chance(0.5)
        self.assertIn(sampled, [a for a, _ in outcomes])
        s.apply(sampled)
        self.assertFalse(s.is_chance_node and s.chance_outcomes() == outcomes)

    def test_notation_round_trip_and_pickle(self):
        s = metropolis.State()
        rng = np.random.default_rng(2)
        for _ in range(80):
            if s.is_chance_node:
                s.apply(s.sample_chance(rng.random()))
            else:
                s.apply(s.legal_actions()[rng.integers(len(s.legal_actions()))])
        self.assertEqual(metropolis.State.from_notation(s.to_notation()), s)
        self.assertEqual(pickle.loads(pickle.dumps(s)), s)
        self.assertEqual(s.validate(), "")

    def test_views_hide_other_hands(self):
        session = metropolis.Session(bots=[None, "random", "random", "random"])
        session.reset(1)
        rng = np.random.default_rng(0)
        for _ in range(40):
            session.apply_index(int(rng.choice(session.legal_indices())))
        state = session.state
        view = state.view(0)
        self.assertEqual(view.viewer, 0)
        self.assertEqual(view.state.hand(0), state.hand(0))
        self.assertEqual(view.hand_totals[1], sum(state.hand(1)))
        self.assertEqual(len(view.legal_actions()), len(state.legal_actions()))

    def test_rulesets_and_options(self):
        base = metropolis.GameConfig("base", seats=3, options={"victory_points": 8})
        self.assertEqual(base.ruleset, "base")
        self.assertEqual(base.victory_points, 8)
        s = metropolis.State(base)
        self.assertEqual(s.num_seats, 3)
        self.assertEqual(s.ruleset, "base")
        with self.assertRaises(ValueError):
            metropolis.GameConfig("chess")
        with self.assertRaises(ValueError):
            metropolis.GameConfig(options="no_such_option=1")
        self.assertNotEqual(metropolis.ActionSpace("base").size, metropolis.ActionSpace("cities_and_knights").size)

    def test_action_space_is_a_bijection(self):
        space = metropolis.ActionSpace()
        for i in range(0, space.size, 7):
            self.assertEqual(space.index(space.action(i)), i)
        self.assertEqual(sum(seg["size"] for seg in space.segments()), space.size)

    def test_records_replay(self):
        session = metropolis.Session(bots=["heuristic"] * 3 + [None])
        session.reset(8)
        rng = np.random.default_rng(8)
        while not session.over:
            session.apply_index(int(rng.choice(session.legal_indices())))
        record = metropolis.GameRecord.from_json(session.record().to_json())
        states = record.replay()
        self.assertEqual(len(states), len(record.actions) + 1)
        self.assertEqual(states[-1], session.state)
        self.assertTrue(states[-1].is_terminal)

    def test_bots_choose_legal_actions(self):
        s = metropolis.State()
        for kind in ("random", "heuristic"):
            bot = metropolis.Bot(kind)
            action, stream = bot.choose(s.view(0), 7)
            self.assertEqual(s.check(action), "")
            self.assertNotEqual(stream, 7)
        with self.assertRaises(ValueError):
            metropolis.Bot("grandmaster")


if __name__ == "__main__":
    unittest.main()
