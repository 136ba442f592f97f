"""MetaWorld throughput in one run: rlpool against raw ``mj_step`` in threads, EnvPool and metaworld's own envs.

    python benchmarks/metaworld_raw.py                    # MetaWorld/PickPlace-v3, DoorOpen-v3, Assembly-v3
    python benchmarks/metaworld_raw.py --task MetaWorld/PickPlace-v3 --seconds 5 --rounds 3 --json out.json
    python benchmarks/metaworld_raw.py --single           # also one env on one thread: raw, rlpool, metaworld

As ``robotics_raw.py`` does for gymnasium-robotics, per task: the raw baseline is what the physics alone
costs, on the same model file rlpool loads (``rlpool.make_spec(task).env_config["_assets"]`` and the task's
XML, read from its C++ file's ``register_task``), with each weld's ``eq_data`` set as metaworld's
``reset_mocap_welds`` sets it, one ``MjData`` per env, the MuJoCo calls from the ``mujoco`` Python bindings
(which release the GIL inside them, checked at start-up) in ``--threads`` Python threads, with the timer
callback the ``mujoco`` package installs off (``python_timer_off``), as in rlpool's private copy of the
library. The calls are those of rlpool's env (``sawyer_env.cc``). An env step moves the mocap body by the
action (0.01 x its first three entries, clipped to the mocap's bounds), sets the gripper's controls to
``[a3, -a3]``, makes 5 MuJoCo steps and one ``mj_forward``: the raw envs write the mocap's position, take
the env's own ``mj_step(model, data, nstep=5)`` and ``mj_forward``, one env step a call (the ``mj_forward``
between env steps and the moving mocap leave nothing to merge into one longer ``nstep`` call; the Python
between them, a numpy row copied a step, is about 1 % of a step). Each env's action is the fixed action
batch the ``rlpool bench`` peers use, and the mocap's path is the one rlpool's env takes with that action (read
from rlpool's saved states over one episode: with a fixed action the mocap soon rests on its bounds).

An episode is 500 env steps. A reset (timed, not counted as env steps) costs what the env's does:
``mj_resetData``, then 50 x 5 MuJoCo steps with the mocap held at the hand's start and the gripper open (one
``mj_step(nstep=250)``: the same physics, the mocap does not move), then the episode's start state is set
and ``mj_forward``. The start states are rlpool's own (``env.get_state`` of ``START_STATES`` envs after
``reset``: qpos, qvel, mocap, warm start, and the model's ``body_pos``/``site_pos``, which the tasks move at
each reset, e.g. the door, the peg), taken in turn, a new one each episode, each with its own copy of the
model; that the copies are rlpool's models is checked (the hand's position of each state against rlpool's
observation). A raw env's physics is rlpool's env's, bit for bit: its qpos equals rlpool's over an episode.

Then the ``rlpool bench`` peers run on the same task and ``--num-envs``: rlpool async (batch
``num_envs // 2``) and sync, EnvPool 1.2.5 sync and async, and metaworld's own envs in gymnasium's
``AsyncVectorEnv`` (``metaworld-async``: one process per env, ``metaworld_peer.py`` run by the Python of the
reference virtualenv ``tests/references/metaworld_reference.py`` makes, metaworld 3.1.1 on the MuJoCo it
pins, 3.3.0, or with ``--metaworld-mujoco project`` on rlpool's). Rounds alternate raw and rlpool-async so
that both see the same machine load; each peer's best round is reported, with rlpool-async's ratios to
EnvPool async, to raw and to metaworld-async. ``--single`` adds, each round, one env on one thread: raw
(``raw-1``), rlpool's sync env with ``num_threads=1`` (``rlpool-1``) and, once, one metaworld env in its
process (``metaworld-1``), which show what each step costs beyond its physics. Figures on a shared machine are
rough.
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
from timing import BestRates, CountingThreads, add_run_options, announce_versions, print_best, time_calls

import rlpool
from rlpool.envs.mujoco import python_timer_off
from rlpool.tools import bench

TASKS = ("MetaWorld/PickPlace-v3", "MetaWorld/DoorOpen-v3", "MetaWorld/Assembly-v3")
PEERS = ("rlpool-async", "rlpool-sync", "envpool-sync", "envpool-async", "metaworld-async")
TARGETS = {"rlpool-async / envpool-async": 1.2, "rlpool-async / raw": 0.9, "rlpool-async / metaworld-async": 10.0}
"""The speed each ratio should reach (rlpool-async at least this multiple of the other)."""

START_STATES = 16
"""rlpool start states the raw envs take their episodes from, in turn (at least one per env)."""
FRAME_SKIP = 5
"""MuJoCo steps per env step (metaworld's frame_skip)."""
RESET_STEPS = 50 * FRAME_SKIP
"""MuJoCo steps of a reset: ``_reset_hand``'s 50 x ``do_simulation`` with the mocap at the hand's start."""
WELD = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0)
"""What metaworld's ``reset_mocap_welds`` writes into each weld's ``eq_data`` after loading."""
MAGIC = b"rlpool-metaworld-v1\n"
RNG_BYTES = 48
"""sizeof(rlpool::Rng) in a saved state (as ``tests/references/metaworld_reference.py`` reads it)."""
PEER_SCRIPT = Path(__file__).resolve().parent / "metaworld_peer.py"
ROOT = Path(__file__).resolve().parent.parent


