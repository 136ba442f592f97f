"""rlpool's full Craftax tasks (``Craftax-Symbolic-v1`` ...) against craftax 1.6.1 (jitted, CPU), bit for bit.

The reference is craftax's own code on jax/jaxlib 0.10.2 in a cached virtualenv (``craftax_reference.py``),
keyed as EnvPool 1.2.7 keys its Craftax envs: env i of a pool seeded with s resets with ``PRNGKey(s + i)``,
each step does ``key, k = split(key)`` and ``step_env(k)`` (the -AutoReset- ids: craftax's
``EnvironmentAutoReset.step(k)``, whose reset uses ``split(k)[1]``). The first worlds of many seeds must be
craftax's (observation and every state leaf), and whole runs of random actions (43 actions)
must give the same observations (bit for bit), rewards, flags, info (craftax's 67 ``Achievements/<name>`` and
``discount``, no ``score``; SameStep's final rows) and saved states (every leaf of craftax's state, and the
key) at every step: with default options, with other options (short days, god mode: a full inventory, every
floor reachable) and from states with full inventories, across episode ends and time limits; and the env put
into each of craftax's states (``set_state``) must step to craftax's next one. The checks are shown to fail on
a wrong action or state. Without the reference: spaces and info, the threads and env seeds, saved states and
refused input. EnvPool 1.2.7 (``envpool127.py``): its observations, rewards and flags, bit for bit (EnvPool's
own world generation differs from craftax's for a few keys, none of these runs'), but for the pixel ids' reset
frames, which EnvPool draws as a step's (``assert_envpool_obs``).

The default run compares a few seeds for tens of steps; ``RLPOOL_FULL_REFERENCE=1`` (CI) runs more seeds and
longer, EnvPool's symbolic ids, and craftax's own ``EnvironmentAutoReset`` program. The pixel tasks are compared in
``test_craftax_full_pixels.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from craftax_reference import (
    FULL_INVENTORY,
    FULL_STATE_BYTES,
    Mismatch,
    Reference,
    get_leaf,
    lockstep,
    random_actions,
    synced,
    with_leaf,
)
from envpool127 import envpool_python
from lane import FULL

import rlpool

SYMBOLIC = "Craftax-Symbolic-v1"
AUTO = "Craftax-Symbolic-AutoReset-v1"
IDS = ("Craftax-Symbolic-v1", "Craftax-Symbolic-AutoReset-v1", "Craftax-Pixels-v1", "Craftax-Pixels-AutoReset-v1")
ACHIEVEMENTS = [
    "collect_wood", "place_table", "eat_cow", "collect_sapling", "collect_drink", "make_wood_pickaxe",
    "make_wood_sword", "place_plant", "defeat_zombie", "collect_stone", "place_stone", "eat_plant",
    "defeat_skeleton", "make_stone_pickaxe", "make_stone_sword", "wake_up", "place_furnace", "collect_coal",
    "collect_iron", "collect_diamond", "make_iron_pickaxe", "make_iron_sword", "make_arrow", "make_torch",
    "place_torch", "make_diamond_sword", "make_iron_armour", "make_diamond_armour", "enter_gnomish_mines",
    "enter_dungeon", "enter_sewers", "enter_vault", "enter_troll_mines", "enter_fire_realm", "enter_ice_realm",
    "enter_graveyard", "defeat_gnome_warrior", "defeat_gnome_archer", "defeat_orc_solider", "defeat_orc_mage",
    "defeat_lizard", "defeat_kobold", "defeat_troll", "defeat_deep_thing", "defeat_pigman", "defeat_fire_elemental",
    "defeat_frost_troll", "defeat_ice_elemental", "damage_necromancer", "defeat_necromancer", "eat_bat",
    "eat_snail", "find_bow", "fire_bow", "collect_sapphire", "learn_fireball", "cast_fireball", "learn_iceball",
    "cast_iceball", "collect_ruby", "make_diamond_pickaxe", "open_chest", "drink_potion", "enchant_sword",
    "enchant_armour", "defeat_knight", "defeat_archer",
]
"""craftax 1.6.1's full Achievement names, by value."""
OPTIONS = {"day_length": 300, "always_diamond": False, "mob_despawn_distance": 14, "max_attribute": 5,
           "god_mode": False}
