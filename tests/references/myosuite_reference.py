"""myosuite 2.11.6 as the reference of rlpool's MyoSuite tasks, run in virtualenvs of their own.

myosuite 2.11.6 pins ``mujoco==3.3.0``, ``dm-control==1.0.28`` and ``gymnasium==0.29.1``, which cannot share a
process with rlpool's, so the reference runs in a child Python (``myosuite_child.py``) of a cached
virtualenv under rlpool's cache, one per Python version, made with ``cached_venv`` from the pinned wheel
rlpool takes its models from (``rlpool.pinned_wheel``, checked against its sha256). There are two:

- the project's MuJoCo (``reference_python()``): the wheel installed without its dependencies, with this
  environment's MuJoCo, dm-control (without labmaze, which only dm_control's locomotion mazes use and which has
  no wheel for CPython 3.13+), gymnasium and scipy, numpy 2.3.5 (myosuite's bimanual and soccer envs fail on
  numpy 2.4), and the light packages ``import myosuite`` and its envs import. The same simulator as
  rlpool's: whole episodes must agree (``lockstep``).
- the pinned one (``reference_python(pinned=True)``): the wheel with its own pins (pip resolves them) and numpy
  2.3.5, CPython 3.11 only (labmaze, which dm-control 1.0.28 needs, has no wheel for 3.13+). Two MuJoCo
  versions drift apart over an episode, so rlpool's env is put into the reference's state before every
  step and one step of each is compared (``synced``).

``Reference.reset(words)`` makes myosuite draw exactly what rlpool's env draws: rlpool's env seeds a generator
of its own from four words at each reset (the start of its saved state, ``start_words``), and the
reference's generators become a Python copy of that generator (``xoshiro.XoshiroGenerator``).
"""

from __future__ import annotations

import importlib.metadata
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cached_venv import ask, cached_venv, pip_install
from lane import CI, require

from rlpool import pinned_wheel
from rlpool.cache import cache_root
from rlpool.envs import myosuite

VERSION = myosuite.VERSION
MAGIC = b"rlpool-myosuite-v1\n"
CHILD = Path(__file__).resolve().parent / "myosuite_child.py"
NUMPY = "2.3.5"
"""The numpy of both references: myosuite 2.11.6's bimanual and soccer envs fail on numpy 2.4."""
PINNED_PYTHON = (3, 11)
"""The only Python the pinned reference is made for (dm-control 1.0.28 needs labmaze, which CPython 3.13+ lacks)."""
LIGHT = ["flatten-dict==0.5.0", "pink-noise-rl==2.0.1", "h5py==3.16.0", "sk-video==1.1.10", "GitPython==3.2.1",
         "termcolor==3.3.0"]
"""What myosuite 2.11.6 imports besides MuJoCo, dm-control, gymnasium, numpy and scipy (env_base: skvideo,
import_utils: git, prompt_utils: termcolor, env_variants: flatten_dict; chasetag and soccer: pink;
tabletennis: h5py). Its click and Pillow serve only its scripts and loggers (utils/examine_*, logger/)."""
DM_CONTROL_DEPENDENCIES = ["absl-py", "dm-env", "dm-tree", "glfw", "lxml", "protobuf", "pyparsing", "requests",
                           "setuptools", "tqdm"]
"""dm-control's own requirements but labmaze (and MuJoCo, numpy, scipy, PyOpenGL, pinned apart)."""


def _here(package: str, default: str | None = None) -> str:
    """``package==<this environment's version>``; ``package==default`` or the bare name where it is not installed."""
    try:
        return f"{package}=={importlib.metadata.version(package)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{package}=={default}" if default else package


PROJECT_MUJOCO = importlib.metadata.version("mujoco")
"""rlpool's MuJoCo, which the project reference runs myosuite's code on."""
DM_CONTROL = _here("dm-control", "1.0.50")
"""The dm-control of the project reference (this environment's; it needs MuJoCo >= 3.17)."""


def _wheel() -> pinned_wheel.PinnedWheel:
    """myosuite 2.11.6's wheel, as rlpool fetches it (the one rlpool takes its models from)."""
    return myosuite.wheel()


