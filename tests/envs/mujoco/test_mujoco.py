"""MuJoCo tasks against gymnasium 1.x's own MuJoCo envs (the reference), on the same MuJoCo library.

Every expected value comes from gymnasium: its registry and spaces, its envs
stepped side by side with rlpool's from the same qpos/qvel under the same
actions, and its own resets. rlpool resets in NextStep mode, so after each
episode end rlpool takes one more step (which returns its reset observation),
and gymnasium is then put into rlpool's fresh state (``reset`` for
``mj_resetData``, then ``set_state(qpos, qvel)``): that checks rlpool's reset
observation and info too, and the next episode starts from the same state.

Both sides run the same libmujoco on the same model file, so results agree to
the last bits or nearly (sums taken in another order); the bound is 1e-6,
relative to values above 1.

gymnasium refuses Pusher-v4 on MuJoCo >= 3 (Gymnasium issue #950: its model
behaves differently than on MuJoCo 2); its v4 code is still the reference for
rlpool's Pusher-v4 rules, so it is built here with that version check bypassed.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import subprocess
import sys
import types
import warnings
from importlib.metadata import version
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.wrappers import TimeLimit
from gymnasium_parity import assert_spec_matches_gymnasium
from lane import REPO

import rlpool

mujoco = pytest.importorskip("mujoco")
try:
    import imageio  # noqa: F401  gymnasium's MuJoCo renderer imports it at module level
except ImportError:  # only rendering uses it (gymnasium[mujoco] installs it); nothing here renders
    sys.modules["imageio"] = types.ModuleType("imageio")

NAMES = [
    "Ant",
    "HalfCheetah",
    "Hopper",
    "Humanoid",
    "HumanoidStandup",
    "InvertedDoublePendulum",
    "InvertedPendulum",
    "Pusher",
    "Reacher",
    "Swimmer",
    "Walker2d",
]
TASKS = [f"{n}-{v}" for n in NAMES for v in ("v4", "v5")]
TOL = 1e-6

# rlpool splits gymnasium's (low, high) tuple arguments into <name>_min / <name>_max.
RANGE_ARGS = ("healthy_z", "healthy_state", "healthy_angle", "contact_force", "contact_cost", "impact_cost")


@contextlib.contextmanager
def _mujoco_version(v: str):
    saved = mujoco.__version__
    mujoco.__version__ = v
    try:
        yield
    finally:
        mujoco.__version__ = saved


def gym_kwargs(task_id: str, options: dict) -> dict:
    """gymnasium constructor arguments for rlpool ``options`` (tuple ranges rebuilt)."""
    defaults = rlpool.make_spec(task_id).config
    kwargs = {}
    for name, value in options.items():
        base = name.rsplit("_", 1)[0]
        if base in RANGE_ARGS and name.endswith(("_min", "_max")):
            low = options.get(f"{base}_min", defaults[f"{base}_min"])
            high = options.get(f"{base}_max", defaults[f"{base}_max"])
            kwargs[f"{base}_range"] = (low, high)
        else:
            kwargs[name] = value
    return kwargs


def gym_env(task_id: str, max_episode_steps: int | None = None, **kwargs) -> gym.Env:
    """gymnasium's env for ``task_id`` (its TimeLimit, no env checker), Pusher-v4 included."""
    steps = max_episode_steps or gym.spec(task_id).max_episode_steps
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if task_id == "Pusher-v4":
            from gymnasium.envs.mujoco.pusher_v4 import PusherEnv

            with _mujoco_version("2.3.7"):  # see the module docstring
                return TimeLimit(PusherEnv(**kwargs), steps)
        return gym.make(task_id, max_episode_steps=steps, disable_env_checker=True, **kwargs)


def assert_close(ours, ref, where: str) -> None:
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    assert ours.shape == ref.shape, (where, ours.shape, ref.shape)
    err = np.abs(ours - ref) / np.maximum(1.0, np.abs(ref))
    assert np.all(err <= TOL), (where, float(err.max()), ours, ref)