def task_name(task: str) -> str:
    """metaworld's name of an rlpool id's task: ``MetaWorld/PickPlace-v3`` -> ``pick-place-v3``."""
    return str(rlpool.make_spec(task).config["task_name"])


def model_file(task: str) -> str:
    """The model file rlpool's env of ``task`` loads: its task's ``model_name`` in metaworld, under rlpool's assets.

    metaworld's class of the task names it (asked of the reference virtualenv's metaworld); rlpool's env loads
    the same file of the same wheel, which the raw envs' start states (rlpool's) check.
    """
    command = [str(reference_python("pinned")), str(PEER_SCRIPT), "--task", task_name(task), "--model-file"]
    relative = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    return rlpool.make_spec(task).env_config["_assets"] + "/" + relative


def load_model(mujoco: Any, task: str) -> Any:
    """The task's model, each weld's ``eq_data`` set as metaworld (and rlpool's env) sets it after loading."""
    model = mujoco.MjModel.from_xml_path(model_file(task))
    for k in range(model.neq):
        if int(model.eq_type[k]) == int(mujoco.mjtEq.mjEQ_WELD):
            model.eq_data[k, : len(WELD)] = WELD
    return model


@dataclass
class Start:
    """What a raw env takes from one of rlpool's saved states (``SawyerEnv::get_state``)."""

    time: float
    qpos: np.ndarray
    qvel: np.ndarray
    act: np.ndarray
    warmstart: np.ndarray
    mocap_pos: np.ndarray
    mocap_quat: np.ndarray
    body_pos: np.ndarray
    site_pos: np.ndarray


def parse_state(state: bytes, model: Any) -> Start:
    """The physics of a saved state of rlpool's MetaWorld env (its layout: ``sawyer_env.cc``'s ``get_state``)."""
    if not state.startswith(MAGIC):
        raise RuntimeError("not a MetaWorld env state")
    (key_size,) = struct.unpack_from("<I", state, len(MAGIC))
    pos = len(MAGIC) + 4 + key_size + 4 * 8 + RNG_BYTES + 4 + 4  # key, start words, generator, goal, path length
    parts: dict[str, np.ndarray] = {}
    for name, n in (("time", 1), ("qpos", model.nq), ("qvel", model.nv), ("act", model.na), ("ctrl", model.nu),
                    ("warmstart", model.nv), ("mocap_pos", 3 * model.nmocap), ("mocap_quat", 4 * model.nmocap),
                    ("prev_obs", 18), ("body_pos", 3 * model.nbody), ("site_pos", 3 * model.nsite)):
        parts[name] = np.frombuffer(state, np.float64, n, pos).copy()
        pos += 8 * n
    left = len(state) - pos  # the task's kept values: at least target, object start, tcp start, hand start
    if left < 12 * 8 or left % 8 or not np.array_equal(parts["mocap_quat"][:4], [1.0, 0.0, 1.0, 0.0]):
        raise RuntimeError("rlpool's MetaWorld state does not have the layout this script reads")
    return Start(time=float(parts["time"][0]), qpos=parts["qpos"], qvel=parts["qvel"], act=parts["act"],
                 warmstart=parts["warmstart"], mocap_pos=parts["mocap_pos"].reshape(-1, 3),
                 mocap_quat=parts["mocap_quat"].reshape(-1, 4), body_pos=parts["body_pos"].reshape(-1, 3),
                 site_pos=parts["site_pos"].reshape(-1, 3))