"""EnvPool's names and craftax's defaults."""
OTHER_OPTIONS = {"day_length": 40, "always_diamond": True, "mob_despawn_distance": 8, "max_attribute": 2}
"""Short days (nights, sleep, night mobs), an overworld diamond, nearer despawns, a lower attribute cap."""
GOD = {"god_mode": True}
"""craftax's god mode: a full inventory, health never below 9, moves through anything, DESCEND/ASCEND anywhere:
random actions craft, place, enchant, cast, drink and visit every floor."""
ENVS, STEPS = (4, 1000) if FULL else (2, 40)  # a full state is 273 kB: 1,000 steps of one env hold 273 MB


@pytest.fixture(scope="module")
def ref():
    """One craftax child for the whole file (its imports take seconds); tests switch its env with ``use``."""
    with Reference(SYMBOLIC) as reference:
        yield reference


def boosted_start(ref: Reference, seed: int) -> bytes:
    """craftax's reset state of ``seed`` with 9 of every resource, potion and book (no tools)."""
    state = ref.rollout(seed, np.zeros(0, np.int64)).state[0].tobytes()
    for item in FULL_INVENTORY:
        state = with_leaf(state, f"inventory.{item}", 0 if item in ("pickaxe", "sword", "bow") else 9)
    for item in ("torches", "ruby", "sapphire", "potions", "books"):
        state = with_leaf(state, f"inventory.{item}", 9)
    return state


def test_ids_spaces_and_info_are_envpools() -> None:
    ids = set(rlpool.list_all_envs())
    for task_id in IDS:
        assert task_id in ids
        spec = rlpool.make_spec(task_id)
        shape = (130, 110, 3) if "Pixels" in task_id else (8268,)
        assert spec.observation_space.shape == shape and spec.observation_space.dtype == np.float32
        assert spec.action_space.n == 43
        assert spec.max_episode_steps == 100000
    for task_id in (SYMBOLIC, AUTO):
        env = rlpool.make(task_id, num_envs=2, seed=0)
        obs, info = env.reset()
        assert obs.shape == (2, 8268) and obs.dtype == np.float32 and 0 <= obs.min() and obs.max() <= 1
        obs, reward, terminated, truncated, info = env.step(np.zeros(2, np.int64))
        assert reward.shape == (2,)
        achievement_keys = sorted(k for k in info if k.startswith("Achievements/"))
        assert achievement_keys == sorted(f"Achievements/{name}" for name in ACHIEVEMENTS)
        for key in achievement_keys:
            assert info[key].shape == (2,) and info[key].dtype == np.float32
        assert "score" not in info  # full Craftax's log_achievements_to_info has none
        assert info["discount"].dtype == np.float32
        assert len(env.get_state(0)) == FULL_STATE_BYTES + 8
        env.close()
    default = rlpool.make(AUTO, num_envs=1)
    assert default.metadata["autoreset_mode"].name == "SAME_STEP"
    default.close()
    for name, value in {**OPTIONS, **OTHER_OPTIONS, **GOD}.items():
        rlpool.make(SYMBOLIC, num_envs=1, **{name: value}).close()


def test_resets_equal_craftax(ref: Reference) -> None:
    """The first worlds of many seeds: observation and every state leaf (world generation is all of a reset)."""
    ref.use(SYMBOLIC)
    n = 200 if FULL else 12
    env = rlpool.make(SYMBOLIC, num_envs=n, seed=1000)
    obs, _ = env.reset()
    for i in range(n):
        run = ref.rollout(1000 + i, np.zeros(0, np.int64))
        assert np.array_equal(obs[i].view(np.uint32), run.obs[0].view(np.uint32)), f"seed {1000 + i}: observation"
        assert env.get_state(i) == run.state[0].tobytes(), f"seed {1000 + i}: state"
    env.close()


WORLDS_ENVPOOL_GETS_WRONG = [  # (pool seed, num_envs, env, steps before the dying step, time limit, options)
    (1000, 32, 13, 2030, 5000, {}),
    (8000, 32, 1, 1903, 2000, {"always_diamond": True, "mob_despawn_distance": 6}),
]
"""Random runs (actions ``random_actions(seed, steps, num_envs, 43)``) where EnvPool 1.2.7's NextStep reset
after the player's death generates another world than craftax's (a few cells differ)."""


