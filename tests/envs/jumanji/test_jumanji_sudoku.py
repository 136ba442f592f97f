"""Sudoku-v0 and Sudoku-very-easy-v0 beside jumanji 1.1.2's Sudoku, bit for bit; the puzzle databases' fetch.

The default lane steps a few envs of each task over whole episodes (mostly legal digits, sometimes any, which
ends an episode), plays a puzzle to its solution (the reward a random policy rarely earns) from a state built
from jumanji's, and checks that a state with one field changed makes the comparison fail. The databases are
jumanji's data files: taken from an installed jumanji, else fetched from its pinned wheel
(``rlpool.envs.jumanji.sudoku_data``); the fetch is tested without network (a stand-in wheel whose pins the
test patches in) and, in the full lane, for real. The full lane also adds seeds, steps and solved puzzles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL, require  # noqa: E402
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256  # noqa: E402

import rlpool  # noqa: E402
from rlpool import pinned_wheel  # noqa: E402
from rlpool.envs.jumanji import sudoku_data  # noqa: E402

TASKS = ["Sudoku-v0", "Sudoku-very-easy-v0"]


def blob_of(state: Any, env_key: tuple[int, int] = (0, 7)) -> bytes:
    """jumanji's Sudoku ``State`` as the env's state bytes: the env's key, then the State's fields."""
    return jr.state_blob(env_key, (state.board, "<i4"), (state.action_mask, "u1"), (state.key, "key"))


# Mostly a legal digit; one time in 15 any digit on any square (mostly illegal: the episode ends).
sometimes_any_digit = jr.sometimes_any(1 / 15)


def solve(board: np.ndarray) -> np.ndarray | None:
    """A solution of ``board`` (-1 empty, 0..8 digits), by backtracking on the square with the fewest digits left."""
    board = board.copy()

    def options(r: int, c: int) -> list[int]:
        box = board[r // 3 * 3:r // 3 * 3 + 3, c // 3 * 3:c // 3 * 3 + 3]
        used = set(board[r]) | set(board[:, c]) | set(box.ravel())
        return [d for d in range(9) if d not in used]

    def search() -> bool:
        empty = [(r, c) for r in range(9) for c in range(9) if board[r, c] < 0]
        if not empty:
            return True
        r, c = min(empty, key=lambda rc: len(options(*rc)))
        for d in options(r, c):
            board[r, c] = d
            if search():
                return True
        board[r, c] = -1
        return False

    return board if search() else None


def solving_actions(state: Any, rng: np.random.Generator) -> list[list[int]]:
    """The empty squares of ``state`` filled with the solution's digits, in a random order."""
    board = np.asarray(state.board)
    solution = solve(board)
    assert solution is not None
    actions = [[r, c, int(solution[r, c])] for r, c in np.argwhere(board < 0).tolist()]
    rng.shuffle(actions)
    return actions


@pytest.mark.parametrize("task_id", TASKS)
def test_episodes_match_jumanji(task_id: str) -> None:
    stats = jr.lockstep(task_id, jr.Reference(task_id), seed=3, num_envs=3, steps=100, policy=sometimes_any_digit)
    assert stats.episodes >= 5 and stats.truncations == 0


@pytest.mark.parametrize("task_id", TASKS)
def test_solving_a_puzzle_matches_jumanji(task_id: str) -> None:
    import jax

    ref = jr.Reference(task_id)
    state, _ = ref.reset(jax.random.PRNGKey(21))
    actions = solving_actions(state, np.random.default_rng(0))
    assert jr.run_from_state(task_id, ref, state, blob_of(state), actions) == len(actions)
    for action in actions:  # the last step solves the puzzle: reward 1
        state, ts = ref.step(state, np.asarray(action))
    assert float(ts.reward) == 1.0 and int(ts.step_type) == 2


def test_a_planted_difference_is_caught() -> None:
    import jax

    task_id = "Sudoku-very-easy-v0"
    ref = jr.Reference(task_id)
    state, _ = ref.reset(jax.random.PRNGKey(4))
    actions = solving_actions(state, np.random.default_rng(1))
    blob = blob_of(state)
    r, c, d = actions[0]
    illegal = jr.patched(blob, 8 + 81 * 4 + (r * 9 + c) * 9 + d, b"\0")  # the first digit illegal in our copy: the
    jr.check_caught(task_id, ref, state, illegal, actions, "terminated")   # episode ends there
    filled = int(np.flatnonzero(np.asarray(state.board).ravel() >= 0)[0])
    other = jr.patched(blob, 8 + 4 * filled, np.int32((int(state.board.ravel()[filled]) + 1) % 9).tobytes())
    jr.check_caught(task_id, ref, state, other, actions, "board")


@pytest.mark.parametrize(("offset", "value", "message"), [
    (8 + 4 * 40, 9, "board square is 9"),
    (8 + 4 * 80, -2, "board square is -2"),
    (8 + 324 + 5, 2, "action_mask entry is 2"),
])
def test_bad_states_are_refused(offset: int, value: int, message: str) -> None:
    good = jr.reset_state("Sudoku-v0")
    data = bytes([value]) if offset >= 8 + 324 else np.int32(value).tobytes()
    jr.check_refused_blobs("Sudoku-v0", good, {message: jr.patched(good, offset, data),
                                               "ends before its key": good[:-1]})


