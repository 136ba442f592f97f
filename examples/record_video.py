"""Write a short video of CartPole, Pong and Ant, each drawn by rlpool's own renderer.

    python examples/record_video.py                   # videos/<task>.mp4, 200 steps each
    python examples/record_video.py --steps 500 --out /tmp/videos --tasks Ant-v5 Pong-v5

Four envs step with random actions; gymnasium's vector ``RecordVideo`` records them through the pool's
``render()`` (``render_env_id`` = every env: the frames are tiled side by side, as gymnasium tiles a vector
env's frames). Needs ``moviepy`` (gymnasium's video writer; ``pip install moviepy``) and, for Ant, Mesa's
OSMesa (``apt install libosmesa6``). A task that does not render yet is skipped with a note.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from gymnasium.wrappers.vector import RecordVideo

import rlpool

NUM_ENVS = 4


def record(task: str, steps: int, out: Path) -> Path | None:
    """Record ``steps`` steps of ``task`` into ``out/<task>.mp4``; None if the task does not render."""
    try:
        envs = rlpool.make_gymnasium(task, num_envs=NUM_ENVS, seed=0, render_mode="rgb_array",
                                     render_env_id=list(range(NUM_ENVS)))
    except ValueError as e:
        print(f"{task}: skipped ({e})")
        return None
    folder = out / task
    envs = RecordVideo(envs, str(folder), episode_trigger=lambda episode: episode == 0, video_length=steps,
                       name_prefix=task)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    space = envs.single_action_space
    for _ in range(steps):
        if hasattr(space, "n"):
            actions = rng.integers(0, space.n, NUM_ENVS)
        else:
            actions = rng.uniform(space.low, space.high, (NUM_ENVS, *space.shape)).astype(space.dtype)
        envs.step(actions)
    envs.close()
    videos = sorted(folder.glob("*.mp4"))
    print(f"{task}: {videos[0] if videos else 'no video written'}")
    return videos[0] if videos else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=["CartPole-v1", "Pong-v5", "Ant-v5"])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("videos"))
    args = parser.parse_args()
    for task in args.tasks:
        record(task, args.steps, args.out)


if __name__ == "__main__":
    main()
