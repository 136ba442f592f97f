"""Autoreset modes against gymnasium's own SyncVectorEnv in the same mode.

Both vector envs are stepped in lockstep from the same states. rlpool draws its
own random reset states, so whenever gymnasium resets a sub-env (NextStep: on
the step after the episode ended; SameStep: in the ending step; Disabled: on a
masked ``reset``), that row's rlpool observation is rlpool's own and is not
compared; gymnasium's fresh state is then copied into rlpool, and the row is
compared again from the following step on. Rewards, flags and
``info["elapsed_step"]`` are compared on every row at every step.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import rlpool

N = 4
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


def make_pair(task_id: str, mode: AutoresetMode, seed: int, **options):
    gvec = SyncVectorEnv([lambda: gym.make(task_id, **options) for _ in range(N)], autoreset_mode=mode)
    assert gvec.metadata["autoreset_mode"] == mode  # read now: gymnasium shares this dict per env class
    env = rlpool.make(task_id, num_envs=N, seed=seed, autoreset_mode=mode, **options)
    assert env.metadata["autoreset_mode"] == gvec.metadata["autoreset_mode"]
    return gvec, env


def copy_states(env, gvec: SyncVectorEnv, rows) -> None:
    for i in np.flatnonzero(rows):
        state = np.asarray(gvec.envs[i].unwrapped.state, dtype=np.float64).tobytes()
        env.set_state(int(i), state)


def gym_elapsed(gvec: SyncVectorEnv) -> np.ndarray:
    return np.array([e.get_wrapper_attr("_elapsed_steps") for e in gvec.envs])


def sample_actions(rng: np.random.Generator, space: gym.Space) -> np.ndarray:
    if isinstance(space, gym.spaces.Discrete):
        return rng.integers(space.n, size=N)
    return rng.uniform(1.2 * space.low, 1.2 * space.high, size=(N, *space.shape)).astype(np.float32)


def masked_reset(env, gvec, mask, obs_before, stale, where):
    """Reset the ``mask`` rows of both; the other rows keep their previous observation."""
    gobs, _ = gvec.reset(options={"reset_mask": mask.copy()})
    obs, info = env.reset(options={"reset_mask": mask.copy()})
    keep = ~mask
    assert np.array_equal(obs[keep], obs_before[keep]), where
    compare = keep & ~stale
    assert np.array_equal(obs[compare], gobs[compare]), where
    assert np.array_equal(info["elapsed_step"], gym_elapsed(gvec)), where
    copy_states(env, gvec, mask)
    return obs.copy()


def run_lockstep(task_id: str, mode: AutoresetMode, *, steps: int, seed: int, **options) -> dict:
    gvec, env = make_pair(task_id, mode, seed, **options)
    space = env.single_action_space
    obs_space = env.single_observation_space
    rng = np.random.default_rng(seed)
    gobs, _ = gvec.reset(seed=seed)
    obs, info = env.reset()
    assert np.array_equal(info["elapsed_step"], gym_elapsed(gvec))
    copy_states(env, gvec, np.ones(N, dtype=bool))
    obs = obs.copy()
    stale = np.ones(N, dtype=bool)  # rows whose rlpool obs is rlpool's own reset obs
    pending = np.zeros(N, dtype=bool)  # rows whose episode ended on the last step
    stats = dict.fromkeys(
        ["terminated", "truncated", "resets", "compared_after_reset", "final_obs", "raised"], 0
    )

    for t in range(steps):
        where = f"{task_id} {mode} {options} step {t}"
        if t == 3:
            # Stagger the envs: reset two of them mid-episode (in every mode).
            mask = np.array([False, True, False, True])
            obs = masked_reset(env, gvec, mask, obs, stale, where + " (staggering reset)")
            stale = stale | mask
            pending &= ~mask
        if mode == AutoresetMode.DISABLED and pending.any():
            # gymnasium asserts on stepping a finished env; rlpool raises ValueError and steps nothing.
            before = [env.get_state(i) for i in range(N)]
            with pytest.raises(ValueError, match="Disabled"):
                env.step(sample_actions(rng, space))
            assert [env.get_state(i) for i in range(N)] == before, where
            stats["raised"] += 1
            obs = masked_reset(env, gvec, pending.copy(), obs, stale, where + " (masked reset)")
            stale = stale | pending
            stats["resets"] += int(pending.sum())
            pending[:] = False

        actions = sample_actions(rng, space)
        elapsed_before = gym_elapsed(gvec)
        gobs, greward, gterm, gtrunc, ginfo = gvec.step(actions)
        obs, reward, term, trunc, info = env.step(actions)
        obs = obs.copy()
        done = gterm | gtrunc

        assert obs.dtype == gobs.dtype and obs.shape == gobs.shape, where
        assert np.array_equal(reward, greward), (where, reward, greward)
        assert np.array_equal(term, gterm), (where, term, gterm)
        assert np.array_equal(trunc, gtrunc), (where, trunc, gtrunc)
        assert np.array_equal(info["elapsed_step"], gym_elapsed(gvec)), (where, info["elapsed_step"])

        if mode == AutoresetMode.NEXT_STEP:
            reset_rows = pending
        elif mode == AutoresetMode.SAME_STEP:
            reset_rows = done
        else:
            reset_rows = np.zeros(N, dtype=bool)
        compare = ~reset_rows
        assert np.array_equal(obs[compare], gobs[compare]), (where, obs, gobs, reset_rows)
        stats["compared_after_reset"] += int((compare & stale).sum())
        for i in np.flatnonzero(reset_rows):
            assert obs_space.contains(obs[i]), (where, i, obs[i])

        assert ("final_obs" in info) == ("final_obs" in ginfo), where
        if mode == AutoresetMode.SAME_STEP and "final_obs" in ginfo:
            final_obs, gfinal_obs = info["final_obs"], ginfo["final_obs"]
            assert final_obs.dtype == object and final_obs.shape == gfinal_obs.shape == (N,), where
            assert np.array_equal(info["_final_obs"], ginfo["_final_obs"]), where
            for i in range(N):
                if gfinal_obs[i] is None:
                    assert final_obs[i] is None, where
                else:
                    assert final_obs[i].dtype == gfinal_obs[i].dtype, where
                    assert np.array_equal(final_obs[i], gfinal_obs[i]), (
                        where,
                        i,
                        final_obs[i],
                        gfinal_obs[i],
                    )
                    stats["final_obs"] += 1
            assert np.array_equal(info["_final_info"], ginfo["_final_info"]), where
            # the ended episode's length, by gymnasium's TimeLimit count before the step
            final_elapsed = info["final_info"]["elapsed_step"]
            assert np.array_equal(final_elapsed[done], elapsed_before[done] + 1), where
            assert np.array_equal(info["final_info"]["_elapsed_step"], done), where

        copy_states(env, gvec, reset_rows)
        stats["resets"] += int(reset_rows.sum())
        stale = reset_rows.copy()
        pending = done.copy()
        stats["terminated"] += int(gterm.sum())
        stats["truncated"] += int(gtrunc.sum())

    gvec.close()
    env.close()
    return stats


CASES = [
    ("CartPole-v1", {}, 600),
    ("CartPole-v1", {"max_episode_steps": 25}, 400),
    ("Pendulum-v1", {"max_episode_steps": 7}, 200),
]


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize(
    ("task_id", "options", "steps"),
    CASES,
    ids=[f"{t}-{o.get('max_episode_steps', 'default')}" for t, o, _ in CASES],
)
def test_autoreset_matches_gymnasium(task_id, options, steps, mode):
    stats = run_lockstep(task_id, mode, steps=steps, seed=21, **options)
    assert stats["resets"] >= 8
    assert stats["compared_after_reset"] >= 8  # rows were checked again after their states were copied
    if "max_episode_steps" in options:
        assert stats["truncated"] >= 4
    if task_id.startswith("CartPole"):
        assert stats["terminated"] >= 4
    if mode == AutoresetMode.SAME_STEP:
        assert stats["final_obs"] >= 8
    if mode == AutoresetMode.DISABLED:
        assert stats["raised"] >= 4


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@pytest.mark.parametrize("max_episode_steps", [1, 2, 5])
def test_time_limit_and_elapsed_step(mode, max_episode_steps):
    """Truncation at ``max_episode_steps`` and ``info["elapsed_step"]``, step by step as gymnasium counts."""
    stats = run_lockstep("Pendulum-v1", mode, steps=25, seed=4, max_episode_steps=max_episode_steps)
    assert stats["truncated"] >= 4 and stats["terminated"] == 0


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_autoreset_mode_names(mode):
    # gymnasium's enum and its string value ("NextStep", ...) both select the mode
    for value in (mode, mode.value):
        env = rlpool.make("CartPole-v1", num_envs=2, autoreset_mode=value)
        assert env.metadata["autoreset_mode"] == mode
        env.close()


def test_disabled_finished_env_raises_until_reset():
    gvec, env = make_pair("Pendulum-v1", AutoresetMode.DISABLED, 0, max_episode_steps=3)
    rng = np.random.default_rng(0)
    gvec.reset(seed=0)
    env.reset()
    copy_states(env, gvec, np.ones(N, dtype=bool))
    for _ in range(3):
        actions = sample_actions(rng, env.single_action_space)
        gobs, _, _, gtrunc, _ = gvec.step(actions)
        obs, _, _, trunc, _ = env.step(actions)
    assert gtrunc.all() and np.array_equal(trunc, gtrunc)
    final = obs.copy()
    assert np.array_equal(final, gobs)

    states = [env.get_state(i) for i in range(N)]
    with pytest.raises(ValueError):
        env.step(sample_actions(rng, env.single_action_space))
    assert [env.get_state(i) for i in range(N)] == states

    # resetting only some envs is not enough: the others are still finished
    half = np.array([True, True, False, False])
    gobs, _ = gvec.reset(options={"reset_mask": half.copy()})
    obs, _ = env.reset(options={"reset_mask": half.copy()})
    assert np.array_equal(obs[~half], final[~half]) and np.array_equal(obs[~half], gobs[~half])
    copy_states(env, gvec, half)
    with pytest.raises(ValueError):
        env.step(sample_actions(rng, env.single_action_space))

    gobs, _ = gvec.reset(options={"reset_mask": ~half})
    obs, info = env.reset(options={"reset_mask": ~half})
    assert np.array_equal(info["elapsed_step"], gym_elapsed(gvec))
    copy_states(env, gvec, ~half)
    for _ in range(3):
        actions = sample_actions(rng, env.single_action_space)
        gobs, greward, gterm, gtrunc, _ = gvec.step(actions)
        obs, reward, term, trunc, info = env.step(actions)
        assert np.array_equal(obs, gobs) and np.array_equal(reward, greward)
        assert np.array_equal(term, gterm) and np.array_equal(trunc, gtrunc)
        assert np.array_equal(info["elapsed_step"], gym_elapsed(gvec))
    assert gtrunc.all()

    # the reference behaves the same way: gymnasium refuses to step a finished env
    with pytest.raises(ValueError):
        env.step(sample_actions(rng, env.single_action_space))
    with pytest.raises(AssertionError):
        gvec.step(sample_actions(rng, env.single_action_space))
    gvec.close()
    env.close()