def requirements(*, pinned: bool = False) -> list[str]:
    """What a reference virtualenv holds besides myosuite's wheel, installed by name (with their dependencies)."""
    common = [f"numpy=={NUMPY}", *LIGHT, _here("PyOpenGL"), _here("packaging"), _here("scipy")]
    if pinned:  # myosuite's own pins come with its wheel
        return common
    return [*common, f"mujoco=={PROJECT_MUJOCO}", _here("gymnasium"), *(_here(p) for p in DM_CONTROL_DEPENDENCIES)]


def _wanted(pinned: bool) -> list[str]:
    """The virtualenv's marker (``cached_venv``'s ``wanted``): a change of any line remakes it."""
    if pinned:
        return [f"myosuite=={VERSION}", *requirements(pinned=True)]
    return [f"myosuite=={VERSION} --no-deps", f"{DM_CONTROL} --no-deps", *requirements()]


def venv_folder(*, pinned: bool = False) -> Path:
    """Where a reference virtualenv lies: one per Python version and MuJoCo."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    mujoco = "3.3.0" if pinned else PROJECT_MUJOCO
    return cache_root() / "references" / f"myosuite-{VERSION}-mujoco-{mujoco}-{tag}"


def _install(python: Path, pinned: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wheel = pinned_wheel.in_cache_root(_wheel()) or pinned_wheel.download(_wheel(), Path(tmp))
        if pinned:
            pip_install(python, [str(wheel), *requirements(pinned=True)])
        else:  # myosuite and dm-control without their dependencies: the rest by name
            pip_install(python, requirements())
            pip_install(python, ["--no-deps", DM_CONTROL, str(wheel)])


def reference_python(*, pinned: bool = False) -> Path:
    """A reference virtualenv's Python, made first where missing; skips the test (fails it in CI) if it cannot be.

    The pinned one is made for CPython 3.11 only: elsewhere the test is skipped (in CI too).
    """
    if pinned and sys.version_info[:2] != PINNED_PYTHON:
        pytest.skip("myosuite's pinned reference (dm-control 1.0.28 needs labmaze) is made for CPython 3.11 only")
    folder = venv_folder(pinned=pinned)
    try:
        return cached_venv(folder, _wanted(pinned), lambda python: _install(python, pinned),
                           what="the MyoSuite reference virtualenv" + (" (pinned)" if pinned else ""))
    except Exception as e:  # no network, no pip: the comparison cannot run here
        require(f"myosuite {VERSION}'s reference virtualenv could not be made in {folder}: {e}")
        raise


class Reference:
    """myosuite 2.11.6's env of one id, in a reference virtualenv's child Python (project MuJoCo or pinned)."""

    def __init__(self, task: str, *, pinned: bool = False, render: bool = False,
                 size: tuple[int, int] = (480, 480)) -> None:
        python = reference_python(pinned=pinned)
        # The child's stderr goes to a file, whose end a failure quotes (a pipe could fill up and block it).
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([str(python), str(CHILD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True, bufsize=1)
        self.made: dict[str, Any] = self.call("make", task=task, render=render, width=size[0], height=size[1])

    def call(self, op: str, **request: Any) -> Any:
        """One request; its answer, or an AssertionError with the reference's error."""
        return ask(self.process, self.stderr, "MyoSuite", op, request)

    def reset(self, words: tuple[int, int, int, int]) -> dict[str, Any]:
        """Reset with rlpool's generator of ``words``: ``obs``, ``rwd_dict`` (term -> float) and ``time``."""
        return self.call("reset", words=[int(w) for w in words])

    def step(self, action: np.ndarray) -> dict[str, Any]:
        """One step of ``action`` (float32): obs, reward, terminated, truncated, rwd_dict, info."""
        return self.call("step", action=[float(a) for a in np.asarray(action, dtype=np.float32).ravel()])

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=60)
        self.stderr.close()

    def __enter__(self) -> Reference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_words(state: bytes) -> tuple[int, int, int, int]:
    """The four words rlpool's env seeded its generator with at its last reset, read from its saved state."""
    assert state.startswith(MAGIC), state[:40]
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4 + key_size
    return struct.unpack_from("<4Q", state, pos)


