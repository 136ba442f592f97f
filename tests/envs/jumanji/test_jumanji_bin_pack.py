"""BinPack-v2 (src/rlpool/envs/jumanji/bin_pack.cc) against jumanji 1.1.2's BinPack, step by step, bit for bit.

Whole episodes in lockstep from the same keys (legal packings, and now and then any [ems, item] pair, often an
invalid action, which jumanji ends the episode on), the extras (``info``) beside jumanji's ``timestep.extras``,
other generator and env options (a small EMS buffer that overflows, integer coordinates, fewer observed EMSs),
states built from jumanji's own ``State``, a planted difference that the comparison catches, and bad state blobs
refused by name.

``jumanji_reference.random_masked_actions`` counts a pool's envs by the observation's first entry, which for
BinPack is the nested ``ems`` dict; ``masked_policy`` here counts them by the action mask.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jumanji")

import jumanji_reference as jr  # noqa: E402
from lane import FULL  # noqa: E402

TASK = "BinPack-v2"
COORDS = ("x1", "x2", "y1", "y2", "z1", "z2")
EXTRAS = ("volume_utilization", "packed_items", "ratio_packed_items", "active_ems", "invalid_action")
HEADER = 8 + 6 * 4  # the env key, then the container


def masked_policy(obs: Any, rng: np.random.Generator, action_space: Any, p_any: float = 0.03) -> np.ndarray:
    """One [ems, item] per env: a legal pair, or any pair with probability ``p_any`` (or when none is legal)."""
    out = []
    for m in np.asarray(obs["action_mask"]):
        legal = np.flatnonzero(m.reshape(-1))
        c = int(rng.integers(m.size)) if len(legal) == 0 or rng.random() < p_any else int(rng.choice(legal))
        out.append(list(np.unravel_index(c, m.shape)))
    return np.asarray(out, np.int64)


def legal_only(obs: Any, rng: np.random.Generator, action_space: Any) -> np.ndarray:
    """Legal pairs only: every episode ends with the container as full as the packing allows."""
    return masked_policy(obs, rng, action_space, p_any=0.0)


_GENERATORS: dict[tuple[int, int], Any] = {}


def reference(max_num_items: int = 20, max_num_ems: int = 40, **env_kwargs: Any) -> jr.Reference:
    """jumanji's BinPack-v2, or BinPack with RandomGenerator(max_num_items, max_num_ems) and ``env_kwargs``."""
    if (max_num_items, max_num_ems) == (20, 40):
        return jr.Reference(TASK, env_kwargs)
    from jumanji.environments.packing.bin_pack.generator import RandomGenerator

    generator = _GENERATORS.setdefault(
        (max_num_items, max_num_ems),
        RandomGenerator(max_num_items=max_num_items, max_num_ems=max_num_ems, split_num_same_items=2),
    )  # one object per size, so that Reference's cache of jitted functions is hit
    return jr.Reference(TASK, {"generator": generator, **env_kwargs})


def blob(state: Any, env_key: Any = (0, 0)) -> bytes:
    """jumanji's BinPack ``State`` as bin_pack.cc's state bytes, behind an env key."""
    i32 = [np.asarray(getattr(state.container, c), "<i4").reshape(1) for c in COORDS]
    i32 += [np.asarray(getattr(state.ems, c), "<i4") for c in COORDS]
    parts = [jr.key_bytes(env_key), *(a.tobytes() for a in i32)]
    parts.append(np.asarray(state.ems_mask, np.uint8).tobytes())
    parts += [np.asarray(getattr(state.items, f), "<i4").tobytes() for f in ("x_len", "y_len", "z_len")]
    parts.append(np.asarray(state.items_mask, np.uint8).tobytes())
    parts.append(np.asarray(state.items_placed, np.uint8).tobytes())
    parts += [np.asarray(getattr(state.items_location, f), "<i4").tobytes() for f in ("x", "y", "z")]
    parts.append(jr.key_bytes(state.key))
    return b"".join(parts)


def _extras_lockstep(ref: jr.Reference, seed: int, num_envs: int, steps: int, **options: Any) -> int:
    """Every step's ``info`` entries beside jumanji's ``timestep.extras`` (the resets' too); steps compared."""
    stats, _ = jr.lockstep_extras(TASK, ref, EXTRAS, seed=seed, num_envs=num_envs, steps=steps,
                                  policy=partial(masked_policy, p_any=0.05), **options)
    return stats.steps


def _played(ref: jr.Reference, seed: int, packs: int) -> tuple[Any, np.random.Generator]:
    """jumanji's state after up to ``packs`` legal packings (random ones) from reset(PRNGKey(seed))."""
    rng = np.random.default_rng(seed)
    state, ts = ref.reset(jr.prng_key(seed))
    for _ in range(packs):
        legal = np.argwhere(np.asarray(ts.observation.action_mask))
        if len(legal) == 0 or bool(ts.step_type == 2):
            break
        state, ts = ref.step(state, np.asarray(legal[rng.integers(len(legal))], np.int32))
    return state, rng


