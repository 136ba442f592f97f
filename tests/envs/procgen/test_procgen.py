"""Procgen against procgen's own libenv.so driven directly through ctypes (rlpool.envs.procgen.libenv).

The reference is one game in one libenv with the options and ``rand_seed`` rlpool's env uses
(``libenv.rand_seed(seed)``), stepped with the same actions. Frames, rewards, episode ends and level
seeds must be equal bit for bit. rlpool inserts one step after each episode end (the NextStep
autoreset), which must hand out the frame libenv already shows (the next level's first). CI runs every
task for a short stretch and a few tasks over several whole episodes; ``RLPOOL_FULL_REFERENCE=1`` runs
every task over whole episodes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from lane import qt5_missing, require

import rlpool
from rlpool.envs.procgen.registration import GAMES, build_root, task_id

pytestmark = pytest.mark.skipif(not build_root(), reason="rlpool was built without the procgen-mirror wheel")

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
TASKS = [task_id(g, m) for g, _, extra in GAMES for m in ("easy", "hard", *extra)]


def _libenv():
    from rlpool.envs.procgen import libenv

    return libenv


def compare(task: str, seed: int, steps: int, *, min_episodes: int = 0, actions_seed: int = 0, **options) -> int:
    """Step rlpool's env and the reference side by side; returns how many episodes ended."""
    lib = _libenv()
    spec = rlpool.make_spec(task, **options)
    game = spec.task.env_defaults["_game"]
    ref_options = {k: spec.env_config[k] for k in (
        "distribution_mode", "num_levels", "start_level", "use_sequential_levels", "use_backgrounds",
        "restrict_themes", "use_monochrome_assets", "center_agent", "use_generated_assets", "paint_vel_info")}
    if ref_options["distribution_mode"] == "exploration":
        del ref_options["num_levels"], ref_options["start_level"]
    ref = lib.LibEnv(game, seed=lib.rand_seed(seed), **ref_options)
    env = rlpool.make(task, num_envs=1, seed=seed, **options)
    try:
        obs, info = env.reset()
        assert np.array_equal(obs[0], ref.obs[0])
        assert info["level_seed"][0] == ref.info["level_seed"][0]
        rng = np.random.default_rng(actions_seed)
        ends = 0
        for t in range(steps):
            a = int(rng.integers(0, 15))
            obs, reward, terminated, truncated, info = env.step(np.array([a]))
            if info["elapsed_step"][0] == 0:  # the autoreset step: libenv is already in the next level,
                if not ref.first[0]:  # unless rlpool's time limit (JumperMemory's) cut the level short
                    ref.step([-1])  # then: procgen's forced reset
                assert np.array_equal(obs[0], ref.obs[0]), (task, t)
                assert reward[0] == 0 and not terminated[0] and not truncated[0]
                continue
            ref.step([a])
            assert np.array_equal(obs[0], ref.obs[0]), (task, t)
            assert reward[0] == ref.reward[0], (task, t)
            if not (truncated[0] and not ref.first[0]):
                assert bool(terminated[0] or truncated[0]) == bool(ref.first[0]), (task, t)
            assert info["level_seed"][0] == ref.info["level_seed"][0], (task, t)
            assert info["prev_level_complete"][0] == ref.info["prev_level_complete"][0], (task, t)
            assert info["prev_level_seed"][0] == ref.info["prev_level_seed"][0], (task, t)
            if truncated[0] and not ref.first[0]:
                assert spec.task.env_defaults["_timeout"] > spec.config["max_episode_steps"]
                ends += 1
                continue
            ends += int(ref.first[0])
            if min_episodes and ends >= min_episodes:
                break
        assert ends >= min_episodes, (task, ends)
        return ends
    finally:
        env.close()
        ref.close()


@pytest.mark.parametrize("task", TASKS)
def test_every_task_matches_libenv(task: str) -> None:
    if FULL:
        compare(task, seed=3, steps=20_000, min_episodes=3)
    else:
        compare(task, seed=3, steps=300)


@pytest.mark.parametrize("task", ["CoinrunEasy-v0", "MazeEasy-v0", "LeaperHard-v0", "BigfishEasy-v0"])
def test_whole_episodes_match_libenv(task: str) -> None:
    # Random play ends these within a few hundred steps (or at their timeout): several whole episodes.
    assert compare(task, seed=11, steps=3000, min_episodes=2) >= 2


