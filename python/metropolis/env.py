"""The training environments (docs/PYTHON.md, "Environments").

AECEnv        turn-based multi-agent, in the shape of PettingZoo's AEC API: reset,
              step, observe, last, agent_iter, rewards, terminations, truncations,
              infos, observation_space(agent), action_space(agent). Every seat is
              played from Python; chance is played by the environment.
SingleAgentEnv one seat, in the shape of Gymnasium's Env: reset(seed) -> (obs, info),
              step(action) -> (obs, reward, terminated, truncated, info); the other
              seats are played by built-in bots (docs/BOTS.md).

Neither PettingZoo nor Gymnasium is imported (they are not Debian packages): the
interfaces are implemented as their documentation describes and checked by
python/tests/test_env.py.

Observation: a float32 vector of observation_size() elements built only from the
acting seat's view (metropolis.observation_layout() names every block and column).
Actions: indices of the ruleset's flat ActionSpace; the mask of the legal ones is in
observe()["action_mask"] (AEC) and info["action_mask"] (single agent). Trade offers
and counter-offers carry card lists and are not in the space: a seat played from
Python never offers a trade (it may accept or decline the bots' offers).

Rewards are the engine's returns: 1 for the winner when the game ends, 0 otherwise
(also for every seat of a game cut at the length cap, which is a truncation).
"""

import numpy as np

from metropolis import _core
from metropolis.spaces import Box, Discrete


def _observation_space():
    return Box(-np.inf, np.inf, (_core.observation_size(),), np.float32)


class AECEnv:
    """Every seat an agent, named "seat_0".."seat_{n-1}"; agent_selection is the seat to act."""

    metadata = {"name": "metropolis_v0", "is_parallelizable": False, "render_modes": ["ansi"]}

    def __init__(self, ruleset="cities_and_knights", seats=4, options=None, board="random", render_mode=None):
        self._session = _core.Session(ruleset=ruleset, seats=seats, options=options, board=board)
        self.space = self._session.space
        self.render_mode = render_mode
        self.possible_agents = ["seat_%d" % i for i in range(seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: _observation_space() for a in self.possible_agents}
        self.action_spaces = {a: Discrete(self.space.size) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def reset(self, seed=None, options=None):
        """A new game. The same seed gives the same board, dice and draws; without one,
        the seed comes from the generator seeded by the last reset that had one."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            episode_seed = int(seed)
        else:
            episode_seed = int(self._rng.integers(2**63))
        for i, space in enumerate(self.action_spaces.values()):
            space.seed(None if seed is None else int(seed) + i)
        self._session.reset(episode_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        """agent_selection after a step: the seat to act, or, once the game is over,
        the next agent still to be removed by a step(None)."""
        if self._session.over:
            self.agent_selection = self.agents[0] if self.agents else None
        else:
            self.agent_selection = self.possible_agents[self._session.to_act]

    def observe(self, agent):
        """{"observation": float32 vector, "action_mask": int8 vector}; the mask is all
        zeros for an agent that is not to act."""
        seat = self._seat[agent]
        mask = np.zeros(self.space.size, dtype=np.int8)
        if self._session.to_act == seat:
            mask[:] = self._session.mask()
        return {"observation": self._session.observation(seat), "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        """Yields agent_selection until every agent is done (as PettingZoo's)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("step: %s is done, its action must be None" % agent)
            self.agents.remove(agent)
            del self.rewards[agent], self._cumulative_rewards[agent], self.terminations[agent]
            del self.truncations[agent], self.infos[agent]
            self._select()
            return
        if action is None:
            raise ValueError("step: %s is to act, None is only for an agent that is done" % agent)
        # The reward of the step is reported once: after it, the acting agent's
        # cumulative reward restarts, as PettingZoo's AEC environments do.
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._session.apply_index(int(action))
        if self._session.over:
            returns = self._session.returns()
            truncated = self._session.truncated
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self._cumulative_rewards[a] += self.rewards[a]
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
                self.infos[a] = {"winner": self._session.winner}
        self._select()

    def state(self):
        """The full state (hidden cards included): for debugging, never for a policy."""
        return self._session.state

    def render(self):
        return self._session.state.board_picture() if self.render_mode == "ansi" else None

    def close(self):
        pass


class SingleAgentEnv:
    """One seat played from Python against built-in bots.

    seat: the seat played, or None for a seat drawn from the episode seed (each seat
    equally often, which is how to measure a policy without a first-player bias).
    opponents: a bot spec for every other seat, or one spec for all of them.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents="heuristic", seat=None, ruleset="cities_and_knights", seats=4, options=None,
                 board="random", render_mode=None):
        if isinstance(opponents, str):
            opponents = [opponents] * (seats - 1)
        if len(opponents) != seats - 1:
            raise ValueError("opponents: one spec, or one per other seat (%d)" % (seats - 1))
        if seat is not None and not 0 <= seat < seats:
            raise ValueError("seat %d out of range" % seat)
        self._fixed_seat = seat
        self._sessions = []
        for s in range(seats):
            bots = list(opponents[:s]) + [None] + list(opponents[s:])
            self._sessions.append(_core.Session(ruleset=ruleset, seats=seats, options=options, board=board, bots=bots))
        self._session = self._sessions[seat if seat is not None else 0]
        self.seat = seat if seat is not None else 0
        self.space = self._session.space
        self.observation_space = _observation_space()
        self.action_space = Discrete(self.space.size)
        self.render_mode = render_mode
        self._rng = np.random.default_rng()

    def _info(self):
        info = {"action_mask": self._session.mask().astype(np.int8), "seat": self.seat}
        if self._session.over:
            info["winner"] = self._session.winner
        return info

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.action_space.seed(int(seed))
        episode_seed = int(self._rng.integers(2**63))
        if self._fixed_seat is None:
            self.seat = int(self._rng.integers(len(self._sessions)))
        self._session = self._sessions[self.seat]
        self._session.reset(episode_seed)
        # The bots may have ended the game before the seat's first decision (only
        # with options that make that possible); the episode is then over at once.
        return self._session.observation(self.seat), self._info()

    def step(self, action):
        if self._session.over:
            raise RuntimeError("step: the episode is over, call reset")
        self._session.apply_index(int(action))
        reward, terminated, truncated = 0.0, False, False
        if self._session.over:
            reward = float(self._session.returns()[self.seat])
            truncated = self._session.truncated
            terminated = not truncated
        return self._session.observation(self.seat), reward, terminated, truncated, self._info()

    def action_masks(self):
        """The legal actions now (the name sb3-contrib's MaskablePPO calls)."""
        return self._session.mask().astype(bool)

    def render(self):
        return self._session.state.board_picture() if self.render_mode == "ansi" else None

    def close(self):
        pass