class RawEnvs:
    """``num_envs`` MjData of ``task``'s model, their episodes starting at rlpool's start states."""

    def __init__(self, task: str, num_envs: int) -> None:
        import mujoco

        self.mujoco = mujoco
        spec = rlpool.make_spec(task)
        self.episode = int(spec.max_episode_steps)
        base = load_model(mujoco, task)
        count = max(START_STATES, num_envs)
        actions = bench.sample_actions(task, count)  # its first num_envs rows: the peers' batch
        env = rlpool.make(task, num_envs=count, seed=bench.ENV_SEED)
        try:
            obs, _ = env.reset()
            self.starts = [parse_state(env.get_state(k), base) for k in range(count)]
            # The mocap's path in an episode with each env's fixed action, as rlpool's env moves it.
            paths = np.empty((count, self.episode, base.nmocap, 3))
            for t in range(self.episode):
                env.step(actions)
                for k in range(count):
                    paths[k, t] = parse_state(env.get_state(k), base).mocap_pos
        finally:
            env.close()
        hand_start = self.starts[0].mocap_pos
        if any(not np.array_equal(s.mocap_pos, hand_start) for s in self.starts):
            raise RuntimeError(f"{task}: the hand's start differs between resets; one mocap path per env is wrong")
        self.paths = list(paths[:num_envs])
        # One model per start state (the tasks move bodies and sites at each reset), checked against rlpool's.
        hand = mujoco.mj_name2id(base, mujoco.mjtObj.mjOBJ_BODY, "hand")
        self.models = []
        check = mujoco.MjData(base)
        for k, s in enumerate(self.starts):
            model = copy.copy(base)
            model.body_pos[:] = s.body_pos
            model.site_pos[:] = s.site_pos
            self.set_start(model, check, s)
            if not np.allclose(check.xpos[hand], obs[k, :3], rtol=0, atol=1e-9):
                raise RuntimeError(f"{task}: the raw model's hand is at {check.xpos[hand]} where rlpool's is at "
                                   f"{obs[k, :3]}: not the model rlpool loads")
            self.models.append(model)
        self.ctrl = [np.array([a[3], -a[3]], dtype=np.float64) for a in actions[:num_envs]]
        self.datas = [mujoco.MjData(base) for _ in range(num_envs)]
        self.model_of = [base] * num_envs
        self.episodes = [0] * num_envs
        self.elapsed = [0] * num_envs
        for i in range(num_envs):
            self.reset(i)

    def set_start(self, model: Any, data: Any, s: Start) -> None:
        """Put ``data`` at start state ``s`` (as rlpool's ``set_state``: the state, ``mj_forward``, warm start)."""
        data.time = s.time
        data.qpos[:] = s.qpos
        data.qvel[:] = s.qvel
        data.act[:] = s.act
        data.mocap_pos[:] = s.mocap_pos
        data.mocap_quat[:] = s.mocap_quat
        self.mujoco.mj_forward(model, data)
        data.qacc_warmstart[:] = s.warmstart

    def reset(self, i: int) -> None:
        """Env ``i``'s reset: ``mj_resetData``, the hand's 250 settling steps, its next start state; controls set."""
        mujoco, data = self.mujoco, self.datas[i]
        k = (i + self.episodes[i] * len(self.datas)) % len(self.starts)
        self.episodes[i] += 1
        model, start = self.models[k], self.starts[k]
        mujoco.mj_resetData(model, data)
        data.mocap_pos[:] = start.mocap_pos  # the hand's start (the mocap's position after rlpool's reset)
        data.mocap_quat[:] = start.mocap_quat
        data.ctrl[:] = (-1.0, 1.0)
        mujoco.mj_step(model, data, nstep=RESET_STEPS)
        self.set_start(model, data, start)
        data.ctrl[:] = self.ctrl[i]
        self.model_of[i] = model
        self.elapsed[i] = 0

    def advance(self, i: int, steps: int) -> int:
        """Env ``i``'s next ``steps`` env steps (fewer where its episode ends first, then reset); the steps made."""
        mujoco, model, data = self.mujoco, self.model_of[i], self.datas[i]
        mocap, path = data.mocap_pos, self.paths[i]
        t0 = self.elapsed[i]
        t1 = min(t0 + steps, self.episode)
        for t in range(t0, t1):
            mocap[:] = path[t]
            mujoco.mj_step(model, data, nstep=FRAME_SKIP)
            mujoco.mj_forward(model, data)
        self.elapsed[i] = t1
        if t1 >= self.episode:
            self.reset(i)
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
                counts[k] += envs.advance(i, 10)

    with python_timer_off():  # as rlpool's private copy of the library runs
        timed = pool.measure(work, seconds)
    return timed.per_wall_s, timed.per_cpu_s


