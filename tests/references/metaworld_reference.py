"""metaworld 3.1.1 as the reference of rlpool's MetaWorld tasks, run in a virtualenv of its own.

metaworld 3.1.1 pins ``mujoco==3.3.0``, which cannot share a process (or an environment) with rlpool's
MuJoCo, so the reference runs in a child Python of a cached virtualenv (``reference_python``): made once per
Python version under rlpool's cache with ``python -m venv``, holding metaworld from its pinned wheel (the
one rlpool takes its models from, fetched by ``rlpool.pinned_wheel`` and checked against its sha256) and
the versions it pins (MuJoCo 3.3.0), with this environment's gymnasium, numpy and scipy. ``Reference``
talks to ``metaworld_child.py`` there, one JSON line each way per request.

``Reference.reset(words)`` makes metaworld draw exactly what rlpool's env draws: rlpool's env seeds a
generator of its own from four words at each reset (the start of its saved state, ``start_words``), and the
reference's ``np_random`` becomes a Python copy of that generator (``xoshiro.XoshiroGenerator``).
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
from cached_venv import ask, cached_venv, pip_install
from lane import CI, require

from rlpool import pinned_wheel
from rlpool.cache import cache_root
from rlpool.envs import metaworld

MAGIC = b"rlpool-metaworld-v1\n"
MUJOCO = "3.3.0"
"""The MuJoCo metaworld 3.1.1 pins."""
PROJECT_MUJOCO = importlib.metadata.version("mujoco")
"""rlpool's MuJoCo: the second reference virtualenv runs metaworld's code on it (installed without its pin)."""
CHILD = Path(__file__).resolve().parent / "metaworld_child.py"


def requirements(mujoco: str = MUJOCO) -> list[str]:
    """What a reference virtualenv holds besides metaworld's wheel: a MuJoCo, and this environment's versions."""
    pins = [f"mujoco=={mujoco}", "imageio"]
    for package in ("gymnasium", "numpy", "scipy", "packaging", "PyOpenGL"):  # PyOpenGL: frames through OSMesa
        try:
            pins.append(f"{package}=={importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            pins.append(package)
    return pins


def venv_folder(mujoco: str = MUJOCO) -> Path:
    """Where a reference virtualenv lies: one per Python version and MuJoCo."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    return cache_root() / "references" / f"metaworld-{metaworld.VERSION}-mujoco-{mujoco}-{tag}"


