"""RubiksCube-v0 and RubiksCube-partly-scrambled-v0 (src/rlpool/envs/jumanji/rubiks_cube.cc) beside jumanji 1.1.2.

Whole episodes from the same keys under random moves (every face, depth and amount); solved cubes (the
scramble undone move by move, from jumanji's own scramble of the key); cubes of other sizes (every depth of
a 4 and a 5 cube); a planted difference that the comparison catches; and bad state blobs refused naming the
field. jumanji's time limit ends an episode by termination; the engine's time limit (EnvPool's, the same
number of steps) marks that last step truncated as well, so the lockstep runs, which compare the flags with
jumanji's, lift the engine's limit past jumanji's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

import rlpool  # noqa: E402

FULL_TASK = "RubiksCube-v0"
PARTLY = "RubiksCube-partly-scrambled-v0"
PARTLY_OPTIONS = {"num_scrambles_on_reset": 7, "time_limit": 20}


def full_ref() -> jr.Reference:
    """jumanji's RubiksCube-v0."""
    return jr.Reference("RubiksCube-v0")


def partly_ref() -> jr.Reference:
    """jumanji's RubiksCube-partly-scrambled-v0."""
    return jr.Reference("RubiksCube-partly-scrambled-v0")


def sized_ref(cube_size: int, scrambles: int, time_limit: int) -> jr.Reference:
    """jumanji's RubiksCube with a ScramblingGenerator of another cube size."""
    from jumanji.environments.logic.rubiks_cube.generator import ScramblingGenerator

    return jr.Reference("RubiksCube-v0", {"time_limit": time_limit, "generator": ScramblingGenerator(
        cube_size=cube_size, num_scrambles_on_reset=scrambles)})


def random_moves(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """A uniform [face, depth, amount] per env, from the test's generator (the batch space is gymnasium's Box)."""
    nvec = np.asarray(action_space.high) + 1
    return (rng.random(nvec.shape) * nvec).astype(np.int64)


def encode(state: Any, env_key: tuple[int, int] = (0, 0)) -> bytes:
    """jumanji's RubiksCube ``State`` as the env's state bytes: the env's key, then rubiks_cube.cc's layout."""
    return jr.state_blob(env_key, (state.cube, "i1"), (state.step_count, "<i4"), (state.key, "key"))


def solving_moves(reference: jr.Reference, reset_key: Any) -> list[list[int]]:
    """The scramble of ``reset(reset_key)`` undone: its moves backwards, each turned the other way."""
    gen = reference.env.generator
    _, scramble_key = jr.split(reset_key)
    flat = np.asarray(gen.generate_actions_for_scramble(scramble_key))
    depths = gen.cube_size // 2
    inverse = {0: 1, 1: 0, 2: 2}
    return [[int(m // 3 // depths), int(m // 3 % depths), inverse[int(m % 3)]] for m in flat[::-1]]


def test_lockstep_full_scramble() -> None:
    stats = jr.lockstep(FULL_TASK, full_ref(), seed=0, num_envs=3, steps=450, policy=random_moves,
                        max_episode_steps=201)
    assert stats.episodes >= 6


def test_lockstep_partly_scrambled() -> None:
    stats = jr.lockstep(PARTLY, partly_ref(), seed=4, num_envs=4, steps=130, policy=random_moves,
                        max_episode_steps=21)
    assert stats.episodes >= 20


def test_engine_limit_marks_jumanjis_last_step_truncated_too() -> None:
    pool = rlpool.make(PARTLY, num_envs=1, seed=1)
    try:
        pool.reset()
        for _ in range(19):
            _, _, terminated, truncated, _ = pool.step(np.asarray([[0, 0, 0]]))
            assert not terminated[0] and not truncated[0]
        _, _, terminated, truncated, _ = pool.step(np.asarray([[0, 0, 0]]))
        assert terminated[0] and truncated[0]
    finally:
        pool.close()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_undoing_the_scramble_solves_it(seed: int) -> None:
    reference = partly_ref()
    key = jr.prng_key(seed)
    state, _ = reference.reset(key)
    moves = solving_moves(reference, key)
    probe, played = state, 0
    for move in moves:
        probe, ts = reference.step(probe, np.asarray(move))
        played += 1
        if int(ts.step_type) == 2:
            break
    assert float(ts.reward) == 1.0
    assert jr.run_from_state(PARTLY, reference, state, encode(state), moves, **PARTLY_OPTIONS) == played


def test_saved_state_is_jumanjis_state() -> None:
    jr.check_saved_states(FULL_TASK, full_ref(), encode, seed=3)


def test_a_planted_difference_is_caught() -> None:
    reference = partly_ref()
    state, _ = reference.reset(jr.prng_key(5))
    moves = [[f, 0, a] for f in range(6) for a in range(3)]
    assert jr.run_from_state(PARTLY, reference, state, encode(state), moves, **PARTLY_OPTIONS) == 18
    blob = encode(state)
    turned = jr.patched(blob, 8 + 4, bytes([(blob[8 + 4] + 1) % 6]))  # the up face's centre sticker
    jr.check_caught(PARTLY, reference, state, turned, moves, **PARTLY_OPTIONS)


@pytest.mark.parametrize(("offset", "value", "field"), [(8 + 7, 6, "cube"), (8 + 53, -1, "cube"),
                                                        (8 + 54, 201, "step_count")])
def test_bad_state_fields_are_refused(offset: int, value: int, field: str) -> None:
    good = jr.reset_state(FULL_TASK)
    data = bytes([value & 0xFF]) if field == "cube" else np.int32(value).tobytes()
    jr.check_refused_blobs(FULL_TASK, good, {field: jr.patched(good, offset, data), "key": good[:-1]})


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="cube_size"):
        rlpool.make(FULL_TASK, num_envs=1, cube_size=1)
    with pytest.raises(ValueError, match="time_limit"):
        rlpool.make(FULL_TASK, num_envs=1, time_limit=0)


@pytest.mark.parametrize(("cube_size", "scrambles"), [(2, 30), (4, 50), (5, 60)] if FULL else [(4, 20)])
def test_other_cube_sizes(cube_size: int, scrambles: int) -> None:
    """Bigger cubes turn inner layers too (depth 1, 2): every move of theirs, whole episodes."""
    reference = sized_ref(cube_size, scrambles, 30)
    stats = jr.lockstep(FULL_TASK, reference, seed=cube_size, num_envs=2, steps=70, policy=random_moves,
                        cube_size=cube_size, num_scrambles_on_reset=scrambles, time_limit=30, max_episode_steps=31)
    assert stats.episodes >= 4


@pytest.mark.skipif(not FULL, reason="full lane")
@pytest.mark.parametrize("seed", [10])
def test_lockstep_full(seed: int) -> None:
    stats = jr.lockstep(FULL_TASK, full_ref(), seed=seed, num_envs=8, steps=450, policy=random_moves,
                        max_episode_steps=201)
    assert stats.episodes >= 16
    stats = jr.lockstep(PARTLY, partly_ref(), seed=seed, num_envs=8, steps=300, policy=random_moves,
                        max_episode_steps=21)
    assert stats.episodes >= 100


@pytest.mark.skipif(not FULL, reason="full lane")
def test_undoing_many_scrambles() -> None:
    reference = partly_ref()
    for seed in range(100, 115):
        key = jr.prng_key(seed)
        state, _ = reference.reset(key)
        moves = solving_moves(reference, key)
        assert jr.run_from_state(PARTLY, reference, state, encode(state), moves, **PARTLY_OPTIONS) <= 7
