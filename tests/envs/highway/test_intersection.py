"""The Intersection scenarios (Intersection-v0/v1/v2, IntersectionMultiAgent-v0/v1/v2 and highway-env's spellings)
against highway-env 1.12.1.

Parity: highway-env's ``np_random`` (which its RegulatedRoad shares) is replaced by a Python copy of rlpool's
generator started from the words of rlpool's reset, so both draw the same numbers; whole episodes of the same
actions must give the same observations, rewards, flags and info within 1e-5 (in practice exactly). The
intersection draws ``np_random.choice(range(4), size=2, replace=False)``, which the shared ``XoshiroGenerator``
lacks: ``Generator`` below adds it as numpy does it (Floyd's algorithm, then a shuffle of the picks), and the C++
draws the same integers.

Transcendental functions: numpy's float64 arcsin/arctan/tan/arctan2/... run SIMD kernels that differ from the C
library's (which the C++ port calls) by an ulp on some inputs, and which inputs depends on the CPU. A nearly
stopped ego amplifies such an ulp through its steering (``arcsin(LENGTH / 2 / not_zero(speed) * ...)``): with
numpy's own kernels 3 of 60 random multi-agent episodes drifted past 1e-5 (to 6e-5) on the machine this was
written on. So the comparisons compute highway-env's scalar transcendental functions with the C library
(``highway_libm.libm_numpy``, the ``libm`` fixture), and the episodes agree exactly; one comparison keeps
numpy's own kernels (``test_episode_matches_highway_env_with_numpys_own_kernels``).

Multi-agent ids: rlpool gives each agent its row ([agents, ...] observations, MultiDiscrete actions, per-agent
reward and flags). highway-env's -multi-agent-v1/-v2 (MultiAgentWrapper) reward and terminate each agent
(info["agents_rewards"], info["agents_terminated"]); -v0 gives every agent the shared reward and termination.
rlpool's rule for an agent that finishes first (reward 0, flag kept, action ignored) is compared by giving
highway-env IDLE for that agent, which is what ignoring the action amounts to for an MDPVehicle.

The default run compares a sample; ``RLPOOL_FULL_REFERENCE=1`` runs every id with more seeds and options.
"""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest
from highway_libm import libm_numpy
from highway_reference import (
    Comparator,
    EpisodeMismatch,
    import_highway_env,
    parse_state,
    reference,
    reference_config,
    with_words,
)
from lane import FULL
from xoshiro import XoshiroGenerator

import rlpool
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

CANONICAL = ["Intersection-v0", "Intersection-v1", "Intersection-v2", "IntersectionMultiAgent-v0",
             "IntersectionMultiAgent-v1", "IntersectionMultiAgent-v2"]
SPELLINGS = {task_id: HIGHWAY_ENV_IDS.get(task_id, "") for task_id in CANONICAL}
IDS = CANONICAL + list(SPELLINGS.values())
ENV_TYPES = {"Intersection-v0": "IntersectionEnv", "Intersection-v1": "ContinuousIntersectionEnv",
             "Intersection-v2": "IntersectionEnv", "IntersectionMultiAgent-v0": "MultiAgentIntersectionEnv",
             "IntersectionMultiAgent-v1": "MultiAgentIntersectionEnv",
             "IntersectionMultiAgent-v2": "MultiAgentIntersectionEnv"}
IDLE = 1  # DiscreteMetaAction's IDLE (ACTIONS_LONGI {0: SLOWER, 1: IDLE, 2: FASTER})
_MISSING = object()


@pytest.fixture
def libm():
    """highway-env's scalar transcendental functions computed by the C library, as the C++ port's (highway_libm)."""
    import_highway_env()
    with libm_numpy():
        yield


@pytest.fixture(autouse=True, scope="module")
def _behavior_classes_restored():
    """highway-env's IntersectionEnv sets DISTANCE_WANTED, COMFORT_ACC_MAX and COMFORT_ACC_MIN on the class of its
    other vehicles for the whole process: put them back, so that the scenarios tested after these see
    highway-env's own defaults."""
    if importlib.util.find_spec("highway_env") is None:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from highway_env.vehicle import behavior
    classes = [behavior.IDMVehicle, behavior.LinearVehicle, behavior.AggressiveVehicle, behavior.DefensiveVehicle]
    names = ("DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN")
    saved = {(cls, name): cls.__dict__.get(name, _MISSING) for cls in classes for name in names}
    yield
    for (cls, name), value in saved.items():
        if value is _MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, value)


