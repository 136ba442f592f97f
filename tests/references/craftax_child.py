"""The Craftax reference's side of the comparison: craftax 1.6.1 on jax/jaxlib 0.10.2 (CPU), in its own virtualenv.

Run by ``craftax_reference.py`` with the reference virtualenv's Python (which has no rlpool); it answers one
JSON line per request line on stdin/stdout, and writes arrays to the ``.npz`` file a request names. Requests:

- ``make``: a craftax env by name (``Craftax-Classic-Symbolic-v1``, ``Craftax-Classic-Pixels-v1``,
  ``Craftax-Symbolic-v1``, ``Craftax-Pixels-v1``) and EnvParams overrides (EnvPool's option names are craftax's
  field names). The answer names the env's info keys: ``Achievements/<name>`` in craftax's Achievement order
  (22 Classic, 67 full); the score is Classic's only (0 in the rollouts of full Craftax, which has none).
  ``reset_env`` and ``step_env`` are jitted once and always called with the params passed (traced), as EnvPool
  and PureJaxRL call them: a traced ``day_length`` makes the light level a true division (a baked-in one would
  be a reciprocal multiply).
- ``rollout``: one env's episodes keyed as EnvPool 1.2.7 keys env i of a pool seeded with s (and rlpool
  with it): the first reset is ``reset_env(PRNGKey(s + i))`` and that key is the env's key; each step does
  ``key, k = split(key)`` and ``step_env(k)``; a reset after an ended episode does ``key, k = split(key)``
  and ``reset_env(k)``. With ``auto_keys`` (the -AutoReset- ids) the step key goes to craftax's
  ``EnvironmentAutoReset.step(k)``: ``step_env(split(k)[0])`` and, when the episode ends,
  ``reset_env(split(k)[1])``; with ``wrapper`` craftax's own jitted ``EnvironmentAutoReset.step`` runs it
  (same-step resets only). ``same_step`` resets within the ending step (gymnasium's SameStep), else on the
  next call (NextStep: reward 0, flags false, the action ignored). ``max_episode_steps`` truncates.
  ``start`` (a state's bytes and key, hex) starts from that state instead of the first reset.

A state travels as ``jax.tree_util.tree_leaves(EnvState)`` as raw little-endian bytes (bools one byte) and
then the env's key (two uint32): rlpool's ``get_state``/``set_state`` layout.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
import warnings
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")
warnings.simplefilter("ignore")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

_CACHE = os.environ.get("RLPOOL_CRAFTAX_JAX_CACHE")
if _CACHE:  # compiled reset/step kept on disk: a second run loads them
    jax.config.update("jax_compilation_cache_dir", _CACHE)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)

from craftax.craftax.constants import Achievement as FullAchievement  # noqa: E402
from craftax.craftax_classic.constants import Achievement  # noqa: E402
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402


def achievement_keys(name: str) -> list[str]:
    """The env's info keys of its achievements, in craftax's Achievement order (by value)."""
    enum = Achievement if name.startswith("Craftax-Classic-") else FullAchievement
    return [f"Achievements/{a.name.lower()}" for a in sorted(enum, key=lambda a: a.value)]


class Programs:
    """One craftax env (by name) and its jitted programs, shared by the Games of that name: the params are
    arguments (traced), so other params need no other compile."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.env = make_craftax_env_from_name(name, auto_reset=False)
        self.reset = jax.jit(self.env.reset_env)
        self.step = jax.jit(self.env.step_env)
        self.get_obs = jax.jit(self.env.get_obs)
        self._wrapped: Any = None

    def wrapped_step(self) -> Any:
        """craftax's own EnvironmentAutoReset.step, jitted (made on first use)."""
        if self._wrapped is None:
            self._wrapped = jax.jit(make_craftax_env_from_name(self.name, auto_reset=True).step)
        return self._wrapped


_PROGRAMS: dict[str, Programs] = {}


