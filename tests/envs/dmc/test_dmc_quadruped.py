"""Quadruped escape's terrain: rlpool's C++ port of dm_control's bowl times smooth bumps.

dm_control upsamples uniform bumps with ``scipy.ndimage.zoom`` (cubic spline, prefilter, mode
'constant'); rlpool does the same in C++. The terrain is the heightfield, part of the env's state.
"""

from __future__ import annotations

import numpy as np
import pytest
from dmc_suite import require_suite

require_suite()  # before dmc_reference imports dm_control.suite: installed, or rlpool's copy

import dmc_reference as ref  # noqa: E402

ndimage = pytest.importorskip("scipy.ndimage")
stats = pytest.importorskip("scipy.stats")

import rlpool  # noqa: E402
from rlpool.envs.dmc.registration import task_id  # noqa: E402

RES = 201  # the heightfield's rows and columns
BUMP_RES = 30  # int(2 * hfield_size / _TERRAIN_BUMP_SCALE)
SMOOTHNESS = 0.15


def _bowl() -> np.ndarray:
    row, col = np.ogrid[-1 : 1 : RES * 1j, -1 : 1 : RES * 1j]
    radius = np.clip(np.sqrt(col**2 + row**2), 0.04, 1)
    return 0.5 - np.cos(2 * np.pi * radius) / 2


def _terrains(n: int, seed: int) -> np.ndarray:
    """Heightfields of ``n`` resets of rlpool's escape (the last entries of its state)."""
    env = rlpool.make_dm(task_id("quadruped", "escape"), num_envs=1, seed=seed)
    out = []
    try:
        for _ in range(n):
            env.reset()
            state = np.frombuffer(env.get_state(0), np.float64)
            out.append(state[-RES * RES :].reshape(RES, RES))
    finally:
        env.close()
    return np.array(out)


def test_terrain_is_scipy_zoom_of_bumps() -> None:
    """Each terrain is float32(bowl * a cubic spline surface on the 30 x 30 knot grid placed as zoom places
    it): zoom is linear and separable, zoom(B) = A B A^T with A the zoom of 1-D unit vectors, so B is
    recovered by least squares in a window and must reproduce the terrain. (The spline space does not
    depend on the prefilter; its amplitude is checked by the distribution test below.)"""
    a = np.stack([ndimage.zoom(np.eye(BUMP_RES)[k], RES / float(BUMP_RES)) for k in range(BUMP_RES)], axis=1)
    window = slice(110, 190)  # radius 0.1 .. 1.27: mostly well away from the flat centre
    knots = np.nonzero(np.abs(a[window]).max(axis=0) > 1e-3)[0]  # the prefilter reaches every knot, barely
    aw = a[window][:, knots]
    bowl = _bowl()[window, window]
    operator = np.kron(aw, aw) * bowl.ravel()[:, None]
    for terrain in _terrains(2, seed=5):
        t = terrain[window, window].ravel()
        bumps, *_ = np.linalg.lstsq(operator, t, rcond=None)
        again = (operator @ bumps).astype(np.float32)
        np.testing.assert_allclose(again, t, rtol=0, atol=1e-6)
        assert np.all(terrain[_bowl() == 0] == 0)
        # A knot in the middle of the window (pixel 150 is knot 21.75) is a uniform draw.
        middle = int(np.searchsorted(knots, 22)) * (len(knots) + 1)
        assert SMOOTHNESS - 1e-3 < bumps[middle] < 1 + 1e-3


def test_terrain_distribution_matches_dm_control() -> None:
    """Heightfield values at spread-out points over resets: rlpool vs dm_control (KS)."""
    n = 30  # an escape reset costs ~0.1 s on either side (contact search over the heightfield)
    ours = _terrains(n, seed=11)
    env = ref.load("quadruped", "escape", 0)
    theirs = []
    for _ in range(n):
        env.reset()
        theirs.append(np.asarray(env.physics.model.hfield_data, np.float64)[: RES * RES].reshape(RES, RES))
    theirs = np.array(theirs)
    points = [(i, j) for i in range(20, RES, 40) for j in range(20, RES, 40)]
    pvalues = [stats.ks_2samp(ours[:, i, j], theirs[:, i, j]).pvalue for i, j in points]
    # Pooled over the points (the same mixture on both sides) and point by point.
    pooled = stats.ks_2samp(
        np.concatenate([ours[:, i, j] for i, j in points]), np.concatenate([theirs[:, i, j] for i, j in points])
    ).pvalue
    assert pooled > 1e-3
    assert min(pvalues) > 1e-4
