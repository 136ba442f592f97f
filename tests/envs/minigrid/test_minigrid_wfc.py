"""MiniGrid-WFC-* against minigrid 3.2.0's WFCEnv, both given the same pattern images, drawn here.

No minigrid release ships the preset images (minigrid/envs/wfc/patterns/), so this file draws two small ones
(a maze and scattered obstacles) and hands each, with the same WFCConfig parameters, to minigrid's WFCEnv and to
rlpool (``pattern_path``). Generation: where minigrid's heuristics draw nothing (lexical choices) the levels are
the same wall for wall; elsewhere chi-square tests over resets (agent x, y and direction, goal x and y, the
number of walls, and each cell's wall frequency, Bonferroni over the cells) against minigrid's, and a
different generator is told apart. Stepping and frames: minigrid's start states copied into rlpool, the same
actions, the same observations, rewards, flags and frames. Without ``pattern_path`` (the ids' defaults): a
stand-in for the installed minigrid's patterns folder holding the drawn maze as ``SimpleMaze.png`` (rlpool reads
that folder, and it is minigrid's ``PATTERN_PATH``) against minigrid's own MazeSimple preset on that file, through
``rlpool.make`` and ``rlpool.compat.envpool.make_gymnasium``; and without any image, the error of every make.

minigrid's WFC recomputes its pattern adjacency table (deterministic, and most of its reset time) on every
reset; the tests cache that one function's result. Each case samples 300 levels of 9 x 9 (100-200 for the
slower width-3 cases; 500 in the full run); ``RLPOOL_FULL_REFERENCE=1`` (CI) adds the other heuristics and
options. (minigrid's generator takes about 0.1 s a level, 1 s at 11 x 11 and width 3: larger samples than
these cost CI tens of minutes.)
"""

from __future__ import annotations

import collections
import dataclasses
import importlib.metadata
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from minigrid_reference import chi_square_p, policy
from render_reference import assert_frames_equal
from scipy import stats

import rlpool
import rlpool.compat.envpool as compat
from rlpool.envs.minigrid import decode_mission, wfc
from rlpool.envs.minigrid.state import MinigridState, from_minigrid, unpack