@pytest.mark.parametrize("task", TASKS)
def test_timeouts_are_procgens(task: str) -> None:
    lib = _libenv()
    spec = rlpool.make_spec(task)
    mode = spec.env_config["distribution_mode"]
    ref = lib.LibEnv(spec.task.env_defaults["_game"], seed=1, distribution_mode=mode)
    assert ref.timeout() == spec.task.env_defaults["_timeout"] == spec.task.max_episode_steps_cap
    assert spec.config["max_episode_steps"] <= ref.timeout()
    ref.close()


def test_timeout_is_a_truncation() -> None:
    # CoinRun standing still never dies and never reaches the coin: procgen's 1000-step timeout ends it.
    env = rlpool.make("CoinrunEasy-v0", num_envs=1, seed=0)
    env.reset()
    for _ in range(999):
        _, _, terminated, truncated, _ = env.step(np.array([4]))
        assert not terminated[0] and not truncated[0]
    _, _, terminated, truncated, info = env.step(np.array([4]))
    assert truncated[0] and not terminated[0] and info["elapsed_step"][0] == 1000


@pytest.mark.parametrize("options", [
    {"use_monochrome_assets": True, "use_backgrounds": False},
    {"paint_vel_info": True, "center_agent": False},
    {"restrict_themes": True, "use_generated_assets": True},
    {"num_levels": 5, "start_level": 100},
    {"num_levels": 1, "start_level": 7, "use_sequential_levels": True},
])
def test_options_match_libenv(options) -> None:
    compare("CoinrunHard-v0", seed=5, steps=400, **options)
    compare("StarpilotEasy-v0", seed=5, steps=150, **options)


def test_options_change_the_game() -> None:
    def first_frame(**options):
        env = rlpool.make("CoinrunEasy-v0", seed=1, **options)
        obs, info = env.reset()
        return obs[0].copy(), int(info["level_seed"][0])

    base, _ = first_frame()
    assert not np.array_equal(base, first_frame(use_monochrome_assets=True)[0])
    assert not np.array_equal(base, first_frame(use_backgrounds=False)[0])
    env = rlpool.make("CoinrunEasy-v0", num_envs=8, seed=0, num_levels=3, start_level=50)
    _, info = env.reset()
    seeds = set(info["level_seed"].tolist())
    rng = np.random.default_rng(0)
    for _ in range(500):
        _, _, _, _, info = env.step(rng.integers(0, 15, 8))
        seeds.update(info["level_seed"].tolist())
    assert seeds == {50, 51, 52}
    _, level = first_frame(distribution_mode="exploration")
    assert level == _libenv().EXPLORATION_LEVEL_SEEDS["coinrun"]


def run_pool(task: str, num_envs: int, steps: int, **kwargs) -> list[np.ndarray]:
    env = rlpool.make(task, num_envs=num_envs, seed=100, **kwargs)
    rng = np.random.default_rng(1)
    obs, _ = env.reset()
    out = [obs.copy()]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(rng.integers(0, 15, num_envs))
        out.append(np.concatenate([obs.reshape(num_envs, -1), reward[:, None].astype(np.uint8),
                                   info["level_seed"].view(np.uint8).reshape(num_envs, 4)], axis=1))
    env.close()
    return out


def test_same_seeds_same_levels_whatever_num_threads() -> None:
    one = run_pool("ChaserEasy-v0", 6, 150, num_threads=1)
    three = run_pool("ChaserEasy-v0", 6, 150, num_threads=3)
    for a, b in zip(one, three, strict=True):
        assert np.array_equal(a, b)
    # Env i of a pool is the env of seed 100 + i alone.
    env = rlpool.make("ChaserEasy-v0", num_envs=1, seed=104)
    obs, info = env.reset()
    assert np.array_equal(obs[0], one[0][4])


