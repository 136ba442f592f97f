"""The ``rlpool`` command: list, bench (tiny budgets) and argument errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rlpool
from rlpool import registry
from rlpool.tools import bench
from rlpool.tools.cli import main

PEERS = ["rlpool-sync", "rlpool-async", "gym-sync"]


def test_help_runs_as_a_program():
    for args in (["--help"], ["list", "--help"], ["bench", "--help"]):
        proc = subprocess.run(
            [sys.executable, "-m", "rlpool.tools.cli", *args], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        assert "usage: rlpool" in proc.stdout
    assert "--num-envs" in proc.stdout and "--peers" in proc.stdout


def test_list_prints_every_task_with_its_family(capsys):
    """One line per id, ``<id><TAB><family>``, sorted by id: the first column alone is list_all_envs()."""
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in lines]
    assert all(len(row) == 2 for row in rows), [line for line in lines if line.count("\t") != 1][:3]
    assert [task_id for task_id, _ in rows] == rlpool.list_all_envs()
    families = dict(rows)
    assert families["CartPole-v1"] == "classic_control" and families["Pong-v5"] == "atari"
    assert families["HalfCheetah-v5"] == "mujoco" and families["BusyWork-v0"] == "testing"
    # Every family is a folder of rlpool/envs that has the module registering it.
    envs = Path(rlpool.__file__).parent / "envs"
    assert set(families.values()) == set(registry.list_families())
    assert all((envs / family / "registration.py").is_file() for family in registry.list_families())


def test_registry_family_is_a_family_folder():
    """The family of each id is a folder under rlpool/envs (the one whose registration registered it)."""
    from rlpool.envs import FAMILIES

    assert set(registry.list_families()) <= set(FAMILIES)
    assert {registry.family(t) for t in rlpool.list_all_envs()} == set(registry.list_families())
    assert registry.task("Taxi-v3").family == "toy_text"
    with pytest.raises(ValueError, match="unknown task id"):
        registry.family("NoSuchTask-v9")


def test_list_family_filter(capsys):
    assert main(["list", "--family", "classic_control"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Acrobot-v1\tclassic_control", "CartPole-v0\tclassic_control", "CartPole-v1\tclassic_control",
        "MountainCar-v0\tclassic_control", "MountainCarContinuous-v0\tclassic_control",
        "Pendulum-v1\tclassic_control",
    ]


def test_list_unknown_family_names_the_families(capsys):
    assert main(["list", "--family", "classic"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown family 'classic'" in captured.err
    assert "families: " + ", ".join(registry.list_families()) in captured.err


def test_list_family_and_options_are_exclusive(capsys):
    with pytest.raises(SystemExit) as info:
        main(["list", "--family", "atari", "--options", "Pong-v5"])
    assert info.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_list_shows_a_user_registered_task_without_family():
    """A task registered from outside rlpool.envs (a user's rlpool.register) lists with family ``-``; a
    Python-written task (rlpool.python_env) is the ``python`` family's. In a child: registrations are for good."""
    code = (
        "import rlpool\n"
        "from rlpool.tools.cli import main\n"
        "rlpool.register('MyCartPole-v0', 'CartPole', max_episode_steps=10)\n"
        "main(['list'])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "MyCartPole-v0\t-" in proc.stdout.splitlines()


def test_list_options_describes_a_task(capsys):
    assert main(["list", "--options", "CartPole-v1"]) == 0
    out = capsys.readouterr().out
    assert out == rlpool.make_spec("CartPole-v1").describe()
    assert out.startswith("CartPole-v1  (env type CartPole)")
    assert "sutton_barto_reward = False  (default)" in out
    assert "after max_episode_steps = 500 steps" in out and "Reward threshold: 475" in out


@pytest.mark.parametrize(
    "task, hint", [("Cartpole-v1", "did you mean 'CartPole-v1'"), ("NoSuchTask-v9", "rlpool list")]
)
def test_list_options_of_an_unknown_task_fails(task, hint, capsys):
    assert main(["list", "--options", task]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"unknown task id {task!r}" in captured.err and hint in captured.err


def test_list_options_as_a_program():
    proc = subprocess.run(
        [sys.executable, "-m", "rlpool.tools.cli", "list", "--options", "NoSuchTask-v9"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0 and "unknown task id 'NoSuchTask-v9'" in proc.stderr


def count_timed_rows(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, int, str], dict[str, int]]:
    """Count, for each (task, num_envs, peer) that ``rlpool bench`` builds, the rows its env really returned.

    Each runner's env gets its ``step`` (or ``recv``) wrapped to count calls and the rows of their rewards;
    the counts are of the runner's last ``run`` (the timed one, after the warm-up's).
    """
    timed: dict[tuple[str, int, str], dict[str, int]] = {}
    make_runner = bench.make_runner

    def counting_runner(peer: str, task: str, num_envs: int, actions: np.ndarray) -> bench.Runner:
        runner = make_runner(peer, task, num_envs, actions)
        name = "recv" if isinstance(runner, bench.AsyncRunner) else "step"
        call = getattr(runner.env, name)
        counts = {"calls": 0, "rows": 0}

        def counted(*args: Any, **kwargs: Any) -> Any:
            result = call(*args, **kwargs)
            counts["calls"] += 1
            counts["rows"] += len(result[1])  # one reward per row returned
            return result

        setattr(runner.env, name, counted)
        run = runner.run

        def run_counted(calls: int) -> None:
            counts.update(calls=0, rows=0)
            run(calls)
            timed[(task, num_envs, peer)] = dict(counts)

        runner.run = run_counted  # type: ignore[method-assign]
        return runner

    monkeypatch.setattr(bench, "make_runner", counting_runner)
    return timed


def test_bench_writes_json_and_png(tmp_path, capsys, monkeypatch):
    timed = count_timed_rows(monkeypatch)
    out = tmp_path / "res"
    argv = ["bench", "CartPole-v1", "--num-envs", "1", "2", "--steps", "200", "--warmup", "20"]
    argv += ["--peers", ",".join(PEERS), "--out", str(out), "--no-progress"]
    started = time.perf_counter()
    assert main(argv) == 0
    wall = time.perf_counter() - started
    printed = capsys.readouterr().out

    report = json.loads((out / "bench.json").read_text())
    machine = report["machine"]
    assert machine["cpu_count"] >= 1 and machine["python"] and machine["platform"]
    assert machine["versions"]["rlpool"] == rlpool.__version__
    assert {"gymnasium", "envpool"} <= set(machine["versions"])

    got = {(m["task"], m["num_envs"], m["peer"]): m for m in report["measurements"]}
    expected = {("CartPole-v1", n, p) for n in (1, 2) for p in PEERS} - {("CartPole-v1", 1, "rlpool-async")}
    assert set(got) == expected
    # The steps and calls reported are those the envs really made while timed: rows their step()/recv()
    # returned, not calls times an assumed batch size.
    assert set(timed) == expected
    for key, m in got.items():
        assert m["steps"] >= 200 and m["seconds"] > 0
        assert (m["steps"], m["calls"]) == (timed[key]["rows"], timed[key]["calls"]), key
    # The timed seconds are real seconds: together they fit in the command's own wall-clock time (a rate
    # from a wrong clock or unit, e.g. milliseconds or a timer that missed the steps, would not).
    assert sum(m["seconds"] for m in got.values()) <= wall
    assert got[("CartPole-v1", 2, "rlpool-async")]["batch_size"] == 1
    assert got[("CartPole-v1", 2, "rlpool-sync")]["batch_size"] == 2
    assert set(got[("CartPole-v1", 2, "rlpool-sync")]["ratios"]) == {"rlpool-async", "gym-sync"}
    assert [(s["peer"], s["num_envs"]) for s in report["skipped"]] == [("rlpool-async", 1)]
    assert all(m["round_rates"] == [m["steps_per_sec"]] for m in got.values())  # one round

    png = (out / "bench.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" in png[-16:]

    assert "steps/s" in printed and "(best rlpool mode)" in printed and "skipped rlpool-async" in printed
    # The printed table has one row per measurement asked for, with that measurement's rate.
    table = [line.split()[:4] for line in printed.splitlines() if line.startswith("CartPole-v1")]
    assert sorted((int(n), peer) for _, n, peer, _ in table) == sorted((n, p) for _, n, p in expected)
    for task, n, peer, rate in table:
        assert rate == f"{got[(task, int(n), peer)]['steps_per_sec']:,.0f}", (n, peer)


def test_bench_no_plot(tmp_path, capsys):
    argv = ["bench", "Pendulum-v1", "--num-envs", "1", "--steps", "50", "--warmup", "5"]
    argv += ["--peers", "rlpool-sync", "--out", str(tmp_path), "--no-plot", "--no-progress"]
    assert main(argv) == 0
    assert (tmp_path / "bench.json").exists() and not (tmp_path / "bench.png").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bench", "NoSuchTask-v9"], "unknown task id(s) 'NoSuchTask-v9'"),
        (["bench", "CartPole-v1", "--peers", "rlpool-sync,fastest"], "unknown peer(s) 'fastest'"),
        (["bench", "CartPole-v1", "--num-envs", "0"], "expected a positive integer"),
        (["bench", "CartPole-v1", "--steps", "10", "--seconds", "1"], "not allowed with argument"),
        (["bench"], "required: TASK"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_nonzero(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--out", str(tmp_path)] if argv[0] == "bench" and len(argv) > 1 else argv)
    assert exc.value.code != 0
    assert message in capsys.readouterr().err
    assert not (tmp_path / "bench.json").exists()


def test_unavailable_peer_is_skipped_with_a_note(monkeypatch):
    def missing(peer: str, task: str) -> None:
        if peer.startswith("envpool"):
            raise bench.PeerUnavailable("envpool is not installed")

    monkeypatch.setattr(bench, "check_peer", missing)
    result = bench.run_benchmark(
        ["CartPole-v1"], [1, 2], ["rlpool-sync", "envpool-sync"], steps=20, warmup=2, progress=False
    )
    assert [m.peer for m in result.measurements] == ["rlpool-sync", "rlpool-sync"]
    assert bench.format_skips(result.skipped) == (
        "note: skipped envpool-sync on CartPole-v1 (num_envs 1, 2): envpool is not installed"
    )


def test_gym_task_id_ignores_rlpool_namespace():
    assert bench.gym_task_id("CartPole-v1") == "CartPole-v1"
    with pytest.raises(bench.PeerUnavailable, match="gymnasium does not know"):
        bench.gym_task_id("NoSuchTask-v9")


def test_list_into_a_closed_pipe_exits_quietly() -> None:
    # `rlpool list | head -1` where the reader has gone before rlpool writes: no traceback, exit 0.
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    child = subprocess.Popen(
        [sys.executable, "-m", "rlpool.tools.cli", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    child.stdout.close()  # before the child has imported rlpool, so its first write finds no reader
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=60) == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_rounds_alternate_the_peers_and_report_the_median(monkeypatch):
    """--rounds R: each peer is measured R times, the peers forward then backward by turns, and its rate is
    the median of its rounds (steps, calls and seconds are totals)."""
    order = []
    rates = {"rlpool-sync": iter([30.0, 10.0, 20.0]), "gym-sync": iter([1.0, 5.0, 3.0])}

    def fake_measure(peer, task, n, *, steps, seconds, warmup):
        order.append(peer)
        rate = next(rates[peer])
        return bench.Measurement(task, peer, n, n, int(rate * 10), 10, 10.0, rate)

    monkeypatch.setattr(bench, "check_peer", lambda peer, task: None)
    monkeypatch.setattr(bench, "measure", fake_measure)
    result = bench.run_benchmark(["CartPole-v1"], [4], ["rlpool-sync", "gym-sync"], rounds=3, progress=False)
    assert order == ["rlpool-sync", "gym-sync", "gym-sync", "rlpool-sync", "rlpool-sync", "gym-sync"]
    by_peer = {m.peer: m for m in result.measurements}
    assert [m.peer for m in result.measurements] == ["rlpool-sync", "gym-sync"]
    assert by_peer["rlpool-sync"].round_rates == [30.0, 10.0, 20.0]
    assert by_peer["rlpool-sync"].steps_per_sec == 20.0 and by_peer["gym-sync"].steps_per_sec == 3.0
    assert by_peer["gym-sync"].steps == 90 and by_peer["gym-sync"].calls == 30 and by_peer["gym-sync"].seconds == 30.0


def test_bench_rounds_on_the_command_line(tmp_path):
    argv = ["bench", "CartPole-v1", "--num-envs", "2", "--steps", "100", "--warmup", "5", "--rounds", "2"]
    argv += ["--peers", "rlpool-sync,rlpool-async", "--out", str(tmp_path), "--no-plot", "--no-progress"]
    assert main(argv) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    assert report["config"]["rounds"] == 2
    for m in report["measurements"]:
        assert len(m["round_rates"]) == 2 and m["steps"] >= 200
        assert m["steps_per_sec"] == pytest.approx(sum(m["round_rates"]) / 2)