@pytest.mark.parametrize(("seed", "n", "i", "steps", "limit", "options"), WORLDS_ENVPOOL_GETS_WRONG)
def test_resets_envpool_gets_wrong_equal_craftax(ref: Reference, seed: int, n: int, i: int, steps: int, limit: int,
                                                 options: dict) -> None:
    """rlpool's world is craftax's where EnvPool's is not: the death and the reset after it, from the state
    before (rlpool's, equal to craftax's: whole runs compared once while porting)."""
    actions = random_actions(seed, steps + 3, n, 43)[:, i]
    env = rlpool.make(SYMBOLIC, num_envs=1, seed=seed + i, max_episode_steps=limit, **options)
    env.reset()
    for a in actions[:steps]:
        env.step(np.array([a]))
    start = env.get_state(0)
    env.close()
    ref.use(SYMBOLIC, **options)
    stats = lockstep(SYMBOLIC, ref, seed=seed + i, num_envs=1, steps=3, actions=actions[steps:, None], start=[start],
                     max_episode_steps=limit, **options)
    assert stats.episodes_ended == 1 and stats.resets == 1


# The -AutoReset- ids with EnvPool's mode (SameStep: craftax's EnvironmentAutoReset) and rlpool's default.
RUNS = [(SYMBOLIC, "NextStep"), (AUTO, "SameStep"), (AUTO, "NextStep")] if FULL else [(SYMBOLIC, "NextStep")]


@pytest.mark.parametrize(("task_id", "mode"), RUNS)
def test_whole_runs_equal_craftax(ref: Reference, task_id: str, mode: str) -> None:
    ref.use(SYMBOLIC)
    assert ref.achievements == [f"Achievements/{name}" for name in ACHIEVEMENTS]
    stats = lockstep(task_id, ref, seed=1, num_envs=ENVS, steps=STEPS, autoreset_mode=mode)
    assert stats.steps == ENVS * STEPS


@pytest.mark.parametrize("options", [OTHER_OPTIONS, GOD] if FULL else [GOD])
def test_other_options_equal_craftax(ref: Reference, options: dict) -> None:
    """craftax's EnvParams passed as the options say; god mode reaches the crafting, magic and floor code."""
    ref.use(SYMBOLIC, **options)
    stats = lockstep(SYMBOLIC, ref, seed=11, num_envs=2 if FULL else 1, steps=STEPS if FULL else 60, **options)
    if FULL:
        assert stats.rewarded > 0


LIMIT_RUNS = [(SYMBOLIC, "NextStep"), (AUTO, "SameStep"), (SYMBOLIC, "SameStep")] if FULL else [(AUTO, "SameStep")]


@pytest.mark.parametrize(("task_id", "mode"), LIMIT_RUNS)
def test_time_limits_and_resets_equal_craftax(ref: Reference, task_id: str, mode: str) -> None:
    """A short time limit ends episodes: the NextStep reset and the SameStep one (its key) as craftax's."""
    ref.use(SYMBOLIC)
    stats = lockstep(task_id, ref, seed=21, num_envs=2, steps=300 if FULL else 40, max_episode_steps=12,
                     autoreset_mode=mode)
    assert stats.episodes_ended >= 6


def test_full_inventories_equal_craftax(ref: Reference) -> None:
    """Runs from states with 9 of everything, so that random actions craft, place, drink, read and enchant."""
    ref.use(SYMBOLIC)
    n = 4 if FULL else 1
    starts = [boosted_start(ref, 31 + i) for i in range(n)]
    stats = lockstep(SYMBOLIC, ref, seed=31, num_envs=n, steps=STEPS, start=starts)
    assert stats.steps == n * STEPS


@pytest.mark.skipif(not FULL, reason="one step from each of craftax's states: the full lane (lockstep covers it)")
def test_each_step_from_craftax_states(ref: Reference) -> None:
    """The env put into craftax's state before every step (set_state) steps to craftax's next state."""
    compared = 0
    for options in (OTHER_OPTIONS, GOD):
        ref.use(SYMBOLIC, **options)
        for seed in range(41, 43):
            actions = random_actions(seed, STEPS, 1, 43)[:, 0]
            for start in (None, boosted_start(ref, seed)):
                run = ref.rollout(seed, actions, start=start)
                compared += synced(SYMBOLIC, run, actions, ref.achievements, **options)
    assert compared >= STEPS


