"""rlpool.compat.envpool, second pass (issue 21): what real EnvPool code relies on.

Each test states EnvPool 1.2.5's behaviour by hand (read off EnvPool's Python layer and runs of it) and,
where ``import envpool`` works (not in CI), checks the same calls on EnvPool itself.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import rlpool
import rlpool.compat.envpool as compat
import rlpool.compat.envpool_legacy as legacy

try:  # an import, not find_spec: scripts/sanitize.sh hides envpool behind a package that refuses it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import envpool as reference

    HAVE_ENVPOOL = True
except ImportError:
    reference = None
    HAVE_ENVPOOL = False
needs_envpool = pytest.mark.skipif(not HAVE_ENVPOOL, reason="envpool is not installed (or hidden)")
MODULES = [compat] + ([reference] if HAVE_ENVPOOL else [])
both = pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)


# ---------------------------------------------------------------- 1. instances of gymnasium.Env / dm_env.Environment


@both
def test_pools_are_envs_and_wrappable(module):
    import dm_env

    envs = module.make_gymnasium("CartPole-v1", num_envs=2)
    assert isinstance(envs, gymnasium.Env) and isinstance(envs, gymnasium.vector.VectorEnv)
    wrapped = gymnasium.Wrapper(envs)
    obs, _ = wrapped.reset()
    assert obs.shape == (2, 4)
    assert wrapped.step(np.zeros(2, dtype=np.int32))[0].shape == (2, 4)
    assert isinstance(module.make_dm("CartPole-v1"), dm_env.Environment)
    if module is compat:  # EnvPool's envpool.EnvPool is a typing Protocol, not a base class
        assert isinstance(envs, compat.EnvPool)


# ---------------------------------------------------------------- 2. step() before reset()


@both
def test_first_step_without_reset_resets(module):
    """EnvPool's first step resets: the reset observations, reward 0, elapsed_step 0; the action is unused."""
    a = module.make_gymnasium("CartPole-v1", num_envs=3, seed=1)
    b = module.make_gymnasium("CartPole-v1", num_envs=3, seed=1)
    obs, reward, terminated, truncated, info = a.step(np.ones(3, dtype=np.int32))
    np.testing.assert_array_equal(obs, b.reset()[0])
    assert reward.dtype == np.float32 and not reward.any() and not (terminated | truncated).any()
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
    assert (a.step(np.ones(3, dtype=np.int32))[4]["elapsed_step"] == 1).all()
    dm = module.make_dm("CartPole-v1", num_envs=2)
    np.testing.assert_array_equal(dm.step(np.zeros(2, dtype=np.int32)).step_type, [0, 0])  # FIRST


def test_rlpool_own_api_still_refuses_step_before_reset():
    envs = rlpool.make("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError, match="has not been reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


# ---------------------------------------------------------------- 3. a sync pool stepping a subset


def subset_steps(module) -> list:
    envs = module.make_gymnasium("CartPole-v1", num_envs=3, seed=1)
    envs.reset()
    out = []
    for actions, ids in [([1, 1], [2, 0]), ([0, 1, 1], None), ([0], [1])]:
        obs, reward, terminated, truncated, info = envs.step(
            np.array(actions, dtype=np.int32), None if ids is None else np.array(ids, dtype=np.int32)
        )
        out.append((obs.copy(), reward.tolist(), info["env_id"].tolist(), info["elapsed_step"].tolist()))
    return out


def test_sync_subset_step_returns_those_rows():
    steps = subset_steps(compat)
    assert [s[2] for s in steps] == [[2, 0], [0, 1, 2], [1]]
    assert [s[3] for s in steps] == [[1, 1], [2, 1, 2], [2]]  # env 1 was not stepped by the first call
    assert steps[0][0].shape == (2, 4) and steps[2][0].shape == (1, 4)
    # The same envs stepped one call at a time in full batches give the same rows.
    envs = compat.make_gymnasium("CartPole-v1", num_envs=3, seed=1)
    envs.reset()
    full = envs.step(np.array([1, 0, 1], dtype=np.int32))[0]  # env 1 differs: compare envs 2 and 0 only
    np.testing.assert_array_equal(steps[0][0], full[[2, 0]])


@needs_envpool
def test_sync_subset_step_same_as_envpool():
    ours, theirs = subset_steps(compat), subset_steps(reference)
    for a, b in zip(ours, theirs, strict=True):
        assert a[0].shape == b[0].shape and a[1:] == b[1:]


# ---------------------------------------------------------------- 4. dict actions


@both
def test_dict_actions(module):
    envs = module.make_gymnasium("CartPole-v1", num_envs=3)
    envs.reset()
    ids = np.arange(3, dtype=np.int32)
    obs, reward, *_, info = envs.step({"env_id": ids, "players.env_id": ids, "action": np.ones(3, dtype=np.int32)})
    assert obs.shape == (3, 4) and (info["elapsed_step"] == 1).all()
    info = envs.step({"action": np.zeros(3, dtype=np.int32)})[-1]  # env_id defaults to every env
    assert (info["elapsed_step"] == 2).all()
    info = envs.step({"env_id": ids[1:], "action": np.zeros(2, dtype=np.int32)})[-1]
    assert info["env_id"].tolist() == [1, 2] and info["elapsed_step"].tolist() == [3, 3]


def test_dict_actions_async_and_bad_keys():
    envs = compat.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
    envs.async_reset()
    info = envs.recv()[-1]
    envs.send({"env_id": info["env_id"], "action": np.zeros(2, dtype=np.int32)})
    assert envs.recv()[0].shape == (2, 4)
    with pytest.raises(ValueError, match="'action'"):
        envs.send({"env_id": info["env_id"], "act": np.zeros(2, dtype=np.int32)})
    envs.close()


# ---------------------------------------------------------------- 5. array specs and dm bounds

I32 = (-(2**31), 2**31 - 1)
F32 = (float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max))


