"""Catch (bsuite's definition) and NChain (gym 0.21's), step by step.

Each is written out below from its published definition as a small reference
model and stepped side by side with rlpool from the same state. Catch is also
stepped against bsuite's own Catch class (loaded from bsuite's sdist, see
bsuite_reference.py) and EnvPool's Catch-v0; NChain's transition frequencies
against EnvPool's NChain-v0. Their random draws are tested in
test_toy_text_stats.py.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pytest
from bsuite_reference import catch_module

import rlpool

pytestmark = pytest.mark.timeout(120)


# --------------------------------------------------------------------------- Catch


@dataclass
class BsuiteCatch:
    """bsuite/environments/catch.py: the ball falls a row per step, the paddle moves by (-1, 0, +1)."""

    rows: int
    columns: int
    ball_x: int
    ball_y: int = 0
    paddle_x: int = -1

    def __post_init__(self) -> None:
        if self.paddle_x < 0:
            self.paddle_x = self.columns // 2

    def step(self, action: int) -> tuple[np.ndarray, float, bool]:
        self.paddle_x = int(np.clip(self.paddle_x + (-1, 0, 1)[action], 0, self.columns - 1))
        self.ball_y += 1
        if self.ball_y == self.rows - 1:
            return self.board(), (1.0 if self.paddle_x == self.ball_x else -1.0), True
        return self.board(), 0.0, False

    def board(self) -> np.ndarray:
        b = np.zeros((self.rows, self.columns), np.float32)
        b[self.ball_y, self.ball_x] = 1.0
        b[self.rows - 1, self.paddle_x] = 1.0
        return b


def catch_state(ball_x: int, ball_y: int, paddle_x: int) -> bytes:
    return np.array([ball_x, ball_y, paddle_x], np.int64).tobytes()


@pytest.mark.parametrize(("rows", "columns"), [(10, 5), (2, 1), (6, 8), (13, 3)])
def test_catch_matches_bsuite_definition(rows, columns):
    env = rlpool.make("Catch-v0", num_envs=1, seed=rows * columns, rows=rows, columns=columns)
    rng = np.random.default_rng(rows)
    obs, _ = env.reset()
    episodes, rewards = 0, []
    while episodes < 200:
        # the reset board: the ball somewhere in the top row, the paddle at columns // 2
        assert obs.shape == (1, rows, columns) and obs.dtype == np.float32
        assert obs[0, 0].sum() == 1.0 and obs[0, 1:-1].sum() == 0.0
        ref = BsuiteCatch(rows, columns, ball_x=int(obs[0, 0].argmax()))
        assert np.array_equal(obs[0], ref.board())
        for t in range(1, rows):
            action = int(rng.integers(3))
            board, reward, term = ref.step(action)
            obs, r, terminated, truncated, info = env.step(np.array([action]))
            assert np.array_equal(obs[0], board) and r[0] == reward and terminated[0] == term, (t, action)
            assert not truncated[0] and info["elapsed_step"][0] == t
            # the board holds exactly the ball and the paddle
            assert set(np.unique(obs[0]).tolist()) <= {0.0, 1.0}
            assert obs[0].sum() == (1.0 if term and ref.ball_x == ref.paddle_x else 2.0)
            assert np.frombuffer(env.get_state(0), np.int64).tolist() == [ref.ball_x, ref.ball_y, ref.paddle_x]
        # the episode lasts rows - 1 steps and pays +1 exactly when the paddle is under the ball
        assert term and reward == (1.0 if ref.paddle_x == ref.ball_x else -1.0)
        rewards.append(reward)
        episodes += 1
        obs, r, terminated, _, info = env.step(np.array([1]))  # NextStep: the reset
        assert r[0] == 0 and not terminated[0] and info["elapsed_step"][0] == 0
    assert {-1.0, 1.0} <= set(rewards) or columns == 1  # one column: the paddle always catches
    if columns == 1:
        assert set(rewards) == {1.0}
    env.close()


def test_catch_reward_follows_the_paddle():
    # From every ball and paddle column one row above the bottom, each action's reward.
    rows, columns = 10, 5
    env = rlpool.make("Catch-v0", num_envs=columns * columns * 3)
    env.reset()
    cases = [(b, p, a) for b in range(columns) for p in range(columns) for a in range(3)]
    for i, (b, p, _) in enumerate(cases):
        env.set_state(i, catch_state(b, rows - 2, p))
    obs, reward, term, _, _ = env.step(np.array([a for _, _, a in cases]))
    assert term.all()
    for i, (b, p, a) in enumerate(cases):
        paddle = min(max(p + a - 1, 0), columns - 1)
        assert reward[i] == (1.0 if paddle == b else -1.0), (b, p, a)
        assert obs[i, -1, paddle] == 1.0 and obs[i, -1, b] == 1.0 and obs[i].sum() == (1 if paddle == b else 2)
    env.close()


@pytest.mark.parametrize("options", [{}, {"height": 6, "width": 4}], ids=str)
def test_catch_matches_envpool(options):
    """EnvPool's Catch-v0 (its option names too): rlpool takes over each of EnvPool's new balls."""
    envpool = pytest.importorskip("envpool")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = envpool.make_gymnasium("Catch-v0", num_envs=1, seed=3, **options)
    env = rlpool.make("Catch-v0", num_envs=1, **options)
    rng = np.random.default_rng(3)

    def adopt(board: np.ndarray) -> None:
        env.set_state(0, catch_state(int(board[0].argmax()), 0, board.shape[1] // 2))

    robs, _ = ref.reset()
    env.reset()
    adopt(robs[0])
    pending, episodes = False, 0
    for t in range(600):
        action = int(rng.integers(3))
        robs, rreward, rterm, rtrunc, _ = ref.step(np.array([action], np.int32))
        obs, reward, term, trunc, _ = env.step(np.array([action]))
        assert obs.shape == robs.shape and obs.dtype == robs.dtype
        if pending:  # both reset on this step (NextStep), each with its own ball
            adopt(robs[0])
            episodes += 1
        else:
            assert np.array_equal(obs[0], robs[0]), t
        assert reward[0] == rreward[0] and term[0] == rterm[0] and trunc[0] == rtrunc[0], t
        pending = bool(rterm[0] or rtrunc[0])
    assert episodes >= 40
    ref.close()
    env.close()


def test_catch_matches_bsuite_itself():
    """bsuite's own Catch class (from its sdist, see bsuite_reference.py), dm_env face to dm_env face.

    Each new ball is bsuite's draw (its RandomState), copied into rlpool; the steps are then both envs' own.
    """
    catch = catch_module()
    ref = catch.Catch(rows=10, columns=5, seed=4)
    env = rlpool.make_dm("Catch-v0", num_envs=1)
    spec, ref_spec = env.observation_spec().obs, ref.observation_spec()
    assert (spec.shape, spec.dtype) == (ref_spec.shape, ref_spec.dtype)
    assert env.action_spec().num_values == ref.action_spec().num_values
    rng = np.random.default_rng(4)
    episodes = caught = 0
    rts = ref.reset()
    env.reset()
    while episodes < 100:
        # Take over bsuite's new ball; the paddle starts at columns // 2 in both.
        env.set_state(0, catch_state(int(ref._ball_x), int(ref._ball_y), int(ref._paddle_x)))
        assert rts.first()
        while True:
            action = int(rng.integers(3))
            rts = ref.step(action)
            ts = env.step(np.array([action]))
            np.testing.assert_array_equal(ts.observation.obs[0], rts.observation)
            assert ts.reward[0] == rts.reward and ts.discount[0] == rts.discount
            assert ts.step_type[0] == rts.step_type
            if rts.last():
                caught += rts.reward > 0
                break
        episodes += 1
        rts = ref.step(1)  # bsuite: the step after the last one resets (a new ball)
        env.step(np.array([1]))  # rlpool's autoreset, the same way
    assert 0 < caught < episodes
    env.close()


# --------------------------------------------------------------------------- NChain


@dataclass
class GymNChain:
    """gym 0.21's NChainEnv.step, with the slip decided by the caller."""

    n: int = 5
    small: float = 2.0
    large: float = 10.0
    state: int = 0

    def step(self, action: int, slipped: bool) -> tuple[int, float, bool]:
        if slipped:
            action = 1 - action
        if action:
            reward, self.state = self.small, 0
        elif self.state < self.n - 1:
            reward, self.state = 0.0, self.state + 1
        else:
            reward = self.large
        return self.state, reward, False


