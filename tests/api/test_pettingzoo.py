"""The PettingZoo faces (rlpool.make_pettingzoo) pass PettingZoo 1.27's own API, seed and max-cycles tests.

Every multi-agent task is covered (found in the registry, so a new family is picked up with no edit here):
the AEC face and the Parallel face each pass api_test / parallel_api_test and seed_test. PettingZoo's
max_cycles_test samples any action, and a turn-based game ends at the first illegal one (pgx's penalty),
so there it is checked with legal moves instead: every agent moves max_cycles times, then the game is cut.
"""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest
from lane import FULL

import rlpool
from rlpool.registry import task

pettingzoo_test = pytest.importorskip("pettingzoo.test")


def _kind(task_id: str) -> tuple[bool, bool, bool]:
    """(multi-agent, turn-based, an ``action_mask`` observation) of one task, from its spec."""
    arrays = rlpool.make_spec(task_id).arrays
    return arrays.num_agents > 0, bool(arrays.turn_based), "action_mask" in arrays.obs_names


def _kinds() -> dict[str, tuple[bool, bool, bool]]:
    """(multi-agent, turn-based, an ``action_mask`` observation) of each task, from one spec per env type: an env
    type's arrays decide them, and a spec of each of the ~2,000 ids would add about 20 s to collecting the tests."""
    by_type: dict[str, tuple[bool, bool, bool]] = {}
    kinds = {}
    for task_id in rlpool.list_all_envs():
        env_type = task(task_id).env_type
        if env_type not in by_type:
            by_type[env_type] = _kind(task_id)
        kinds[task_id] = by_type[env_type]
    return kinds


KINDS = _kinds()
MULTI = [t for t, (multi, _, _) in KINDS.items() if multi]
TURN = [t for t in MULTI if KINDS[t][1]]
SIMULTANEOUS = [t for t in MULTI if t not in TURN]
MASKED = [t for t in SIMULTANEOUS if KINDS[t][2]]
"""Simultaneous tasks with an ``action_mask`` observation: an illegal action may end their episodes (Jumanji's
Cleaner), so their max_cycles are checked with legal actions."""


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's tests warn about observations it finds odd (all-zero planes at a game's start).
    warnings.filterwarnings("ignore", category=UserWarning, module="pettingzoo")


def test_each_task_is_of_its_env_types_kind():
    """The classification by env type holds: for the multi-agent tasks by default; for every task in the full
    lane (RLPOOL_FULL_REFERENCE=1, CI), which also catches a multi-agent id of a type first probed single-agent."""
    for task_id in rlpool.list_all_envs() if FULL else MULTI:
        assert KINDS[task_id] == _kind(task_id), task_id


@pytest.mark.parametrize("task_id", MULTI)
def test_api(task_id: str) -> None:
    env = rlpool.make_pettingzoo(task_id, parallel=False)
    pettingzoo_test.api_test(env, num_cycles=100)
    env.close()
    par = rlpool.make_pettingzoo(task_id, parallel=True)
    pettingzoo_test.parallel_api_test(par, num_cycles=100)
    par.close()


@pytest.mark.parametrize("task_id", MULTI)
def test_seed(task_id: str) -> None:
    pettingzoo_test.seed_test(lambda: rlpool.make_pettingzoo(task_id, parallel=False), num_cycles=100)
    pettingzoo_test.parallel_seed_test(lambda: rlpool.make_pettingzoo(task_id, parallel=True), num_cycles=100)


@pytest.mark.parametrize("task_id", [t for t in SIMULTANEOUS if t not in MASKED])
def test_max_cycles(task_id: str) -> None:
    mod = types.SimpleNamespace(
        env=lambda max_cycles: rlpool.make_pettingzoo(task_id, parallel=False, max_cycles=max_cycles),
        parallel_env=lambda max_cycles: rlpool.make_pettingzoo(task_id, parallel=True, max_cycles=max_cycles),
    )
    pettingzoo_test.max_cycles_test(mod)