@pytest.mark.skipif(not FULL, reason="craftax's EnvironmentAutoReset is another compile: full lane only")
def test_auto_reset_ids_equal_craftaxs_own_wrapper(ref: Reference) -> None:
    """craftax's own jitted ``EnvironmentAutoReset.step`` (one XLA program for step and reset); the light_level it
    stores may be one rounding off ``step_env``'s, as in Classic (see test_craftax_classic.py)."""
    ref.use(SYMBOLIC)
    stats = lockstep(AUTO, ref, seed=51, num_envs=2, steps=1000, wrapper=True, autoreset_mode="SameStep",
                     light_atol=2.0**-23)
    assert stats.light_off_states < stats.steps // 2


def test_the_comparison_fails_on_a_wrong_action_or_state(ref: Reference) -> None:
    ref.use(SYMBOLIC)

    def turn_down(t: int, actions: np.ndarray) -> np.ndarray:
        if t == 5:
            actions[0] = 4  # DOWN: the player (facing up since the reset) turns, moving or not
        return actions

    with pytest.raises(Mismatch, match="env 0 .* step 6: observation"):
        lockstep(SYMBOLIC, ref, seed=61, num_envs=1, steps=12, actions=np.zeros((12, 1), np.int64), perturb=turn_down)
    actions = random_actions(62, 12, 1, 43)[:, 0]
    run = ref.rollout(62, actions)

    def hungrier(t: int, state: bytes) -> bytes:
        return with_leaf(state, "player_food", get_leaf(state, "player_food") - 1) if t == 3 else state

    with pytest.raises(Mismatch, match="observation"):
        synced(SYMBOLIC, run, actions, ref.achievements, edit=hungrier)

    def other_key(t: int, state: bytes) -> bytes:
        key = np.frombuffer(state[FULL_STATE_BYTES:], np.uint32) ^ np.uint32(1)
        return state[:FULL_STATE_BYTES] + key.tobytes() if t == 3 else state

    with pytest.raises(Mismatch, match="state"):
        synced(SYMBOLIC, run, actions, ref.achievements, edit=other_key)


def _trajectory(task_id: str, **kwargs: object) -> list[np.ndarray]:
    env = rlpool.make(task_id, num_envs=4, seed=5, max_episode_steps=40, **kwargs)
    actions = random_actions(5, 100, 4, 43)
    out = [env.reset()[0]]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out += [obs, reward, terminated, truncated, info["discount"], info["Achievements/collect_wood"]]
    out += [np.frombuffer(env.get_state(i), np.uint8) for i in range(4)]
    env.close()
    return out


@pytest.mark.parametrize(("task_id", "mode"), [(SYMBOLIC, "NextStep"), (AUTO, "SameStep")])
def test_same_seed_same_runs_whatever_the_threads(task_id: str, mode: str) -> None:
    """Env i of a pool seeded with s is the env seeded with s + i, on one thread or two, in either order."""
    one = _trajectory(task_id, num_threads=1, autoreset_mode=mode, **GOD)
    for a, b in zip(one, _trajectory(task_id, num_threads=2, autoreset_mode=mode, **GOD), strict=True):
        np.testing.assert_array_equal(a, b)
    single = rlpool.make(task_id, num_envs=1, seed=7, **GOD)
    np.testing.assert_array_equal(single.reset()[0][0], one[0][2])
    again, _ = single.reset(seed=7)
    np.testing.assert_array_equal(again[0], one[0][2])
    single.close()


