"""render_mode="rgb_array" pictures of the Jumanji plot-like envs, decoded against their state.

TSP, CVRP, MultiCVRP, Knapsack, BinPack, GraphColoring, JobShop, SearchAndRescue and MMST draw a documented picture
of their state in C++ (each env file's header says what it shows, in jumanji's viewer colours; matplotlib's
"hsv" colormap entries are taken from matplotlib itself here). Each test plays a few random legal steps,
renders, and decodes the frame against the state the observation (or the env's state bytes, where the
observation leaves something out) shows: the colour at each city's / node's / item's / operation's pixel, the
line colour between consecutive visited nodes, the knapsack's gauge. A decode against a changed state must
fail (a planted difference), and rendering leaves the observations as they were.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import rlpool

pytest.importorskip("jumanji")
pytest.importorskip("matplotlib")
import matplotlib.pyplot as plt  # noqa: E402

SIZE = 480
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
Colour = tuple[int, int, int]


def hsv(n: int, i: int) -> Colour:
    """plt.get_cmap("hsv", n)(i) as bytes: floor(v * 255 + 0.5)."""
    rgba = plt.get_cmap("hsv", n)(i)
    return tuple(int(math.floor(v * 255 + 0.5)) for v in rgba[:3])  # type: ignore[return-value]


def rnd(v: float) -> int:
    """C's lround of a non-negative value."""
    return int(math.floor(v + 0.5))


def policy(task: str, obs: Any, rng: np.random.Generator) -> np.ndarray:
    """A random legal action for a one-env pool of ``task``."""
    if task == "SearchAndRescue-v0":
        return rng.uniform(-1, 1, (1, 2, 2)).astype(np.float32)
    mask = np.asarray(obs["action_mask"])[0]
    if task == "BinPack-v2":
        pairs = np.argwhere(mask)
        return pairs[rng.integers(len(pairs))][None].astype(np.int64)
    if mask.ndim == 2:  # one choice per agent / machine
        return np.array([[rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]], np.int64)
    return np.array([rng.choice(np.flatnonzero(mask))], np.int64)


def played(task: str, steps: int, seed: int = 0) -> tuple[Any, Any, np.ndarray]:
    """A one-env pool of ``task`` after up to ``steps`` random legal steps (fewer if the episode ends): the
    pool, its last observation and its rendered frame."""
    pool = rlpool.make(task, num_envs=1, seed=seed, render_mode="rgb_array")
    obs, _ = pool.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        new_obs, _, term, trunc, _ = pool.step(policy(task, obs, rng))
        obs = new_obs
        if np.any(term) or np.any(trunc):
            break
    frame = np.asarray(pool.render())
    assert frame.shape == (1, SIZE, SIZE, 3) and frame.dtype == np.uint8
    return pool, obs, frame[0]


def fields(blob: bytes, *layout: tuple[str, str, int]) -> dict[str, np.ndarray]:
    """An env's state bytes (after the 8 bytes of the env's key) cut into ``(name, dtype, count)`` fields."""
    out, at = {}, 8
    for name, dtype, count in layout:
        size = np.dtype(dtype).itemsize * count
        out[name] = np.frombuffer(blob[at:at + size], dtype).copy()
        at += size
    return out


def at(frame: np.ndarray, x: float, y: float) -> Colour | None:
    """The colour of the pixel holding frame point (x, y), None off the frame."""
    px, py = int(math.floor(x)), int(math.floor(y))
    if not (0 <= px < SIZE and 0 <= py < SIZE):
        return None
    return tuple(int(v) for v in frame[py, px])  # type: ignore[return-value]


def near_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from point p to segment ab."""
    ax, ay, bx, by = *a, *b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def line_pixel(a: tuple[float, float], b: tuple[float, float]) -> tuple[int, int]:
    """A pixel Canvas::line certainly paints: its middle point's own (the pen's bottom-right pixel)."""
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1.0)
    t = int(steps) // 2 / steps
    return rnd(a[0] + (b[0] - a[0]) * t), rnd(a[1] + (b[1] - a[1]) * t)


def last_disc(pixel: tuple[int, int], discs: list[tuple[float, float, float, Colour]]) -> Colour | None:
    """The colour of the last disc (cx, cy, r, colour) of a draw list covering ``pixel``'s centre."""
    found = None
    for cx, cy, r, colour in discs:
        if (pixel[0] + 0.5 - cx) ** 2 + (pixel[1] + 0.5 - cy) ** 2 <= r * r:
            found = colour
    return found