class Generator(XoshiroGenerator):
    """XoshiroGenerator plus numpy's ``choice(a, size, replace=False)``: Floyd's algorithm (an integer in
    [0, j] for j = n - size .. n - 1, j itself where the pick repeats), then the picks shuffled (an integer in
    [0, i] for i = size - 1 .. 1), each integer one ``Rng::integer(j + 1)`` -- as numpy's Generator draws them
    for a small population (checked against numpy in test_choice_without_replacement_is_numpys)."""

    def choice(self, a, size=None, replace=True, p=None, shuffle=True):  # noqa: ANN001, ANN201
        assert p is None, "weighted choice is not reproduced"
        if replace:
            return super().choice(a, size)
        population = np.arange(a) if np.ndim(a) == 0 else np.asarray(a)
        n, k = len(population), int(size)
        picks: list[int] = []
        for j in range(n - k, n):
            v = self._integer(j + 1)
            picks.append(j if v in picks else v)
        if shuffle:
            for i in reversed(range(1, k)):
                j = self._integer(i + 1)
                picks[i], picks[j] = picks[j], picks[i]
        return population[np.asarray(picks, dtype=np.int64)]


def use_words(ref, words) -> None:  # noqa: ANN001
    """highway-env's env draws what an rlpool env started from ``words`` draws (from its next reset on)."""
    ref._np_random = Generator(words)


def random_policy(seed: int, continuous: bool = False):  # noqa: ANN201
    rng = np.random.default_rng(seed)
    if continuous:  # throttle anywhere, gentle steering (the car stays near its lane for a while)
        return lambda step, agents: np.array([rng.uniform(-1, 1), rng.uniform(-0.3, 0.3)], np.float32)
    return lambda step, agents: rng.integers(0, 3, agents) if agents else int(rng.integers(3))


def faster_policy(seed: int, continuous: bool = False):  # noqa: ANN201
    """Mostly FASTER (full throttle, straight): the egos cross the intersection, to arrive or to crash."""
    rng = np.random.default_rng(seed)
    if continuous:
        return lambda step, agents: np.array([rng.uniform(0.5, 1), rng.uniform(-0.05, 0.05)], np.float32)
    return lambda step, agents: (rng.choice(3, agents, p=[0.1, 0.2, 0.7]) if agents
                                 else int(rng.choice(3, p=[0.1, 0.2, 0.7])))


POLICIES = {"random": random_policy, "faster": faster_policy}


# --------------------------------------------------------------------------- the episode comparison


def _compare_info(cmp: Comparator, where: str, rl_info: dict, ref_info: dict, after_reset: bool) -> None:
    cmp.close(f"{where} info['speed']", rl_info["speed"][0], ref_info["speed"])
    cmp.equal(f"{where} info['crashed']", rl_info["crashed"][0], bool(ref_info["crashed"]))
    for name, value in ref_info["rewards"].items():
        cmp.close(f"{where} info[{name!r}]", rl_info[name][0], float(value))  # highway-env: info["rewards"][name]
    cmp.close(f"{where} info['agents_rewards']", rl_info["agents_rewards"][0],
              np.asarray(ref_info["agents_rewards"], np.float64))
    cmp.equal(f"{where} info['agents_terminated']", rl_info["agents_terminated"][0],
              np.asarray(ref_info["agents_terminated"], bool))
    if not after_reset:  # highway-env's reset info samples the action space with a generator of its own
        theirs = np.asarray(ref_info["action"], np.float64)
        cmp.close(f"{where} info['action']", rl_info["action"][0], theirs.reshape(np.shape(rl_info["action"][0])))


