"""EnvPool 1.2.7's multi-player layout in ``rlpool.compat.envpool``, side by side with EnvPool 1.2.7 itself.

Tasks whose agents act at once (MARLGrid, highway's IntersectionMultiAgent) come out with the players
flattened into the batch axis, env-major: obs ``[num_envs * players, ...]``, reward ``[num_envs * players]``,
one ``terminated``/``truncated`` per env, ``info["players"]`` with each row's ``env_id`` and the per-player
entries. EnvPool 1.2.7 runs in a CPython 3.13 virtualenv of its own (``envpool127``): one child process per
module describes its results (shapes, dtypes, key order, spaces, specs) on every face, and each test compares
rlpool's description of the same calls; the per-player rows are checked against rlpool's own agent axis.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

import rlpool
import rlpool.compat.envpool as compat

MARLGRID = "MarlGrid-3AgentEmpty9x9-v0"
TASKS = [MARLGRID, "Goalcycle-demo-solo-v0", "IntersectionMultiAgent-v0", "IntersectionMultiAgent-v1"]
NUM_ENVS = 3

# How both sides describe results: the same code runs in EnvPool's child and here.
DESCRIBE = textwrap.dedent(
    """
    import numpy as np

    def describe(x):
        if isinstance(x, np.ndarray):
            return ["array", list(x.shape), str(x.dtype)]
        if isinstance(x, dict):
            return ["dict", [[k, describe(v)] for k, v in x.items()]]
        if isinstance(x, tuple) and hasattr(x, "_fields"):
            return ["namedtuple", type(x).__name__, [[f, describe(getattr(x, f))] for f in x._fields]]
        if isinstance(x, tuple):
            return ["tuple", [describe(v) for v in x]]
        if hasattr(x, "minimum") and hasattr(x, "dtype"):  # a dm_env spec / EnvPool ArraySpec
            def bound(b):
                b = np.asarray(b)
                return b.item() if b.size == 1 else b.tolist()
            return [type(x).__name__, list(x.shape), str(np.dtype(x.dtype)), bound(x.minimum), bound(x.maximum),
                    getattr(x, "name", None)]
        if hasattr(x, "shape") and hasattr(x, "dtype"):  # gymnasium spaces
            return [type(x).__name__, repr(x)]
        if hasattr(x, "n") and hasattr(x, "start"):
            return ["Discrete", int(x.n), int(x.start)]
        return [type(x).__name__, repr(x)]

    def probe(module, task_id, num_envs):
        out = {}
        envs = module.make_gymnasium(task_id, num_envs=num_envs, seed=1)
        players = envs.config["max_num_players"]
        out["players"] = players
        out["spaces"] = [describe(envs.observation_space), describe(envs.action_space)]
        out["config"] = {k: envs.config[k] for k in ("num_envs", "batch_size", "max_num_players", "seed")}
        out["terminate_on_any_crash"] = envs.config.get("terminate_on_any_crash")
        out["reset"] = describe(envs.reset())
        action = np.zeros(num_envs * players, dtype=np.int32)
        out["step"] = describe(envs.step(action))
        out["gym"] = describe(module.make_gym(task_id, num_envs=num_envs, seed=1).reset())
        dm = module.make_dm(task_id, num_envs=num_envs, seed=1)
        out["dm_reset"] = describe(dm.reset())
        out["dm_step"] = describe(dm.step(action))
        out["dm_specs"] = [describe(dm.observation_spec()), describe(dm.action_spec())]
        spec = module.make_spec(task_id)
        out["action_array_spec"] = describe(spec.action_array_spec)
        out["state_array_spec"] = describe(spec.state_array_spec)
        out["spec_spaces"] = [describe(spec.observation_space), describe(spec.action_space)]
        pool = module.make_gymnasium(task_id, num_envs=4, batch_size=2, seed=1)
        pool.async_reset()
        first = pool.recv()
        ids = first[4]["env_id"]
        out["async_first"] = describe(first)
        # Which envs come first is up to the threads: each row's players carry its env_id, env-major.
        out["async_rows"] = [first[4]["players"]["env_id"].tolist() == np.repeat(ids, players).tolist()]
        pool.send(np.zeros(2 * players, dtype=np.int32), ids)
        second = pool.recv()
        out["async_second"] = describe(second)
        out["async_rows"].append(second[4]["players"]["env_id"].tolist()
                                 == np.repeat(second[4]["env_id"], players).tolist())
        out["async_rows"].append(len(second[4]["env_id"]))
        return out
    """
)

_CHILD = DESCRIBE + textwrap.dedent(
    """
    import json, sys, warnings
    warnings.simplefilter("ignore")
    import envpool
    tasks = json.loads(sys.argv[2])
    json.dump({t: probe(envpool, t, int(sys.argv[3])) for t in tasks}, open(sys.argv[1], "w"))
    """
)

_NS: dict = {}
exec(DESCRIBE, _NS)  # noqa: S102 - the shared description code above
describe, probe = _NS["describe"], _NS["probe"]


@pytest.fixture(scope="module")
def envpool127(tmp_path_factory) -> dict:
    """EnvPool 1.2.7's descriptions of every task (one child process for the module)."""
    from envpool127 import envpool_python

    python = envpool_python()
    out = Path(tmp_path_factory.mktemp("envpool127")) / "multiplayer.json"
    done = subprocess.run([str(python), "-c", _CHILD, str(out), json.dumps(TASKS), str(NUM_ENVS)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


def _json(x):
    return json.loads(json.dumps(x))


def _players_entries(description: list) -> dict:
    """The ``players`` dict's description inside an info description."""
    return dict(dict(description[1])["players"][1])


# highway-env's per-player speed and crashed: rlpool's env has them per env (the first vehicle's), and per-agent
# entries of its own instead (players: action, agents_rewards, agents_terminated). docs/multi_agent.md.
HIGHWAY_PLAYERS_ENVPOOL = ["env_id", "speed", "crashed"]
HIGHWAY_PLAYERS_RLPOOL = ["env_id", "action", "agents_rewards", "agents_terminated"]


def _highway(task_id: str) -> bool:
    return task_id.startswith("IntersectionMultiAgent")


def _without_highway_info(description, task_id):
    """An info / State description with the entries that differ for highway (above) taken out."""
    if not _highway(task_id):
        return description
    if description[0] == "dict":
        return ["dict", [[k, _without_highway_info(v, task_id) if k == "players" else v]
                         for k, v in description[1] if k in ("env_id", "players", "elapsed_step")]]
    if description[0] == "namedtuple":
        keep = ("env_id", "obs") if description[1] == "players" else ("env_id", "players")
        return ["namedtuple", description[1], [[k, _without_highway_info(v, task_id) if k == "players" else v]
                                               for k, v in description[2] if k in keep]]
    return description


@pytest.mark.parametrize("task_id", TASKS)
def test_layout_matches_envpool127(envpool127, task_id):
    theirs = envpool127[task_id]
    ours = _json(probe(compat, task_id, NUM_ENVS))
    assert ours["players"] == theirs["players"]
    assert ours["config"] == theirs["config"]
    assert ours["terminate_on_any_crash"] == theirs["terminate_on_any_crash"]
    assert ours["spaces"] == theirs["spaces"] == ours["spec_spaces"] == theirs["spec_spaces"]
    assert ours["action_array_spec"] == theirs["action_array_spec"]
    # gymnasium and gym faces: obs, reward, flags exactly; info's env-level entries and players' env_id.
    for face in ("reset", "step", "gym", "async_first", "async_second"):
        mine, ref = ours[face][1], theirs[face][1]
        assert len(mine) == len(ref), face
        assert mine[:-1] == ref[:-1], face  # obs, (reward, terminated, truncated)
        assert _without_highway_info(mine[-1], task_id) == _without_highway_info(ref[-1], task_id), face
    assert ours["async_rows"] == theirs["async_rows"] == [True, True, 2]
    for face in ("dm_reset", "dm_step"):
        mine, ref = dict(ours[face][2]), dict(theirs[face][2])
        assert list(mine) == list(ref) == ["step_type", "reward", "discount", "observation"]
        assert [mine[k] for k in ("step_type", "reward", "discount")] == [ref[k] for k in ("step_type", "reward",
                                                                                          "discount")]
        assert _without_highway_info(mine["observation"], task_id) == _without_highway_info(ref["observation"],
                                                                                            task_id)
    assert ours["dm_specs"][1] == theirs["dm_specs"][1]  # DiscreteArray named players.action
    assert _without_highway_info(ours["dm_specs"][0], task_id) == _without_highway_info(theirs["dm_specs"][0],
                                                                                        task_id)
    state, ref_state = dict(ours["state_array_spec"][1]), dict(theirs["state_array_spec"][1])
    if not _highway(task_id):
        assert list(state) == list(ref_state) and state == ref_state
    else:
        common = [k for k in ref_state if not k.startswith("info:players.") or k == "info:players.env_id"]
        assert [k for k in state if k in common] == common
        assert {k: state[k] for k in common} == {k: ref_state[k] for k in common}
    if _highway(task_id):  # the documented difference, stated
        assert list(_players_entries(theirs["step"][1][-1])) == HIGHWAY_PLAYERS_ENVPOOL
        assert list(_players_entries(ours["step"][1][-1])) == HIGHWAY_PLAYERS_RLPOOL


@pytest.mark.parametrize("task_id", TASKS)
def test_player_rows_are_rlpools_agent_axis(task_id):
    """Row ``i * A + j`` is agent ``j`` of the batch's env ``i``: obs, reward, per-player info; flags per env."""
    envs = compat.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=7)
    own = rlpool.make_gymnasium(task_id, num_envs=NUM_ENVS, seed=7)
    players = envs.config["max_num_players"]
    obs, info = envs.reset()
    own_obs, own_info = own.reset()
    np.testing.assert_array_equal(obs, own_obs.reshape(-1, *own_obs.shape[2:]))
    rng = np.random.default_rng(0)
    renamed = {k.removeprefix("players."): f for k, f in envs.spec.layout.info_fields.items()}
    for _ in range(12):
        action = rng.integers(0, envs.action_space.n, (NUM_ENVS, players))
        obs, reward, terminated, truncated, info = envs.step(action.reshape(-1).astype(np.int32))
        own_obs, own_reward, own_term, own_trunc, own_info = own.step(action)
        np.testing.assert_array_equal(obs, own_obs.reshape(-1, *own_obs.shape[2:]))
        np.testing.assert_array_equal(reward, own_reward.reshape(-1).astype(np.float32))
        assert reward.dtype == np.float32 and terminated.shape == truncated.shape == (NUM_ENVS,)
        np.testing.assert_array_equal(terminated, own_term.all(axis=1))
        np.testing.assert_array_equal(truncated, own_trunc.any(axis=1) & (own_term | own_trunc).all(axis=1))
        np.testing.assert_array_equal(info["players"]["env_id"], np.repeat(info["env_id"], players))
        for key, value in info["players"].items():
            if key == "id":
                np.testing.assert_array_equal(value, np.tile(np.arange(players), NUM_ENVS))
            elif key != "env_id":
                field = own_info[renamed.get(key, key)]
                np.testing.assert_array_equal(value, field.reshape(-1, *field.shape[2:]))


def test_dm_rows_and_discount():
    dm = compat.make_dm(MARLGRID, num_envs=2, seed=3)
    ts = dm.reset()
    assert ts.step_type.shape == (2,) and ts.reward.shape == ts.discount.shape == (6,)
    assert ts.observation.obs.shape == (6, 56, 56, 3) and ts.observation.players.env_id.tolist() == [0, 0, 0, 1, 1, 1]
    ts = dm.step(np.zeros(6, dtype=np.int32))
    assert ts.step_type.tolist() == [1, 1] and ts.reward.dtype == np.float32
    np.testing.assert_array_equal(ts.discount, 1 - ts.observation.players.done)  # each player's own
    highway = compat.make_dm("IntersectionMultiAgent-v0", num_envs=2).reset().observation
    assert highway._fields[:2] == ("env_id", "players") and highway.players.obs.shape == (4, 15, 7)


def test_legacy_gym_four_tuple():
    import rlpool.compat.envpool_legacy as legacy

    envs = legacy.make_gym(MARLGRID, num_envs=2)
    assert envs.reset().shape == (6, 56, 56, 3) and envs.action_space == compat.make_spec(MARLGRID).action_space
    obs, reward, done, info = envs.step(np.zeros(6, dtype=np.int32))
    assert obs.shape == (6, 56, 56, 3) and reward.shape == (6,) and done.shape == (2,)
    assert info["players"]["env_id"].tolist() == [0, 0, 0, 1, 1, 1]


def test_actions_options_and_refusals():
    envs = compat.make_gymnasium(MARLGRID, num_envs=4, seed=1)
    envs.reset()
    ids = np.array([0, 2], dtype=np.int32)
    obs, *_, info = envs.step({"env_id": ids, "players.env_id": np.repeat(ids, 3),
                               "players.action": np.zeros(6, dtype=np.int32)})
    assert obs.shape == (6, 56, 56, 3) and info["env_id"].tolist() == [0, 2]
    assert envs.step(np.zeros((4, 3), dtype=np.int32))[0].shape == (12, 56, 56, 3)  # [n, A] as EnvPool takes it
    with pytest.raises(ValueError, match="players' actions"):
        envs.step(np.zeros(5, dtype=np.int32))
    with pytest.raises(ValueError, match="players.action"):
        envs.step({"action": np.zeros(12, dtype=np.int32)})
    # max_num_players: at least the task's players (EnvPool 1.2.7 aborts below), reported; the id's bound.
    spec = compat.make_spec(MARLGRID, max_num_players=5)
    assert spec.config.max_num_players == 5 and spec.state_array_spec["info:players.id"].maximum == 5
    with pytest.raises(compat.EnvPoolError, match="max_num_players"):
        compat.make_spec(MARLGRID, max_num_players=2)
    # terminate_on_any_crash: EnvPool's option of the multi-agent intersection (rlpool's multi_agent_wrapper).
    assert compat.make_spec("IntersectionMultiAgent-v0").config.terminate_on_any_crash is True
    assert compat.make_spec("intersection-multi-agent-v1").config.terminate_on_any_crash is False
    off = compat.make_spec("IntersectionMultiAgent-v0", terminate_on_any_crash=False)
    assert off.config.terminate_on_any_crash is False and off.rlpool_spec.env_config["multi_agent_wrapper"] is True
    with pytest.raises(TypeError, match="terminate_on_any_crash"):
        compat.make_spec("IntersectionMultiAgent-v0", terminate_on_any_crash=1)
    with pytest.raises(compat.EnvPoolError, match="taking turns"):  # turn-based games keep the refusal
        compat.make_gymnasium("TicTacToe-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="multi-player"):
        envs.xla()
    with pytest.raises(ValueError, match="SameStep"):
        compat.make_gymnasium(MARLGRID, autoreset_mode="SameStep")


def test_one_crash_does_not_end_v1_episode():
    """-v1 (terminate_on_any_crash False): a player that crashes finishes alone; the env goes on, as EnvPool's."""
    envs = compat.make_gymnasium("IntersectionMultiAgent-v1", num_envs=8, seed=3)
    envs.reset()
    rng = np.random.default_rng(0)
    seen = False
    for _ in range(40):
        *_, terminated, truncated, info = envs.step(rng.integers(0, 3, 16).astype(np.int32))
        done = info["players"]["agents_terminated"].reshape(8, 2)
        partial = done.any(axis=1) & ~done.all(axis=1)
        assert not terminated[partial].any()
        np.testing.assert_array_equal(truncated[partial], info["elapsed_step"][partial] >= 13)  # the time limit
        seen = seen or partial.any()
    assert seen
