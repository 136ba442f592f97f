"""The benchmark table: each row's ratio is against the best rlpool mode of its task and num_envs."""

from rlpool.tools.bench import BenchResult, Measurement, format_table


def _m(peer: str, rate: float, num_envs: int = 4) -> Measurement:
    return Measurement("CartPole-v1", peer, num_envs, num_envs, int(rate), 1, 1.0, rate)


def test_every_row_is_compared_with_the_best_rlpool_mode() -> None:
    result = BenchResult([_m("rlpool-sync", 4000.0), _m("rlpool-async", 1000.0), _m("gym-sync", 100.0)])
    lines = {line.split()[2]: line for line in format_table(result).splitlines()[2:] if line}
    assert lines["rlpool-sync"].endswith("(best rlpool mode)")
    assert lines["rlpool-async"].endswith("x4.0 (rlpool-sync)")  # the slower mode reads as 4x slower, not x0.25
    assert lines["gym-sync"].endswith("x40.0 (rlpool-sync)")
    assert "x0." not in format_table(result)


def test_best_mode_is_per_num_envs_and_rows_without_rlpool_have_no_ratio() -> None:
    result = BenchResult([
        _m("rlpool-sync", 10.0, 1), _m("gym-sync", 5.0, 1),
        _m("rlpool-sync", 10.0, 16), _m("rlpool-async", 30.0, 16), _m("gym-sync", 3.0, 16),
        _m("gym-async", 7.0, 2),
    ])
    rows = [line.split() for line in format_table(result).splitlines()[2:] if line]
    ratio = {(int(r[1]), r[2]): " ".join(r[4:]) for r in rows}
    assert ratio[(1, "gym-sync")] == "x2.0 (rlpool-sync)"
    assert ratio[(16, "gym-sync")] == "x10.0 (rlpool-async)"
    assert ratio[(16, "rlpool-sync")] == "x3.0 (rlpool-async)"
    assert ratio[(2, "gym-async")] == ""


def test_envpool_rows_name_the_release(monkeypatch) -> None:
    import rlpool.tools.bench as bench

    monkeypatch.setattr(bench, "_version", lambda module: "1.2.7" if module == "envpool" else None)
    result = BenchResult([_m("rlpool-sync", 20.0), _m("envpool-sync", 10.0)])
    rows = [line.split() for line in format_table(result).splitlines()[2:] if line]
    assert [r[2:4] for r in rows] == [["rlpool-sync", "20"], ["envpool-sync", "1.2.7"]]


def test_progress_bar_without_tqdm(monkeypatch) -> None:
    """``rlpool bench`` runs without the bench extra's tqdm: no bar, no ImportError."""
    import sys

    import rlpool.tools.bench as bench

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    with bench._progress_bar(3, True) as bar:
        bar.set_description("x")
        bar.update(1)
    result = bench.run_benchmark(["CartPole-v1"], [1], peers=["rlpool-sync"], steps=50, warmup=1, progress=True)
    assert [m.peer for m in result.measurements] == ["rlpool-sync"]
