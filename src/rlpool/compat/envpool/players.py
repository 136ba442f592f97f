"""EnvPool 1.2.7's layouts of tasks with agents over rlpool's agent axis: ``PlayerRows``, ``AgentsAsOne``.

EnvPool 1.2.7 steps a task whose agents act at once (rlpool's ``arrays.num_agents`` > 0 and not
``turn_based``) with its players flattened into the batch axis, env-major: where rlpool gives
``obs [n, A, ...]``, ``reward [n, A]`` and ``terminated``/``truncated [n, A]``, EnvPool gives
``obs [n * A, ...]`` (player ``j`` of the batch's env ``i`` at row ``i * A + j``), ``reward [n * A]`` and
one ``terminated``/``truncated`` per env; ``info`` holds ``env_id [n]``, ``players`` (``env_id [n * A]``,
each row's env, then the per-player entries), the per-env entries and ``elapsed_step [n]``; the action is
``[n * A]`` (one player's action each), or EnvPool's dict ``{"env_id", "players.env_id", "players.action"}``.

Which info entries are per player comes from the spec alone: an entry whose leading axis is the agent axis
(``shape[0] == num_agents``). A family's ``FamilyLayout`` may rename them (``info_fields`` with
``players.`` keys), put the observation under ``players`` (``player_obs_key``) or add the player's index
(``player_id_key``). Everything is a reshape of the engine's arrays (views where numpy can), with no loop
over envs.

A family may instead give such a task as one env, as EnvPool 1.2.7 gives some (``AgentsAsOne``: one
observation, a vector action, one reward).
"""

from __future__ import annotations

from typing import Any

import numpy as np

PLAYERS = "players."


def one_player_space(space: Any) -> Any:
    """The space of one player's entry, from rlpool's space with the agent axis first."""
    from gymnasium import spaces

    if isinstance(space, spaces.Dict):
        return spaces.Dict({k: one_player_space(s) for k, s in space.spaces.items()})
    if isinstance(space, spaces.MultiDiscrete):
        nvec, start = space.nvec[0], space.start[0]
        if np.ndim(nvec) == 0:
            return spaces.Discrete(int(nvec), start=int(start))
        return spaces.MultiDiscrete(nvec, dtype=space.dtype, start=start)
    if isinstance(space, spaces.MultiBinary):
        return spaces.MultiBinary(list(np.atleast_1d(space.n)[1:]))
    if isinstance(space, spaces.Box):
        return spaces.Box(space.low[0], space.high[0], space.shape[1:], space.dtype)
    raise TypeError(f"no one-player space for {space!r}")


