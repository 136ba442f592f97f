"""SearchAndRescue-v0 (src/rlpool/envs/jumanji/search_and_rescue.cc) beside jumanji 1.1.2's, step by step, bit for bit.

Whole episodes from the same keys under random continuous steering (float64 actions, some past the bounds,
which jumanji clips, and float32 ones), every observation field, per-agent reward and flag compared exactly;
states a random policy rarely reaches (searchers on top of targets, the last target found, the time limit)
put in with ``set_state``; a planted difference that the comparison catches; bad state blobs refused naming
the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "SearchAndRescue-v0"
SHARED = ("targets_remaining", "step")
A, T = 2, 40


def ref() -> jr.Reference:
    """jumanji's SearchAndRescue-v0."""
    return jr.Reference("SearchAndRescue-v0")


def steering(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Random [rotation, acceleration] per searcher, float64, in [-1.2, 1.2] (past the bounds now and then)."""
    n = len(obs["positions"])
    return rng.uniform(-1.2, 1.2, (n, A, 2))


def steering32(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """``steering`` as float32, mostly turning one way (so searchers circle over the same ground)."""
    actions = steering(obs, rng, action_space)
    actions[..., 0] = np.abs(actions[..., 0]) * 0.3
    return actions.astype(np.float32)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's ``State`` as the env's state bytes: the env's key, then search_and_rescue.cc's layout."""
    s, t = state.searchers, state.targets
    return jr.state_blob(env_key, (s.pos, "<f4"), (s.heading, "<f4"), (s.speed, "<f4"), (t.pos, "<f4"),
                         (t.vel, "<f4"), (t.found, "u1"), (state.key, "key"), (state.step, "<i4"))


def crowded_state(reference: jr.Reference, seed: int, found: int = 0, step: int = 0, together: bool = False) -> Any:
    """A reset State with every target placed just ahead of a searcher (so that many are found at once),
    ``found`` of them already found, at ``step``; ``together``: both searchers on one spot with one heading
    (so that they find the same targets and split the rewards), one speed."""
    import jax.numpy as jnp

    state, _ = reference.reset(jr.prng_key(seed))
    rng = np.random.default_rng(seed)
    pos = np.asarray(state.searchers.pos).copy()
    heading = np.asarray(state.searchers.heading).copy()
    if together:
        pos[1], heading[1] = pos[0], heading[0]
        speed = np.full(A, np.asarray(state.searchers.speed)[0])
        searchers = state.searchers.replace(pos=jnp.asarray(pos), heading=jnp.asarray(heading),
                                            speed=jnp.asarray(speed))
        state = state.replace(searchers=searchers)
    owner = rng.integers(A, size=T)
    ahead = rng.uniform(0.0, 0.06, T)
    side = rng.uniform(-0.6, 0.6, T)
    angle = heading[owner] + side
    tpos = (pos[owner] + ahead[:, None] * np.stack([np.cos(angle), np.sin(angle)], 1)) % 1.0
    flags = np.zeros(T, bool)
    flags[:found] = True
    targets = state.targets.replace(pos=jnp.asarray(tpos, jnp.float32), found=jnp.asarray(flags))
    return state.replace(targets=targets, step=jnp.int32(step))


def walk(reference: jr.Reference, state: Any, seed: int, steps: int) -> list[np.ndarray]:
    """Random float32 actions, ``steps`` of them."""
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, (A, 2)).astype(np.float32) for _ in range(steps)]


def test_lockstep_whole_episodes() -> None:
    stats = jr.lockstep(TASK, ref(), seed=0, num_envs=2, steps=450, policy=steering, shared=SHARED)
    assert stats.steps >= 800 and stats.episodes >= 2


def test_lockstep_float32_actions() -> None:
    stats = jr.lockstep(TASK, ref(), seed=77, num_envs=2, steps=200, policy=steering32, shared=SHARED)
    assert stats.steps == 400