def unit(xy: np.ndarray, scale: float = 1.0) -> tuple[float, float]:
    """A point of the unit square (x right, y up; coordinates / scale) on the frame."""
    return float(xy[0]) / scale * SIZE, (1.0 - float(xy[1]) / scale) * SIZE


# TSP ---------------------------------------------------------------------------------------------------------


def decode_tsp(frame: np.ndarray, coordinates: np.ndarray, trajectory: np.ndarray) -> None:
    """Visited cities black, others dimgray (where no line or visited disc covers them), lines black."""
    visited = [int(c) for c in trajectory if c >= 0]
    points = [unit(c) for c in coordinates]
    segments = [(points[a], points[b]) for a, b in zip(visited, visited[1:], strict=False)]
    for i, p in enumerate(points):
        if i in visited:
            assert at(frame, *p) == BLACK, f"visited city {i}"
        elif not any(near_segment(p, a, b) < 2.5 for a, b in segments) and not any(
                math.dist(p, points[v]) < 7.5 for v in visited):
            assert at(frame, *p) == (105, 105, 105), f"city {i}"
    for a, b in segments:
        x, y = line_pixel(a, b)
        assert tuple(frame[y, x]) == BLACK, "tour line"


def test_tsp() -> None:
    _, obs, frame = played("TSP-v1", 7)
    coordinates, trajectory = obs["coordinates"][0], obs["trajectory"][0]
    assert (trajectory >= 0).sum() == 7
    decode_tsp(frame, coordinates, trajectory)
    planted = trajectory.copy()
    planted[7] = int(np.flatnonzero(obs["action_mask"][0])[0])  # an unvisited city shown as visited
    with pytest.raises(AssertionError):
        decode_tsp(frame, coordinates, planted)


# CVRP and MultiCVRP ------------------------------------------------------------------------------------------


def decode_routes(frame: np.ndarray, points: list[tuple[float, float]], tours: list[tuple[list[int], Any]]) -> None:
    """The routes' picture: tours (node sequence, colour of route k: a function of k) from the depot (node 0)."""
    segments, discs = [], []
    for nodes, colour in tours:
        route = -1
        for a, b in zip(nodes, nodes[1:], strict=False):
            if a == 0 and b == 0:
                continue
            route += a == 0
            segments.append((points[a], points[b], colour(max(route, 0))))
    for a, b, c in segments:
        discs += [(*a, 4.0, c), (*b, 4.0, c)]
    for i, p in enumerate(points):
        pixel = (int(p[0]), int(p[1]))
        expected = last_disc(pixel, discs)
        if expected is None and any(near_segment(p, a, b) < 2.5 for a, b, _ in segments):
            continue  # a line over a node with no route
        assert at(frame, *p) == (expected or BLACK), f"node {i}"
    for a, b, colour in segments:
        x, y = line_pixel(a, b)
        if last_disc((x, y), discs) is None and not any(
                c != colour and near_segment((x + 0.5, y + 0.5), p, q) < 2.5 for p, q, c in segments):
            assert tuple(frame[y, x]) == colour, "route line"


def test_cvrp() -> None:
    pool, obs, frame = played("CVRP-v1", 14)
    n = obs["coordinates"].shape[1] - 1
    state = fields(pool.get_state(0), ("coordinates", "<f4", 2 * (n + 1)), ("demands", "<i4", n + 1),
                   ("position", "<i4", 1), ("capacity", "<i4", 1), ("visited", "u1", n + 1),
                   ("trajectory", "<i4", 2 * n), ("visits", "<i4", 1))
    points = [unit(c) for c in state["coordinates"].reshape(-1, 2)]
    tour = [int(v) for v in state["trajectory"][:int(state["visits"][0])]]
    assert len([v for v in tour if v == 0]) >= 2  # routes back to the depot and out again
    decode_routes(frame, points, [(tour, lambda k: hsv(n, k))])
    with pytest.raises(AssertionError):
        decode_routes(frame, points, [(tour, lambda k: hsv(n, k + 1))])