def test_async_batches_are_deterministic() -> None:
    def run(num_threads: int) -> dict[int, list[bytes]]:
        env = rlpool.make("StarpilotEasy-v0", num_envs=6, batch_size=3, num_threads=num_threads, seed=9)
        env.async_reset()
        frames: dict[int, list[bytes]] = {i: [] for i in range(6)}
        # Until every env has 20 frames: a worker the OS descheduled holds its env back while the
        # others run on, so a fixed number of batches can leave one env with almost none.
        for _ in range(5000):
            if min(len(f) for f in frames.values()) >= 20:
                break
            obs, _, _, _, info = env.recv()
            ids = info["env_id"]
            for row, i in enumerate(ids):
                frames[int(i)].append(obs[row].tobytes())
            env.send(np.array([(len(frames[int(i)]) * 7 + int(i)) % 15 for i in ids]), ids)
        env.close()
        return frames

    a, b = run(1), run(3)
    for i in range(6):
        n = min(len(a[i]), len(b[i]))
        assert n >= 20 and a[i][:n] == b[i][:n]


def test_reset_with_seed_restarts_the_level_stream() -> None:
    env = rlpool.make("MazeEasy-v0", num_envs=2, seed=0)
    first, info0 = env.reset()
    first = first.copy()
    for _ in range(20):
        env.step(np.array([1, 7]))
    again, info1 = env.reset(seed=0)
    assert np.array_equal(first, again) and np.array_equal(info0["level_seed"], info1["level_seed"])
    other, _ = env.reset(seed=[5, 1])
    fresh = rlpool.make("MazeEasy-v0", num_envs=1, seed=1).reset()[0]
    assert np.array_equal(other[1], fresh[0])


def test_user_reset_mid_episode_is_procgens_forced_reset() -> None:
    lib = _libenv()
    env = rlpool.make("CoinrunEasy-v0", num_envs=1, seed=2, autoreset_mode="Disabled")
    ref = lib.LibEnv("coinrun", seed=lib.rand_seed(2), distribution_mode="easy")
    env.reset()
    for _ in range(10):
        env.step(np.array([7]))
        ref.step([7])
    obs, info = env.reset(options={"reset_mask": np.array([True])})
    ref.step([-1])  # gym3's forced reset
    assert np.array_equal(obs[0], ref.obs[0]) and info["level_seed"][0] == ref.info["level_seed"][0]


def test_get_state_set_state_replays() -> None:
    env = rlpool.make("HeistEasy-v0", num_envs=1, seed=4)
    env.reset()
    rng = np.random.default_rng(3)
    for _ in range(30):
        env.step(rng.integers(0, 15, 1))
    state = env.get_state(0)
    actions = rng.integers(0, 15, (200, 1))
    first = [env.step(a)[0][0].copy() for a in actions]
    env.set_state(0, state)
    second = [env.step(a)[0][0].copy() for a in actions]
    assert all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))
    with pytest.raises(ValueError, match="corrupt"):
        env.set_state(0, state[:-1] + bytes([state[-1] ^ 1]))
    with pytest.raises(ValueError, match="short"):
        env.set_state(0, b"xy")
    other = rlpool.make("MazeEasy-v0", num_envs=1, seed=4)
    other.reset()
    with pytest.raises(ValueError, match="not of maze"):
        other.set_state(0, state)


@pytest.mark.parametrize(("options", "match"), [
    ({"distribution_mode": "medium"}, "distribution_mode"),
    ({"distribution_mode": "extreme"}, "distribution_mode"),  # coinrun has no extreme mode
    ({"num_levels": -1}, "num_levels"),
    ({"start_level": 2**31}, "start_level"),
    ({"num_levels": 2**30, "start_level": 2**30 + 5}, "start_level \\+ num_levels"),
    ({"max_episode_steps": 1001}, "max_episode_steps"),
])
def test_bad_options_raise(options, match) -> None:
    with pytest.raises(ValueError, match=match):
        rlpool.make("CoinrunEasy-v0", **options)


def test_exploration_sets_its_own_levels() -> None:
    with pytest.raises(ValueError, match="exploration"):
        rlpool.make("CoinrunExploration-v0", num_levels=3)
    with pytest.raises(ValueError):
        rlpool.make("BigfishEasy-v0", distribution_mode="exploration")