def run_episode(env, ref, policy, label: str, tol: float = 1e-5) -> Comparator:  # noqa: ANN001
    """One whole episode of rlpool env 0 (num_envs=1, just made) and highway-env's ``ref`` from the same draws.

    ``policy(step, agents)`` gives the action; an agent whose rlpool episode is over gets IDLE on both sides.
    Raises EpisodeMismatch at the first difference beyond ``tol``; returns the comparator.
    """
    cmp = Comparator(tol, label)
    agents = env.spec.arrays.num_agents
    wrapper = bool(env.spec.config.get("multi_agent_wrapper", False))
    rl_obs, rl_info = env.reset()
    _, words, _, _ = parse_state(env.get_state(0))
    use_words(ref, words)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, ref_info = ref.reset()
    cmp.close("reset obs", rl_obs[0], np.stack(ref_obs) if agents else ref_obs)
    _compare_info(cmp, "reset", rl_info, ref_info, True)
    done = np.zeros(max(agents, 1), bool)
    for step in range(1, 1000):
        action = policy(step, agents)
        if agents:
            action = np.where(done, IDLE, action)
        rl_obs, rl_reward, rl_term, rl_trunc, rl_info = env.step(np.asarray(action)[None])
        ref_action = tuple(int(a) for a in action) if agents else action
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref_obs, ref_reward, ref_term, ref_trunc, ref_info = ref.step(ref_action)
        where = f"step {step}"
        cmp.close(f"{where} obs", rl_obs[0], np.stack(ref_obs) if agents else ref_obs)
        if agents:
            # MultiAgentWrapper's per-agent results, else highway-env's shared ones for every agent.
            reward = np.asarray(ref_info["agents_rewards"], np.float64) if wrapper else np.full(agents, ref_reward)
            term = np.asarray(ref_info["agents_terminated"], bool) if wrapper else np.full(agents, bool(ref_term))
            cmp.close(f"{where} reward", rl_reward[0], np.where(done, 0.0, reward))
            cmp.equal(f"{where} terminated", rl_term[0], done | term)
            cmp.equal(f"{where} truncated", rl_trunc[0], np.full(agents, bool(ref_trunc)))
        else:
            cmp.close(f"{where} reward", rl_reward[0], float(ref_reward))
            cmp.equal(f"{where} terminated", bool(rl_term[0]), bool(ref_term))
            cmp.equal(f"{where} truncated", bool(rl_trunc[0]), bool(ref_trunc))
        _compare_info(cmp, where, rl_info, ref_info, False)
        done |= np.asarray(rl_term[0]) | np.asarray(rl_trunc[0])
        if done.all():
            return cmp
    raise AssertionError(f"{label}: the episode did not end")


# --------------------------------------------------------------------------- registration and spaces


def test_ids_are_registered_as_highway_envs_scenarios():
    for task_id in CANONICAL:
        lower = SPELLINGS[task_id]
        assert lower == task_id.replace("IntersectionMultiAgent", "intersection-multi-agent").replace(
            "Intersection", "intersection")
        for name in (task_id, lower):
            assert name in rlpool.list_all_envs()
            assert HIGHWAY_ENV_IDS[name] == lower
            assert rlpool.registry.task(name).env_type == ENV_TYPES[task_id]
        assert rlpool.make_spec(task_id).config == rlpool.make_spec(lower).config


def test_the_choice_without_replacement_is_numpys():
    """Generator.choice(..., replace=False) picks what numpy's Generator picks from the same integers."""

    class Replay(Generator):  # integers taken from a numpy Generator, as Rng::integer would give them
        def __init__(self, rng: np.random.Generator) -> None:
            super().__init__((1, 2, 3, 4))
            self.rng = rng

        def _integer(self, n: int) -> int:
            return int(self.rng.integers(0, n))

    for seed in range(300):
        ours = Replay(np.random.default_rng(seed)).choice(range(4), size=2, replace=False)
        theirs = np.random.default_rng(seed).choice(range(4), size=2, replace=False)
        assert list(ours) == list(theirs), seed


@pytest.mark.parametrize("task_id", CANONICAL if FULL else ["Intersection-v0", "Intersection-v1",
                                                            "IntersectionMultiAgent-v1"])
