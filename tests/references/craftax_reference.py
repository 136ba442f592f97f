"""craftax 1.6.1 as the reference of rlpool's Craftax tasks (Classic and full), run in a virtualenv of its own.

craftax pins nothing but needs jax, flax (and through it optax, orbax, tensorstore), matplotlib and imageio:
too much for the test extra. The reference runs in a child Python of a cached virtualenv
(``reference_python``): made once per Python version under rlpool's cache with ``python -m venv``, holding
``craftax==1.6.1`` with ``jax``/``jaxlib`` 0.10.2 pinned (XLA's float32 rewrites -- reciprocal multiplies,
FMA contraction, blocked cumsum -- are what rlpool reproduces bit for bit, and they are jaxlib's) and this
environment's numpy. ``RLPOOL_CRAFTAX_PYTHON`` names another interpreter that has them. Compiled reset/step
programs are kept on disk under rlpool's cache, so only the first run pays for XLA's compiles.

``Reference`` talks to ``craftax_child.py`` there (one JSON line each way; arrays through a ``.npz`` file).
``lockstep`` runs a pool and craftax from the same keys (EnvPool 1.2.7's scheme: env i of a pool seeded with
s resets with ``PRNGKey(s + i)``) with the same random actions and compares every step: observations bit
for bit, reward, terminated/truncated, the info's achievements (craftax's ``Achievements/<name>``), ``score``
(Classic only: full Craftax's info has none) and ``discount``, SameStep's final rows and the whole state
(``get_state`` equals craftax's state leaves and key). ``synced`` puts craftax's state into the env before
every step (``set_state``) and compares one step, which names the first step whose game logic differs.
A saved state's game (Classic or full) is told by its size; ``LEAVES`` and ``FULL_LEAVES`` name the leaves.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cached_venv import ask, cached_venv, pip_install
from lane import require

from rlpool.cache import cache_root

VERSION = "1.6.1"
JAX = "0.10.2"
CHILD = Path(__file__).resolve().parent / "craftax_child.py"
ACTIONS = 17
FULL_ACTIONS = 43


def _mobs(kind: str, n: int) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(f"{kind}.position", "<i4", (n, 2)), (f"{kind}.health", "<i4", (n,)), (f"{kind}.mask", "?", (n,)),
            (f"{kind}.attack_cooldown", "<i4", (n,))]


def _full_mobs(kind: str, n: int) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(f"{kind}.position", "<i4", (9, n, 2)), (f"{kind}.health", "<f4", (9, n)), (f"{kind}.mask", "?", (9, n)),
            (f"{kind}.attack_cooldown", "<i4", (9, n)), (f"{kind}.type_id", "<i4", (9, n))]


INVENTORY = ("wood", "stone", "coal", "iron", "diamond", "sapling", "wood_pickaxe", "stone_pickaxe", "iron_pickaxe",
             "wood_sword", "stone_sword", "iron_sword")
LEAVES: list[tuple[str, str, tuple[int, ...]]] = [
    ("map", "<i4", (64, 64)), ("mob_map", "?", (64, 64)), ("player_position", "<i4", (2,)),
    ("player_direction", "<i4", ()), ("player_health", "<i4", ()), ("player_food", "<i4", ()),
    ("player_drink", "<i4", ()), ("player_energy", "<i4", ()), ("is_sleeping", "?", ()),
    ("player_recover", "<f4", ()), ("player_hunger", "<f4", ()), ("player_thirst", "<f4", ()),
    ("player_fatigue", "<f4", ()), *[(f"inventory.{k}", "<i4", ()) for k in INVENTORY],
    *_mobs("zombies", 3), *_mobs("cows", 3), *_mobs("skeletons", 2), *_mobs("arrows", 3),
    ("arrow_directions", "<i4", (3, 2)), ("growing_plants_positions", "<i4", (10, 2)),
    ("growing_plants_age", "<i4", (10,)), ("growing_plants_mask", "?", (10,)), ("light_level", "<f4", ()),
    ("achievements", "?", (22,)), ("state_rng", "<u4", (2,)), ("timestep", "<i4", ()),
]
"""craftax 1.6.1's Classic EnvState leaves (jax.tree_util.tree_leaves order): name, dtype, shape."""
FULL_INVENTORY = ("wood", "stone", "coal", "iron", "diamond", "sapling", "pickaxe", "sword", "bow", "arrows")
FULL_LEAVES: list[tuple[str, str, tuple[int, ...]]] = [
    ("map", "<i4", (9, 48, 48)), ("item_map", "<i4", (9, 48, 48)), ("mob_map", "?", (9, 48, 48)),
    ("light_map", "<f4", (9, 48, 48)), ("down_ladders", "<i4", (9, 2)), ("up_ladders", "<i4", (9, 2)),
    ("chests_opened", "?", (9,)), ("monsters_killed", "<i4", (9,)), ("player_position", "<i4", (2,)),
    ("player_level", "<i4", ()), ("player_direction", "<i4", ()), ("player_health", "<f4", ()),
    ("player_food", "<i4", ()), ("player_drink", "<i4", ()), ("player_energy", "<i4", ()),
    ("player_mana", "<i4", ()), ("is_sleeping", "?", ()), ("is_resting", "?", ()),
    ("player_recover", "<f4", ()), ("player_hunger", "<f4", ()), ("player_thirst", "<f4", ()),
    ("player_fatigue", "<f4", ()), ("player_recover_mana", "<f4", ()), ("player_xp", "<i4", ()),
    ("player_dexterity", "<i4", ()), ("player_strength", "<i4", ()), ("player_intelligence", "<i4", ()),
    *[(f"inventory.{k}", "<i4", ()) for k in FULL_INVENTORY], ("inventory.armour", "<i4", (4,)),
    ("inventory.torches", "<i4", ()), ("inventory.ruby", "<i4", ()), ("inventory.sapphire", "<i4", ()),
    ("inventory.potions", "<i4", (6,)), ("inventory.books", "<i4", ()),
    *_full_mobs("melee_mobs", 3), *_full_mobs("passive_mobs", 3), *_full_mobs("ranged_mobs", 2),
    *_full_mobs("mob_projectiles", 3), ("mob_projectile_directions", "<i4", (9, 3, 2)),
    *_full_mobs("player_projectiles", 3), ("player_projectile_directions", "<i4", (9, 3, 2)),
    ("growing_plants_positions", "<i4", (10, 2)), ("growing_plants_age", "<i4", (10,)),
    ("growing_plants_mask", "?", (10,)), ("potion_mapping", "<i4", (6,)), ("learned_spells", "?", (2,)),
    ("sword_enchantment", "<i4", ()), ("bow_enchantment", "<i4", ()), ("armour_enchantments", "<i4", (4,)),
    ("boss_progress", "<i4", ()), ("boss_timesteps_to_spawn_this_round", "<i4", ()), ("light_level", "<f4", ()),
    ("achievements", "?", (67,)), ("state_rng", "<u4", (2,)), ("timestep", "<i4", ()),
]
"""craftax 1.6.1's full Craftax EnvState leaves (jax.tree_util.tree_leaves order): name, dtype, shape."""


