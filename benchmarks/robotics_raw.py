"""Gymnasium-Robotics throughput in one run: rlpool against raw ``mj_step`` in threads, EnvPool and gymnasium-robotics.

    python benchmarks/robotics_raw.py                     # FetchPush-v4, HandManipulateBlock-v1, AdroitHandDoor-v1
    python benchmarks/robotics_raw.py --task FetchPush-v4 --seconds 5 --rounds 3 --json out.json
    python benchmarks/robotics_raw.py --single            # also one env on one thread: rlpool's step vs mj_step

As ``mujoco_raw.py`` does for the MuJoCo tasks, per task: the raw baseline is what the physics alone costs,
on the same model file rlpool loads (``rlpool.make_spec(task).env_config["_xml_file"]``), one ``MjData`` per
env, ``mujoco.mj_step`` from the ``mujoco`` Python bindings (which release the GIL inside it, checked at
start-up) in ``--threads`` Python threads, with the timer callback the ``mujoco`` package installs off
(``python_timer_off``), as in rlpool's private copy of the library. The MuJoCo steps of one env step follow
the tasks. A Hand env step is ``n_substeps`` (20) MuJoCo steps with fixed controls, so one call advances an
env ``--chunk`` env steps (``mj_step(model, data, nstep=20 * chunk)``). Adroit steps 5 MuJoCo steps plus
``mj_rnePostConstraint`` (gymnasium's MujocoEnv: the contact forces its observation could read), so it makes
those two calls per env step. A Fetch action moves a mocap body, to the gripper's pose plus 0.05 x the
action, before the 20 MuJoCo steps of each env step (and a blocked gripper's fingers are then held closed,
with an ``mj_forward``): the raw envs do that too, one env step a call (a few numpy assignments in Python
a step, under 1 % of it). Holding the mocap still instead (``nstep=20 * chunk``) is no baseline: the arm
rests on the table with more contacts than it has moving, and its steps cost about 25 % more.

The physics starts where the task's does. gymnasium-robotics changes its model after loading it (Fetch's
mocap welds, Adroit's actuator gains and biases: the wrist's 10, the fingers' 1, as rlpool's ``adroit.cc``
does; the door's position at each reset) and its resets settle the scene: the raw model takes those arrays
from a gymnasium-robotics env of the task, and the ``MjData`` start their episodes from that env's states
after ``reset(seed=k)`` (``mj_getState``/``mj_setState``), ``START_STATES`` of them taken in turn, a new one
every ``max_episode_steps`` env steps, as rlpool's envs reset (one env replaying one episode would time that
episode's contacts only: a Hand's cost differs by 15 % from one to another). A Hand reset also steps
10 x ``n_substeps`` MuJoCo steps with the hand at rest (gymnasium-robotics' ``_reset_sim``), which the raw
threads step too (not counted as env steps). Each env's controls are the fixed action batch the ``rlpool
bench`` peers use, mapped onto the actuators' control ranges as the Hand and Adroit envs map them, or, for
Fetch, onto the mocap body as above.

Then the ``rlpool bench`` peers run on the same task and ``--num-envs``: rlpool async (batch
``num_envs // 2``) and sync, EnvPool sync and async, and gymnasium-robotics' own envs in gymnasium's
``AsyncVectorEnv`` (``gym-async``: one process per env; ``rlpool.envs.robotics.peers`` makes them run on
MuJoCo 3.17). Rounds alternate raw and rlpool-async so that both see the same machine load; each peer's best
round is reported, with rlpool-async's ratios to EnvPool async, to raw and to gym-async. ``--single`` adds,
each round, one env on one thread: raw ``mj_step`` (``raw-1``) against rlpool's sync env with
``num_threads=1`` (``rlpool-1``), which shows what rlpool's step costs beyond its physics. Figures on a shared
machine are rough.

gymnasium-robotics' own env step is mostly this physics too (one of its envs alone runs at about 70 to 100 %
of raw ``mj_step`` on one core), so on the same cores gym-async stays within a few times of rlpool-async, and
a ratio of 10 to it is out of reach on these tasks whatever rlpool does.
"""

from __future__ import annotations

import argparse
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from mujoco_raw import gil_released_by_mj_step, peer_steps_per_sec
from timing import BestRates, CountingThreads, add_run_options, announce_versions, print_best, time_calls

import rlpool
from rlpool.envs.mujoco import python_timer_off
from rlpool.tools import bench

TASKS = ("FetchPush-v4", "HandManipulateBlock-v1", "AdroitHandDoor-v1")
PEERS = ("rlpool-async", "rlpool-sync", "envpool-sync", "envpool-async", "gym-async")
TARGETS = {"rlpool-async / envpool-async": 1.2, "rlpool-async / raw": 0.9, "rlpool-async / gym-async": 10.0}
"""The speed each ratio should reach (rlpool-async at least this multiple of the other)."""

