"""Toy text: registry, spaces, options, bad input, the three API faces, and determinism.

Spaces, limits and thresholds are checked against gymnasium's registry (and
EnvPool's, for the ids only EnvPool has). Step-by-step parity with gymnasium
is in test_toy_text_gymnasium.py, distributions in test_toy_text_stats.py,
Catch and NChain in test_toy_text_catch_nchain.py.
"""

from __future__ import annotations

import warnings

import gym_reference
import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium_parity import assert_spec_matches_gymnasium

import rlpool
from rlpool.tools import bench

TOY_TEXT = [
    "Blackjack-v1",
    "Catch-v0",
    "CliffWalking-v0",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "NChain-v0",
    "Taxi-v3",
    "Taxi-v4",
]
GYMNASIUM_IDS = ["Blackjack-v1", "CliffWalking-v1", "CliffWalkingSlippery-v1", "FrozenLake-v1", "FrozenLake8x8-v1",
                 "Taxi-v4"]
# EnvPool's (and older gymnasium's) ids, with the dynamics of the current gymnasium id they name.
OLDER_IDS = {"CliffWalking-v0": "CliffWalking-v1", "Taxi-v3": "Taxi-v4"}
ENVPOOL_IDS = ["Blackjack-v1", "Catch-v0", "CliffWalking-v0", "FrozenLake-v1", "FrozenLake8x8-v1", "NChain-v0",
               "Taxi-v3"]

pytestmark = pytest.mark.timeout(120)


# The reference env of an rlpool task: the current gymnasium's (or an older one's, for an older id).
gym_make = gym_reference.make


# --------------------------------------------------------------------------- registry and spaces


def test_every_id_is_listed():
    assert set(TOY_TEXT) <= set(rlpool.list_all_envs())


@pytest.mark.parametrize("task_id", sorted(OLDER_IDS))
def test_older_ids_name_the_current_gymnasium_id_and_match_its_registry(task_id):
    assert rlpool.registry.task(task_id).gymnasium_id == OLDER_IDS[task_id]
    ours, theirs = rlpool.make_spec(task_id), rlpool.make_spec(OLDER_IDS[task_id])
    assert (ours.observation_space, ours.action_space) == (theirs.observation_space, theirs.action_space)
    assert (ours.max_episode_steps, ours.reward_threshold) == (theirs.max_episode_steps, theirs.reward_threshold)


@pytest.mark.parametrize("task_id", GYMNASIUM_IDS)
def test_spaces_and_registry_match_gymnasium(task_id):
    # gymnasium sets no limit for CliffWalking and Blackjack: rlpool takes EnvPool's "no limit".
    spec, ref = assert_spec_matches_gymnasium(task_id, gym_make(task_id))
    for key, value in ref.kwargs.items():  # e.g. Blackjack's sab=True, CliffWalkingSlippery's is_slippery
        assert spec.config[key] == value, key

    env = rlpool.make(task_id, num_envs=3)
    ref_vec = gym.vector.SyncVectorEnv([lambda: gym_make(task_id)] * 3)
    assert env.observation_space == ref_vec.observation_space
    assert env.action_space == ref_vec.action_space
    obs, info = env.reset()
    assert env.observation_space.contains(obs)
    ref_obs, ref_info = ref_vec.reset(seed=0)
    assert type(obs) is type(ref_obs)
    if isinstance(obs, tuple):
        assert [o.dtype for o in obs] == [o.dtype for o in ref_obs]
    else:
        assert obs.dtype == ref_obs.dtype and obs.shape == ref_obs.shape
    # gymnasium's info keys (their "_key" masks aside) are all there
    assert {k for k in ref_info if not k.startswith("_")} <= set(info)
    ref_vec.close()
    env.close()


@pytest.mark.parametrize("task_id", ENVPOOL_IDS)
def test_limits_match_envpool(task_id):
    envpool = pytest.importorskip("envpool")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = envpool.make_spec(task_id)
    spec = rlpool.make_spec(task_id)
    assert spec.max_episode_steps == ref.config.max_episode_steps
    if task_id != "Blackjack-v1":  # EnvPool's Blackjack obs is a Box(0, 31, (3,)); rlpool keeps gymnasium's Tuple
        assert spec.observation_space.shape == ref.observation_space.shape
    assert spec.action_space.n == ref.action_space.n