imageio = pytest.importorskip("imageio.v2")
pytest.importorskip("networkx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import minigrid.envs.wfc.wfclogic.control as wfc_control
    from minigrid.envs.wfc import WFCConfig, WFCEnv
    from minigrid.envs.wfc.config import PATTERN_PATH, WFC_PRESETS

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
N = 500 if FULL else 300
SIZE = 9
TASK = "MiniGrid-WFC-MazeSimple-v0"  # any of the six: the image and parameters are given

# One-pixel corridors between one-pixel walls; and open ground with a few small obstacles.
MAZE = ["#########",
        "#...#...#",
        "#.#.#.#.#",
        "#.#...#.#",
        "#.#####.#",
        "#.......#",
        "#########"]
# A ring in a ring: with periodic output and patterns of width 3 its levels often contradict themselves (minigrid
# retries, or backtracks), and with lexical choices on 9 x 9 they always do.
RINGS = ["#######",
         "#.....#",
         "#.###.#",
         "#.#.#.#",
         "#.###.#",
         "#.....#",
         "#######"]
OBSTACLES = ["..........",
             ".##.......",
             ".#........",
             "........#.",
             "..........",
             "......#...",
             "......#...",
             "...#......",
             "..........",
             ".........."]


def draw(rows: list[str], path: Path) -> Path:
    """A PNG of ``rows``: '#' black (a wall), '.' white."""
    wall = np.array([[c == "#" for c in r] for r in rows])
    imageio.imwrite(path, np.where(wall[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2))
    return path


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("wfc_patterns")
    return {"maze": draw(MAZE, folder / "maze.png"), "obstacles": draw(OBSTACLES, folder / "obstacles.png"),
            "rings": draw(RINGS, folder / "rings.png")}


@pytest.fixture(scope="module", autouse=True)
def cached_adjacency() -> Iterator[None]:
    """minigrid's adjacency_extraction, computed once per pattern catalog instead of on every reset."""
    original = wfc_control.adjacency_extraction
    cache: dict[Any, Any] = {}

    def cached(grid, catalog, offsets, size):
        key = (tuple(size), tuple(offsets), tuple((k, v.tobytes()) for k, v in sorted(catalog.items())))
        if key not in cache:
            cache[key] = original(grid, catalog, offsets, size)
        return cache[key]

    wfc_control.adjacency_extraction = cached
    yield
    wfc_control.adjacency_extraction = original


def minigrid_wfc(path: Path, size: int = SIZE, render_mode: str | None = None, **params: Any) -> WFCEnv:
    """minigrid's WFCEnv on the image ``path`` with WFCConfig ``params``."""
    return WFCEnv(wfc_config=WFCConfig(pattern_path=path, **params), size=size, render_mode=render_mode)


def rlpool_starts(path: Path, n: int, seed: int, size: int = SIZE, **params: Any) -> list[MinigridState]:
    pool = rlpool.make(TASK, num_envs=n, seed=seed, size=size, pattern_path=str(path), **params)
    try:
        pool.reset()
        return [unpack(s) for s in pool.call("get_state")]
    finally:
        pool.close()


_MINIGRID_STARTS: dict[Any, list[MinigridState]] = {}


def minigrid_starts(path: Path, n: int, seed: int, size: int = SIZE, **params: Any) -> list[MinigridState]:
    """``n`` start states of minigrid's WFCEnv (seeds seed .. seed + n - 1), kept for the module."""
    key = (str(path), n, seed, size, tuple(sorted(params.items())))
    if key not in _MINIGRID_STARTS:
        genv = minigrid_wfc(path, size, **params)
        out = []
        for i in range(n):
            genv.reset(seed=seed + i)
            out.append(from_minigrid(genv))
        _MINIGRID_STARTS[key] = out
    return _MINIGRID_STARTS[key]


def walls(s: MinigridState) -> np.ndarray:
    return np.array([[c[0] == 2 for c in row] for row in s.cells])


def goal(s: MinigridState) -> tuple[int, int]:
    return next((x, y) for y, row in enumerate(s.cells) for x, c in enumerate(row) if c[0] == 8)


def pvalues(ours: list[MinigridState], theirs: list[MinigridState]) -> dict[str, float]:
    """Chi-square p-values of rlpool's starts against minigrid's, per feature.

    ``layout``: the walls as a whole (levels rarer than 10 pooled, so this tests only the levels that recur).
    ``cells``: the smallest of the per-cell 2 x 2 tests (wall or not, rlpool or minigrid), times the number of
    cells tested (Bonferroni: valid however the cells depend on each other).
    """
    def feats(states: list[MinigridState]) -> dict[str, list]:
        f: dict[str, list] = collections.defaultdict(list)
        for s in states:
            f["agent_x"].append(s.agent_pos[0])
            f["agent_y"].append(s.agent_pos[1])
            f["agent_dir"].append(s.agent_dir)
            gx, gy = goal(s)
            f["goal_x"].append(gx)
            f["goal_y"].append(gy)
            f["walls"].append(int(walls(s).sum()))
            f["layout"].append(walls(s).tobytes())  # the whole level, where few recur (the rings' shifts)
            f["mission"].append(s.mission)
        return f

    fa, fb = feats(ours), feats(theirs)
    out = {k: chi_square_p(fa[k], fb[k]) for k in fa}
    wa = np.array([walls(s) for s in ours]).sum(axis=0)
    wb = np.array([walls(s) for s in theirs]).sum(axis=0)
    tested, smallest = 0, 1.0
    for a, b in zip(wa.ravel(), wb.ravel(), strict=True):
        table = np.array([[a, len(ours) - a], [b, len(theirs) - b]])
        if table.sum(axis=0).min() == 0:
            continue  # a cell always (or never) a wall on both sides: nothing to test
        tested += 1
        smallest = min(smallest, float(stats.chi2_contingency(table).pvalue))
    out["cells"] = min(1.0, smallest * max(tested, 1))
    return out


RINGS_3 = {"pattern_width": 3, "output_periodic": True, "input_periodic": True}
CASES = [("maze", SIZE, {"pattern_width": 2}), ("obstacles", SIZE, {"pattern_width": 2})]
if FULL:
    CASES += [("obstacles", SIZE, {"pattern_width": 3, "output_periodic": True, "input_periodic": True}),
              ("rings", 11, {**RINGS_3, "backtracking": True})]
    CASES += [("obstacles", SIZE, {"loc_heuristic": h}) for h in ("spiral", "anti-entropy", "random", "simple")]
    CASES += [("obstacles", SIZE, {"choice_heuristic": "random"}), ("rings", 11, RINGS_3),
              ("maze", SIZE, {"pattern_width": 3, "backtracking": True}),
              ("obstacles", SIZE, {"rotations": 2, "output_periodic": True})]


@pytest.mark.parametrize(("image", "size", "params"), CASES)
def test_generation_matches_minigrid(images, image, size, params):
    # minigrid's WFC is slow on width-3 patterns (the rings also retry): fewer levels of those.
    n = N if params.get("pattern_width", 2) == 2 else {"rings": 100}.get(image, 200)
    theirs = minigrid_starts(images[image], n, seed=0, size=size, **params)
    ours = rlpool_starts(images[image], n, seed=1, size=size, **params)
    p = pvalues(ours, theirs)
    bad = {k: v for k, v in p.items() if v < 1e-4}
    assert not bad, (bad, p)
    # Levels vary (the test would say nothing of a constant level; the rings' are shifts of a few).
    assert len({walls(s).tobytes() for s in theirs}) > (3 if image == "rings" else 10)


def test_a_different_generator_is_told_apart(images):
    """The generation test can fail: uniform pattern choices instead of minigrid's weighted ones."""
    theirs = minigrid_starts(images["obstacles"], N, seed=0, pattern_width=2)
    ours = rlpool_starts(images["obstacles"], N, seed=1, pattern_width=2, choice_heuristic="random")
    p = pvalues(ours, theirs)
    assert p["cells"] < 1e-4 and p["walls"] < 1e-4, p


DETERMINISTIC = [
    ("maze", {"pattern_width": 2}),
    ("obstacles", {"pattern_width": 2, "loc_heuristic": "simple"}),
    ("maze", {"pattern_width": 2, "rotations": 1}),
    ("maze", {"pattern_width": 3, "rotations": 3, "output_periodic": True}),
    # Every step contradicts somewhere without backtracking; with it, minigrid's one-level retries.
    ("rings", {**RINGS_3, "backtracking": True}),
    ("rings", {**RINGS_3, "backtracking": True, "loc_heuristic": "spiral"}),
]


@pytest.mark.parametrize(("image", "params"), DETERMINISTIC)
def test_same_walls_as_minigrid_where_nothing_is_drawn(images, image, params):
    """Lexical choices (and a lexical or "simple" location) draw nothing: the walls are minigrid's exactly.

    This pins what the distributions cannot: minigrid's pattern order (its hashes), the transforms, the
    adjacency, the propagation and the orientation of the level.
    """
    params = {"loc_heuristic": "lexical", "choice_heuristic": "lexical", **params}
    genv = minigrid_wfc(images[image], size=11, **params)
    genv.reset(seed=0)
    theirs = from_minigrid(genv)
    ours = rlpool_starts(images[image], 3, seed=5, size=11, **params)
    for s in ours:
        np.testing.assert_array_equal(walls(s), walls(theirs))
    assert 0 < walls(theirs)[1:-1, 1:-1].sum() < 81  # neither empty nor all walls


def test_a_level_that_cannot_be_made_is_an_error(images):
    """Deterministic choices that always contradict: minigrid's attempts all fail, and rlpool's reset says so."""
    params = {"loc_heuristic": "lexical", "choice_heuristic": "lexical", **RINGS_3}
    pixels = imageio.imread(images["rings"])[:, :, :3]
    pattern, _ = wfc_control.execute_wfc(pixels, output_size=(9, 9), attempt_limit=2,
                                         np_random=np.random.default_rng(0), **params)
    assert pattern is None
    pool = rlpool.make(TASK, size=11, pattern_path=str(images["rings"]), **params)
    with pytest.raises(RuntimeError, match="could not generate a valid pattern within 1000 attempts"):
        pool.reset()
    pool.close()


def test_without_ensure_connected_the_walls_are_the_solution(images):
    """ensure_connected=False keeps every free cell (walls exactly minigrid's where nothing is drawn)."""
    params = {"loc_heuristic": "lexical", "choice_heuristic": "lexical", "pattern_width": 2}
    genv = WFCEnv(wfc_config=WFCConfig(pattern_path=images["obstacles"], **params), size=11, ensure_connected=False)
    genv.reset(seed=0)
    ours = rlpool_starts(images["obstacles"], 2, seed=0, size=11, ensure_connected=False, **params)
    for s in ours:
        np.testing.assert_array_equal(walls(s), walls(from_minigrid(genv)))


def goal_actions(genv) -> list[int]:
    """A shortest action sequence (left, right, forward) from the agent to the goal, by breadth-first search."""
    start = (*map(int, genv.agent_pos), int(genv.agent_dir))
    prev: dict[tuple[int, int, int], tuple[tuple[int, int, int], int] | None] = {start: None}
    todo = collections.deque([start])
    vec = ((1, 0), (0, 1), (-1, 0), (0, -1))
    while todo:
        x, y, d = state = todo.popleft()
        cell = genv.grid.get(x, y)
        if cell is not None and cell.type == "goal":
            path = []
            while prev[state] is not None:
                state, action = prev[state]
                path.append(action)
            return path[::-1]
        fx, fy = x + vec[d][0], y + vec[d][1]
        front = genv.grid.get(fx, fy)
        for action, nxt in ((0, (x, y, (d - 1) % 4)), (1, (x, y, (d + 1) % 4)), (2, (fx, fy, d))):
            if action == 2 and front is not None and not front.can_overlap():
                continue
            if nxt not in prev:
                prev[nxt] = (state, action)
                todo.append(nxt)
    return []


def same_episodes(genv, pool, episodes: int, seed: int, envpool_flags: bool = False) -> collections.Counter:
    """From minigrid's start states (seeds ``seed`` ..), the same actions in ``genv`` and env 0 of ``pool``.

    Every step: the same observations, rewards, flags and whole state. Half the episodes walk to the goal
    with random detours; the others are random (and time out). ``envpool_flags``: EnvPool's gymnasium flags
    (``terminated`` is ``done and not truncated``), as ``rlpool.compat.envpool`` gives them.
    """
    rng = np.random.default_rng(seed)
    totals: collections.Counter = collections.Counter()
    for episode in range(episodes):
        genv.reset(seed=seed + episode)
        pool.reset()
        pool.set_state(0, from_minigrid(genv).pack())
        walk = episode % 2 == 0
        plan = goal_actions(genv) if walk else []
        while True:
            detour = not (plan and rng.random() < 0.85)
            action = policy(genv, rng) if detour else plan.pop(0)
            gobs, greward, gterm, gtrunc, _ = genv.step(action)
            if walk and detour:
                plan = goal_actions(genv)
            obs, reward, term, trunc, _ = pool.step(np.array([action]))
            where = f"episode {episode} step {genv.step_count} action {action}"
            np.testing.assert_array_equal(obs["image"][0], gobs["image"], err_msg=where)
            assert obs["direction"][0] == gobs["direction"], where
            assert decode_mission(obs["mission"][0]) == gobs["mission"], where
            assert reward[0] == np.asarray(greward, reward.dtype), (where, reward[0], greward)
            expected = (gterm and not gtrunc, gtrunc) if envpool_flags else (gterm, gtrunc)
            assert (bool(term[0]), bool(trunc[0])) == expected, where
            assert unpack(pool.get_state(0)) == from_minigrid(genv), where
            totals["steps"] += 1
            if gterm or gtrunc:
                totals["rewarded" if greward > 0 else "timed out"] += 1
                break
    return totals


@pytest.mark.parametrize("image", ["maze", "obstacles"])
def test_same_episodes_as_minigrid(images, image):
    """From minigrid's start states, the same actions: the same observations, rewards, flags and states."""
    genv = minigrid_wfc(images[image], pattern_width=2)
    pool = rlpool.make(TASK, num_envs=1, autoreset_mode="Disabled", max_episode_steps=1 << 30, size=SIZE,
                       pattern_path=str(images[image]), pattern_width=2)
    try:
        totals = same_episodes(genv, pool, 12 if FULL else 6, seed=100)
    finally:
        pool.close()
    assert totals["rewarded"] >= 1 and totals["timed out"] >= 1, totals


def test_frames_equal_minigrid(images):
    genv = minigrid_wfc(images["maze"], render_mode="rgb_array", pattern_width=2)
    pool = rlpool.make(TASK, num_envs=1, render_mode="rgb_array", autoreset_mode="Disabled", size=SIZE,
                       pattern_path=str(images["maze"]), pattern_width=2)
    rng = np.random.default_rng(4)
    try:
        assert pool.metadata["render_fps"] == genv.metadata["render_fps"]
        genv.reset(seed=7)
        pool.reset()
        pool.set_state(0, from_minigrid(genv).pack())
        assert pool.render().shape == (1, SIZE * 32, SIZE * 32, 3)
        for step in range(15):
            assert_frames_equal(pool.render()[0], genv.render(), f"step {step}")
            action = policy(genv, rng)
            genv.step(action)
            pool.step(np.array([action]))
    finally:
        pool.close()


def test_the_six_ids_have_minigrids_presets():
    """Each id's defaults are its minigrid preset's WFCConfig (the image's file name included)."""
    ids = [t for t in rlpool.list_all_envs() if t.startswith("MiniGrid-WFC-")]
    assert sorted(ids) == sorted(f"MiniGrid-WFC-{name}-v0" for name in WFC_PRESETS)
    for name, config in WFC_PRESETS.items():
        spec = rlpool.make_spec(f"MiniGrid-WFC-{name}-v0")
        for field in ("tile_size", "pattern_width", "rotations", "output_periodic", "input_periodic",
                      "loc_heuristic", "choice_heuristic", "backtracking"):
            assert spec.config[field] == getattr(config, field), (name, field)
        assert wfc.PRESETS[name].file == Path(config.pattern_path).name
        assert spec.config["size"] == 25 and spec.config["max_episode_steps"] == 500
        assert spec.config["ensure_connected"] is True
        space = spec.observation_space
        assert space["image"].shape == (7, 7, 3) and space["mission"].shape == (96,)
        assert spec.action_space.n == 7


def test_no_image_says_why_and_how(monkeypatch):
    monkeypatch.delenv(wfc.PATTERNS_ENV, raising=False)
    if any((d / "SimpleMaze.png").is_file() for d in wfc.search_dirs()):
        pytest.skip("this minigrid ships its pattern images")
    rlpool.make_spec(TASK)  # the spec (spaces, options) needs no image
    compat.make_spec(TASK)
    package = f"installed here: minigrid {importlib.metadata.version('minigrid')}"
    makes = (rlpool.make, rlpool.make_gymnasium, rlpool.make_dm, compat.make_gymnasium, compat.make_dm)
    for make in makes:
        with pytest.raises(ValueError) as info:
            make(TASK, num_envs=2)
        text = str(info.value)
        for words in ("SimpleMaze.png", "no minigrid release ships", package, "pattern_path", wfc.PATTERNS_ENV,
                      str(wfc.minigrid_patterns_dir())):
            assert words in text, (make, words, text)


def test_the_folder_of_the_env_var_is_read(images, tmp_path, monkeypatch):
    """$RLPOOL_MINIGRID_WFC_PATTERNS: the preset's file by minigrid's name; the same levels as pattern_path."""
    (tmp_path / "SimpleMaze.png").write_bytes(images["maze"].read_bytes())
    monkeypatch.setenv(wfc.PATTERNS_ENV, str(tmp_path))
    by_folder = rlpool.make(TASK, num_envs=4, seed=2, size=SIZE)
    by_folder.reset()
    by_path = rlpool.make(TASK, num_envs=4, seed=2, size=SIZE, pattern_path=str(images["maze"]))
    by_path.reset()
    try:
        assert by_folder.call("get_state") == by_path.call("get_state")
    finally:
        by_folder.close()
        by_path.close()


@pytest.fixture
def minigrid_folder(images, tmp_path, monkeypatch) -> Path:
    """The installed minigrid's patterns folder as a release that shipped it would have it: the maze as MazeSimple's.

    ``$RLPOOL_MINIGRID_WFC_PATTERNS`` unset, so the ids find their image by default where minigrid's presets do.
    """
    monkeypatch.delenv(wfc.PATTERNS_ENV, raising=False)
    (tmp_path / wfc.PRESETS["MazeSimple"].file).write_bytes(images["maze"].read_bytes())
    monkeypatch.setattr(wfc, "minigrid_patterns_dir", lambda: tmp_path)
    return tmp_path


def minigrid_preset(name: str, folder: Path, render_mode: str | None = None, **params: Any) -> WFCEnv:
    """minigrid's WFCEnv with its preset ``name`` (its defaults: size 25), the preset's image read from ``folder``."""
    preset = WFC_PRESETS[name]
    config = dataclasses.replace(preset, pattern_path=folder / Path(preset.pattern_path).name, **params)
    return WFCEnv(wfc_config=config, render_mode=render_mode)


def test_the_default_folder_is_minigrids():
    """Without pattern_path or the env var, the ids read the folder minigrid's presets read (found unimported)."""
    assert wfc.minigrid_patterns_dir().resolve() == Path(PATTERN_PATH).resolve()
    assert wfc.search_dirs()[-1] == wfc.minigrid_patterns_dir()


LEXICAL = {"loc_heuristic": "lexical", "choice_heuristic": "lexical"}


def test_without_pattern_path_the_preset_is_minigrids(minigrid_folder):
    """No options but the heuristics (drawing nothing): minigrid's MazeSimple level on the same file, wall for wall."""
    genv = minigrid_preset("MazeSimple", minigrid_folder, **LEXICAL)
    genv.reset(seed=0)
    theirs = walls(from_minigrid(genv))
    assert theirs.shape == (25, 25) and 0 < theirs[1:-1, 1:-1].sum() < 23 * 23
    for make in (rlpool.make, compat.make_gymnasium):
        pool = make(TASK, num_envs=2, seed=4, **LEXICAL)
        try:
            pool.reset()
            for i in range(2):
                np.testing.assert_array_equal(walls(unpack(pool.get_state(i))), theirs)
        finally:
            pool.close()


def test_pattern_path_overrides_the_default(minigrid_folder, images):
    genv = minigrid_preset("MazeSimple", minigrid_folder, **LEXICAL)
    genv.reset(seed=0)
    maze = walls(from_minigrid(genv))
    genv = minigrid_wfc(images["obstacles"], size=25, **LEXICAL)
    genv.reset(seed=0)
    obstacles = walls(from_minigrid(genv))
    assert not np.array_equal(maze, obstacles)
    pool = rlpool.make(TASK, pattern_path=str(images["obstacles"]), **LEXICAL)
    try:
        pool.reset()
        np.testing.assert_array_equal(walls(unpack(pool.get_state(0))), obstacles)
    finally:
        pool.close()


@pytest.mark.parametrize("api", ["rlpool", "compat"])
def test_same_episodes_as_minigrids_preset_without_pattern_path(minigrid_folder, api):
    """The id with its defaults (no option at all) against minigrid's MazeSimple preset, step by step.

    ``compat``: ``rlpool.compat.envpool.make_gymnasium``, EnvPool's API (its flags, int32 direction).
    """
    genv = minigrid_preset("MazeSimple", minigrid_folder)
    if api == "rlpool":
        pool = rlpool.make_gymnasium(TASK, num_envs=1, autoreset_mode="Disabled")
    else:
        pool = compat.make_gymnasium(TASK, num_envs=1)
        assert pool.spec.config.max_episode_steps == genv.max_steps == 500
    try:
        totals = same_episodes(genv, pool, 4, seed=200, envpool_flags=api == "compat")
    finally:
        pool.close()
    assert totals["rewarded"] >= 1 and totals["timed out"] >= 1, totals


def test_bad_images_are_refused(tmp_path):
    missing = tmp_path / "nowhere.png"
    with pytest.raises(ValueError, match=f"pattern_path '{missing}' is not a file"):
        rlpool.make(TASK, pattern_path=str(missing))
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a png at all")
    with pytest.raises(ValueError, match=f"cannot read the pattern image '{junk}'"):
        rlpool.make(TASK, pattern_path=str(junk))
    # All walls: no level can have a free cell (minigrid fails there too); the reset says why.
    black = tmp_path / "black.png"
    imageio.imwrite(black, np.zeros((4, 4, 3), np.uint8))
    pool = rlpool.make(TASK, pattern_path=str(black))
    with pytest.raises(RuntimeError, match="no two adjacent free cells"):
        pool.reset()
    pool.close()


@pytest.mark.parametrize(("option", "value", "match"), [
    ("pattern_width", 0, "pattern_width"), ("rotations", 9, "rotations"), ("tile_size", 2, "tile_size"),
    ("loc_heuristic", "hilbert", "loc_heuristic"), ("choice_heuristic", "most", "choice_heuristic"),
    ("size", 2, "size"),
])
def test_bad_parameters_are_refused(images, option, value, match):
    with pytest.raises(ValueError, match=match):
        rlpool.make(TASK, pattern_path=str(images["maze"]), **{option: value})