@pytest.mark.parametrize(
    "options", [{"slip": 0.0}, {"slip": 1.0}, {"slip": 0.0, "n": 3, "small": 0.5, "large": 7.0}], ids=str
)
def test_nchain_matches_gym_definition(options):
    # slip 0 or 1 makes NChain deterministic: rlpool must follow gym's step exactly
    spec = rlpool.make_spec("NChain-v0", **options)
    c = spec.config
    ref = GymNChain(n=c["n"], small=c["small"], large=c["large"])
    env = rlpool.make("NChain-v0", num_envs=1, max_episode_steps=50, **options)
    obs, _ = env.reset()
    assert obs[0] == 0 and obs.dtype == np.int64
    rng = np.random.default_rng(0)
    rewards = set()
    for t in range(1, 400):
        # mostly forward (after the slip), so that the chain's end is reached
        action = int(rng.random() < (0.85 if c["slip"] == 1.0 else 0.15))
        obs, reward, term, trunc, info = env.step(np.array([action]))
        if (t - 1) % 51 == 50:  # NextStep reset after the truncation
            assert obs[0] == 0 and reward[0] == 0 and info["elapsed_step"][0] == 0
            ref.state = 0
            continue
        state, r, done = ref.step(action, slipped=c["slip"] == 1.0)
        assert (obs[0], reward[0], term[0]) == (state, r, done), t
        assert trunc[0] == (info["elapsed_step"][0] == 50)
        rewards.add(r)
    assert rewards == {0.0, c["small"], c["large"]}
    env.close()