def test_other_options_are_jumanjis() -> None:
    """The env's and the generator's parameters other than the defaults: jumanji.make's kwargs, and a
    RandomGenerator with 3 searchers and 25 targets."""
    from jumanji.environments.swarms.search_and_rescue.generator import RandomGenerator

    kwargs = {"searcher_max_rotate": 0.3, "searcher_max_accelerate": 0.007, "searcher_min_speed": 0.004,
              "searcher_max_speed": 0.03, "target_contact_range": 0.03, "time_limit": 150}
    stats = jr.lockstep(TASK, jr.Reference(TASK, kwargs), seed=3, num_envs=2, steps=200, policy=steering,
                        shared=SHARED, **kwargs)
    assert stats.episodes == 2

    def three(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
        return rng.uniform(-1.2, 1.2, (len(obs["positions"]), 3, 2))

    reference = jr.Reference(TASK, {"generator": RandomGenerator(num_searchers=3, num_targets=25)})
    stats = jr.lockstep(TASK, reference, seed=4, num_envs=2, steps=150, policy=three, shared=SHARED,
                        num_searchers=3, num_targets=25)
    assert stats.steps == 300


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    jr.check_saved_states(TASK, ref(), encode, seed=7)


def test_crowded_targets_are_found_and_split() -> None:
    """Targets just ahead of the searchers: many found in a step, some by both searchers (split rewards)."""
    reference = ref()
    state = crowded_state(reference, 3)
    actions = walk(reference, state, 3, 30)
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 30


def test_searchers_together_split_the_rewards() -> None:
    reference = ref()
    state = crowded_state(reference, 8, together=True)
    actions = [np.zeros((A, 2), np.float32)] + walk(reference, state, 8, 10)
    _, ts = reference.step(state, actions[0])
    rewards = np.asarray(ts.reward)
    assert rewards[0] == rewards[1] > 0  # every target found by both, half a reward each
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 11


def ring_state(reference: jr.Reference, seed: int, action: np.ndarray) -> tuple[Any, int]:
    """A State whose targets, after one step with ``action``, lie on the rings of radius 0.1 (the view range)
    and 0.02 (the contact range) around the searchers, within their view cones; and how many searcher-target
    pairs then sit where a fused and an unfused sum of squares disagree about the range."""
    import jax.numpy as jnp

    state, _ = reference.reset(jr.prng_key(seed))
    moved, _ = reference.step(state, action)
    pos = np.asarray(moved.searchers.pos, np.float64)
    heading = np.asarray(moved.searchers.heading, np.float64)
    drift = np.asarray(moved.targets.pos, np.float64) - np.asarray(state.targets.pos, np.float64)
    rng = np.random.default_rng(seed)
    owner = np.arange(T) % A
    radius = np.where(np.arange(T) % 4 == 0, 0.02, 0.1)
    angle = heading[owner] + rng.uniform(-1.2, 1.2, T)
    ahead = pos[owner] + radius[:, None] * np.stack([np.cos(angle), np.sin(angle)], 1)
    state = state.replace(targets=state.targets.replace(pos=jnp.asarray((ahead - drift) % 1.0, jnp.float32)))
    moved, _ = reference.step(state, action)
    spos, tpos = np.asarray(moved.searchers.pos), np.asarray(moved.targets.pos)
    disputed = 0
    for s in range(A):
        x = np.abs(spos[s] - tpos)
        d = np.where(x > np.float32(0.5), np.float32(1) - x, x)
        fused = (d[:, 0].astype(np.float64) * d[:, 0] + d[:, 1] * d[:, 1]).astype(np.float32)
        plain = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
        for r in (0.1, 0.02):
            disputed += int(np.sum((fused <= np.float32(r * r)) != (plain <= np.float32(r * r))))
    return state, disputed


def test_range_edges_as_xla_rounds_them() -> None:
    """Targets on the edges of the view and contact ranges: where XLA's fused sum of squares decides who is in
    range (an unfused one would decide otherwise for some of these pairs), the views and finds are jumanji's."""
    reference = ref()
    action = np.zeros((A, 2), np.float32)
    disputed = 0
    for seed in range(40):
        state, n = ring_state(reference, seed, action)
        if n:
            disputed += n
            assert jr.run_from_state(TASK, reference, state, encode(state), [action], shared=SHARED) == 1
    assert disputed >= 3


def _f32(x: Any) -> np.float32:
    return np.float32(x)


def _ray_candidates() -> dict[str, np.ndarray]:
    """The view rays, jnp.linspace(-0.4 pi, 0.4 pi, 128)'s first 127, as XLA's step computes them (``fused``:
    start * (1 - s) + stop * s, s = i / 127 as i * (1 / 127), with stop * s fused) and as an unfused sum would."""
    i = np.arange(127, dtype=np.float32)
    start, stop = -np.float32(0.4) * np.float32(np.pi), np.float32(0.4) * np.float32(np.pi)
    s = i * (np.float32(1) / np.float32(127))
    low = start * (np.float32(1) - s)
    return {"fused": (np.float64(stop) * s + low).astype(np.float32), "unfused": low + stop * s}


def _left_edge(state: Any) -> np.float32:
    """The left edge angle of target 0 in searcher 0's view (common/updates.py angular_width), as XLA computes it
    (glibc's atan2f, which XLA's CPU code agrees with)."""
    import ctypes

    libm = ctypes.CDLL("libm.so.6")
    libm.atan2f.restype = ctypes.c_float
    libm.atan2f.argtypes = [ctypes.c_float, ctypes.c_float]
    two_pi = _f32(2 * np.pi)

    def shortest(a: np.float32, b: np.float32, length: np.float32) -> np.float32:
        x = _f32(b - a)
        x2 = _f32(np.sign(x) * _f32(abs(x) - length))
        return x if abs(x) < abs(x2) else x2

    p, q = np.asarray(state.searchers.pos)[0], np.asarray(state.targets.pos)[0]
    dx, dy = shortest(p[0], q[0], _f32(1)), shortest(p[1], q[1], _f32(1))
    dist = np.sqrt(_f32(np.float64(dx) * dx + _f32(dy * dy)))
    phi = _f32(np.fmod(libm.atan2f(float(dy), float(dx)), two_pi))
    phi = _f32(phi + two_pi) if phi < 0 else phi
    dh = shortest(phi, np.asarray(state.searchers.heading)[0], two_pi)
    return _f32(dh - _f32(libm.atan2f(0.02, float(dist))))


def ray_edge_states(reference: jr.Reference, k: int) -> list[Any]:
    """States whose target 0, one zero-action step on, has its left edge in searcher 0's view between
    the two roundings of ray ``k``, from the lower one on (so that the ray shows it under one and not the other)."""
    import jax.numpy as jnp

    base, _ = reference.reset(jr.prng_key(0))
    cands = _ray_candidates()
    low, high = sorted((cands["fused"][k], cands["unfused"][k]))
    tpos = np.tile(np.array([[0.05, 0.95]], np.float32), (T, 1))
    tpos[0] = [0.35, 0.502]
    action = np.zeros((A, 2), np.float32)

    def start(heading: np.float32) -> Any:
        searchers = base.searchers.replace(pos=jnp.asarray([[0.3, 0.5], [0.8, 0.1]], jnp.float32),
                                           heading=jnp.asarray([heading, 1.0], jnp.float32),
                                           speed=jnp.full((A,), 0.01, jnp.float32))
        return base.replace(searchers=searchers, targets=base.targets.replace(pos=jnp.asarray(tpos)))

    heading = _f32(0.5)
    for _ in range(25):  # the heading whose edge lands on the ray (it moves the searcher a little too)
        left = _left_edge(reference.step(start(heading), action)[0])
        heading = _f32(heading + (np.float64(low) - left))
    out = []
    for d in range(-40, 41):
        state = start(_f32(heading + _f32(d) * np.spacing(heading)))
        if low <= _left_edge(reference.step(state, action)[0]) < high:  # left < ray for one rounding only
            out.append(state)
    return out


def test_view_rays_as_xla_rounds_them() -> None:
    """Ray edges between the fused and unfused roundings of the view rays: the views are jumanji's."""
    reference = ref()
    cands = _ray_candidates()
    ks = [k for k in range(127) if cands["fused"][k] != cands["unfused"][k] and -0.3 < cands["fused"][k] < 1.0]
    states = [state for k in ks[:4] for state in ray_edge_states(reference, k)]
    assert len(states) >= 2
    action = np.zeros((A, 2), np.float32)
    for state in states:
        assert jr.run_from_state(TASK, reference, state, encode(state), [action], shared=SHARED) == 1


def test_last_target_and_time_limit_end_the_episode() -> None:
    reference = ref()
    state = crowded_state(reference, 4, found=T - 1, step=100)
    actions = walk(reference, state, 4, 60)
    n = jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED)
    assert n < 60  # the last target found: a termination
    state = crowded_state(reference, 5, step=397)
    assert jr.run_from_state(TASK, reference, state, encode(state), walk(reference, state, 5, 5), shared=SHARED) == 3


