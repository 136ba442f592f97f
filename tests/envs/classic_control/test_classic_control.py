"""Classic-control parity with gymnasium 1.x (the reference implementation).

Every expected value here comes from gymnasium itself: its spaces and registry,
its envs stepped side by side with rlpool's from the same state, and its own
reset distribution. rlpool's engine resets in NextStep mode by default, so each
gymnasium episode end is mirrored by one extra rlpool step that returns the
reset observation, after which gymnasium's fresh state is copied into rlpool.
"""

from __future__ import annotations

import math
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium_parity import assert_space_equal, assert_spec_matches_gymnasium

import rlpool

TASKS = [
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
]

# gymnasium's documented initial-state distributions: each state component is
# uniform on [low, high] (a constant when low == high). Checked against
# gymnasium's own resets in test_initial_state_distribution before use.
RESET_BOUNDS = {
    "CartPole-v1": [(-0.05, 0.05)] * 4,
    "MountainCar-v0": [(-0.6, -0.4), (0.0, 0.0)],
    "MountainCarContinuous-v0": [(-0.6, -0.4), (0.0, 0.0)],
    "Pendulum-v1": [(-math.pi, math.pi), (-1.0, 1.0)],
    "Acrobot-v1": [(-0.1, 0.1)] * 4,
}

# gymnasium's Acrobot stores its reset state as float32, so its first
# observation takes cos/sin of float32 scalars, which numpy evaluates with its
# own float32 SIMD routines (up to ~1.5 ulp error), while rlpool evaluates them
# in double and rounds once. The two differ by 1 float32 ulp in about 0.2% of
# resets, so Acrobot's reset cos/sin entries are allowed 1 ulp; everything else,
# and every observation after a step (float64 state, libm trig on both sides),
# is compared bitwise.
RESET_OBS_MAX_ULP = {"Acrobot-v1": 1}

KS_ALPHA = 1e-3


def gym_make(task_id: str, **kwargs) -> gym.Env:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # CartPole-v0 is "out of date"
        return gym.make(task_id, **kwargs)


def gym_state(g: gym.Env) -> np.ndarray:
    return np.asarray(g.unwrapped.state, dtype=np.float64)


def our_state(env, i: int = 0) -> np.ndarray:
    return np.frombuffer(env.get_state(i), dtype=np.float64)


def copy_state(env, g: gym.Env, i: int = 0) -> None:
    state = gym_state(g).tobytes()
    env.set_state(i, state)
    assert env.get_state(i) == state


def gym_obs_of_state(scratch: gym.Env, state: np.ndarray, reset_dtype: np.dtype) -> np.ndarray:
    """gymnasium's observation of ``state`` right after a reset (state held as gymnasium holds it then)."""
    scratch.state = np.asarray(state).astype(reset_dtype)
    for name in ("_get_obs", "_get_ob"):
        if hasattr(scratch, name):
            return getattr(scratch, name)()
    return np.array(scratch.state, dtype=np.float32)  # CartPole / MountainCar(Continuous) reset


def assert_reset_obs(task_id: str, obs: np.ndarray, expected: np.ndarray, where: str) -> None:
    assert obs.dtype == expected.dtype == np.float32, where
    maxulp = RESET_OBS_MAX_ULP.get(task_id, 0)
    if maxulp == 0:
        assert np.array_equal(obs, expected), (where, obs, expected)
    else:
        # Only the cos/sin entries (the first four) may differ, see RESET_OBS_MAX_ULP.
        np.testing.assert_array_max_ulp(obs[..., :4], expected[..., :4], maxulp=maxulp)
        assert np.array_equal(obs[..., 4:], expected[..., 4:]), (where, obs, expected)


# ---------------------------------------------------------------- policies


def heuristic_action(task_id: str, obs: np.ndarray, rng: np.random.Generator):
    """A policy that reaches the goal (or balances CartPole) so episodes end in both ways."""
    if task_id.startswith("CartPole"):
        return int(obs[2] + 0.5 * obs[3] > 0)
    if task_id == "MountainCar-v0":
        return 2 if obs[1] >= 0 else 0
    if task_id == "MountainCarContinuous-v0":
        return np.array([math.copysign(rng.uniform(0.3, 1.25), obs[1])], dtype=np.float32)
    if task_id == "Acrobot-v1":
        return 2 if obs[5] > 0 else 0
    return random_action(rng, spaces.Box(-2.0, 2.0, (1,), np.float32))  # Pendulum never terminates