def test_multi_cvrp() -> None:
    pool, obs, frame = played("MultiCVRP-v0", 10)
    n, a = obs["nodes"]["demands"].shape[2] - 1, obs["vehicles"]["capacities"].shape[1]
    nodes = n + 1
    state = fields(pool.get_state(0), ("coordinates", "<f4", 2 * nodes), ("demands", "<i2", nodes),
                   ("windows", "<f4", 4 * nodes), ("local_times", "<f4", a), ("capacities", "<i2", a),
                   ("positions", "<i2", a), ("distances", "<f4", 2 * a), ("order", "<i2", a * 2 * n),
                   ("step_count", "<i2", 1))
    coordinates = state["coordinates"].reshape(-1, 2)
    np.testing.assert_array_equal(coordinates, obs["nodes"]["coordinates"][0, 0])
    map_max = 10.0  # get_init_settings for 20 customers, 2 vehicles
    points = [unit(c, map_max) for c in coordinates]
    order = state["order"].reshape(a, 2 * n)[:, :min(int(state["step_count"][0]), 2 * n)]

    def tours(shift: int) -> list[tuple[list[int], Any]]:
        return [([int(v) for v in order[i]], lambda k, i=i: hsv(a + 1, (i + shift) % a)) for i in range(a)]

    decode_routes(frame, points, tours(0))
    with pytest.raises(AssertionError):
        decode_routes(frame, points, tours(1))


# Knapsack ----------------------------------------------------------------------------------------------------


def decode_knapsack(frame: np.ndarray, weights: np.ndarray, values: np.ndarray, packed: np.ndarray,
                    budget: float) -> None:
    """Each item's bar green when packed, grey when not; the gauge's blue part the budget used."""
    n = len(values)
    for i in range(n):
        if rnd(float(values[i]) * 320) > 0:
            expected = (44, 160, 44) if packed[i] else (190, 190, 190)
            assert tuple(frame[399, int(i * (SIZE / n))]) == expected, f"item {i}"
    used = np.float32(0)
    for i in np.flatnonzero(packed):
        used = np.float32(used + weights[i])
    blue = int((frame[440, 20:460] == (31, 119, 180)).all(axis=1).sum())
    assert blue == rnd(440 * min(float(used) / budget, 1.0)), "budget gauge"


def test_knapsack() -> None:
    _, obs, frame = played("Knapsack-v1", 6)
    weights, values, packed = (obs[k][0] for k in ("weights", "values", "packed_items"))
    assert packed.sum() == 6
    decode_knapsack(frame, weights, values, packed, 12.5)
    planted = packed.copy()
    planted[np.flatnonzero(packed)[0]] = False
    with pytest.raises(AssertionError):
        decode_knapsack(frame, weights, values, planted, 12.5)
    assert tuple(frame[40, 240]) == WHITE and (frame[20:60, :] != 255).any(), "the numbers at the top"


# BinPack -----------------------------------------------------------------------------------------------------


def binpack_model(state: dict[str, np.ndarray], n: int, tops: Callable[[int], int]) -> np.ndarray:
    """The documented top-down picture drawn from the state (items in order of ``tops``, then index)."""
    x1, x2, y1, y2 = (int(v) for v in state["container"][:4])
    lx, ly = x2 - x1, y2 - y1

    def px(x: float) -> int:
        return rnd((x - x1 + 0.05 * lx) / (1.1 * lx) * SIZE)

    def py(y: float) -> int:
        return rnd((1.0 - (y - y1 + 0.05 * ly) / (1.1 * ly)) * SIZE)

    out = np.full((SIZE, SIZE, 3), 255, np.uint8)

    def box(a: float, b: float, c: float, d: float, fill: Colour) -> None:
        out[max(py(d), 0):max(py(b) + 1, 0), max(px(a), 0):max(px(c) + 1, 0)] = BLACK
        out[max(py(d) + 1, 0):max(py(b), 0), max(px(a) + 1, 0):max(px(c), 0)] = fill

    box(x1, y1, x2, y2, (242, 255, 255))
    lens, loc = state["items"].reshape(3, n), state["location"].reshape(3, n)
    for i in sorted(np.flatnonzero(state["placed"]), key=lambda i: (tops(i), i)):
        box(loc[0, i], loc[1, i], loc[0, i] + lens[0, i], loc[1, i] + lens[1, i], hsv(n, int(i)))
    return out