def test_async_order_does_not_change_an_envs_run() -> None:
    """An async pool (batch smaller than the pool) gives each env the run it has in a sync pool."""
    sync = rlpool.make(SYMBOLIC, num_envs=4, seed=3)
    obs, _ = sync.reset()
    want = {i: [obs[i]] for i in range(4)}
    actions = random_actions(3, 30, 4, 43)
    for a in actions:
        obs, *_ = sync.step(a)
        for i in range(4):
            want[i].append(obs[i])
    sync.close()
    pool = rlpool.make(SYMBOLIC, num_envs=4, batch_size=2, seed=3, num_threads=2)
    pool.async_reset()
    got: dict[int, list[np.ndarray]] = {i: [] for i in range(4)}
    while min(len(v) for v in got.values()) <= len(actions):
        obs, _, _, _, info = pool.recv()
        ids = info["env_id"]
        for row, i in enumerate(ids):
            got[int(i)].append(obs[row])
        pool.send(np.array([actions[min(len(got[int(i)]) - 1, len(actions) - 1), int(i)] for i in ids]), ids)
    pool.close()
    for i in range(4):
        for t in range(len(actions) + 1):
            np.testing.assert_array_equal(got[i][t], want[i][t], err_msg=f"env {i} step {t}")


def test_a_saved_state_continues_exactly() -> None:
    env = rlpool.make(SYMBOLIC, num_envs=1, seed=3, **GOD)
    env.reset()
    actions = random_actions(3, 60, 1, 43)
    for a in actions[:20]:
        env.step(a)
    state = env.get_state(0)
    first = [env.step(a) for a in actions[20:]]
    env.set_state(0, state)
    assert env.get_state(0) == state
    again = [env.step(a) for a in actions[20:]]
    for x, y in zip(first, again, strict=True):
        for u, v in zip(x[:4], y[:4], strict=True):
            np.testing.assert_array_equal(u, v)
    # A state moves between the ids: same game, same key.
    other = rlpool.make(AUTO, num_envs=1, seed=9)
    other.reset()
    other.set_state(0, state)
    assert other.get_state(0) == state
    env.close()
    other.close()


def test_bad_input_is_refused_by_name() -> None:
    env = rlpool.make(SYMBOLIC, num_envs=1, seed=0)
    twin = rlpool.make(SYMBOLIC, num_envs=1, seed=0)
    env.reset()
    twin.reset()
    for action in (43, -1):
        with pytest.raises(ValueError, match="action"):
            env.step(np.array([action], np.int64))
    state = env.get_state(0)
    cells = np.arange(9 * 48 * 48).reshape(9, 48, 48)
    live_far = with_leaf(state, "melee_mobs.mask", np.eye(9, 3, dtype=bool))
    bad = {
        "bytes": state[:-1],
        "map": with_leaf(state, "map", np.where(cells == 7, 37, get_leaf(state, "map"))),
        "item_map": with_leaf(state, "item_map", np.where(cells == 9, -1, get_leaf(state, "item_map"))),
        "light_map": with_leaf(state, "light_map", np.where(cells == 11, np.nan, get_leaf(state, "light_map"))),
        "player_level": with_leaf(state, "player_level", 9),
        "player_direction": with_leaf(state, "player_direction", 0),
        "player_position": with_leaf(state, "player_position", [48, 3]),
        "player_health": with_leaf(state, "player_health", np.inf),
        "inventory.pickaxe": with_leaf(state, "inventory.pickaxe", 5),
        "inventory.potions": with_leaf(state, "inventory.potions", [0, 0, 100, 0, 0, 0]),
        "melee_mobs.type_id": with_leaf(state, "melee_mobs.type_id", 8),
        "melee_mobs.position": with_leaf(live_far, "melee_mobs.position", -1),
        "potion_mapping": with_leaf(state, "potion_mapping", [0, 1, 2, 3, 4, 6]),
        "player_projectile_directions": with_leaf(state, "player_projectile_directions", 2),
    }
    mob_map = bytearray(state)
    mob_map[2 * 9 * 48 * 48 * 4 + 10] = 2
    bad["mob_map"] = bytes(mob_map)
    for field, blob in bad.items():
        with pytest.raises(ValueError, match=field):
            env.set_state(0, blob)
    with pytest.raises(ValueError, match="day_length"):
        rlpool.make(SYMBOLIC, num_envs=1, day_length=0)
    with pytest.raises(ValueError, match="max_attribute"):
        rlpool.make(SYMBOLIC, num_envs=1, max_attribute=-1)
    # The refused calls changed nothing.
    for a in random_actions(0, 20, 1, 43):
        x, y = env.step(a), twin.step(a)
        np.testing.assert_array_equal(x[0], y[0])
        np.testing.assert_array_equal(x[1], y[1])
    assert env.get_state(0) == twin.get_state(0)
    env.close()
    twin.close()