def random_action(rng: np.random.Generator, space: spaces.Space):
    if isinstance(space, spaces.Discrete):
        return int(rng.integers(space.n))
    # Float32 in and slightly beyond the bounds (exercises clipping), sometimes
    # exactly on a bound or at zero.
    u = rng.random()
    if u < 0.05:
        return space.low.copy()
    if u < 0.10:
        return space.high.copy()
    if u < 0.12:
        return np.zeros(space.shape, dtype=np.float32)
    return rng.uniform(1.25 * space.low, 1.25 * space.high).astype(np.float32)


def as_batch(action) -> np.ndarray:
    if isinstance(action, int):
        return np.array([action], dtype=np.int64)
    return np.asarray(action, dtype=np.float32)[None]


# ---------------------------------------------------------------- parity harness


def run_parity(task_id: str, *, steps: int, seed: int, eps_cycle=(1.0, 0.0, 0.3), **options) -> dict:
    """Step gymnasium and rlpool side by side; assert every step matches.

    ``options`` go to both ``gym.make`` and ``rlpool.make`` (e.g.
    ``max_episode_steps``, ``goal_velocity``). Episode k acts randomly with
    probability ``eps_cycle[k % len(eps_cycle)]``, else heuristically. Returns
    gymnasium's record of the run (observations, rewards, flags).
    """
    g = gym_make(task_id, **options)
    env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    scratch = gym_make(task_id).unwrapped
    rng = np.random.default_rng(seed)

    gobs, _ = g.reset(seed=seed)
    reset_dtype = np.asarray(g.unwrapped.state).dtype
    env.reset()
    copy_state(env, g)

    record = {"obs": [], "reward": [], "terminated": [], "truncated": [], "episodes": 0}
    episode = 0
    for t in range(steps):
        eps = eps_cycle[episode % len(eps_cycle)]
        if rng.random() < eps:
            action = random_action(rng, g.action_space)
        else:
            action = heuristic_action(task_id, gobs, rng)
        gobs, greward, gterm, gtrunc, _ = g.step(action)
        obs, reward, term, trunc, info = env.step(as_batch(action))
        where = f"{task_id} {options} step {t} episode {episode} action {action!r}"

        assert obs.shape == (1, *g.observation_space.shape) and obs.dtype == np.float32, where
        assert np.array_equal(obs[0], gobs), (where, obs[0], gobs)
        assert reward[0] == greward, (where, reward[0], greward)
        assert bool(term[0]) == gterm, where
        assert bool(trunc[0]) == gtrunc, where
        assert info["elapsed_step"][0] == g.get_wrapper_attr("_elapsed_steps"), where
        # The full float64 state, not just its float32 view, follows gymnasium's.
        assert np.array_equal(our_state(env), gym_state(g)), (where, our_state(env), gym_state(g))

        record["obs"].append(gobs)
        record["reward"].append(greward)
        record["terminated"].append(gterm)
        record["truncated"].append(gtrunc)

        if gterm or gtrunc:
            episode += 1
            gobs, _ = g.reset()
            # NextStep: this step ignores the action and returns rlpool's own reset
            # observation with gymnasium's NEXT_STEP reset-step values.
            obs, reward, term, trunc, info = env.step(as_batch(action))
            where += " (autoreset step)"
            assert reward[0] == 0.0 and not term[0] and not trunc[0], where
            assert info["elapsed_step"][0] == g.get_wrapper_attr("_elapsed_steps") == 0, where
            expected = gym_obs_of_state(scratch, our_state(env), reset_dtype)
            assert_reset_obs(task_id, obs[0], expected, where)
            copy_state(env, g)
    record["episodes"] = episode
    env.close()
    return record


# ---------------------------------------------------------------- spaces and registry


@pytest.mark.parametrize("task_id", TASKS)
def test_spaces_and_registry_match_gymnasium(task_id):
    g = gym_make(task_id)
    spec, ref = assert_spec_matches_gymnasium(task_id, g)
    assert spec.config["max_episode_steps"] == ref.max_episode_steps

    env = rlpool.make(task_id, num_envs=3)
    assert_space_equal(env.single_observation_space, g.observation_space)
    assert_space_equal(env.single_action_space, g.action_space)
    ref_vec = gym.vector.SyncVectorEnv([lambda: gym_make(task_id)] * 3)
    assert_space_equal(env.observation_space, ref_vec.observation_space)
    if isinstance(g.action_space, spaces.Box):
        assert_space_equal(env.action_space, ref_vec.action_space)
    else:
        assert env.action_space == ref_vec.action_space  # MultiDiscrete([n] * 3)
    ref_vec.close()
    env.close()


# ---------------------------------------------------------------- step-by-step parity