def test_spaces_and_config_are_highway_envs(task_id):
    ref = reference(SPELLINGS[task_id])
    spec = rlpool.make_spec(task_id)
    c, config = ref.config, spec.config
    agents = spec.arrays.num_agents
    if agents:
        assert agents == c["controlled_vehicles"] == len(ref.observation_space.spaces) == 2
        for space in ref.observation_space.spaces:
            assert spec.observation_space.shape == (agents, *space.shape)
            assert spec.observation_space.dtype == space.dtype
            assert np.array_equal(spec.observation_space.low[0], space.low)
            assert np.array_equal(spec.observation_space.high[0], space.high)
        assert list(spec.action_space.nvec) == [s.n for s in ref.action_space.spaces]
        obs_c, act_c = c["observation"]["observation_config"], c["action"]["action_config"]
        assert config["observation_type"] == c["observation"]["type"] == "MultiAgentObservation"
        assert config["action_type"] == c["action"]["type"] == "MultiAgentAction"
        assert config["observation_config_type"] == obs_c["type"]
        assert config["action_config_type"] == act_c["type"]
    else:
        assert spec.observation_space == ref.observation_space
        assert spec.action_space == ref.action_space
        obs_c, act_c = c["observation"], c["action"]
        assert config["observation_type"] == obs_c["type"]
        assert config["action_type"] == act_c["type"]
    for key in ("duration", "destination", "controlled_vehicles", "initial_vehicle_count", "spawn_probability",
                "collision_reward", "high_speed_reward", "arrived_reward", "normalize_reward", "offroad_terminal",
                "simulation_frequency", "policy_frequency", "neighbour_vehicles_connected_lanes", "screen_width",
                "screen_height", "scaling", "other_vehicles_type"):
        assert config[key] == c[key], key
    assert [config["reward_speed_low"], config["reward_speed_high"]] == c["reward_speed_range"]
    assert [config["centering_position_x"], config["centering_position_y"]] == c["centering_position"]
    assert config["observation_vehicles_count"] == obs_c["vehicles_count"]
    assert config["observation_features"].split(",") == obs_c["features"]
    assert config["observation_features_range"] == ",".join(
        f"{k}:{float(lo)!r}:{float(hi)!r}" for k, (lo, hi) in obs_c["features_range"].items())
    assert config["observation_absolute"] == obs_c["absolute"]
    assert config["observation_observe_intentions"] == obs_c["observe_intentions"]
    assert config["action_longitudinal"] == act_c["longitudinal"]
    assert config["action_lateral"] == act_c["lateral"]
    assert [float(v) for v in config["action_target_speeds"].split(",")] == act_c["target_speeds"]
    if task_id == "Intersection-v1":
        assert config["action_dynamical"] == act_c["dynamical"] is True
        assert [float(v) for v in config["action_steering_range"].split(",")] == list(act_c["steering_range"])
    assert spec.max_episode_steps == c["duration"] == 13
    assert config.get("multi_agent_wrapper", False) == task_id.endswith(("MultiAgent-v1", "MultiAgent-v2"))


def test_spaces_are_envpools():
    """EnvPool 1.2.7's make_spec of these ids (its multi-agent ids: max_num_players 2, one (15, 7) view each)."""
    expected = {"Intersection-v0": ((15, 7), 3), "Intersection-v1": ((5, 8), (2,)), "Intersection-v2": ((15, 7), 3),
                "IntersectionMultiAgent-v0": ((2, 15, 7), [3, 3]), "IntersectionMultiAgent-v1": ((2, 15, 7), [3, 3]),
                "IntersectionMultiAgent-v2": ((2, 15, 7), [3, 3])}
    for task_id, (obs_shape, action) in expected.items():
        spec = rlpool.make_spec(task_id)
        assert spec.observation_space.shape == obs_shape
        assert spec.observation_space.dtype == np.float32
        if isinstance(action, int):
            assert spec.action_space.n == action
        elif isinstance(action, tuple):
            assert spec.action_space.shape == action and spec.action_space.dtype == np.float32
            assert (spec.action_space.low == -1).all() and (spec.action_space.high == 1).all()
        else:
            assert list(spec.action_space.nvec) == action
        assert spec.max_episode_steps == 13
        assert spec.config["spawn_probability"] == 0.6 and spec.config["screen_height"] == 600
        assert spec.config["neighbour_vehicles_connected_lanes"] == task_id.endswith("-v2")


# --------------------------------------------------------------------------- parity

