"""Pictures of seven Jumanji routing tasks (``render_mode="rgb_array"``), read back against their state.

Maze, Snake, Cleaner, Connector, RobotWarehouse, LevelBasedForaging and PacMan draw a documented picture of
their state in C++ (the "render" paragraph of each env's .cc file): jumanji's viewers' elements in their flat
colours on a grid of squares. Each task here is stepped with random legal actions and rendered; the frame is
read at probe pixels (a square's centre, a disc's side, a direction line, a level badge's digit blocks) against
what the observation shows -- or, for RobotWarehouse and LevelBasedForaging, whose observations are the agents'
views, the state from ``get_state`` (the env's key, then the env's state bytes). The same reading against a
planted difference (a wall, the fruit, an agent's direction or level, the ghosts' fright) must fail. Frames
have the documented size and ``render_fps``; rendering leaves the observations as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import rlpool

pytest.importorskip("matplotlib")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LinearSegmentedColormap  # noqa: E402

Rgb = tuple[int, int, int]
Probe = tuple[int, int, Rgb]  # pixel row, pixel column, colour
Decoder = Callable[[Any, bytes, tuple[int, int], dict[str, Any]], list[Probe]]

WHITE: Rgb = (255, 255, 255)
BLACK: Rgb = (0, 0, 0)


def lround(v: float) -> int:
    """C++'s std::lround for the non-negative values a picture's coordinates take."""
    return math.floor(v + 0.5)


def row_of(tree: Any, i: int) -> Any:
    """Env ``i``'s observation out of a batch (nested dicts kept)."""
    if isinstance(tree, dict):
        return {k: row_of(v, i) for k, v in tree.items()}
    return np.asarray(tree)[i]


def legal_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random action the mask allows per env (and per agent where the mask has an agent axis)."""
    flat = mask.reshape(-1, mask.shape[-1])
    picks = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in flat]
    return np.array(picks, dtype=np.int64).reshape(mask.shape[:-1])


def misses(frame: np.ndarray, probes: list[Probe]) -> list[str]:
    """The probes the frame does not show, described."""
    out = []
    for y, x, colour in probes:
        got = tuple(int(v) for v in frame[y, x])
        if got != colour:
            out.append(f"pixel ({y}, {x}): {got} instead of {colour}")
    return out


def snake_policy(obs: Any, rng: np.random.Generator) -> np.ndarray:
    """Snake: a legal move towards the fruit where there is one (so the snake grows), else a random legal one."""
    actions = legal_actions(np.asarray(obs["action_mask"]), rng)
    for i, grid in enumerate(np.asarray(obs["grid"])):
        head, fruit = np.argwhere(grid[..., 1] > 0), np.argwhere(grid[..., 3] > 0)
        if len(head) == 0:
            continue
        moves = ((-1, 0), (0, 1), (1, 0), (0, -1))
        closer = [a for a in np.flatnonzero(obs["action_mask"][i])
                  if np.abs(head[0] + moves[a] - fruit[0]).sum() < np.abs(head[0] - fruit[0]).sum()]
        if closer:
            actions[i] = rng.choice(closer)
    return actions


def random_policy(obs: Any, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per env (and agent)."""
    return legal_actions(np.asarray(obs["action_mask"]), rng)


def rendered(task: str, steps: int, every: int, seed: int = 3, **options: Any) -> Iterator[tuple]:
    """(frame, observation, state bytes, frame shape) of env 0 and 1 every `every` steps of legal play."""
    pool = rlpool.make(task, num_envs=2, seed=seed, render_mode="rgb_array", **options)
    rng = np.random.default_rng(seed)
    policy = snake_policy if task == "Snake-v1" else random_policy
    try:
        obs, _ = pool.reset()
        for step in range(steps):
            if step % every == 0:
                frames = pool.render(env_ids=[0, 1])
                for i in range(2):
                    yield frames[i], row_of(obs, i), pool.get_state(i), frames[i].shape[:2]
            obs, *_ = pool.step(policy(obs, rng))
    finally:
        pool.close()