def test_bin_pack() -> None:
    pool, obs, frame = played("BinPack-v2", 6)
    n, m = obs["items_mask"].shape[1], 40  # max_num_items, max_num_ems
    state = fields(pool.get_state(0), ("container", "<i4", 6), ("ems", "<i4", 6 * m), ("ems_mask", "u1", m),
                   ("items", "<i4", 3 * n), ("items_mask", "u1", n), ("placed", "u1", n), ("location", "<i4", 3 * n))
    np.testing.assert_array_equal(state["placed"], obs["items_placed"][0])
    placed = np.flatnonzero(state["placed"])
    assert len(placed) >= 3
    lens, loc = state["items"].reshape(3, n), state["location"].reshape(3, n)
    np.testing.assert_array_equal(frame, binpack_model(state, n, lambda i: loc[2, i] + lens[2, i]))
    for i in placed:  # each placed item's footprint centre shows the highest item there
        cx, cy = loc[0, i] + lens[0, i] / 2, loc[1, i] + lens[1, i] / 2
        over = [j for j in placed
                if loc[0, j] <= cx < loc[0, j] + lens[0, j] and loc[1, j] <= cy < loc[1, j] + lens[1, j]]
        top = max(over, key=lambda j: (loc[2, j] + lens[2, j], j))
        x = (cx + 0.05 * 5870) / (1.1 * 5870) * SIZE
        y = (1 - (cy + 0.05 * 2330) / (1.1 * 2330)) * SIZE
        assert at(frame, x, y) == hsv(n, int(top)), f"item {i}"
    with pytest.raises(AssertionError):  # items drawn lowest on top
        np.testing.assert_array_equal(frame, binpack_model(state, n, lambda i: -(loc[2, i] + lens[2, i])))


# GraphColoring -----------------------------------------------------------------------------------------------


def decode_graph(frame: np.ndarray, adj: np.ndarray, colors: np.ndarray) -> None:
    """Nodes where jumanji's spring_layout puts them, in their colour (black without one), white labels, black
    edges (a node a later one's disc covers is not probed)."""
    from jumanji.environments.commons.graph_view_utils import spring_layout

    n = len(colors)
    radius = 0.25 / (5 + int(math.sqrt(n))) * SIZE
    points = [(x * SIZE, (1 - y) * SIZE) for x, y in spring_layout(adj.astype(np.int32), n)]
    for i, (x, y) in enumerate(points):
        if any(math.dist((x, y), q) < 2.5 * radius for q in points[i + 1:]):
            continue
        c = int(colors[i])
        expected = BLACK if c < 0 else hsv(n + 1, int(c * (1 / n) * (n + 1)))
        assert at(frame, x, y + 0.7 * radius) == expected, f"node {i}"
        disc = frame[int(y) - 5:int(y) + 6, int(x) - 7:int(x) + 8]
        assert (disc == 255).all(axis=-1).any(), f"node {i}'s label"
    for i, j in zip(*np.nonzero(np.triu(adj, 1)), strict=True):
        x, y = line_pixel(points[i], points[j])
        if min(math.dist((x + 0.5, y + 0.5), p) for p in points) > radius + 1:
            assert tuple(frame[y, x]) == BLACK, f"edge {i}-{j}"


def test_graph_coloring() -> None:
    _, obs, frame = played("GraphColoring-v1", 8)
    adj, colors = obs["adj_matrix"][0], obs["colors"][0]
    assert (colors >= 0).sum() == 8 and adj.any()
    decode_graph(frame, adj, colors)
    planted = colors.copy()
    planted[0] = (planted[0] + 1) % len(colors)
    with pytest.raises(AssertionError):
        decode_graph(frame, adj, planted)


def test_graph_coloring_of_one_node_draws_it_in_the_middle() -> None:
    """spring_layout of one node has no spread to scale by: the node is drawn at the centre, not lost."""
    pool = rlpool.make("GraphColoring-v1", num_envs=1, seed=0, render_mode="rgb_array", num_nodes=1)
    try:
        pool.reset()
        frame = np.asarray(pool.render())[0]
        radius = 0.25 / 6 * SIZE
        assert at(frame, SIZE / 2, SIZE / 2 + 0.7 * radius) == BLACK  # the uncoloured node's disc
    finally:
        pool.close()


# JobShop -----------------------------------------------------------------------------------------------------