def test_a_planted_difference_is_caught() -> None:
    reference = ref()
    state = crowded_state(reference, 6)
    actions = walk(reference, state, 6, 10)
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) == 10
    blob = encode(state)
    heading_at = 8 + 4 * 2 * A
    turned = jr.patched(blob, heading_at, np.float32(np.asarray(state.searchers.heading)[0] + 1e-6).tobytes())
    jr.check_caught(TASK, reference, state, turned, actions, shared=SHARED)


@pytest.mark.parametrize(("offset", "value", "field"), [
    (8, np.float32(1.5), "searchers.pos"),
    (8 + 4 * 2 * A, np.float32(7.0), "searchers.heading"),
    (8 + 4 * 3 * A, np.float32(0.5), "searchers.speed"),
    (8 + 4 * 4 * A + 4, np.float32(np.nan), "targets.pos"),
    (8 + 4 * 4 * A + 4 * 2 * T, np.float32(-2.0), "targets.vel"),
    (8 + 4 * 4 * A + 4 * 4 * T, np.uint8(2), "targets.found"),
    (8 + 4 * 4 * A + 4 * 4 * T + T + 8, np.int32(401), "step"),
])
def test_bad_state_fields_are_refused(offset: int, value: Any, field: str) -> None:
    good = jr.reset_state(TASK)
    jr.check_refused_blobs(TASK, good, {field: jr.patched(good, offset, value.tobytes()), "step": good[:-1]})


