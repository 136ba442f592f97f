"""rlpool's MARLGrid beside EnvPool 1.2.7's envpool.marlgrid, run in a child Python (marlgrid_reference.py).

The RNGs differ, so EnvPool's levels are copied in: (a) every id's EnvPool episodes -- the reset's grid (from
its full-matrix twin), agent positions and directions written into rlpool with ``set_state`` -- are replayed
with EnvPool's actions, comparing every agent's pixel observation bit for bit, every reward, per-agent done
flag, position, direction and the episode's end, to the time limit. Two things EnvPool does not show are left
open: which of several agents that stepped onto one cell in the same step (their order is drawn) is drawn
there -- a viewer's frame is not compared while two other agents share a cell -- and Goalcycle's bonus tile
ids, for which every order is tried and one must reproduce the whole episode. (b) Generation: over 600
resets of each kind of level, the agents' start cells and directions, the clutter's count and cells and the
goal/bonus cells have EnvPool's distributions (chi-square), a check shown to catch an off-by-one placement.
Skips, naming it, without EnvPool 1.2.7's Python.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from lane import FULL, require
from marlgrid_reference import bonus_ids, chi2_two_sample, envpool_missing, grid_kinds, run_envpool_jobs, state_blob

import rlpool

require(envpool_missing())  # skips the module where EnvPool 1.2.7 cannot run (fails it in CI)

IDS = ("MarlGrid-1AgentCluttered15x15-v0", "MarlGrid-3AgentCluttered11x11-v0", "MarlGrid-3AgentCluttered15x15-v0",
       "MarlGrid-2AgentEmpty9x9-v0", "MarlGrid-3AgentEmpty9x9-v0", "MarlGrid-4AgentEmpty9x9-v0",
       "Goalcycle-demo-solo-v0")
NOOP = 4  # drop: nothing to drop
EPISODES = 48 if FULL else 6  # per id
OPTION_EPISODES = 16 if FULL else 4  # per case
RESETS = 2000 if FULL else 600
GENERATION_IDS = ("MarlGrid-3AgentCluttered11x11-v0", "MarlGrid-1AgentCluttered15x15-v0",
                  "MarlGrid-4AgentEmpty9x9-v0", "Goalcycle-demo-solo-v0")
# EnvPool's other options: a random goal, no ghosts, a view offset, respawns, other tile sizes, prestige
# colours, Goalcycle's penalties and cycle rules, and the matrix observations.
OPTION_CASES: dict[str, tuple[str, int, dict]] = {
    "no ghosts": ("MarlGrid-3AgentEmpty9x9-v0", 5, {"randomize_goal": True, "ghost_mode": False, "view_offset": 2}),
    "respawn": ("MarlGrid-2AgentEmpty9x9-v0", 6, {"respawn": True, "view_tile_size": 12}),
    "goalcycle rules": ("Goalcycle-demo-solo-v0", 7, {"bonus_penalty": -0.5, "reset_on_mistake": True,
                                                      "initial_reward": False, "reward_decay": True,
                                                      "prestige_coloring": True}),
    "matrix": ("MarlGrid-3AgentCluttered11x11-v0", 8, {"observation_format": "matrix"}),
    "full matrix": ("MarlGrid-2AgentEmpty9x9-v0", 9, {"observation_format": "full_matrix"}),
}


def _agents(task_id: str) -> int:
    pool = rlpool.make(task_id, num_envs=1)
    try:
        return pool.spec.arrays.num_agents
    finally:
        pool.close()


def _episode_job(task_id: str, n: int, seed: int, options: dict) -> dict:
    actions = _actions(np.random.default_rng(seed), 100, n, _agents(task_id))
    return {"task": task_id, "num_envs": n, "seed": seed, "actions": actions, "options": options}


@functools.cache
def _reference() -> dict[str, dict]:
    """Every EnvPool run this module compares with, made by one child (EnvPool's import takes seconds)."""
    jobs = {f"episodes {t}": _episode_job(t, EPISODES, 11, {}) for t in IDS}
    jobs.update({case: _episode_job(t, OPTION_EPISODES, seed, o) for case, (t, seed, o) in OPTION_CASES.items()})
    jobs.update({f"levels {t}": {"task": t, "num_envs": RESETS, "seed": 3} for t in GENERATION_IDS})
    results = run_envpool_jobs(jobs)
    for name, job in jobs.items():
        results[name]["actions"] = job.get("actions")
    return results


def _actions(rng: np.random.Generator, steps: int, n: int, agents: int) -> np.ndarray:
    """Mostly forward and turns (so that goals and bonus tiles are reached), now and then the no-op actions."""
    p = np.array([0.2, 0.2, 0.5, 0.025, 0.025, 0.025, 0.025])
    return rng.choice(7, size=(steps, n, agents), p=p)


def _shared(pos: np.ndarray, active: np.ndarray, viewer: int) -> bool:
    """Whether two active agents other than ``viewer`` share a cell (whose frame then depends on a drawn order)."""
    cells = [tuple(p) for a, p in enumerate(pos) if a != viewer and active[a]]
    return len(cells) != len(set(cells))


def _contended(pos: np.ndarray, dirs: np.ndarray, action: np.ndarray, active: np.ndarray) -> bool:
    """Whether, without ghosts, the drawn order of moves may decide a step: two agents step towards one cell,
    or one towards a cell whose agent may step away first."""
    vec = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]])
    movers = [a for a in range(len(pos)) if active[a] and action[a] == 2]
    targets = [tuple(pos[a] + vec[dirs[a]]) for a in movers]
    leaving = {tuple(pos[a]) for a in movers}
    return len(set(targets)) < len(targets) or any(t in leaving for t in targets)