def test_action_and_state_array_specs_by_hand():
    spec = compat.make_spec("CartPole-v1")
    action = spec.action_array_spec
    assert list(action) == ["env_id", "players.env_id", "action"]
    assert action["action"].shape == [-1] and action["action"].dtype == np.int32
    assert (action["action"].minimum, action["action"].maximum) == (0, 1)
    assert (action["env_id"].shape, action["env_id"].minimum, action["env_id"].maximum) == ([], *I32)
    state = spec.state_array_spec
    assert list(state) == ["info:env_id", "info:players.env_id", "elapsed_step", "done", "reward", "discount",
                           "step_type", "trunc", "obs"]
    assert state["reward"].shape == [-1] and (state["reward"].minimum, state["reward"].maximum) == F32
    assert state["obs"].shape == [4] and state["obs"].minimum.shape == (4,)  # per-element bounds stay arrays
    pendulum = compat.make_spec("Pendulum-v1").action_array_spec["action"]
    assert pendulum.shape == [-1, 1] and (pendulum.minimum, pendulum.maximum) == (-2.0, 2.0)


def test_dm_specs_scalar_bounds_and_info_bounds():
    from dm_env import specs

    action = compat.make_spec("Pendulum-v1").action_spec()
    assert isinstance(action, specs.BoundedArray) and np.ndim(action.minimum) == 0 and action.minimum == -2.0
    if "Ant-v4" in rlpool.list_all_envs():
        state = compat.make_spec("Ant-v4").observation_spec()
        assert np.ndim(state.obs.minimum) == 0 and state.obs.minimum == -np.inf
        f64 = np.finfo(np.float64)
        # EnvPool bounds an info entry by its dtype's C++ numeric_limits (min() is the smallest positive float).
        assert (state.x_position.minimum, state.x_position.maximum) == (f64.tiny, f64.max)


@needs_envpool
@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0", "Ant-v4", "Pong-v5"])
def test_array_specs_same_as_envpool(task):
    if task not in rlpool.list_all_envs():
        pytest.skip(f"{task}'s family is not built")
    ours, theirs = compat.make_spec(task), reference.make_spec(task)
    for name in ("action_array_spec", "state_array_spec"):
        a, b = getattr(ours, name), getattr(theirs, name)
        common = [k for k in b if k in a]
        assert common == [k for k in a if k in b]  # the same order
        assert set(b) - set(a) <= {"info:reward_contact", "info:ram"}  # entries rlpool's envs do not have
        for key in common:
            assert a[key].shape == list(b[key].shape), key
            # rlpool's MuJoCo actions are float32 as gymnasium's; EnvPool's float64.
            assert a[key].dtype == b[key].dtype or (task == "Ant-v4" and key == "action"), key
            np.testing.assert_allclose(a[key].minimum, b[key].minimum, rtol=1e-6, err_msg=key)
            np.testing.assert_allclose(a[key].maximum, b[key].maximum, rtol=1e-6, err_msg=key)
    if task != "Ant-v4":
        assert repr(ours.action_spec()) == repr(theirs.action_spec())
    if task == "Pong-v5":  # every dm observation spec EnvPool has, as EnvPool has it (ram aside)
        theirs_state = theirs.observation_spec()
        for name, spec in ours.observation_spec()._asdict().items():
            assert repr(spec) == repr(getattr(theirs_state, name)), name