ENVPOOL_DRIVER = """
import json, sys
import numpy as np, envpool
task_id, n, seed, steps, limit, out = json.loads(sys.argv[1])
envs = envpool.make_gymnasium(task_id, num_envs=n, seed=seed, max_episode_steps=limit)
actions = np.random.default_rng(seed).integers(0, 43, (steps, n))
obs, _ = envs.reset()
rows = {k: [] for k in ("obs", "reward", "terminated", "truncated", "discount")}
rows["obs"].append(obs)
for t in range(steps):
    obs, reward, terminated, truncated, info = envs.step(actions[t].astype(np.int32))
    for key, value in (("obs", obs), ("reward", reward), ("terminated", terminated), ("truncated", truncated),
                       ("discount", info["discount"])):
        rows[key].append(value)
np.savez(out, actions=actions, **{k: np.array(v) for k, v in rows.items()})
"""
ENVPOOL_CASES = {  # task id -> (num_envs, steps, time limit)
    "Craftax-Symbolic-v1": (3, 1000, 50),
    "Craftax-Symbolic-AutoReset-v1": (3, 1000, 50),
}
"""The full lane's; the default one compares a pixel id with EnvPool (test_craftax_full_pixels.py)."""


def envpool_run(task_id: str, n: int, seed: int, steps: int, limit: int, out: Path) -> dict[str, np.ndarray]:
    """EnvPool 1.2.7's run of ``task_id`` with random actions, from its own Python."""
    python = envpool_python()
    run = subprocess.run([str(python), "-c", ENVPOOL_DRIVER, json.dumps([task_id, n, seed, steps, limit, str(out)])],
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-2000:]
    return dict(np.load(out))


def _reset_rounding_mask() -> np.ndarray:
    """Where craftax's reset_env rounds a pixel frame otherwise than a step (full_render.cc, Program::kReset):
    the map's red and green channels in pixel columns 0-103."""
    mask = np.zeros((130, 110, 3), bool)
    mask[:90, :104, :2] = True
    return mask


def assert_envpool_obs(obs: np.ndarray, want: np.ndarray, resets: np.ndarray, pixels: bool, where: str) -> None:
    """EnvPool's observations bit for bit, except where a pixel env's row is a reset's frame: EnvPool 1.2.7 draws
    it as a step's, rlpool as craftax's reset_env, so those frames may differ by 1 ulp in
    ``_reset_rounding_mask`` and nowhere else."""
    got, ref = obs.view(np.int32).astype(np.int64), want.view(np.int32)
    allowed = np.zeros(obs.shape, bool)
    if pixels:
        allowed[resets] = _reset_rounding_mask()
    ulps = np.abs(got - ref)
    bad = (ulps > 1) | ((ulps == 1) & ~allowed)
    assert not bad.any(), f"{where}: {int(bad.sum())} values differ, first at {np.argwhere(bad)[0].tolist()}"


def compare_with_envpool(task_id: str, ref: dict[str, np.ndarray], limit: int) -> tuple[int, int, int]:
    """rlpool's run of the same actions (SameStep for the -AutoReset- ids, as EnvPool): the episodes ended, the
    reset observations compared, and the observations that differ from EnvPool's (pixel ids' reset frames
    only: see ``assert_envpool_obs``)."""
    n = ref["obs"].shape[1]
    same_step = "-AutoReset-" in task_id
    pixels = "-Pixels-" in task_id
    envs = rlpool.make(task_id, num_envs=n, seed=7, max_episode_steps=limit,
                       autoreset_mode="SameStep" if same_step else "NextStep")
    obs, _ = envs.reset()
    resets = np.ones(n, bool)
    assert_envpool_obs(obs, ref["obs"][0], resets, pixels, f"{task_id} reset")
    differing = int((obs != ref["obs"][0]).reshape(n, -1).any(1).sum())
    reset_frames = n
    ended = 0
    ended_before = np.zeros(n, bool)
    for t, action in enumerate(ref["actions"]):
        obs, reward, terminated, truncated, info = envs.step(action)
        where = f"{task_id} step {t + 1}"
        resets = (terminated | truncated) if same_step else ended_before
        ended_before = terminated | truncated
        assert_envpool_obs(obs, ref["obs"][t + 1], resets, pixels, where)
        differing += int((obs != ref["obs"][t + 1]).reshape(n, -1).any(1).sum())
        reset_frames += int(resets.sum())
        np.testing.assert_array_equal(reward.astype(np.float32), ref["reward"][t], err_msg=where)
        np.testing.assert_array_equal(terminated, ref["terminated"][t], err_msg=where)
        np.testing.assert_array_equal(truncated & ~terminated, ref["truncated"][t], err_msg=where)
        ended += int((terminated | truncated).sum())
    envs.close()
    return ended, reset_frames, differing