def random_action(rng: np.random.Generator, space: spaces.Box, dtype) -> np.ndarray:
    """In the bounds mostly, sometimes beyond them (MuJoCo clamps ctrl; the cost sees the raw action)."""
    u = rng.random()
    if u < 0.1:
        return rng.uniform(1.5 * space.low, 1.5 * space.high).astype(dtype)
    if u < 0.13:
        return np.zeros(space.shape, dtype=dtype)
    return rng.uniform(space.low, space.high).astype(dtype)


def sync_to_ours(env, g: gym.Env, obs: np.ndarray, info: dict, where: str) -> None:
    """Put gymnasium into rlpool's freshly reset state; check rlpool's reset observation and info."""
    u = g.unwrapped
    state = np.frombuffer(env.get_state(0), dtype=np.float64)
    nq, nv = u.model.nq, u.model.nv
    assert state.shape == (nq + nv,), where
    g.reset()  # mj_resetData (and a TimeLimit restart); its own random state is replaced next
    u.set_state(state[:nq].copy(), state[nq:].copy())
    assert_close(obs, u._get_obs(), f"{where} reset obs")
    for key, value in u._get_reset_info().items():
        assert_close(info[key][0], value, f"{where} reset info {key}")


def run_parity(task_id: str, *, steps: int, seed: int, max_episode_steps: int, action_dtype=np.float64, **options):
    """Step rlpool and gymnasium side by side and compare everything; returns counts of episode ends."""
    env = rlpool.make(task_id, num_envs=1, seed=seed, max_episode_steps=max_episode_steps, **options)
    kwargs = gym_kwargs(task_id, options)
    # gymnasium's v4 classes fix frame_skip in their constructor: the reference is the same class with its
    # frame_skip attribute set, which is all that option changes (each step runs that many mj_steps).
    skip = kwargs.pop("frame_skip", None) if task_id.endswith("-v4") else None
    g = gym_env(task_id, max_episode_steps, **kwargs)
    if skip is not None:
        g.unwrapped.frame_skip = skip
    space = g.action_space
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    g.reset(seed=seed)
    where = f"{task_id} {options}"
    sync_to_ours(env, g, obs[0], info, f"{where} first reset")
    ends = {"terminated": 0, "truncated": 0}
    for t in range(steps):
        action = random_action(rng, space, action_dtype)
        gobs, greward, gterm, gtrunc, ginfo = g.step(action)
        obs, reward, term, trunc, info = env.step(action[None])
        here = f"{where} step {t}"
        assert obs.dtype == np.float64 and obs.shape == (1, *g.observation_space.shape), here
        assert_close(obs[0], gobs, f"{here} obs")
        assert_close(reward[0], greward, f"{here} reward")
        assert bool(term[0]) == gterm, here
        assert bool(trunc[0]) == gtrunc, here
        assert info["elapsed_step"][0] == g.get_wrapper_attr("_elapsed_steps"), here
        assert set(info) - {"env_id", "elapsed_step"} == set(ginfo), (here, sorted(info), sorted(ginfo))
        for key, value in ginfo.items():
            assert_close(info[key][0], value, f"{here} info {key}")
        if gterm or gtrunc:
            ends["terminated" if gterm else "truncated"] += 1
            obs, reward, term, trunc, info = env.step(action[None])  # NextStep: the reset step
            assert reward[0] == 0.0 and not term[0] and not trunc[0], here
            assert info["elapsed_step"][0] == 0, here
            sync_to_ours(env, g, obs[0], info, f"{here} autoreset")
    env.close()
    g.close()
    return ends


# ---------------------------------------------------------------- registry, spaces, library


@pytest.mark.parametrize("task_id", TASKS)
def test_spaces_and_registry_match_gymnasium(task_id):
    g = gym_env(task_id)
    spec, _ = assert_spec_matches_gymnasium(task_id, g)
    # The default model is gymnasium's own file.
    assert Path(spec.config["xml_file"]) == Path(g.unwrapped.fullpath)
    assert spec.config["frame_skip"] == g.unwrapped.frame_skip
    g.close()