def test_spaces() -> None:
    spec = rlpool.make_spec("BigfishEasy-v0")
    assert spec.observation_space.shape == (64, 64, 3) and spec.observation_space.dtype == np.uint8
    assert spec.action_space.n == 15
    assert spec.config["max_episode_steps"] == 6000
    assert len(TASKS) == 50 and set(TASKS) <= set(rlpool.list_all_envs())


def test_ids_are_envpools() -> None:
    envpool = pytest.importorskip("envpool")
    modes = ("Easy", "Hard", "Extreme", "Memory", "Exploration")
    theirs = {t for t in envpool.list_all_envs() if t.endswith("-v0") and any(m in t for m in modes)
              and not t.startswith("MiniGrid")}
    assert set(TASKS) == theirs


def test_missing_library_is_a_clear_error() -> None:
    code = """
import numpy as np, rlpool
spec = rlpool.make_spec("CoinrunEasy-v0")
try:
    rlpool.make("CoinrunEasy-v0")
except RuntimeError as e:
    print("ERR", e)
env = rlpool.make("CartPole-v1")
env.reset(); env.step(np.zeros(1, np.int64))
print("OK")
"""
    env = dict(os.environ, RLPOOL_PROCGEN_ROOT="/nonexistent/procgen")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ERR could not load Procgen's game library /nonexistent/procgen" in out.stdout
    assert "procgen-mirror==0.10.7" in out.stdout and out.stdout.strip().endswith("OK")


@pytest.mark.parametrize("channel_first", [True, False])
def test_compat_envpool_layout(channel_first: bool) -> None:
    import rlpool.compat.envpool as compat

    envpool = pytest.importorskip("envpool")
    require(qt5_missing())
    theirs = envpool.make_gymnasium("MazeHard-v0", num_envs=2, seed=0, channel_first=channel_first)
    ours = compat.make_gymnasium("MazeHard-v0", num_envs=2, seed=0, channel_first=channel_first)
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    their_config = theirs.spec.config._asdict()
    our_config = ours.spec.config._asdict()
    assert [k for k in our_config if k != "autoreset_mode"] == list(their_config)
    for key in ("env_name", "channel_first", "num_levels", "distribution_mode", "max_episode_steps"):
        assert our_config[key] == their_config[key], key
    for a, b in ((ours.reset(), theirs.reset()), (ours.step(np.array([1, 2])), theirs.step(np.array([1, 2])))):
        assert a[0].shape == b[0].shape and a[0].dtype == b[0].dtype
        info_a, info_b = a[-1], b[-1]
        assert list(info_a) == list(info_b)
        for k in info_a:
            if k != "players":
                assert info_a[k].dtype == info_b[k].dtype, k
    assert compat.make_spec("MazeHard-v0", distribution_mode=0).config.distribution_mode == 0
    assert compat.make_spec("MazeHard-v0", distribution_mode=10).rlpool_spec.env_config["distribution_mode"] == "memory"
    with pytest.raises(ValueError, match="env_name"):
        compat.make_spec("MazeHard-v0", env_name="coinrun")
    dm = compat.make_dm("MazeHard-v0", num_envs=2, channel_first=channel_first)
    ts = dm.reset()
    assert ts.observation.obs.shape == (2, *ours.observation_space.shape)
    assert ts.observation.prev_level_complete.dtype == np.int32
    ours.close()
    theirs.close()


def test_compat_envpool_legacy_gym_layout() -> None:
    import rlpool.compat.envpool_legacy as legacy

    env = legacy.make_gym("CoinrunEasy-v0", num_envs=2)
    obs = env.reset()
    assert obs.shape == (2, 3, 64, 64)
    obs, _, _, info = env.step(np.array([1, 2]))
    assert obs.shape == (2, 3, 64, 64) and info["prev_level_complete"].dtype == np.int32
    env.close()


