"""MyoSuite throughput in one run: rlpool against raw MuJoCo calls in threads, EnvPool 1.2.7 and myosuite's own envs.

    python benchmarks/myosuite_raw.py                  # myoHandPoseRandom-v0, myoLegWalk-v0, myoChallengeBaodingP1-v1
    python benchmarks/myosuite_raw.py --task myoHandPoseRandom-v0 --seconds 3 --rounds 2 --json out.json

As ``metaworld_raw.py`` does for MetaWorld, per task (8 envs, async batch 4, by default): the raw baseline is
what the physics of rlpool's env alone costs, on the same model file rlpool loads (``_assets`` of
``rlpool.make_spec(task).env_config``, the folder holding myosuite 2.11.6's unpacked models, and the task's
model path, which rlpool keeps in its C++ task file; here it is asked of myosuite's registry, the
``model_path`` of ``gym.spec(task)``, in the reference virtualenv, by ``myosuite_peer.py --peer model``),
one ``MjData`` per env, the MuJoCo calls from the ``mujoco`` Python bindings (which release the GIL inside
them, checked at start-up for ``mj_step``) in ``--threads`` Python threads, with the timer callback the
``mujoco`` package installs off (``python_timer_off``), as in rlpool's private copy of the library.

An env step makes the calls of rlpool's env (``myo_env.cc``'s ``MyoEnv::step``, ``physics_step``): controls
set, then dm_control's legacy step of ``frame_skip`` substeps as myosuite drives it (``mj_step2``,
``frame_skip - 1`` x ``mj_step``, ``mj_step1``; ``frame_skip`` x ``mj_step`` then ``mj_step1`` for RK4),
then the observation's ``mj_forward``: four binding calls an env step, one env step at a time. ``frame_skip``
is rlpool's (its env's ``time`` after one step over the model's timestep), checked against myosuite's. Each
env's controls are those rlpool's env sets for its row of the fixed action batch the ``rlpool bench`` peers
use (read from rlpool's saved state after one step: muscles take ``1 / (1 + exp(-5 (a - 0.5)))``).

Episodes start where rlpool's do and last as long: each raw env starts from the state rlpool's env of the same
index has after ``reset`` (qpos, qvel, act, and the model's ``body_mass``/``geom_size`` where the task changed
them, read from rlpool's saved state), and its episode lasts as many env steps as that rlpool env's first
episode did with the same fixed action (terminated, e.g. the legs fallen or the balls dropped, or truncated at
the time limit), measured once at start-up. A reset is timed and counted as one env step, as rlpool and EnvPool
count the step call that, with their next-step autoreset, returns the reset observation (myosuite's
``AsyncVectorEnv`` resets inside the step that ends the episode); it makes rlpool's env's calls:
``mj_resetData``, ``mj_forward``, the start state written, ``mj_forward`` twice (``Robot.reset`` and the
observation's); the draws of a task's reset (targets) move no physics and are left out. Model edits at load that
a task makes beyond what a saved state holds are made too (``GEOM_POS_EDITS``: the walking task's heightfield).
That the raw env is rlpool's physics is checked: from each start state, its qpos must equal rlpool's after
``CHECK_STEPS`` env steps (or at the end of rlpool's episode, where sooner). Not modelled: rlpool's reset on a
MuJoCo warning (dm_control's PhysicsError).

Then the peers, on the same task, ``--num-envs`` and fixed actions: rlpool async (batch ``num_envs // 2``)
and sync, and EnvPool async and sync of this Python (``envpool-*``: 1.2.5, the newest EnvPool for CPython
3.11, whose wheel does have the MyoSuite envs, ``envpool/mujoco/myosuite``), all ``rlpool bench``'s peers
with their default threads; EnvPool 1.2.7 async and sync (``envpool127-*``: ``myosuite_peer.py`` in the
Python of ``tests/references/envpool127.py``, a CPython 3.13 virtualenv, or ``--envpool-python``; its default
threads); and myosuite 2.11.6's own envs, ``gym.make(task)`` in gymnasium's ``AsyncVectorEnv``
(``myosuite-async``: one process per env, ``myosuite_peer.py`` run by the Python of the virtualenv
``tests/references/myosuite_reference.py`` makes: myosuite on the MuJoCo it pins, 3.3.0, or with
``--myosuite-mujoco project`` on rlpool's). Rounds alternate raw, rlpool-async and the two EnvPools' async
peers so that they see the same machine load; the other peers run once. Each peer's best round is reported,
with rlpool-async's ratios to the others and the issue's targets. Figures on a shared machine are
rough; the CPU figures (this process only) are for raw and rlpool.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from mujoco_raw import gil_released_by_mj_step, peer_steps_per_sec
from timing import BestRates, CountingThreads, add_run_options, announce_versions, print_best

import rlpool
from rlpool.envs.mujoco import python_timer_off
from rlpool.tools import bench

TASKS = ("myoHandPoseRandom-v0", "myoLegWalk-v0", "myoChallengeBaodingP1-v1")
PEERS = ("rlpool-async", "rlpool-sync", "envpool-async", "envpool-sync", "envpool127-async", "envpool127-sync",
         "myosuite-async")
ROUND_PEERS = ("rlpool-async", "envpool-async", "envpool127-async")
"""The peers measured in every round, in turn with raw; the others run once."""
TARGETS = {"rlpool-async / envpool-async": 1.2, "rlpool-async / raw": 0.9, "rlpool-async / myosuite-async": 10.0}
"""The issue's targets (rlpool-async at least this multiple of the other; EnvPool: 1.2.5, this Python's)."""

GEOM_POS_EDITS = {"myoLegWalk-v0": {"terrain": (0.0, 0.0, -10.0)}}
"""Model edits at load that myosuite's task makes, and rlpool's with it, beyond what a saved state holds: the
walking task moves the leg model's heightfield 10 below the floor (myosuite's ``walk_v0.py`` ``_setup``;
rlpool's ``walk.cc``, ``own_terrain_pos``)."""
CHECK_STEPS = 20
"""Env steps over which a raw env's qpos must equal rlpool's (fewer where rlpool's episode ends first)."""
MAGIC = b"rlpool-myosuite-v1\n"
RNG_BYTES = 48
"""sizeof(rlpool::Rng) in a saved state (as ``tests/references/metaworld_reference.py`` reads it)."""
PEER_SCRIPT = Path(__file__).resolve().parent / "myosuite_peer.py"
ROOT = Path(__file__).resolve().parent.parent


