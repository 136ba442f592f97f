"""jumanji 1.1.2 beside rlpool's Jumanji tasks: the same keys and actions, step by step, bit for bit.

rlpool keys env ``i`` of a pool seeded with ``s`` as jumanji would be keyed by hand: its first reset is
``env.reset(PRNGKey(s + i))``, a later one ``key, k = split(key); env.reset(k)`` (src/rlpool/envs/jumanji/
jumanji_env.h). ``lockstep`` runs a pool (the gymnasium face, ``NextStep`` autoreset) and jumanji's jitted
``reset``/``step`` side by side from those keys with the same actions, and compares every observation field
(as ``flatten`` names them: ``"outer.inner"`` for a nested one), reward and flag, for whole episodes and the
resets that follow them. Any difference raises ``Mismatch`` naming the env, step and field.

``run_from_state`` does the same from a state put in with ``set_state`` (the env's bytes, which its test
builds from jumanji's ``State``), for states a random policy rarely reaches.

What the tasks' test files share besides: ``lockstep_extras`` (lockstep with ``info`` beside jumanji's
``timestep.extras``), ``state_blob`` / ``key_bytes`` / ``patched`` (state blobs built from jumanji's
``State``), ``check_refused_blobs`` / ``check_saved_states`` / ``check_caught`` (the checks of set_state,
get_state and a planted difference), ``check_reset_keys`` (reset observations from the pool's keys),
``check_copied_state_plays_on`` (a state copied between envs), ``check_refused_options``, ``played_steps``
(a pool's own steps, for its time limit), ``legal_walk`` / ``random_legal_moves`` (jumanji states a few random
legal moves in) and the policy ``sometimes_any``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pytest

import rlpool


class Mismatch(AssertionError):
    """rlpool and jumanji differ."""


def flatten(tree: Any, prefix: str = "") -> dict[str, np.ndarray]:
    """A jumanji observation (a NamedTuple or a chex dataclass, nested ones too) as ``{"outer.inner": array}``."""
    if hasattr(tree, "_fields"):
        items = [(f, getattr(tree, f)) for f in tree._fields]
    elif dataclasses.is_dataclass(tree):
        items = [(f.name, getattr(tree, f.name)) for f in dataclasses.fields(tree)]
    else:
        return {prefix: np.asarray(tree)}
    out: dict[str, np.ndarray] = {}
    for name, value in items:
        out.update(flatten(value, f"{prefix}.{name}" if prefix else name))
    return out


def flatten_obs(obs: Any, i: int) -> dict[str, np.ndarray]:
    """Env ``i``'s row of an rlpool batch observation (a dict, nested one level) as ``{"outer.inner": array}``."""
    out: dict[str, np.ndarray] = {}
    for key, value in obs.items():
        if isinstance(value, dict):
            out.update({f"{key}.{inner}": np.asarray(v[i]) for inner, v in value.items()})
        else:
            out[key] = np.asarray(value[i])
    return out