def test_one_mujoco_library_pinned_for_build_and_run():
    pyproject = REPO / "pyproject.toml"
    if pyproject.exists():  # a source checkout: the pins must agree with what is installed
        pins = re.findall(r'"(mujoco\b[^"]*)"', pyproject.read_text())  # [build-system] and [project]
        assert pins == [f"mujoco=={version('mujoco')}"] * 2, pins
    env = rlpool.make("Ant-v5", num_envs=1)
    env.reset()
    g = gym_env("Ant-v5")
    g.reset(seed=0)
    # rlpool's C++ and the mujoco bindings run one and the same library file: the bindings the file
    # itself, rlpool a private copy of it in memory (named after the file; its version is checked on load).
    name = f"libmujoco.so.{mujoco.__version__}"
    libs = {line.split(None, 5)[-1] for line in Path("/proc/self/maps").read_text().splitlines() if "libmujoco" in line}
    assert libs == {mujoco.__file__.rsplit("/", 1)[0] + "/" + name, f"/memfd:{name} (deleted)"}, libs
    env.close()
    g.close()


def test_the_mujoco_packages_settings_are_its_own():
    """rlpool's envs run their own copy of the library: MuJoCo's globals (the log handler rlpool installs
    to turn errors into exceptions; the timer callback the mujoco package sets) stay apart. Checked on the
    log handler, in a child process whose mujoco no other test has touched."""
    code = """
import ctypes, mujoco, rlpool
from rlpool.envs.mujoco import mujoco_library
swap = ctypes.CDLL(str(mujoco_library())).mju_setLogHandler
swap.restype, swap.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
def handler():
    h = swap(None)
    swap(h)
    return h
before = handler()
env = rlpool.make("Hopper-v5", num_envs=2, seed=0)
env.reset()
env.step(env.action_space.sample())
print("same handler:", handler() == before)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "same handler: True" in run.stdout, run.stdout


# ---------------------------------------------------------------- step-by-step parity, default options

# Short episodes so that every task crosses several episode ends (time limits at
# least; the tasks that terminate do so under random actions, except Ant-v4/v5
# which rarely fall: their option cases below terminate often).
PARITY_STEPS = {"Humanoid": 150, "HumanoidStandup": 120}


@pytest.mark.parametrize("task_id", TASKS)
def test_step_parity_default_options(task_id):
    name = task_id.split("-")[0]
    max_steps = 25 if name in ("InvertedPendulum", "InvertedDoublePendulum") else 40
    ends = run_parity(task_id, steps=PARITY_STEPS.get(name, 200), seed=7, max_episode_steps=max_steps)
    assert ends["truncated"] + ends["terminated"] >= 3, ends
    if name in ("Hopper", "Walker2d", "Humanoid", "InvertedPendulum", "InvertedDoublePendulum"):
        assert ends["terminated"] >= 1, ends


def test_step_parity_float32_actions():
    # gymnasium sums float32 squares in float32 for the control cost, rlpool in
    # float64 (the same float32 values): they differ by float32 rounding of a
    # sum of order 1, ~1e-7, inside the bound.
    run_parity("Ant-v5", steps=120, seed=3, max_episode_steps=50, action_dtype=np.float32)
    run_parity("Pusher-v5", steps=120, seed=3, max_episode_steps=50, action_dtype=np.float32)


# ---------------------------------------------------------------- options

OPTION_CASES = [
    ("Ant-v4", {"use_contact_forces": True, "exclude_current_positions_from_observation": False}),
    ("Ant-v4", {"healthy_z_max": 0.6, "terminate_when_unhealthy": True, "ctrl_cost_weight": 0.1}),
    ("Ant-v4", {"healthy_z_max": 0.6, "terminate_when_unhealthy": False, "contact_force_max": 0.5}),
    ("Ant-v5", {"healthy_z_min": 0.3, "healthy_z_max": 0.6, "forward_reward_weight": 2.0, "main_body": 2}),
    ("Ant-v5", {"include_cfrc_ext_in_observation": False, "contact_cost_weight": 1e-2, "frame_skip": 3}),
    ("Ant-v5", {"healthy_z_max": 0.6, "terminate_when_unhealthy": False, "healthy_reward": 0.5}),
    ("HalfCheetah-v4", {"exclude_current_positions_from_observation": False, "forward_reward_weight": 0.5}),
    ("HalfCheetah-v5", {"frame_skip": 2, "ctrl_cost_weight": 1.0}),
    ("Hopper-v4", {"terminate_when_unhealthy": False, "healthy_angle_max": 0.1, "healthy_reward": 2.0}),
    (
        "Hopper-v5",
        {"healthy_state_max": 5.0, "healthy_z_min": 1.0, "exclude_current_positions_from_observation": False},
    ),
    ("Hopper-v5", {"terminate_when_unhealthy": False, "healthy_z_min": 1.1}),
    ("Humanoid-v4", {"exclude_current_positions_from_observation": False, "terminate_when_unhealthy": False}),
    (
        "Humanoid-v5",
        {
            "include_cinert_in_observation": False,
            "include_qfrc_actuator_in_observation": False,
            "contact_cost_max": 0.01,
            "healthy_z_max": 1.35,
        },
    ),
    ("Humanoid-v5", {"include_cvel_in_observation": False, "include_cfrc_ext_in_observation": False}),
    ("HumanoidStandup-v5", {"impact_cost_max": 0.001, "ctrl_cost_weight": 1.0, "include_cinert_in_observation": False}),
    ("HumanoidStandup-v5", {"exclude_current_positions_from_observation": False, "impact_cost_weight": 1e-3}),
    ("InvertedDoublePendulum-v5", {"healthy_reward": 3.0, "frame_skip": 3}),
    ("InvertedPendulum-v5", {"frame_skip": 4}),
    ("Pusher-v5", {"reward_near_weight": 2.0, "reward_dist_weight": 0.3, "reward_control_weight": 1.0}),
    ("Reacher-v5", {"reward_dist_weight": 2.0, "reward_control_weight": 0.1}),
    ("Swimmer-v4", {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": 0.1}),
    ("Swimmer-v5", {"forward_reward_weight": 3.0}),
    ("Walker2d-v4", {"terminate_when_unhealthy": False, "healthy_z_min": 1.1}),
    # The v4 tasks whose only option is frame_skip (see run_parity).
    ("Reacher-v4", {"frame_skip": 4}),
    ("Pusher-v4", {"frame_skip": 3}),
    ("InvertedPendulum-v4", {"frame_skip": 4}),
    ("InvertedDoublePendulum-v4", {"frame_skip": 3}),
    ("HumanoidStandup-v4", {"frame_skip": 3}),
    ("HalfCheetah-v4", {"frame_skip": 2}),
    (
        "Walker2d-v5",
        {"healthy_angle_min": -0.3, "healthy_angle_max": 0.3, "exclude_current_positions_from_observation": False},
    ),
]


@pytest.mark.parametrize(
    ("task_id", "options"), OPTION_CASES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(OPTION_CASES)]
)
def test_step_parity_options(task_id, options):
    ends = run_parity(task_id, steps=100, seed=11, max_episode_steps=40, **options)
    assert ends["truncated"] + ends["terminated"] >= 2
    spec = rlpool.make_spec(task_id, **options)
    assert all(spec.config[k] == v for k, v in options.items())
    if options.get("terminate_when_unhealthy") is False:
        assert ends["terminated"] == 0


FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
# Tasks whose random-action episodes live to gymnasium's time limit (the others fall well before it).
LONG = TASKS if FULL else ["HalfCheetah-v5", "Swimmer-v4", "Ant-v5", "Reacher-v5", "Pusher-v4"]


@pytest.mark.parametrize("task_id", LONG)
def test_step_parity_to_the_time_limit(task_id):
    # Whole episodes under gymnasium's own time limit (1000 steps for most, 50 Reacher, 100 Pusher).
    limit = gym.spec(task_id).max_episode_steps
    ends = run_parity(task_id, steps=limit + 5, seed=21, max_episode_steps=limit)
    if task_id.split("-")[0] in ("HalfCheetah", "Swimmer", "Reacher", "Pusher"):
        assert ends["truncated"] >= 1, ends  # these never terminate


def test_options_that_terminate_really_terminate():
    # The unhealthy-height cases above must actually cross terminations.
    assert run_parity("Ant-v5", steps=80, seed=2, max_episode_steps=60, healthy_z_max=0.6)["terminated"] >= 2
    assert run_parity("Humanoid-v5", steps=80, seed=2, max_episode_steps=60, healthy_z_max=1.35)["terminated"] >= 2


def test_custom_xml_file(tmp_path):
    # A model of the user's: Ant with a bigger (heavier) torso, the same file on both sides.
    text = Path(rlpool.make_spec("Ant-v5").config["xml_file"]).read_text()
    torso = 'name="torso_geom" pos="0 0 0" size="0.25"'
    assert torso in text
    xml = tmp_path / "big_ant.xml"
    xml.write_text(text.replace(torso, torso.replace("0.25", "0.35")))
    assert rlpool.make_spec("Ant-v5", xml_file=str(xml)).config["xml_file"] == str(xml)
    run_parity("Ant-v5", steps=60, seed=5, max_episode_steps=30, xml_file=str(xml))
    masses = [gym_env("Ant-v5", **kw).unwrapped.model.body_mass[1] for kw in ({"xml_file": str(xml)}, {})]
    assert masses[0] > masses[1]


# ---------------------------------------------------------------- reset distribution

KS_ALPHA = 1e-6  # per component; ~500 components are tested in all
# Tasks whose reset draws qvel from s * N(0, 1) (qpos is always uniform).
NORMAL_QVEL = {"Ant", "HalfCheetah", "InvertedDoublePendulum"}


def ks_two_sample(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.sort(a), np.sort(b)
    x = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, x, side="right") / a.size
    cdf_b = np.searchsorted(b, x, side="right") / b.size
    return float(np.max(np.abs(cdf_a - cdf_b)))


def ks_critical(n: int, m: int) -> float:
    return math.sqrt(-0.5 * math.log(KS_ALPHA / 2)) * math.sqrt((n + m) / (n * m))


def reset_states(task_id: str, n_envs: int, rounds: int, seed: int) -> np.ndarray:
    """qpos + qvel of rlpool's envs after ``rounds`` seeded resets of ``n_envs`` envs (all seeds distinct)."""
    env = rlpool.make(task_id, num_envs=n_envs, seed=seed)
    states = []
    for r in range(rounds):
        env.reset(seed=seed + r * n_envs)
        states.extend(np.frombuffer(env.get_state(i), dtype=np.float64) for i in range(n_envs))
    env.close()
    return np.array(states)