def test_bad_actions_are_refused() -> None:
    """Non-finite actions and integer ones are refused; values past the bounds are jumanji's (clipped)."""
    import rlpool

    pool = rlpool.make(TASK, num_envs=2, seed=0)
    try:
        pool.reset()
        bad = np.zeros((2, A, 2))
        bad[1, 1, 0] = np.nan
        with pytest.raises(ValueError, match="not finite"):
            pool.step(bad)
        with pytest.raises(TypeError):
            pool.step(np.zeros((2, A, 2), np.int64))
        pool.step(np.full((2, A, 2), 5.0))  # clipped to 1, as jumanji's update_state does
    finally:
        pool.close()


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = jr.lockstep(TASK, ref(), seed=seed * 1000, num_envs=4, steps=850, policy=steering, shared=SHARED)
    assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", range(10, 14))
def test_crowded_states_full(seed: int) -> None:
    reference = ref()
    state = crowded_state(reference, seed, found=seed % 7, step=seed * 37 % 390, together=seed % 3 == 0)
    actions = walk(reference, state, seed, 120)
    assert jr.run_from_state(TASK, reference, state, encode(state), actions, shared=SHARED) >= 1


# test_jumanji_family.py's checks, with float actions (its random_masked_actions gives integer ones, which a
# continuous action space refuses) and the shared fields taken once (jumanji gives them once for all agents).


def _trajectory(steps: int, **options: Any) -> list[np.ndarray]:
    import rlpool

    pool = rlpool.make(TASK, num_envs=4, seed=5, **options)
    rng = np.random.default_rng(0)
    out = []
    try:
        obs, _ = pool.reset()
        for _ in range(steps):
            obs, reward, terminated, truncated, _ = pool.step(steering(obs, rng, pool.action_space))
            out += [*(np.asarray(v) for v in obs.values()), reward, terminated, truncated]
    finally:
        pool.close()
    return out


def test_same_trajectories_whatever_the_threads() -> None:
    one = _trajectory(60, num_threads=1)
    two = _trajectory(60, num_threads=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))


def test_saved_state_plays_on_the_same() -> None:
    jr.check_copied_state_plays_on(TASK, warmup=3, steps=5, policy=steering)


@pytest.mark.parametrize("n", [50, pytest.param(1000, marks=pytest.mark.skipif(not FULL, reason="full lane"))])
def test_reset_keys_give_jumanjis_instances(n: int) -> None:
    """The first observation of env i of a pool seeded s is jumanji's reset(PRNGKey(s + i)); a later one split's."""
    jr.check_reset_keys(TASK, ref(), n, 123, SHARED)
