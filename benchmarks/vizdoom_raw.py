"""ViZDoom throughput: rlpool against bare DoomGame loops and EnvPool, in alternating rounds.

Each round measures every peer once (``rlpool.tools.bench.measure``: the same runners as ``rlpool bench``), so
that a change in machine load hits all of them; the median round of each peer is reported, with its
ratio to rlpool async. Peers:

- rlpool-async / rlpool-sync: ``rlpool.make_gymnasium(task, num_envs=N)`` (async: batch N // 2, recv/send);
- vizdoom-procs: N processes, each a bare loop over vizdoom's Python ``DoomGame``
  (``make_action(action, 4)``, ``new_episode`` at the end) on the task's cfg: no resize, no stack;
- vizdoom-threads: the same N loops as threads of one process (the GIL held between engine calls);
- envpool-async: EnvPool 1.2.5's task of the same id, batch N // 2, recv/send.

Frames/s = env steps/s x frame_skip (4).

    python benchmarks/vizdoom_raw.py                                  # Basic-v1, HealthGathering-v1, 8 envs
    python benchmarks/vizdoom_raw.py --tasks Basic-v1 --seconds 3 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics

from timing import add_run_options, announce_versions

from rlpool.tools.bench import PeerUnavailable, measure

PEERS = ("rlpool-async", "rlpool-sync", "vizdoom-procs", "vizdoom-threads", "envpool-async")
FRAME_SKIP = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=["Basic-v1", "HealthGathering-v1"])
    add_run_options(parser, num_envs=8, seconds=2.0, rounds=3, warmup=30)
    args = parser.parse_args()
    announce_versions()

    results: dict[str, dict[str, list[float]]] = {}
    for task in args.tasks:
        rates = results.setdefault(task, {})
        for r in range(args.rounds):
            order = PEERS if r % 2 == 0 else tuple(reversed(PEERS))
            for peer in order:
                try:
                    m = measure(peer, task, args.num_envs, seconds=args.seconds, warmup=args.warmup)
                except PeerUnavailable as e:
                    print(f"{task} {peer}: skipped ({e})")
                    continue
                rates.setdefault(peer, []).append(m.steps_per_sec * FRAME_SKIP)
        base = statistics.median(rates["rlpool-async"]) if "rlpool-async" in rates else None
        print(f"\n{task}, {args.num_envs} envs, median of {args.rounds} rounds (frames/s):")
        for peer, xs in rates.items():
            med = statistics.median(xs)
            ratio = f"  rlpool-async / this = {base / med:.2f}" if base else ""
            print(f"  {peer:16s} {med:10,.0f}   rounds: {', '.join(f'{x:,.0f}' for x in xs)}{ratio}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