def test_catch_and_nchain_spaces():
    catch = rlpool.make_spec("Catch-v0")
    assert catch.observation_space == spaces.Box(0.0, 1.0, (10, 5), np.float32)  # bsuite's board
    assert catch.action_space == spaces.Discrete(3)
    assert rlpool.make_spec("Catch-v0", rows=7, columns=3).observation_space.shape == (7, 3)
    nchain = rlpool.make_spec("NChain-v0")
    assert nchain.observation_space == spaces.Discrete(5) and nchain.action_space == spaces.Discrete(2)
    assert nchain.max_episode_steps == 1000  # gym 0.21's registration
    assert rlpool.make_spec("NChain-v0", n=9).observation_space == spaces.Discrete(9)


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("task_id", "options", "n_states"),
    [
        ("FrozenLake-v1", {}, 16),
        ("FrozenLake8x8-v1", {}, 64),
        ("FrozenLake-v1", {"map_name": "8x8"}, 64),
        ("FrozenLake8x8-v1", {"map_name": "4x4"}, 16),
        ("FrozenLake-v1", {"size": 8}, 64),  # EnvPool's option
        ("FrozenLake8x8-v1", {"size": 4}, 16),
        ("FrozenLake-v1", {"desc": "SFH,FFG"}, 6),
        ("FrozenLake8x8-v1", {"desc": "SFFFF,FHFHF,FFFHG"}, 15),  # desc wins over map_name, as in gymnasium
    ],
)
def test_frozen_lake_maps(task_id, options, n_states):
    assert rlpool.make_spec(task_id, **options).observation_space == spaces.Discrete(n_states)


def test_catch_envpool_option_names():
    assert rlpool.make_spec("Catch-v0", height=6, width=4).observation_space.shape == (6, 4)
    assert rlpool.make_spec("Catch-v0", rows=6, height=6).observation_space.shape == (6, 5)


BAD_OPTIONS = [
    # (task, options, exception, pattern)
    ("FrozenLake-v1", {"map_name": "5x5"}, ValueError, r"map_name"),
    ("FrozenLake-v1", {"size": 5}, ValueError, r"size"),
    ("FrozenLake-v1", {"desc": "SFF,FG"}, ValueError, r"same length"),
    ("FrozenLake-v1", {"desc": "SFX,FFG"}, ValueError, r"letters"),
    ("FrozenLake-v1", {"desc": "FFF,FFG"}, ValueError, r"start"),
    ("FrozenLake-v1", {"desc": "SFF,,FFG"}, ValueError, r"empty row"),
    ("FrozenLake-v1", {"desc": ["SFFF", "FHFH", "FFFH", "HFFG"]}, TypeError, r"desc"),
    ("FrozenLake-v1", {"success_rate": 1.5}, ValueError, r"success_rate"),
    ("FrozenLake-v1", {"success_rate": float("nan")}, ValueError, r"success_rate"),
    ("FrozenLake-v1", {"is_slippery": 1}, TypeError, r"is_slippery"),
    ("Taxi-v3", {"is_rainy": "yes"}, TypeError, r"is_rainy"),
    ("CliffWalking-v1", {"is_slippery": None}, TypeError, r"is_slippery"),
    ("Blackjack-v1", {"natural": 1}, TypeError, r"natural"),
    ("Catch-v0", {"rows": 1}, ValueError, r"rows"),
    ("Catch-v0", {"columns": 0}, ValueError, r"columns"),
    ("Catch-v0", {"rows": 4096, "columns": 4096}, ValueError, r"2\*\*20"),
    ("Catch-v0", {"rows": 6, "height": 7}, ValueError, r"height"),
    ("Catch-v0", {"rows": 6.0}, TypeError, r"rows"),
    ("NChain-v0", {"n": 0}, ValueError, r"'n'"),
    ("NChain-v0", {"slip": -0.1}, ValueError, r"slip"),
    ("NChain-v0", {"large": float("inf")}, ValueError, r"large"),
    ("NChain-v0", {"small": "2"}, TypeError, r"small"),
    ("Taxi-v3", {"map_name": "4x4"}, ValueError, r"map_name"),
]