def _offsets(leaves: list[tuple[str, str, tuple[int, ...]]]) -> tuple[dict[str, tuple[int, np.dtype, tuple]], int]:
    offsets, pos = {}, 0
    for name, dtype, shape in leaves:
        offsets[name] = (pos, np.dtype(dtype), shape)
        pos += np.dtype(dtype).itemsize * int(np.prod(shape, dtype=np.int64))
    return offsets, pos


OFFSETS, GAME_STATE_BYTES = _offsets(LEAVES)
"""Classic: each leaf's (byte offset, dtype, shape); the leaves in bytes (20952). rlpool's saved state adds the
env's key (two uint32)."""
FULL_OFFSETS, FULL_STATE_BYTES = _offsets(FULL_LEAVES)
"""Full Craftax: the same (273276 bytes of leaves)."""


def _layout(state: bytes) -> tuple[dict[str, tuple[int, np.dtype, tuple]], int]:
    """The leaf offsets and leaf bytes of a saved state's game, told by its size (with or without the key)."""
    return (FULL_OFFSETS, FULL_STATE_BYTES) if len(state) >= FULL_STATE_BYTES else (OFFSETS, GAME_STATE_BYTES)


def get_leaf(state: bytes, name: str) -> np.ndarray:
    """One leaf of a saved state (Classic or full), as a numpy array."""
    pos, dtype, shape = _layout(state)[0][name]
    count = int(np.prod(shape, dtype=np.int64))
    return np.frombuffer(state, dtype, count, pos).reshape(shape).copy()


