"""PacMan-v1 (src/rlpool/envs/jumanji/pac_man.cc) beside jumanji 1.1.2's PacMan, step by step, bit for bit.

Whole episodes from the same keys under a policy that eats pellets, flees nearby ghosts, hunts frightened ones
and now and then takes any action (a wall, the no-op); states a policy rarely reaches put in with
``set_state`` (the last pellet, the time limit, frightened ghosts eaten once and twice, ghosts steered by
their initial targets, ghosts boxed in by walls, the tunnel); a planted difference that the comparison
catches; and bad state blobs refused naming the field. The maze is jumanji's DEFAULT_MAZE, read from
``constants.py`` of an installed jumanji or of its pinned wheel (``rlpool.envs.jumanji.pac_man_data``): tested
without network (a stand-in wheel whose pins the test patches in, a fetch that cannot reach an index) and, in
the full lane, for real; bad maze files are refused naming what is wrong.
"""

from __future__ import annotations

import zipfile
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

from jumanji_reference import Mismatch, Reference, lockstep, prng_key, run_from_state  # noqa: E402
from lane import FULL, require  # noqa: E402
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256  # noqa: E402

import rlpool  # noqa: E402
from rlpool import pinned_wheel  # noqa: E402
from rlpool.envs.jumanji import pac_man_data, wheel_files  # noqa: E402

TASK = "PacMan-v1"
ROWS, COLS, PELLETS = 31, 28, 318
MOVES = {0: (-1, 0), 1: (0, -1), 2: (1, 0), 3: (0, 1)}
"""Player action -> (row, col) step (jumanji's utils.player_step)."""


def ref() -> Reference:
    """jumanji's PacMan-v1."""
    return Reference(TASK)


def first_move(grid: np.ndarray, start: tuple[int, int], targets: set[tuple[int, int]]) -> int | None:
    """The first action on a shortest walk from ``start`` (row, col) to the nearest target, None if none."""
    came: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in targets and here != start:
            step = came[here]
            while step is not None and step[0] != start:
                here = step[0]
                step = came[here]
            return None if step is None else step[1]
        for action, (dr, dc) in MOVES.items():
            there = ((here[0] + dr) % ROWS, (here[1] + dc) % COLS)
            if there not in came and grid[there]:
                came[there] = (here, action)
                queue.append(there)
    return None


def safest(me: tuple[int, int], ghosts: set[tuple[int, int]], legal: list[int], rng: np.random.Generator) -> int:
    """The legal move that ends farthest (Manhattan) from the nearest ghost, ties broken at random."""
    def safety(a: int) -> float:
        r, c = (me[0] + MOVES[a][0]) % ROWS, (me[1] + MOVES[a][1]) % COLS
        return min(abs(r - gr) + abs(c - gc) for gr, gc in ghosts) + rng.random()
    return max(legal, key=safety)