# (task, options, steps): default limits and shorter overrides, so runs cross
# many terminations and time-limit truncations.
PARITY_CASES = [
    ("CartPole-v0", {}, 3000),
    ("CartPole-v1", {}, 3000),
    ("CartPole-v1", {"max_episode_steps": 60}, 2000),
    ("MountainCar-v0", {}, 3000),
    ("MountainCar-v0", {"max_episode_steps": 150}, 2000),
    ("MountainCarContinuous-v0", {}, 3000),
    ("MountainCarContinuous-v0", {"max_episode_steps": 150}, 2000),
    ("Pendulum-v1", {}, 2000),
    ("Pendulum-v1", {"max_episode_steps": 50}, 1000),
    ("Acrobot-v1", {}, 3000),
    ("Acrobot-v1", {"max_episode_steps": 120}, 2000),
]


@pytest.mark.parametrize(
    ("task_id", "options", "steps"),
    PARITY_CASES,
    ids=[f"{t}-{o.get('max_episode_steps', 'default')}" for t, o, _ in PARITY_CASES],
)
def test_step_parity(task_id, options, steps):
    record = run_parity(task_id, steps=steps, seed=1234, **options)
    terminated = np.array(record["terminated"])
    truncated = np.array(record["truncated"])
    # The run must have crossed episode ends of both kinds (Pendulum only truncates).
    assert truncated.sum() >= 2
    if task_id != "Pendulum-v1":
        assert terminated.sum() >= 2
    assert record["episodes"] >= 4


# ---------------------------------------------------------------- env options


def test_cartpole_sutton_barto_reward():
    record = run_parity("CartPole-v1", steps=1500, seed=5, max_episode_steps=100, sutton_barto_reward=True)
    rewards = np.array(record["reward"])
    assert np.any(rewards == -1.0) and np.any(rewards == 0.0)  # gymnasium's rewards, both kinds seen
    assert rlpool.make_spec("CartPole-v1", sutton_barto_reward=True).config["sutton_barto_reward"] is True


@pytest.mark.parametrize(
    ("task_id", "goal_velocity", "goal_position"),
    [
        ("MountainCar-v0", 0.04, 0.5),
        ("MountainCar-v0", -0.01, 0.5),
        ("MountainCarContinuous-v0", 0.05, 0.45),
        ("MountainCarContinuous-v0", 0.06, 0.45),
    ],
)
def test_mountain_car_goal_velocity(task_id, goal_velocity, goal_position):
    record = run_parity(task_id, steps=1500, seed=9, max_episode_steps=200, goal_velocity=goal_velocity)
    assert rlpool.make_spec(task_id, goal_velocity=goal_velocity).config["goal_velocity"] == goal_velocity
    obs = np.array(record["obs"])
    terminated = np.array(record["terminated"])
    assert terminated.any()
    if goal_velocity > 0:
        # The option mattered: gymnasium passed the goal too slowly at least once.
        assert np.any((obs[:, 0] >= goal_position) & ~terminated)


@pytest.mark.parametrize("g_value", [9.81, 2.5, 15.0])
def test_pendulum_gravity(g_value):
    run_parity("Pendulum-v1", steps=600, seed=3, max_episode_steps=100, g=g_value)
    assert rlpool.make_spec("Pendulum-v1", g=g_value).config["g"] == g_value


# ---------------------------------------------------------------- initial-state distribution


def ks_two_sample(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.sort(a), np.sort(b)
    x = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, x, side="right") / a.size
    cdf_b = np.searchsorted(b, x, side="right") / b.size
    return float(np.max(np.abs(cdf_a - cdf_b)))


def ks_uniform(a: np.ndarray, low: float, high: float) -> float:
    a = np.sort((a - low) / (high - low))
    n = a.size
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - a), np.max(a - (i - 1) / n)))


def ks_critical(n: int, m: int | None = None) -> float:
    c = math.sqrt(-0.5 * math.log(KS_ALPHA / 2))
    return c * (math.sqrt(1 / n) if m is None else math.sqrt((n + m) / (n * m)))