def one_thread_steps_per_sec(task: str, raw: RawEnvs, seconds: float) -> dict[str, tuple[float, float]]:
    """One env on one thread: raw (``raw-1``, the raw envs' env 0) and rlpool's sync env (``rlpool-1``)."""

    def step_raw(calls: int) -> int:
        return sum(raw.advance(0, 10) for _ in range(calls))

    with python_timer_off():
        rates = {"raw-1": time_calls(step_raw, seconds, chunk=5, warmup=2).rates()}
    env = rlpool.make_gymnasium(task, num_envs=1, num_threads=1, seed=bench.ENV_SEED)
    runner = bench.SyncRunner(env, bench.sample_actions(task, 1))

    def step_rlpool(calls: int) -> int:
        runner.run(calls)
        return calls

    try:
        rates["rlpool-1"] = time_calls(step_rlpool, seconds, chunk=50, warmup=50).rates()
    finally:
        runner.close()
    return rates


def reference_python(mujoco: str) -> Path:
    """The reference virtualenv's Python (metaworld 3.1.1 on its pinned MuJoCo, or on rlpool's: ``project``)."""
    for folder in (ROOT / "tests", ROOT / "tests" / "references"):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
    import metaworld_reference as reference

    try:
        return reference.reference_python(reference.PROJECT_MUJOCO if mujoco == "project" else reference.MUJOCO)
    except BaseException as e:  # pytest's skip where the virtualenv cannot be made
        if isinstance(e, KeyboardInterrupt):
            raise
        raise bench.PeerUnavailable(f"metaworld's reference virtualenv is missing and could not be made: {e}") from e