SAMPLE = [("Intersection-v0", "random"), ("Intersection-v1", "random"), ("Intersection-v2", "faster"),
          ("IntersectionMultiAgent-v0", "random"), ("IntersectionMultiAgent-v1", "faster")]
FULL_CASES = [(t, p) for t in IDS for p in POLICIES]


@pytest.mark.parametrize(("task_id", "policy"), FULL_CASES if FULL else SAMPLE)
@pytest.mark.usefixtures("libm")
def test_episodes_match_highway_env(task_id, policy):
    """FULL: 3 episodes of each id and policy (1, from another seed, for highway-env's spelling of the id)."""
    spelled = task_id not in CANONICAL
    episodes = (1 if spelled else 3) if FULL else 1
    worst, values = 0.0, 0
    for k in range(episodes):
        seed = 2000 + 31 * k + (10_000 if spelled else 0)
        env = rlpool.make(task_id, num_envs=1, seed=seed)
        ref = reference(HIGHWAY_ENV_IDS[task_id])
        act = POLICIES[policy](seed, continuous=rlpool.make_spec(task_id).action_space.dtype == np.float32)
        cmp = run_episode(env, ref, act, f"{task_id} {policy} seed={seed}")
        worst, values = max(worst, cmp.max_error), values + cmp.values
        env.close()
    print(f"{task_id} {policy}: {episodes} episodes, {values} values, max |rlpool - highway-env| = {worst:.3g}")


OPTIONS = [
    ("Intersection-v0", {"destination": ""}),  # a random destination per vehicle: one more draw
    ("IntersectionMultiAgent-v1", {"destination": ""}),
    ("Intersection-v0", {"other_vehicles_type": "highway_env.vehicle.behavior.LinearVehicle"}),
    ("Intersection-v0", {"other_vehicles_type": "highway_env.vehicle.behavior.AggressiveVehicle",
                         "normalize_reward": True, "spawn_probability": 1.0}),
    ("Intersection-v0", {"policy_frequency": 3, "simulation_frequency": 12, "initial_vehicle_count": 14}),
    ("Intersection-v1", {"offroad_terminal": True}),
    ("IntersectionMultiAgent-v2", {"controlled_vehicles": 4, "initial_vehicle_count": 3}),
    ("Intersection-v2", {"observation_type": "TimeToCollision"}),
]


@pytest.mark.parametrize(("task_id", "options"), OPTIONS if FULL else OPTIONS[:1])
@pytest.mark.usefixtures("libm")
def test_episodes_with_other_options_match_highway_env(task_id, options):
    continuous = rlpool.make_spec(task_id).action_space.dtype == np.float32
    for k in range(3 if FULL else 1):
        seed = 3000 + 7 * k
        env = rlpool.make(task_id, num_envs=1, seed=seed, **options)
        ref = reference(HIGHWAY_ENV_IDS[task_id], options)
        run_episode(env, ref, faster_policy(seed, continuous), f"{task_id} {options} seed={seed}")


def test_episode_matches_highway_env_with_numpys_own_kernels():
    """Without the libm fixture: numpy's SIMD transcendental functions round an ulp differently from the C
    library's on some inputs, which stays far below the tolerance here (no ego comes to a near stop in these
    episodes)."""
    for task_id, seed in [("Intersection-v0", 2000), ("IntersectionMultiAgent-v1", 2000)]:
        env = rlpool.make(task_id, num_envs=1, seed=seed)
        ref = reference(HIGHWAY_ENV_IDS[task_id])
        cmp = run_episode(env, ref, faster_policy(seed), f"{task_id} (numpy's kernels) seed={seed}")
        assert cmp.max_error < 1e-6