def _obs(obs: Any) -> np.ndarray:
    """The first env's observation vector (from an array, or a dict's ``"obs"``)."""
    return np.asarray(obs["obs"] if isinstance(obs, dict) else obs)[0]


def _terms(info: dict[str, Any]) -> list[str]:
    """The rwd_dict terms rlpool's info gives as ``rwd_<term>`` (dense and sparse included)."""
    return [key[len("rwd_"):] for key in info if key.startswith("rwd_")]


def lockstep(task: str, *, steps: int = 100, seed: int = 0, episodes: int = 1, tol: float = 1e-9) -> tuple[float, int]:
    """rlpool's env of ``task`` and myosuite's on the project MuJoCo, from the same draws, with the same actions.

    Each episode: rlpool's env resets, the reference resets from the same four words, and their observations
    and reset rewards must agree; then both take uniform actions in [-1.2, 1.2] (float32; some out of
    bounds, which neither clips), and at every step the observations (within ``tol``), reward, every
    ``rwd_<term>`` info entry (against the reference's ``rwd_dict[term]``), ``solved`` and ``terminated``
    must agree, and ``truncated`` must come at step ``steps``. An episode ends where both terminate (one
    alone fails). Returns the largest observation difference seen and the number of solved steps.
    """
    import rlpool

    env = rlpool.make(task, num_envs=1, seed=seed, max_episode_steps=steps)
    rng = np.random.default_rng(seed)
    worst = 0.0
    solved = 0
    with Reference(task) as ref:
        nu = ref.made["action_dim"]
        _check_spaces(task, env, ref.made)
        for episode in range(episodes):
            obs, info = env.reset()
            got = ref.reset(start_words(env.get_state(0)))
            where = f"{task} episode {episode} reset"
            worst = max(worst, _compare(where, _obs(obs), info, got, tol))
            for t in range(steps):
                action = rng.uniform(-1.2, 1.2, size=(1, nu)).astype(np.float32)
                obs, reward, terminated, truncated, info = env.step(action)
                want = ref.step(action[0])
                where = f"{task} episode {episode} step {t + 1}"
                worst = max(worst, _compare(where, _obs(obs), info, want, tol))
                assert abs(float(reward[0]) - want["reward"]) <= tol, (where, reward[0], want["reward"])
                assert bool(info["solved"][0]) == want["info"]["solved"], where
                assert abs(float(info["time"][0]) - want["info"]["time"]) <= tol, where
                solved += int(want["info"]["solved"])
                assert bool(terminated[0]) == want["terminated"], (where, terminated[0], want["terminated"])
                if want["terminated"]:
                    break
                assert bool(truncated[0]) == (t + 1 == steps), where
    env.close()
    return worst, solved


def _check_spaces(task: str, env: Any, made: dict[str, Any]) -> None:
    """rlpool's spaces, time limit and info terms against myosuite's env: bounds and dtypes, the horizon, and the
    ``rwd_<term>`` entries in rwd_dict's order."""
    import rlpool

    spec = rlpool.make_spec(task)
    space, action = env.single_observation_space, env.single_action_space
    assert space.dtype == np.float32 and action.dtype == np.float32, task
    np.testing.assert_array_equal(space.low, made["low"], err_msg=task)
    np.testing.assert_array_equal(space.high, made["high"], err_msg=task)
    np.testing.assert_array_equal(action.low, made["action_low"], err_msg=task)
    np.testing.assert_array_equal(action.high, made["action_high"], err_msg=task)
    assert spec.max_episode_steps == made["horizon"], (task, spec.max_episode_steps, made["horizon"])
    terms = [k for k in made["rwd_terms"] if k not in ("dense", "sparse", "solved", "done")]
    assert [a.name[4:] for a in spec.arrays.info if a.name.startswith("rwd_")][:len(terms)] == terms, task