@pytest.mark.parametrize("task_id", MASKED)
def test_max_cycles_with_legal_actions(task_id: str) -> None:
    """Legal actions (from each agent's action_mask) until the episode ends: at max_cycles steps, every agent
    truncated, unless the game ended it before (every agent terminated)."""
    rng = np.random.default_rng(0)
    for max_cycles in (1, 4):
        env = rlpool.make_pettingzoo(task_id, parallel=True, max_cycles=max_cycles)
        obs, _ = env.reset(seed=1)
        steps, terminated, truncated = 0, {}, {}
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if obs[a]["action_mask"].any()
                       else 0 for a in env.agents}
            obs, _, terminated, truncated, _ = env.step(actions)
            steps += 1
        assert steps == max_cycles and all(truncated.values()) or steps < max_cycles and all(terminated.values())
        env.close()


def _play_legal(env, max_cycles: int, rng: np.random.Generator) -> np.ndarray:
    env.reset(seed=1)
    counts = np.zeros(len(env.possible_agents), int)
    for agent in env.agent_iter():
        counts[env.possible_agents.index(agent)] += 1
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return counts


@pytest.mark.parametrize("task_id", [t for t in TURN if t in ("Go9x9-v1", "Chess-v1", "TicTacToe-v1", "Othello-v1")])
def test_max_cycles_turn_based(task_id: str) -> None:
    """max_cycles cycles of legal moves, then every agent's dead step: as max_cycles_test counts them."""
    rng = np.random.default_rng(0)
    cycles = 2
    env = rlpool.make_pettingzoo(task_id, parallel=False, max_cycles=cycles)
    counts = _play_legal(env, cycles, rng)  # no game of these ends within 2 moves per player
    assert (counts == cycles + 1).all() and env.agents == []


def test_single_agent_task_refused() -> None:
    with pytest.raises(ValueError, match="single-agent"):
        rlpool.make_pettingzoo("CartPole-v1")


@pytest.mark.parametrize("task_id", TURN[:1])
def test_bad_actions(task_id: str) -> None:
    env = rlpool.make_pettingzoo(task_id)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not None"):
        env.step(None)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10**6)
    par = rlpool.make_pettingzoo(task_id, parallel=True)
    par.reset(seed=0)
    with pytest.raises(ValueError, match="missing"):
        par.step({})
    with pytest.raises(ValueError, match="unknown"):
        par.step({a: 0 for a in par.agents} | {"nobody": 0})
    with pytest.raises(ValueError, match="fixed"):
        rlpool.make_pettingzoo(task_id, num_envs=2)
    with pytest.raises(ValueError, match="max_cycles"):
        rlpool.make_pettingzoo(task_id, max_cycles=0)


def test_illegal_move_ends_game_with_penalty() -> None:
    """pgx's rule: an illegal move ends the game, the mover gets -1 and the other player +1."""
    env = rlpool.make_pettingzoo("TicTacToe-v1")
    env.reset(seed=0)
    first = env.agent_selection
    env.step(4)
    second = env.agent_selection
    env.step(4)  # taken
    assert env.terminations == {first: True, second: True}
    assert env.rewards == {first: 1.0, second: -1.0}


def test_vector_face_checks_the_agent_axis() -> None:
    """The vector face of a simultaneous env takes [num_envs, num_agents] actions and names a bad one."""
    env = rlpool.make_gymnasium("MarlGrid-3AgentEmpty9x9-v0", num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
        env.step(np.zeros((2, 2), np.int64))  # a wrong agent count
    with pytest.raises(ValueError, match="env 1, agent 2"):
        env.step(np.array([[0, 0, 0], [0, 0, 7]]))
    obs, reward, terminated, truncated, _ = env.step(np.zeros((2, 3), np.int64))
    assert obs.shape[:2] == (2, 3) and reward.shape == terminated.shape == truncated.shape == (2, 3)
    env.close()
