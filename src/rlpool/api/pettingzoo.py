"""PettingZoo faces of one multi-agent env: ``AECEnv`` for turn-based games, ``ParallelEnv`` for simultaneous ones.

What ``rlpool.make_pettingzoo`` returns. Each face is a pool of one env with autoreset disabled, so it runs
the same C++ env as the vector face (``rlpool.make_gymnasium``, which steps many envs with an agent axis).

- A turn-based game (``spec.arrays.turn_based``: a board game) is an ``AECEnv``: ``agent_selection`` is the
  player to move (``info["current_player"]``), each agent observes ``{"observation", "action_mask"}`` as
  PettingZoo's classic games do (the mask is all zeros for an agent not to move), rewards are accumulated
  per agent, and after the game every agent takes its dead step (``None``). An illegal move ends the game
  with the game's own penalty.
- A simultaneous game is a ``ParallelEnv``: every live agent acts each step; an agent that finishes leaves
  ``agents`` and gets no observation or action any more.

``parallel=True`` gives a turn-based game as a ``ParallelEnv`` too (each step takes one action per live
agent and applies the mover's; the others are ignored), and ``parallel=False`` a simultaneous game as an
``AECEnv`` (PettingZoo's ``parallel_to_aec``: the env steps once every live agent has acted). ``max_cycles``
is PettingZoo's limit: cycles in which every agent acts once (a turn-based game: ``num_agents`` steps each).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from rlpool.api.pool_owner import PoolOwner
from rlpool.api.spaces import array_space
from rlpool.arrays import ArraySpec
from rlpool.options import seeds_for
from rlpool.spec import EnvSpec

_FIXED = ("num_envs", "batch_size", "autoreset_mode", "max_episode_steps")


def make_pettingzoo(
    task_id: str, *, parallel: bool | None = None, max_cycles: int | None = None, **options: Any
) -> AECEnv | ParallelEnv:
    """One env of the multi-agent task ``task_id`` as PettingZoo's ``AECEnv`` or ``ParallelEnv`` (see the module).

    ``parallel`` picks the face (default: ``AECEnv`` for a turn-based game, ``ParallelEnv`` otherwise);
    ``max_cycles`` ends an episode after that many cycles (default: the task's own limit); ``options`` are
    the task's (``seed``, ``render_mode`` and the env's options).
    """
    fixed = sorted(set(options) & set(_FIXED))
    if fixed:
        raise ValueError(f"{fixed} are fixed for a PettingZoo env (one env, autoreset disabled); use max_cycles")
    probe = EnvSpec(task_id, **options)
    arrays = probe.arrays
    if arrays.num_agents == 0:
        raise ValueError(
            f"{task_id} is a single-agent task: use rlpool.make_gymnasium (PettingZoo faces are for multi-agent ones)"
        )
    if parallel is None:
        parallel = not arrays.turn_based
    steps: int | None = None
    if max_cycles is not None:
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1:
            raise ValueError(f"max_cycles must be a positive int, got {max_cycles!r}")
        # An AEC cycle of a turn-based game is one move per agent; otherwise a cycle is one env step.
        steps = int(max_cycles) * (arrays.num_agents if arrays.turn_based and not parallel else 1)
    spec = EnvSpec(
        task_id, num_envs=1, autoreset_mode="Disabled", **({"max_episode_steps": steps} if steps else {}), **options
    )
    if arrays.turn_based:
        return TurnParallelEnv(spec) if parallel else TurnAECEnv(spec)
    face = SimultaneousParallelEnv(spec)
    return face if parallel else parallel_to_aec(face)


MASK = "action_mask"
"""A dict observation's entry that PettingZoo's API gives as int8 (its api_test holds ``action_mask`` to int8)."""


def agent_space(a: ArraySpec) -> spaces.Space:
    """The space of one agent's slice of an observation entry with the agent axis first.

    A bool entry is a bool ``Box`` (PettingZoo's api_test holds an observation's dtype to its space's,
    and ``MultiBinary``'s, what the vector face shows as EnvPool does, is int8); a bool ``action_mask`` entry
    is an int8 ``Box``, PettingZoo's convention.
    """
    one = dataclasses.replace(a, shape=a.shape[1:], low=a.low[0], high=a.high[0])
    if one.dtype == np.bool_:
        return spaces.Box(0, 1, one.shape, np.int8 if a.name == MASK else np.bool_)
    return array_space(one)


def _agent_dict_space(tree: dict[str, Any]) -> spaces.Dict:
    """A dict observation's agent space, nested dicts (``"outer.inner"`` entries) as nested ``Dict``s."""
    return spaces.Dict({k: _agent_dict_space(v) if isinstance(v, dict) else agent_space(v) for k, v in tree.items()})


def _agent_row(value: Any, i: int) -> Any:
    """Agent ``i``'s copy of a batch entry of one env (``[1, A, ...]``), nested dicts entry by entry."""
    if isinstance(value, dict):
        return {k: _agent_row(v, i) for k, v in value.items()}
    return value[0, i].copy()


class _Faces(PoolOwner):
    """What both faces share: the one-env pool, agent names, spaces and result slicing."""

    metadata: dict[str, Any]

    def _init_faces(self, spec: EnvSpec, prefix: str, mask: bool) -> None:
        self._init_pool(spec)
        arrays = spec.arrays
        if arrays.obs_kind == "tuple":
            raise ValueError(f"{spec.id}: PettingZoo's faces take an array or dict observation")
        self._arrays = arrays
        self.render_mode = spec.config["render_mode"]
        self.metadata = {
            "name": spec.id,
            "render_modes": ["rgb_array", "human"] if arrays.render_size != (0, 0) else [],
            "render_fps": arrays.render_fps,
            "is_parallelizable": not arrays.turn_based,
        }
        self.possible_agents = [f"{prefix}_{i}" for i in range(arrays.num_agents)]
        self.agents: list[str] = []
        obs_space: spaces.Space = (
            agent_space(arrays.obs[0])
            if arrays.obs_kind == "array"
            else _agent_dict_space(arrays.obs_tree)
        )
        if mask:
            n = arrays.num_actions
            obs_space = spaces.Dict(
                {"observation": obs_space, "action_mask": spaces.Box(0, 1, (n,), np.int8)}
            )
        single_action = (
            spaces.Discrete(arrays.num_actions)
            if arrays.turn_based
            else array_space(dataclasses.replace(arrays.action, shape=arrays.action.shape[1:],
                                                 low=arrays.action.low[0], high=arrays.action.high[0]))
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: single_action for a in self.possible_agents}
        self._obs: Any = None
        self._info: dict[str, Any] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same object each call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent`` (the same object each call)."""
        return self.action_spaces[agent]

    def _reset_pool(self, seed: int | None, options: dict[str, Any] | None) -> None:
        # PettingZoo's reset takes env-specific options (its api_test passes some): these envs have none.
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        seed_ids, seeds = ([0], seeds_for(seed, 1)) if seed is not None else ([], [])
        self._obs, self._info = self._pool.reset(None, seed_ids, seeds)

    def _agent_obs(self, i: int) -> Any:
        """Agent ``i``'s observation, a copy (the pool's buffers are reused)."""
        obs = _agent_row(self._obs, i)
        if isinstance(obs, dict) and MASK in obs and obs[MASK].dtype == np.bool_:
            obs[MASK] = obs[MASK].astype(np.int8)
        return obs

    def _agent_info(self, i: int) -> dict[str, Any]:
        """Agent ``i``'s info: the env's info entries (shared by its agents), as numpy values.

        A nested dict of entries (``"outer.inner"`` info names) stays nested.
        """

        def first_row(info: dict[str, Any]) -> dict[str, Any]:
            return {k: first_row(v) if isinstance(v, dict) else v[0].copy() for k, v in info.items()}

        return first_row({k: v for k, v in self._info.items() if k != "env_id"})

    def render(self) -> np.ndarray | None:
        """The env's frame (``render_mode="rgb_array"``), or drawn on screen (``"human"``)."""
        frames = super().render()
        return None if frames is None else frames[0]

    def close(self) -> None:
        """Stop the pool's worker threads."""
        self._close_pool()