@pytest.mark.parametrize(
    ("task_id", "options", "exc", "pattern"), BAD_OPTIONS, ids=[f"{t}-{sorted(o)}" for t, o, _, _ in BAD_OPTIONS]
)
def test_bad_options_raise(task_id, options, exc, pattern):
    with pytest.raises(exc, match=pattern):
        rlpool.make_spec(task_id, **options)
    with pytest.raises(exc, match=pattern):
        rlpool.make(task_id, num_envs=2, **options)


# --------------------------------------------------------------------------- state snapshots

# (task, a valid state, states that must be refused)
BAD_STATES = [
    ("FrozenLake-v1", np.int64(5).tobytes(), [np.int64(16).tobytes(), np.int64(-1).tobytes(), b"\0" * 4]),
    ("CliffWalking-v1", np.int64(47).tobytes(), [np.int64(48).tobytes(), b""]),
    ("NChain-v0", np.int64(4).tobytes(), [np.int64(5).tobytes()]),
    (
        "Taxi-v3",
        np.array([499, 1], np.int64).tobytes(),
        [np.array([500, 0], np.int64).tobytes(), np.array([3, 2], np.int64).tobytes(), np.int64(3).tobytes()],
    ),
    (
        "Catch-v0",
        np.array([4, 8, 0], np.int64).tobytes(),
        [np.array([5, 0, 0], np.int64).tobytes(), np.array([0, 9, 0], np.int64).tobytes(),
         np.array([0, 0, -1], np.int64).tobytes()],
    ),
]


def blackjack_state(player: list[int], dealer: list[int], suit: int = 0, face: int = 0) -> bytes:
    def hand(cards: list[int]) -> bytes:
        return bytes([len(cards)]) + bytes(cards).ljust(32, b"\0")

    return hand(player) + hand(dealer) + bytes([suit, face])


BAD_STATES.append(
    (
        "Blackjack-v1",
        blackjack_state([10, 10, 1], [10, 6]),
        [
            blackjack_state([], [10, 6]),  # no cards
            blackjack_state([11, 1], [10, 6]),  # no such card
            blackjack_state([10, 10, 10, 10], [10]),  # more than a game reaches
            blackjack_state([10, 1], [10, 10, 7]),  # dealer beyond 26
            blackjack_state([10, 1], [10])[:-1],  # wrong size
            bytes([2, 10, 1, 5]) + b"\0" * 29 + blackjack_state([10], [10])[33:],  # card in an unused slot
            blackjack_state([10, 1], [10, 6], suit=4),  # no such suit
            blackjack_state([10, 1], [9, 6], face=1),  # a face for a card that is not a 10
        ],
    )
)


@pytest.mark.parametrize(("task_id", "good", "bad"), BAD_STATES, ids=[t for t, _, _ in BAD_STATES])
def test_set_state_checks_its_input(task_id, good, bad):
    env = rlpool.make(task_id, num_envs=2)
    env.reset()
    env.set_state(1, good)
    assert env.get_state(1) == good
    before = env.get_state(0)
    for state in bad:
        with pytest.raises(ValueError):
            env.set_state(0, state)
        assert env.get_state(0) == before  # a refused state changes nothing
    env.close()


def test_blackjack_state_round_trips_at_episode_end():
    # A bust hand is a state a game reaches; its snapshot restores.
    env = rlpool.make("Blackjack-v1", num_envs=1, autoreset_mode="Disabled")
    env.reset()
    env.set_state(0, blackjack_state([10, 10, 1], [10, 7]))
    (total, _, _), reward, term, _, _ = env.step(np.array([1]))
    assert term[0] and reward[0] == -1.0 and total[0] > 21
    state = env.get_state(0)
    env.set_state(0, state)
    assert env.get_state(0) == state
    env.close()


# --------------------------------------------------------------------------- the three faces


def test_blackjack_tuple_obs_in_every_face():
    gym_face = rlpool.make_gym("Blackjack-v1", num_envs=3)
    obs, _ = gym_face.reset()
    assert isinstance(obs, tuple) and len(obs) == 3 and all(o.shape == (3,) for o in obs)
    obs, reward, done, _ = gym_face.step(np.zeros(3, np.int64))  # stick: every episode ends
    assert done.all() and set(reward.tolist()) <= {-1.0, 0.0, 1.0}
    dm = rlpool.make_dm("Blackjack-v1", num_envs=3)
    ts = dm.reset()
    assert ts.observation._fields[:3] == ("player_sum", "dealer_card", "usable_ace")
    assert np.all((ts.observation.player_sum >= 4) & (ts.observation.player_sum <= 21))
    assert np.all((ts.observation.dealer_card >= 1) & (ts.observation.dealer_card <= 10))
    gym_face.close()
    dm.close()