def with_leaf(state: bytes, name: str, value: Any) -> bytes:
    """A saved state with one leaf replaced (cast to the leaf's dtype and shape)."""
    pos, dtype, shape = _layout(state)[0][name]
    data = np.broadcast_to(np.asarray(value).astype(dtype), shape).tobytes()
    return state[:pos] + data + state[pos + len(data):]


def requirements() -> list[str]:
    """What the reference virtualenv holds: craftax, the pinned jax/jaxlib, and this environment's numpy."""
    pins = [f"craftax=={VERSION}", f"jax=={JAX}", f"jaxlib=={JAX}"]
    try:
        pins.append(f"numpy=={importlib.metadata.version('numpy')}")
    except importlib.metadata.PackageNotFoundError:
        pins.append("numpy")
    return pins


def venv_folder() -> Path:
    """Where the reference virtualenv lies: one per Python version."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    return cache_root() / "references" / f"craftax-{VERSION}-jax-{JAX}-{tag}"


def reference_python() -> Path:
    """The reference's Python, made first where missing; skips the test (fails it in CI) if it cannot be."""
    given = os.environ.get("RLPOOL_CRAFTAX_PYTHON")
    if given:
        return Path(given)
    folder = venv_folder()
    try:
        return cached_venv(folder, requirements(), lambda python: pip_install(python, requirements()),
                           what="the Craftax reference virtualenv")
    except Exception as e:  # no network, no pip: the comparison cannot run here
        require(f"craftax {VERSION}'s reference virtualenv could not be made in {folder}: {e}")
        raise


@dataclass
class Rollout:
    """One env's run in craftax: row 0 of ``obs``/``state`` is the start, row t + 1 follows action t."""

    obs: np.ndarray
    state: np.ndarray  # (steps + 1, bytes): state leaves and key, rlpool's get_state layout
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    was_reset: np.ndarray  # NextStep: the call that reset (reward 0, flags false)
    achievements: np.ndarray  # (steps, 22), in craftax's Achievement order
    score: np.ndarray
    discount: np.ndarray
    final_obs: np.ndarray  # SameStep: the ended step's observation
    final_achievements: np.ndarray
    final_score: np.ndarray
    final_discount: np.ndarray