class Game:
    """One craftax env (by name) with its params, jitted."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        if name not in _PROGRAMS:
            _PROGRAMS[name] = Programs(name)
        programs = _PROGRAMS[name]
        self.env = programs.env
        self.params = self.env.default_params.replace(**params)
        self.reset = programs.reset
        self.step = programs.step
        self.get_obs = programs.get_obs
        self.wrapped_step = programs.wrapped_step
        self.name = name
        self.achievements = achievement_keys(name)
        obs, state = self.reset(jax.random.PRNGKey(0), self.params)
        self.obs_shape = tuple(obs.shape)
        self.treedef = jax.tree_util.tree_structure(state)
        self.templates = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(state)]

    def to_bytes(self, state: Any, key: Any) -> bytes:
        leaves = jax.tree_util.tree_leaves(state)
        return b"".join(np.asarray(leaf).tobytes() for leaf in leaves) + np.asarray(key, np.uint32).tobytes()

    def from_bytes(self, blob: bytes) -> tuple[Any, Any]:
        leaves, pos = [], 0
        for t in self.templates:
            n = t.nbytes
            leaves.append(jnp.asarray(np.frombuffer(blob[pos:pos + n], dtype=t.dtype).reshape(t.shape)))
            pos += n
        key = jnp.asarray(np.frombuffer(blob[pos:pos + 8], dtype=np.uint32))
        assert pos + 8 == len(blob), (pos, len(blob))
        return jax.tree_util.tree_unflatten(self.treedef, leaves), key


def _info_row(game: Game, info: dict[str, Any]) -> tuple[np.ndarray, np.float32, np.float32]:
    return (np.array([np.float32(info[k]) for k in game.achievements], np.float32), np.float32(info.get("score", 0.0)),
            np.float32(info["discount"]))


def rollout(game: Game, seed: int, actions: list[int], out: str, *, auto_keys: bool = False,
            same_step: bool = False, max_episode_steps: int = 10000, start: str | None = None,
            wrapper: bool = False) -> dict[str, Any]:
    p = game.params
    if start is None:
        key = jax.random.PRNGKey(seed)
        obs, state = game.reset(key, p)
    else:
        state, key = game.from_bytes(bytes.fromhex(start))
        obs = game.get_obs(state)
    n = len(actions)
    obs_all = np.zeros((n + 1, *game.obs_shape), np.float32)
    final_obs = np.zeros((n, *game.obs_shape), np.float32)
    states: list[bytes] = []
    reward = np.zeros(n, np.float32)
    terminated = np.zeros(n, bool)
    truncated = np.zeros(n, bool)
    was_reset = np.zeros(n, bool)
    ach = np.zeros((n, len(game.achievements)), np.float32)
    score = np.zeros(n, np.float32)
    discount = np.ones(n, np.float32)
    final_ach = np.zeros_like(ach)
    final_score = np.zeros(n, np.float32)
    final_discount = np.zeros(n, np.float32)
    obs_all[0] = np.asarray(obs)
    states.append(game.to_bytes(state, key))
    pending, reset_key, elapsed = False, None, 0
    for t, action in enumerate(actions):
        if pending:  # NextStep: this call resets
            if auto_keys and reset_key is not None:
                k = reset_key
            else:
                key, k = jax.random.split(key)
            obs, state = game.reset(k, p)
            pending, reset_key, elapsed = False, None, 0
            was_reset[t] = True
        else:
            key, k = jax.random.split(key)
            if wrapper:
                assert auto_keys and same_step, "craftax's EnvironmentAutoReset resets in the same step"
                obs, state, r, d, info = game.wrapped_step()(k, state, int(action), p)
                elapsed += 1
                assert elapsed < max_episode_steps or bool(d), "craftax's EnvironmentAutoReset does not truncate"
                reward[t], terminated[t] = np.float32(r), bool(d)
                ach[t], score[t], discount[t] = _info_row(game, info)
                if terminated[t]:
                    # The wrapper hands back the reset state; the ended step's obs is not kept by it.
                    final_ach[t], final_score[t], final_discount[t] = ach[t], score[t], discount[t]
                    ach[t], score[t], discount[t] = 0.0, 0.0, 1.0
                    elapsed = 0
            else:
                ks, kr = jax.random.split(k) if auto_keys else (k, None)
                obs, state, r, d, info = game.step(ks, state, int(action), p)
                elapsed += 1
                reward[t], terminated[t] = np.float32(r), bool(d)
                truncated[t] = elapsed >= max_episode_steps
                ach[t], score[t], discount[t] = _info_row(game, info)
                if terminated[t] or truncated[t]:
                    if same_step:
                        final_obs[t] = np.asarray(obs)
                        final_ach[t], final_score[t], final_discount[t] = ach[t], score[t], discount[t]
                        if kr is None:
                            key, kr = jax.random.split(key)
                        obs, state = game.reset(kr, p)
                        ach[t], score[t], discount[t] = 0.0, 0.0, 1.0  # the reset's info
                        elapsed = 0
                    else:
                        pending, reset_key = True, kr
        obs_all[t + 1] = np.asarray(obs)
        states.append(game.to_bytes(state, key))
    blob = np.frombuffer(b"".join(states), np.uint8).reshape(n + 1, -1)
    np.savez(out, obs=obs_all, state=blob, reward=reward, terminated=terminated, truncated=truncated,
             was_reset=was_reset, achievements=ach, score=score, discount=discount, final_obs=final_obs,
             final_achievements=final_ach, final_score=final_score, final_discount=final_discount)
    return {"steps": n, "episodes_ended": int((terminated | truncated).sum())}


def main() -> None:
    replies = sys.stdout
    sys.stdout = sys.stderr  # craftax prints (its texture cache's progress): keep the answers' stream clean
    games: dict[str, Game] = {}
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop("op")
        try:
            if op == "make":
                name = request["name"]
                params = request.get("params", {})
                tag = json.dumps([name, params], sort_keys=True)
                if tag not in games:
                    games[tag] = Game(name, params)
                game = games[tag]
                defaults = {k: (v.item() if hasattr(v, "item") else v) for k, v in vars(game.params).items()
                            if k != "fractal_noise_angles"}
                answer: Any = {"game": tag, "obs_shape": list(game.obs_shape), "achievements": game.achievements,
                               "params": defaults, "state_bytes": sum(t.nbytes for t in game.templates) + 8}
            elif op == "rollout":
                game = games[request.pop("game")]
                answer = rollout(game, **request)
            elif op == "jax_version":
                answer = jax.__version__
            else:
                raise ValueError(f"unknown request {op!r}")
            reply = {"ok": answer}
        except Exception as e:  # the parent shows it
            reply = {"error": f"{type(e).__name__}: {e}\n{traceback.format_exc()[-2000:]}"}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
