"""Rendering in one run: the cost of a frame per family, and pixel observations against dm_control's loop.

    python benchmarks/render_bench.py                       # every section, 2 s per peer and round
    python benchmarks/render_bench.py --seconds 5 --rounds 3 --json out.json

Frames: for each task, ``render()`` of one env at the family's own size (rlpool) against the reference's
``render()`` of the same task in the same process (gymnasium's ``rgb_array`` env; dm_control's
``physics.render``), stepping between frames so that every frame is new.

Pixels: ``CheetahRun-v1`` with ``from_pixels=True`` at 84 x 84, ``--num-envs`` envs (default 8) on all cores,
sync and async (``batch_size = num_envs / 2``), against a Python loop over ``num_envs`` dm_control
environments that step and then render 84 x 84 (what dm_control's ``pixels.Wrapper`` does). EnvPool 1.2.5
has no pixel observations for its DMC tasks, so it has no row here. Each peer runs in a fresh child
process (Mesa's software rasterizer keeps per-process state); rounds alternate the peers so that all see
the same machine load; each peer's best round is reported.

MuJoCo and dm_control render in software here (Mesa's OSMesa, ``MUJOCO_GL=osmesa``): both sides draw with
the same library, so the ratios compare what is around the drawing, not the drawing itself.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("MUJOCO_GL", "osmesa")

import numpy as np  # noqa: E402
from timing import add_run_options, announce_versions, each, time_calls  # noqa: E402

import rlpool  # noqa: E402
from rlpool.tools import bench  # noqa: E402

FRAME_TASKS = ["CartPole-v1", "Pendulum-v1", "FrozenLake8x8-v1", "Taxi-v3", "Blackjack-v1", "Pong-v5",
               "LunarLander-v3", "BipedalWalker-v3", "MiniGrid-DoorKey-8x8-v0", "BigfishEasy-v0", "Basic-v1",
               "Ant-v5", "Humanoid-v5", "CheetahRun-v1"]


def timed(fn: Callable[[], int], seconds: float) -> float:
    """Units per second that ``fn`` (returning how many units it did) keeps up for ``seconds``."""
    return time_calls(each(fn), seconds, warmup=1).per_wall_s  # the warm-up call: contexts, caches


def rlpool_frames(task: str) -> Callable[[], int] | None:
    spec = rlpool.make_spec(task)
    if spec.arrays.render_size == (0, 0):
        return None
    env = rlpool.make_gymnasium(task, num_envs=1, render_mode="rgb_array", seed=0)
    env.reset()
    action = np.stack([env.single_action_space.sample()])

    def frame() -> int:
        env.step(action)
        env.render()
        return 1

    return frame


def reference_frames(task: str) -> Callable[[], int] | None:
    spec = rlpool.make_spec(task)
    if spec.task.env_type.startswith("Dmc"):
        from dm_control import suite

        from rlpool.envs.dmc.registration import DOMAINS, env_type

        domain = next(d for d in DOMAINS if env_type(d.name) == spec.task.env_type)
        env = suite.load(domain.name, spec.config["task_name"], task_kwargs={"random": 0})
        env.reset()
        action = np.zeros(env.action_spec().shape)

        def dm_frame() -> int:
            if env.step(action).last():
                env.reset()
            env.physics.render(240, 320)
            return 1

        return dm_frame
    import gymnasium as gym

    try:
        bench.check_peer("gym-sync", task)
        bench._import_gym_plugin(task)
        genv = gym.make(bench.gym_task_id(task), render_mode="rgb_array")
    except Exception:  # noqa: BLE001 - a reference that is not installed has no row
        return None
    genv.reset(seed=0)

    def gym_frame() -> int:
        _, _, terminated, truncated, _ = genv.step(genv.action_space.sample())
        if terminated or truncated:
            genv.reset()
        genv.render()
        return 1

    return gym_frame


PIXEL_PEERS = ("rlpool-sync", "rlpool-async", "dm_control-loop")


def pixel_peer(name: str, num_envs: int) -> Callable[[], int]:
    """The step function of one pixel peer (built in the process that times it)."""
    if name == "dm_control-loop":
        from dm_control import suite

        dm_envs = [suite.load("cheetah", "run", task_kwargs={"random": i}) for i in range(num_envs)]
        for e in dm_envs:
            e.reset()
        zero = np.zeros(6)

        def dm_loop() -> int:
            for e in dm_envs:
                if e.step(zero).last():
                    e.reset()
                e.physics.render(84, 84)
            return num_envs

        return dm_loop
    asynchronous = name == "rlpool-async"
    batch = max(1, num_envs // 2) if asynchronous else num_envs
    env = rlpool.make_dm("CheetahRun-v1", num_envs=num_envs, batch_size=batch, from_pixels=True, seed=0)
    ts = env.reset()
    actions = np.zeros((num_envs, 6))
    ids = [np.asarray(ts.observation.env_id)]

    def sync_step() -> int:
        env.step(actions)
        return num_envs

    def async_step() -> int:
        env.send(actions[: len(ids[0])], ids[0])
        ids[0] = np.asarray(env.recv().observation.env_id)
        return len(ids[0])

    return async_step if asynchronous else sync_step


def time_pixel_peer(name: str, num_envs: int, seconds: float) -> float:
    """Env steps per second of ``name``, timed in a fresh child process."""
    out = subprocess.run(
        [sys.executable, __file__, "--pixel-peer", name, "--num-envs", str(num_envs), "--seconds", str(seconds)],
        check=True, capture_output=True, text=True,
    ).stdout
    return float(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_run_options(parser, num_envs=8, seconds=2.0, rounds=2)
    parser.add_argument("--only", choices=("frames", "pixels"), help="run one section")
    parser.add_argument("--pixel-peer", choices=PIXEL_PEERS, help=argparse.SUPPRESS)  # a child's one peer
    args = parser.parse_args()
    announce_versions()
    if args.pixel_peer:
        print(timed(pixel_peer(args.pixel_peer, args.num_envs), args.seconds))
        return
    result: dict[str, object] = {"cpus": os.cpu_count()}

    frames: dict[str, dict[str, float]] = {}
    tasks = [] if args.only == "pixels" else FRAME_TASKS
    if tasks:
        print("Frame cost (one env, the family's own size; ms per step + frame)")
    for task in tasks:
        ours, ref = rlpool_frames(task), reference_frames(task)
        if ours is None:
            print(f"  {task:16s} rlpool does not render it yet")
            continue
        best = {"rlpool": 0.0, "reference": 0.0}
        for _ in range(args.rounds):
            best["rlpool"] = max(best["rlpool"], timed(ours, args.seconds))
            if ref is not None:
                best["reference"] = max(best["reference"], timed(ref, args.seconds))
        row = {k: 1e3 / v for k, v in best.items() if v > 0}
        frames[task] = row
        ratio = f"{best['rlpool'] / best['reference']:.2f}x" if best["reference"] else "-"
        ref_ms = f"{row['reference']:8.2f}" if "reference" in row else "       -"
        print(f"  {task:16s} rlpool {row['rlpool']:8.2f} ms   reference {ref_ms} ms   ratio {ratio}")
    result["frame_ms"] = frames

    if args.only == "frames":
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2))
        return
    print(f"CheetahRun-v1 pixels 84x84, {args.num_envs} envs (env steps per second)")
    best_rate = dict.fromkeys(PIXEL_PEERS, 0.0)
    for _ in range(args.rounds):
        for name in PIXEL_PEERS:
            best_rate[name] = max(best_rate[name], time_pixel_peer(name, args.num_envs, args.seconds))
    base = best_rate["dm_control-loop"]
    for name, rate in best_rate.items():
        print(f"  {name:16s} {rate:9.1f} steps/s   {rate / base:.2f}x dm_control")
    result["pixels_steps_per_s"] = best_rate
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