class Reference:
    """craftax 1.6.1's env of one name and params, in the reference virtualenv's child Python."""

    def __init__(self, name: str = "Craftax-Classic-Symbolic-v1", **params: Any) -> None:
        self.stderr = tempfile.TemporaryFile(mode="w+")  # a pipe could fill up and block the child
        self.folder = tempfile.TemporaryDirectory()
        env = dict(os.environ, JAX_PLATFORMS="cpu",
                   RLPOOL_CRAFTAX_JAX_CACHE=str(cache_root() / "references" / f"jax-cache-craftax-{JAX}"))
        self.process = subprocess.Popen([str(reference_python()), str(CHILD)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1, env=env)
        self.runs = 0
        self.use(name, **params)

    def use(self, name: str = "Craftax-Classic-Symbolic-v1", **params: Any) -> Reference:
        """Make (or take again) craftax's env ``name`` with these EnvParams for the next rollouts."""
        self.made = self.call("make", name=name, params=params)
        self.achievements: list[str] = self.made["achievements"]
        return self

    def call(self, op: str, **request: Any) -> Any:
        """One request; its answer, or an AssertionError with the reference's error."""
        return ask(self.process, self.stderr, "Craftax", op, request)

    def rollout(self, seed: int, actions: np.ndarray, *, auto_keys: bool = False, same_step: bool = False,
                max_episode_steps: int = 10000, start: bytes | None = None, wrapper: bool = False) -> Rollout:
        """craftax's run of ``actions`` from ``PRNGKey(seed)``'s reset (or from the state ``start``)."""
        self.runs += 1
        out = str(Path(self.folder.name) / f"run{self.runs}.npz")
        self.call("rollout", game=self.made["game"], seed=int(seed), actions=[int(a) for a in actions], out=out,
                  auto_keys=auto_keys, same_step=same_step, max_episode_steps=max_episode_steps,
                  start=None if start is None else start.hex(), wrapper=wrapper)
        with np.load(out) as data:
            return Rollout(**{k: data[k] for k in data.files})

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=60)
        self.stderr.close()
        self.folder.cleanup()

    def __enter__(self) -> Reference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Mismatch(AssertionError):
    """rlpool and craftax disagree: names the task, env, step and what differs."""


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _obs_diff(got: np.ndarray, want: np.ndarray) -> str:
    bad = np.flatnonzero(np.asarray(got, np.float32).reshape(-1).view(np.uint32)
                         != np.asarray(want, np.float32).reshape(-1).view(np.uint32))
    shown = ", ".join(f"[{i}] {got.reshape(-1)[i]!r} vs {want.reshape(-1)[i]!r}" for i in bad[:5])
    return f"{len(bad)} of {got.size} values differ: {shown}"


def state_diff(got: bytes, want: bytes) -> str:
    """Which leaves of two saved states differ."""
    if len(got) != len(want):
        return f"{len(got)} bytes vs {len(want)}"
    a, b = np.frombuffer(got, np.uint8), np.frombuffer(want, np.uint8)
    bad = np.flatnonzero(a != b)
    if not len(bad):
        return "equal"
    names = []
    offsets, game_bytes = _layout(got)
    for name, (pos, dtype, shape) in offsets.items():
        size = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
        if np.any((bad >= pos) & (bad < pos + size)):
            names.append(f"{name} {get_leaf(got, name).tolist()} vs {get_leaf(want, name).tolist()}"
                         if size <= 64 else name)
    if bad[-1] >= game_bytes:
        names.append("the env's key")
    return f"{len(bad)} bytes differ: " + "; ".join(names)


def _compare_info(where: str, label: str, info: dict[str, Any], i: int, achievements: np.ndarray, score: Any,
                  discount: Any, names: list[str]) -> None:
    """Row ``i`` of an info dict against craftax's: the achievements (``achievements``, float32 in craftax's
    Achievement order, or one ``Achievements/<name>`` entry each, as EnvPool has them), score (Classic's 22
    achievements; full Craftax's info has no score) and discount."""
    if "achievements" in info:
        got = np.asarray(info["achievements"][i], np.float32)
        if not _same_bits(got, np.asarray(achievements, np.float32)):
            raise Mismatch(f"{where}: {label}['achievements'] {got.tolist()} vs craftax {achievements.tolist()}")
    else:
        for a, name in enumerate(names):
            if np.float32(info[name][i]).tobytes() != np.float32(achievements[a]).tobytes():
                raise Mismatch(f"{where}: {label}[{name!r}] {info[name][i]!r} vs craftax {achievements[a]!r}")
    scored = len(names) == 22
    if not scored and "score" in info:
        raise Mismatch(f"{where}: {label} has a 'score' entry, which full Craftax's info has not")
    for key, value in (("score", score), ("discount", discount))[0 if scored else 1:]:
        if np.float32(info[key][i]).tobytes() != np.float32(value).tobytes():
            raise Mismatch(f"{where}: {label}[{key!r}] {info[key][i]!r} vs craftax {value!r}")