# ---------------------------------------------------------------- 6. Blackjack's observation


@both
def test_blackjack_observation_is_an_int32_box(module):
    spec = module.make_spec("Blackjack-v1")
    assert spec.observation_space == gymnasium.spaces.Box(0, 31, (3,), np.int32)
    envs = module.make_gymnasium("Blackjack-v1", num_envs=4, seed=3)
    obs, _ = envs.reset()
    assert obs.shape == (4, 3) and obs.dtype == np.int32 and obs in gymnasium.vector.utils.batch_space(
        spec.observation_space, 4)
    obs = envs.step(np.zeros(4, dtype=np.int32))[0]  # stick: the episode ends, the observation stays valid
    assert obs.shape == (4, 3) and obs.dtype == np.int32


def test_blackjack_rows_are_rlpools_tuple():
    ours = compat.make_gymnasium("Blackjack-v1", num_envs=2, seed=3)
    native = rlpool.make("Blackjack-v1", num_envs=2, seed=3)
    np.testing.assert_array_equal(ours.reset()[0], np.stack(native.reset()[0], axis=1))
    assert compat.make_dm("Blackjack-v1", num_envs=2).reset().observation.obs.shape == (2, 3)


# ---------------------------------------------------------------- 7. EnvPool's task ids

ALIASES = ["phys2d/CartPole-v0", "phys2d/CartPole-v1", "phys2d/Pendulum-v0", "Pendulum-v0", "tabular/CliffWalking-v0",
           "tabular/Blackjack-v0", "TicTacToe3d-v5", "Ant-v3", "HalfCheetah-v3", "Hopper-v3", "Humanoid-v3",
           "Swimmer-v3", "Walker2d-v3", "HumanoidStandup-v2", "InvertedDoublePendulum-v2", "InvertedPendulum-v2",
           "Pusher-v2", "Reacher-v2"]


@pytest.mark.parametrize("task", ALIASES)
def test_envpool_ids_are_accepted(task):
    target = compat._ALIASES[task][0]
    if target not in rlpool.list_all_envs():
        pytest.skip(f"{target}'s family is not built")
    assert task in compat.list_all_envs()
    envs = compat.make_gymnasium(task, num_envs=2)
    obs, _ = envs.reset()
    envs.step(np.stack([envs.action_space.sample() for _ in range(2)]))
    assert envs.spec.id == task
    if HAVE_ENVPOOL and task in reference.list_all_envs():
        theirs = reference.make_spec(task)
        assert envs.spec.observation_space.shape == theirs.observation_space.shape
        assert envs.spec.config.max_episode_steps == theirs.config.max_episode_steps
    envs.close()


def test_ant_v3_has_contact_forces_in_its_observation():
    if "Ant-v4" not in rlpool.list_all_envs():
        pytest.skip("the MuJoCo family is not built")
    assert compat.make_spec("Ant-v3").observation_space.shape == (111,)  # 27 + 84 contact forces, as EnvPool's
    assert compat.make_spec("Ant-v3").config.use_contact_force is True


@needs_envpool
@pytest.mark.parametrize("pair", [("Pendulum-v0", "Pendulum-v1"), ("Ant-v3", "Ant-v4"), ("Humanoid-v3", "Humanoid-v4"),
                                  ("Hopper-v3", "Hopper-v4"), ("Reacher-v2", "Reacher-v4")])
def test_envpool_alias_is_its_target_on_envpool(pair):
    """The alias semantics, checked on EnvPool: its old id steps exactly as the id rlpool maps it to.

    (Ant-v3 is Ant-v4 with contact forces, so only the shared observation entries are compared.) Pendulum
    is driven by bang-bang torques that reach the speed limit, where gym's v0 and v1 would differ.
    """
    old, new = (reference.make_gymnasium(t, num_envs=2, seed=5) for t in pair)
    if pair[0] == "Ant-v3":
        new = reference.make_gymnasium("Ant-v4", num_envs=2, seed=5, use_contact_force=True)
    obs_old, _ = old.reset()
    obs_new, _ = new.reset()
    np.testing.assert_array_equal(obs_old, obs_new)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if pair[0] == "Pendulum-v0":
            act = (2.0 * np.sign(obs_old[:, 2:3] + 1e-9)).astype(np.float32)
        else:
            act = rng.uniform(-0.4, 0.4, (2, *old.action_space.shape))
        a, b = old.step(act), new.step(act)
        obs_old = a[0]
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])