def decode_job_shop(frame: np.ndarray, machine_ids: np.ndarray, durations: np.ndarray, scheduled: np.ndarray,
                    step_count: int, job_of: Callable[[int], int]) -> None:
    """Each scheduled op's box in its job's colour on its machine's row; the red line at step_count; the grid."""
    jobs, ops = scheduled.shape
    machines, x_max = 10, 20 * 8 * 6 // 10

    def px(t: float) -> int:
        return rnd(t / x_max * SIZE)

    def py(m: float) -> int:
        return rnd((machines - m) / (machines + 0.9) * SIZE)

    now = px(step_count)
    for j in range(jobs):
        for o in range(ops):
            if scheduled[j, o] < 0:
                continue
            x0, x1 = px(scheduled[j, o]) + 1, px(scheduled[j, o] + durations[j, o])
            y = (py(machine_ids[j, o] + 0.4) + py(machine_ids[j, o] - 0.4)) // 2
            x = next(x for x in range(x0, x1) if x != now)
            assert tuple(frame[y, x]) == hsv(jobs + 1, job_of(j)), f"job {j} op {o}"
            if x0 - 1 != now:
                assert tuple(frame[y, x0 - 1]) == BLACK, f"job {j} op {o}'s edge"
    assert tuple(frame[0, now]) == (255, 0, 0) and tuple(frame[5, now]) != (255, 0, 0), "the dashed time line"
    for t in range(10, x_max, 10):
        if px(t) != now:
            assert tuple(frame[0, px(t)]) == (176, 176, 176), f"grid line at {t}"


def test_job_shop() -> None:
    pool, obs, frame = played("JobShop-v0", 12)
    j, o = obs["ops_mask"].shape[1:]
    state = fields(pool.get_state(0), ("machine_ids", "<i4", j * o), ("durations", "<i4", j * o),
                   ("ops_mask", "u1", j * o), ("machines_job_ids", "<i4", 10), ("remaining", "<i4", 10),
                   ("step_count", "<i4", 1), ("scheduled", "<i4", j * o))
    scheduled = state["scheduled"].reshape(j, o)
    assert (scheduled >= 0).sum() >= 5
    args = (frame, obs["ops_machine_ids"][0], obs["ops_durations"][0], scheduled, int(state["step_count"][0]))
    decode_job_shop(*args, lambda job: job)
    with pytest.raises(AssertionError):
        decode_job_shop(*args, lambda job: (job + 1) % j)


# SearchAndRescue ---------------------------------------------------------------------------------------------


def decode_search(frame: np.ndarray, pos: np.ndarray, targets: np.ndarray, found: np.ndarray) -> None:
    """Targets orange (lost) or light grey (found), the last drawn on top; searchers #282B28 where no target is."""
    discs = [(*unit(t), 4.0, (0xB3, 0xB6, 0xBC) if f else (0xE9, 0x84, 0x49)) for t, f in zip(targets, found,
                                                                                                strict=True)]
    for i, t in enumerate(targets):
        p = unit(t)
        if at(frame, *p) is not None:
            assert at(frame, *p) == last_disc((int(p[0]), int(p[1])), discs), f"target {i}"
    for s, q in enumerate(pos):
        p = unit(q)
        if at(frame, *p) is not None and last_disc((int(p[0]), int(p[1])), discs) is None:
            assert at(frame, *p) == (0x28, 0x2B, 0x28), f"searcher {s}"


def test_search_and_rescue() -> None:
    pool, obs, frame = played("SearchAndRescue-v0", 60)
    a, t = 2, 40
    state = fields(pool.get_state(0), ("pos", "<f4", 2 * a), ("heading", "<f4", a), ("speed", "<f4", a),
                   ("targets", "<f4", 2 * t), ("vel", "<f4", 2 * t), ("found", "u1", t))
    pos = state["pos"].reshape(a, 2)
    np.testing.assert_array_equal(pos, obs["positions"][0])
    targets = state["targets"].reshape(t, 2)
    decode_search(frame, pos, targets, state["found"].astype(bool))
    # Every other target found (a state put in: random searchers rarely find one in a few steps).
    found = np.arange(t) % 2 == 0
    blob = pool.get_state(0)
    at_found = 8 + 4 * (4 * a + 4 * t)
    pool.set_state(0, blob[:at_found] + found.astype(np.uint8).tobytes() + blob[at_found + t:])
    frame = np.asarray(pool.render())[0]
    decode_search(frame, pos, targets, found)
    with pytest.raises(AssertionError):
        decode_search(frame, pos, targets, ~found)