def agents_obs(obs: Any, i: int, shared: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Env ``i``'s observation as jumanji gives it: ``flatten_obs``, with each ``shared`` field (which a
    multi-agent task repeats on every agent's row) as its one copy, once every agent's copy is checked equal."""
    out = flatten_obs(obs, i)
    for name in shared:
        rows = out[name]
        if not all(np.array_equal(rows[0], row) for row in rows[1:]):
            raise Mismatch(f"env {i}: the agents' copies of shared field {name} differ")
        out[name] = rows[0]
    return out


@cache
def _compile_cache() -> None:
    """jumanji's programs take seconds to compile: keep them on disk, for a second test file or run."""
    import os

    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    from rlpool.cache import cache_root

    jax.config.update("jax_compilation_cache_dir", str(cache_root() / "references" / "jax-cache"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.5)


@cache
def _jitted(jumanji_id: str, kwargs: tuple[tuple[str, Any], ...]) -> tuple[Any, Callable, Callable]:
    _compile_cache()
    import jax
    import jumanji

    env = jumanji.make(jumanji_id, **dict(kwargs))
    return env, jax.jit(env.reset), jax.jit(env.step)


@dataclass
class Reference:
    """jumanji's env ``jumanji_id`` made with ``kwargs`` (its generator, ...), with jitted reset and step."""

    jumanji_id: str
    kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env, self.reset, self.step = _jitted(self.jumanji_id, tuple(sorted(self.kwargs.items())))


def prng_key(seed: int) -> Any:
    """``jax.random.PRNGKey(seed)`` as rlpool takes it: the low 32 bits of the seed."""
    import jax

    return jax.random.PRNGKey(seed & 0xFFFFFFFF)


def split(key: Any) -> tuple[Any, Any]:
    """``key, k = jax.random.split(key)``."""
    import jax

    a, b = jax.random.split(key)
    return a, b


def random_masked_actions(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """One action per env: uniform over the legal ones where the observation has an ``action_mask``.

    The mask's shape says the action's: ``(n,)`` a discrete action, ``(A, n)`` one per agent, ``(n1, n2, ...)``
    a multi-discrete action (a legal combination); an env with no legal action, or no mask, gets a uniform one.
    """
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    if mask is None and np.issubdtype(action_space.dtype, np.floating):  # a continuous action: uniform in bounds
        return rng.uniform(action_space.low, action_space.high).astype(action_space.dtype)
    if mask is None:  # uniform over the batch space, from ``rng`` (a MultiDiscrete batches as one)
        sizes = np.asarray(action_space.nvec if hasattr(action_space, "nvec") else action_space.high + 1)
        return (rng.random(sizes.shape) * sizes).astype(np.int64)
    num_envs = len(mask)
    actions = []
    per_agent = action_space.shape[1:] != () and mask.ndim == 3 and mask.shape[1] == action_space.shape[1]
    for i in range(num_envs):
        m = np.asarray(mask[i])
        if per_agent:
            actions.append([_pick(row, rng) for row in m])
        elif m.ndim == 1:
            actions.append(_pick(m, rng))
        else:
            flat = np.flatnonzero(m.reshape(-1))
            choice = int(rng.choice(flat)) if len(flat) else int(rng.integers(m.size))
            actions.append(list(np.unravel_index(choice, m.shape)))
    return np.asarray(actions, dtype=np.int64)


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else int(rng.integers(len(mask)))


Policy = Callable[[Any, np.random.Generator, Any], np.ndarray]


def _compare(where: str, ours: dict[str, np.ndarray], theirs: dict[str, np.ndarray], skip: tuple[str, ...]) -> None:
    theirs = {k: v for k, v in theirs.items() if k not in skip}
    if set(ours) - set(skip) != set(theirs):
        raise Mismatch(f"{where}: observation fields {sorted(ours)} vs jumanji's {sorted(theirs)}")
    for name, ref in theirs.items():
        got = ours[name]
        if got.shape != ref.shape or got.dtype != ref.dtype:
            raise Mismatch(f"{where}: {name} is {got.dtype}{got.shape}, jumanji's {ref.dtype}{ref.shape}")
        if not np.array_equal(got, ref, equal_nan=np.issubdtype(ref.dtype, np.floating)):
            diff = np.argwhere(got != ref)[:5].tolist()
            raise Mismatch(f"{where}: {name} differs at {diff}: {got[tuple(np.transpose(diff))]} vs "
                           f"{ref[tuple(np.transpose(diff))]}")


@dataclass
class Stats:
    """What a lockstep run covered: steps compared, episodes ended, and of those truncated."""

    steps: int = 0
    episodes: int = 0
    truncations: int = 0


def _check_step(where: str, ts: Any, reward: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                at_limit: bool = False) -> None:
    """One step's reward and flags against jumanji's TimeStep.

    ``at_limit``: the step reached the pool's ``max_episode_steps``, where the engine truncates as gymnasium's
    TimeLimit does, so a termination there (an env whose own time limit ends its episode with a termination,
    as jumanji's Snake and RubiksCube do, at the same step) also has ``truncated`` set.
    """
    last = bool(ts.step_type == 2)
    discount = np.asarray(ts.discount)
    ref_term = last and bool(np.all(discount == 0))
    ref_trunc = (last and not ref_term) or (ref_term and at_limit)
    ref_reward = np.broadcast_to(np.asarray(ts.reward, np.float64), np.shape(reward))
    if not np.array_equal(np.asarray(reward, np.float64), ref_reward):
        raise Mismatch(f"{where}: reward {reward} vs jumanji's {ref_reward}")
    if bool(np.all(terminated)) != ref_term or bool(np.all(truncated)) != ref_trunc:
        raise Mismatch(f"{where}: terminated/truncated {terminated}/{truncated} vs jumanji's {ref_term}/{ref_trunc}")


def lockstep(task_id: str, ref: Reference, *, seed: int, num_envs: int, steps: int,
             policy: Policy | None = None, skip: tuple[str, ...] = (), shared: tuple[str, ...] = (),
             **options: Any) -> Stats:
    """Step a pool of ``task_id`` and jumanji's env from the same keys with the same actions; ``Stats``.

    ``skip`` names observation fields not compared (rlpool's where jumanji has none, or the reverse).
    ``shared`` (a multi-agent task) names the fields jumanji gives once for all agents and rlpool repeats on
    every agent's row: each is compared as agent 0's copy, after checking that every agent's copy is the same.
    """
    return _lockstep(task_id, ref, seed, num_envs, steps, policy, skip, {}, options, shared)


def lockstep_extras(task_id: str, ref: Reference, extras: Sequence[str], *, seed: int, num_envs: int, steps: int,
                    policy: Policy | None = None, skip: tuple[str, ...] = (), shared: tuple[str, ...] = (),
                    **options: Any) -> tuple[Stats, dict[str, list[Any]]]:
    """``lockstep``, and the ``info`` entries named in ``extras`` beside jumanji's ``timestep.extras`` (dtype and
    value, at every reset and step); ``Stats`` and, per entry, jumanji's values at the steps compared."""
    seen: dict[str, list[Any]] = {name: [] for name in extras}
    return _lockstep(task_id, ref, seed, num_envs, steps, policy, skip, seen, options, shared), seen


def _compare_extras(where: str, info: dict[str, Any], i: int, extras: dict[str, Any],
                    seen: dict[str, list[Any]]) -> None:
    for name in seen:
        ours, theirs = np.asarray(info[name][i]), np.asarray(extras[name])
        if ours.dtype != theirs.dtype or not np.array_equal(ours, theirs):
            raise Mismatch(f"{where}: info {name} {ours!r} vs jumanji's extras {theirs!r}")


def _lockstep(task_id: str, ref: Reference, seed: int, num_envs: int, steps: int, policy: Policy | None,
              skip: tuple[str, ...], seen: dict[str, list[Any]], options: dict[str, Any],
              shared: tuple[str, ...] = ()) -> Stats:
    """``lockstep``'s run; the extras named by ``seen``'s keys compared too, jumanji's values at steps kept."""
    pool = rlpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    stats = Stats()
    try:
        obs, info = pool.reset()
        keys = [prng_key(seed + i) for i in range(num_envs)]
        states = []
        for i in range(num_envs):
            state, ts = ref.reset(keys[i])
            states.append(state)
            _compare(f"{task_id} env {i} reset", agents_obs(obs, i, shared), flatten(ts.observation), skip)
            _compare_extras(f"{task_id} env {i} reset", info, i, ts.extras, seen)
        ended = [False] * num_envs
        rng = np.random.default_rng(seed)
        pick = policy or random_masked_actions
        for t in range(steps):
            actions = pick(obs, rng, pool.action_space)
            obs, reward, terminated, truncated, info = pool.step(actions)
            for i in range(num_envs):
                where = f"{task_id} env {i} step {t}"
                if ended[i]:  # NextStep: this step was env i's reset
                    keys[i], k = split(keys[i])
                    states[i], ts = ref.reset(k)
                    _compare(where + " (reset)", agents_obs(obs, i, shared), flatten(ts.observation), skip)
                    _compare_extras(where + " (reset)", info, i, ts.extras, seen)
                    ended[i] = False
                    continue
                states[i], ts = ref.step(states[i], np.asarray(actions[i]))
                _compare(where, agents_obs(obs, i, shared), flatten(ts.observation), skip)
                _compare_extras(where, info, i, ts.extras, seen)
                for name, values in seen.items():
                    values.append(np.asarray(ts.extras[name]).item())
                at_limit = int(info["elapsed_step"][i]) >= pool.spec.max_episode_steps
                _check_step(where, ts, reward[i], terminated[i], truncated[i], at_limit)
                stats.steps += 1
                if bool(ts.step_type == 2):
                    ended[i] = True
                    stats.episodes += 1
                    stats.truncations += int(bool(np.all(truncated[i])))
    finally:
        pool.close()
    return stats


def run_from_state(task_id: str, ref: Reference, state: Any, blob: bytes, actions: list[Any], *,
                   skip: tuple[str, ...] = (), shared: tuple[str, ...] = (), **options: Any) -> int:
    """From jumanji's ``state`` (put into one env as ``blob``, its bytes), the same ``actions``; steps compared.

    Stops after the episode's last step.
    """
    pool = rlpool.make(task_id, num_envs=1, seed=0, **options)
    try:
        pool.reset()
        pool.set_state(0, blob)
        n = 0
        for t, action in enumerate(actions):
            obs, reward, terminated, truncated, info = pool.step(np.asarray([action]))
            state, ts = ref.step(state, np.asarray(action))
            where = f"{task_id} from a set state, step {t}"
            _compare(where, agents_obs(obs, 0, shared), flatten(ts.observation), skip)
            at_limit = int(info["elapsed_step"][0]) >= pool.spec.max_episode_steps
            _check_step(where, ts, reward[0], terminated[0], truncated[0], at_limit)
            n += 1
            if bool(ts.step_type == 2):
                break
        return n
    finally:
        pool.close()


# --- what the tasks' test files share ------------------------------------------------------------------------


def key_bytes(key: Any) -> bytes:
    """A JAX key as a state blob holds it: ``key_data``'s two words, little-endian uint32 (a typed key's data)."""
    dtype = getattr(key, "dtype", None)
    if dtype is not None and "key<" in str(dtype):
        import jax

        key = jax.random.key_data(key)
    return np.asarray(key, "<u4").tobytes()


def state_blob(env_key: Any, *fields: tuple[Any, str]) -> bytes:
    """A state blob: the env's key (``key_bytes``), then each ``(value, dtype)`` as that little-endian dtype
    (``"key"``: a JAX key, as ``key_bytes``), e.g. ``state_blob(key, (state.board, "<i4"), (state.key, "key"))``."""
    parts = [key_bytes(env_key)]
    parts += [key_bytes(value) if dtype == "key" else np.asarray(value, dtype).tobytes() for value, dtype in fields]
    return b"".join(parts)


def patched(blob: bytes, at: int, data: bytes) -> bytes:
    """``blob`` with ``data`` written over its bytes from ``at`` on."""
    return blob[:at] + data + blob[at + len(data):]


def reset_state(task_id: str, seed: int = 0, **options: Any) -> bytes:
    """The state blob of a one-env pool of ``task_id`` seeded with ``seed``, after its first reset."""
    pool = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    try:
        pool.reset()
        return pool.get_state(0)
    finally:
        pool.close()


def check_refused_blobs(task_id: str, good: bytes, bad: Mapping[str, bytes], **options: Any) -> None:
    """``good`` round-trips through a one-env pool's set_state/get_state, and each blob of ``bad`` (a pattern that
    its ValueError must match -> the blob) is refused, leaving the env's state ``good``."""
    pool = rlpool.make(task_id, num_envs=1, seed=0, **options)
    try:
        pool.reset()
        pool.set_state(0, good)
        assert pool.get_state(0) == good
        for pattern, blob in bad.items():
            with pytest.raises(ValueError, match=pattern):
                pool.set_state(0, blob)
            assert pool.get_state(0) == good, f"a blob refused for {pattern!r} changed the state"
    finally:
        pool.close()


def check_saved_states(task_id: str, ref: Reference, encode: Callable[[Any, tuple[int, int]], bytes], *, seed: int,
                       num_envs: int = 2, **options: Any) -> None:
    """get_state after a pool's first reset is, per env, ``encode`` of jumanji's ``reset(PRNGKey(seed + i))``
    State behind the env key ``(0, seed + i)``."""
    pool = rlpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    try:
        pool.reset()
        for i in range(num_envs):
            state, _ = ref.reset(prng_key(seed + i))
            assert pool.get_state(i) == encode(state, (0, seed + i)), f"env {i}'s state"
    finally:
        pool.close()


def check_caught(task_id: str, ref: Reference, state: Any, blob: bytes, actions: list[Any], match: str | None = None,
                 **options: Any) -> None:
    """A planted difference: ``run_from_state`` from jumanji's ``state`` with ``blob`` (a changed copy of it) in
    the pool raises ``Mismatch`` (matching ``match`` where given)."""
    with pytest.raises(Mismatch, match=match):
        run_from_state(task_id, ref, state, blob, actions, **options)


def random_legal_moves(ref: Reference, state: Any, rng: np.random.Generator) -> list[int]:
    """Random legal moves (one action each, from the ``action_mask``) from jumanji's ``state`` to the end of its
    episode (none from an ended one)."""
    moves = []
    mask = np.asarray(ref.env._state_to_observation(state).action_mask)
    while mask.any():
        move = int(rng.choice(np.flatnonzero(mask)))
        moves.append(move)
        state, ts = ref.step(state, np.int32(move))
        if ts.step_type == 2:
            break
        mask = np.asarray(ts.observation.action_mask)
    return moves


def legal_walk(ref: Reference, seed: int, steps: int) -> tuple[Any, list[int]]:
    """jumanji's state after up to ``steps`` random legal moves from reset(PRNGKey(seed)), and legal moves on
    (``random_legal_moves``, from ``default_rng(seed)``)."""
    state, _ = ref.reset(prng_key(seed))
    rng = np.random.default_rng(seed)
    moves = random_legal_moves(ref, state, rng)[:steps]
    for move in moves:
        state, _ = ref.step(state, np.int32(move))
    return state, random_legal_moves(ref, state, rng)


def sometimes_any(p_any: float) -> Policy:
    """A policy: ``random_masked_actions``, but each env's action, with probability ``p_any``, uniform over the
    whole action space (often an illegal one)."""

    def policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
        actions = random_masked_actions(obs, rng, action_space)
        sizes = np.asarray(action_space.nvec if hasattr(action_space, "nvec") else action_space.high + 1)
        for i in range(len(actions)):
            if rng.random() < p_any:
                actions[i] = rng.integers(sizes[i])
        return actions

    return policy


def played_steps(task_id: str, policy: Policy, steps: int, *, seed: int, num_envs: int,
                 **options: Any) -> Iterator[tuple[int, Any, np.ndarray, np.ndarray, np.ndarray, Any]]:
    """A pool's first ``steps`` steps (after its reset) under ``policy`` (drawing from ``default_rng(0)``), with
    no reference beside it: ``(t, obs, reward, terminated, truncated, info)`` per step."""
    pool = rlpool.make(task_id, num_envs=num_envs, seed=seed, **options)
    rng = np.random.default_rng(0)
    try:
        obs, _ = pool.reset()
        for t in range(steps):
            obs, reward, terminated, truncated, info = pool.step(policy(obs, rng, pool.action_space))
            yield t, obs, reward, terminated, truncated, info
    finally:
        pool.close()


def check_reset_keys(task_id: str, ref: Reference, n: int, seed: int, shared: tuple[str, ...] = (),
                     **options: Any) -> None:
    """The first observation of env i of a pool of ``n`` seeded ``seed`` is jumanji's reset(PRNGKey(seed + i)), the
    second reset's that of split's second key: every field, dtype and value (the family test's check; ``shared``:
    the fields repeated on every agent's row, taken as agent 0's copy, as in ``lockstep``)."""
    pool = rlpool.make(task_id, num_envs=n, seed=seed, **options)
    try:
        first, _ = pool.reset()
        second, _ = pool.reset()
        for i in range(n):
            key = prng_key(seed + i)
            for obs, k, what in ((first, key, "reset"), (second, split(key)[1], "second reset")):
                theirs = flatten(ref.reset(k)[1].observation)
                ours = agents_obs(obs, i, shared) if shared else flatten_obs(obs, i)
                assert set(ours) == set(theirs)
                for name, value in theirs.items():
                    assert ours[name].dtype == value.dtype and np.array_equal(ours[name], value), (i, what, name)
    finally:
        pool.close()


def check_refused_options(task_id: str, bad: Mapping[str, Mapping[str, Any]]) -> None:
    """Each entry of ``bad`` (a pattern -> options) makes ``rlpool.make(task_id, num_envs=1, **options)`` raise a
    ValueError matching the pattern."""
    for pattern, options in bad.items():
        with pytest.raises(ValueError, match=pattern):
            rlpool.make(task_id, num_envs=1, **options)


def check_copied_state_plays_on(task_id: str, *, warmup: int, steps: int, policy: Policy | None = None, seed: int = 9,
                                **options: Any) -> None:
    """A state saved mid-episode (env 0 of a two-env pool after ``warmup`` steps of ``policy``, default
    ``random_masked_actions``, drawing from ``default_rng(1)``) and put into env 1 plays on as the original for
    ``steps`` steps with the same actions: every observation field, reward and flag (per agent) the same."""
    policy = policy or random_masked_actions
    pool = rlpool.make(task_id, num_envs=2, seed=seed, **options)
    rng = np.random.default_rng(1)
    try:
        obs, _ = pool.reset()
        for _ in range(warmup):
            obs, *_ = pool.step(policy(obs, rng, pool.action_space))
        blob = pool.get_state(0)
        pool.set_state(1, blob)
        assert pool.get_state(1) == blob
        for t in range(steps):
            actions = policy(obs, rng, pool.action_space)
            actions[1] = actions[0]
            obs, reward, terminated, truncated, _ = pool.step(actions)
            copy = flatten_obs(obs, 1)
            for name, value in flatten_obs(obs, 0).items():
                assert np.array_equal(value, copy[name]), (t, name)
            for name, value in (("reward", reward), ("terminated", terminated), ("truncated", truncated)):
                assert np.array_equal(value[0], value[1]), (t, name)
    finally:
        pool.close()