def test_an_agent_that_finishes_first_gets_reward_0_and_keeps_its_flag():
    """IntersectionMultiAgent-v1: one agent arrives (or crashes) before the other; its later actions are
    ignored, its reward is 0 and its flag stays set, while the episode goes on for the other."""
    task_id, seed = "IntersectionMultiAgent-v1", 6
    env = rlpool.make(task_id, num_envs=2, seed=seed)
    env.reset()
    env.set_state(1, env.get_state(0))
    policy = faster_policy(seed)
    early = None
    for step in range(1, 14):
        action = policy(step, 2)
        # Env 1 gives an agent whose episode is over other actions than env 0 does: no difference.
        other = action if early is None else np.where(np.arange(2) == early, 0, action)
        obs, reward, term, trunc, info = env.step(np.stack([action, other]))
        assert np.array_equal(obs[0], obs[1]) and np.array_equal(reward[0], reward[1])
        assert np.array_equal(term[0], term[1]) and np.array_equal(info["agents_rewards"][0], info["agents_rewards"][1])
        if early is not None:
            assert term[0, early] and reward[0, early] == 0.0
        elif term[0].sum() == 1 and not trunc[0].any():
            early = int(np.flatnonzero(term[0])[0])
        if (term[0] | trunc[0]).all():
            break
    assert early is not None, "this seed no longer has an agent finishing first: pick another"


@pytest.mark.usefixtures("libm")
def test_the_comparison_fails_on_a_perturbed_reference():
    """The parity check has teeth: a nudged observation, or a vehicle moved in highway-env's world, is caught."""
    import_highway_env()
    env = rlpool.make("Intersection-v0", num_envs=1, seed=9)
    ref = reference("intersection-v0")
    original_step = ref.step
    count = {"n": 0}

    def nudged_step(action):  # noqa: ANN001, ANN202
        obs, reward, term, trunc, info = original_step(action)
        count["n"] += 1
        if count["n"] == 2:
            obs = obs.copy()
            obs[0, 1] += 1e-4
        return obs, reward, term, trunc, info

    ref.step = nudged_step
    with pytest.raises(EpisodeMismatch, match=r"step 2 obs differs by 0.0001"):
        run_episode(env, ref, lambda step, agents: IDLE, "nudged observation")

    env = rlpool.make("IntersectionMultiAgent-v1", num_envs=1, seed=9)
    ref = reference("intersection-multi-agent-v1")
    original_reset = ref.reset

    def moved_reset(**kwargs):  # noqa: ANN003, ANN202
        result = original_reset(**kwargs)
        ref.road.vehicles[-1].position[0] += 0.01  # the second ego
        return result

    ref.reset = moved_reset
    with pytest.raises(EpisodeMismatch, match=r"step 1 obs differs"):
        run_episode(env, ref, lambda step, agents: np.full(agents, IDLE), "moved vehicle")


# --------------------------------------------------------------------------- determinism and states


def _run(task_id: str, steps: int, seed: int, **kwargs) -> list:
    env = rlpool.make(task_id, num_envs=4, seed=11, **kwargs)
    shape = (4, env.spec.arrays.num_agents) if env.spec.arrays.num_agents else (4,)
    rng = np.random.default_rng(seed)
    out = [env.reset()[0].copy()]
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(rng.integers(0, 3, shape))
        out.append((obs.copy(), r.copy(), term.copy(), trunc.copy(), info["agents_rewards"].copy()))
    return out


@pytest.mark.parametrize("task_id", ["Intersection-v0", "IntersectionMultiAgent-v1"])
def test_same_seed_same_episodes_whatever_the_threads(task_id):
    a = _run(task_id, 30, 0, num_threads=1)
    b = _run(task_id, 30, 0, num_threads=2)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x if isinstance(x, tuple) else (x,), y if isinstance(y, tuple) else (y,), strict=True):
            assert np.array_equal(u, v)
    c = rlpool.make(task_id, num_envs=4, seed=12)
    assert not np.array_equal(a[0], c.reset()[0])