def env_flags(terminated: np.ndarray, truncated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-env ``(terminated, truncated)`` from rlpool's per-agent ``[n, A]`` flags.

    The episode is over when every agent is terminated or truncated (rlpool's rule); it is terminated when
    every agent is, truncated when it is over and some agent was truncated (the time limit).
    """
    over = (terminated | truncated).all(axis=1)
    return terminated.all(axis=1), truncated.any(axis=1) & over


def flat_rows(value: Any) -> Any:
    """``[n, A, ...]`` arrays (a dict of them) as ``[n * A, ...]``: views of C-contiguous arrays."""
    if isinstance(value, dict):
        return {k: flat_rows(v) for k, v in value.items()}
    return value.reshape(-1, *value.shape[2:])


class PlayerRows:
    """The conversion of one pool's results and actions between rlpool's agent axis and EnvPool's player rows."""

    def __init__(self, spec: Any) -> None:
        self.players: int = spec.players
        layout = spec.layout
        fields = spec.info_fields
        self.player_fields = [(k.removeprefix(PLAYERS), f) for k, f in fields if k.startswith(PLAYERS)]
        self.env_fields = [(k, f) for k, f in fields if not k.startswith(PLAYERS)]
        self.id_key = layout.player_id_key.removeprefix(PLAYERS) if layout.player_id_key else None
        self.casts = dict(layout.info_dtypes)
        self.action_shape = tuple(spec.rlpool_spec.arrays.action.shape[1:])
        self.engine_info_keys = [("env_id", "env_id"), ("elapsed_step", "elapsed_step"),
                                 *dict.fromkeys((f, f) for _, f in fields)]
        """The engine's info layout for this pool: rlpool's own fields, re-laid out by ``info``."""

    def obs(self, obs: Any) -> Any:
        """``[n, A, ...]`` observations (each entry of a dict) as ``[n * A, ...]``."""
        return flat_rows(obs)

    def step(self, result: tuple) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """A step's five arrays in EnvPool's layout (the observation as ``obs`` gives it)."""
        obs, reward, terminated, truncated, info = result
        terminated, truncated = env_flags(terminated, truncated)
        return self.obs(obs), reward.reshape(-1), terminated, truncated, self.info(info)

    def info(self, info: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's info: ``env_id``, ``players`` (``env_id`` per row, the per-player entries), the rest."""
        env_id = info["env_id"]
        players: dict[str, Any] = {"env_id": np.repeat(env_id, self.players)}
        if self.id_key:
            players[self.id_key] = np.tile(np.arange(self.players, dtype=np.int32), env_id.shape[0])
        for key, field in self.player_fields:
            players[key] = self._cast(PLAYERS + key, flat_rows(info[field]))
        out: dict[str, Any] = {"env_id": env_id, "players": players}
        out.update((key, self._cast(key, info[field])) for key, field in self.env_fields)
        out["elapsed_step"] = info["elapsed_step"]
        out.update((k, v) for k, v in info.items() if k.startswith("_rlpool"))
        return out

    def _cast(self, key: str, value: np.ndarray) -> np.ndarray:
        dtype = self.casts.get(key)
        return value if dtype is None else value.astype(dtype)

    def action(self, action: Any, env_id: Any) -> tuple[Any, Any]:
        """EnvPool's action (``[n * A]``, ``[n, A]`` or its dict) and ``env_id`` as rlpool's ``([n, A, ...], ids)``."""
        if isinstance(action, dict):
            flat: dict[str, Any] = {}
            for key, value in action.items():
                if isinstance(value, dict):
                    flat.update((f"{key}.{k}", v) for k, v in value.items())
                else:
                    flat[key] = value
            unknown = set(flat) - {"env_id", "players.env_id", "players.action"}
            if "players.action" not in flat or unknown:
                raise ValueError("a multi-player dict action needs the key 'players.action' (and may have "
                                 f"'env_id', 'players.env_id'), got {sorted(flat)}")
            env_id = flat.get("env_id", env_id)
            action = flat["players.action"]
        action = np.asarray(action)
        per_env = self.players * int(np.prod(self.action_shape, dtype=np.int64))
        rows = action.size // per_env if env_id is None else np.asarray(env_id).size
        if action.size != rows * per_env or (env_id is None and rows == 0):
            raise ValueError(f"expected {rows} envs x {self.players} players' actions "
                             f"({rows * self.players} rows of shape {self.action_shape}), got shape {action.shape}")
        return action.reshape(rows, self.players, *self.action_shape), env_id


class AgentsAsOne:
    """A task whose agents act at once that EnvPool gives as one env (``FamilyLayout.agents_as_one``).

    The engine's ``[n, A]`` rewards become the layout's one reward per env, the ``[n, A]`` flags per-env ones
    (``env_flags``), and the agents' own rewards join ``info`` under the layout's ``agent_rewards_key`` (zeros
    after a reset), first among the task's entries as EnvPool orders them. The observation is the layout's
    (``FamilyLayout.obs``); the action, ``[n, A, ...]``, is the engine's as it is.
    """

    def __init__(self, spec: Any) -> None:
        self.layout = spec.layout
        self.key = spec.layout.agent_rewards_key
        self.agents: int = spec.rlpool_spec.arrays.num_agents

    def step(self, reward: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
             info: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """A step's reward, flags and info as EnvPool gives them."""
        terminated, truncated = env_flags(terminated, truncated)
        return self.layout.reward(reward), terminated, truncated, self.info(info, reward)

    def info(self, info: dict[str, Any], reward: np.ndarray | None = None) -> dict[str, Any]:
        """``info`` with the agents' rewards (``reward``, or zeros where it is None) under the layout's key."""
        if self.key is None or self.key in info:
            return info
        rows = info["env_id"].shape[0]
        rewards = np.zeros((rows, self.agents), np.float32) if reward is None else reward.astype(np.float32)
        head = [k for k in ("env_id", "players") if k in info]
        out = {k: info[k] for k in head}
        out[self.key] = rewards
        out.update((k, v) for k, v in info.items() if k not in out)
        return out