START_STATES = 16
"""Start states the raw envs take their episodes from, in turn (at least one per env)."""

MODEL_ARRAYS = ("eq_data", "actuator_gainprm", "actuator_biasprm", "body_pos", "body_quat", "site_pos")
"""The model arrays gymnasium-robotics (and rlpool, alike) change after loading the XML, taken from its env."""


@dataclass(frozen=True)
class Physics:
    """The MuJoCo calls of one env step and of one reset of a task."""

    substeps: int
    """``mj_step`` steps per env step."""
    rne: bool = False
    """Whether an env step ends with ``mj_rnePostConstraint`` (Adroit)."""
    mocap: bool = False
    """Whether the action moves a mocap body before each env step's ``mj_step`` (Fetch)."""
    block_gripper: bool = False
    """Whether a Fetch step ends with the fingers set closed and ``mj_forward``."""
    reset_substeps: int = 0
    """``mj_step`` steps of a reset, at rest (the Hand's settling)."""


def physics_of(spec: rlpool.EnvSpec) -> Physics:
    """What one env step and one reset of ``spec``'s task step (see the module's text)."""
    if spec.id.startswith("Adroit"):
        return Physics(substeps=5, rne=True)
    substeps = int(spec.config["n_substeps"])
    if spec.id.startswith("Fetch"):
        return Physics(substeps=substeps, mocap=True, block_gripper=bool(spec.config["block_gripper"]))
    settle = 10 * substeps if spec.id.startswith("HandManipulate") else 0
    return Physics(substeps=substeps, reset_substeps=settle)


def reference_env(task: str) -> Any:
    """gymnasium-robotics' own env of ``task`` (its helpers fixed by rlpool's robotics peers), unwrapped."""
    import gymnasium

    import rlpool.envs.robotics.peers  # noqa: F401  (imports gymnasium-robotics, fixes its joint helpers)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(bench.gym_task_id(task), disable_env_checker=True).unwrapped


def controls(model: Any, actions: np.ndarray) -> np.ndarray | None:
    """The controls of each action row (centre + action x half range), or None where actions are not controls."""
    if actions.shape[1] != model.nu:
        return None  # Fetch: the action moves the mocap body
    low, high = model.actuator_ctrlrange[:, 0], model.actuator_ctrlrange[:, 1]
    return (low + high) / 2 + np.clip(actions, -1.0, 1.0) * (high - low) / 2


class FetchMocap:
    """A Fetch action on the raw envs, as the env applies it before its MuJoCo steps (``fetch.cc``).

    The mocap body goes to the pose of the body it is welded to plus the action's position change (0.05 x the
    action's first three entries, clipped to [-1, 1], as float32) and the fixed rotation [1, 0, 1, 0]; a free
    gripper's position actuators aim at the fingers' positions plus the action's last entry (a blocked one's
    at the fingers' positions).
    """

    def __init__(self, mujoco: Any, model: Any, actions: np.ndarray, block_gripper: bool) -> None:
        weld = int(mujoco.mjtEq.mjEQ_WELD)
        k = next(k for k in range(model.neq) if int(model.eq_type[k]) == weld)
        one, two = int(model.eq_obj1id[k]), int(model.eq_obj2id[k])
        self.index = int(model.body_mocapid[one])
        self.body = two
        if self.index < 0:
            self.index, self.body = int(model.body_mocapid[two]), one
        clipped = np.clip(actions.astype(np.float32), -1.0, 1.0)
        self.delta = [(a[:3] * np.float32(0.05)).astype(np.float64) for a in clipped]
        self.grip = [0.0 if block_gripper else float(a[3]) for a in clipped]
        self.rotation = np.array([1.0, 0.0, 1.0, 0.0])
        names = ("robot0:l_gripper_finger_joint", "robot0:r_gripper_finger_joint")
        joint = mujoco.mjtObj.mjOBJ_JOINT
        self.fingers = [int(model.jnt_qposadr[mujoco.mj_name2id(model, joint, n)]) for n in names]
        # The gripper's actuators: (index, qpos address of its joint or -1 for a plain control).
        none = int(mujoco.mjtBias.mjBIAS_NONE)
        self.actuators = [(u, -1 if int(model.actuator_biastype[u]) == none
                           else int(model.jnt_qposadr[model.actuator_trnid[u, 0]])) for u in range(min(model.nu, 2))]

    def move(self, data: Any, i: int) -> None:
        """Set env ``i``'s mocap (and gripper controls) for its next env step."""
        data.mocap_pos[self.index] = data.xpos[self.body] + self.delta[i]
        data.mocap_quat[self.index] = data.xquat[self.body] + self.rotation
        for u, qpos in self.actuators:
            data.ctrl[u] = self.grip[i] if qpos < 0 else data.qpos[qpos] + self.grip[i]


