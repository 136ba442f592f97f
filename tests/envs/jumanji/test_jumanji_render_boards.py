"""The pictures (render_mode="rgb_array") of the board-game Jumanji envs, checked against the state they show.

Minesweeper, Sudoku, Game2048, SlidingTilePuzzle, Tetris, RubiksCube and FlatPack draw a documented picture of
their state in C++ (each env file's header comment says what it shows, after jumanji's viewer.py). Here each
picture is redrawn from the observation (and, for what the observation leaves out -- Minesweeper's mines,
2048's score, Tetris's piece numbers -- from the env's state bytes) with the documented colours, cell sizes and
the drawing header's 3 x 5 block font, and the env's frame must equal it pixel for pixel after every step of a
short random game. A redrawing from a changed observation must differ (the check can fail); a frame has the
documented shape and dtype; rendering leaves the observations as they are.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import rlpool

Colour = tuple[int, int, int]
Obs = dict[str, np.ndarray]

# jumanji_render.h's block font: rows top to bottom, three bits each (left bit first).
GLYPHS = [(7, 5, 5, 5, 7), (2, 6, 2, 2, 7), (7, 1, 7, 4, 7), (7, 1, 7, 1, 7), (5, 5, 7, 1, 1),
          (7, 4, 7, 1, 7), (7, 4, 7, 5, 7), (7, 1, 2, 2, 2), (7, 5, 7, 5, 7), (7, 5, 7, 1, 7)]
BLACK: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)


def lround(v: float) -> int:
    """C's lround: halves away from zero."""
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


class Picture:
    """A numpy mirror of jumanji_render.h's Canvas and Board (clipped rectangles, the block font, cells)."""

    def __init__(self, height: int, width: int, fill: Colour) -> None:
        self.a = np.empty((height, width, 3), np.uint8)
        self.a[:] = fill

    def rect(self, x0: int, y0: int, x1: int, y1: int, c: Colour) -> None:
        """The rectangle [x0, x1) x [y0, y1), clipped."""
        h, w, _ = self.a.shape
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x0 < x1 and y0 < y1:
            self.a[y0:y1, x0:x1] = c

    def number(self, cx: float, cy: float, value: int, scale: int, c: Colour) -> None:
        """Canvas::number: the digits one block apart, centred on (cx, cy)."""
        text = str(max(int(value), 0))
        x = lround(cx - (4 * len(text) - 1) * scale / 2.0)
        y = lround(cy - 2.5 * scale)
        for i, ch in enumerate(text):
            for row, bits in enumerate(GLYPHS[int(ch)]):
                for col in range(3):
                    if bits & (4 >> col):
                        left = x + 4 * scale * i + col * scale
                        self.rect(left, y + row * scale, left + scale, y + (row + 1) * scale, c)

    def cell(self, size: int, r: int, c: int, colour: Colour, gap: int = 0) -> None:
        """Board::paint: cell (r, c) of `size` pixels less a `gap`-pixel border."""
        self.rect(c * size + gap, r * size + gap, (c + 1) * size - gap, (r + 1) * size - gap, colour)

    def cell_number(self, size: int, r: int, c: int, value: int, colour: Colour) -> None:
        """A number centred in cell (r, c) at the env files' number_scale."""
        self.number((c + 0.5) * size, (r + 0.5) * size, value, number_scale(size, value), colour)