def _compare(where: str, obs: np.ndarray, info: dict[str, Any], want: dict[str, Any], tol: float) -> float:
    """rlpool's observation and ``rwd_<term>`` entries against the reference's step (or reset); the obs difference."""
    np.testing.assert_allclose(obs, want["obs"], rtol=0, atol=tol, err_msg=where)
    terms = _terms(info)
    assert set(terms) <= set(want["rwd_dict"]), (where, terms, list(want["rwd_dict"]))
    for term in terms:
        got = float(np.asarray(info[f"rwd_{term}"])[0])
        assert abs(got - want["rwd_dict"][term]) <= tol, (where, term, got, want["rwd_dict"][term])
    return float(np.max(np.abs(obs - np.asarray(want["obs"])))) if obs.size else 0.0


# rlpool's saved state of a MyoSuite env, as this module reads and writes it. The one place that says the layout:
# magic, u32 key size, key, four u64 start words, the 48-byte Rng, then SIM_FIELDS as float64 (put_simulation in
# src/rlpool/envs/mujoco/state_io.cc: mocap_pos and mocap_quat are empty for models without mocap bodies). What
# follows (task numbers, fatigue, ...) is kept as rlpool wrote it.
RNG_BYTES = 48
"""sizeof(rlpool::Rng) in a saved state: four words, a cached normal and its flag."""
SIM_FIELDS = ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "mocap_pos", "mocap_quat")
"""The simulation's arrays after its time, in order."""


def with_reference_state(state: bytes, ref_state: dict[str, Any]) -> bytes:
    """rlpool's saved ``state`` with its simulation part (time, then ``SIM_FIELDS``) replaced by the reference's.

    ``ref_state`` is ``Reference.call("state")``. The fatigue model's state (myoFati ids) and the model numbers
    the task drew (target sites, masses) are left as rlpool's: both envs drew them from the same words.
    """
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4 + key_size + 32 + RNG_BYTES
    values = [ref_state["time"], *(x for field in SIM_FIELDS for x in ref_state[field])]
    sim = struct.pack(f"<{len(values)}d", *values)
    return state[:pos] + sim + state[pos + len(sim):]


def synced(task: str, *, steps: int = 100, seed: int = 0, tol: float = 1e-9) -> tuple[float, float, float, float]:
    """rlpool's env of ``task`` stepped from the pinned reference's state (MuJoCo 3.3.0) at every step.

    Both reset from the same words; before each step the reference's simulation state is put into rlpool's
    env (``with_reference_state``), both take the same uniform action in [-1.2, 1.2], and their observations,
    rewards and ``rwd_<term>`` entries are compared. Where either terminates or truncates, both reset again.
    Returns the fraction of steps whose every number agrees within ``tol``, the largest observation
    difference, the largest reward difference and the fraction of steps whose rewards agree within 0.01.
    """
    import rlpool

    env = rlpool.make(task, num_envs=1, seed=seed)
    rng = np.random.default_rng(seed)
    worst_obs = worst_reward = 0.0
    agreeing = close_rewards = 0
    with Reference(task, pinned=True) as ref:
        nu = ref.made["action_dim"]
        env.reset()
        ref.reset(start_words(env.get_state(0)))
        for _ in range(steps):
            env.set_state(0, with_reference_state(env.get_state(0), ref.call("state")))
            action = rng.uniform(-1.2, 1.2, size=(1, nu)).astype(np.float32)
            obs, reward, terminated, truncated, info = env.step(action)
            want = ref.step(action[0])
            got = _obs(obs)
            obs_diff = float(np.max(np.abs(got - np.asarray(want["obs"])))) if got.size else 0.0
            reward_diff = abs(float(reward[0]) - want["reward"])
            terms_diff = max((abs(float(np.asarray(info[f"rwd_{k}"])[0]) - want["rwd_dict"][k]) for k in _terms(info)),
                             default=0.0)
            worst_obs, worst_reward = max(worst_obs, obs_diff), max(worst_reward, reward_diff)
            agreeing += max(obs_diff, reward_diff, terms_diff) <= tol
            close_rewards += reward_diff <= 0.01
            if terminated[0] or truncated[0] or want["terminated"] or want["truncated"]:
                env.reset()
                ref.reset(start_words(env.get_state(0)))
    env.close()
    return agreeing / steps, worst_obs, worst_reward, close_rewards / steps


__all__ = ["CI", "PROJECT_MUJOCO", "Reference", "lockstep", "reference_python", "start_words", "synced",
           "with_reference_state"]
