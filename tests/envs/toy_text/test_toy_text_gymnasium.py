"""FrozenLake, Taxi, CliffWalking and Blackjack against gymnasium 1.x, step by step.

Every expected value comes from gymnasium: its transition tables ``env.P``
(checked exhaustively, every state and action), its envs stepped side by side
with rlpool's from the same state, and its SyncVectorEnv in each autoreset
mode. Where gymnasium draws at random (Taxi's start, a custom map's starts),
rlpool's draw is copied into gymnasium; Blackjack's cards are dealt to
gymnasium from rlpool's, so that gymnasium plays (and scores) the very same
hands. The distributions of those draws are tested in test_toy_text_stats.py.
"""

from __future__ import annotations

import gym_reference
import numpy as np
import pytest
from gymnasium.envs.toy_text import blackjack as gym_blackjack
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import rlpool

pytestmark = pytest.mark.timeout(120)

CUSTOM_DESC = "SFFHF,FHFFG,HFSFH"  # two start tiles: the start is drawn at random


# The reference env of an rlpool task: the current gymnasium's (or an older one's, for an older id).
gym_make = gym_reference.make


def pack(task_id: str, s: int) -> bytes:
    """rlpool's state bytes for gymnasium's ``env.unwrapped.s``."""
    if task_id.startswith("Taxi"):
        return np.array([s, 0], np.int64).tobytes()  # (s, fickle_step)
    return np.int64(s).tobytes()


def unpack(state: bytes) -> int:
    return int(np.frombuffer(state[:8], np.int64)[0])


def greedy_policy(P: dict, n_states: int, n_actions: int) -> np.ndarray:
    """Optimal actions for gymnasium's table (value iteration), so episodes reach their goals."""
    rows = [
        (s * n_actions + a, p, s2, r, t) for s in range(n_states) for a in range(n_actions) for p, s2, r, t in P[s][a]
    ]
    sa, p, s2, r, t = (np.array(c) for c in zip(*rows, strict=True))
    v = np.zeros(n_states)
    for _ in range(200):
        q = np.bincount(sa, p * (r + 0.95 * v[s2] * ~t.astype(bool)), minlength=n_states * n_actions)
        v = q.reshape(n_states, n_actions).max(axis=1)
    return q.reshape(n_states, n_actions).argmax(axis=1)


# --------------------------------------------------------------------------- the transition table

DETERMINISTIC = [
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake8x8-v1", {"is_slippery": False}),
    ("FrozenLake-v1", {"is_slippery": False, "desc": CUSTOM_DESC}),
    ("CliffWalking-v1", {}),
    ("CliffWalking-v0", {}),  # EnvPool's id: gymnasium's CliffWalking-v1
    ("Taxi-v4", {}),
    ("Taxi-v3", {}),  # gymnasium's Taxi-v4 without rain
]


@pytest.mark.parametrize(("task_id", "options"), DETERMINISTIC, ids=[f"{t}-{o}" for t, o in DETERMINISTIC])
def test_every_transition_matches_gymnasium_table(task_id, options):
    g = gym_make(task_id, **options).unwrapped
    n_s, n_a = g.observation_space.n, g.action_space.n
    env = rlpool.make(task_id, num_envs=n_s * n_a, **options)
    env.reset()
    states = np.repeat(np.arange(n_s), n_a)
    actions = np.tile(np.arange(n_a), n_s)
    for i, s in enumerate(states):
        env.set_state(i, pack(task_id, int(s)))
    obs, reward, term, trunc, info = env.step(actions)
    assert not trunc.any()
    for i, (s, a) in enumerate(zip(states, actions, strict=True)):
        [(p, s2, r, t)] = g.P[s][a]
        where = (task_id, options, int(s), int(a))
        assert (obs[i], reward[i], term[i], info["prob"][i]) == (s2, r, t, p), where
        assert unpack(env.get_state(i)) == s2, where
        if task_id.startswith("Taxi"):
            assert np.array_equal(info["action_mask"][i], g.action_mask(s2)), where
    env.close()


# --------------------------------------------------------------------------- trajectories