def test_procgens_python_part_stays_out() -> None:
    code = """
import sys, importlib.util, numpy as np, rlpool
env = rlpool.make("CoinrunEasy-v0", num_envs=2)
env.reset(); env.step(np.zeros(2, np.int64))
print(importlib.util.find_spec("procgen") is None, "procgen" in sys.modules, "gym3" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ)
    assert out.returncode == 0, out.stderr
    # procgen-mirror is not installed; nothing imports procgen's or gym3's Python code.
    assert out.stdout.split() == ["True", "False", "False"]


@pytest.mark.parametrize("task", ["CoinrunEasy-v0", "BigfishHard-v0", "MazeEasy-v0"])
def test_render_is_libenvs_rgb_frame(task: str) -> None:
    """render(): the 512 x 512 frame procgen's libenv draws with render_human (its rgb_array), in lockstep."""
    lib = _libenv()
    spec = rlpool.make_spec(task)
    game = spec.task.env_defaults["_game"]
    mode = spec.env_config["distribution_mode"]
    ref = lib.LibEnv(game, seed=lib.rand_seed(7), render_human=True, distribution_mode=mode)
    env = rlpool.make(task, num_envs=1, seed=7, render_mode="rgb_array")
    try:
        assert env.metadata["render_fps"] == 15
        env.reset()
        frame = env.render()
        assert frame.shape == (1, 512, 512, 3)
        np.testing.assert_array_equal(frame[0], ref.info["rgb"][0])
        rng = np.random.default_rng(0)
        for t in range(40):
            a = int(rng.integers(0, 15))
            _, _, terminated, truncated, _ = env.step(np.array([a]))
            ref.step([a])
            np.testing.assert_array_equal(env.render()[0], ref.info["rgb"][0], err_msg=f"{task} step {t}")
            assert frame.std() > 1.0
            if terminated[0] or truncated[0]:
                break
    finally:
        env.close()
        ref.close()
    # Without a render_mode libenv draws no 512 x 512 frame (and render() is refused in Python).
    plain = rlpool.make(task, num_envs=1, seed=7)
    plain.reset()
    with pytest.raises(Exception, match="render"):
        plain.render()
    plain.close()


# --- states from elsewhere -----------------------------------------------------------------------

_CRAFTED = """
import struct, sys
import numpy as np
import rlpool

def fnv1a(data):  # the checksum procgen_env.cc writes: anyone can compute it
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) % 2**64
    return h

task, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = rlpool.make(task, num_envs=1, seed=0)
env.reset()
for _ in range(20):
    env.step(np.array([1]))
genuine = env.get_state(0)
rng = np.random.default_rng(seed)
for _ in range(count):
    rest = bytearray(genuine[8:])  # the tag, then the body (flag, step count, game name, procgen's blob)
    off = int(rng.integers(8 + 9 + len(task), len(rest) - 4))
    rest[off:off + 4] = struct.pack("<I", int(rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 1 << 20, 0xFFFF])))
    blob = struct.pack("<Q", fnv1a(rest)) + bytes(rest)  # signed: only the tag tells it is not this process's
    try:
        env.set_state(0, blob)
    except ValueError as e:
        assert env.get_state(0) == genuine, "a refused state changed the env"
        print("REFUSED", str(e).replace(chr(10), " "))
        continue
    for a in range(3):
        env.step(np.array([a]))
    print("TAKEN")
    env.set_state(0, genuine)
print("SURVIVED")
"""


@pytest.mark.timeout(600)
def test_crafted_states_are_refused_or_harmless() -> None:
    """A signed blob with a hostile int32 somewhere in procgen's part (the tag, keyed by a random number of the
    process that wrote it, no longer matches): the checker loads it in a process of its own, so procgen's
    fassert or a crash ends that process and the blob is refused naming procgen's reason, with the env as it
    was; a blob procgen takes is loaded and stepped. Without the checker this child process ends at the
    first blob procgen fasserts on (measured: 3 games, 300 blobs each, every run). 12 blobs by default (about 2 s
    each; fewer may all be taken), 30 with RLPOOL_FULL_REFERENCE=1 (CI; about a minute on its 2 cores)."""
    count = 30 if FULL else 12
    out = subprocess.run([sys.executable, "-c", _CRAFTED, "CoinrunEasy-v0", "2", str(count)], env=os.environ,
                         capture_output=True, text=True, timeout=590)
    assert out.returncode == 0 and out.stdout.rstrip().endswith("SURVIVED"), out.stdout[-2000:] + out.stderr[-3000:]
    lines = out.stdout.splitlines()
    refused = [line for line in lines if line.startswith("REFUSED")]
    assert len(refused) + lines.count("TAKEN") == count
    assert any("procgen refused it (exit status 1): fassert failed" in line for line in refused), refused