def test_saved_state_replays_a_multi_agent_episode():
    """States saved before and after an agent finished first replay the episode (the finished agent's flag
    and reward 0 included). Seed 6: agent 1 arrives at step 8, agent 0 at step 9."""
    env = rlpool.make("IntersectionMultiAgent-v1", num_envs=2, seed=6)
    env.reset()
    for _ in range(4):
        env.step(np.array([[2, 2], [1, 1]]))
    before = env.get_state(0)
    assert parse_state(before)[2] == 4
    later = [[2, 0], [1, 2], [2, 2], [0, 1]]
    first = [env.step(np.array([a, [1, 1]])) for a in later]
    assert first[-1][2][0].tolist() == [False, True]
    after = env.get_state(0)
    first.append(env.step(np.array([[2, 0], [1, 1]])))
    assert first[-1][2][0].tolist() == [True, True]
    # A fresh pool: the engine's own step count (its time limit) is not part of a state.
    other = rlpool.make("IntersectionMultiAgent-v1", num_envs=2, seed=99)
    other.reset()
    other.set_state(0, before)
    other.set_state(1, before)
    second = [other.step(np.array([a, a])) for a in later]
    assert other.get_state(0) == other.get_state(1) == after
    second.append(other.step(np.array([[2, 0], [2, 2]])))  # agent 1 is done: its action is ignored
    third = rlpool.make("IntersectionMultiAgent-v1", num_envs=1, seed=98)
    third.reset()
    third.set_state(0, after)
    last = third.step(np.array([[2, 1]]))
    for x, y in zip(first + [first[-1]], second + [last], strict=True):
        for k in range(4):
            assert np.array_equal(x[k][0], y[k][0]) and np.array_equal(x[k][0], y[k][-1])
        assert np.array_equal(x[4]["agents_rewards"][0], y[4]["agents_rewards"][-1])
    assert last[1][0].tolist() == [1.0, 0.0]


@pytest.mark.usefixtures("libm")
def test_saved_state_starts_highway_envs_episode():
    """Words handed in through a state start the episode highway-env starts from the same words."""
    env = rlpool.make("intersection-multi-agent-v2", num_envs=1, seed=0)
    env.reset()
    words = (1, 2, 3, 0x9E3779B97F4A7C15)
    env.set_state(0, with_words(env.get_state(0), words))
    obs, *_ = env.step(np.array([[2, 1]]))
    ref = reference("intersection-multi-agent-v2")
    use_words(ref, words)
    ref.reset()
    ref_obs, *_ = ref.step((2, 1))
    assert np.array_equal(obs[0], np.stack(ref_obs))


# --------------------------------------------------------------------------- bad input


def test_bad_actions_are_refused():
    env = rlpool.make("IntersectionMultiAgent-v0", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([[1, 3], [1, 1]]))
    with pytest.raises(ValueError):
        env.step(np.array([[1, -1], [1, 1]]))
    with pytest.raises((ValueError, TypeError)):
        env.step(np.array([1, 1]))
    cont = rlpool.make("Intersection-v1", num_envs=1, seed=0)
    cont.reset()
    with pytest.raises(ValueError):
        cont.step(np.array([[0.0, np.nan]], np.float32))


@pytest.mark.parametrize(
    ("task_id", "options", "match"),
    [
        ("Intersection-v0", {"spawn_probability": 1.5}, "spawn_probability"),
        ("Intersection-v0", {"destination": "o7"}, "destination"),
        ("Intersection-v0", {"initial_vehicle_count": -1}, "initial_vehicle_count"),
        ("Intersection-v0", {"reward_speed_low": 9.0, "reward_speed_high": 7.0}, "reward_speed"),
        ("Intersection-v0", {"normalize_reward": True, "collision_reward": 1.0}, "must differ"),
        ("Intersection-v0", {"other_vehicles_type": "highway_env.vehicle.kinematics.Vehicle"}, "other_vehicles_type"),
        ("Intersection-v0", {"multi_agent_wrapper": True}, "multi_agent_wrapper"),
        ("IntersectionMultiAgent-v1", {"observation_type": "Kinematics", "action_type": "DiscreteMetaAction"},
         "multi_agent_wrapper"),
        ("IntersectionMultiAgent-v0", {"controlled_vehicles": 0}, "controlled_vehicles"),
        ("IntersectionMultiAgent-v0", {"observation_type": "Kinematics"}, "go together"),
    ],
)
def test_bad_options_are_refused(task_id, options, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rlpool.make(task_id, num_envs=1, **options)


def test_reference_config_of_multi_agent_options():
    config = reference_config({"observation_type": "MultiAgentObservation", "observation_config_type": "Kinematics",
                               "observation_vehicles_count": 7, "destination": ""})
    assert config == {"observation": {"type": "MultiAgentObservation",
                                      "observation_config": {"type": "Kinematics", "vehicles_count": 7}},
                      "destination": ""}