def run_parity(task_id: str, options: dict, *, steps: int, seed: int, max_episode_steps: int) -> dict:
    """Step gymnasium and rlpool side by side (NextStep autoreset); every returned value must match."""
    g = gym_make(task_id, max_episode_steps=max_episode_steps, **options)
    env = rlpool.make(task_id, num_envs=1, seed=seed, max_episode_steps=max_episode_steps, **options)
    u = g.unwrapped
    policy = greedy_policy(u.P, u.observation_space.n, u.action_space.n)
    rng = np.random.default_rng(seed)
    gobs, _ = g.reset(seed=seed)
    env.reset()
    env.set_state(0, pack(task_id, u.s))
    counts = {"terminated": 0, "truncated": 0, "reward": set()}
    up = {"FrozenLake": 3, "CliffWalking": 0, "Taxi": 1}[task_id.split("-")[0].replace("8x8", "")]
    eps = 0.3  # per episode: 0 (greedy), 0.3, 1 (random) or None ("up" only: never ends, so truncates)
    for t in range(steps):
        if eps is None:
            action = up
        else:
            action = int(rng.integers(u.action_space.n)) if rng.random() < eps else int(policy[gobs])
        gobs, greward, gterm, gtrunc, ginfo = g.step(action)
        obs, reward, term, trunc, info = env.step(np.array([action]))
        where = f"{task_id} {options} step {t} action {action}"
        assert obs.dtype == np.int64 and obs[0] == gobs, (where, obs[0], gobs)
        assert reward[0] == greward and bool(term[0]) == gterm and bool(trunc[0]) == gtrunc, where
        assert info["prob"][0] == ginfo["prob"], where
        if "action_mask" in ginfo:
            assert np.array_equal(info["action_mask"][0], ginfo["action_mask"]), where
            assert info["action_mask"].dtype == ginfo["action_mask"].dtype, where
        assert info["elapsed_step"][0] == g.get_wrapper_attr("_elapsed_steps"), where
        assert unpack(env.get_state(0)) == u.s, where
        counts["terminated"] += gterm
        counts["truncated"] += gtrunc
        counts["reward"].add(greward)
        if gterm or gtrunc:
            eps = [0.0, 0.3, 1.0, None][int(rng.integers(4))]
            gobs, ginfo = g.reset()
            # NextStep: this step returns rlpool's own reset
            obs, reward, term, trunc, info = env.step(np.array([action]))
            assert reward[0] == 0 and not term[0] and not trunc[0] and info["elapsed_step"][0] == 0, where
            assert info["prob"][0] == ginfo["prob"] == 1, where
            if len(u.initial_state_distrib.nonzero()[0]) == 1:  # a fixed start: it must be gymnasium's
                assert obs[0] == gobs, where
            else:  # a random start: one gymnasium could draw, then gymnasium continues from rlpool's
                assert u.initial_state_distrib[obs[0]] > 0, where
                u.s = int(obs[0])
                gobs = int(obs[0])
            if "action_mask" in ginfo:
                assert np.array_equal(info["action_mask"][0], u.action_mask(u.s)), where
    env.close()
    return counts


@pytest.mark.parametrize(("task_id", "options"), DETERMINISTIC, ids=[f"{t}-{o}" for t, o in DETERMINISTIC])
@pytest.mark.parametrize("max_episode_steps", [None, 20])
def test_trajectories_match_gymnasium(task_id, options, max_episode_steps):
    limit = max_episode_steps or rlpool.make_spec(task_id).max_episode_steps
    limit = min(limit, 100)  # CliffWalking has no limit: give both the same one
    counts = run_parity(task_id, options, steps=2500, seed=7, max_episode_steps=limit)
    assert counts["terminated"] >= 5 and counts["truncated"] >= 2, counts
    if task_id.startswith("FrozenLake"):
        assert counts["reward"] == {0.0, 1.0}
    if task_id.startswith("CliffWalking"):
        assert -100 in counts["reward"]  # fell off the cliff (and went back to the start) at least once
    if task_id.startswith("Taxi"):
        assert {-10, -1, 20} <= counts["reward"]


# --------------------------------------------------------------------------- autoreset modes vs SyncVectorEnv