def test_a_state_written_by_another_process_is_checked_then_loaded(tmp_path, monkeypatch) -> None:
    """Another process's state (its tag is that process's) goes through the checker and then replays as it
    did there; the same blob again does not run the checker (a checker that is not there is needed once);
    this process's own states never need it. A step count past the game's timeout is refused."""
    code = (
        "import numpy as np, rlpool, sys\n"
        "env = rlpool.make('HeistEasy-v0', num_envs=1, seed=4)\n"
        "env.reset()\n"
        "for a in range(30): env.step(np.array([a % 15]))\n"
        "state = env.get_state(0)\n"
        "frames = [env.step(np.array([(7 * t) % 15]))[0][0].copy() for t in range(40)]\n"
        f"open({str(tmp_path / 'state')!r}, 'wb').write(state)\n"
        f"np.save({str(tmp_path / 'frames.npy')!r}, np.stack(frames))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=os.environ, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    state = (tmp_path / "state").read_bytes()
    want = np.load(tmp_path / "frames.npy")
    env = rlpool.make("HeistEasy-v0", num_envs=1, seed=0)
    env.reset()
    own = env.get_state(0)
    env.set_state(0, state)  # the checker runs
    got = np.stack([env.step(np.array([(7 * t) % 15]))[0][0].copy() for t in range(40)])
    assert np.array_equal(got, want)

    monkeypatch.setenv("RLPOOL_PROCGEN_CHECKER", str(tmp_path / "no-such-checker"))
    env.set_state(0, state)  # checked once already
    env.set_state(0, own)  # this process's own
    other = bytearray(state)
    other[9] ^= 1  # the tag: another blob from elsewhere (its checksum redone); the checker is needed, and missing
    import struct

    h = 0xCBF29CE484222325
    for c in other[8:]:
        h = ((h ^ c) * 0x100000001B3) % 2**64
    other[:8] = struct.pack("<Q", h)
    with pytest.raises(RuntimeError, match="Procgen state checker .*no-such-checker is missing"):
        env.set_state(0, bytes(other))
    monkeypatch.delenv("RLPOOL_PROCGEN_CHECKER")
    steps = bytearray(own)
    steps[17:25] = struct.pack("<q", 10**6)  # level steps, past the timeout of 1000
    h = 0xCBF29CE484222325
    for c in steps[8:]:
        h = ((h ^ c) * 0x100000001B3) % 2**64
    steps[:8] = struct.pack("<Q", h)
    with pytest.raises(ValueError, match=r"step count of 1000000 \(valid: 0 to the game's timeout, 1000\)"):
        env.set_state(0, bytes(steps))
    env.close()


@pytest.mark.parametrize(("other", "message"), [
    ({"distribution_mode": "hard"}, "distribution_mode 1; this env has 0"),
    ({"use_backgrounds": False}, "use_backgrounds 0; this env has 1"),
    ({"paint_vel_info": True}, "paint_vel_info 1; this env has 0"),
])
def test_a_state_taken_under_other_settings_is_refused(other, message) -> None:
    """procgen's loader takes the settings a state was taken with over the env's own (a hard level in an easy
    env): such a state is refused by name, whatever process wrote it, and the env stays as it was."""
    source = rlpool.make("CoinrunEasy-v0", num_envs=1, seed=1, **other)
    source.reset()
    env = rlpool.make("CoinrunEasy-v0", num_envs=1, seed=1)
    env.reset()
    before = env.get_state(0)
    with pytest.raises(ValueError, match=f"Procgen state was taken with {message}"):
        env.set_state(0, source.get_state(0))
    assert env.get_state(0) == before
    env.step(np.array([3]))


@pytest.mark.parametrize("game", [g for g, _, _ in GAMES])
def test_every_games_own_state_is_taken(game: str) -> None:
    """The settings check reads the head of every game's blob as procgen writes it."""
    env = rlpool.make(task_id(game, "easy"), num_envs=1, seed=5)
    env.reset()
    env.step(np.array([4]))
    state = env.get_state(0)
    frame = env.step(np.array([1]))[0][0].copy()
    env.set_state(0, state)
    assert np.array_equal(env.step(np.array([1]))[0][0], frame)
