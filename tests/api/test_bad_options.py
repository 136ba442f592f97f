"""Bad options (unknown, wrong type, out of range, not finite), bad reset arguments, and arrays that outlive
their pool: a clear Python exception naming what was wrong, and nothing built half-way."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from bad_input import (
    N,
    assert_same_result,
    async_pair,
    check_still_works,
    good_actions,
    register_one_number_task,
    reset_pair,
)

import rlpool

# --------------------------------------------------------------------------- #
# Options
# --------------------------------------------------------------------------- #


def test_unknown_task_id_suggests_instead_of_listing_every_id():
    with pytest.raises(ValueError, match=r"CartPole-v2.*did you mean 'CartPole-v1'") as info:
        rlpool.make("CartPole-v2")
    assert "Acrobot-v1" not in str(info.value) and "rlpool list" in str(info.value)
    with pytest.raises(ValueError, match=r"CartPole-v2"):
        rlpool.make_spec("CartPole-v2")


@pytest.mark.parametrize("maker", [rlpool.make, rlpool.make_gym, rlpool.make_dm, rlpool.make_spec])
def test_unknown_option_lists_valid_options(maker):
    with pytest.raises(ValueError, match=r"num_env\b") as info:
        maker("Pendulum-v1", num_env=4)
    for name in ("num_envs", "batch_size", "num_threads", "seed", "max_episode_steps", "g"):
        assert f"'{name}'" in str(info.value)


BAD_OPTIONS = [
    # (id, task, kwargs, exception, pattern)
    ("num_envs-str", "CartPole-v1", {"num_envs": "4"}, TypeError, r"num_envs"),
    ("num_envs-float", "CartPole-v1", {"num_envs": 4.0}, TypeError, r"num_envs"),
    ("num_envs-bool", "CartPole-v1", {"num_envs": True}, TypeError, r"num_envs"),
    ("num_envs-zero", "CartPole-v1", {"num_envs": 0}, ValueError, r"num_envs"),
    ("num_envs-negative", "CartPole-v1", {"num_envs": -2}, ValueError, r"num_envs"),
    ("batch_size-gt-num_envs", "CartPole-v1", {"num_envs": 4, "batch_size": 5}, ValueError, r"batch_size"),
    ("batch_size-str", "CartPole-v1", {"num_envs": 4, "batch_size": "2"}, TypeError, r"batch_size"),
    ("batch_size-negative", "CartPole-v1", {"num_envs": 4, "batch_size": -1}, ValueError, r"batch_size"),
    ("num_threads-str", "CartPole-v1", {"num_threads": "2"}, TypeError, r"num_threads"),
    ("num_threads-negative", "CartPole-v1", {"num_threads": -1}, ValueError, r"num_threads"),
    ("seed-negative", "CartPole-v1", {"seed": -1}, ValueError, r"seed"),
    ("seed-too-big", "CartPole-v1", {"seed": 2**64}, ValueError, r"seed"),
    ("seed-str", "CartPole-v1", {"seed": "1"}, TypeError, r"seed"),
    ("seed-float", "CartPole-v1", {"seed": 1.5}, TypeError, r"seed"),
    ("seed-list-length", "CartPole-v1", {"num_envs": 3, "seed": [1, 2]}, ValueError, r"seed"),
    ("seed-list-negative", "CartPole-v1", {"num_envs": 2, "seed": [1, -2]}, ValueError, r"seed"),
    ("seed-list-float", "CartPole-v1", {"num_envs": 2, "seed": [1, 2.0]}, ValueError, r"seed"),
    ("max_episode_steps-zero", "CartPole-v1", {"max_episode_steps": 0}, ValueError, r"max_episode_steps"),
    ("max_episode_steps-str", "CartPole-v1", {"max_episode_steps": "10"}, TypeError, r"max_episode_steps"),
    (
        "autoreset_mode-bogus",
        "CartPole-v1",
        {"autoreset_mode": "bogus"},
        ValueError,
        r"autoreset_mode.*bogus",
    ),
    ("autoreset_mode-int", "CartPole-v1", {"autoreset_mode": 1}, ValueError, r"autoreset_mode"),
    (
        "thread_affinity_offset-str",
        "CartPole-v1",
        {"thread_affinity_offset": "0"},
        TypeError,
        r"thread_affinity_offset",
    ),
    ("max_num_players", "CartPole-v1", {"max_num_players": 2}, ValueError, r"max_num_players"),
    (
        "gym_reset_return_info-str",
        "CartPole-v1",
        {"gym_reset_return_info": "no"},
        TypeError,
        r"gym_reset_return_info",
    ),
    ("reward_threshold-str", "CartPole-v1", {"reward_threshold": "high"}, TypeError, r"reward_threshold"),
    ("pendulum-g-str", "Pendulum-v1", {"g": "x"}, TypeError, r"'g'"),
    ("pendulum-g-bool", "Pendulum-v1", {"g": True}, TypeError, r"'g'"),
    ("cartpole-reward-int", "CartPole-v1", {"sutton_barto_reward": 1}, TypeError, r"sutton_barto_reward"),
    ("cartpole-reward-str", "CartPole-v1", {"sutton_barto_reward": "yes"}, TypeError, r"sutton_barto_reward"),
    ("env_type", "CartPole-v1", {"env_type": "bogus"}, ValueError, r"env_type"),
    ("render_mode", "BusyWork-v0", {"render_mode": "human"}, ValueError, r"render_mode"),  # it does not render
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "kwargs", "exc", "match"), [pytest.param(*c[1:], id=c[0]) for c in BAD_OPTIONS]
)
def test_bad_option(task, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        rlpool.make(task, **kwargs)


@pytest.mark.timeout(30)
def test_failed_construction_leaves_no_unraisable_errors(monkeypatch):
    """A make() that raises must not also print 'Exception ignored in __del__' noise."""
    gc.collect()  # what earlier tests in this process left is theirs
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    for task, kwargs in (("BusyWork-v0", {"render_mode": "human"}),  # it does not render
                         ("CartPole-v1", {"max_episode_steps": 2**31}), ("CartPole-v1", {"num_threads": 2**31})):
        with pytest.raises((ValueError, TypeError, OverflowError)):
            rlpool.make(task, **kwargs)
        gc.collect()
    assert [str(u.exc_value) for u in unraisable] == []


@pytest.mark.timeout(60)
def test_num_envs_beyond_engine_limit_raises_quickly():
    """num_envs that cannot fit the engine's int must be refused, not built (run with a memory cap)."""
    code = textwrap.dedent(
        """
        import resource
        import rlpool
        with open("/proc/self/status") as f:
            vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), vm + (1 << 30)))  # 1 GiB more at most
        try:
            rlpool.make_spec("CartPole-v1", num_envs=2**31)
        except (ValueError, OverflowError) as e:
            print("REFUSED", "num_envs" in str(e))
        except BaseException as e:
            print("OTHER", type(e).__name__, e)
        else:
            print("ACCEPTED")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "REFUSED True", (proc.returncode, proc.stdout, proc.stderr[-2000:])


BAD_MASKS = [
    ("short", np.array([True, False])),
    ("long", np.ones(N + 1, bool)),
    ("int", np.array([1, 0, 1])),
    ("list", [True, False, True]),
    ("2-d", np.ones((N, 1), bool)),
    ("none-selected", np.zeros(N, bool)),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("mask", [pytest.param(m, id=i) for i, m in BAD_MASKS])
def test_bad_reset_mask(mask):
    env, twin = reset_pair("CartPole-v1")
    for k in range(3):
        env.step(good_actions("CartPole-v1", k=k))
        twin.step(good_actions("CartPole-v1", k=k))
    with pytest.raises(ValueError, match=r"reset_mask"):
        env.reset(options={"reset_mask": mask})
    check_still_works(env, twin, "CartPole-v1")


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"options": {"reset_mask": np.ones(4, bool)}}, ValueError, r"sync"),
        ({"options": {"bogus": 1}}, ValueError, r"bogus"),
        ({"seed": -1}, ValueError, r"seed"),
        ({"seed": "1"}, TypeError, r"seed"),
        ({"seed": [1, 2]}, ValueError, r"seed"),
        ({"seed": [1, -1, None, 2]}, ValueError, r"seed"),
    ],
)
def test_bad_reset_arguments(kwargs, exc, match):
    sync = "reset_mask" not in kwargs.get("options", {})
    # One thread: which envs an async reset returns first must not depend on timing.
    env = rlpool.make("CartPole-v1", num_envs=4, batch_size=4 if sync else 2, seed=2, num_threads=1)
    twin = rlpool.make("CartPole-v1", num_envs=4, batch_size=4 if sync else 2, seed=2, num_threads=1)
    with pytest.raises(exc, match=match):
        env.reset(**kwargs)
    a, b = env.reset(), twin.reset()
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1]["env_id"], b[1]["env_id"])


# --------------------------------------------------------------------------- #
# Lifetime: arrays outliving their pool
# --------------------------------------------------------------------------- #

_LIFETIME_SCRIPT = textwrap.dedent(
    """
    import gc
    import numpy as np
    import rlpool

    def run(task, **kw):
        env = rlpool.make(task, **kw)
        n = env.batch_size
        act = np.zeros((n, 1), np.float32) if task.startswith("Pendulum") else np.ones(n, np.int64)
        if env.batch_size < env.num_envs:
            env.async_reset()
            first = env.recv()
            env.send(act, first[4]["env_id"])
            held = env.recv()
            env.send(act, held[4]["env_id"])  # leave envs in flight
        else:
            env.reset()
            held = env.step(act)
            env.step(act)
        copies = (held[0].copy(), held[1].copy(), held[2].copy(), held[4]["env_id"].copy())
        del env
        gc.collect()
        junk = [np.full(4096, 12345.0) for _ in range(2000)]  # reuse freed memory
        others = [rlpool.make(task, num_envs=8) for _ in range(3)]
        for o in others:
            o.reset()
        assert np.array_equal(held[0], copies[0])
        assert np.array_equal(held[1], copies[1])
        assert np.array_equal(held[2], copies[2])
        assert np.array_equal(held[4]["env_id"], copies[3])
        assert float(np.sum(held[0])) == float(np.sum(copies[0]))
        del junk, others

    run("CartPole-v1", num_envs=4, num_threads=2)
    run("Pendulum-v1", num_envs=6, batch_size=2, num_threads=2)
    run("CartPole-v1", num_envs=6, batch_size=3, num_threads=1)
    print("LIFETIME-OK")
    """
)


def test_arrays_outlive_their_pool_in_subprocess():
    """Results held after the pool is garbage-collected (envs still in flight) stay readable."""
    proc = subprocess.run(
        [sys.executable, "-c", _LIFETIME_SCRIPT], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, f"returncode {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    assert "LIFETIME-OK" in proc.stdout


# --------------------------------------------------------------------------- #
# Options with a valid range
# --------------------------------------------------------------------------- #

RANGED_OPTIONS = [
    # (task, option, a value at the edge of the range (accepted), a bad value, what the message must say)
    ("Catch-v0", "rows", 2, 1, r"'rows'.*rows must be in \[2, 1048576\], got 1"),
    ("Catch-v0", "width", 0, -1, r"'width'.*width must be in \[0, 1048576\], got -1"),
    ("NChain-v0", "n", 1, 0, r"'n'.*n must be in \[1, 1073741824\], got 0"),
    ("NChain-v0", "slip", 1.0, 1.5, r"'slip'.*slip must be in \[0, 1\], got 1\.5"),
    ("NChain-v0", "slip", 0.0, float("nan"), r"'slip' must be finite, got nan"),
    ("NChain-v0", "small", -1e300, float("-inf"), r"'small' must be finite, got -inf"),
    ("FrozenLake-v1", "success_rate", 0.0, -0.25, r"'success_rate'.*must be in \[0, 1\], got -0\.25"),
    ("Pendulum-v1", "g", 0.0, float("inf"), r"'g' must be finite, got inf"),
    ("MountainCar-v0", "goal_velocity", -1.0, float("nan"), r"'goal_velocity' must be finite, got nan"),
    ("MountainCarContinuous-v0", "goal_velocity", 1.0, float("inf"), r"'goal_velocity' must be finite"),
    ("Pong-v5", "stack_num", 64, 65, r"'stack_num'.*stack_num must be in \[1, 64\], got 65"),
    ("Pong-v5", "frame_skip", 1, 0, r"frame_skip must be in \[1, 1000\], got 0"),
    ("Pong-v5", "noop_max", 0, -1, r"noop_max must be in \[0, 100000\], got -1"),
    ("Pong-v5", "img_height", 1, 1025, r"img_height must be in \[1, 1024\], got 1025"),
    ("Pong-v5", "repeat_action_probability", 1.0, float("nan"), r"'repeat_action_probability' must be finite"),
    ("Hopper-v5", "frame_skip", 1, 0, r"frame_skip must be in \[1, 1000000\], got 0"),
    ("Hopper-v4", "ctrl_cost_weight", 0.0, float("nan"), r"'ctrl_cost_weight' must be finite, got nan"),
    ("Walker2d-v5", "healthy_reward", -1.0, float("inf"), r"'healthy_reward' must be finite, got inf"),
    ("Ant-v5", "main_body", 0, 99, r"main_body must be in \[0, \d+\], got 99"),
    ("Ant-v4", "contact_cost_weight", 1e-3, float("inf"), r"'contact_cost_weight' must be finite"),
    ("HalfCheetah-v5", "forward_reward_weight", -1.0, float("-inf"), r"'forward_reward_weight' must be finite"),
    ("Humanoid-v5", "contact_cost_weight", 0.0, float("nan"), r"'contact_cost_weight' must be finite"),
    ("HumanoidStandup-v5", "uph_cost_weight", 2.0, float("inf"), r"'uph_cost_weight' must be finite"),
    ("InvertedPendulum-v5", "reset_noise_scale", 0.0, float("nan"), r"'reset_noise_scale' must be finite"),
    ("InvertedDoublePendulum-v5", "healthy_reward", 0.0, float("inf"), r"'healthy_reward' must be finite"),
    ("Pusher-v5", "reward_near_weight", 0.0, float("nan"), r"'reward_near_weight' must be finite"),
    ("Reacher-v5", "reward_control_weight", 0.0, float("-inf"), r"'reward_control_weight' must be finite"),
    ("Swimmer-v4", "reset_noise_scale", 0.5, float("inf"), r"'reset_noise_scale' must be finite"),
    # Bounds may be +-inf (no bound) but never NaN (every comparison with NaN is false: never healthy).
    ("Ant-v5", "healthy_z_max", float("inf"), float("nan"), r"'healthy_z_max' must be a number or \+-inf"),
    ("Hopper-v5", "healthy_state_min", float("-inf"), float("nan"), r"'healthy_state_min' must be a number"),
    ("Walker2d-v4", "healthy_angle_max", float("inf"), float("nan"), r"'healthy_angle_max' must be a number"),
    ("Humanoid-v5", "contact_cost_max", float("inf"), float("nan"), r"'contact_cost_max' must be a number"),
    ("HumanoidStandup-v5", "impact_cost_min", float("-inf"), float("nan"), r"'impact_cost_min' must be a number"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("task", "option", "edge", "bad", "match"),
    RANGED_OPTIONS,
    ids=[f"{t}-{o}-{b}" for t, o, _, b, _ in RANGED_OPTIONS],
)
def test_options_out_of_range_or_not_finite_are_refused(task, option, edge, bad, match):
    """An option with a valid range refuses values outside it (floats: NaN and inf too) with a
    ValueError naming the option, the range and the value, from make_spec as from make; the edge
    of the range is accepted."""
    if task.startswith("Pong"):
        pytest.importorskip("ale_py")
    elif task.split("-")[0] in {"Hopper", "Walker2d", "Ant", "HalfCheetah", "Humanoid", "HumanoidStandup",
                                "InvertedPendulum", "InvertedDoublePendulum", "Pusher", "Reacher", "Swimmer"}:
        pytest.importorskip("mujoco")
    assert rlpool.make_spec(task, **{option: edge}).config[option] == edge
    with pytest.raises(ValueError, match=match):
        rlpool.make_spec(task, **{option: bad})
    with pytest.raises(ValueError, match=match):
        rlpool.make(task, num_envs=1, **{option: bad})


# --------------------------------------------------------------------------- #
# Messages that name the mistake: messages that named the wrong thing, values cast silently
# --------------------------------------------------------------------------- #


def test_frozen_lake_non_ascii_desc_names_desc_and_the_character():
    """A non-ASCII letter in desc is a ValueError quoting it whole, not a UnicodeDecodeError."""
    with pytest.raises(ValueError, match=r"desc.*'é'"):
        rlpool.make("FrozenLake-v1", desc="SFé,FFG")
    with pytest.raises(ValueError, match=r"desc.*'☃'"):
        rlpool.make_spec("FrozenLake-v1", desc="S☃,FG")


@pytest.mark.parametrize("value", [2**63, 2**64 + 5, -(2**63) - 1])
def test_int_option_beyond_int64_names_the_range(value):
    with pytest.raises(ValueError, match=r"option 'n' is out of the int64 range.*" + str(value)):
        rlpool.make_spec("NChain-v0", n=value)


def test_int_option_at_int64_edge_reaches_the_env_check():
    with pytest.raises(ValueError, match=r"'n'.*n must be in \[1, 1073741824\], got 9223372036854775807"):
        rlpool.make_spec("NChain-v0", n=2**63 - 1)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1"])
def test_actions_with_odd_strides_are_copied_not_refused(task):
    """A field of a structured array (stride not a whole number of items) and a reversed view are read."""
    env, twin = reset_pair(task)
    actions = good_actions(task)
    dtype = actions.dtype
    rec = np.zeros(actions.shape[:1], dtype=[("a", dtype, actions.shape[1:]), ("pad", np.int8)])
    rec["a"] = actions
    assert rec["a"].strides[0] % dtype.itemsize != 0
    assert_same_result(env.step(rec["a"]), twin.step(actions))
    reversed_view = actions[::-1].copy()[::-1]
    assert reversed_view.strides[0] < 0
    assert_same_result(env.step(reversed_view), twin.step(actions))


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("task", "what"), [("CartPole-v1", "discrete actions must be integers"), ("Pendulum-v1", "float32 or float64")]
)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_actions_are_named_as_numpy_names_them(task, what, dtype):
    env, twin = reset_pair(task)
    actions = good_actions(task).astype(dtype)
    with pytest.raises(TypeError, match=rf"{what}, got dtype {np.dtype(dtype).name}$"):
        env.step(actions)
    check_still_works(env, twin, task)


def test_complex_env_ids_are_named_as_numpy_names_them():
    env, _ = async_pair()
    env.async_reset()
    with pytest.raises(TypeError, match=r"integers, got complex128"):
        env.send(np.zeros(2, np.int64), np.array([0, 1], np.complex128))


@pytest.mark.parametrize("num_envs", [2, 5])
def test_seed_whose_last_env_overflows_states_the_bound(num_envs):
    """seed + i must stay below 2**64: the message gives the largest allowed base, not seed + i."""
    with pytest.raises(ValueError, match=rf"num_envs={num_envs}.*at most {2**64 - num_envs}\)") as info:
        rlpool.make_spec("CartPole-v1", num_envs=num_envs, seed=2**64 - 1)
    assert str(2**64) not in str(info.value)
    assert rlpool.make_spec("CartPole-v1", num_envs=num_envs, seed=2**64 - num_envs).seeds[-1] == 2**64 - 1



def _float_options():
    """(task, option) for one task of each env type and each of its float options."""
    from rlpool import registry

    seen, out = set(), []
    for task_id in registry.list_all_envs():
        for doc in registry.option_docs(task_id):
            key = (registry.task(task_id).env_type, doc.name)
            if isinstance(doc.default, float) and key not in seen:
                seen.add(key)
                out.append((task_id, doc.name))
    return out


FLOAT_OPTIONS = _float_options()


@pytest.mark.timeout(60)
def test_every_float_option_refuses_nan_and_inf_unless_inf_means_no_bound():
    """NaN never passes; +-inf only where it means "no bound" or "no limit" (the option's may_be_inf)."""
    from rlpool.registry import inf_options
    from rlpool.registry import task as registered

    assert len(FLOAT_OPTIONS) > 50
    for task_id, option in FLOAT_OPTIONS:
        with pytest.raises(ValueError, match=rf"option '{option}' must be"):
            rlpool.make_spec(task_id, **{option: float("nan")})
        for inf in (float("inf"), float("-inf")):
            if option in inf_options(registered(task_id).env_type):
                continue
            with pytest.raises(ValueError, match=rf"option '{option}' must be finite, got -?inf"):
                rlpool.make_spec(task_id, **{option: inf})
    with pytest.raises(ValueError, match=r"option 'g' must be finite, got nan"):
        rlpool.make_spec("Pendulum-v1", g=np.float32("nan"))
    with pytest.raises(ValueError, match=r"option 'g' is too large for a float64"):
        rlpool.make_spec("Pendulum-v1", g=10**400)


@pytest.mark.parametrize(
    ("task", "option", "value"),
    [("Hopper-v5", "healthy_z_max", float("inf")), ("Ant-v5", "contact_force_min", float("-inf"))],
)
def test_inf_options_still_take_inf(task, option, value):
    pytest.importorskip("mujoco")
    assert rlpool.make_spec(task, **{option: value}).config[option] == value


# --------------------------------------------------------------------------- #
# Messages of smaller mistakes
# --------------------------------------------------------------------------- #


def test_float_options_of_python_envs_must_be_finite(tmp_path, monkeypatch):
    """Float options are refused when NaN or infinite, whatever the family: the check is generic
    (registry.py), so a Python-written env's own options get it too; the options where inf means
    "no bound" or "no limit" keep accepting inf, never NaN."""
    pytest.importorskip("numba")
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path))

    def step(state, action, obs, params):
        state[0] += params.speed
        obs[0] = state[0]
        return 1.0, False

    register_one_number_task("FiniteOptions-v0", step, options={"speed": 0.5})
    assert rlpool.make_spec("FiniteOptions-v0", speed=-1e300).config["speed"] == -1e300
    for bad in (float("nan"), float("inf"), -np.inf):
        with pytest.raises(ValueError, match=r"option 'speed' must be finite, got"):
            rlpool.make_spec("FiniteOptions-v0", speed=bad)
    pytest.importorskip("mujoco")
    assert rlpool.make_spec("Hopper-v5", healthy_z_max=float("inf")).config["healthy_z_max"] == float("inf")
    with pytest.raises(ValueError, match=r"option 'healthy_z_max' must be a number or \+-inf, got nan"):
        rlpool.make_spec("Hopper-v5", healthy_z_max=float("nan"))
    with pytest.raises(ValueError, match=r"option 'ctrl_cost_weight' must be finite, got inf"):
        rlpool.make_spec("Hopper-v5", ctrl_cost_weight=float("inf"))


def test_a_task_default_autoreset_mode_applies_unless_asked_otherwise():
    """A task may name its own autoreset_mode default (registry.register(..., autoreset_mode=...)); an
    explicit option wins, and a name that is not a mode is refused when the task is registered."""
    from rlpool import registry

    env_type = registry.task("CartPole-v1").env_type
    task_id = "SameStepDefaultProbe-v0"
    registry.register(task_id, env_type, max_episode_steps=20, autoreset_mode="SameStep")
    try:
        assert rlpool.make(task_id, num_envs=1).metadata["autoreset_mode"].name == "SAME_STEP"
        assert rlpool.make(task_id, num_envs=1, autoreset_mode="NextStep").metadata["autoreset_mode"].name == (
            "NEXT_STEP"
        )
    finally:
        del registry._TASKS[task_id]
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        registry.register("BadModeProbe-v0", env_type, max_episode_steps=20, autoreset_mode="Sometimes")
    assert "BadModeProbe-v0" not in registry.list_all_envs()