N = 4
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
LOCKSTEP = [
    ("FrozenLake-v1", {"is_slippery": False}, 8),
    ("FrozenLake-v1", {"is_slippery": False, "desc": CUSTOM_DESC}, 6),
    ("CliffWalking-v1", {}, 20),
    ("Taxi-v4", {}, 20),
]


def gym_vec(task_id: str, options: dict, mode: AutoresetMode, limit: int) -> SyncVectorEnv:
    gvec = SyncVectorEnv([lambda: gym_make(task_id, max_episode_steps=limit, **options)] * N, autoreset_mode=mode)
    assert gvec.metadata["autoreset_mode"] == mode
    return gvec


def elapsed(gvec: SyncVectorEnv) -> np.ndarray:
    return np.array([e.get_wrapper_attr("_elapsed_steps") for e in gvec.envs])


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize(("task_id", "options", "limit"), LOCKSTEP, ids=[f"{t}-{o}" for t, o, _ in LOCKSTEP])
def test_autoreset_modes_match_sync_vector_env(task_id, options, limit, mode):
    gvec = gym_vec(task_id, options, mode, limit)
    env = rlpool.make(task_id, num_envs=N, seed=3, autoreset_mode=mode, max_episode_steps=limit, **options)
    assert env.metadata["autoreset_mode"] == mode
    units = [e.unwrapped for e in gvec.envs]
    fixed_start = len(units[0].initial_state_distrib.nonzero()[0]) == 1
    policy = greedy_policy(units[0].P, units[0].observation_space.n, units[0].action_space.n)
    rng = np.random.default_rng(3)

    def adopt(rows) -> None:
        """gymnasium continues from rlpool's (random) reset states on ``rows``."""
        for i in np.flatnonzero(rows):
            units[i].s = unpack(env.get_state(int(i)))

    gobs, _ = gvec.reset(seed=3)
    obs, info = env.reset()
    adopt(np.ones(N, bool))
    pending = np.zeros(N, bool)
    stats = dict.fromkeys(["terminated", "truncated", "final_obs", "masked_resets"], 0)
    for t in range(300):
        where = f"{task_id} {options} {mode.name} step {t}"
        if mode == AutoresetMode.DISABLED and pending.any():
            with pytest.raises(ValueError, match="Disabled"):
                env.step(np.zeros(N, np.int64))
            gobs, ginfo = gvec.reset(options={"reset_mask": pending.copy()})
            obs, info = env.reset(options={"reset_mask": pending.copy()})
            if fixed_start:
                assert np.array_equal(obs, gobs), where
            adopt(pending)
            assert np.array_equal(info["elapsed_step"], elapsed(gvec)), where
            stats["masked_resets"] += int(pending.sum())
            pending[:] = False
        current = np.array([unpack(env.get_state(i)) for i in range(N)])
        n_a = units[0].action_space.n
        actions = np.where(rng.random(N) < 0.25, rng.integers(n_a, size=N), policy[current]).astype(np.int64)
        gobs, greward, gterm, gtrunc, ginfo = gvec.step(actions)
        obs, reward, term, trunc, info = env.step(actions)
        done = gterm | gtrunc
        assert np.array_equal(reward, greward) and np.array_equal(term, gterm), where
        assert np.array_equal(trunc, gtrunc), where
        assert np.array_equal(info["elapsed_step"], elapsed(gvec)), where
        reset_rows = {AutoresetMode.NEXT_STEP: pending, AutoresetMode.SAME_STEP: done}.get(mode, np.zeros(N, bool))
        same = np.ones(N, bool) if fixed_start else ~reset_rows  # rows where both hold the same state
        assert np.array_equal(obs[same], gobs[same]), (where, obs, gobs)
        assert np.array_equal(info["prob"][same], ginfo["prob"][same]), where
        if "action_mask" in ginfo:
            assert np.array_equal(info["action_mask"][same], ginfo["action_mask"][same]), where
        assert ("final_obs" in info) == ("final_obs" in ginfo), where
        if "final_obs" in ginfo:
            assert np.array_equal(info["_final_obs"], ginfo["_final_obs"]), where
            for i in np.flatnonzero(done):
                assert info["final_obs"][i] == ginfo["final_obs"][i], where
                for key in ("prob", "action_mask"):
                    if key in ginfo["final_info"]:
                        assert np.array_equal(info["final_info"][key][i], ginfo["final_info"][key][i]), where
                stats["final_obs"] += 1
        adopt(reset_rows)
        pending = done.copy()
        stats["terminated"] += int(gterm.sum())
        stats["truncated"] += int(gtrunc.sum())
    assert stats["terminated"] >= 4 and stats["truncated"] >= 4, stats
    if mode == AutoresetMode.SAME_STEP:
        assert stats["final_obs"] >= 8
    if mode == AutoresetMode.DISABLED:
        assert stats["masked_resets"] >= 8
    gvec.close()
    env.close()


