"""The ``rlpool`` command: ``rlpool list`` (``--options TASK``: one task's reference) and ``rlpool bench``.

``rlpool list`` prints one line per task id, ``<id><TAB><family>`` (the family: the folder
``rlpool/envs/<family>/`` that registers the id; ``-`` for a task registered from outside rlpool), sorted by
id, so that ``cut -f1`` gives the ids; ``--family NAME`` keeps one family's.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import rlpool

NO_FAMILY = "-"
"""The family column of a task registered from outside ``rlpool.envs`` (a user's ``rlpool.register``)."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _peer_list(text: str) -> list[str]:
    from rlpool.tools.bench import PEERS

    peers = [p.strip() for p in text.split(",") if p.strip()]
    if not peers:
        raise argparse.ArgumentTypeError("expected a comma-separated list of peers")
    unknown = [p for p in peers if p not in PEERS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown peer(s) {', '.join(map(repr, unknown))}; choose from {','.join(PEERS)}"
        )
    return list(dict.fromkeys(peers))


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser of the ``rlpool`` command."""
    from rlpool.tools.bench import PEERS

    parser = argparse.ArgumentParser(
        prog="rlpool",
        description="rlpool: batched RL environments stepped in a C++ thread pool.",
    )
    parser.add_argument("--version", action="version", version=f"rlpool {rlpool.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    listing = sub.add_parser(
        "list",
        help="print every task id and its family, or one task's description",
        description=(
            "Print every registered task id and its family, one per line as ID<TAB>FAMILY (sorted by id; "
            "`rlpool list | cut -f1` gives the ids alone); with --options TASK, describe that task instead."
        ),
    )
    what = listing.add_mutually_exclusive_group()
    what.add_argument(
        "--family",
        metavar="NAME",
        help="only the tasks of family NAME (the folder rlpool/envs/NAME/ that registers them)",
    )
    what.add_argument(
        "--options",
        metavar="TASK",
        help="describe TASK: its spaces, reward, episode end and every option with its default and doc",
    )

    bench = sub.add_parser(
        "bench",
        help="measure steps/s against gymnasium and EnvPool",
        description=(
            "Time rlpool (sync and async) side by side with gymnasium's Sync/AsyncVectorEnv and "
            "EnvPool (when installed) on each TASK and num_envs, in one run. Prints a table with "
            "rlpool's speed-up over every other peer and writes DIR/bench.json and DIR/bench.png."
        ),
    )
    bench.add_argument("tasks", nargs="+", metavar="TASK", help="task ids (see `rlpool list`)")
    bench.add_argument(
        "--num-envs",
        nargs="+",
        type=_positive_int,
        default=[1, 4, 16],
        metavar="N",
        help="numbers of envs to measure (default: 1 4 16)",
    )
    budget = bench.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds",
        type=_positive_float,
        default=2.0,
        metavar="S",
        help="time each measurement for about S seconds (default: 2)",
    )
    budget.add_argument(
        "--steps",
        type=_positive_int,
        default=None,
        metavar="N",
        help="time a fixed N env steps (batch rows) per measurement instead of --seconds",
    )
    bench.add_argument(
        "--warmup",
        type=_positive_int,
        default=300,
        metavar="CALLS",
        help="untimed step/recv calls before each measurement (default: 300)",
    )
    bench.add_argument(
        "--rounds",
        type=_positive_int,
        default=1,
        metavar="R",
        help="measure each peer R times, the peers in turn forward and backward, and report the median "
        "(default: 1; 3 or more on a machine whose speed drifts)",
    )
    bench.add_argument(
        "--peers",
        type=_peer_list,
        default=list(PEERS),
        metavar="LIST",
        help=f"comma-separated peers to measure (default: {','.join(PEERS)})",
    )
    bench.add_argument(
        "--out",
        type=Path,
        default=Path("bench_results"),
        metavar="DIR",
        help="where to write bench.json and bench.png (default: ./bench_results)",
    )
    bench.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE (a module name or a .py file) first, e.g. one that registers Python-written "
        "envs; repeatable",
    )
    bench.add_argument("--no-plot", action="store_true", help="do not write bench.png")
    bench.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser


def _cmd_list(args: argparse.Namespace) -> int:
    if args.options is not None:
        from rlpool import registry
        from rlpool.tools import docgen as reference

        if args.options not in rlpool.list_all_envs():
            print(f"rlpool list: error: {registry.unknown_task_message(args.options)}", file=sys.stderr)
            return 2
        print(reference.describe(rlpool.make_spec(args.options)), end="")
        return 0
    from rlpool import registry

    if args.family is not None and args.family not in registry.list_families():
        print(
            f"rlpool list: error: unknown family {args.family!r}; families: {', '.join(registry.list_families())}",
            file=sys.stderr,
        )
        return 2
    for task_id in rlpool.list_all_envs():
        family = registry.family(task_id)
        if args.family is None or family == args.family:
            print(f"{task_id}\t{family or NO_FAMILY}")
    return 0



def _import(text: str) -> None:
    """Import a module by name, or a .py file by path under its file name (once)."""
    path = Path(text)
    if not (text.endswith(".py") or path.is_file()):
        importlib.import_module(text)
        return
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {text}")
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", None) or "").resolve() == path.resolve():
            return
        name = f"_rlpool_import_{name}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {text}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


def _cmd_bench(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from rlpool.tools import bench

    for module in args.imports:
        try:
            _import(module)
        except Exception as e:
            parser.error(f"--import {module}: {type(e).__name__}: {e}")
    known = set(rlpool.list_all_envs())
    unknown = [t for t in args.tasks if t not in known]
    if unknown:
        parser.error(
            f"unknown task id(s) {', '.join(map(repr, unknown))}; valid ids: {', '.join(sorted(known))}"
        )
    tasks = list(dict.fromkeys(args.tasks))
    num_envs = list(dict.fromkeys(args.num_envs))
    result = bench.run_benchmark(
        tasks,
        num_envs,
        args.peers,
        steps=args.steps,
        seconds=args.seconds,
        warmup=args.warmup,
        rounds=args.rounds,
        progress=not args.no_progress,
    )
    print(bench.format_table(result))
    notes = bench.format_skips(result.skipped)
    if notes:
        print()
        print(notes)
    config = {
        "tasks": tasks,
        "num_envs": num_envs,
        "peers": args.peers,
        "imports": args.imports,
        "steps": args.steps,
        "seconds": None if args.steps is not None else args.seconds,
        "warmup_calls": args.warmup,
        "rounds": args.rounds,
        "async_batch_size": "max(1, num_envs // 2)",
        "command": sys.argv,
    }
    out: Path = args.out
    json_path = out / "bench.json"
    bench.write_json(bench.to_json(result, config), json_path)
    print(f"\nwrote {json_path}")
    if not args.no_plot:
        png_path = out / "bench.png"
        bench.plot(result, png_path, args.peers)
        print(f"wrote {png_path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rlpool`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return _cmd_list(args)
        if args.command == "bench":
            return _cmd_bench(args, parser)
    except BrokenPipeError:
        # The reader went away (`rlpool list | head -1`): stop quietly, as `ls | head` does. Point stdout at
        # /dev/null so that the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
