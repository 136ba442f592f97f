"""The tests' Python copy of rlpool's C++ ``Rng`` (``tests/references/xoshiro.py``), checked on its own.

Reference envs draw rlpool's numbers through it, so a slip there would show as a mismatch blamed on an env.
Checked here: xoshiro256++'s published outputs for the words (1, 2, 3, 4); a normal pair drawn by one polar
loop, its second value returned by the next call without stepping; one draw per element, in C order, for
``random``, ``uniform``, ``normal``, ``integers`` and ``choice``; and numpy's shapes for sizes and broadcast
parameters.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from xoshiro import MASK, XoshiroGenerator

WORDS = (0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x0F1E2D3C4B5A6978, 0x8796A5B4C3D2E1F0)

PUBLISHED = [
    41943041, 58720359, 3588806011781223, 3591011842654386,
    9228616714210784205, 9973669472204895162, 14011001112246962877,
    12406186145184390807, 15849039046786891736, 10450023813501588000,
]
"""xoshiro256++'s first outputs from the words (1, 2, 3, 4), by the authors' C code (xoshiro.di.unimi.it)."""


def pair() -> tuple[XoshiroGenerator, XoshiroGenerator]:
    """Two generators at the same point of the same stream."""
    g = XoshiroGenerator(WORDS)
    return g, copy.deepcopy(g)


def test_published_outputs() -> None:
    g = XoshiroGenerator((1, 2, 3, 4))
    assert [g.next() for _ in range(len(PUBLISHED))] == PUBLISHED
    assert all(0 <= w <= MASK for w in g.s)


def test_a_normal_pair_is_one_polar_loop_and_the_second_is_cached() -> None:
    g, h = pair()
    while True:  # Rng::normal(), by hand
        u = 2.0 * h.random() - 1.0
        v = 2.0 * h.random() - 1.0
        s = u * u + v * v
        if 0.0 < s < 1.0:
            break
    f = math.sqrt(-2.0 * math.log(s) / s)
    assert g.normal() == u * f
    assert g.s == h.s
    assert g.standard_normal() == v * f  # the spare: no step
    assert g.s == h.s
    g.normal()
    assert g.s != h.s  # the next pair


def test_normal_with_loc_and_scale() -> None:
    g, h = pair()
    assert g.normal(3.0, 2.0) == 3.0 + 2.0 * h.normal()
    assert g.normal(loc=-1.0, scale=0.5) == -1.0 + 0.5 * h.normal()
    assert isinstance(g.normal(), float)


def test_normal_arrays_one_draw_per_element_in_c_order() -> None:
    g, h = pair()
    out = g.normal(size=(2, 3))
    assert out.shape == (2, 3) and out.dtype == np.float64
    assert out.ravel().tolist() == [h.normal() for _ in range(6)]
    assert g.normal(size=3).tolist() == [h.normal() for _ in range(3)]  # odd: the spare is left over
    assert g.s == h.s and g.normal() == h.normal()
    loc, scale = np.array([[0.0], [10.0]]), np.array([1.0, 2.0, 3.0])
    out = g.normal(loc, scale)  # size None: the parameters' broadcast shape
    assert out.shape == (2, 3)
    assert out.ravel().tolist() == [m + sd * h.normal() for m in (0.0, 10.0) for sd in (1.0, 2.0, 3.0)]
    out = g.normal(np.array([1.0, -1.0]), 2.0, size=(3, 2))
    assert out.ravel().tolist() == [m + 2.0 * h.normal() for _ in range(3) for m in (1.0, -1.0)]
    assert g.standard_normal(4).tolist() == [h.normal() for _ in range(4)]
    with pytest.raises(ValueError):
        g.normal(np.zeros(3), 1.0, size=(2,))


def test_uniform_scalars_as_before() -> None:
    g, h = pair()
    x = g.uniform(2.0, 5.0)
    assert isinstance(x, float) and x == 2.0 + 3.0 * h.random()
    assert isinstance(g.random(), float) and g.s != h.s
    h.random()
    assert g.uniform(-1, 1, size=4).tolist() == [-1 + 2 * h.random() for _ in range(4)]
    assert g.random((2, 2)).ravel().tolist() == [h.random() for _ in range(4)]


def test_uniform_broadcasts_arrays_one_draw_per_element_in_c_order() -> None:
    g, h = pair()
    low, high = np.array([-1, -2, 0]), np.array([1, 2, 3])
    out = g.uniform(low, high)
    assert out.shape == (3,) and out.dtype == np.float64
    assert out.tolist() == [lo + (hi - lo) * h.random() for lo, hi in zip(low.tolist(), high.tolist(), strict=True)]
    out = g.uniform(low, 5.0, size=(2, 3))
    assert out.shape == (2, 3)
    assert out.ravel().tolist() == [lo + (5.0 - lo) * h.random() for _ in range(2) for lo in low.tolist()]
    assert g.uniform(np.zeros((3, 1)), np.ones(4)).shape == (3, 4)
    assert isinstance(g.uniform(np.float64(1.0), 2.0), float)  # numpy scalars are scalars


def test_integers_and_choice_one_draw_per_pick() -> None:
    g, h = pair()
    x = g.integers(5)
    assert isinstance(x, np.int64) and x == h._integer(5)
    assert g.integers(-3, 3, size=(2, 2)).ravel().tolist() == [-3 + h._integer(6) for _ in range(4)]
    assert g.integers(1, 6, endpoint=True) == 1 + h._integer(6)
    a = [10, 20, 30]
    assert g.choice(a) == a[h._integer(3)]
    picks = g.choice(a, size=(2, 3))
    assert picks.shape == (2, 3)
    assert picks.tolist() == np.array(a)[h.integers(0, 3, size=(2, 3))].tolist()
    assert g.choice(7) == h.integers(0, 7)
    assert g.choice(7, size=5).tolist() == h.integers(0, 7, size=5).tolist()
    rows = np.arange(8).reshape(4, 2)
    assert g.choice(rows, size=3).tolist() == rows[h.integers(0, 4, size=3)].tolist()  # along the first axis
    assert g.s == h.s
    with pytest.raises(ValueError):
        g.choice([])