# ---------------------------------------------------------------- 8. MuJoCo options


def needs(task):
    return pytest.mark.skipif(task not in rlpool.list_all_envs(), reason=f"{task}'s family is not built")


MUJOCO_KEYS = ["frame_stack", "post_constraint", "use_contact_force", "legacy_healthy_reward",
               "exclude_worldbody_contact_forces", "gymnasium_v5_render_camera", "xml_file"]
# EnvPool 1.2.5's values (envpool/mujoco/gym/registration.py and make_spec(task).config).
MUJOCO_CONFIG = {
    "Ant-v4": dict(frame_stack=1, post_constraint=False, use_contact_force=False, legacy_healthy_reward=True,
                   exclude_worldbody_contact_forces=False, gymnasium_v5_render_camera=False, xml_file="ant.xml"),
    "Ant-v5": dict(frame_stack=1, post_constraint=True, use_contact_force=True, legacy_healthy_reward=False,
                   exclude_worldbody_contact_forces=True, gymnasium_v5_render_camera=True, xml_file="ant.xml"),
    "Hopper-v5": dict(frame_stack=1, post_constraint=True, legacy_healthy_reward=False,
                      gymnasium_v5_render_camera=True, xml_file="hopper.xml"),
    "Walker2d-v5": dict(frame_stack=1, post_constraint=True, legacy_healthy_reward=False,
                        gymnasium_v5_render_camera=True, xml_file="walker2d_v5.xml"),
    "Reacher-v4": dict(frame_stack=1, post_constraint=False, gymnasium_v5_render_camera=False, xml_file="reacher.xml"),
}


@needs("Ant-v4")
@pytest.mark.parametrize("task", list(MUJOCO_CONFIG))
def test_mujoco_config_has_envpools_options(task):
    config = compat.make_spec(task).config._asdict()
    assert {k: config[k] for k in MUJOCO_KEYS if k in config} == MUJOCO_CONFIG[task]
    assert list(config)[-1] == "autoreset_mode"
    if HAVE_ENVPOOL:
        theirs = reference.make_spec(task).config._asdict()
        assert {k: theirs[k] for k in MUJOCO_KEYS if k in theirs} == MUJOCO_CONFIG[task]


@needs("Ant-v4")
def test_mujoco_options_are_taken_or_refused_with_the_reason():
    defaults = dict(MUJOCO_CONFIG["Ant-v5"])
    envs = compat.make_gymnasium("Ant-v5", **defaults)  # EnvPool's own values are accepted
    envs.close()
    on = compat.make_spec("Ant-v4", use_contact_force=True)
    assert on.observation_space.shape == (111,) and on.config.use_contact_force is True
    with pytest.raises(compat.EnvPoolError, match="Ant-v4"):
        compat.make_spec("Ant-v5", post_constraint=False)
    with pytest.raises(compat.EnvPoolError, match="Hopper-v5"):
        compat.make_spec("Hopper-v4", legacy_healthy_reward=False)
    assert compat.make_spec("Walker2d-v5", xml_file="walker2d_v5.xml").config.xml_file == "walker2d_v5.xml"
    assert compat.make_spec("Hopper-v4", gymnasium_v5_render_camera=True)  # a rendering switch: no effect


@needs("Ant-v4")
def test_ant_info_keys_in_envpools_order():
    envs = compat.make_gymnasium("Ant-v5", num_envs=2)
    _, info = envs.reset()
    expected = ["env_id", "players", "reward_forward", "reward_ctrl", "reward_contact", "reward_survive",
                "x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity", "elapsed_step"]
    assert list(info) == expected
    assert list(envs.step(np.zeros((2, 8), dtype=np.float32))[-1]) == expected
    if HAVE_ENVPOOL:
        assert list(reference.make_gymnasium("Ant-v5", num_envs=2).reset()[1]) == expected
    assert list(compat.make_dm("Ant-v5").observation_spec()._fields) == ["env_id", "players", "obs", *expected[2:-1]]


# ---------------------------------------------------------------- 12. speed: no Python per step