class RawEnvs:
    """``num_envs`` MjData of ``task``'s model, their episodes starting at states of gymnasium-robotics' env."""

    def __init__(self, task: str, num_envs: int) -> None:
        import mujoco

        self.mujoco = mujoco
        spec = rlpool.make_spec(task)
        self.physics = physics_of(spec)
        self.episode = spec.max_episode_steps
        xml = spec.env_config["_xml_file"]
        model = mujoco.MjModel.from_xml_path(xml)
        reference = reference_env(task)
        sizes = ("nq", "nv", "nu", "na", "nmocap", "neq", "nbody", "nsite")
        if [getattr(model, n) for n in sizes] != [getattr(reference.model, n) for n in sizes]:
            raise RuntimeError(f"gymnasium-robotics' {task} does not load {xml}")
        self.kind = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(model, self.kind)
        self.starts: list[np.ndarray] = []
        for k in range(max(START_STATES, num_envs)):
            reference.reset(seed=bench.ENV_SEED + k)
            state = np.empty(size)
            mujoco.mj_getState(reference.model, reference.data, state, self.kind)
            self.starts.append(state)
        for name in MODEL_ARRAYS:  # as the last reset left them (Adroit's door moves at each reset)
            getattr(model, name)[:] = getattr(reference.model, name)
        reference.close()
        self.model = model
        actions = bench.sample_actions(task, num_envs)
        if self.physics.mocap:
            self.mocap = FetchMocap(mujoco, model, actions, self.physics.block_gripper)
        ctrl = controls(model, actions.astype(np.float64))
        rest = controls(model, np.zeros((1, model.nu)))
        self.ctrl = None if ctrl is None else list(ctrl)
        self.rest = None if rest is None else rest[0]
        self.datas = [mujoco.MjData(model) for _ in range(num_envs)]
        self.episodes = [0] * num_envs
        for i in range(num_envs):
            self.reset(i)

    def reset(self, i: int) -> None:
        """Start env ``i``'s next episode at its next start state (with the reset's settling steps), controls set."""
        mujoco, model, data = self.mujoco, self.model, self.datas[i]
        start = self.starts[(i + self.episodes[i] * len(self.datas)) % len(self.starts)]
        self.episodes[i] += 1
        mujoco.mj_setState(model, data, start, self.kind)
        if self.physics.reset_substeps:
            if self.rest is not None:
                data.ctrl[:] = self.rest
            mujoco.mj_step(model, data, nstep=self.physics.reset_substeps)
        mujoco.mj_forward(model, data)
        if self.ctrl is not None:
            data.ctrl[:] = self.ctrl[i]

    def advance(self, i: int, steps: int) -> None:
        """Step env ``i`` by ``steps`` env steps (the GIL released inside ``mj_step``)."""
        mujoco, model, data, p = self.mujoco, self.model, self.datas[i], self.physics
        if p.mocap:
            for _ in range(steps):
                self.mocap.move(data, i)
                mujoco.mj_step(model, data, nstep=p.substeps)
                if p.block_gripper:
                    data.qpos[self.mocap.fingers] = 0.0
                    mujoco.mj_forward(model, data)
        elif p.rne:
            for _ in range(steps):
                mujoco.mj_step(model, data, nstep=p.substeps)
                mujoco.mj_rnePostConstraint(model, data)
        else:
            mujoco.mj_step(model, data, nstep=p.substeps * steps)


def raw_steps_per_sec(task: str, num_envs: int, threads: int, seconds: float, chunk: int) -> tuple[float, float]:
    """Env steps per second (wall, CPU) of raw ``mj_step`` on ``num_envs`` MjData split over ``threads`` threads."""
    envs = RawEnvs(task, num_envs)
    pool = CountingThreads(threads)
    counts, stop = pool.counts, pool.stop

    def work(k: int) -> None:
        mine = list(range(num_envs))[k::threads]
        elapsed = dict.fromkeys(mine, 0)
        pool.started.wait()
        while not stop.is_set():
            for i in mine:
                envs.advance(i, chunk)
                elapsed[i] += chunk
                counts[k] += chunk
                if elapsed[i] >= envs.episode:
                    envs.reset(i)
                    elapsed[i] = 0

    with python_timer_off():  # as rlpool's private copy of the library runs
        timed = pool.measure(work, seconds)
    return timed.per_wall_s, timed.per_cpu_s


