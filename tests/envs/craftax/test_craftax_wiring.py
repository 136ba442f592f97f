"""The Craftax-Classic tasks' wiring in rlpool, without the reference: ids, spaces, options, keys and states.

Parity with craftax itself is ``test_craftax_classic.py``'s; here: every id makes a pool whose spaces, dtypes
and info are those of the family's page; option values are checked; env i of a pool seeded with s is the env
seeded with s + i, whatever the thread count, and ``reset(seed=...)`` starts it again; a saved state
(``get_state``) restores the whole env, its JAX key included; an action out of 0..16 is refused. The pixel
ids need craftax's textures (fetched once from craftax's wheel), and are skipped where they cannot be had.

EnvPool 1.2.7 (in its own CPython 3.13 virtualenv, ``envpool127.py``) keys its Craftax envs as rlpool does:
random runs of every id, with a short time limit so that episodes end both ways, must give EnvPool's
observations, rewards and flags bit for bit (the -AutoReset- ids in EnvPool's SameStep mode), and its info
where the two agree on what it holds (see the family's page): rlpool sets both flags where the game ends at
the time limit's step, and fills the achievements only when the game ends, not at a truncation.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from envpool127 import envpool_python
from lane import FULL

import rlpool

SYMBOLIC = ("Craftax-Classic-Symbolic-v1", "Craftax-Classic-Symbolic-AutoReset-v1")
PIXELS = ("Craftax-Classic-Pixels-v1", "Craftax-Classic-Pixels-AutoReset-v1")


def _pixels_available() -> bool:
    try:
        from rlpool.envs.craftax import textures

        textures.classic_textures_file()
    except ImportError:
        return False
    return True


def achievements(info: dict) -> np.ndarray:
    """info's Achievements/<name> entries as one [num_envs, 22] array, in craftax's Achievement order."""
    return np.stack([info[f"Achievements/{name}"] for name in ACHIEVEMENT_ORDER], axis=1)


needs_textures = pytest.mark.skipif(not _pixels_available(), reason="craftax's textures cannot be had here")


def _run(task_id: str, steps: int, **options: object) -> list[tuple[np.ndarray, ...]]:
    envs = rlpool.make(task_id, **options)
    rng = np.random.default_rng(0)
    obs, _ = envs.reset()
    out = [(obs.copy(),)]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(rng.integers(0, 17, envs.num_envs))
        out.append((obs.copy(), reward.copy(), terminated.copy(), truncated.copy(), achievements(info),
                    info["score"].copy()))
    envs.close()
    return out


@pytest.mark.parametrize("task_id", SYMBOLIC)
def test_symbolic_spaces_and_info(task_id: str) -> None:
    # The -AutoReset- ids default to SameStep, as EnvPool's; NextStep here shows each step's own info.
    default = rlpool.make(task_id, num_envs=1)
    assert default.metadata["autoreset_mode"].name == ("SAME_STEP" if "-AutoReset-" in task_id else "NEXT_STEP")
    default.close()
    envs = rlpool.make(task_id, num_envs=3, seed=1, autoreset_mode="NextStep")
    assert envs.single_observation_space.shape == (1345,)
    assert envs.single_observation_space.dtype == np.float32
    assert envs.single_action_space.n == 17
    assert envs.spec.max_episode_steps == 10000
    obs, info = envs.reset()
    assert obs.shape == (3, 1345) and obs.dtype == np.float32 and 0 <= obs.min() and obs.max() <= 1
    assert achievements(info).shape == (3, 22) and achievements(info).dtype == np.float32
    assert info["score"].dtype == np.float32 and info["discount"].dtype == np.float32
    rng = np.random.default_rng(1)
    for _ in range(200):
        obs, reward, terminated, truncated, info = envs.step(rng.integers(0, 17, 3))
        assert obs.dtype == np.float32 and envs.single_observation_space.contains(obs[0])
        done = terminated
        assert np.array_equal(info["discount"], np.where(done, 0.0, 1.0).astype(np.float32))
        assert np.all(achievements(info)[~done] == 0)
        assert set(np.unique(achievements(info))) <= {0.0, 100.0}
    envs.close()


@needs_textures
@pytest.mark.parametrize("task_id", PIXELS)
def test_pixels_spaces_and_render(task_id: str) -> None:
    envs = rlpool.make(task_id, num_envs=2, seed=3, render_mode="rgb_array")
    assert envs.single_observation_space.shape == (63, 63, 3)
    obs, _ = envs.reset()
    assert obs.shape == (2, 63, 63, 3) and obs.dtype == np.float32 and 0 <= obs.min() and obs.max() <= 1
    for _ in range(20):
        obs, *_ = envs.step(np.zeros(2, dtype=np.int64))
    frame = np.asarray(envs.render())[0]
    assert frame.shape == (63, 63, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, np.rint(obs[0] * 255).astype(np.uint8))
    envs.close()


@needs_textures
def test_symbolic_renders_the_pixel_frame() -> None:
    pixels = rlpool.make(PIXELS[0], num_envs=1, seed=5)
    symbolic = rlpool.make(SYMBOLIC[0], num_envs=1, seed=5, render_mode="rgb_array")
    obs, _ = pixels.reset()
    symbolic.reset()
    assert np.array_equal(np.asarray(symbolic.render())[0], np.rint(obs[0] * 255).astype(np.uint8))


@pytest.mark.parametrize("task_id", SYMBOLIC)
def test_threads_and_env_seeds(task_id: str) -> None:
    """Env i of a pool seeded with s is the env seeded with s + i, on one thread or two."""
    one = _run(task_id, 300, num_envs=4, seed=10, num_threads=1, max_episode_steps=90)
    two = _run(task_id, 300, num_envs=4, seed=10, num_threads=2, max_episode_steps=90)
    for a, b in zip(one, two, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
    single = rlpool.make(task_id, num_envs=1, seed=12)
    obs, _ = single.reset()
    assert np.array_equal(obs[0], one[0][0][2])


def test_reset_with_seed_starts_again() -> None:
    envs = rlpool.make(SYMBOLIC[0], num_envs=2, seed=7)
    first, _ = envs.reset()
    for _ in range(5):
        envs.step(np.full(2, 5))
    again, _ = envs.reset(seed=7)
    assert np.array_equal(first, again)
    later, _ = envs.reset()  # no new seed: the next key, another world
    assert not np.array_equal(first, later)


@pytest.mark.parametrize("task_id", SYMBOLIC)
def test_state_round_trip(task_id: str) -> None:
    envs = rlpool.make(task_id, num_envs=1, seed=4)
    envs.reset()
    rng = np.random.default_rng(4)
    for _ in range(50):
        envs.step(rng.integers(0, 17, 1))
    state = envs.get_state(0)
    actions = rng.integers(0, 17, (40, 1))
    before = [envs.step(a)[0].copy() for a in actions]
    envs.set_state(0, state)
    after = [envs.step(a)[0].copy() for a in actions]
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    assert envs.get_state(0) != state
    with pytest.raises(ValueError, match="bytes"):
        envs.set_state(0, state[:-1])


@pytest.mark.parametrize(
    ("option", "value"),
    [("day_length", 0), ("zombie_health", 0), ("mob_despawn_distance", -1), ("spawn_cow_chance", 1.5),
     ("spawn_skeleton_chance", -0.1)],
)
def test_bad_option_values_are_refused(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        rlpool.make_spec(SYMBOLIC[0], **{option: value})


def test_options_change_the_game() -> None:
    default = _run(SYMBOLIC[0], 30, num_envs=1, seed=2)
    short_days = _run(SYMBOLIC[0], 30, num_envs=1, seed=2, day_length=10)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(default, short_days, strict=True))


def test_action_out_of_range_is_refused() -> None:
    envs = rlpool.make(SYMBOLIC[0], num_envs=1)
    envs.reset()
    with pytest.raises(ValueError):
        envs.step(np.array([17]))


ENVPOOL_DRIVER = """
import json, sys
import numpy as np, envpool
task_id, n, seed, steps, limit, out = json.loads(sys.argv[1])
envs = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=limit)
actions = np.random.default_rng(seed).integers(0, 17, (steps, n))
obs, _ = envs.reset()
rows = {k: [] for k in ("obs", "reward", "terminated", "truncated", "achievements", "score", "discount")}
rows["obs"].append(obs)
for t in range(steps):
    obs, reward, terminated, truncated, info = envs.step(actions[t].astype(np.int32))
    names = sorted(k for k in info if k.startswith("Achievements/"))
    for key, value in (("obs", obs), ("reward", reward), ("terminated", terminated), ("truncated", truncated),
                       ("achievements", np.stack([info[k] for k in names], 1) if names else np.zeros((n, 0))),
                       ("score", info["score"]), ("discount", info["discount"])):
        rows[key].append(value)