def test_the_envpool_comparison_allows_only_the_reset_rounding() -> None:
    """``assert_envpool_obs`` lets a pixel reset frame through 1 ulp off in the map's red and green channels of
    pixel columns 0-103, and fails on any other difference: elsewhere, by 2 ulps, in a step's frame, or in a
    symbolic observation."""
    want = np.random.default_rng(0).uniform(0, 1, (2, 130, 110, 3)).astype(np.float32)
    reset, step = np.array([True, False]), np.array([False, False])

    def off(at: tuple[int, int, int, int], ulps: int) -> np.ndarray:
        got = want.copy()
        got.view(np.int32)[at] += ulps
        return got

    assert_envpool_obs(off((0, 10, 103, 1), 1), want, reset, True, "ok")
    assert_envpool_obs(off((0, 89, 0, 0), -1), want, reset, True, "ok")
    for got, resets, pixels in ((off((0, 10, 104, 1), 1), reset, True), (off((0, 10, 5, 2), 1), reset, True),
                                (off((0, 90, 5, 0), 1), reset, True), (off((0, 10, 5, 0), 2), reset, True),
                                (off((1, 10, 5, 0), 1), reset, True), (off((0, 10, 5, 0), 1), step, True),
                                (off((0, 10, 5, 0), 1), reset, False)):
        with pytest.raises(AssertionError):
            assert_envpool_obs(got, want, resets, pixels, "planted")


@pytest.mark.skipif(not FULL, reason="EnvPool's run of a pixel id is the default lane's (test_craftax_full_pixels.py)")
@pytest.mark.parametrize("task_id", list(ENVPOOL_CASES))
def test_same_as_envpool(task_id: str, tmp_path: Path) -> None:
    n, steps, limit = ENVPOOL_CASES[task_id]
    ref = envpool_run(task_id, n, 7, steps, limit, tmp_path / "envpool.npz")
    ended, reset_frames, differing = compare_with_envpool(task_id, ref, limit)
    assert ended >= n and reset_frames > n and differing == 0  # the resets after ended episodes were compared


def test_envpool_layer_ids_config_and_facts() -> None:
    import rlpool.compat.envpool as envpool

    for task_id in IDS:
        assert "Craftax/" + task_id.removeprefix("Craftax-") in envpool.list_all_envs()
    auto = envpool.make_gymnasium("Craftax/Symbolic-AutoReset-v1", num_envs=2, map_size=[48, 48], num_levels=9,
                                  spawn_cow_chance=0.1)
    assert auto.config["autoreset_mode"] == "SameStep" and auto.config["auto_reset"] is True
    assert auto.config["max_episode_steps"] == 100000 and auto.config["god_mode"] is False
    assert auto.config["spawn_cow_chance"] == float(np.float32(0.1))
    keys = list(auto.config)
    assert keys.index("map_size") < keys.index("day_length") < keys.index("debug_state")
    auto.close()
    plain = envpool.make_gymnasium("Craftax-Symbolic-v1", num_envs=1, god_mode=True, max_attribute=3)
    assert plain.config["autoreset_mode"] == "NextStep" and plain.config["auto_reset"] is False
    assert plain.config["god_mode"] is True and plain.config["max_attribute"] == 3
    plain.close()
    for key, value in (("map_size", [64, 64]), ("num_levels", 1), ("zombie_health", 4)):
        with pytest.raises(envpool.EnvPoolError, match=key):
            envpool.make_gymnasium("Craftax-Symbolic-v1", **{key: value})