def reference_module(name: str) -> Any:
    """A module of ``tests/references`` (``myosuite_reference``, ``envpool127``), imported as the tests do."""
    for folder in (ROOT / "tests", ROOT / "tests" / "references"):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
    import importlib

    return importlib.import_module(name)


def myosuite_python(mujoco: str) -> Path:
    """The myosuite reference virtualenv's Python (myosuite 2.11.6 on its pinned MuJoCo, or on rlpool's)."""
    reference = reference_module("myosuite_reference")
    try:
        return reference.reference_python(pinned=mujoco == "pinned")
    except BaseException as e:  # pytest's skip where the virtualenv cannot be made
        if isinstance(e, KeyboardInterrupt):
            raise
        raise bench.PeerUnavailable(f"myosuite's reference virtualenv is missing and could not be made: {e}") from e


def envpool127_python(given: str | None) -> Path:
    """EnvPool 1.2.7's Python: ``given``, else the virtualenv of ``tests/references/envpool127.py``."""
    if given:
        return Path(given)
    envpool127 = reference_module("envpool127")
    why = envpool127.missing()
    if why is not None:
        raise bench.PeerUnavailable(why)
    return Path(envpool127.envpool_python())


def run_peer(python: Path, peer: str, task: str, *extra: str, timeout: float = 300) -> dict[str, Any]:
    """``myosuite_peer.py --peer peer --task task *extra`` run by ``python``: its last line, as JSON."""
    command = [str(python), str(PEER_SCRIPT), "--peer", peer, "--task", task, *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise bench.PeerUnavailable(f"myosuite_peer.py --peer {peer} failed ({done.returncode}): "
                                    f"{(done.stderr.strip() or done.stdout.strip())[-800:]}")
    return json.loads(lines[-1])


def timed_peer(python: Path, peer: str, task: str, num_envs: int, seconds: float) -> dict[str, Any]:
    """A timed peer of ``myosuite_peer.py`` with the fixed action batch of ``rlpool bench``: its JSON figures."""
    actions = bench.sample_actions(task, num_envs).astype(float).tolist()
    return run_peer(python, peer, task, "--num-envs", str(num_envs), "--seconds", str(seconds),
                    "--seed", str(bench.ENV_SEED), "--actions", json.dumps(actions), timeout=300 + 10 * seconds)


@dataclass
class State:
    """What the raw envs take from one of rlpool's saved states (``MyoEnv::get_state``)."""

    time: float
    qpos: np.ndarray
    qvel: np.ndarray
    act: np.ndarray
    ctrl: np.ndarray
    body_mass: np.ndarray
    geom_size: np.ndarray


def parse_state(state: bytes, model: Any) -> State:
    """The physics of a saved state of rlpool's MyoSuite env (its layout: ``myo_env.cc``'s ``get_state``)."""
    if not state.startswith(MAGIC):
        raise RuntimeError("not a MyoSuite env state")
    (key_size,) = struct.unpack_from("<I", state, len(MAGIC))
    pos = len(MAGIC) + 4 + key_size + 4 * 8 + RNG_BYTES  # key, start words, generator
    parts: dict[str, np.ndarray] = {}
    for name, n in (("time", 1), ("qpos", model.nq), ("qvel", model.nv), ("act", model.na), ("ctrl", model.nu),
                    ("warmstart", model.nv), ("mocap_pos", 3 * model.nmocap), ("mocap_quat", 4 * model.nmocap),
                    ("site_pos", 3 * model.nsite), ("body_mass", model.nbody), ("geom_size", 3 * model.ngeom)):
        if pos + 8 * n > len(state):
            raise RuntimeError("rlpool's MyoSuite state is shorter than this script's reading of it")
        parts[name] = np.frombuffer(state, np.float64, n, pos).copy()
        pos += 8 * n
    left = len(state) - pos  # fatigue state and the task's kept numbers
    if left % 8 or parts["time"][0] < 0:
        raise RuntimeError("rlpool's MyoSuite state does not have the layout this script reads")
    return State(time=float(parts["time"][0]), qpos=parts["qpos"], qvel=parts["qvel"], act=parts["act"],
                 ctrl=parts["ctrl"], body_mass=parts["body_mass"], geom_size=parts["geom_size"].reshape(-1, 3))


class RawEnvs:
    """``num_envs`` MjData of ``task``'s model, each starting and ending its episodes where rlpool's env does."""

    def __init__(self, task: str, num_envs: int, model_file: str, myosuite_frame_skip: int | None) -> None:
        import mujoco

        self.mujoco = mujoco
        base = mujoco.MjModel.from_xml_path(model_file)
        for name, pos in GEOM_POS_EDITS.get(task, {}).items():
            base.geom_pos[mujoco.mj_name2id(base, mujoco.mjtObj.mjOBJ_GEOM, name)] = pos
        actions = bench.sample_actions(task, num_envs)
        if actions.shape[1] != base.nu:
            raise RuntimeError(f"{task}: rlpool's action has {actions.shape[1]} entries, {model_file} "
                               f"{base.nu} actuators: not the model rlpool loads")
        horizon = int(rlpool.make_spec(task).max_episode_steps)
        env = rlpool.make(task, num_envs=num_envs, seed=bench.ENV_SEED)
        try:
            env.reset()
            starts = [parse_state(env.get_state(k), base) for k in range(num_envs)]
            _, _, terminated, truncated, info = env.step(actions)
            firsts = [parse_state(env.get_state(k), base) for k in range(num_envs)]
            self.frame_skip = round(float(info["time"][0]) / base.opt.timestep)
            # Each env's first episode with its fixed action: its length in env steps, and its state after
            # CHECK_STEPS steps (or at its end, where sooner).
            self.lengths = [horizon] * num_envs
            checks: dict[int, tuple[int, State]] = {}
            ended = np.zeros(num_envs, dtype=bool)
            t = 1
            while True:
                now = (terminated | truncated) & ~ended
                for k in np.flatnonzero(now):
                    self.lengths[k] = t
                for k in range(num_envs):
                    if k not in checks and (now[k] or t == CHECK_STEPS):
                        checks[k] = (t, parse_state(env.get_state(k), base))
                ended |= now
                if ended.all() or t >= horizon:
                    break
                _, _, terminated, truncated, _ = env.step(actions)
                t += 1
        finally:
            env.close()
        if myosuite_frame_skip is not None and myosuite_frame_skip != self.frame_skip:
            raise RuntimeError(f"{task}: rlpool's env makes {self.frame_skip} substeps a step, myosuite's "
                               f"{myosuite_frame_skip}")
        if any(s.time != 0.0 for s in starts):
            raise RuntimeError(f"{task}: rlpool's env does not start at time 0 after reset")
        self.rk4 = int(base.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_RK4)
        self.starts = starts
        self.ctrl = [f.ctrl for f in firsts]
        # One model per start whose masses or sizes the task changed (a carried weight), else the loaded one.
        self.models = []
        for s in starts:
            model = base
            if not (np.array_equal(s.body_mass, base.body_mass) and np.array_equal(s.geom_size, base.geom_size)):
                model = copy.copy(base)
                model.body_mass[:] = s.body_mass
                model.geom_size[:] = s.geom_size
            self.models.append(model)
        self.datas = [mujoco.MjData(base) for _ in range(num_envs)]
        self.elapsed = [0] * num_envs
        self.checked_steps = [checks[i][0] for i in range(num_envs)]
        # The raw steps are rlpool's physics: from each start they give rlpool's qpos, step after step.
        for i in range(num_envs):
            steps, state = checks[i]
            self.reset(i)
            for _ in range(steps):
                self.env_step(i)
            data = self.datas[i]
            if not np.allclose(data.qpos, state.qpos, rtol=0, atol=1e-9):
                worst = float(np.abs(data.qpos - state.qpos).max())
                raise RuntimeError(f"{task}: env {i}'s raw qpos after {steps} steps differs from rlpool's by "
                                   f"{worst:g}: not rlpool's model or physics")
            self.reset(i)

    def reset(self, i: int) -> None:
        """Env ``i``'s reset as rlpool's makes it: ``mj_resetData``, ``mj_forward``, its start, two ``mj_forward``."""
        mujoco, model, data, start = self.mujoco, self.models[i], self.datas[i], self.starts[i]
        mujoco.mj_resetData(model, data)
        mujoco.mj_forward(model, data)
        data.qpos[:] = start.qpos
        data.qvel[:] = start.qvel
        data.act[:] = start.act
        mujoco.mj_forward(model, data)
        mujoco.mj_forward(model, data)
        data.ctrl[:] = self.ctrl[i]
        self.elapsed[i] = 0

    def env_step(self, i: int) -> None:
        """Env ``i``'s physics of one env step: the legacy substeps and the observation's ``mj_forward``."""
        mujoco, model, data, n = self.mujoco, self.models[i], self.datas[i], self.frame_skip
        if self.rk4:
            mujoco.mj_step(model, data, nstep=n)
        else:
            mujoco.mj_step2(model, data)
            if n > 1:
                mujoco.mj_step(model, data, nstep=n - 1)
        mujoco.mj_step1(model, data)
        mujoco.mj_forward(model, data)

    def advance(self, i: int, steps: int) -> int:
        """Env ``i``'s next ``steps`` env steps (fewer where its episode ends first, then its reset, which counts
        as one: rlpool's and EnvPool's next-step autoreset give the reset observation as a step); the count."""
        t0 = self.elapsed[i]
        t1 = min(t0 + steps, self.lengths[i])
        for _ in range(t0, t1):
            self.env_step(i)
        self.elapsed[i] = t1
        if t1 >= self.lengths[i]:
            self.reset(i)
            return t1 - t0 + 1
        return t1 - t0


def raw_steps_per_sec(envs: RawEnvs, threads: int, seconds: float) -> tuple[float, float]:
    """Env steps per second (wall, CPU) of the raw envs split over ``threads`` threads."""
    pool = CountingThreads(threads)
    counts, stop = pool.counts, pool.stop

    def work(k: int) -> None:
        mine = list(range(len(envs.datas)))[k::threads]
        pool.started.wait()
        while not stop.is_set():
            for i in mine:
                counts[k] += envs.advance(i, 5)

    with python_timer_off():  # as rlpool's private copy of the library runs
        timed = pool.measure(work, seconds)
    return timed.per_wall_s, timed.per_cpu_s


def bench_version(package: str) -> str:
    """The installed version of ``package`` in this Python, or "not installed"."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def measure_task(task: str, args: argparse.Namespace, peers: list[str]) -> dict[str, Any]:
    """Every figure of one task: raw and the peers (best of rounds) and rlpool-async's ratios."""
    figures = BestRates()
    best, best_cpu, keep = figures.best, figures.best_cpu, figures.keep
    about: dict[str, Any] = {}

    def peer(name: str) -> None:
        try:
            if name.startswith("envpool127-"):
                python = envpool127_python(args.envpool_python)
                result = timed_peer(python, "envpool-" + name.split("-")[1], task, args.num_envs, args.seconds)
                about[name] = result
                keep(name, result["steps_per_s"], None)
            elif name == "myosuite-async":
                python = myosuite_python(args.myosuite_mujoco)
                about[name] = timed_peer(python, "myosuite", task, args.num_envs, args.seconds)
                keep(name, about[name]["steps_per_s"], None)
            else:
                keep(name, *peer_steps_per_sec(name, task, args.num_envs, args.seconds))
        except bench.PeerUnavailable as e:
            print(f"  {name:16s} skipped: {e}", flush=True)

    python = myosuite_python(args.myosuite_mujoco)
    model = run_peer(python, "model", task)
    model_file = rlpool.make_spec(task).env_config["_assets"] + "/myosuite/" + model["model"]
    print(f"\n{task}: {model_file}", flush=True)
    raw = RawEnvs(task, args.num_envs, model_file, model["frame_skip"])
    released = gil_released_by_mj_step(raw.mujoco, raw.models[0])
    print(f"  mujoco {raw.mujoco.__version__}: mj_step releases the GIL: {released}", flush=True)
    if not released:
        print("  warning: raw threads are serialised by the GIL; the raw figure is a one-core figure")
    print(f"  raw: frame_skip {raw.frame_skip}; episode lengths (rlpool's first episodes) {raw.lengths}; qpos "
          f"equal to rlpool's after {raw.checked_steps} steps", flush=True)
    rounds_peers = [p for p in ROUND_PEERS if p in peers]
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds} (load average {os.getloadavg()[0]:.2f})", flush=True)
        keep("raw", *raw_steps_per_sec(raw, args.threads, args.seconds))
        for name in rounds_peers:
            peer(name)
    for name in peers:
        if name not in rounds_peers:
            peer(name)

    ratios: dict[str, float] = {}
    ours = best.get("rlpool-async")
    if ours is not None:
        for other in ("envpool-async", "envpool127-async", "raw", "myosuite-async", "envpool-sync", "envpool127-sync",
                      "rlpool-sync"):
            if other in best:
                ratios[f"rlpool-async / {other}"] = ours / best[other]
        ratios["per CPU-second: rlpool-async / raw"] = best_cpu["rlpool-async"] / best_cpu["raw"]
        if "envpool-async" in best_cpu:
            per_cpu = best_cpu["rlpool-async"] / best_cpu["envpool-async"]
            ratios["per CPU-second: rlpool-async / envpool-async"] = per_cpu
    return {"best": best, "best_per_cpu_second": best_cpu, "ratios": ratios, "model_file": model_file,
            "frame_skip": raw.frame_skip, "episode_lengths": raw.lengths, "peers": about, "gil_released": released}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", nargs="+", default=list(TASKS), help=f"task ids (default: {' '.join(TASKS)})")
    parser.add_argument("--threads", type=int, default=2, help="raw MuJoCo threads (default 2)")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated (default {','.join(PEERS)})")
    parser.add_argument("--myosuite-mujoco", choices=("pinned", "project"), default="pinned",
                        help="myosuite's MuJoCo: its pin, 3.3.0 (default), or rlpool's")
    parser.add_argument("--envpool-python", default=None,
                        help="a Python 3.12+ with envpool==1.2.7 (default: tests/references/envpool127.py's)")
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=3)
    args = parser.parse_args()
    announce_versions()
    peers = [p for p in args.peers.split(",") if p]
    unknown = sorted(set(peers) - set(PEERS))
    if unknown:
        parser.error(f"unknown peers {unknown}; known: {', '.join(PEERS)}")

    known = set(rlpool.list_all_envs())
    tasks = [t for t in args.task if t in known]
    for t in args.task:
        if t not in known:
            print(f"{t}: skipped, not registered in this build of rlpool (its class is not implemented yet)")
    if not tasks:
        return 1
    results = {task: measure_task(task, args, peers) for task in tasks}
    released = all(r["gil_released"] for r in results.values())

    print_best(results, TARGETS, args.num_envs, args.threads, args.rounds)
    print(f"(envpool-*: EnvPool {bench_version('envpool')}, this Python's; envpool127-*: EnvPool 1.2.7 in its "
          f"CPython 3.13 virtualenv; myosuite-async: {args.num_envs} processes, myosuite 2.11.6 on "
          f"{'MuJoCo 3.3.0' if args.myosuite_mujoco == 'pinned' else 'the project MuJoCo'}.)")
    if args.json is not None:
        report = {"num_envs": args.num_envs, "batch_size": max(1, args.num_envs // 2), "raw_threads": args.threads,
                  "rounds": args.rounds, "seconds": args.seconds, "tasks": results, "targets": TARGETS,
                  "myosuite_mujoco": args.myosuite_mujoco, "machine": bench.machine_info(),
                  "gil_released": released}
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