def hungry_policy(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Per env: 8% any action (0..4); else hunt ghosts while they are frightened, flee ghosts within 4 squares,
    or walk to the nearest pellet."""
    actions = []
    for i in range(len(obs["score"])):
        grid = obs["grid"][i]
        me = (int(obs["player_locations"]["x"][i]), int(obs["player_locations"]["y"][i]))
        ghosts = {(int(r), int(c)) for c, r in obs["ghost_locations"][i]}
        legal = [a for a in range(4) if obs["action_mask"][i][a]]
        if rng.random() < 0.08:
            actions.append(int(rng.integers(5)))
            continue
        action: int | None
        if obs["frightened_state_time"][i] > 2:
            action = first_move(grid, me, ghosts)
        elif min(abs(me[0] - r) + abs(me[1] - c) for r, c in ghosts) <= 4 and legal:
            action = safest(me, ghosts, legal, rng)
        else:
            pellets = {(int(r), int(c)) for c, r in obs["pellet_locations"][i] if (c, r) != (0, 0)}
            action = first_move(grid, me, pellets)
        actions.append(int(rng.integers(5)) if action is None else action)
    return np.asarray(actions, np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's PacMan ``State`` as the env's state bytes: the env's key, then pac_man.cc's layout."""
    i32 = "<i4"
    generator = ref().env.generator
    assert np.array_equal(np.asarray(state.grid), np.asarray(generator.numpy_maze))  # constants, not saved
    assert np.array_equal(np.asarray(state.initial_ghost_positions), np.asarray(generator.ghost_spawns))
    assert np.array_equal(np.asarray(state.scatter_targets), np.asarray(generator.scatter_targets))
    assert np.array_equal(np.asarray(state.ghost_init_targets), np.asarray(generator.init_targets))

    def ints(*values: Any) -> bytes:
        return b"".join(np.asarray(v, i32).reshape(-1).tobytes() for v in values)

    return b"".join([
        np.asarray(env_key, "<u4").tobytes(),
        ints(state.pellets, state.frightened_state_time, state.pellet_locations, state.power_up_locations,
             state.player_locations.x, state.player_locations.y, state.ghost_locations, state.old_ghost_locations,
             state.ghost_init_steps, state.ghost_actions, state.last_direction),
        np.asarray(state.dead, np.uint8).reshape(-1).tobytes(),
        ints(state.ghost_starts, state.step_count),
        np.asarray(state.ghost_eaten, np.uint8).tobytes(),
        ints(state.score),
        np.asarray(state.key, "<u4").tobytes(),
    ])


OFFSETS = {
    "pellets": 8, "frightened_state_time": 12, "pellet_locations": 16, "power_up_locations": 16 + 8 * PELLETS,
    "player_locations.x": 48 + 8 * PELLETS, "player_locations.y": 52 + 8 * PELLETS,
    "ghost_locations": 56 + 8 * PELLETS, "old_ghost_locations": 88 + 8 * PELLETS,
    "ghost_init_steps": 120 + 8 * PELLETS, "ghost_actions": 136 + 8 * PELLETS, "last_direction": 152 + 8 * PELLETS,
    "dead": 156 + 8 * PELLETS, "ghost_starts": 157 + 8 * PELLETS, "step_count": 173 + 8 * PELLETS,
    "ghost_eaten": 177 + 8 * PELLETS, "score": 181 + 8 * PELLETS, "key": 185 + 8 * PELLETS,
}
"""Where each field starts in the state bytes (the env's key first)."""


def start_state(seed: int = 3) -> Any:
    """jumanji's reset State from ``PRNGKey(seed)``."""
    return ref().reset(prng_key(seed))[0]


def with_fields(state: Any, **fields: Any) -> Any:
    """``state`` with fields replaced (``player`` = (row, col); arrays as int32/bool jax arrays)."""
    import jax.numpy as jnp
    from jumanji.environments.routing.pac_man.types import Position

    if "player" in fields:
        row, col = fields.pop("player")
        fields["player_locations"] = Position(x=jnp.int32(row), y=jnp.int32(col))
    for name, value in fields.items():
        if name != "player_locations":
            dtype = jnp.bool_ if name in ("ghost_eaten", "dead") else jnp.int32
            fields[name] = jnp.asarray(value, dtype)
    return state.replace(**fields)


def jumanji_actions(state: Any, actions: list[int]) -> tuple[list[int], list[float]]:
    """``actions`` cut after the step where jumanji's episode ends, and jumanji's rewards for them."""
    reference = ref()
    out, rewards = [], []
    for action in actions:
        out.append(action)
        state, ts = reference.step(state, np.asarray(action))
        rewards.append(float(ts.reward))
        if int(ts.step_type) == 2:
            break
    return out, rewards


def play(state: Any, actions: list[int]) -> list[float]:
    """run_from_state from jumanji's ``state`` (every step compared); jumanji's rewards on the way."""
    actions, rewards = jumanji_actions(state, actions)
    assert run_from_state(TASK, ref(), state, encode(state), actions) == len(actions)
    return rewards


def test_lockstep_whole_episodes() -> None:
    stats = lockstep(TASK, ref(), seed=0, num_envs=4, steps=250, policy=hungry_policy)
    assert stats.steps >= 900 and stats.episodes >= 4


def test_saved_state_is_jumanjis_state() -> None:
    """get_state after a reset is the env's key followed by jumanji's reset State, field by field."""
    reference = ref()
    pool = rlpool.make(TASK, num_envs=2, seed=7)
    try:
        pool.reset()
        for i in range(2):
            state, _ = reference.reset(prng_key(7 + i))
            assert pool.get_state(i) == encode(state, (0, 7 + i))
    finally:
        pool.close()


def test_last_pellet_ends_the_episode() -> None:
    """One pellet left, right of the player: eating it is a termination with its 10 points."""
    state = start_state()
    pellets = np.zeros((PELLETS, 2), np.int32)
    pellets[5] = (14, 23)  # (col, row), next to the player's (row 23, col 13)
    state = with_fields(state, pellet_locations=pellets, pellets=1, score=3170)
    assert play(state, [3, 0]) == [10.0]


def test_time_limit_is_a_termination() -> None:
    state = with_fields(start_state(11), step_count=997)
    assert len(play(state, [1, 1, 1, 1, 1])) == 3


def test_frightened_ghosts_are_eaten_once_for_points() -> None:
    """Frightened ghosts on and next to the player's path: 200 for one not eaten before, 0 for one eaten."""
    state = start_state()
    ghosts = np.array([[14, 23], [15, 23], [12, 23], [12, 20]], np.int32)  # (col, row)
    state = with_fields(state, frightened_state_time=5, ghost_locations=ghosts, old_ghost_locations=ghosts,
                        ghost_starts=[-3, -3, -3, -3], ghost_eaten=[True, False, True, True])
    rewards = play(state, [3, 3, 3, 1, 1, 1, 0, 2])
    assert rewards[:2] == [210.0, 10.0], rewards


def test_power_up_then_hunt() -> None:
    """The player one square from a power-up (60 points, 30 frightened steps), ghosts scattering around it."""
    state = start_state()
    ghosts = np.array([[5, 5], [6, 8], [1, 5], [6, 1]], np.int32)
    state = with_fields(state, player=(4, 6), ghost_locations=ghosts, old_ghost_locations=ghosts,
                        ghost_starts=[-1, -1, -1, -1], ghost_actions=[0, 1, 2, 3], last_direction=2)
    assert play(state, [0, 2, 2, 1, 3, 3, 2, 2, 4, 3, 3, 3, 0, 0])[0] == 60.0


def test_initial_targets_and_boxed_in_ghosts() -> None:
    """ghost_init_steps > 0 steers ghosts to their initial targets; a ghost in a wall whose only open
    neighbour is where it came from picks any direction (JAX's gather reads -1 and past the edge)."""
    state = start_state()
    ghosts = np.array([[5, 0], [5, 30], [13, 13], [0, 14]], np.int32)
    old = np.array([[5, 1], [5, 29], [13, 12], [1, 14]], np.int32)
    state = with_fields(state, ghost_locations=ghosts, old_ghost_locations=old, ghost_starts=[-1, -1, -1, -1],
                        ghost_init_steps=[6, 2, 4, 9], ghost_actions=[4, 4, 4, 0])
    assert len(play(state, [1] * 12 + [3] * 12)) >= 20


def test_a_planted_difference_is_caught() -> None:
    state = start_state()
    ghosts = np.array([[5, 5], [6, 8], [1, 5], [6, 1]], np.int32)
    state = with_fields(state, player=(5, 9), ghost_locations=ghosts, old_ghost_locations=ghosts,
                        ghost_starts=[-1, -1, -1, -1])
    actions, _ = jumanji_actions(state, [3, 3, 3, 3, 4, 3, 3, 3, 3, 4])
    assert len(actions) >= 5
    assert run_from_state(TASK, ref(), state, encode(state), actions) == len(actions)
    blob = bytearray(encode(state))
    at = OFFSETS["ghost_locations"] + 8 * 2  # ghost 2's column, one square along
    blob[at:at + 4] = np.int32(2).tobytes()
    with pytest.raises(Mismatch):
        run_from_state(TASK, ref(), state, bytes(blob), actions)


@pytest.mark.parametrize(("field", "value"), [
    ("pellets", 319), ("pellet_locations", 28), ("power_up_locations", -1), ("player_locations.x", 31),
    ("player_locations.y", 28), ("ghost_locations", 40), ("old_ghost_locations", -2), ("ghost_actions", 5),
    ("last_direction", -1), ("step_count", 1001), ("score", -1),
])
def test_bad_state_fields_are_refused(field: str, value: int) -> None:
    pool = rlpool.make(TASK, num_envs=1, seed=0)
    try:
        pool.reset()
        good = pool.get_state(0)
        blob = bytearray(good)
        at = OFFSETS[field]
        blob[at:at + 4] = np.int32(value).tobytes()
        with pytest.raises(ValueError, match=field):
            pool.set_state(0, bytes(blob))
        for flag in ("dead", "ghost_eaten"):
            blob = bytearray(good)
            blob[OFFSETS[flag]] = 2
            with pytest.raises(ValueError, match=flag):
                pool.set_state(0, bytes(blob))
        with pytest.raises(ValueError, match="key"):
            pool.set_state(0, good[:-1])
        assert pool.get_state(0) == good
    finally:
        pool.close()


# --- the maze: jumanji's DEFAULT_MAZE as a file --------------------------------------------------------------


def jumanji_maze() -> list[str]:
    """jumanji's DEFAULT_MAZE, imported from the installed jumanji."""
    from jumanji.environments.routing.pac_man.constants import DEFAULT_MAZE

    return list(DEFAULT_MAZE)


def test_the_task_uses_jumanjis_maze() -> None:
    path = Path(rlpool.make_spec(TASK).env_config["_maze_file"])
    assert path == pac_man_data.maze_path()
    assert path.read_text() == "".join(row + "\n" for row in jumanji_maze())


def test_a_bad_maze_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "maze.txt"
    monkeypatch.setattr(pac_man_data, "maze_file", lambda: path)
    maze = jumanji_maze()

    def refused(rows: list[str], message: str, end: str = "\n") -> None:
        path.write_text("\n".join(rows) + end)
        with pytest.raises(ValueError, match=message):
            rlpool.make(TASK, num_envs=1)

    refused(maze[:30], "has 30 rows")
    refused([*maze, maze[0]], "has 32 rows")
    refused(maze, "does not end its last line with a newline", end="")
    refused(maze[:4] + [maze[4][:27]] + maze[5:], "27 columns in row 4")
    refused(maze[:2] + [maze[2].replace("XXXX ", "XXXX#", 1)] + maze[3:], "character code 35 in row 2, column 6")
    refused(maze[:2] + [maze[2].replace("XXXX ", "XXXXX", 1)] + maze[3:], "has 317 open squares")
    refused(maze[:3] + [maze[3].replace("O", " ", 1)] + maze[4:], "has 3 power-ups")
    refused(maze[:13] + [maze[13].replace("G", " ")] + maze[14:], "has 3 ghost starts")
    refused(maze[:23] + [maze[23].replace("P", " ")] + maze[24:], "has 0 player starts")
    path.unlink()
    with pytest.raises(ValueError, match="could not be opened"):
        rlpool.make(TASK, num_envs=1)


@pytest.mark.parametrize(("source", "message"), [
    (b"MAZE = ['X']\n", "is not assigned at the top level"),
    (b"def f():\n    DEFAULT_MAZE = []\n", "is not assigned at the top level"),
    (b"DEFAULT_MAZE = ['X' * 28] * 31\n", "is no literal"),
    (b"DEFAULT_MAZE = ['X'] * \n", "is no Python source"),
    (b"DEFAULT_MAZE = [1, 2]\n", "is no list of strings"),
    (b"DEFAULT_MAZE = ['" + b"X" * 28 + b"']\n", "has 1 rows"),
    (b"DEFAULT_MAZE = ['" + b"X" * 28 + b"'] * 0 + [" + b"'" + b"X" * 27 + b"#'] * 31\n", "is no literal"),
])
def test_a_source_without_the_maze_is_refused(source: bytes, message: str) -> None:
    with pytest.raises(pac_man_data.PacManDataUnavailableError, match=message):
        pac_man_data.parse_maze(source, "constants.py")


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache, a pip that finds nothing and no installed jumanji to take the file from: the cache root."""
    monkeypatch.setattr(pac_man_data, "installed_file", lambda: None)
    return offline_cache(tmp_path, monkeypatch)


def test_an_unfetchable_maze_raises_a_clear_error(offline: Path) -> None:
    with pytest.raises(pac_man_data.PacManDataUnavailableError) as e:
        rlpool.make_spec(TASK)
    message = str(e.value)
    for part in ("jumanji==1.1.2", "DEFAULT_MAZE", "could not be fetched", "pip download", "pac_man/constants.py"):
        assert part in message, part
    assert not pac_man_data.cache_folder().exists() and left_beside(pac_man_data.cache_folder()) == []
    assert not pac_man_data.maze_path().exists()


def stand_in_wheel(folder: Path, rows: list[str]) -> Path:
    """A wheel in ``folder`` named as the pinned one whose constants.py assigns ``rows`` to DEFAULT_MAZE (after
    a line that fails if the file is run), with a licence."""
    source = "import jax.numpy as jnp\nraise RuntimeError('run')\nDEFAULT_MAZE = [\n" + "".join(
        f"    {row!r},\n" for row in rows) + "]\n"
    return make_wheel(folder, wheel_files.WHEEL, {pac_man_data.CONSTANTS: source, wheel_files.LICENSE: "licence"})


def test_a_wheel_in_the_cache_is_unpacked(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The maze comes from the wheel's constants.py, unrun: upside down there, upside down in the pool."""
    upside_down = jumanji_maze()[::-1]
    wheel = stand_in_wheel(offline, upside_down)
    monkeypatch.setattr(pac_man_data, "WHEEL_SHA256", sha256(wheel))
    with zipfile.ZipFile(wheel) as z:
        record = pinned_wheel.record_hashes(z, "jumanji-1.1.2.dist-info")
    monkeypatch.setattr(pac_man_data, "CONSTANTS_SHA256", record[pac_man_data.CONSTANTS])
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    path = Path(rlpool.make_spec(TASK).env_config["_maze_file"])
    assert path == pac_man_data.maze_path() and path.read_text().splitlines() == upside_down
    assert (pac_man_data.cache_folder() / "LICENSE").read_text() == "licence"
    pool = rlpool.make(TASK, num_envs=1, seed=0)
    try:
        obs, _ = pool.reset()
        grid = np.array([[square != "X" for square in row] for row in upside_down], np.int32)
        assert np.array_equal(obs["grid"][0], grid)
        assert (int(obs["player_locations"]["x"][0]), int(obs["player_locations"]["y"][0])) == (ROWS - 1 - 23, 13)
    finally:
        pool.close()
    path.write_text("damaged")  # rewritten by the next prepare
    assert pac_man_data.maze_file() == path and path.read_text().splitlines() == upside_down
    assert left_beside(pac_man_data.cache_folder()) == [path.name]


def test_a_constants_file_that_differs_from_its_pin_is_refused(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pac_man_data, "WHEEL_SHA256", sha256(stand_in_wheel(offline, jumanji_maze())))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    with pytest.raises(pac_man_data.PacManDataUnavailableError, match="differ from jumanji==1.1.2's"):
        pac_man_data.maze_file()
    assert not pac_man_data.cache_folder().exists() and left_beside(pac_man_data.cache_folder()) == []


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_the_pinned_wheel_is_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real fetch (network): constants.py unpacked into the cache is installed jumanji's, the maze its maze."""
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path / "cache"))
    installed = pac_man_data.installed_file()
    monkeypatch.setattr(pac_man_data, "installed_file", lambda: None)
    try:
        path = pac_man_data.maze_file()
    except pac_man_data.PacManDataUnavailableError as e:
        require(f"needs network access to fetch jumanji==1.1.2's wheel: {e}")
        raise
    fetched = pac_man_data.cache_folder() / "constants.py"
    assert installed is None or fetched.read_bytes() == installed.read_bytes()
    assert path.read_text().splitlines() == jumanji_maze()


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [1])
def test_lockstep_full(seed: int) -> None:
    stats = lockstep(TASK, ref(), seed=seed * 1000, num_envs=4, steps=600, policy=hungry_policy)
    assert stats.episodes >= 4


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", range(3))
def test_random_states_play_on(seed: int) -> None:
    """From states drawn at random (ghosts and the player on any open square, timers, eaten pellets and
    power-ups, frightened or not), random actions until the episode ends or 150 steps."""
    rng = np.random.default_rng(seed)
    state = start_state(seed)
    generator = ref().env.generator
    open_squares = np.argwhere(np.asarray(generator.numpy_maze) == 1)  # (row, col)
    picks = open_squares[rng.choice(len(open_squares), 9, replace=False)]
    ghosts = picks[:4, ::-1]
    old = picks[4:8, ::-1]
    pellets = np.asarray(generator.pellet_spaces).copy()
    gone = rng.random(PELLETS) < rng.random()
    pellets[gone] = 0
    power_ups = np.asarray(generator.powerup_spaces).copy()
    power_ups[rng.random(4) < 0.5] = 0
    state = with_fields(
        state, player=tuple(picks[8]), ghost_locations=ghosts, old_ghost_locations=old, pellet_locations=pellets,
        pellets=PELLETS - int(gone.sum()), power_up_locations=power_ups,
        frightened_state_time=int(rng.integers(-50, 31)), ghost_starts=rng.integers(-5, 4, 4),
        ghost_init_steps=rng.integers(-3, 4, 4), ghost_actions=rng.integers(0, 5, 4),
        last_direction=int(rng.integers(5)), ghost_eaten=rng.random(4) < 0.5, score=int(rng.integers(0, 2000)),
        step_count=int(rng.integers(0, 900)))
    actions = [int(a) for a in rng.integers(0, 5, 150)]
    assert len(play(state, actions)) >= 1
