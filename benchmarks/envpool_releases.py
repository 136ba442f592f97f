"""rlpool beside EnvPool 1.2.5 and EnvPool 1.2.7 in one run: two Pythons, their rounds taken in turns.

EnvPool 1.2.7, the newest, publishes wheels for CPython 3.12-3.14 only, and 1.2.5 is the newest for 3.11, so
no one interpreter holds both. This script runs ``rlpool bench`` (rlpool sync/async and EnvPool sync/async)
under each given Python, one short round at a time, alternating which Python goes first, and prints each
peer's median with the ratio of rlpool's best mode to EnvPool's best under the same Python::

    python benchmarks/envpool_releases.py --python /work/venv/bin/python --python /tmp/v313/bin/python \\
        --rounds 3 CartPole-v1:16 Pong-v5:8 Ant-v4:8

Each Python needs rlpool and EnvPool installed (``pip install -e ".[bench]"`` takes the release its wheels
allow). Wall-clock figures move with the machine's load: read the ratios, taken within one Python's round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

PEERS = ("rlpool-sync", "rlpool-async", "envpool-sync", "envpool-async")


def versions(python: str) -> tuple[str, str]:
    """(Python's version, EnvPool's version) of an interpreter."""
    code = ("import platform, importlib.metadata as m; "
            "print(platform.python_version(), m.version('envpool'))")
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    return out[0], out[1]


def one_round(python: str, task: str, num_envs: int, seconds: float) -> dict[str, float]:
    """Steps/s of each peer in one ``rlpool bench`` round under ``python``."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [python, "-m", "rlpool.tools.cli", "bench", task, "--num-envs", str(num_envs), "--peers",
             ",".join(PEERS), "--seconds", str(seconds), "--out", out, "--no-plot", "--no-progress"],
            check=True, capture_output=True, text=True)
        report = json.loads((Path(out) / "bench.json").read_text())
    return {m["peer"]: m["steps_per_sec"] for m in report["measurements"]}


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", action="append", required=True, help="an interpreter (give two or more)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per peer and round")
    parser.add_argument("runs", nargs="+", help="TASK:NUM_ENVS")
    args = parser.parse_args()
    label = {p: "Python {} + EnvPool {}".format(*versions(p)) for p in args.python}
    for p in args.python:
        print(f"{p}: {label[p]}", flush=True)
    print()
    print("| task | num_envs | Python + EnvPool | rlpool sync | rlpool async | EnvPool sync | EnvPool async | "
          "rlpool best ÷ EnvPool best |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for run in args.runs:
        task, n = run.rsplit(":", 1)
        rates: dict[str, dict[str, list[float]]] = {p: {} for p in args.python}
        for r in range(args.rounds):
            order = args.python if r % 2 == 0 else list(reversed(args.python))
            for p in order:
                for peer, rate in one_round(p, task, int(n), args.seconds).items():
                    rates[p].setdefault(peer, []).append(rate)
        for p in args.python:
            med = {peer: statistics.median(v) for peer, v in rates[p].items()}
            ours = max(med.get("rlpool-sync", 0.0), med.get("rlpool-async", 0.0))
            theirs = max(med.get("envpool-sync", 0.0), med.get("envpool-async", 0.0))
            cells = [f"{med[peer]:,.0f}" if peer in med else "-" for peer in PEERS]
            ratio = f"{ours / theirs:.2f}x" if theirs else "-"
            print(f"| {task} | {n} | {label[p]} | {' | '.join(cells)} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