def _actions_on(ref: jr.Reference, state: Any, rng: np.random.Generator, n: int) -> list[list[int]]:
    """``n`` legal actions from ``state`` on (fewer when its episode ends first), as jumanji plays them."""
    actions = []
    for _ in range(n):
        mask = np.asarray(state.action_mask)
        legal = np.argwhere(mask)
        if len(legal) == 0:
            break
        action = [int(v) for v in legal[rng.integers(len(legal))]]
        actions.append(action)
        state, ts = ref.step(state, np.asarray(action, np.int32))
        if bool(ts.step_type == 2):
            break
    return actions


def test_lockstep_with_jumanji() -> None:
    stats = jr.lockstep(TASK, reference(), seed=0, num_envs=4, steps=60, policy=masked_policy)
    assert stats.steps >= 150 and stats.episodes >= 8


def test_extras_match_jumanjis() -> None:
    assert _extras_lockstep(reference(), seed=4, num_envs=3, steps=40) >= 80


def test_small_ems_buffer_and_integer_coordinates() -> None:
    """An EMS buffer that fills up (jumanji then writes over slot 0), int32 coordinates, 3 observed EMSs."""
    ref = reference(max_num_items=12, max_num_ems=6, obs_num_ems=3, normalize_dimensions=False)
    stats = jr.lockstep(TASK, ref, seed=2, num_envs=3, steps=30, policy=legal_only, max_num_items=12,
                        max_num_ems=6, obs_num_ems=3, normalize_dimensions=False)
    assert stats.episodes >= 6


def test_from_jumanji_states() -> None:
    ref = reference()
    for seed, packs in ((5, 0), (6, 4), (7, 9)):
        state, rng = _played(ref, seed, packs)
        actions = _actions_on(ref, state, rng, 20)
        assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)
    state, _ = _played(ref, 8, 3)
    mask = np.asarray(state.action_mask)
    invalid = [int(v) for v in np.argwhere(~mask)[0]]
    assert jr.run_from_state(TASK, ref, state, blob(state), [invalid]) == 1  # ends the episode


def test_a_planted_difference_is_caught() -> None:
    ref = reference()
    state, rng = _played(ref, 3, 2)
    actions = _actions_on(ref, state, rng, 20)
    assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)
    unplaced = int(np.argmax(np.asarray(state.items_mask) & ~np.asarray(state.items_placed)))
    shorter = state.replace(items=state.items._replace(x_len=state.items.x_len.at[unplaced].add(-1)))
    jr.check_caught(TASK, ref, state, blob(shorter), actions, "items.x_len")
    free = int(np.flatnonzero(~np.asarray(state.ems_mask))[-1])  # the last free slot: only the observation shows it
    moved = state.replace(ems=state.ems.replace(z2=state.ems.z2.at[free].set(1)))
    jr.check_caught(TASK, ref, state, blob(moved), actions, "ems.z2")


def test_state_round_trip_and_bad_blobs() -> None:
    ref = reference()
    state, _ = _played(ref, 2, 3)
    good = blob(state, env_key=(1, 2))
    m, n = 40, 20
    ems_mask = HEADER + 6 * 4 * m
    items = ems_mask + m
    location = items + 3 * 4 * n + 2 * n
    free = HEADER + 4 * int(np.flatnonzero(~np.asarray(state.ems_mask))[-1])  # its x1: an all-zero slot's
    jr.check_refused_blobs(TASK, good, {
        "container": jr.patched(good, 12, np.int32(5871).tobytes()),
        "ems.x2": jr.patched(good, HEADER + 4 * m, np.int32(6000).tobytes()),
        "lower corner": jr.patched(good, free, np.int32(1).tobytes()),
        "ems_mask": jr.patched(good, ems_mask, b"\x02"),
        "items.y_len": jr.patched(good, items + 4 * n, np.int32(-1).tobytes()),
        "items_placed": jr.patched(good, items + 12 * n + n, b"\x07"),
        "items_location.z": jr.patched(good, location + 8 * n, np.int32(2201).tobytes()),
        "key": good[:-1],
        "bytes": good + b"\x00",
    })


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_lockstep_sweep() -> None:
    seed = 0
    stats = jr.lockstep(TASK, reference(), seed=100 * seed, num_envs=8, steps=200, policy=masked_policy)
    assert stats.episodes >= 50
    assert _extras_lockstep(reference(), seed=9, num_envs=4, steps=100) >= 300
    for items, ems in ((12, 6), (40, 80)):
        observed = min(40, ems)
        ref = reference(max_num_items=items, max_num_ems=ems, obs_num_ems=observed)
        stats = jr.lockstep(TASK, ref, seed=items, num_envs=4, steps=120, policy=legal_only, max_num_items=items,
                            max_num_ems=ems, obs_num_ems=observed, max_episode_steps=items + 1)
        assert stats.episodes >= 8


@pytest.mark.skipif(not FULL, reason="full lane")
def test_full_from_jumanji_states() -> None:
    """Late states (most items packed), from many instances, played out with legal packings."""
    ref = reference()
    for seed in range(12):
        state, rng = _played(ref, 1000 + seed, 10 + seed % 9)
        actions = _actions_on(ref, state, rng, 20)
        assert jr.run_from_state(TASK, ref, state, blob(state), actions) == len(actions)