class TurnAECEnv(_Faces, AECEnv):
    """A turn-based game as PettingZoo's ``AECEnv`` (see the module)."""

    def __init__(self, spec: EnvSpec) -> None:
        AECEnv.__init__(self)
        self._init_faces(spec, "player", mask=True)
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game; ``seed`` re-seeds the env (who moves first and any chance come from it)."""
        self._reset_pool(seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._agent_info(i) for i, a in enumerate(self.agents)}
        self.agent_selection = self.possible_agents[int(self._info["current_player"][0])]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view: its observation and the legal moves (all zeros unless it is to move)."""
        i = self.possible_agents.index(agent)
        moving = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        mask = self._info["legal_action_mask"][0].astype(np.int8) if moving else np.zeros(
            self._arrays.num_actions, np.int8
        )
        return {"observation": self._agent_obs(i), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The move of ``agent_selection`` (``None`` for an agent whose game is over: its dead step)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: its action must be an int in [0, {self._arrays.num_actions}), "
                             "not None")
        self._cumulative_rewards[agent] = 0.0
        self._obs, reward, terminated, truncated, self._info = self._pool.step(np.asarray(action)[None])
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(reward[0, i])
            self.terminations[a] = bool(terminated[0, i])
            self.truncations[a] = bool(truncated[0, i])
            self.infos[a] = self._agent_info(i)
        self._accumulate_rewards()
        if self.terminations[agent] or self.truncations[agent]:
            # The game is over: every agent takes its dead step, starting after the mover.
            nxt = (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[nxt]
        else:
            self.agent_selection = self.possible_agents[int(self._info["current_player"][0])]
        if self.render_mode == "human":
            self.render()


class _ParallelFace(_Faces, ParallelEnv):
    """The parallel API over the pool: one env step per ``step``, live agents only."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start an episode; ``seed`` re-seeds the env. Returns per-agent observations and infos."""
        self._reset_pool(seed, options)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: self._agent_info(i) for i, a in enumerate(self.possible_agents)}

    def _observations(self) -> dict[str, Any]:
        return {a: self._agent_obs(i) for i, a in enumerate(self.possible_agents) if a in self.agents}

    def _check_actions(self, actions: dict[str, Any]) -> None:
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict from agent name to action, got {type(actions).__name__}")
        missing = [a for a in self.agents if a not in actions]
        extra = [a for a in actions if a not in self.agents]
        if missing or extra:
            raise ValueError(
                f"actions must have one entry per live agent {self.agents}"
                + (f"; missing {missing}" if missing else "")
                + (f"; not live or unknown: {extra}" if extra else "")
            )

    def _finish(self, reward: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> tuple:
        live = list(self.agents)
        index = {a: i for i, a in enumerate(self.possible_agents)}
        observations = {a: self._agent_obs(index[a]) for a in live}
        rewards = {a: float(reward[0, index[a]]) for a in live}
        terminations = {a: bool(terminated[0, index[a]]) for a in live}
        truncations = {a: bool(truncated[0, index[a]]) for a in live}
        infos = {a: self._agent_info(index[a]) for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


class SimultaneousParallelEnv(_ParallelFace):
    """A simultaneous multi-agent env as PettingZoo's ``ParallelEnv`` (see the module)."""

    def __init__(self, spec: EnvSpec) -> None:
        self._init_faces(spec, "agent", mask=False)
        self._action = np.zeros((1,) + spec.arrays.action.shape, spec.arrays.action.dtype)

    def step(self, actions: dict[str, Any]) -> tuple:
        """One step: an action per live agent. Returns observations, rewards, flags and infos per agent."""
        self._check_actions(actions)
        self._action[...] = 0  # finished agents' actions are ignored by the env
        for a, act in actions.items():
            self._action[0, self.possible_agents.index(a)] = act
        self._obs, reward, terminated, truncated, self._info = self._pool.step(self._action)
        return self._finish(reward, terminated, truncated)


class TurnParallelEnv(_ParallelFace):
    """A turn-based game as a ``ParallelEnv``: each step applies the action of the player to move."""

    def __init__(self, spec: EnvSpec) -> None:
        self._init_faces(spec, "player", mask=True)

    def _agent_obs(self, i: int) -> Any:
        moving = i == int(self._info["current_player"][0])
        mask = self._info["legal_action_mask"][0].astype(np.int8) if moving else np.zeros(
            self._arrays.num_actions, np.int8
        )
        return {"observation": super()._agent_obs(i), "action_mask": mask}

    def step(self, actions: dict[str, Any]) -> tuple:
        """One move: ``actions`` has an entry per live agent; the player to move's is played."""
        self._check_actions(actions)
        mover = self.possible_agents[int(self._info["current_player"][0])]
        self._obs, reward, terminated, truncated, self._info = self._pool.step(np.asarray(actions[mover])[None])
        return self._finish(reward, terminated, truncated)