def one_thread_steps_per_sec(task: str, seconds: float, chunk: int) -> dict[str, tuple[float, float]]:
    """One env on one thread: raw ``mj_step`` (``raw-1``) and rlpool's sync env, ``num_threads=1`` (``rlpool-1``)."""
    raw = RawEnvs(task, 1)
    elapsed = [0]

    def step_raw(calls: int) -> int:
        for _ in range(calls):
            raw.advance(0, chunk)
            elapsed[0] += chunk
            if elapsed[0] >= raw.episode:
                raw.reset(0)
                elapsed[0] = 0
        return calls * chunk

    with python_timer_off():
        rates = {"raw-1": time_calls(step_raw, seconds, chunk=5, warmup=2).rates()}
    actions = bench.sample_actions(task, 1)
    env = rlpool.make_gymnasium(task, num_envs=1, num_threads=1, seed=bench.ENV_SEED)
    runner = bench.SyncRunner(env, actions)

    def step_rlpool(calls: int) -> int:
        runner.run(calls)
        return calls

    try:
        rates["rlpool-1"] = time_calls(step_rlpool, seconds, chunk=50, warmup=50).rates()
    finally:
        runner.close()
    return rates


def measure_task(task: str, args: argparse.Namespace, peers: list[str]) -> dict[str, Any]:
    """Every figure of one task: raw and the peers (best of rounds, wall and CPU) and rlpool-async's ratios."""
    figures = BestRates()
    best, best_cpu, keep = figures.best, figures.best_cpu, figures.keep

    def peer(name: str) -> None:
        try:
            keep(name, *peer_steps_per_sec(name, task, args.num_envs, args.seconds))
        except bench.PeerUnavailable as e:
            print(f"  {name:14s} skipped: {e}", flush=True)

    print(f"\n{task}: {physics_of(rlpool.make_spec(task))}")
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds} (load average {os.getloadavg()[0]:.2f})")
        keep("raw", *raw_steps_per_sec(task, args.num_envs, args.threads, args.seconds, args.chunk))
        if "rlpool-async" in peers:
            peer("rlpool-async")
        if args.single:
            for name, rates in one_thread_steps_per_sec(task, args.seconds, args.chunk).items():
                keep(name, *rates)
    for name in peers:
        if name != "rlpool-async":
            peer(name)

    ratios: dict[str, float] = {}
    ours = best.get("rlpool-async")
    if ours is not None:
        for other in ("envpool-async", "raw", "gym-async", "envpool-sync", "rlpool-sync"):
            if other in best:
                ratios[f"rlpool-async / {other}"] = ours / best[other]
        ratios["per CPU-second: rlpool-async / raw"] = best_cpu["rlpool-async"] / best_cpu["raw"]
        if "envpool-async" in best_cpu:
            per_cpu = best_cpu["rlpool-async"] / best_cpu["envpool-async"]
            ratios["per CPU-second: rlpool-async / envpool-async"] = per_cpu
    if "raw-1" in best and "rlpool-1" in best:
        ratios["one env, one thread: rlpool-1 / raw-1"] = best["rlpool-1"] / best["raw-1"]
    return {"best": best, "best_per_cpu_second": best_cpu, "ratios": ratios}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", nargs="+", default=list(TASKS), help=f"task ids (default: {' '.join(TASKS)})")
    parser.add_argument("--threads", type=int, default=2, help="raw mj_step threads (default 2)")
    parser.add_argument("--chunk", type=int, default=10, help="env steps per raw mj_step call (default 10)")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated (default {','.join(PEERS)})")
    parser.add_argument("--single", action="store_true", help="also one env on one thread: raw-1 and rlpool-1")
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=2)
    args = parser.parse_args()
    announce_versions()
    peers = [p for p in args.peers.split(",") if p]

    import mujoco

    model = mujoco.MjModel.from_xml_path(rlpool.make_spec(args.task[0]).env_config["_xml_file"])
    released = gil_released_by_mj_step(mujoco, model)
    print(f"mujoco {mujoco.__version__}: mj_step releases the GIL: {released}")
    if not released:
        print("warning: raw threads are serialised by the GIL; the raw figure is a one-core figure")

    results = {task: measure_task(task, args, peers) for task in args.task}

    batch = max(1, args.num_envs // 2)
    print_best(results, TARGETS, args.num_envs, args.threads, args.rounds)
    if args.json is not None:
        report = {"num_envs": args.num_envs, "batch_size": batch, "raw_threads": args.threads, "chunk": args.chunk,
                  "rounds": args.rounds, "seconds": args.seconds, "tasks": results, "targets": TARGETS,
                  "machine": bench.machine_info(), "gil_released": released}
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
