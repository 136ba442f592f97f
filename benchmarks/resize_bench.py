"""Atari resize micro-benchmark: resize.h alone, on recorded Pong frames.

Records --frames env steps of Pong with a raw ALE (random minimal-set actions, frame skip 4): each record
is max(frame 3, frame 4) in gray plus the flags of the rows where either of those two frames changed since
the last step (what the env passes to ``Resizer::run`` to reuse unchanged rows). Then compiles
``resize_bench.cc`` against this tree's ``src/rlpool/_core/gfx/resize.h`` (and, with --baseline REV,
against that git revision's resize.h too) with the extension's compiler flags, and times ``Resizer::run``
per call (the changed rows of the pooled frame are written in place before each call, as the env does),
alternating the variants over --rounds rounds; prints the median of the rounds' medians and checks that
the variants' outputs agree.

    python benchmarks/resize_bench.py                       # 84x84, this tree only
    python benchmarks/resize_bench.py --baseline main --sizes 84x84 64x48
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import struct
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HEADER = Path("src/rlpool/_core/gfx/resize.h")
OLD_HEADER = Path("src/rlpool/envs/atari/resize.h")  # where revisions before the core's gfx/ had it


def record(path: Path, frames: int, seed: int) -> float:
    """Writes the frame file; returns the mean fraction of dirty rows."""
    import ale_py
    from ale_py import roms

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path("pong"))
    ale.reset_game()
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(seed)
    prev_a = prev_b = None
    dirty_sum = 0.0
    with path.open("wb") as f:
        f.write(struct.pack("<i", frames))
        for _ in range(frames):
            a = actions[int(rng.integers(len(actions)))]
            for _ in range(3):
                ale.act(a)
            fa = ale.getScreenGrayscale()
            ale.act(a)
            fb = ale.getScreenGrayscale()
            if ale.game_over():
                ale.reset_game()
            if prev_a is None:
                dirty = np.ones(210, np.uint8)
            else:
                dirty = ((fa != prev_a).any(axis=1) | (fb != prev_b).any(axis=1)).astype(np.uint8)
            prev_a, prev_b = fa, fb
            dirty_sum += float(dirty.mean())
            f.write(np.maximum(fa, fb).tobytes())
            f.write(dirty.tobytes())
    return dirty_sum / frames


# The extension's flags (CMakeLists.txt: Release -O3, nanobind's -Os turned off), no FMA contraction.
CXXFLAGS = "-O3 -DNDEBUG -fPIC -fvisibility=hidden -ffp-contract=off"


def build(header_dir: Path, exe: Path, cxxflags: str) -> None:
    cmd = ["g++", "-std=c++20", *cxxflags.split(), f"-I{header_dir}", str(ROOT / "benchmarks" / "resize_bench.cc"),
           "-o", str(exe)]
    subprocess.run(cmd, check=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--frames", type=int, default=1000)
    p.add_argument("--sizes", nargs="+", default=["84x84"], help="HxW outputs")
    p.add_argument("--baseline", help="git revision whose resize.h to time as well")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--passes", type=int, default=7, help="passes over the frames per round")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cxxflags", default=CXXFLAGS, help=f"compiler flags (default: the extension's, {CXXFLAGS!r})")
    args = p.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="resize_bench_"))
    try:
        frames = tmp / "frames.bin"
        dirty = record(frames, args.frames, args.seed)
        print(f"{args.frames} Pong steps, {dirty * 210:.1f} of 210 rows dirty per step on average")
        variants = {"tree": ROOT / HEADER.parent}
        if args.baseline:
            base_dir = tmp / "baseline"
            base_dir.mkdir()
            shown = [subprocess.run(["git", "-C", str(ROOT), "show", f"{args.baseline}:{path}"],
                                    capture_output=True, text=True) for path in (HEADER, OLD_HEADER)]
            text = next((s.stdout for s in shown if s.returncode == 0), None)
            if text is None:
                raise SystemExit(f"{args.baseline} has neither {HEADER} nor {OLD_HEADER}")
            (base_dir / "resize.h").write_text(text)
            variants["baseline"] = base_dir
        exes = {}
        for name, header_dir in variants.items():
            exes[name] = tmp / f"bench_{name}"
            build(header_dir, exes[name], args.cxxflags)
        for size in args.sizes:
            h, w = size.split("x")
            times: dict[str, list[float]] = {name: [] for name in variants}
            hashes: dict[str, set[str]] = {name: set() for name in variants}
            for _ in range(args.rounds):
                for name, exe in exes.items():  # alternate, so load changes hit every variant
                    out = subprocess.run([str(exe), str(frames), h, w, str(args.passes)], check=True,
                                         capture_output=True, text=True).stdout.split()
                    times[name].append(float(out[0]))
                    hashes[name].add(out[1])
            digests = set().union(*hashes.values())
            agree = "outputs agree" if len(digests) == 1 else f"OUTPUTS DIFFER: {hashes}"
            cells = ", ".join(f"{name} {statistics.median(t) / 1000:.2f} us" for name, t in times.items())
            print(f"{size}: {cells} per call (median of {args.rounds} rounds); {agree}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