@pytest.mark.parametrize("task_id", TASKS)
def test_reset_distribution_matches_gymnasium(task_id):
    n_envs, rounds = 100, 8
    n = n_envs * rounds
    g = gym_env(task_id).unwrapped
    nq = g.model.nq
    g.reset(seed=123)
    ref = []
    for _ in range(n):
        g.reset()
        ref.append(np.concatenate([g.data.qpos, g.data.qvel]))
    ref = np.array(ref)
    g.close()

    ours = reset_states(task_id, n_envs, rounds, seed=1000)
    assert ours.shape == ref.shape
    assert len(np.unique(ours, axis=0)) == n

    for k in range(ref.shape[1]):
        r, o = ref[:, k], ours[:, k]
        if np.all(r == r[0]):  # gymnasium keeps this component fixed
            assert np.all(o == r[0]), (task_id, k, o[:5], r[0])
            continue
        # Same spread and the same distribution (two-sample KS); uniform noise: the same bounds
        # (800 draws come within 2% of each end with probability 1 - 1e-7).
        if k < nq or task_id.split("-")[0] not in NORMAL_QVEL:
            width = r.max() - r.min()
            assert r.min() - 0.02 * width <= o.min() and o.max() <= r.max() + 0.02 * width, (task_id, k)
        assert 0.85 < o.std() / r.std() < 1.18, (task_id, k, o.std(), r.std())
        d = ks_two_sample(o, r)
        assert d < ks_critical(n, n), (task_id, k, d)