# --------------------------------------------------------------------------- Blackjack, card for card

DECK = gym_blackjack.deck


class DealtCards:
    """Stands in for a gymnasium Blackjack env's ``np_random``: it deals the queued cards in order."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def choice(self, items):
        if items is DECK:
            assert self.queue, "gymnasium drew a card rlpool did not"
            return self.queue.pop(0)
        return items[0]  # the dealer card's suit and face: cosmetic


def hands(state: bytes) -> tuple[list[int], list[int]]:
    """rlpool's Blackjack state: (count, 32 card slots) for the player, then the dealer."""
    b = list(state)
    return b[1 : 1 + b[0]], b[34 : 34 + b[33]]


def deal_order(state: bytes) -> list[int]:
    player, dealer = hands(state)
    return dealer[:2] + player[:2]  # gymnasium deals the dealer's hand first


def total(cards: list[int]) -> tuple[int, int]:
    return gym_blackjack.sum_hand(cards), gym_blackjack.usable_ace(cards)


@pytest.mark.parametrize(
    "options", [{}, {"sab": False, "natural": True}, {"sab": False, "natural": False}], ids=str
)
def test_blackjack_hands_play_out_as_in_gymnasium(options):
    g = gym_make("Blackjack-v1", **options)
    u = g.unwrapped
    env = rlpool.make("Blackjack-v1", num_envs=1, seed=11, **options)
    rng = np.random.default_rng(11)
    obs, _ = env.reset()
    g.reset(seed=0)
    u.player, u.dealer = hands(env.get_state(0))[0], hands(env.get_state(0))[1]
    dealt = DealtCards()
    u.np_random = dealt
    assert tuple(int(o[0]) for o in obs) == u._get_obs()
    rewards: dict[float, int] = {}
    naturals = 0
    for t in range(6000):
        before = hands(env.get_state(0))
        action = int(rng.random() < 0.4)
        obs, reward, term, trunc, _ = env.step(np.array([action]))
        after = hands(env.get_state(0))
        assert after[0][: len(before[0])] == before[0] and after[1][: len(before[1])] == before[1]
        dealt.queue = after[0][len(before[0]) :] + after[1][len(before[1]) :]
        naturals += gym_blackjack.is_natural(before[0])
        gobs, greward, gterm, gtrunc, _ = g.step(action)
        where = f"{options} step {t} {before} -> {after} action {action}"
        assert not dealt.queue, where  # gymnasium drew exactly the cards rlpool drew
        assert (u.player, u.dealer) == after, where
        assert tuple(int(o[0]) for o in obs) == gobs, where
        assert reward[0] == greward and bool(term[0]) == gterm and bool(trunc[0]) == gtrunc, where
        rewards[greward] = rewards.get(greward, 0) + 1
        if gterm:
            obs, reward, term, _, _ = env.step(np.array([action]))  # NextStep: rlpool's own reset
            dealt.queue = deal_order(env.get_state(0))
            gobs, _ = g.reset()
            assert not dealt.queue and tuple(int(o[0]) for o in obs) == gobs and reward[0] == 0 and not term[0]
    assert naturals >= 20 and {-1.0, 0.0, 1.0} <= set(rewards), (naturals, rewards)
    assert (1.5 in rewards) == (options.get("natural", False) and not options.get("sab", True)), rewards
    env.close()


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_blackjack_autoreset_modes_match_sync_vector_env(mode):
    limit = 3  # three hits without going bust: truncated
    gvec = SyncVectorEnv([lambda: gym_make("Blackjack-v1", max_episode_steps=limit)] * N, autoreset_mode=mode)
    env = rlpool.make("Blackjack-v1", num_envs=N, seed=8, autoreset_mode=mode, max_episode_steps=limit)
    units = [e.unwrapped for e in gvec.envs]
    dealt = [DealtCards() for _ in range(N)]
    rng = np.random.default_rng(8)

    gvec.reset(seed=8)
    obs, _ = env.reset()
    for i, u in enumerate(units):
        u.player, u.dealer = hands(env.get_state(i))
        u.np_random = dealt[i]
        assert tuple(int(o[i]) for o in obs) == u._get_obs()
    pending = np.zeros(N, bool)
    stats = dict.fromkeys(["terminated", "truncated", "final_obs", "masked_resets"], 0)
    for t in range(400):
        where = f"{mode.name} step {t}"
        if mode == AutoresetMode.DISABLED and pending.any():
            obs, _ = env.reset(options={"reset_mask": pending.copy()})
            for i in np.flatnonzero(pending):
                dealt[i].queue = deal_order(env.get_state(int(i)))
            gobs, _ = gvec.reset(options={"reset_mask": pending.copy()})
            for a, b in zip(obs, gobs, strict=True):
                assert np.array_equal(a, b), where
            stats["masked_resets"] += int(pending.sum())
            pending[:] = False
        before = [hands(env.get_state(i)) for i in range(N)]
        actions = (rng.random(N) < 0.5).astype(np.int64)
        if mode == AutoresetMode.SAME_STEP:
            # The dealer's draws on "stick" are gone once rlpool resets in the same step, so stick
            # only where the dealer draws nothing (already >= 17).
            stand = np.array([total(d)[0] >= 17 for _, d in before])
            actions = np.where(stand, actions, 1)
        obs, reward, term, trunc, info = env.step(actions)
        done = term | trunc
        for i in range(N):
            after = hands(env.get_state(i))
            if pending[i] and mode == AutoresetMode.NEXT_STEP:
                dealt[i].queue = deal_order(env.get_state(i))
            elif done[i] and mode == AutoresetMode.SAME_STEP:
                drawn = []
                if actions[i] == 1:  # the one card that gives the final observation
                    final = info["final_obs"][i]
                    drawn = [c for c in range(1, 11) if total(before[i][0] + [c]) == (final[0], final[2])]
                    assert len(drawn) == 1, where
                dealt[i].queue = drawn + deal_order(env.get_state(i))
            else:
                dealt[i].queue = after[0][len(before[i][0]) :] + after[1][len(before[i][1]) :]
        gobs, greward, gterm, gtrunc, ginfo = gvec.step(actions)
        assert not any(d.queue for d in dealt), where
        for a, b in zip(obs, gobs, strict=True):
            assert np.array_equal(a, b), (where, obs, gobs)
        assert np.array_equal(reward, greward) and np.array_equal(term, gterm), where
        assert np.array_equal(trunc, gtrunc), where
        assert np.array_equal(info["elapsed_step"], elapsed(gvec)), where
        assert ("final_obs" in info) == ("final_obs" in ginfo), where
        if "final_obs" in ginfo:
            assert np.array_equal(info["_final_obs"], ginfo["_final_obs"]), where
            for i in np.flatnonzero(done):
                assert tuple(int(v) for v in info["final_obs"][i]) == ginfo["final_obs"][i], where
                stats["final_obs"] += 1
        pending = done.copy()
        stats["terminated"] += int(gterm.sum())
        stats["truncated"] += int(gtrunc.sum())
    assert stats["terminated"] >= 20 and stats["truncated"] >= 4, stats
    if mode == AutoresetMode.SAME_STEP:
        assert stats["final_obs"] >= 20
    if mode == AutoresetMode.DISABLED:
        assert stats["masked_resets"] >= 20
    gvec.close()
    env.close()