def test_the_tasks_use_jumanjis_databases() -> None:
    assert rlpool.make_spec("Sudoku-v0").env_config["_database_file"].endswith("10000_mixed_puzzles.npy")
    assert rlpool.make_spec("Sudoku-very-easy-v0").env_config["_database_file"].endswith("1000_very_easy_puzzles.npy")
    with pytest.raises(ValueError, match="sudoku_database"):
        rlpool.make("Sudoku-v0", num_envs=1, sudoku_database="hard")


def test_a_bad_database_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "puzzles.npy"
    monkeypatch.setattr(sudoku_data, "database_file", lambda name: path)
    np.save(path, np.zeros((3, 9, 8), np.int8))
    with pytest.raises(ValueError, match=r"shape \(3, 9, 8\)"):
        rlpool.make("Sudoku-v0", num_envs=1)
    np.save(path, np.full((3, 9, 9), 10, np.int8))
    with pytest.raises(ValueError, match="holds the value 10"):
        rlpool.make("Sudoku-v0", num_envs=1)
    np.save(path, np.zeros((3, 9, 9), np.int32))
    with pytest.raises(ValueError, match="int8"):
        rlpool.make("Sudoku-v0", num_envs=1)
    path.write_bytes(b"not numpy")
    with pytest.raises(ValueError, match="is not a .npy file"):
        rlpool.make("Sudoku-v0", num_envs=1)


# --- the databases' fetch, without network ----------------------------------------------------------------


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache, a pip that finds nothing and no installed jumanji to take the files from: the cache root."""
    monkeypatch.setattr(sudoku_data, "installed_file", lambda name: None)
    return offline_cache(tmp_path, monkeypatch)


def test_unfetchable_databases_raise_a_clear_error(offline: Path) -> None:
    with pytest.raises(sudoku_data.SudokuDataUnavailableError) as e:
        rlpool.make_spec("Sudoku-very-easy-v0")
    message = str(e.value)
    for part in ("jumanji==1.1.2", "could not be fetched", "pip download", "sudoku/data"):
        assert part in message, part
    assert not sudoku_data.cache_folder().exists() and left_beside(sudoku_data.cache_folder()) == []


def stand_in_wheel(folder: Path, work: Path) -> tuple[Path, dict[str, str]]:
    """A wheel in ``folder`` named as the pinned one, with small stand-ins of the two databases (made in
    ``work``) and a licence; and the stand-ins' sha256."""
    files: dict[str, str | bytes] = {sudoku_data.LICENSE: "licence"}
    pins = {}
    work.mkdir(exist_ok=True)
    for k, name in enumerate(sudoku_data.FILES):
        path = work / name
        np.save(path, np.full((2 + k, 9, 9), k, np.int8))
        files[sudoku_data.DATA_FOLDER + name] = path.read_bytes()
        pins[name] = sha256(path)
    return make_wheel(folder, sudoku_data.WHEEL, files), pins


def test_a_wheel_in_the_cache_is_unpacked(offline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wheel, pins = stand_in_wheel(offline, tmp_path / "work")
    monkeypatch.setattr(sudoku_data, "WHEEL_SHA256", sha256(wheel))
    monkeypatch.setattr(sudoku_data, "FILES", pins)
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    path = Path(rlpool.make_spec("Sudoku-very-easy-v0").env_config["_database_file"])
    assert path == sudoku_data.cache_folder() / "1000_very_easy_puzzles.npy"
    assert np.load(path).shape == (3, 9, 9) and (path.parent / "LICENSE").read_text() == "licence"
    path.write_bytes(b"damaged")  # replaced by the next fetch
    assert sudoku_data.database_file("very-easy") == path and np.load(path).shape == (3, 9, 9)
    assert left_beside(sudoku_data.cache_folder()) == []


def test_databases_that_differ_from_their_pins_are_refused(offline: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sudoku_data, "WHEEL_SHA256", sha256(stand_in_wheel(offline, tmp_path / "work")[0]))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    with pytest.raises(sudoku_data.SudokuDataUnavailableError, match="differ from jumanji==1.1.2's"):
        sudoku_data.database_file("mixed")
    assert not sudoku_data.cache_folder().exists() and left_beside(sudoku_data.cache_folder()) == []


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_the_pinned_wheel_is_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real fetch (network): the files unpacked into the cache are installed jumanji's."""
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path / "cache"))
    installed = {name: sudoku_data.installed_file(sudoku_data.DATABASES[name]) for name in sudoku_data.DATABASES}
    monkeypatch.setattr(sudoku_data, "installed_file", lambda name: None)
    try:
        fetched = {name: sudoku_data.database_file(name) for name in sudoku_data.DATABASES}
    except sudoku_data.SudokuDataUnavailableError as e:
        require(f"needs network access to fetch jumanji==1.1.2's wheel: {e}")
        raise
    for name, path in fetched.items():
        assert path.parent == sudoku_data.cache_folder()
        assert installed[name] is None or path.read_bytes() == installed[name].read_bytes()


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("task_id", TASKS)
def test_full_episodes_match_jumanji(task_id: str) -> None:
    seed = 0
    stats = jr.lockstep(task_id, jr.Reference(task_id), seed=50 * seed, num_envs=8, steps=300,
                        policy=sometimes_any_digit)
    assert stats.episodes > 0


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("task_id", TASKS)
def test_full_solved_puzzles_match_jumanji(task_id: str) -> None:
    import jax

    ref = jr.Reference(task_id)
    rng = np.random.default_rng(3)
    for k in range(4):
        state, _ = ref.reset(jax.random.PRNGKey(500 + k))
        actions = solving_actions(state, rng)
        assert jr.run_from_state(task_id, ref, state, blob_of(state), actions) == len(actions)
