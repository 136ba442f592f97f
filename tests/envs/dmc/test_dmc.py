"""DeepMind Control Suite tasks against dm_control 1.0.50 itself (tests/references/dmc_reference.py does the stepping).

CI samples: one task per domain is compared step by step for 1000 steps from seed 0, the others for 100;
initial states are compared by KS test on one task per domain, and random episodes stay finite on one task per
domain. ``RLPOOL_FULL_REFERENCE=1`` compares every task for 1000 steps from three seeds, and the initial states
and random episodes of every task.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from dmc_suite import require_suite

dm_suite = require_suite()  # before dmc_reference imports dm_control.suite: installed, or rlpool's copy

from dmc_reference import ALL_TASKS, TASK_STATE, compare, load, state_of  # noqa: E402

import rlpool  # noqa: E402
from rlpool.envs.dmc import suite_source  # noqa: E402
from rlpool.envs.dmc.registration import DOMAINS, NO_TIME_LIMIT_STEPS, env_type, task_id  # noqa: E402

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
SEEDS = (0, 1, 2) if FULL else (0,)
SAMPLED = [(d.name, d.tasks[-1]) for d in DOMAINS]
# LQR draws its systems at random, which makes 200 dm_control resets slow (~20 s): its sample of start states
# is compared in the full run only.
KS_TASKS = ALL_TASKS if FULL else [(d, t) for d, t in SAMPLED if d != "lqr"]
DOMAIN = {d.name: d for d in DOMAINS}


def test_every_dm_control_task_has_envpools_id():
    assert sorted(ALL_TASKS) == sorted(dm_suite.ALL_TASKS)
    ids = {task_id(d, t) for d, t in ALL_TASKS}
    assert ids <= set(rlpool.list_all_envs())
    for d, t in ALL_TASKS:
        assert rlpool.make_spec(task_id(d, t)).task.env_type == env_type(d)
    envpool = pytest.importorskip("envpool")
    assert ids <= set(envpool.list_all_envs())
    assert "HumanoidCMUWalk-v1" in ids and "LqrLqr21-v1" in ids and "BallInCupCatch-v1" in ids


@pytest.mark.parametrize("domain", [d.name for d in DOMAINS])
def test_timing_and_time_limit_are_dm_controls(domain):
    d = DOMAIN[domain]
    ref = load(domain, d.tasks[0], 0)
    assert ref.physics.timestep() == d.timestep
    assert ref._n_sub_steps == d.n_sub_steps
    spec = rlpool.make_spec(task_id(domain, d.tasks[0]))
    if math.isinf(ref._step_limit):
        assert spec.max_episode_steps == NO_TIME_LIMIT_STEPS
    else:
        # dm_control ends an episode once step_count >= step_limit.
        assert spec.max_episode_steps == math.ceil(ref._step_limit)


@pytest.mark.parametrize(("domain", "task"), ALL_TASKS)
def test_specs_are_dm_controls(domain, task):
    ref = load(domain, task, 0)
    env = rlpool.make_dm(task_id(domain, task), num_envs=1)
    ours = env.observation_spec()
    for key, spec in ref.observation_spec().items():
        mine = getattr(ours, key)
        assert (mine.shape, mine.dtype) == (spec.shape, spec.dtype), key
    assert list(ref.observation_spec()) == list(ours._fields)[: len(ref.observation_spec())]
    a, b = env.action_spec(), ref.action_spec()
    assert (a.shape, a.dtype) == (b.shape, b.dtype)
    np.testing.assert_array_equal(a.minimum, b.minimum)
    np.testing.assert_array_equal(a.maximum, b.maximum)
    assert env.discount_spec().dtype == np.float64 and env.reward_spec().dtype == np.float64
    space = rlpool.make_spec(task_id(domain, task)).observation_space
    assert set(space.spaces) == set(ref.observation_spec())
    env.close()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("domain", "task"), ALL_TASKS)
def test_steps_equal_dm_controls(domain, task, seed):
    compare(domain, task, steps=1000 if FULL or (domain, task) in SAMPLED else 100, seed=seed)


def _reset_states(domain: str, task: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """States after n resets of dm_control's env and of rlpool's (one env each, reset n times).

    lqr draws its model from the seed in dm_control, so there each reset is a new env of its own seed.
    """
    ref = []
    env = load(domain, task, 1000)
    for seed in range(n):
        if domain == "lqr":
            env = load(domain, task, 1000 + seed)
        env.reset()
        ref.append(np.frombuffer(state_of(env.physics, domain), np.float64))
    ours_env = rlpool.make_dm(task_id(domain, task), num_envs=1, seed=7)
    ours = []
    for _ in range(n):
        ours_env.reset()
        ours.append(np.frombuffer(ours_env.get_state(0), np.float64))
    ours_env.close()
    return np.array(ref), np.array(ours)


@pytest.mark.parametrize(("domain", "task"), KS_TASKS)
def test_initial_states_are_distributed_as_dm_controls(domain, task):
    from scipy.stats import ks_2samp

    ref, ours = _reset_states(domain, task, 200)
    physics = load(domain, task, 0).physics
    nq, nv, na, nu = physics.model.nq, physics.model.nv, physics.model.na, physics.model.nu
    # time, qpos, (qvel, act, warmstart, ctrl), then the task's state.
    columns = list(range(1, 1 + nq)) + list(range(1 + nq + 2 * nv + na + nu, ref.shape[1]))
    assert ours.shape == ref.shape
    worst = (1.0, None)
    for c in columns:
        if np.ptp(ref[:, c]) == 0 and np.ptp(ours[:, c]) == 0:
            assert ref[0, c] == ours[0, c], f"state entry {c} is constant but differs"
            continue
        p = ks_2samp(ref[:, c], ours[:, c]).pvalue
        worst = min(worst, (p, c))
    # Bonferroni over the entries: the chance of a false alarm stays near 1e-3 per task.
    assert worst[0] > 1e-3 / len(columns), f"state entry {worst[1]}: KS p = {worst[0]:.2g}"


@pytest.mark.parametrize(("domain", "task"), ALL_TASKS if FULL else SAMPLED)
def test_random_episode_to_the_time_limit_is_finite(domain, task):
    steps = min(rlpool.make_spec(task_id(domain, task)).max_episode_steps, 1000)
    env = rlpool.make_dm(task_id(domain, task), num_envs=2, seed=3)
    ts = env.reset()
    spec = env.action_spec()
    rng = np.random.default_rng(0)
    low, high = np.maximum(spec.minimum, -1.0), np.minimum(spec.maximum, 1.0)
    for _ in range(steps):
        ts = env.step(rng.uniform(low, high, (2, *spec.shape)))
        for key in ts.observation._fields:
            assert np.isfinite(np.asarray(getattr(ts.observation, key), np.float64)).all(), key
        assert np.isfinite(ts.reward).all()
    if steps == rlpool.make_spec(task_id(domain, task)).max_episode_steps:
        assert (ts.step_type == 2).all() and (ts.discount == 1.0).all()
    env.close()


def test_state_round_trip_continues_the_same_trajectory():
    env = rlpool.make_dm("FishSwim-v1", num_envs=2, seed=5)
    env.reset()
    actions = np.random.default_rng(1).uniform(-1, 1, (20, 2, 5))
    state = env.get_state(0)
    first = [env.step(a).observation.target[0].copy() for a in actions]
    env.set_state(0, state)
    again = [env.step(a).observation.target[0].copy() for a in actions]
    np.testing.assert_array_equal(first, again)
    env.close()


def test_bad_states_are_refused():
    env = rlpool.make_dm("CheetahRun-v1", num_envs=1)
    env.reset()
    state = np.frombuffer(env.get_state(0), np.float64).copy()
    with pytest.raises(ValueError, match="bytes, expected"):
        env.set_state(0, state[:-1].tobytes())
    state[3] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        env.set_state(0, state.tobytes())
    env.close()


def test_same_seed_same_trajectory_whatever_threads_and_batches():
    def run(**kwargs):
        env = rlpool.make_dm("WalkerWalk-v1", num_envs=4, seed=11, **kwargs)
        env.reset()
        out = []
        for a in np.random.default_rng(0).uniform(-1, 1, (30, 4, 6)):
            ts = env.step(a)
            order = np.argsort(ts.observation.env_id)
            out.append(np.concatenate([ts.observation.orientations[order], ts.reward[order, None]], 1))
        env.close()
        return np.array(out)

    np.testing.assert_array_equal(run(num_threads=1), run(num_threads=3))


def test_options():
    with pytest.raises(ValueError, match="task_name 'jump'"):
        rlpool.make_spec("CheetahRun-v1", task_name="jump")
    with pytest.raises(ValueError, match="time_limit must be > 0"):
        rlpool.make_spec("CheetahRun-v1", time_limit=0.0)
    assert rlpool.make_spec("CheetahRun-v1", time_limit=2.0).max_episode_steps == 200
    assert rlpool.make_spec("CheetahRun-v1", frame_skip=4).max_episode_steps == 250
    assert rlpool.make_spec("CheetahRun-v1", max_episode_steps=7, frame_skip=4).max_episode_steps == 7
    assert rlpool.make_spec("LqrLqr21-v1").max_episode_steps == NO_TIME_LIMIT_STEPS


def test_frame_skip_repeats_the_action_and_adds_the_rewards():
    ref = load("walker", "walk", 4)
    ref.reset()
    env = rlpool.make_dm("WalkerWalk-v1", num_envs=1, frame_skip=3)
    env.reset()
    env.set_state(0, state_of(ref.physics, "walker"))
    for a in np.random.default_rng(2).uniform(-1, 1, (10, 6)):
        reward = sum(ref.step(a).reward for _ in range(3))
        ts = env.step(a[None])
        np.testing.assert_allclose(ts.observation.orientations[0], ref.physics.orientations(), atol=1e-9)
        assert abs(ts.reward[0] - reward) < 1e-9
    env.close()


@pytest.mark.parametrize("missing", ["import", "metadata"])
def test_without_dm_control_the_error_names_it_and_the_extra(missing, tmp_path):
    # An empty cache: the model must be compiled, which needs dm_control. "import": installed (or not) but it
    # cannot be imported; "metadata": not installed at all, and its wheel cannot be fetched (pip finds nothing).
    block = (
        "sys.modules['dm_control'] = None"
        if missing == "import"
        else "from rlpool.envs.dmc import suite_source; suite_source.installed_version = lambda: None"
    )
    code = (
        f"import sys; {block}\n"
        "import rlpool\n"
        "try:\n"
        "    rlpool.make('CheetahRun-v1')\n"
        "except ImportError as e:\n"
        "    print('ERROR', e)\n"
    )
    env = {**os.environ, "RLPOOL_CACHE_DIR": str(tmp_path), "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull}
    env.pop("PIP_FIND_LINKS", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                         env=env)
    assert "ERROR" in out.stdout and "pip install '.[dmc]'" in out.stdout, out.stdout + out.stderr
    assert "dm-control==1.0.50" in out.stdout, out.stdout
    if missing == "metadata":
        assert "could not be fetched" in out.stdout and "lxml" in out.stdout, out.stdout


def test_a_cached_model_needs_no_dm_control_import(tmp_path):
    # The first make compiles the model (importing dm_control); in a new process the cached file is found
    # from the installed versions alone, and the task steps without dm_control or mujoco's module imported.
    code = (
        "import sys, numpy as np, rlpool\n"
        "env = rlpool.make('CheetahRun-v1', num_envs=2, seed=3)\n"
        "obs, _ = env.reset()\n"
        "obs = env.step(np.zeros((2, 6)))[0]\n"
        "imported = sorted(m for m in sys.modules if m.split('.')[0] in ('dm_control', 'mujoco'))\n"
        "print(imported, '|', obs['velocity'].sum())\n"
    )
    env = {**os.environ, "RLPOOL_CACHE_DIR": str(tmp_path)}
    if suite_source.installed_version() != suite_source.VERSION:  # the copy this session fetched, not fetched anew
        (tmp_path / "dmc").mkdir()
        (tmp_path / "dmc" / suite_source.cache_folder().name).symlink_to(suite_source.unpacked_folder())
    first, second = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                                    check=True, env=env).stdout.split(" | ") for _ in range(2))
    assert first[0] != "[]" and second[0] == "[]", (first, second)
    assert first[1] == second[1]  # the same model: the same first step


@pytest.mark.parametrize(
    "tid", ["CheetahRun-v1", "HumanoidWalk-v1", "HumanoidRunPureState-v1", "QuadrupedWalk-v1", "FingerSpin-v1"]
)
def test_compat_layout_is_envpools(tid):
    envpool = pytest.importorskip("envpool")
    from rlpool.compat import envpool as compat

    # EnvPool gives every task of a domain the keys of all its tasks, the other tasks' (mostly) zero-filled.
    theirs, ours = envpool.make_gymnasium(tid, num_envs=2), compat.make_gymnasium(tid, num_envs=2)
    assert list(theirs.observation_space.spaces) == list(ours.observation_space.spaces)
    for key, space in theirs.observation_space.spaces.items():
        assert (space.shape, space.dtype) == (ours.observation_space[key].shape, ours.observation_space[key].dtype)
    assert (theirs.action_space.shape, theirs.action_space.dtype) == (ours.action_space.shape, ours.action_space.dtype)
    o1, i1 = theirs.reset()
    o2, i2 = ours.reset()
    assert list(o1) == list(o2) and sorted(i1) == sorted(i2)
    own = set(rlpool.make_spec(tid).observation_space.spaces)
    for key in o1:
        assert o1[key].shape == o2[key].shape, key
        if key not in own:  # EnvPool computes a few of these anyway (quadruped's origin); rlpool zeroes all
            assert not o2[key].any(), key
    o2 = ours.step(np.zeros((2, *ours.action_space.shape)))[0]
    assert list(o1) == list(o2)
    dm1, dm2 = envpool.make_dm(tid, num_envs=2), compat.make_dm(tid, num_envs=2)
    ts1, ts2 = dm1.reset(), dm2.reset()
    assert ts1.observation._fields == ts2.observation._fields
    assert dm1.observation_spec()._fields == dm2.observation_spec()._fields
    assert (ts1.reward.dtype, ts1.discount.dtype) == (ts2.reward.dtype, ts2.discount.dtype)
    ts2 = dm2.step(np.zeros((2, *ours.action_space.shape)), np.arange(2))
    for key in ts2.observation._fields[2:]:
        assert getattr(ts2.observation, key).shape == getattr(ts1.observation, key).shape, key


def test_task_state_covers_what_each_domain_moves():
    # Every domain whose C++ env adds task state has an entry, and the sizes agree.
    for d in DOMAINS:
        ref = load(d.name, d.tasks[0], 0)
        ref.reset()
        env = rlpool.make_dm(task_id(d.name, d.tasks[0]), num_envs=1)
        env.reset()
        assert len(env.get_state(0)) == len(state_of(ref.physics, d.name)), (d.name, TASK_STATE.get(d.name))
        env.close()