def compare_step(where: str, names: list[str], got: tuple, i: int, want: Rollout, t: int, *,
                 same_step: bool) -> None:
    """Row ``i`` of a pool's step result against craftax's step ``t``; raises Mismatch."""
    obs, reward, terminated, truncated, info = got
    if not _same_bits(obs[i], want.obs[t + 1]):
        raise Mismatch(f"{where}: observation: {_obs_diff(obs[i], want.obs[t + 1])}")
    if np.float32(reward[i]).tobytes() != want.reward[t].tobytes():
        raise Mismatch(f"{where}: reward {reward[i]!r} vs craftax {want.reward[t]!r}")
    if bool(terminated[i]) != bool(want.terminated[t]) or bool(truncated[i]) != bool(want.truncated[t]):
        raise Mismatch(f"{where}: terminated/truncated {bool(terminated[i])}/{bool(truncated[i])} vs craftax "
                       f"{bool(want.terminated[t])}/{bool(want.truncated[t])}")
    _compare_info(where, "info", info, i, want.achievements[t], want.score[t], want.discount[t], names)
    ended = bool(want.terminated[t] or want.truncated[t])
    if same_step and ended:
        if not _same_bits(np.asarray(info["final_obs"][i], np.float32), want.final_obs[t]):
            raise Mismatch(f"{where}: final_obs: {_obs_diff(np.asarray(info['final_obs'][i]), want.final_obs[t])}")
        _compare_info(where, "final_info", info["final_info"], i, want.final_achievements[t], want.final_score[t],
                      want.final_discount[t], names)


@dataclass
class Stats:
    """What a comparison covered."""

    steps: int = 0
    episodes_ended: int = 0
    resets: int = 0
    achievements: int = 0  # (env, step) pairs whose info had an achievement (at an episode's end)
    rewarded: int = 0  # steps with a non-zero reward
    light_off_states: int = 0  # states let through by ``light_atol``


def _light_within(got: bytes, want: bytes, atol: float) -> bool:
    """The two states differ in light_level alone, by at most ``atol``."""
    pos, _, _ = _layout(got)[0]["light_level"]
    if got[:pos] != want[:pos] or got[pos + 4:] != want[pos + 4:]:
        return False
    a, b = (float(np.frombuffer(x, np.float32, 1, pos)[0]) for x in (got, want))
    return abs(a - b) <= atol


def random_actions(seed: int, steps: int, num_envs: int, num_actions: int = ACTIONS) -> np.ndarray:
    """Uniform random actions in 0..num_actions-1 (Classic's 17 by default), (steps, num_envs) int64, from numpy's
    generator seeded with ``seed``."""
    return np.random.default_rng(seed).integers(0, num_actions, size=(steps, num_envs)).astype(np.int64)