def number_scale(cell: int, value: int) -> int:
    """The env files' number_scale: a tenth of the cell, less where the digits would pass 4/5 of its width."""
    digits = len(str(value))
    return min(cell // 10, 4 * cell // (5 * (4 * digits - 1)))


def clamp(v: int, lo: int, hi: int) -> int:
    """v clamped to [lo, hi]."""
    return max(lo, min(v, hi))


def hsv(n: int, i: int) -> Colour:
    """Entry i of matplotlib's get_cmap("hsv", n) as bytes, floor(v * 255 + 0.5): the viewers' colour tables."""
    import matplotlib.pyplot as plt

    return tuple(int(np.floor(v * 255 + 0.5)) for v in plt.get_cmap("hsv", n)(i)[:3])  # type: ignore[return-value]


def state_values(blob: bytes, offset: int, count: int, fmt: str = "i") -> list[Any]:
    """`count` little-endian values from a state blob, `offset` bytes after the env's 8-byte key."""
    return list(struct.unpack_from(f"<{count}{fmt}", blob, 8 + offset))


# --- the documented pictures ------------------------------------------------------------------------------

MINE_COUNT_COLOURS: list[Colour] = [(255, 165, 0), (0, 0, 255), (0, 128, 0), (255, 0, 0), (128, 0, 128),
                                    (128, 0, 0), (0, 128, 128), (0, 0, 0), (128, 128, 128)]


def minesweeper(obs: Obs, blob: bytes) -> np.ndarray:
    """White squares on black lines; an explored mine black; an explored safe square its count, coloured."""
    board = obs["board"]
    rows, cols = board.shape
    mines = set(state_values(blob, 4 * (rows * cols + 1), int(obs["num_mines"])))
    size = clamp(480 // max(rows, cols), 2, 48)
    gap = 1 if size >= 8 else 0
    pic = Picture(rows * size, cols * size, BLACK)
    for r in range(rows):
        for c in range(cols):
            v = int(board[r, c])
            mine = v != -1 and r * cols + c in mines
            pic.cell(size, r, c, BLACK if mine else WHITE, gap)
            if v != -1 and not mine:
                pic.cell_number(size, r, c, v, MINE_COUNT_COLOURS[v])
    return pic.a


def sudoku(obs: Obs, blob: bytes) -> np.ndarray:
    """White squares on black lines (4 pixels round the boxes), each digit board + 1 in black."""
    board = obs["board"]
    size = 48
    pic = Picture(9 * size, 9 * size, BLACK)
    for r in range(9):
        for c in range(9):
            pic.cell(size, r, c, WHITE, 1)
            if board[r, c] >= 0:
                pic.number((c + 0.5) * size, (r + 0.5) * size, int(board[r, c]) + 1, size // 10, BLACK)
    for k in range(0, 10, 3):
        pic.rect(k * size - 2, 0, k * size + 2, 9 * size, BLACK)
        pic.rect(0, k * size - 2, 9 * size, k * size + 2, BLACK)
    return pic.a


def hex_colour(text: str) -> Colour:
    """'#rrggbb' as a colour."""
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


TILE_COLOURS = [hex_colour(t) for t in (
    "#ccc0b3", "#eee4da", "#ede0c8", "#f59563", "#f59563", "#f67c5f", "#f65e3b", "#edcf72", "#edcc61", "#edc651",
    "#eec744", "#ecc22e", "#b784ab", "#b784ab", "#aa60a6")]


def game_2048(obs: Obs, blob: bytes) -> np.ndarray:
    """Tiles in the viewer's colours on #bbada0 lines, their values, the score on a strip below."""
    board = obs["board"]
    n = board.shape[0]
    size = 480 // n
    score = state_values(blob, 4 * (n * n + 1) + 4, 1, "f")[0]
    pic = Picture(n * size + 48, n * size, hex_colour("#bbada0"))
    for r in range(n):
        for c in range(n):
            e = int(board[r, c])
            pic.cell(size, r, c, TILE_COLOURS[e] if e < 15 else hex_colour("#f8251d"), max(1, size // 40))
            if 0 < e < 63:
                pic.cell_number(size, r, c, 2**e, hex_colour("#766d64" if e <= 2 else "#f9f6f2"))
    pic.rect(0, n * size, n * size, n * size + 48, hex_colour("#faf8ef"))
    pic.number(n * size / 2.0, n * size + 24, int(min(score, 1e18)), 4, hex_colour("#766d64"))
    return pic.a


def sliding_tile_puzzle(obs: Obs, blob: bytes) -> np.ndarray:
    """Tiles white to blue by number on black lines, their numbers in black, the empty square #ccc0b3."""
    puzzle = obs["puzzle"]
    g = puzzle.shape[0]
    size = clamp(480 // g, 2, 96)
    pic = Picture(g * size, g * size, BLACK)
    for r in range(g):
        for c in range(g):
            v = int(puzzle[r, c])
            shade = 255 - min(255, 256 * v // (g * g - 1))
            pic.cell(size, r, c, hex_colour("#ccc0b3") if v == 0 else (shade, shade, 255), 1 if size >= 8 else 0)
            if v:
                pic.cell_number(size, r, c, v, BLACK)
    return pic.a


def tetris(obs: Obs, blob: bytes) -> np.ndarray:
    """The tetromino on four light grey rows above the grid; pieces coloured by number on black lines."""
    rows, cols = obs["grid"].shape
    padded = np.array(state_values(blob, 0, (rows + 3) * (cols + 3))).reshape(rows + 3, cols + 3)
    assert np.array_equal(np.minimum(padded[:rows, :cols], 1), obs["grid"])
    size = clamp(480 // max(rows + 4, cols), 2, 32)
    gap = 1 if size >= 8 else 0

    def colour(v: int) -> Colour:
        return WHITE if v == 0 else hsv(11, v % 10)

    pic = Picture((rows + 4) * size, cols * size, BLACK)
    pic.rect(0, 0, cols * size, 4 * size, (230, 230, 230))
    for r in range(4):
        for c in range(cols):
            filled = c >= cols - 4 and obs["tetromino"][r, c - (cols - 4)] == 1
            pic.cell(size, r, c, colour(int(padded.max()) + 1) if filled else WHITE, gap)
    for r in range(rows):
        for c in range(cols):
            pic.cell(size, 4 + r, c, colour(int(padded[r, c])), gap)
    return pic.a


STICKER_COLOURS: list[Colour] = [(255, 255, 255), (0, 128, 0), (255, 0, 0), (0, 0, 255), (255, 165, 0), (255, 255, 0)]
NET_SLOTS = [(0, 1), (1, 1), (1, 2), (1, 3), (1, 0), (2, 1)]  # up, front, right, back, left, down


def rubiks_cube(obs: Obs, blob: bytes) -> np.ndarray:
    """The cube's net on black: up over front; left, front, right, back; down under front."""
    cube = obs["cube"]
    n = cube.shape[1]
    size = clamp(480 // (4 * n), 2, 40)
    pic = Picture(3 * n * size, 4 * n * size, BLACK)
    for f, (fr, fc) in enumerate(NET_SLOTS):
        for r in range(n):
            for c in range(n):
                pic.cell(size, fr * n + r, fc * n + c, STICKER_COLOURS[int(cube[f, r, c])], 1 if size >= 8 else 0)
    return pic.a


def flat_pack(obs: Obs, blob: bytes) -> np.ndarray:
    """Squares on black lines: white where empty, else the piece's pale hue and its number in #606060."""
    grid = obs["grid"]
    rows, cols = grid.shape
    blocks = obs["blocks"].shape[0]
    size = clamp(480 // max(rows, cols), 2, 40)
    pic = Picture(rows * size, cols * size, BLACK)
    for r in range(rows):
        for c in range(cols):
            v = int(grid[r, c])
            pale = tuple((7 * x + 3 * 255 + 5) // 10 for x in hsv(blocks + 1, (v - 1) % blocks)) if v else WHITE
            pic.cell(size, r, c, pale, 1)  # type: ignore[arg-type]
            if v:
                pic.cell_number(size, r, c, v, (0x60, 0x60, 0x60))
    return pic.a


Painter = Callable[[Obs, bytes], np.ndarray]

# task id, options, the picture, a change to the observation the picture must show.
CASES: list[tuple[str, dict[str, Any], Painter, Callable[[Obs], None]]] = [
    ("Minesweeper-v0", {}, minesweeper, lambda o: o["board"].__setitem__((0, 0), (o["board"][0, 0] + 2) % 9)),
    ("Minesweeper-v0", {"num_rows": 6, "num_cols": 13, "num_mines": 9}, minesweeper,
     lambda o: o["board"].__setitem__((5, 12), (o["board"][5, 12] + 2) % 9)),
    ("Sudoku-v0", {}, sudoku, lambda o: o["board"].__setitem__((4, 4), (o["board"][4, 4] + 2) % 9)),
    ("Game2048-v1", {}, game_2048, lambda o: o["board"].__setitem__((3, 3), o["board"][3, 3] + 1)),
    ("Game2048-v1", {"board_size": 6}, game_2048, lambda o: o["board"].__setitem__((0, 5), o["board"][0, 5] + 3)),
    ("SlidingTilePuzzle-v0", {}, sliding_tile_puzzle, lambda o: o["puzzle"].__setitem__((0, 0), o["puzzle"][0, 1])),
    ("Tetris-v0", {}, tetris, lambda o: o["tetromino"].__setitem__((3, 3), 1 - o["tetromino"][3, 3])),
    ("Tetris-v0", {"num_rows": 8, "num_cols": 6}, tetris,
     lambda o: o["tetromino"].__setitem__((0, 0), 1 - o["tetromino"][0, 0])),
    ("RubiksCube-v0", {}, rubiks_cube, lambda o: o["cube"].__setitem__((3, 2, 1), (o["cube"][3, 2, 1] + 1) % 6)),
    ("RubiksCube-v0", {"cube_size": 2}, rubiks_cube,
     lambda o: o["cube"].__setitem__((5, 1, 1), (o["cube"][5, 1, 1] + 1) % 6)),
    ("FlatPack-v0", {}, flat_pack, lambda o: o["grid"].__setitem__((10, 10), o["grid"][10, 10] % 25 + 1)),
]
IDS = [f"{task}-{'-'.join(f'{k}{v}' for k, v in options.items()) or 'default'}" for task, options, *_ in CASES]


def legal_action(space: Any, mask: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    """One env's random action that its action_mask allows (any action of `space` where there is no mask)."""
    choices = np.argwhere(mask) if mask is not None else []
    if len(choices) == 0:
        return np.asarray(space.sample())
    return np.asarray(choices[rng.integers(len(choices))], np.int64).reshape(space.shape)


def actions(env: Any, obs: Any, rng: np.random.Generator) -> np.ndarray:
    """A random legal action for each env of the pool."""
    masks = obs.get("action_mask")
    return np.stack([legal_action(env.single_action_space, None if masks is None else np.asarray(masks[i]), rng)
                     for i in range(env.num_envs)])


def first(obs: Any) -> Obs:
    """Env 0's observation fields as (writable) numpy arrays."""
    return {k: np.array(v[0]) for k, v in obs.items()}


def frames_of_a_game(task: str, options: dict[str, Any], steps: int, seed: int = 3) -> list[tuple[Obs, bytes,
                                                                                               np.ndarray]]:
    """(observation, state bytes, frame) after reset and after each of `steps` random legal steps."""
    env = rlpool.make(task, num_envs=1, seed=seed, render_mode="rgb_array", **options)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    seen = [(first(obs), env.get_state(0), np.asarray(env.render())[0])]
    for _ in range(steps):
        obs, *_ = env.step(actions(env, obs, rng))
        seen.append((first(obs), env.get_state(0), np.asarray(env.render())[0]))
    env.close()
    return seen


@pytest.mark.parametrize(("task", "options", "painter", "plant"), CASES, ids=IDS)
def test_frames_show_the_state(task: str, options: dict[str, Any], painter: Painter,
                               plant: Callable[[Obs], None]) -> None:
    """Every frame of a short random game equals the documented picture of its observation."""
    seen = frames_of_a_game(task, options, steps=8)
    spec = rlpool.make_spec(task, num_envs=1, render_mode="rgb_array", **options)
    for obs, blob, frame in seen:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        expected = painter(obs, blob)
        assert frame.shape == expected.shape
        bad = np.argwhere(np.any(frame != expected, axis=2))
        assert len(bad) == 0, f"{task}: {len(bad)} pixels differ, first at (y, x) = {tuple(bad[0])}"
    assert seen[-1][2].shape[:2] == (spec.config["render_height"], spec.config["render_width"])
    obs, blob, frame = seen[-1]
    plant(obs)
    assert not np.array_equal(painter(obs, blob), frame), "a changed observation must change the picture"


def test_minesweeper_shows_an_explored_mine() -> None:
    """Stepping on a mine turns its square black (the ending a random game of unexplored squares may skip)."""
    env = rlpool.make("Minesweeper-v0", num_envs=1, seed=11, render_mode="rgb_array", max_episode_steps=1000)
    obs, _ = env.reset()
    blob = env.get_state(0)
    mine = state_values(blob, 4 * (100 + 1), 10)[0]
    obs, _, terminated, *_ = env.step(np.array([[mine // 10, mine % 10]]))
    assert terminated[0]
    frame = np.asarray(env.render())[0]
    assert np.array_equal(frame, minesweeper(first(obs), env.get_state(0)))
    centre = frame[(mine // 10) * 48 + 24, (mine % 10) * 48 + 24]
    assert tuple(centre) == BLACK
    env.close()


@pytest.mark.parametrize("task", sorted({task for task, *_ in CASES}))
def test_rendering_leaves_the_observations(task: str) -> None:
    """The same seed and actions give the same observations with and without render_mode; frames repeat."""
    plain = rlpool.make(task, num_envs=2, seed=9)
    drawn = rlpool.make(task, num_envs=2, seed=9, render_mode="rgb_array")
    rng = np.random.default_rng(1)
    a, _ = plain.reset()
    b, _ = drawn.reset()
    for _ in range(6):
        frames = np.asarray(drawn.render(env_ids=[0, 1]))
        assert frames.shape[0] == 2 and np.array_equal(frames, np.asarray(drawn.render(env_ids=[0, 1])))
        for k in a:
            assert np.array_equal(a[k], b[k])
        action = actions(drawn, a, rng)
        a, *_ = plain.step(action)
        b, *_ = drawn.step(action)
    plain.close()
    drawn.close()