def pool_state_from(pool, i: int, k: int, kinds: np.ndarray, order: tuple[int, ...], ref: dict, t: int) -> None:
    """Rows i * k .. of ``pool`` set to EnvPool's episode ``i`` after step ``t`` (no bonus progress, no prestige)."""
    blob = state_blob(kinds, bonus_ids(kinds, order), ref["pos"][t, i], ref["dir"][t, i], active=ref["active"][t, i],
                      done=ref["done"][t, i], step_count=t + 1)
    for row in range(i * k, (i + 1) * k):
        pool.set_state(row, blob)


def replay(task_id: str, ref: dict, seed: int, **options) -> dict[str, int]:
    """EnvPool's episodes ``ref`` of ``task_id`` replayed in rlpool from the same levels; asserts they agree."""
    actions = ref["actions"]
    steps, n, agents = actions.shape
    kinds = grid_kinds(ref["full"])
    n_bonus = int((kinds[0] == 4).sum())
    orders = list(itertools.permutations(range(n_bonus))) if n_bonus else [()]
    k = len(orders)
    pool = rlpool.make(task_id, num_envs=n * k, seed=seed, **options)
    pool.reset()
    for i in range(n):
        for j, order in enumerate(orders):
            pool.set_state(i * k + j, state_blob(kinds[i], bonus_ids(kinds[i], order), ref["pos0"][i], ref["dir0"][i]))
    ok = np.ones((n, k), dtype=bool)  # per EnvPool episode: the bonus orders that still agree
    live = np.ones(n, dtype=bool)
    respawn = bool(options.get("respawn"))
    ghosts = bool(options.get("ghost_mode", True))
    stats = {"steps": 0, "frames": 0, "skipped_frames": 0, "rewards": 0, "agents_done": 0, "episodes": 0,
             "contended": 0}
    for t in range(steps):
        obs, reward, term, trunc, info = pool.step(np.repeat(actions[t], k, axis=0))
        for i in np.flatnonzero(live):
            rows = slice(i * k, (i + 1) * k)
            where = f"{task_id} env {i} step {t + 1}"
            pos, active = ref["pos"][t, i], ref["active"][t, i]
            ref_over = bool(ref["terminated"][t, i] or ref["truncated"][t, i])
            over = (term[rows] | trunc[rows]).all(axis=1)
            # A respawn draws a new cell, and without ghosts two agents may want one cell (the drawn order
            # decides who gets it): rlpool is then given EnvPool's state after the step. A contended step is
            # not compared; at a respawn the rewards and flags are.
            before = (ref["pos0"][i], ref["dir0"][i]) if t == 0 else (ref["pos"][t - 1, i], ref["dir"][t - 1, i])
            contended = not ghosts and _contended(*before, actions[t, i], ref["active"][t - 1, i] if t else active)
            resync = contended or (respawn and bool((ref["reward"][t, i] != 0).any()))
            stats["contended"] += contended
            if not contended:
                for a in range(agents):
                    if resync or _shared(pos, active, a):
                        stats["skipped_frames"] += 1
                        continue
                    stats["frames"] += 1
                    ok[i] &= (obs[rows, a] == ref["obs"][t, i, a]).all(axis=(1, 2, 3))
                assert ok[i].any(), f"{where}: an observation differs"
                ok[i] &= (reward[rows].astype(np.float32) == ref["reward"][t, i]).all(axis=1)
                assert ok[i].any(), f"{where}: rewards {reward[rows][0]} != {ref['reward'][t, i]}"
                checks = [("done", term[rows]), ("active", info["agent_active"][rows])]
                if not resync:
                    checks += [("pos", info["agent_pos"][rows]), ("dir", info["agent_dir"][rows])]
                for name, ours in checks:
                    theirs = ref[name][t, i]
                    assert (ours == theirs).all(), f"{where}: {name} {ours[0]} != {theirs}"
                assert (over == ref_over).all(), f"{where}: the episode's end differs"
                stats["steps"] += 1
                stats["rewards"] += int((ref["reward"][t, i] != 0).sum())
            if ref_over or over.any():  # (rlpool's may end at a contended step that EnvPool's outlives)
                live[i] = False
                stats["episodes"] += 1
                stats["agents_done"] += int(ref["done"][t, i].sum())
            elif resync:
                pool_state_from(pool, i, k, kinds[i], orders[0], ref, t)
        if not live.any():
            break
    pool.close()
    assert stats["episodes"] == n
    return stats