def lockstep(task_id: str, ref: Reference, *, seed: int, num_envs: int, steps: int, actions: np.ndarray | None = None,
             perturb: Callable[[int, np.ndarray], np.ndarray] | None = None, wrapper: bool = False,
             start: list[bytes] | None = None, light_atol: float = 0.0, **options: Any) -> Stats:
    """A pool of ``num_envs`` envs of ``task_id`` beside craftax, from the same keys, with the same actions.

    Every env is compared at every step (``compare_step``) and its saved state must equal craftax's state
    and key byte for byte. ``perturb(t, actions)`` changes the pool's actions only (to show the comparison
    fails). ``start`` gives each env a state to begin from (``set_state`` after the first reset).
    ``light_atol`` lets a state through whose light_level alone is off by that much (craftax's own
    ``EnvironmentAutoReset`` program, ``wrapper``, rounds the light level it stores differently from
    ``step_env``).
    """
    import rlpool

    env = rlpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    mode = env.metadata.get("autoreset_mode")
    same_step = str(getattr(mode, "name", mode)).replace("_", "").lower() == "samestep"
    auto_keys = "-AutoReset-" in task_id
    limit = int(options.get("max_episode_steps") or rlpool.make_spec(task_id).max_episode_steps or 10000)
    if actions is None:
        actions = random_actions(seed, steps, num_envs, int(env.single_action_space.n))
    obs, _ = env.reset()
    if start is not None:
        for i, blob in enumerate(start):
            env.set_state(i, blob)
    runs = [ref.rollout(seed + i, actions[:, i], auto_keys=auto_keys, same_step=same_step, max_episode_steps=limit,
                        start=None if start is None else start[i], wrapper=wrapper) for i in range(num_envs)]
    names = ref.achievements
    stats = Stats()
    for i, run in enumerate(runs):
        if start is None and not _same_bits(obs[i], run.obs[0]):
            raise Mismatch(f"{task_id} env {i} (seed {seed + i}) reset: observation: {_obs_diff(obs[i], run.obs[0])}")
        if env.get_state(i) != run.state[0].tobytes():
            raise Mismatch(f"{task_id} env {i} reset: state: {state_diff(env.get_state(i), run.state[0].tobytes())}")
    for t in range(steps):
        sent = actions[t] if perturb is None else perturb(t, actions[t].copy())
        got = env.step(sent)
        for i, run in enumerate(runs):
            where = f"{task_id} env {i} (seed {seed + i}) step {t + 1}"
            compare_step(where, names, got, i, run, t, same_step=same_step and not wrapper)
            state, want = env.get_state(i), run.state[t + 1].tobytes()
            if state != want:
                if not (light_atol and _light_within(state, want, light_atol)):
                    raise Mismatch(f"{where}: state: {state_diff(state, want)}")
                stats.light_off_states += 1
            stats.steps += 1
            stats.resets += int(run.was_reset[t])
            stats.episodes_ended += int(run.terminated[t] or run.truncated[t])
            stats.achievements += int(run.final_achievements[t].any() or run.achievements[t].any())
            stats.rewarded += int(run.reward[t] != 0)
    env.close()
    return stats


def synced(task_id: str, run: Rollout, actions: np.ndarray, names: list[str], *,
           edit: Callable[[int, bytes], bytes] | None = None, **options: Any) -> int:
    """One env put into each of craftax's states of ``run`` (``set_state``) and stepped once with its action.

    The step must give craftax's next observation, reward, flags, info and state (the env's key travels in
    the state, so the step's key is craftax's too). Steps where craftax's run reset (NextStep) or ended are
    left out. ``edit(t, state)`` changes the state the env is given (to show the comparison fails). Returns
    the number of steps compared.
    """
    import rlpool

    env = rlpool.make(task_id, num_envs=1, seed=0, **options)
    env.reset()
    compared = 0
    for t in range(len(actions)):
        if run.was_reset[t] or run.terminated[t] or run.truncated[t]:
            continue
        state = run.state[t].tobytes()
        env.set_state(0, state if edit is None else edit(t, state))
        got = env.step(np.asarray([actions[t]], np.int64))
        where = f"{task_id} from craftax's state {t}, action {int(actions[t])}"
        compare_step(where, names, got, 0, run, t, same_step=False)
        if env.get_state(0) != run.state[t + 1].tobytes():
            raise Mismatch(f"{where}: state: {state_diff(env.get_state(0), run.state[t + 1].tobytes())}")
        compared += 1
    env.close()
    return compared


__all__ = ["FULL_LEAVES", "LEAVES", "Mismatch", "Reference", "Rollout", "get_leaf", "lockstep", "random_actions",
           "reference_python", "synced", "with_leaf"]