def test_plain_pools_step_is_the_engines():
    """A pool whose results need no reshaping hands out the engine's step (the layer costs nothing per call)."""
    envs = compat.make_gymnasium("CartPole-v1", num_envs=2)
    assert envs.step.__self__ is envs._pool
    legacy_envs = legacy.make_gym("CartPole-v1", num_envs=2)
    assert getattr(legacy_envs.step, "__self__", None) is legacy_envs  # the 4-tuple API has its own step
    blackjack = compat.make_gymnasium("Blackjack-v1", num_envs=2)
    assert blackjack.step.__self__ is blackjack  # reshaped observations: the Python step


# ---------------------------------------------------------------- 9. exports


@both
def test_envpool_and_register_are_exported(module):
    assert hasattr(module, "EnvPool") and callable(module.register)


def test_register_a_variant():
    compat.register("ShortCartPole-v1", base="CartPole-v1", aliases=["phys2d/ShortCartPole-v1"])
    assert {"ShortCartPole-v1", "phys2d/ShortCartPole-v1"} <= set(compat.list_all_envs())
    assert compat.make_spec("phys2d/ShortCartPole-v1").observation_space.shape == (4,)
    with pytest.raises(compat.EnvPoolError, match="compiled"):
        compat.register("Mine-v0", "envpool.classic_control", "CartPoleEnvSpec", "CartPoleDMEnvPool", "X")
    with pytest.raises(ValueError, match="already registered"):
        compat.register("ShortCartPole-v1", base="CartPole-v1")


# ---------------------------------------------------------------- 11. error types scripts catch

BAD = [
    (lambda m: m.make("Nope-v0", env_type="gym"), AssertionError),
    (lambda m: m.make_spec("Nope-v0"), KeyError),
    (lambda m: m.make("CartPole-v1", env_type="gym3"), AssertionError),
    (lambda m: m.make("CartPole-v1", env_type="gym", seed=2**31), AssertionError),
    (lambda m: m.make("CartPole-v1", env_type="gym", num_envs=2, seed=[1, 2, 3]), AssertionError),
    (lambda m: m.make("CartPole-v1", env_type="gym", num_envs=2, batch_size=3), AssertionError),
    (lambda m: m.make("CartPole-v1", env_type="gym", num_envs=0), AssertionError),
]


@both
@pytest.mark.parametrize("case", range(len(BAD)))
def test_error_types_scripts_catch(module, case):
    call, error = BAD[case]
    with pytest.raises(error):
        call(module)


@pytest.mark.parametrize("case", range(len(BAD)))
def test_errors_are_also_valueerrors_with_a_message(case):
    call, _ = BAD[case]
    with pytest.raises(ValueError) as e:
        call(compat)
    assert str(e.value) and not str(e.value).startswith("'")  # KeyError's quoting is undone


def test_legacy_module_exports_the_same():
    assert legacy.EnvPool is compat.EnvPool and legacy.register is compat.register
    assert legacy.EnvPoolError is compat.EnvPoolError


# ---------------------------------------------------------------- 8. MuJoCo frame_stack


def check_frame_stack(module, k: int = 3) -> None:
    """Stacked frames are the last ``k`` single observations, the newest last; a reset fills all ``k``."""
    stacked = module.make_gymnasium("Hopper-v4", num_envs=2, frame_stack=k, seed=4, max_episode_steps=5)
    single = module.make_gymnasium("Hopper-v4", num_envs=2, seed=4, max_episode_steps=5)
    obs, _ = stacked.reset()
    one, info = single.reset()
    assert obs.shape == (2, k, 11) and stacked.observation_space.shape == (k, 11)
    history = np.stack([one] * k, axis=1)
    rng = np.random.default_rng(0)
    for _ in range(12):  # two time-limit ends and their resets
        act = rng.uniform(-1, 1, (2, 3))
        obs = stacked.step(act)[0]
        one, *_, info = single.step(act)
        reset = info["elapsed_step"] == 0
        history = np.where(reset[:, None, None], one[:, None], np.concatenate([history[:, 1:], one[:, None]], axis=1))
        np.testing.assert_array_equal(obs, history)
    assert module.make_spec("Hopper-v4", frame_stack=k).config.frame_stack == k


@needs("Hopper-v4")
@both
def test_mujoco_frame_stack(module):
    check_frame_stack(module)