class RecordingGenerator:
    """A numpy Generator that records the draws gymnasium's reset_model makes (kind, bounds, values)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.calls: list[tuple] = []

    def uniform(self, low=0.0, high=1.0, size=None):  # noqa: ANN001, ANN201
        v = self.rng.uniform(low, high, size)
        self.calls.append(("uniform", np.broadcast_to(low, np.shape(v)), np.broadcast_to(high, np.shape(v)), v))
        return v

    def standard_normal(self, size=None):  # noqa: ANN001, ANN201
        v = self.rng.standard_normal(size)
        self.calls.append(("normal", None, None, v))
        return v

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self.rng, name)


def gymnasium_noise(task_id: str) -> tuple[np.ndarray, list]:
    """Each qpos/qvel component's reset distribution, as gymnasium's own reset_model draws it.

    gymnasium's reset is run twice with a recording generator: a component is ``init + U(low, high)`` when it
    equals init plus the recorded uniform draw of its size (nq for qpos, nv for qvel) both times, and
    ``init + sigma * N(0, 1)`` when (value - init) / the recorded normal draw gives the same sigma both times;
    ``("fixed", value)`` when it never moves; ``("other",)`` otherwise (Reacher's goal, Pusher's cylinder:
    rejection-sampled, left to the two-sample test above). Returns the initial state and the list.
    """
    g = gym_env(task_id).unwrapped
    nq, nv = g.model.nq, g.model.nv
    init = np.concatenate([g.init_qpos, g.init_qvel]).copy()
    runs = []
    g.reset(seed=5)
    for _ in range(2):
        rec = RecordingGenerator(g.np_random)
        g._np_random = rec
        g.reset()
        g._np_random = rec.rng
        runs.append((np.concatenate([g.data.qpos, g.data.qvel]).copy(), rec.calls))
    g.close()
    kinds = []
    for k in range(nq + nv):
        size, index = (nq, k) if k < nq else (nv, k - nq)
        guesses = set()
        for state, calls in runs:
            found = None
            d = state[k] - init[k]
            tol = 1e-12 * (1 + abs(init[k]))  # (init + u) - init is u up to the rounding of the sum
            for kind, low, high, v in (c for c in calls if np.shape(c[3]) == (size,)):
                if kind == "uniform" and abs(d - v[index]) <= tol:
                    found = ("uniform", float(low[index]), float(high[index]))
                    break
            if found is None and state[k] == init[k]:
                found = ("fixed", float(init[k]))
            normals = [c for c in calls if c[0] == "normal" and np.shape(c[3]) == (size,)]
            if found is None and len(normals) == 1 and normals[0][3][index] != 0:
                found = ("normal", round(float(d / normals[0][3][index]), 9))
            guesses.add(found)
        kinds.append(guesses.pop() if len(guesses) == 1 and None not in guesses else ("other",))
    return init, kinds


def kurtosis(x: np.ndarray) -> float:
    z = (x - x.mean()) / x.std()
    return float(np.mean(z**4))


@pytest.mark.parametrize("task_id", TASKS)
def test_reset_noise_is_gymnasiums_distribution(task_id):
    # ours against the exact distributions gymnasium's reset_model draws from (bounds and scales as its
    # code has them for this version), with 3000 resets: uniform bounds within 1 %, a normal's scale within
    # 4 % and its shape (kurtosis 3 against a uniform's 1.8), one-sample KS for both.
    init, kinds = gymnasium_noise(task_id)
    assert any(k[0] in ("uniform", "normal") for k in kinds), kinds
    ours = reset_states(task_id, n_envs=500, rounds=6, seed=77)
    n = len(ours)
    crit = math.sqrt(-0.5 * math.log(KS_ALPHA / 2)) / math.sqrt(n)
    for k, kind in enumerate(kinds):
        d = ours[:, k] - init[k]
        where = (task_id, k, kind)
        if kind[0] == "fixed":
            assert np.all(ours[:, k] == kind[1]), where
        elif kind[0] == "uniform":
            low, high = kind[1], kind[2]
            width = high - low
            assert low - 1e-12 * abs(low) <= d.min() and d.max() <= high + 1e-12 * abs(high), where
            assert d.min() < low + 0.01 * width and d.max() > high - 0.01 * width, where
            u = np.sort((d - low) / width)
            ks = np.max(np.maximum(np.arange(1, n + 1) / n - u, u - np.arange(n) / n))
            assert ks < crit, (where, ks)
            assert abs(kurtosis(d) - 1.8) < 0.25, (where, kurtosis(d))
        elif kind[0] == "normal":
            sigma = kind[1]
            assert abs(d.std() / sigma - 1) < 0.04, (where, d.std())
            assert abs(kurtosis(d) - 3.0) < 0.6, (where, kurtosis(d))
            z = np.sort(d / sigma)
            cdf = 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
            ks = np.max(np.maximum(np.arange(1, n + 1) / n - cdf, cdf - np.arange(n) / n))
            assert ks < crit, (where, ks)


def test_reset_noise_is_uniform_or_normal_as_gymnasium_draws_it():
    # Ant draws qvel from s * N(0, 1) and qpos from U(-s, s) around the initial state.
    env = rlpool.make("Ant-v5", num_envs=400, seed=3, reset_noise_scale=0.2)
    env.reset()
    states = np.array([np.frombuffer(env.get_state(i), dtype=np.float64) for i in range(400)])
    env.close()
    g = gym_env("Ant-v5").unwrapped
    init = np.concatenate([g.init_qpos, g.init_qvel])
    nq = g.model.nq
    g.close()
    noise = (states - init) / 0.2
    qpos_noise, qvel_noise = noise[:, :nq].ravel(), noise[:, nq:].ravel()
    assert np.all(np.abs(qpos_noise) <= 1.0) and qpos_noise.min() < -0.99 and qpos_noise.max() > 0.99
    assert abs(qvel_noise.std() - 1.0) < 0.05 and np.abs(qvel_noise).max() > 3.0  # normal tails, not uniform


# ---------------------------------------------------------------- engine integration


def test_deterministic_across_threads_and_async():
    # Env i's trajectory under its own action sequence is the same whatever the
    # threads and whatever order async batches come back in.
    n, steps = 6, 50
    actions = np.random.default_rng(0).uniform(-1, 1, (n, steps, 3))

    def sync_run(num_threads: int) -> list[list[np.ndarray]]:
        env = rlpool.make("Hopper-v5", num_envs=n, seed=9, max_episode_steps=20, num_threads=num_threads)
        obs, _ = env.reset()
        out = [[obs[i].copy()] for i in range(n)]
        for t in range(steps):
            obs, *_ = env.step(actions[:, t])
            for i in range(n):
                out[i].append(obs[i].copy())
        env.close()
        return out

    def async_run() -> list[list[np.ndarray]]:
        env = rlpool.make("Hopper-v5", num_envs=n, batch_size=2, seed=9, max_episode_steps=20, num_threads=2)
        env.async_reset()
        out: list[list[np.ndarray]] = [[] for _ in range(n)]
        while min(len(o) for o in out) <= steps:
            obs, _, _, _, info = env.recv()
            ids = info["env_id"]
            for j, i in enumerate(ids):
                out[i].append(obs[j].copy())
            env.send(np.stack([actions[i, min(len(out[i]) - 1, steps - 1)] for i in ids]), ids)
        env.close()
        return [o[: steps + 1] for o in out]

    reference = sync_run(1)
    for other in (sync_run(2), async_run()):
        for i in range(n):
            assert all(np.array_equal(a, b) for a, b in zip(reference[i], other[i], strict=True)), i


def test_get_set_state_round_trip():
    env = rlpool.make("Walker2d-v5", num_envs=2, seed=1)
    env.reset()
    env.step(np.zeros((2, 6), np.float32))
    state = env.get_state(0)
    assert len(state) == 8 * (9 + 9)
    env.set_state(1, state)
    assert env.get_state(1) == state
    obs, *_ = env.step(np.full((2, 6), 0.3, np.float32))
    # qpos and qvel are not MuJoCo's whole state (gymnasium's set_state neither): env 1 keeps
    # its own solver warm start, so the two agree to solver tolerance, not bit for bit.
    assert_close(obs[1], obs[0], "after set_state")


# ---------------------------------------------------------------- bad input


def test_bad_options_raise_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="nope.xml"):
        rlpool.make("Ant-v5", xml_file=str(tmp_path / "nope.xml"))
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body></mujoco>")
    with pytest.raises(ValueError, match="bad.xml"):
        rlpool.make_spec("Hopper-v5", xml_file=str(bad))
    # A valid model without what the task reads.
    humanoid = rlpool.make_spec("Humanoid-v5").config["xml_file"]
    with pytest.raises(ValueError, match="no body named 'tips_arm'"):
        rlpool.make("Pusher-v5", xml_file=humanoid)
    reacher = rlpool.make_spec("Reacher-v5").config["xml_file"]
    with pytest.raises(ValueError, match="Pusher model needs .*reacher.xml"):
        rlpool.make("Pusher-v5", xml_file=reacher)
    with pytest.raises(ValueError, match="frame_skip"):
        rlpool.make("Hopper-v5", frame_skip=0)
    with pytest.raises(ValueError, match="main_body"):
        rlpool.make("Ant-v5", main_body=99)
    with pytest.raises(TypeError, match="healthy_z_min"):
        rlpool.make("Ant-v5", healthy_z_min="low")
    with pytest.raises(ValueError, match="healthy_z_range"):
        rlpool.make("Ant-v5", healthy_z_range=(0.2, 1.0))  # rlpool takes healthy_z_min / healthy_z_max
    env = rlpool.make("Swimmer-v5", num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="bytes"):
        env.set_state(0, b"\0" * 8)
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([[np.nan, 0.0]]))
    with pytest.raises(ValueError):
        env.step(np.zeros((1, 3)))
    env.close()


def test_python_timer_off_clears_and_restores_the_packages_timer():
    import ctypes

    from rlpool.envs.mujoco import mujoco_library, python_timer_off

    timer = ctypes.c_void_p.in_dll(ctypes.CDLL(str(mujoco_library())), "mjcb_time")
    assert timer.value  # set by the mujoco package's import (this module imports it)
    before = timer.value
    with python_timer_off():
        assert timer.value is None
    assert timer.value == before


def test_a_compiled_model_file_loads_and_a_bad_one_is_refused(tmp_path):
    # xml_file may name a binary model this MuJoCo saved (.mjb): the same task as from its XML.
    import mujoco

    xml = rlpool.make_spec("Ant-v5").config["xml_file"]
    mjb = tmp_path / "ant.mjb"
    mujoco.mj_saveModel(mujoco.MjModel.from_xml_path(xml), str(mjb), None)
    runs = []
    for path in (xml, str(mjb)):
        env = rlpool.make("Ant-v5", num_envs=1, seed=3, xml_file=path)
        obs = [env.reset()[0]] + [env.step(np.full((1, 8), 0.3, np.float32))[0] for _ in range(5)]
        env.close()
        runs.append(obs)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)
    bad = tmp_path / "bad.mjb"
    bad.write_bytes(b"not a model" * 10)
    with pytest.raises(ValueError, match="not a binary model of MuJoCo"):
        rlpool.make("Ant-v5", num_envs=1, xml_file=str(bad))
