"""The highway family's ids, spaces and config against EnvPool 1.2.7's (its ``envpool.highway``, 62 ids).

EnvPool 1.2.7 runs in a CPython 3.13 virtualenv of its own (``envpool127``): one child process lists the ids
its registry files under ``envpool.highway`` and dumps each one's spec (spaces, config, time limit). Every
one of the 62 ids is an rlpool task where its scenario is compiled in; for each registered one, the action
space, the observation space (per player for the multi-agent ids, which EnvPool stacks by player) and every
config key both have are equal, but for the differences listed in ``KNOWN`` (EnvPool's own values where
highway-env, which rlpool follows, has others).
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from lane import REPO

import rlpool

# env type -> {config key: why rlpool's value differs from EnvPool 1.2.7's}.
_RACETRACK = {"max_episode_steps": "highway-env truncates at time >= 300 s at 5 Hz: step 1501 in float sums"}
KNOWN: dict[str, dict[str, str]] = {
    "RacetrackEnv": _RACETRACK, "RacetrackEnvLarge": _RACETRACK, "RacetrackEnvOval": _RACETRACK,
    # highway-env's lane keeping has no duration key (it never truncates itself): the option is unused there.
    "LaneKeepingEnv": {"duration": "unused by lane keeping; EnvPool's 20 s"},
}

NATIVE_KEYS = {"duration", "simulation_frequency", "policy_frequency", "neighbour_vehicles_connected_lanes",
               "max_episode_steps", "screen_width", "screen_height", "max_num_players"}

_CHILD = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import envpool
    from envpool.registration import registry
    out = {}
    for task_id in sorted(t for t, entry in registry.specs.items() if entry[0] == "envpool.highway"):
        s = envpool.make_spec(task_id)
        def space(sp):
            if hasattr(sp, "spaces") and isinstance(sp.spaces, dict):
                return {k: space(v) for k, v in sp.spaces.items()}
            if hasattr(sp, "n"):
                return {"n": int(sp.n)}
            return {"shape": list(sp.shape), "dtype": str(sp.dtype), "low": float(np.min(sp.low)),
                    "high": float(np.max(sp.high))}
        config = {k: v for k, v in s.config._asdict().items()
                  if isinstance(v, (bool, int, float, str)) and k not in ("base_path",)}
        out[task_id] = {"obs": space(s.observation_space), "action": space(s.action_space), "config": config}
    json.dump(out, open(sys.argv[1], "w"))
    """
)


@cache
def envpool_specs(tmp: str) -> dict:
    import envpool127

    python = envpool127.envpool_python()
    out = Path(tmp) / "specs.json"
    done = subprocess.run([str(python), "-c", _CHILD, str(out)], capture_output=True, text=True,
                          timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> dict:
    return envpool_specs(str(tmp_path_factory.mktemp("envpool127")))


def _space(sp) -> dict:
    if hasattr(sp, "spaces") and isinstance(sp.spaces, dict):
        return {k: _space(v) for k, v in sp.spaces.items()}
    if hasattr(sp, "nvec"):  # a multi-agent env's discrete actions: one Discrete per agent
        assert len(set(np.asarray(sp.nvec).ravel().tolist())) == 1
        return {"n": int(np.asarray(sp.nvec).ravel()[0]), "agents": int(np.asarray(sp.nvec).size)}
    if hasattr(sp, "n"):
        return {"n": int(sp.n)}
    return {"shape": list(sp.shape), "dtype": str(sp.dtype), "low": float(np.min(sp.low)),
            "high": float(np.max(sp.high))}


def test_every_envpool_highway_id_is_registered_where_its_scenario_is_compiled(specs):
    from rlpool.envs.highway import registration

    ids = sorted(specs)
    assert len(ids) == 62
    ours = set(rlpool.list_all_envs())
    # registration.py names all 62 (HIGHWAY_ENV_IDS holds those whose env type is compiled in).
    source = Path(registration.__file__).read_text()
    for task_id in ids:
        assert f'"{task_id}"' in source, task_id
    assert {"Highway-v0", "highway-v0", "HighwayFast-v0", "highway-fast-v0"} <= ours
    assert set(registration.HIGHWAY_ENV_IDS) <= ours


def test_spaces_and_config_match_envpool(specs):
    checked = 0
    mismatches: list[str] = []
    for task_id, theirs in specs.items():
        if task_id not in rlpool.list_all_envs():
            continue
        spec = rlpool.make_spec(task_id)
        known = KNOWN.get(rlpool.registry.task(task_id).env_type, {})
        action = _space(spec.action_space)
        if spec.arrays.num_agents:  # EnvPool's action is one player's
            action.pop("agents", None)
            if "shape" in action:
                action["shape"] = action["shape"][1:]
        assert action == theirs["action"], task_id
        ours_obs = _space(spec.observation_space)
        if spec.arrays.num_agents:  # EnvPool stacks the players' observations on the batch axis
            ours_obs = {**ours_obs, "shape": ours_obs["shape"][1:]}
        assert ours_obs == theirs["obs"], task_id
        config = spec.config
        # EnvPool's native scenarios share one config whose lanes_count, vehicles_count, merge lengths, ... are
        # placeholders its scenarios do not read: only the keys every scenario reads are compared there.
        shared = NATIVE_KEYS if "scenario" in theirs["config"] else set(theirs["config"])
        for key, value in theirs["config"].items():
            if key in known or key not in config or key not in shared or key in ("num_threads", "seed"):
                continue
            if config[key] != value:
                mismatches.append(f"{task_id}: {key} is {config[key]!r}, EnvPool 1.2.7's {value!r}")
        if "max_episode_steps" in known:
            assert spec.max_episode_steps != theirs["config"]["max_episode_steps"]
        checked += 1
    assert not mismatches, "\n".join(mismatches)
    assert checked >= 4
