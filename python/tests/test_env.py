"""The environments' contract (python/metropolis/env.py): spaces, masks, the AEC
cycle, determinism under a seed, and no hidden information in observations."""

import unittest

import numpy as np

import metropolis
from metropolis.env import AECEnv, SingleAgentEnv

D = metropolis.observation_size()
A = metropolis.ActionSpace("cities_and_knights").size


def play_aec(env, seed, policy_seed, max_steps=200):
    """Plays up to max_steps decisions with random legal actions; returns the
    (agent, observation, mask, action) sequence."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if len(trace) == max_steps:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, obs["observation"], obs["action_mask"], action))
        env.step(action)
    return trace


class AECContract(unittest.TestCase):
    def test_spaces_and_masks(self):
        env = AECEnv()
        self.assertEqual(env.possible_agents, ["seat_0", "seat_1", "seat_2", "seat_3"])
        trace = play_aec(env, seed=5, policy_seed=1, max_steps=300)
        self.assertEqual(len(trace), 300)
        space = env.action_space("seat_0")
        self.assertEqual(space.n, A)
        for agent, obs, mask, action in trace:
            self.assertTrue(env.observation_space(agent).contains(obs), agent)
            self.assertEqual(obs.shape, (D,))
            self.assertEqual(mask.shape, (A,))
            self.assertEqual(mask.dtype, np.int8)
            self.assertTrue(mask.any())
            self.assertTrue(space.contains(action))
            self.assertEqual(mask[action], 1)

    def test_mask_is_exactly_the_legal_actions(self):
        env = AECEnv()
        env.reset(seed=11)
        rng = np.random.default_rng(3)
        for _ in range(150):
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            state = env.state()
            legal = {env.space.index(a) for a in state.legal_actions()}
            legal.discard(-1)  # trade offers are outside the space
            self.assertEqual(set(np.flatnonzero(mask).tolist()), legal)
            for other in env.possible_agents:
                if other != agent:
                    self.assertFalse(env.observe(other)["action_mask"].any())
            env.step(int(rng.choice(np.flatnonzero(mask))))

    def test_illegal_action_is_refused_and_changes_nothing(self):
        env = AECEnv()
        env.reset(seed=2)
        mask = env.observe(env.agent_selection)["action_mask"]
        before = env.state()
        illegal = int(np.flatnonzero(mask == 0)[0])
        with self.assertRaises(metropolis.IllegalActionError):
            env.step(illegal)
        self.assertEqual(env.state(), before)

    def test_a_whole_game_ends_with_every_agent_removed(self):
        env = AECEnv(options={"max_actions": 3000})
        env.reset(seed=9)
        rng = np.random.default_rng(9)
        done_rewards = {}
        steps = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                done_rewards[agent] = reward
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        self.assertEqual(env.agents, [])
        self.assertEqual(set(done_rewards), set(env.possible_agents))
        winner = env.state().winner
        if winner >= 0:
            self.assertEqual(done_rewards["seat_%d" % winner], 1.0)
            self.assertEqual(sum(done_rewards.values()), 1.0)
        else:
            self.assertEqual(sum(done_rewards.values()), 0.0)
        self.assertGreater(steps, 50)

    def test_determinism_under_seed(self):
        a = play_aec(AECEnv(), seed=42, policy_seed=7)
        b = play_aec(AECEnv(), seed=42, policy_seed=7)
        c = play_aec(AECEnv(), seed=43, policy_seed=7)
        self.assertEqual([t[0] for t in a], [t[0] for t in b])
        self.assertTrue(all(np.array_equal(x[1], y[1]) and x[3] == y[3] for x, y in zip(a, b)))
        # Another seed gives another board: the first observations differ.
        self.assertFalse(np.array_equal(a[0][1], c[0][1]))


class SingleAgentContract(unittest.TestCase):
    def test_episode_against_bots(self):
        env = SingleAgentEnv(opponents="random", seat=2)
        obs, info = env.reset(seed=4)
        self.assertTrue(env.observation_space.contains(obs))
        self.assertEqual(info["seat"], 2)
        self.assertEqual(env.action_space.n, A)
        reward, terminated, truncated, steps = 0.0, False, False, 0
        while not (terminated or truncated):
            self.assertTrue(info["action_mask"].any())
            self.assertTrue(np.array_equal(info["action_mask"].astype(bool), env.action_masks()))
            action = env.action_space.sample(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            self.assertTrue(env.observation_space.contains(obs))
            steps += 1
        self.assertIn(reward, (0.0, 1.0))
        self.assertEqual(reward == 1.0, info["winner"] == 2)
        with self.assertRaises(RuntimeError):
            env.step(0)

    def test_determinism_and_seat_draw(self):
        def run(seed):
            env = SingleAgentEnv(opponents=["heuristic", "random", "heuristic"])
            obs, info = env.reset(seed=seed)
            out = [(info["seat"], obs)]
            for _ in range(60):
                obs, r, term, trunc, info = env.step(env.action_space.sample(info["action_mask"]))
                out.append((info["seat"], obs))
                if term or trunc:
                    break
            return out

        a, b = run(17), run(17)
        self.assertEqual(len(a), len(b))
        self.assertTrue(all(x[0] == y[0] and np.array_equal(x[1], y[1]) for x, y in zip(a, b)))
        seats = {SingleAgentEnv(opponents="random").reset(seed=s)[1]["seat"] for s in range(20)}
        self.assertEqual(seats, {0, 1, 2, 3})


class NoHiddenInformation(unittest.TestCase):
    """Two states that differ only in what seat 0 cannot see (the others' cards,
    the decks' order) must give seat 0 the same observation."""

    def positions(self):
        env = AECEnv()
        for seed in range(4):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for step in range(600):
                if env.state().is_terminal:
                    break
                if step % 60 == 59:
                    yield env
                mask = env.observe(env.agent_selection)["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))

    def test_observation_ignores_hidden_cards(self):
        compared = hidden_differs = 0
        for env in self.positions():
            state = env.state()
            view = state.view(0)
            obs = state.observation(0)
            for k in range(3):
                other = view.sample_state(1000 + k)
                # The sampled state is a real game state that differs from this one
                # only in hidden cards: the others' hands and the decks.
                self.assertEqual(other.view(0), view)
                if any(other.hand(s) != state.hand(s) for s in range(1, 4)):
                    hidden_differs += 1
                np.testing.assert_array_equal(other.observation(0), obs)
                compared += 1
        self.assertGreater(compared, 20)
        # The comparison means something only if the hidden cards did differ.
        self.assertGreater(hidden_differs, compared // 2)

    def test_observation_sees_own_cards(self):
        # The control: the same comparison from a seat whose own hand was changed
        # must see the change, so equal observations above are not a blind encoder.
        seen = 0
        for env in self.positions():
            state = env.state()
            view = state.view(0)
            for k in range(3):
                other = view.sample_state(2000 + k)
                for s in range(1, 4):
                    if other.hand(s) != state.hand(s):
                        self.assertFalse(np.array_equal(other.observation(s), state.observation(s)), s)
                        seen += 1
        self.assertGreater(seen, 10)

    def test_session_observation_is_a_function_of_the_view(self):
        # The environment's observation (with what the seat observed) equals the
        # encoding of the session's view of that seat.
        session = metropolis.Session()
        session.reset(3)
        rng = np.random.default_rng(0)
        for _ in range(200):
            seat = session.to_act
            np.testing.assert_array_equal(session.observation(seat), session.view(seat).observation())
            session.apply_index(int(rng.choice(session.legal_indices())))


if __name__ == "__main__":
    unittest.main()