def metaworld_steps_per_sec(task: str, num_envs: int, seconds: float, mujoco: str,
                            in_process: bool = False) -> dict[str, Any]:
    """metaworld's own envs (``metaworld_peer.py`` in the reference virtualenv): its JSON figures."""
    actions = bench.sample_actions(task, num_envs).astype(float).tolist()
    command = [str(reference_python(mujoco)), str(PEER_SCRIPT), "--task", task_name(task),
               "--num-envs", str(num_envs), "--seconds", str(seconds), "--seed", str(bench.ENV_SEED),
               "--actions", json.dumps(actions)]
    if in_process:
        command.append("--in-process")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120 + 10 * seconds)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise bench.PeerUnavailable(f"metaworld_peer.py failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return json.loads(lines[-1])


def measure_task(task: str, args: argparse.Namespace, peers: list[str]) -> dict[str, Any]:
    """Every figure of one task: raw and the peers (best of rounds, wall and CPU) and rlpool-async's ratios."""
    figures = BestRates()
    best, best_cpu, keep = figures.best, figures.best_cpu, figures.keep
    about: dict[str, Any] = {}

    def peer(name: str) -> None:
        try:
            if name == "metaworld-async":
                about[name] = metaworld_steps_per_sec(task, args.num_envs, args.seconds, args.metaworld_mujoco)
                keep(name, about[name]["steps_per_s"], None)
            else:
                keep(name, *peer_steps_per_sec(name, task, args.num_envs, args.seconds))
        except bench.PeerUnavailable as e:
            print(f"  {name:15s} skipped: {e}", flush=True)

    print(f"\n{task}: {model_file(task)}")
    raw = RawEnvs(task, args.num_envs)
    single = RawEnvs(task, 1) if args.single else None
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds} (load average {os.getloadavg()[0]:.2f})")
        keep("raw", *raw_steps_per_sec(raw, args.threads, args.seconds))
        if "rlpool-async" in peers:
            peer("rlpool-async")
        if single is not None:
            for name, rates in one_thread_steps_per_sec(task, single, args.seconds).items():
                keep(name, *rates)
    for name in peers:
        if name != "rlpool-async":
            peer(name)
    if args.single:
        try:
            about["metaworld-1"] = metaworld_steps_per_sec(task, 1, args.seconds, args.metaworld_mujoco, True)
            keep("metaworld-1", about["metaworld-1"]["steps_per_s"], None)
        except bench.PeerUnavailable as e:
            print(f"  {'metaworld-1':15s} skipped: {e}", flush=True)

    ratios: dict[str, float] = {}
    ours = best.get("rlpool-async")
    if ours is not None:
        for other in ("envpool-async", "raw", "metaworld-async", "envpool-sync", "rlpool-sync"):
            if other in best:
                ratios[f"rlpool-async / {other}"] = ours / best[other]
        ratios["per CPU-second: rlpool-async / raw"] = best_cpu["rlpool-async"] / best_cpu["raw"]
        if "envpool-async" in best_cpu:
            per_cpu = best_cpu["rlpool-async"] / best_cpu["envpool-async"]
            ratios["per CPU-second: rlpool-async / envpool-async"] = per_cpu
    for other in ("raw-1", "metaworld-1"):
        if "rlpool-1" in best and other in best:
            ratios[f"one env, one thread: rlpool-1 / {other}"] = best["rlpool-1"] / best[other]
    return {"best": best, "best_per_cpu_second": best_cpu, "ratios": ratios, "model_file": model_file(task),
            "metaworld": about}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", nargs="+", default=list(TASKS), help=f"task ids (default: {' '.join(TASKS)})")
    parser.add_argument("--threads", type=int, default=2, help="raw mj_step threads (default 2)")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"comma-separated (default {','.join(PEERS)})")
    parser.add_argument("--single", action="store_true", help="also one env on one thread: raw-1, rlpool-1, "
                        "metaworld-1")
    parser.add_argument("--metaworld-mujoco", choices=("pinned", "project"), default="pinned",
                        help="metaworld's MuJoCo: its pin, 3.3.0 (default), or rlpool's")
    add_run_options(parser, num_envs=8, seconds=3.0, rounds=3)
    args = parser.parse_args()
    announce_versions()
    peers = [p for p in args.peers.split(",") if p]

    import mujoco

    released = gil_released_by_mj_step(mujoco, load_model(mujoco, args.task[0]))
    print(f"mujoco {mujoco.__version__}: mj_step releases the GIL: {released}")
    if not released:
        print("warning: raw threads are serialised by the GIL; the raw figure is a one-core figure")

    results = {task: measure_task(task, args, peers) for task in args.task}

    batch = max(1, args.num_envs // 2)
    print_best(results, TARGETS, args.num_envs, args.threads, args.rounds)
    if args.json is not None:
        report = {"num_envs": args.num_envs, "batch_size": batch, "raw_threads": args.threads,
                  "rounds": args.rounds, "seconds": args.seconds, "tasks": results, "targets": TARGETS,
                  "metaworld_mujoco": args.metaworld_mujoco, "machine": bench.machine_info(),
                  "gil_released": released}
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