def test_taxi_info_in_dm_face():
    dm = rlpool.make_dm("Taxi-v3", num_envs=2)
    ts = dm.reset()
    assert ts.observation.action_mask.shape == (2, 6) and ts.observation.action_mask.dtype == np.int8
    assert np.all(ts.observation.prob == 1.0)
    dm.close()


# --------------------------------------------------------------------------- determinism

N = 64
STEPS = 40
LIMITS = {"NChain-v0": 12, "CliffWalking-v0": 15, "CliffWalking-v1": 15, "CliffWalkingSlippery-v1": 15,
          "Taxi-v3": 15, "FrozenLake8x8-v1": 30}
MODES = ["NextStep", "SameStep", "Disabled"]


def actions_for(n_actions: int, ids: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The action env ``i`` takes at its ``k``-th step, whatever order steps are run in."""
    return ((ids * 5 + k * 3 + (k * k) // 7) % n_actions).astype(np.int64)


def entries(obs) -> list[np.ndarray]:
    return list(obs) if isinstance(obs, tuple) else [obs]


class Recorder:
    """Per-env trajectories: row k of env i is what env i returned the k-th time."""

    def __init__(self, n: int, length: int) -> None:
        self.count = np.zeros(n, int)
        self.length = length
        self.fields: dict[str, np.ndarray] = {}
        self.final: dict[tuple[int, int], list[bytes]] = {}

    def add(self, ids: np.ndarray, obs, reward, term, trunc, info) -> None:
        values = {f"obs{j}": o for j, o in enumerate(entries(obs))}
        values |= {"reward": reward, "term": term, "trunc": trunc, "elapsed": info["elapsed_step"]}
        values |= {k: info[k] for k in ("prob", "action_mask") if k in info}
        keep = self.count[ids] < self.length
        ids, k = ids[keep], self.count[ids][keep]
        for name, v in values.items():
            if name not in self.fields:
                self.fields[name] = np.zeros((self.length, self.count.size, *v.shape[1:]), v.dtype)
            self.fields[name][k, ids] = np.asarray(v)[keep]
        if "final_obs" in info:  # SameStep: the ended episode's last observation
            for row in np.flatnonzero(info["_final_obs"] & keep):
                final = info["final_obs"][row]
                parts = final if isinstance(final, tuple) else (final,)
                key = (int(info["env_id"][row]), int(self.count[info["env_id"][row]]))
                self.final[key] = [np.asarray(p).tobytes() for p in parts]
        self.count[ids] += 1

    def done(self) -> bool:
        return bool(np.all(self.count >= self.length))


def run_sync(task_id: str, mode: str, num_threads: int) -> Recorder:
    env = rlpool.make(task_id, num_envs=N, num_threads=num_threads, seed=5, autoreset_mode=mode,
                      max_episode_steps=LIMITS.get(task_id, 25))
    n_actions = env.single_action_space.n
    rec = Recorder(N, STEPS + 1)
    ids = np.arange(N)
    obs, info = env.reset()
    rec.add(ids, obs, np.zeros(N), np.zeros(N, bool), np.zeros(N, bool), info)
    finished = np.zeros(N, bool)
    for _ in range(STEPS):
        if finished.any():  # Disabled: reset the finished envs first (a masked reset returns every row)
            obs, info = env.reset(options={"reset_mask": finished.copy()})
            rows = np.flatnonzero(finished)
            rec.add(rows, tuple(o[rows] for o in obs) if isinstance(obs, tuple) else obs[rows], np.zeros(rows.size),
                    np.zeros(rows.size, bool), np.zeros(rows.size, bool),
                    {k: v[rows] for k, v in info.items()})
        obs, reward, term, trunc, info = env.step(actions_for(n_actions, ids, rec.count - 1))
        rec.add(ids, obs, reward, term, trunc, info)
        finished = (term | trunc) if mode == "Disabled" else finished
    env.close()
    return rec


def run_async(task_id: str, mode: str, num_threads: int, order_seed: int) -> Recorder:
    """Send envs back in a shuffled order and number; Disabled mode retires an env at its episode end."""
    rng = np.random.default_rng(order_seed)
    bs = 24
    env = rlpool.make(task_id, num_envs=N, batch_size=bs, num_threads=num_threads, seed=5, autoreset_mode=mode,
                      max_episode_steps=LIMITS.get(task_id, 25))
    n_actions = env.single_action_space.n
    rec = Recorder(N, STEPS + 1)
    retired = np.zeros(N, bool)
    env.async_reset()
    in_flight, ready = N, []
    while True:
        obs, reward, term, trunc, info = env.recv()
        ids = info["env_id"].astype(int)
        in_flight -= bs
        rec.add(ids, obs, reward, term, trunc, info)
        if mode == "Disabled":
            retired[ids[term | trunc]] = True
        ready += [i for i in ids.tolist() if not retired[i] and rec.count[i] < STEPS + 1]
        if in_flight + len(ready) < bs:
            break
        k = int(rng.integers(max(1, bs - in_flight), len(ready) + 1))
        order = rng.permutation(len(ready))
        send = np.array([ready[j] for j in order[:k]], int)
        ready = [ready[j] for j in order[k:]]
        env.send(actions_for(n_actions, send, rec.count[send] - 1), send)
        in_flight += len(send)
    env.close()
    return rec


def assert_same(reference: Recorder, other: Recorder, label: str) -> None:
    # Envs retired early (Disabled async) are compared on the steps they made. Which envs the async
    # loop still holds unsent when too few remain for a batch depends on thread timing, and a
    # one-step game (Blackjack) retires most envs after one step; so the floor is half of the envs
    # compared on at least one step, not a total.
    compared = np.minimum(reference.count, other.count)
    assert np.all(compared >= 1) and np.sum(compared >= 2) >= N // 2, (label, compared)
    for name, ref in reference.fields.items():
        got = other.fields[name]
        for i in range(N):
            n = compared[i]
            assert ref[:n, i].tobytes() == got[:n, i].tobytes(), (label, name, i)
    for a, b in ((reference, other), (other, reference)):
        for (i, k), final in a.final.items():
            if k < compared[i]:
                assert b.final.get((i, k)) == final, (label, "final_obs", i, k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task_id", TOY_TEXT)
def test_trajectories_identical_across_modes_and_threads(task_id, mode):
    reference = run_sync(task_id, mode, 1)
    done = reference.fields["term"] | reference.fields["trunc"]
    assert done.sum() >= N  # episode ends (and so autoresets) are part of what is compared
    if mode == "SameStep":
        assert len(reference.final) >= N
    runs = {"sync/2 threads": run_sync(task_id, mode, 2)}
    for threads in (1, 2):
        runs[f"async/{threads} threads"] = run_async(task_id, mode, threads, order_seed=threads)
    for label, rec in runs.items():
        assert_same(reference, rec, f"{task_id} {mode} {label}")


# --------------------------------------------------------------------------- benchmark peers


@pytest.mark.parametrize("task_id", TOY_TEXT)
def test_bench_finds_peers_by_bare_id(task_id):
    bench.check_peer("rlpool-sync", task_id)
    if task_id in GYMNASIUM_IDS:
        assert bench.gym_task_id(task_id) == task_id
        bench.check_peer("gym-sync", task_id)
    elif task_id in OLDER_IDS:
        # gymnasium has the same dynamics under its current id (not, e.g., its jax tabular/CliffWalking-v0)
        assert bench.gym_task_id(task_id) == OLDER_IDS[task_id]
        bench.check_peer("gym-sync", task_id)
    else:
        with pytest.raises(bench.PeerUnavailable):
            bench.check_peer("gym-sync", task_id)
    m = bench.measure("rlpool-sync", task_id, 4, steps=400, warmup=10)
    assert m.steps >= 400 and m.steps_per_sec > 0


def test_bench_measures_taxi_against_gymnasium():
    for peer in ("rlpool-async", "gym-sync"):
        m = bench.measure(peer, "Taxi-v3", 4, steps=200, warmup=10)
        assert m.steps >= 200 and m.steps_per_sec > 0