def _install(python: Path, mujoco: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wheel = pinned_wheel.in_cache_root(metaworld.wheel()) or pinned_wheel.download(metaworld.wheel(), Path(tmp))
        # metaworld without its MuJoCo pin where another MuJoCo is asked for; its other dependencies by name.
        if mujoco == MUJOCO:
            pip_install(python, [str(wheel), *requirements(mujoco)])
        else:
            pip_install(python, requirements(mujoco))
            pip_install(python, ["--no-deps", str(wheel)])


def reference_python(mujoco: str = MUJOCO) -> Path:
    """A reference virtualenv's Python, made first where missing; skips the test (fails it in CI) if it cannot be."""
    folder = venv_folder(mujoco)
    try:
        return cached_venv(folder, requirements(mujoco), lambda python: _install(python, mujoco),
                           what="the MetaWorld reference virtualenv")
    except Exception as e:  # no network, no pip: the comparison cannot run here
        require(f"metaworld 3.1.1's reference virtualenv could not be made in {folder}: {e}")
        raise


class Reference:
    """metaworld 3.1.1's env of one task, in the reference virtualenv's child Python."""

    def __init__(self, task: str, *, partially_observable: bool = True, render: bool = False,
                 mujoco: str = MUJOCO, size: tuple[int, int] = (480, 480)) -> None:
        # The child's stderr goes to a file, whose end a failure quotes (a pipe could fill up and block it).
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([str(reference_python(mujoco)), str(CHILD)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        self.made = self.call("make", task=task, partially_observable=partially_observable, render=render,
                              width=size[0], height=size[1])

    def call(self, op: str, **request: Any) -> Any:
        """One request; its answer, or an AssertionError with the reference's error."""
        return ask(self.process, self.stderr, "MetaWorld", op, request)

    def reset(self, words: tuple[int, int, int, int]) -> dict[str, Any]:
        return self.call("reset", words=[int(w) for w in words])

    def step(self, action: np.ndarray) -> dict[str, Any]:
        return self.call("step", action=[float(a) for a in np.asarray(action, dtype=np.float32)])

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


def envpool_id(task: str) -> str:
    """rlpool's (EnvPool's) id of a metaworld task name."""
    from rlpool.envs.metaworld.benchmarks import envpool_name

    return f"MetaWorld/{envpool_name(task)}"


def lockstep(task: str, *, steps: int = 500, seed: int = 0, tol: float = 1e-5, episodes: int = 1,
             partially_observable: bool = True, mujoco: str = PROJECT_MUJOCO,
             expert: bool = False) -> tuple[float, int]:
    """rlpool's env of ``task`` and metaworld's, from the same draws, step by step with the same random actions.

    Observations, rewards, the seven info entries and the truncation flag must agree within ``tol`` for
    ``episodes`` whole episodes of ``steps`` steps (each reset from the same draws); returns the largest
    difference seen and the number of steps whose info said success. The actions are uniform in
    [-1.1, 1.1] (float32), some past the bounds, which rlpool and metaworld clip alike. With ``expert``,
    the actions are metaworld's scripted policy's for the reference's observation (with the goal observed,
    as the policies need), plus noise on every fourth step, so that grasps and successes happen.
    """
    if expert:
        partially_observable = False
    import rlpool

    env = rlpool.make(envpool_id(task), num_envs=1, seed=seed, max_episode_steps=steps,
                      partially_observable=partially_observable)
    rng = np.random.default_rng(seed)
    worst = 0.0
    successes = 0
    keys = ("success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target",
            "unscaled_reward")
    with Reference(task, partially_observable=partially_observable, mujoco=mujoco) as ref:
        for episode in range(episodes):
            obs, _ = env.reset()
            words = start_words(env.get_state(0))
            got = ref.reset(words)
            where = f"{task} episode {episode} reset"
            np.testing.assert_allclose(obs[0], got["obs"], rtol=0, atol=tol, err_msg=where)
            worst = max(worst, float(np.max(np.abs(obs[0] - got["obs"]))))
            for t in range(steps):
                action = rng.uniform(-1.1, 1.1, size=(1, 4)).astype(np.float32)
                if expert:
                    noise = action * (0.3 if t % 4 == 0 else 0.0)
                    action = (np.asarray(ref.call("expert_action"), dtype=np.float32)[None] + noise).astype(np.float32)
                obs, reward, terminated, truncated, info = env.step(action)
                want = ref.step(action[0])
                where = f"{task} episode {episode} step {t + 1}"
                np.testing.assert_allclose(obs[0], want["obs"], rtol=0, atol=tol, err_msg=where)
                worst = max(worst, float(np.max(np.abs(obs[0] - want["obs"]))))
                assert abs(reward[0] - want["reward"]) <= tol, (where, reward[0], want["reward"])
                for key in keys:
                    assert abs(info[key][0] - want["info"][key]) <= tol, (where, key, info[key][0], want["info"][key])
                successes += int(want["info"]["success"] > 0)
                assert not terminated[0] and not want["terminated"], where
                assert bool(truncated[0]) == (t + 1 == steps), where
    env.close()
    return worst, successes


RNG_BYTES = 48
"""sizeof(rlpool::Rng) in a saved state: four words, a cached normal and its flag."""


def with_reference_state(state: bytes, ref_state: dict[str, Any], *, prev_obs: bool = False) -> bytes:
    """rlpool's saved ``state`` with the simulation part replaced by the reference's (``Reference.call("state")``).

    The layout is rlpool's (sawyer_env.cc's get_state): header, generator, goal and path length, then time,
    qpos, qvel, act, ctrl, qacc_warmstart, mocap_pos, mocap_quat (float64) -- replaced here --, the
    previous frame (replaced where ``prev_obs``), then the model's body and site positions and the task's
    own numbers.
    """
    pos = len(MAGIC)
    (key_size,) = struct.unpack_from("<I", state, pos)
    pos += 4 + key_size + 32 + RNG_BYTES + 8
    parts = [ref_state[k] for k in ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "mocap_pos", "mocap_quat")]
    sim = struct.pack(f"<{1 + sum(len(p) for p in parts)}d", ref_state["time"], *[x for p in parts for x in p])
    head, rest = state[:pos], state[pos + len(sim):]
    if prev_obs:  # the previous frame follows the simulation state
        prev = struct.pack("<18d", *ref_state["prev_obs"])
        rest = prev + rest[len(prev):]
    return head + sim + rest


def synced(task: str, *, steps: int = 500, seed: int = 0, tol: float = 1e-5, expert: bool = True,
           mujoco: str = MUJOCO) -> tuple[float, float, float, float]:
    """rlpool's env of ``task`` stepped from the reference's state at every step, with the same actions.

    Before each step the reference's simulation state (qpos, qvel, act, ctrl, warm start, mocap, time) is
    put into rlpool's env; the two then take the same action (metaworld's expert's, with noise on every
    fourth step, or uniform ones), and their observations, rewards and info are compared. Returns the
    fraction of steps whose every number agrees within ``tol``, the largest observation difference, the
    largest reward difference and the fraction of steps whose rewards agree within 0.01. This compares one
    step of each MuJoCo from the same state, where whole episodes on two MuJoCo versions drift apart.
    """
    import rlpool

    env = rlpool.make(envpool_id(task), num_envs=1, seed=seed, max_episode_steps=steps,
                      partially_observable=not expert)
    rng = np.random.default_rng(seed)
    worst_obs = worst_reward = 0.0
    agreeing = close_rewards = 0
    keys = ("success", "near_object", "grasp_success", "grasp_reward", "in_place_reward", "obj_to_target",
            "unscaled_reward")
    with Reference(task, partially_observable=not expert, mujoco=mujoco) as ref:
        env.reset()
        ref.reset(start_words(env.get_state(0)))
        for t in range(steps):
            ref_state = ref.call("state")
            env.set_state(0, with_reference_state(env.get_state(0), ref_state, prev_obs=True))
            action = rng.uniform(-1.1, 1.1, size=(1, 4)).astype(np.float32)
            if expert:
                noise = action * (0.3 if t % 4 == 0 else 0.0)
                action = (np.asarray(ref.call("expert_action"), dtype=np.float32)[None] + noise).astype(np.float32)
            obs, reward, _, _, info = env.step(action)
            want = ref.step(action[0])
            obs_diff = float(np.max(np.abs(obs[0] - want["obs"])))
            reward_diff = abs(float(reward[0]) - want["reward"])
            info_diff = max(abs(float(info[k][0]) - want["info"][k]) for k in keys)
            worst_obs, worst_reward = max(worst_obs, obs_diff), max(worst_reward, reward_diff)
            agreeing += max(obs_diff, reward_diff, info_diff) <= tol
            close_rewards += reward_diff <= 0.01
    env.close()
    return agreeing / steps, worst_obs, worst_reward, close_rewards / steps


__all__ = ["CI", "Reference", "lockstep", "reference_python", "start_words", "synced"]