@pytest.mark.parametrize("task_id", IDS)
def test_episodes_match_envpool(task_id: str) -> None:
    stats = replay(task_id, _reference()[f"episodes {task_id}"], seed=11)
    assert stats["skipped_frames"] <= 0.1 * stats["frames"] + 5
    assert stats["rewards"] > 0  # goals (bonus tiles) were reached: the reward rules were exercised


@pytest.mark.parametrize("case", OPTION_CASES)
def test_options_match_envpool(case: str) -> None:
    task_id, seed, options = OPTION_CASES[case]
    stats = replay(task_id, _reference()[case], seed, **options)
    if case == "respawn":
        assert stats["rewards"] > 0 and stats["agents_done"] == 0
    if case == "no ghosts":
        assert stats["contended"] < 0.2 * stats["steps"]


def _levels(task_id: str, ref: dict, n: int, seed: int) -> tuple[np.ndarray, ...]:
    """(kinds [n, y, x], pos [n, A, 2], dir [n, A]) of EnvPool's resets, then the same of rlpool's."""
    pool = rlpool.make(task_id, num_envs=n, seed=seed, observation_format="full_matrix")
    obs, info = pool.reset()
    pool.close()
    ours = grid_kinds(obs[:, 0]), info["agent_pos"], info["agent_dir"]
    return grid_kinds(ref["full"]), ref["pos0"], ref["dir0"], *ours


def _cells(pos: np.ndarray, size: int) -> np.ndarray:
    return np.bincount((pos[..., 1] * size + pos[..., 0]).ravel(), minlength=size * size)


@pytest.mark.parametrize("task_id", GENERATION_IDS)
def test_generation_matches_envpool(task_id: str) -> None:
    n = RESETS
    ref = _reference()[f"levels {task_id}"]
    k_ref, p_ref, d_ref, k_ours, p_ours, d_ours = _levels(task_id, ref, n, seed=3)
    size = k_ref.shape[-1]
    # Exact: the border, the clutter count, the goal or bonus count, agents only on free cells.
    for kinds, pos in ((k_ref, p_ref), (k_ours, p_ours)):
        for kind in (1, 2, 4):
            counts = (kinds == kind).sum(axis=(1, 2))
            assert (counts == counts[0]).all(), f"kind {kind} counts vary: {np.unique(counts)}"
        flat = kinds.reshape(n, -1)
        under = np.take_along_axis(flat, pos[..., 1] * size + pos[..., 0], axis=1)
        assert (under == 0).all()
    assert ((k_ref == 1).sum(axis=(1, 2)) == (k_ours == 1).sum(axis=(1, 2))).all()
    pvalues = {
        "start cells": chi2_two_sample(_cells(p_ref, size), _cells(p_ours, size)),
        "directions": chi2_two_sample(np.bincount(d_ref.ravel(), minlength=4),
                                      np.bincount(d_ours.ravel(), minlength=4)),
        "walls": chi2_two_sample((k_ref == 1).sum(0).ravel(), (k_ours == 1).sum(0).ravel()),
        "goals and bonus tiles": chi2_two_sample(((k_ref == 2) | (k_ref == 4)).sum(0).ravel(),
                                                 ((k_ours == 2) | (k_ours == 4)).sum(0).ravel()),
    }
    for name, p in pvalues.items():
        assert p > 1e-3, f"{task_id}: {name} differ from EnvPool's (chi-square p = {p:.2g})"
    # Power: the same test refuses starts that never use the first inner column (an off-by-one draw).
    shifted = p_ours.copy()
    shifted[..., 0] = np.where(shifted[..., 0] == 1, 2, shifted[..., 0])
    assert chi2_two_sample(_cells(p_ref, size), _cells(shifted, size)) < 1e-3


@pytest.mark.parametrize("task_id", GENERATION_IDS)
def test_reset_views_match_envpool(task_id: str) -> None:
    """Every agent's first view of EnvPool's levels, drawn by rlpool from them, bit for bit."""
    ref = _reference()[f"levels {task_id}"]
    kinds = grid_kinds(ref["full"])
    n, agents = ref["pos0"].shape[:2]
    pool = rlpool.make(task_id, num_envs=n, seed=0)
    pool.reset()
    for i in range(n):
        order = tuple(range(int((kinds[i] == 4).sum())))
        pool.set_state(i, state_blob(kinds[i], bonus_ids(kinds[i], order), ref["pos0"][i], ref["dir0"][i]))
    obs, *_ = pool.step(np.full((n, agents), NOOP))  # a no-op step: the views are the reset's
    pool.close()
    differ = (obs != ref["obs0"]).any(axis=(2, 3, 4))
    assert not differ.any(), f"{task_id}: {differ.sum()} of {differ.size} views differ, first {np.argwhere(differ)[0]}"