# Rendering changes nothing -----------------------------------------------------------------------------------

# MMST ----------------------------------------------------------------------------------------------------------


def mmst_palette(agents: int) -> list[Colour]:
    """MMSTViewer's agent colours: np.random.seed(0), then randint(0, 192) for each agent's red, green, blue."""
    legacy = np.random.RandomState(0)
    return [tuple(int(legacy.randint(0, 192)) for _ in range(3)) for _ in range(agents)]  # type: ignore[misc]


def decode_mmst(frame: np.ndarray, adj: np.ndarray, to_connect: np.ndarray, positions: np.ndarray,
                paths: np.ndarray) -> None:
    """Nodes where jumanji's spring_layout puts them: the ring yellow where an agent stands, else blue; the fill
    the colour of the one agent with the node to connect, else black; an agent's path edges in its colour."""
    from jumanji.environments.commons.graph_view_utils import spring_layout

    n, palette = len(adj), mmst_palette(len(to_connect))
    radius = 0.25 / (5 + int(math.sqrt(n))) * SIZE
    points = [(x * SIZE, (1 - y) * SIZE) for x, y in spring_layout(adj.astype(np.int32), n)]
    for node, (x, y) in enumerate(points):
        if any(math.dist((x, y), q) < 2.5 * radius for q in points[node + 1:]):
            continue  # a later node's disc covers it
        owners = np.nonzero(to_connect == node)[0]
        fill = palette[owners[0]] if len(owners) == 1 else BLACK
        ring = (200, 200, 0) if node in positions else (50, 50, 160)
        assert at(frame, x, y + 0.6 * radius) == fill, f"node {node}"
        assert at(frame, x, y + 0.9 * radius) == ring, f"node {node}'s ring"
    for agent, path in enumerate(paths):
        nodes = path[: np.flatnonzero(path != -1)[-1] + 1]
        for a, b in zip(nodes[:-1], nodes[1:], strict=True):
            x, y = line_pixel(points[a], points[b])
            if min(math.dist((x + 0.5, y + 0.5), p) for p in points) > radius + 2:
                assert tuple(frame[y, x]) in palette, f"agent {agent}'s edge {a}-{b}"


def test_mmst() -> None:
    pool, obs, frame = played("MMST-v0", 12)
    n, agents, k, limit = 36, 3, 4, 70
    state = fields(pool.get_state(0), ("node_types", "<i4", n), ("adj", "u1", n * n), ("paths", "<i4", agents * limit),
                   ("index", "<i4", agents * n), ("to_connect", "<i4", agents * k))
    adj, to_connect = state["adj"].reshape(n, n), state["to_connect"].reshape(agents, k)
    positions, paths = np.asarray(obs["positions"])[0], state["paths"].reshape(agents, limit)
    assert (paths != -1).sum() > agents  # the agents moved
    decode_mmst(frame, adj, to_connect, positions, paths)
    planted = to_connect.copy()
    planted[[0, 1]] = planted[[1, 0]]
    with pytest.raises(AssertionError):
        decode_mmst(frame, adj, planted, positions, paths)


TASKS = ["TSP-v1", "CVRP-v1", "MultiCVRP-v0", "Knapsack-v1", "BinPack-v2", "GraphColoring-v1", "JobShop-v0",
         "SearchAndRescue-v0", "MMST-v0"]


def flat(obs: Any, prefix: str = "") -> dict[str, np.ndarray]:
    """A (nested) observation dict as name -> array."""
    if isinstance(obs, dict):
        return {k: v for key, value in obs.items() for k, v in flat(value, f"{prefix}{key}.").items()}
    return {prefix: np.asarray(obs)}


@pytest.mark.parametrize("task", TASKS)
def test_render_changes_no_observation(task: str) -> None:
    drawn = rlpool.make(task, num_envs=1, seed=3, render_mode="rgb_array")
    plain = rlpool.make(task, num_envs=1, seed=3)
    rng = np.random.default_rng(3)
    obs, _ = drawn.reset()
    other, _ = plain.reset()
    for _ in range(5):
        assert np.asarray(drawn.render()).shape == (1, SIZE, SIZE, 3)
        action = policy(task, obs, rng)
        obs = drawn.step(action)[0]
        other = plain.step(action)[0]
        a, b = flat(obs), flat(other)
        assert a.keys() == b.keys()
        for key in a:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
