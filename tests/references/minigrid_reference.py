"""Shared helpers of the Minigrid tests: rlpool against minigrid 3.2.0 from the same state, and generation stats.

``run_parity`` copies each minigrid episode's start state into rlpool (``rlpool.envs.minigrid.state``) and
plays the same actions in both, comparing observations, rewards, flags and the whole state (grid, agent,
carrying, step count, the env's variables) after every step. ``sample_resets`` draws start states of both
for the chi-square and reachability tests.
"""

from __future__ import annotations

import collections
import warnings

import gymnasium
import numpy as np
from scipy import stats

import rlpool
from rlpool.envs.minigrid import decode_mission
from rlpool.envs.minigrid.state import MinigridState, ObjectIds, from_minigrid, unpack

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import minigrid  # noqa: F401  (registers the MiniGrid-* ids)

# Forward-heavy, with enough pickups, drops and toggles to open doors, carry keys and finish episodes.
ACTION_P = np.array([0.14, 0.14, 0.4, 0.1, 0.06, 0.12, 0.04])


def minigrid_env(task_id: str, **kwargs):
    """minigrid's env for ``task_id`` (unwrapped: rlpool's limit is the env's own ``max_steps``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(task_id, **kwargs).unwrapped


def policy(genv, rng: np.random.Generator) -> int:
    """A random action, made useful where the cell in front asks for it (pick up a key, open a door)."""
    fx, fy = genv.front_pos
    fwd = genv.grid.get(fx, fy) if 0 <= fx < genv.width and 0 <= fy < genv.height else None
    if fwd is not None and rng.random() < 0.5 and genv.action_space.n > 5:
        if fwd.type in ("key", "ball", "box") and genv.carrying is None:
            return 3
        if fwd.type == "door" and not fwd.is_open:
            return 5
    n = int(genv.action_space.n)
    return int(rng.choice(n, p=ACTION_P[:n] / ACTION_P[:n].sum()))


def freeze_obstacles(genv) -> None:
    """DynamicObstacles' balls move by random draws each step: emptied obstacle list, they stay (the moves are
    tested by their distribution, ``test_minigrid.test_dynamic_obstacles_move_like_minigrid``)."""
    if hasattr(genv, "obstacles"):
        genv.obstacles = []


def run_parity(task_id: str, episodes: int, seed: int, state_every: int = 1, **options) -> dict:
    """Play ``episodes`` minigrid episodes in both from minigrid's start states; assert equality at every step.

    Step-time draws (DynamicObstacles' moves) cannot be the same on both sides: those are frozen here.
    The whole state is compared every ``state_every`` steps and at each episode's end.
    """
    genv = minigrid_env(task_id, **options)
    pool = rlpool.make(task_id, num_envs=1, autoreset_mode="Disabled", max_episode_steps=1 << 30, **options)
    rng = np.random.default_rng(seed)
    totals = collections.Counter()
    try:
        for episode in range(episodes):
            gobs, _ = genv.reset(seed=seed * 1000 + episode)
            freeze_obstacles(genv)
            pool.reset()
            ids = ObjectIds()  # the same numbers for minigrid's objects all episode
            pool.set_state(0, from_minigrid(genv, ids).pack())
            assert unpack(pool.get_state(0)) == from_minigrid(genv, ids)
            while True:
                action = policy(genv, rng)
                gobs, greward, gterm, gtrunc, _ = genv.step(action)
                obs, reward, term, trunc, _ = pool.step(np.array([action]))
                where = f"{task_id} episode {episode} step {genv.step_count} action {action}"
                np.testing.assert_array_equal(obs["image"][0], gobs["image"], err_msg=where)
                assert obs["direction"][0] == gobs["direction"], where
                assert decode_mission(obs["mission"][0]) == gobs["mission"], where
                assert reward[0] == float(greward), (where, reward[0], greward)
                assert (bool(term[0]), bool(trunc[0])) == (gterm, gtrunc), where
                totals["steps"] += 1
                if gterm or gtrunc or totals["steps"] % state_every == 0:
                    assert unpack(pool.get_state(0)) == from_minigrid(genv, ids), where
                if gterm or gtrunc:
                    totals["terminated" if gterm else "truncated"] += 1
                    totals["rewarded"] += greward > 0
                    break
    finally:
        pool.close()
    return dict(totals)


def rlpool_starts(task_id: str, n: int, seed: int, **options) -> list[MinigridState]:
    """``n`` start states of rlpool (n envs, one reset each)."""
    pool = rlpool.make(task_id, num_envs=n, seed=seed, **options)
    try:
        pool.reset()
        return [unpack(s) for s in pool.call("get_state")]
    finally:
        pool.close()


def minigrid_starts(task_id: str, n: int, seed: int, **options) -> list[MinigridState]:
    """``n`` start states of minigrid (one env, reset with seeds seed .. seed + n - 1)."""
    genv = minigrid_env(task_id, **options)
    out = []
    for i in range(n):
        genv.reset(seed=seed + i)
        out.append(from_minigrid(genv))
    return out


def features(s: MinigridState) -> dict[str, list]:
    """Categorical features of a start state: agent, mission, each object kind's positions and colours."""
    f: dict[str, list] = collections.defaultdict(list)
    f["agent"].append((*s.agent_pos, s.agent_dir))
    f["mission"].append(s.mission)
    f["carrying"].append(s.carrying[:2])
    f["vars"].append(tuple(s.vars))
    for y, row in enumerate(s.cells):
        for x, c in enumerate(row):
            if c[0] not in (1, 2):
                f[f"type{c[0]}"].append((x, y))
                f[f"type{c[0]}_color"].append((c[1], c[2], c[4], c[5]))
    f["walls"].append(sum(c[0] == 2 for row in s.cells for c in row))
    return f


def chi_square_p(a: list, b: list) -> float:
    """Two-sample chi-square p-value of two lists of categories (categories rarer than 5 in both pooled)."""
    ca, cb = collections.Counter(a), collections.Counter(b)
    keys = sorted(set(ca) | set(cb), key=repr)
    rows = [[ca[k], cb[k]] for k in keys]
    big = [r for r in rows if r[0] + r[1] >= 10]
    rest = [sum(r[0] for r in rows if r not in big), sum(r[1] for r in rows if r not in big)]
    if rest[0] + rest[1] > 0:
        big.append(rest)
    if len(big) < 2:
        return 1.0
    return float(stats.chi2_contingency(np.array(big)).pvalue)


# Env types whose variables are object ids (numbered differently on each side: not a distribution).
ID_VARS = {"MiniGridUnlockPickup", "MiniGridBlockedUnlockPickup", "MiniGridKeyCorridor", "MiniGridObstructedMaze1Dlhb",
           "MiniGridObstructedMazeFull", "MiniGridObstructedMazeFullV1"}


def compare_generation(ours: list[MinigridState], theirs: list[MinigridState], env_type: str = "") -> dict[str, float]:
    """Per feature, the chi-square p-value of rlpool's starts against minigrid's."""
    if env_type in ID_VARS:
        for s in (*ours, *theirs):
            s.vars = []
    fa: dict[str, list] = collections.defaultdict(list)
    fb: dict[str, list] = collections.defaultdict(list)
    for s in ours:
        for k, v in features(s).items():
            fa[k] += v
    for s in theirs:
        for k, v in features(s).items():
            fb[k] += v
    return {k: chi_square_p(fa.get(k, []), fb.get(k, [])) for k in sorted(set(fa) | set(fb))}


def goal_reachable(s: MinigridState) -> bool:
    """Whether a goal is reachable from the agent: walls and lava block; doors, objects and floor do not."""
    goals = {(x, y) for y, row in enumerate(s.cells) for x, c in enumerate(row) if c[0] == 8}
    if not goals:
        return True
    seen = {s.agent_pos}
    todo = [s.agent_pos]
    while todo:
        x, y = todo.pop()
        if (x, y) in goals:
            return True
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < s.width and 0 <= ny < s.height and (nx, ny) not in seen and s.cells[ny][nx][0] not in (2, 9):
                seen.add((nx, ny))
                todo.append((nx, ny))
    return False