def check_dmc_frame_stack(module, k: int = 3) -> None:
    """DeepMind Control's state observations stack key by key (``(k, *shape)``, newest last, reset fills)."""
    stacked = module.make_gymnasium("CheetahRun-v1", num_envs=2, frame_stack=k, seed=4, max_episode_steps=5)
    single = module.make_gymnasium("CheetahRun-v1", num_envs=2, seed=4, max_episode_steps=5)
    assert {key: s.shape for key, s in stacked.observation_space.spaces.items()} == {
        "position": (k, 8), "velocity": (k, 9)}
    obs, _ = stacked.reset()
    one, info = single.reset()
    history = {key: np.stack([v] * k, axis=1) for key, v in one.items()}
    rng = np.random.default_rng(0)
    for _ in range(12):  # two time-limit ends and their resets
        act = rng.uniform(-1, 1, (2, 6))
        obs = stacked.step(act)[0]
        one, *_, info = single.step(act)
        reset = info["elapsed_step"] == 0
        for key, v in one.items():
            history[key] = np.where(reset[:, None, None], v[:, None],
                                    np.concatenate([history[key][:, 1:], v[:, None]], axis=1))
            np.testing.assert_array_equal(obs[key], history[key])
    ts = module.make_dm("CheetahRun-v1", num_envs=2, frame_stack=k).reset()
    assert ts.observation.position.shape == (2, k, 8)
    spec = module.make_spec("CheetahRun-v1", frame_stack=k)
    assert spec.config.frame_stack == k and spec.state_array_spec["obs:velocity"].shape == [k, 9]


@needs("CheetahRun-v1")
@both
def test_dmc_frame_stack(module):
    check_dmc_frame_stack(module)


@needs("CheetahRun-v1")
@both
def test_dmc_pixels_are_one_array(module):
    """``from_pixels``: the gymnasium pool's observation is the frames' array; dm's State names it ``pixels``."""
    env = module.make_gymnasium("CheetahRun-v1", num_envs=2, from_pixels=True, frame_stack=2)
    obs, _ = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (2, 6, 84, 84) and obs.dtype == np.uint8
    assert env.observation_space.shape == (6, 84, 84)
    ts = module.make_dm("CheetahRun-v1", num_envs=2, from_pixels=True).reset()
    assert ts.observation._fields == ("env_id", "players", "pixels") and ts.observation.pixels.shape == (2, 3, 84, 84)
    assert "obs:pixels" in module.make_spec("CheetahRun-v1", from_pixels=True).state_array_spec


@needs("FingerSpin-v1")
@both
def test_dmc_frame_skip_is_envpools(module):
    """EnvPool's DeepMind Control ``frame_skip``: physics steps per control step, dm_control's value."""
    expected = {"FingerSpin-v1": 2, "CheetahRun-v1": 1, "HumanoidCMUStand-v1": 10, "SwimmerSwimmer6-v1": 15}
    for task, n in expected.items():
        config = module.make_spec(task).config
        assert config.frame_skip == n, task
        assert config._fields[config._fields.index("max_episode_steps") + 1:][:3] == (
            "frame_skip", "frame_stack", "task_name"), task
    assert module.make_spec("FingerSpin-v1", frame_skip=2).config.frame_skip == 2


@needs("FingerSpin-v1")
def test_dmc_other_frame_skip_is_refused():
    with pytest.raises(compat.EnvPoolError, match="physics steps per control step, 2"):
        compat.make_spec("FingerSpin-v1", frame_skip=3)


@needs("Hopper-v4")
def test_mujoco_frame_stack_dm_and_bad_values():
    assert compat.make_dm("Hopper-v4", num_envs=2, frame_stack=2).reset().observation.obs.shape == (2, 2, 11)
    assert compat.make_spec("Hopper-v4", frame_stack=2).state_array_spec["obs"].shape == [2, 11]
    with pytest.raises(compat.EnvPoolError, match="frame_stack"):
        compat.make_spec("Hopper-v4", frame_stack=0)
    with pytest.raises(TypeError, match="frame_stack"):
        compat.make_spec("Hopper-v4", frame_stack=1.5)


def test_turn_based_tasks_are_refused_by_name() -> None:
    """Simultaneous players get EnvPool 1.2.7's layout (test_envpool_multiplayer.py); turn-based games do not."""
    with pytest.raises(ValueError, match="2 players taking turns: the EnvPool layer has no turn-based layout"):
        compat.make_gymnasium("TicTacToe-v1", num_envs=2)
