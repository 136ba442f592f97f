"""Rendering in one run: the cost of a frame per family, and pixel observations against dm_control's loop.

    python benchmarks/render_bench.py                       # every section, 2 s per peer and round
    python benchmarks/render_bench.py --seconds 5 --rounds 3 --json out.json

Frames: for each task, ``render()`` of one env at the family's own size (rlpool) against the reference's
``render()`` of the same task in the same process (gymnasium's ``rgb_array`` env; dm_control's
``physics.render``), stepping between frames so that every frame is new.

Pixels: ``CheetahRun-v1`` with ``from_pixels=True`` at 84 x 84, ``--num-envs`` envs (default 8) on all cores,
sync and async (``batch_size = num_envs / 2``), against a Python loop over ``num_envs`` dm_control
environments that step and then render 84 x 84 (what dm_control's ``pixels.Wrapper`` does). EnvPool 1.2.5
has no pixel observations for its DMC tasks, so it has no row here. Rounds alternate the peers so that all
see the same machine load; each peer's best round is reported.

MuJoCo and dm_control render in software here (Mesa's OSMesa, ``MUJOCO_GL=osmesa``): both sides draw with
the same library, so the ratios compare what is around the drawing, not the drawing itself.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("MUJOCO_GL", "osmesa")

import numpy as np  # noqa: E402

import rlpool  # noqa: E402
from rlpool import bench  # noqa: E402

FRAME_TASKS = ["CartPole-v1", "Pendulum-v1", "Pong-v5", "Ant-v5", "Humanoid-v5", "CheetahRun-v1"]


def timed(fn: Callable[[], int], seconds: float) -> float:
    """Units per second that ``fn`` (returning how many units it did) keeps up for ``seconds``."""
    fn()  # warm-up: contexts, caches
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


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


def pixel_peers(num_envs: int) -> dict[str, Callable[[], int]]:
    from dm_control import suite

    peers: dict[str, Callable[[], int]] = {}
    for mode in ("sync", "async"):
        batch = num_envs if mode == "sync" else max(1, num_envs // 2)
        env = rlpool.make_dm("CheetahRun-v1", num_envs=num_envs, batch_size=batch, from_pixels=True, seed=0)
        ts = env.reset()
        actions = np.zeros((num_envs, 6))

        if mode == "sync":
            def step(env=env, actions=actions) -> int:
                env.step(actions)
                return num_envs
        else:
            state = {"ids": np.asarray(ts.observation.env_id)}

            def step(env=env, state=state, actions=actions) -> int:
                ids = state["ids"]
                env.send(actions[: len(ids)], ids)
                state["ids"] = np.asarray(env.recv().observation.env_id)
                return len(ids)
        peers[f"rlpool-{mode}"] = step
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

    peers["dm_control-loop"] = dm_loop
    return peers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result: dict[str, object] = {"cpus": os.cpu_count()}

    print("Frame cost (one env, the family's own size; ms per step + frame)")
    frames: dict[str, dict[str, float]] = {}
    for task in FRAME_TASKS:
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

    print(f"CheetahRun-v1 pixels 84x84, {args.num_envs} envs (env steps per second)")
    peers = pixel_peers(args.num_envs)
    best_rate = dict.fromkeys(peers, 0.0)
    for _ in range(args.rounds):
        for name, fn in peers.items():
            best_rate[name] = max(best_rate[name], timed(fn, args.seconds))
    base = best_rate["dm_control-loop"]
    for name, rate in best_rate.items():
        print(f"  {name:16s} {rate:9.1f} steps/s   {rate / base:.2f}x dm_control")
    result["pixels_steps_per_s"] = best_rate
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