np.savez(out, actions=actions, **{k: np.array(v) for k, v in rows.items()})
print(json.dumps(names))
"""
ACHIEVEMENT_ORDER = [
    "collect_wood", "place_table", "eat_cow", "collect_sapling", "collect_drink", "make_wood_pickaxe",
    "make_wood_sword", "place_plant", "defeat_zombie", "collect_stone", "place_stone", "eat_plant",
    "defeat_skeleton", "make_stone_pickaxe", "make_stone_sword", "wake_up", "place_furnace", "collect_coal",
    "collect_iron", "collect_diamond", "make_iron_pickaxe", "make_iron_sword",
]
ENVPOOL_CASES = {  # task id -> (num_envs, steps, time limit)
    "Craftax-Classic-Symbolic-v1": (3, 2000 if FULL else 400, 150),
    "Craftax-Classic-Symbolic-AutoReset-v1": (3, 2000 if FULL else 400, 150),
    "Craftax-Classic-Pixels-v1": (2, 600 if FULL else 150, 60),
    "Craftax-Classic-Pixels-AutoReset-v1": (2, 600 if FULL else 150, 60),
}


@pytest.mark.parametrize("task_id", list(ENVPOOL_CASES))
def test_same_as_envpool(task_id: str, tmp_path: Path) -> None:
    python = envpool_python()
    if task_id in PIXELS and not _pixels_available():
        pytest.skip("craftax's textures cannot be had here")
    n, steps, limit = ENVPOOL_CASES[task_id]
    seed = 7
    out = tmp_path / "envpool.npz"
    run = subprocess.run([str(python), "-c", ENVPOOL_DRIVER, json.dumps([task_id, n, seed, steps, limit, str(out)])],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-2000:]
    names = [k.removeprefix("Achievements/") for k in json.loads(run.stdout.splitlines()[-1])]
    ref = np.load(out)
    columns = [names.index(a) for a in ACHIEVEMENT_ORDER]  # EnvPool's keys sorted by name -> craftax's order
    same_step = "-AutoReset-" in task_id
    envs = rlpool.make(task_id, num_envs=n, seed=seed, max_episode_steps=limit,
                       autoreset_mode="SameStep" if same_step else "NextStep")
    obs, _ = envs.reset()
    assert np.array_equal(obs, ref["obs"][0])
    ended = 0
    for t, action in enumerate(ref["actions"]):
        obs, reward, terminated, truncated, info = envs.step(action)
        where = f"{task_id} step {t}"
        assert np.array_equal(obs, ref["obs"][t + 1]), where
        assert np.array_equal(reward.astype(np.float32), ref["reward"][t]), where
        assert np.array_equal(terminated, ref["terminated"][t]), where
        assert np.array_equal(truncated & ~terminated, ref["truncated"][t]), where
        ended += int((terminated | truncated).sum())
        final = info.get("final_info") if same_step else None
        for i in range(n):
            if truncated[i] and not terminated[i]:
                continue  # EnvPool fills the info at a truncation too
            got = final if final is not None and terminated[i] else info
            assert np.array_equal(achievements(got)[i], ref["achievements"][t, i, columns]), where
            assert got["score"][i] == ref["score"][t, i] and got["discount"][i] == ref["discount"][t, i], where
    assert ended >= n  # episodes ended, and the resets after them were compared


def test_envpool_layer_ids_config_and_facts() -> None:
    import rlpool.compat.envpool as envpool

    for task_id in SYMBOLIC:
        assert "Craftax/" + task_id.removeprefix("Craftax-") in envpool.list_all_envs()
    auto = envpool.make_gymnasium("Craftax/Classic-Symbolic-AutoReset-v1", num_envs=2, map_size=[64, 64])
    assert auto.config["autoreset_mode"] == "SameStep" and auto.config["auto_reset"] is True
    assert auto.config["spawn_cow_chance"] == float(np.float32(0.1))
    keys = list(auto.config)
    assert keys.index("map_size") < keys.index("day_length") < keys.index("debug_state")
    plain = envpool.make_gymnasium("Craftax-Classic-Symbolic-v1", num_envs=1)
    assert plain.config["autoreset_mode"] == "NextStep" and plain.config["auto_reset"] is False
    with pytest.raises(envpool.EnvPoolError, match="god_mode"):
        envpool.make_gymnasium("Craftax-Classic-Symbolic-v1", god_mode=True)


def test_dm_face_names_the_achievement_entries_as_fields():
    """craftax's info keys (``Achievements/<name>``) are no identifiers: the dm observation has them with ``_``."""
    pytest.importorskip("dm_env")
    env = rlpool.make_dm("Craftax-Classic-Symbolic-v1", num_envs=2, seed=0)
    try:
        first = env.reset()
        assert first.observation.Achievements_collect_wood.shape == (2,)
        assert env.observation_spec().Achievements_collect_wood.shape == ()
        step = env.step(np.zeros(2, dtype=np.int64))
        assert step.observation.obs.shape == (2, 1345)
    finally:
        env.close()