def squares(h: int, w: int, rows: int, cols: int) -> int:
    """The square size of a board of rows x cols filling an h x w frame from its corner."""
    return min(w // cols, h // rows)


# ---- Maze and Cleaner: a grid in a black frame one square wide ------------------------------------------------


def framed_probes(colours: np.ndarray, shape: tuple[int, int]) -> list[Probe]:
    """Square centres of a (rows, cols, 3) colour grid drawn inside a black frame one square wide."""
    rows, cols = colours.shape[:2]
    cell = squares(*shape, rows + 2, cols + 2)
    probes = []
    for r in range(-1, rows + 1):
        for c in range(-1, cols + 1):
            inside = 0 <= r < rows and 0 <= c < cols
            colour = tuple(int(v) for v in colours[r, c]) if inside else BLACK
            probes.append((int((r + 1.5) * cell), int((c + 1.5) * cell), colour))
    return probes


def maze_probes(obs: Any, state: bytes, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """Maze: open squares white, walls black, the agent green, the target red (over the agent)."""
    walls = np.asarray(obs["walls"])
    colours = np.repeat(np.where(walls, 0, 255)[..., None], 3, axis=-1)
    colours[obs["agent_position"]["row"], obs["agent_position"]["col"]] = (0, 255, 0)
    colours[obs["target_position"]["row"], obs["target_position"]["col"]] = (255, 0, 0)
    return framed_probes(colours, shape)


def cleaner_probes(obs: Any, state: bytes, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """Cleaner: clean white, dirty green, walls black; k agents on a square (255, g, g), g = 255 * 0.5**k."""
    grid = np.asarray(obs["grid"])[0]
    palette = {0: (0, 255, 0), 1: WHITE, 2: BLACK}
    colours = np.array([[palette[int(v)] for v in row] for row in grid])
    locations = [tuple(int(v) for v in loc) for loc in np.asarray(obs["agents_locations"])]
    for loc in set(locations):
        if not (0 <= loc[0] < grid.shape[0] and 0 <= loc[1] < grid.shape[1]):
            continue  # off the grid (jumanji's mask checks a row against num_cols): not drawn
        g = lround(255 * 0.5 ** locations.count(loc))
        colours[loc] = (255, g, g)
    return framed_probes(colours, shape)


# ---- Snake ---------------------------------------------------------------------------------------------------

SNAKE_MAP = LinearSegmentedColormap.from_list("", ["yellowgreen", "forestgreen"])  # the viewer's colormap


def snake_probes(obs: Any, state: bytes, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """Snake: body squares in the viewer's colormap at body_state / length, the head and fruit discs, an outline."""
    grid = np.asarray(obs["grid"])
    rows, cols = grid.shape[:2]
    cell = squares(*shape, rows, cols)
    probes: list[Probe] = [(0, 0, BLACK), (shape[0] - 1, shape[1] - 1, BLACK)]
    for r in range(rows):
        for c in range(cols):
            colour = WHITE
            if grid[r, c, 0] > 0:  # body: channel 4 is body_state / length while the head is on the board
                colour = tuple(lround(255 * v) for v in SNAKE_MAP(float(grid[r, c, 4]))[:3])
            if grid[r, c, 1] > 0:
                colour = (154, 205, 50)  # the head: yellowgreen
            if grid[r, c, 3] > 0:
                colour = (240, 128, 128)  # the fruit: lightcoral
            probes.append((int((r + 0.5) * cell), int((c + 0.5) * cell), colour))
    return probes


# ---- Connector ------------------------------------------------------------------------------------------------


def connector_colours(agents: int) -> list[Rgb]:
    """ConnectorViewer's agent colours: get_cmap("hsv", A + 1) at arange(0, 1, 1 / A), as bytes."""
    colormap = plt.get_cmap("hsv", agents + 1)
    return [tuple(lround(255 * v) for v in colormap(float(x))[:3]) for x in np.arange(0, 1, 1 / agents)]


def connector_probes(obs: Any, state: bytes, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """Connector: empty white; a position its agent's colour, a path that over white at alpha 0.25, a target
    white with its middle in the agent's colour; black edges."""
    grid = np.asarray(obs["grid"])[0]
    n = grid.shape[0]
    colours = connector_colours(np.asarray(obs["grid"]).shape[0])
    cell = squares(*shape, n, n)
    probes: list[Probe] = [(0, 0, BLACK), (cell, cell, BLACK)]
    for r in range(n):
        for c in range(n):
            v = int(grid[r, c])
            centre = (int((r + 0.5) * cell), int((c + 0.5) * cell))
            if v == 0:
                probes.append((*centre, WHITE))
                continue
            colour = colours[(v - 1) // 3]
            kind = (v - 1) % 3  # 0 path, 1 position, 2 target
            if kind == 0:
                colour = tuple(lround(0.25 * x + 0.75 * 255) for x in colour)
            if kind == 2:
                probes.append((r * cell + cell // 8 + 1, c * cell + cell // 8 + 1, WHITE))
            probes.append((*centre, colour))
    return probes


# ---- RobotWarehouse (from the state bytes) ---------------------------------------------------------------------


def warehouse_state(state: bytes, options: dict[str, Any]) -> dict[str, Any]:
    """robot_warehouse.cc's state bytes (after the env's key) with the floor's layout."""
    rows, columns = options.get("shelf_rows", 2), options.get("shelf_columns", 3)
    height = options.get("column_height", 8)
    agents, queue = options.get("num_agents", 4), options.get("request_queue_size", 8)
    h, w = (height + 1) * rows + 2, 3 * columns + 1
    shelves = sum(
        not (y % 3 == 0 or x % (height + 1) == 0 or x == h - 1 or (x > h - (height + 3) and y in (w // 2 - 1, w // 2)))
        for x in range(h)
        for y in range(w)
    )
    at = 8 + 2 * h * w * 4

    def ints(n: int, dtype: str = "<i4") -> np.ndarray:
        nonlocal at
        out = np.frombuffer(state, dtype=dtype, count=n, offset=at)
        at += n * np.dtype(dtype).itemsize
        return out

    x, y, direction, carrying = ints(agents), ints(agents), ints(agents), ints(agents)
    shelf_x, shelf_y, requested = ints(shelves), ints(shelves), ints(shelves, "u1")
    ints(queue)
    return {"h": h, "w": w, "x": x, "y": y, "dir": direction, "carrying": carrying, "shelf_x": shelf_x,
            "shelf_y": shelf_y, "requested": requested, "goals": {(h - 1, w // 2 - 1), (h - 1, w // 2)}}


DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) on the picture: up, right, down, left


def warehouse_probes(obs: Any, state: Any, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """RobotWarehouse: white floor, black lines, grey goals, shelves slate blue / teal (requested), agents orange
    / red (carrying) with a black line towards their direction."""
    s = state if isinstance(state, dict) else warehouse_state(state, options)
    p = (shape[1] - 1) // s["w"]
    probes: list[Probe] = [(0, 0, BLACK), (p, p, BLACK)]
    agent_at = {(int(x), int(y)): i for i, (x, y) in enumerate(zip(s["x"], s["y"], strict=True))}  # the last wins
    shelf_at = {(int(x), int(y)): i for i, (x, y) in enumerate(zip(s["shelf_x"], s["shelf_y"], strict=True))}
    radius = (p - 1) / 3
    for x in range(s["h"]):
        for y in range(s["w"]):
            cx, cy = y * p + (p + 1) / 2, x * p + (p + 1) / 2
            if (x, y) in agent_at:
                i = agent_at[(x, y)]
                dx, dy = DIRECTIONS[int(s["dir"][i])]
                colour = (255, 0, 0) if s["carrying"][i] else (255, 140, 0)
                probes.append((math.floor(cy - dy * radius / 2), math.floor(cx - dx * radius / 2), colour))
                k = int(0.6 * radius)
                probes.append((lround(cy + dy * k), lround(cx + dx * k), BLACK))
                continue
            colour = WHITE
            if (x, y) in s["goals"]:
                colour = (60, 60, 60)
            if (x, y) in shelf_at:
                colour = (0, 128, 128) if s["requested"][shelf_at[(x, y)]] else (72, 61, 139)
            probes.append((math.floor(cy), math.floor(cx), colour))
    return probes


# ---- LevelBasedForaging (from the state bytes) ---------------------------------------------------------------

# rlpool's 3 x 5 block font (jumanji_render.h): rows top to bottom, three bits each, the left bit first.
GLYPHS = ((7, 5, 5, 5, 7), (2, 6, 2, 2, 7), (7, 1, 7, 4, 7), (7, 1, 7, 1, 7), (5, 5, 7, 1, 1),
          (7, 4, 7, 1, 7), (7, 4, 7, 5, 7), (7, 1, 2, 2, 2), (7, 5, 7, 5, 7), (7, 5, 7, 1, 7))


def foraging_state(state: bytes, options: dict[str, Any]) -> dict[str, Any]:
    """level_based_foraging.cc's state bytes (after the env's key)."""
    agents, food = options.get("num_agents", 2), options.get("num_food", 2)
    at = 8
    out: dict[str, Any] = {}
    for name, n in (("agents", agents), ("food", food)):
        i32 = np.frombuffer(state, dtype="<i4", count=4 * n, offset=at)
        flags = np.frombuffer(state, dtype="u1", count=n, offset=at + 16 * n)
        out[name] = {"position": i32[n : 3 * n].reshape(n, 2), "level": i32[3 * n :].copy(), "flag": flags}
        at += 17 * n
    return out


def foraging_probes(obs: Any, state: Any, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """LevelBasedForaging: black squares between white lines, uneaten food red discs, agents white discs, each
    with a black badge showing its level in white blocks."""
    s = state if isinstance(state, dict) else foraging_state(state, options)
    g = options.get("grid_size", 8)
    p = (shape[1] - 1) // g
    probes: list[Probe] = [(0, 0, WHITE), (p, 2 * p, WHITE)]
    colour_at: dict[tuple[int, int], Rgb] = {}
    offset, scale = math.floor(0.28 * p + 0.5), p // 20
    for name, colour in (("food", (209, 56, 52)), ("agents", WHITE)):
        e = s[name]
        for (r, c), level, flag in zip(e["position"], e["level"], e["flag"], strict=True):
            if name == "food" and flag:
                continue
            colour_at[(int(r), int(c))] = colour
            cx, cy = c * p + (p + 1) / 2 + offset, r * p + (p + 1) / 2 + offset  # the badge's centre
            if scale == 0 or level > 9:
                continue
            x0, y0 = lround(cx - 3 * scale / 2), lround(cy - 2.5 * scale)
            for row in range(5):
                for col in range(3):
                    lit = GLYPHS[int(level)][row] & (4 >> col)
                    probes.append((y0 + row * scale, x0 + col * scale, WHITE if lit else BLACK))
    for r in range(g):
        for c in range(g):
            cy, cx = r * p + (p + 1) // 2, c * p + (p + 1) // 2
            probes.append((cy, cx, colour_at.get((r, c), BLACK)))
    return probes


# ---- PacMan ---------------------------------------------------------------------------------------------------

GHOSTS = ((255, 0, 0), (255, 179, 255), (0, 255, 255), (255, 128, 0))


def pac_man_probes(obs: Any, state: bytes, shape: tuple[int, int], options: dict[str, Any]) -> list[Probe]:
    """PacMan: walls dark blue, open squares black, pellets and power-ups (larger) pale orange discs, ghosts in
    their colours (blue while frightened), the player yellow on top."""
    grid = np.asarray(obs["grid"])
    rows, cols = grid.shape
    cell = squares(*shape, rows, cols)
    centre: dict[tuple[int, int], Rgb] = {}
    side: dict[tuple[int, int], Rgb] = {}  # a quarter square right of and below the centre: a power-up's disc
    for r in range(rows):
        for c in range(cols):
            centre[(r, c)] = side[(r, c)] = BLACK if grid[r, c] else (0, 0, 153)
    for c, r in np.asarray(obs["pellet_locations"]):
        if grid[r, c]:
            centre[(r, c)] = (255, 204, 153)
    for c, r in np.asarray(obs["power_up_locations"]):
        if grid[r, c]:
            centre[(r, c)] = side[(r, c)] = (255, 204, 153)
    frightened = int(obs["frightened_state_time"]) > 0
    for g, (c, r) in enumerate(np.asarray(obs["ghost_locations"])):
        centre[(r, c)] = side[(r, c)] = (0, 0, 255) if frightened else GHOSTS[g]
    player = (int(obs["player_locations"]["x"]), int(obs["player_locations"]["y"]))
    centre[player] = side[player] = (255, 255, 0)
    probes = []
    for (r, c), colour in centre.items():
        y, x = r * cell + cell // 2, c * cell + cell // 2
        probes.append((y, x, colour))
        probes.append((y + cell // 4, x + cell // 4, side[(r, c)]))
    return probes


# ---- the tasks ------------------------------------------------------------------------------------------------

CASES: list[tuple[str, dict[str, Any], Decoder, tuple[int, int]]] = [
    ("Maze-v0", {}, maze_probes, (480, 480)),
    ("Maze-v0", {"num_rows": 5, "num_cols": 8}, maze_probes, (280, 400)),
    ("Snake-v1", {}, snake_probes, (480, 480)),
    ("Snake-v1", {"num_rows": 6, "num_cols": 9}, snake_probes, (240, 360)),
    ("Cleaner-v0", {}, cleaner_probes, (480, 480)),
    ("Cleaner-v0", {"num_rows": 5, "num_cols": 8}, cleaner_probes, (280, 400)),
    ("Connector-v3", {}, connector_probes, (480, 480)),
    ("Connector-v3", {"grid_size": 6, "num_agents": 3}, connector_probes, (288, 288)),
    ("RobotWarehouse-v0", {}, warehouse_probes, (481, 241)),
    ("LevelBasedForaging-v0", {}, foraging_probes, (321, 321)),
    ("LevelBasedForaging-v0", {"grid_size": 12, "num_agents": 3, "num_food": 3}, foraging_probes, (481, 481)),
    ("PacMan-v1", {}, pac_man_probes, (465, 420)),
]
IDS = [f"{task}-{'-'.join(f'{k}{v}' for k, v in options.items()) or 'default'}" for task, options, _, _ in CASES]


@pytest.mark.parametrize(("task", "options", "decode", "size"), CASES, ids=IDS)
def test_frame_shows_the_state(task: str, options: dict[str, Any], decode: Decoder, size: tuple[int, int]) -> None:
    """Every probe of every rendered frame shows what the observation (or state) has there."""
    checked = 0
    steps = {"Snake-v1": 64, "PacMan-v1": 24}.get(task, 40)
    for frame, obs, state, shape in rendered(task, steps=steps, every=8, **options):
        assert frame.dtype == np.uint8 and frame.shape == (*size, 3)
        probes = decode(obs, state, shape, options)
        assert len(probes) > 10
        bad = misses(frame, probes)
        assert not bad, f"{task} {options}: {len(bad)} probes differ, e.g. {bad[:3]}"
        checked += len(probes)
    assert checked > 100


def plant(task: str, obs: Any, state: Any, options: dict[str, Any]) -> tuple[Any, Any]:
    """The observation or state with one thing changed that the picture shows."""
    if task == "Maze-v0":
        walls = np.asarray(obs["walls"]).copy()
        walls[tuple(np.argwhere(walls)[0])] = False  # one wall opened
        return {**obs, "walls": walls}, state
    if task == "Snake-v1":
        grid = np.asarray(obs["grid"]).copy()
        r, c = np.argwhere((grid[..., 0] == 0) & (grid[..., 3] == 0))[-1]
        grid[..., 3] = 0
        grid[r, c, 3] = 1  # the fruit elsewhere
        return {**obs, "grid": grid}, state
    if task == "Cleaner-v0":
        grid = np.asarray(obs["grid"]).copy()
        grid[0][tuple(np.argwhere(grid[0] == 2)[0])] = 1  # one wall a clean square
        return {**obs, "grid": grid}, state
    if task == "Connector-v3":
        grid = np.asarray(obs["grid"]).copy()
        grid[0][grid[0] == 2] = 5  # agent 0's position drawn as agent 1's
        return {**obs, "grid": grid}, state
    if task == "RobotWarehouse-v0":
        s = warehouse_state(state, options)
        s["dir"] = (s["dir"] + 1) % 4
        return obs, s
    if task == "LevelBasedForaging-v0":
        s = foraging_state(state, options)
        s["agents"]["level"] = s["agents"]["level"] % 9 + 1
        return obs, s
    frightened = np.asarray(obs["frightened_state_time"])
    return {**obs, "frightened_state_time": np.where(frightened > 0, 0, 5)}, state


@pytest.mark.parametrize(("task", "options", "decode", "size"), [c for c in CASES if c[1] == {}],
                         ids=[c[0] for c in CASES if c[1] == {}])
def test_planted_difference_is_caught(task: str, options: dict[str, Any], decode: Decoder,
                                      size: tuple[int, int]) -> None:
    """Reading a frame against a changed observation or state fails."""
    frame, obs, state, shape = next(rendered(task, steps=1, every=1))
    assert not misses(frame, decode(obs, state, shape, options))
    changed_obs, changed_state = plant(task, obs, state, options)
    assert misses(frame, decode(changed_obs, changed_state, shape, options))


def test_pac_man_frightened_ghosts() -> None:
    """Frightened ghosts (frightened_state_time put in the state) are blue with orange eyes."""
    pool = rlpool.make("PacMan-v1", num_envs=1, seed=1, render_mode="rgb_array")
    try:
        obs, _ = pool.reset()
        for _ in range(12):  # the ghosts leave home
            obs, *_ = pool.step(legal_actions(np.asarray(obs["action_mask"]), np.random.default_rng(1)))
        blob = bytearray(pool.get_state(0))
        blob[12:16] = np.int32(20).tobytes()  # after the env's key and pellets: frightened_state_time
        pool.set_state(0, bytes(blob))
        obs, *_ = pool.step(legal_actions(np.asarray(obs["action_mask"]), np.random.default_rng(2)))
        obs = row_of(obs, 0)
        assert int(obs["frightened_state_time"]) == 19
        frame = pool.render()[0]
        probes = pac_man_probes(obs, b"", frame.shape[:2], {})
        assert sum(colour == (0, 0, 255) for _, _, colour in probes) >= 4
        assert not misses(frame, probes)
        ghosts = [tuple(g) for g in np.asarray(obs["ghost_locations"])]
        c, r = ghosts[0]
        player = (int(obs["player_locations"]["y"]), int(obs["player_locations"]["x"]))
        if ghosts.count(ghosts[0]) == 1 and ghosts[0] != player:  # ghost 0's eyes in view
            cell = frame.shape[0] // 31
            eye = frame[lround(r * cell + cell / 2 - cell / 8), lround(c * cell + cell / 2 + 0.2 * cell)]
            assert tuple(int(v) for v in eye) == (255, 153, 51)
    finally:
        pool.close()


def test_connector_colours_are_the_viewers() -> None:
    """The picture's agent colours are ConnectorViewer's (a position square's centre, 10 agents)."""
    pytest.importorskip("jumanji")
    from jumanji.environments.routing.connector.viewer import ConnectorViewer

    viewer = ConnectorViewer("Connector", 10, render_mode="rgb_array")
    expected = [tuple(lround(255 * v) for v in c[:3]) for c in viewer.colors[1:]]
    assert connector_colours(10) == expected
    frame, obs, _, shape = next(rendered("Connector-v3", steps=1, every=1))
    grid = np.asarray(obs["grid"])[0]
    cell = squares(*shape, *grid.shape)
    seen = 0
    for r, c in np.argwhere((grid > 0) & ((grid - 2) % 3 == 0)):
        got = tuple(int(v) for v in frame[int((r + 0.5) * cell), int((c + 0.5) * cell)])
        assert got == expected[(grid[r, c] - 1) // 3]
        seen += 1
    assert seen == 10


@pytest.mark.parametrize("task", sorted({c[0] for c in CASES}))
def test_rendering_changes_no_observation(task: str) -> None:
    """The same seed and actions give the same observations with and without render_mode (rendering each step)."""
    pools = [rlpool.make(task, num_envs=2, seed=7, render_mode=mode) for mode in ("rgb_array", None)]
    rng = np.random.default_rng(7)
    try:
        assert pools[0].metadata["render_fps"] == 5
        obs = [p.reset()[0] for p in pools]
        for _ in range(15):
            pools[0].render(env_ids=[0, 1])
            np.testing.assert_equal(obs[0], obs[1])
            action = legal_actions(np.asarray(obs[0]["action_mask"]), rng)
            obs = [p.step(action)[0] for p in pools]
        np.testing.assert_equal(obs[0], obs[1])
    finally:
        for p in pools:
            p.close()