@pytest.mark.parametrize("task_id", sorted(RESET_BOUNDS))
def test_initial_state_distribution(task_id):
    n_envs, n_samples = 1000, 2000
    # gymnasium's own resets
    g = gym_make(task_id)
    g.reset(seed=2024)
    ref = [gym_state(g)]
    ref_dtype = np.asarray(g.unwrapped.state).dtype
    for _ in range(n_samples - 1):
        g.reset()
        ref.append(gym_state(g))
    ref = np.array(ref)

    env = rlpool.make(task_id, num_envs=n_envs)
    scratch = gym_make(task_id).unwrapped
    ours, batches = [], []
    for seed in (11, 11 + n_envs):
        obs, info = env.reset(seed=seed)
        states = np.array([our_state(env, i) for i in range(n_envs)])
        expected_obs = np.array([gym_obs_of_state(scratch, s, ref_dtype) for s in states])
        assert_reset_obs(task_id, obs, expected_obs, f"{task_id} reset(seed={seed})")
        assert np.all(info["elapsed_step"] == 0)
        ours.append(states)
        batches.append(obs.copy())
    env.close()
    ours = np.concatenate(ours)
    assert ours.shape == ref.shape == (n_samples, len(RESET_BOUNDS[task_id]))
    assert not np.array_equal(batches[0], batches[1])
    assert len(np.unique(ours, axis=0)) == n_samples  # every env draws its own state
    if np.array_equal(ref, ref.astype(np.float32)):  # gymnasium rounds (Acrobot) -> so must rlpool
        assert np.array_equal(ours, ours.astype(np.float32))

    for k, (low, high) in enumerate(RESET_BOUNDS[task_id]):
        r, o = ref[:, k], ours[:, k]
        if low == high:
            assert np.all(r == low) and np.all(o == low), (task_id, k)
            continue
        # float32 rounding of the bounds, where gymnasium rounds the state
        lo = np.float32(low) if ref_dtype == np.float32 else low
        hi = np.float32(high) if ref_dtype == np.float32 else high
        width = high - low
        assert np.all((r >= lo) & (r <= hi)), (task_id, k, "gymnasium itself outside documented bounds")
        assert np.all((o >= lo) & (o <= hi)), (task_id, k, o.min(), o.max())
        # 2000 uniform samples come within 1% of each end with probability 1 - 2e-9
        assert o.min() < low + 0.01 * width and o.max() > high - 0.01 * width, (task_id, k, o.min(), o.max())
        d_ref = ks_two_sample(o, r)
        assert d_ref < ks_critical(o.size, r.size), (task_id, k, d_ref)
        d_uni = ks_uniform(o, low, high)
        assert d_uni < ks_critical(o.size), (task_id, k, d_uni)

    # Components are drawn independently (|r| < 4 standard errors).
    varying = [k for k, (low, high) in enumerate(RESET_BOUNDS[task_id]) if low != high]
    if len(varying) > 1:
        corr = np.corrcoef(ours[:, varying].T)
        off = corr[~np.eye(len(varying), dtype=bool)]
        assert np.all(np.abs(off) < 4 / math.sqrt(n_samples)), (task_id, corr)


# ---------------------------------------------------------------- determinism


def rollout(task_id: str, *, num_threads: int, seed: int, reset_seed: int | None, steps: int = 150):
    n = 1024  # enough work per step that the pool hands it to its worker threads
    env = rlpool.make(task_id, num_envs=n, num_threads=num_threads, seed=seed, max_episode_steps=40)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=reset_seed)
    out = [obs.copy()]
    for _ in range(steps):
        if isinstance(env.single_action_space, spaces.Discrete):
            actions = rng.integers(env.single_action_space.n, size=n)
        else:
            low, high = env.single_action_space.low, env.single_action_space.high
            actions = rng.uniform(1.25 * low, 1.25 * high, size=(n, *low.shape)).astype(np.float32)
        obs, reward, term, trunc, info = env.step(actions)
        out += [obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["elapsed_step"].copy()]
    env.close()
    return out


def assert_same_rollout(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)


@pytest.mark.parametrize("task_id", TASKS)
def test_determinism(task_id):
    one = rollout(task_id, num_threads=1, seed=3, reset_seed=None)
    two = rollout(task_id, num_threads=2, seed=3, reset_seed=None)
    assert_same_rollout(one, two)
    # reset(seed=s) reproduces, whatever the pool was built with, and equals building with seed=s
    again = rollout(task_id, num_threads=2, seed=99, reset_seed=3)
    assert_same_rollout(one, again)
    other = rollout(task_id, num_threads=1, seed=3, reset_seed=4)
    assert not np.array_equal(one[0], other[0])


@pytest.mark.parametrize("task_id", TASKS)
def test_reset_seed_reproduces_mid_run(task_id):
    env = rlpool.make(task_id, num_envs=4, seed=0)
    env.single_action_space.seed(1)
    first, _ = env.reset(seed=77)
    first = first.copy()
    for _ in range(30):
        env.step(np.array([env.single_action_space.sample() for _ in range(4)]))
    obs, _ = env.reset(seed=77)
    assert np.array_equal(obs, first)
    # a gymnasium-style list of seeds gives env i the seed 77 + i, like seed=77
    obs, _ = env.reset(seed=[77 + i for i in range(4)])
    assert np.array_equal(obs, first)
    env.close()