def test_nchain_never_terminates_and_is_cut_at_1000():
    env = rlpool.make("NChain-v0", num_envs=3, seed=1)
    env.reset()
    for t in range(1, 1001):
        _, _, term, trunc, info = env.step(np.zeros(3, np.int64))
        assert not term.any() and trunc.all() == (t == 1000) and np.all(info["elapsed_step"] == t)
    env.close()


def test_nchain_transitions_match_envpool():
    """EnvPool 1.2.5's NChain-v0 (slip 0.2, n 5, small 2, large 10): the same transition frequencies.

    Both draw their slips from their own generators, so the comparison is of distributions: for each state
    and action, the counts of (next state, reward) by chi-square over 30,000 random steps each.
    """
    envpool = pytest.importorskip("envpool")
    stats = pytest.importorskip("scipy.stats")
    steps = 30_000

    def counts(make) -> dict:
        env = make()
        obs, _ = env.reset()
        rng = np.random.default_rng(5)
        out: dict = {}
        resets = False  # the step after a truncation is the reset (both autoreset on the next step)
        for _ in range(steps):
            a = int(rng.integers(2))
            nxt, reward, _, trunc, _ = env.step(np.array([a]))
            if not resets:
                key = (int(obs[0]), a)
                out.setdefault(key, {}).setdefault((int(nxt[0]), float(reward[0])), 0)
                out[key][(int(nxt[0]), float(reward[0]))] += 1
            obs, resets = nxt, bool(trunc[0])
        env.close()
        return out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = counts(lambda: envpool.make_gymnasium("NChain-v0", num_envs=1, seed=5))
    ours = counts(lambda: rlpool.make("NChain-v0", num_envs=1, seed=5))
    assert set(ours) == set(theirs)
    for key in ours:
        outcomes = sorted(set(ours[key]) | set(theirs[key]))
        assert set(ours[key]) == set(theirs[key]), (key, ours[key], theirs[key])
        table = np.array([[ours[key].get(o, 0) for o in outcomes], [theirs[key].get(o, 0) for o in outcomes]])
        if table.shape[1] > 1:
            assert stats.chi2_contingency(table).pvalue > 1e-3, (key, table)
