"""Batched games (VecGames) and the C++ self-play runner."""

import unittest

import numpy as np

import metropolis


def random_actions(vec, rng):
    counts = vec.legal_count
    picks = (rng.random(vec.num_games) * counts).astype(np.int64)
    return vec.legal[np.arange(vec.num_games), picks].astype(np.int64)


class VecGames(unittest.TestCase):
    def test_masks_match_legal_lists(self):
        vec = metropolis.VecGames(8, seed=3)
        rng = np.random.default_rng(0)
        for _ in range(200):
            masks = vec.masks
            for i in range(vec.num_games):
                legal = vec.legal[i, :vec.legal_count[i]]
                self.assertEqual(set(np.flatnonzero(masks[i]).tolist()), set(legal.tolist()))
                self.assertEqual(vec.to_act[i], vec.game_state(i).current_player)
            vec.step(random_actions(vec, rng))

    def test_games_do_not_depend_on_batch_size(self):
        # Game i depends only on the seed and its own actions: game 2 of a batch of
        # 4 and of a batch of 16 play the same when given the same actions.
        small = metropolis.VecGames(4, seed=9, observations=True)
        large = metropolis.VecGames(16, seed=9, observations=True)
        rng = np.random.default_rng(1)
        for _ in range(150):
            np.testing.assert_array_equal(small.observations[2], large.observations[2])
            a_small = random_actions(small, rng)
            a_large = np.zeros(16, dtype=np.int64)
            for i in range(16):
                a_large[i] = large.legal[i, 0]
            a_large[2] = a_small[2]
            small.step(a_small)
            large.step(a_large)
        self.assertEqual(small.game_state(2), large.game_state(2))

    def test_illegal_index_refused_before_anything_changes(self):
        vec = metropolis.VecGames(4, seed=1)
        before = [vec.game_state(i) for i in range(4)]
        actions = vec.legal[:, 0].astype(np.int64)
        actions[3] = int(np.flatnonzero(vec.masks[3] == 0)[0])
        with self.assertRaises(metropolis.IllegalActionError) as e:
            vec.step(actions)
        self.assertIn("game 3", str(e.exception))
        self.assertEqual([vec.game_state(i) for i in range(4)], before)
        with self.assertRaises(ValueError):
            vec.step(np.zeros(3, dtype=np.int64))

    def test_auto_reset_reports_results(self):
        vec = metropolis.VecGames(4, seed=5, bots=[None, "random", "random", "random"],
                                  options={"max_actions": 2500})
        rng = np.random.default_rng(2)
        finished = 0
        for _ in range(3000):
            vec.step(random_actions(vec, rng))
            ended = np.flatnonzero(vec.terminated | vec.truncated)
            for i in ended:
                finished += 1
                w = vec.winner[i]
                self.assertEqual(bool(vec.terminated[i]), w >= 0)
                self.assertEqual(vec.rewards[i].sum(), 1.0 if w >= 0 else 0.0)
                self.assertGreater(vec.episode_length[i], 0)
                self.assertEqual(vec.to_act[i], 0)  # the next episode waits for seat 0
            if finished >= 4:
                break
        self.assertGreaterEqual(finished, 4)
        # Bools, so that vec.episode_length[vec.terminated] selects games.
        self.assertEqual(vec.terminated.dtype, np.bool_)
        self.assertEqual(vec.truncated.dtype, np.bool_)
        self.assertEqual(vec.episodes_finished, finished)


class SelfPlay(unittest.TestCase):
    def test_trajectories_are_consistent(self):
        t = metropolis.selfplay(["heuristic", "random", "heuristic", "random"], games=4, seed=3, threads=2)
        n = len(t["actions"])
        self.assertEqual(t["observations"].shape, (n, metropolis.observation_size()))
        self.assertEqual(len(t["legal_offsets"]), n + 1)
        for k in range(0, n, 37):
            legal = t["legal"][t["legal_offsets"][k]:t["legal_offsets"][k + 1]]
            self.assertIn(t["actions"][k], legal)
            self.assertGreater(len(legal), 1)  # forced decisions are not recorded by default
        self.assertEqual(len(t["winners"]), 4)
        self.assertEqual(t["errors"], [""] * 4)
        # The heuristic seats (0 and 2) win more than the random ones.
        self.assertTrue(all(w in (0, 2) for w in t["winners"]))

    def test_same_games_on_any_number_of_threads(self):
        a = metropolis.selfplay(["heuristic"] * 4, games=6, seed=11, threads=1)
        b = metropolis.selfplay(["heuristic"] * 4, games=6, seed=11, threads=2)
        for key in ("actions", "games", "winners", "lengths", "game_seeds"):
            np.testing.assert_array_equal(a[key], b[key])
        np.testing.assert_array_equal(a["observations"], b["observations"])

    def test_arena_matches_the_command_line_shape(self):
        r = metropolis.arena("heuristic", "random", games=8, seed=2)
        self.assertEqual(r["games"], 8)
        self.assertEqual(r["seat_games"], [2, 2, 2, 2])
        self.assertEqual(r["errors"], 0)
        self.assertGreaterEqual(r["wins"], 6)


if __name__ == "__main__":
    unittest.main()
