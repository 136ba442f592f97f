"""rlpool.compat.envpool with a nested dict observation and a hidden info entry (NestedDict-v0).

EnvPool names an entry of a nested observation dict ``obs:outer:inner`` in its state keys (its C++ goal
envs declare ``obs:achieved_goal:kettle``), gives the gymnasium face nested dicts and nests the dm face's
``State`` namedtuple one more level. A hidden info entry stays out of the layer's info unless the layer's
``info_keys`` name it.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import rlpool.compat.envpool as compat

TASK = "NestedDict-v0"


def test_state_keys_name_nested_entries_with_colons():
    spec = compat.make_spec(TASK)
    obs_keys = [k for k in spec.state_array_spec if k.startswith("obs")]
    assert obs_keys == ["obs:observation", "obs:desired_goal:b", "obs:desired_goal:a", "obs:achieved_goal:b",
                        "obs:achieved_goal:a"]
    assert spec.state_array_spec["obs:achieved_goal:a"].shape == [5]
    assert [k for k in spec.state_array_spec if k.startswith("info:")] == [
        "info:env_id", "info:players.env_id", "info:count"]  # the hidden _distance is not there
    assert isinstance(spec.observation_space["desired_goal"], spaces.Dict)


def test_gymnasium_face_gives_nested_dicts():
    env = compat.make_gymnasium(TASK, num_envs=2)
    obs, info = env.reset()
    assert list(obs) == ["observation", "desired_goal", "achieved_goal"]
    assert obs["desired_goal"]["a"].shape == (2, 3)
    row = {k: {i: a[0] for i, a in v.items()} if isinstance(v, dict) else v[0] for k, v in obs.items()}
    assert env.observation_space.contains(row)  # EnvPool's observation_space is one env's
    _, _, _, _, info = env.step(np.zeros(2, np.int32))
    assert set(info) == {"env_id", "players", "count", "elapsed_step"}
    env.close()


def test_dm_face_nests_the_state():
    env = compat.make_dm(TASK, num_envs=2)
    spec = env.observation_spec()
    assert spec._fields == ("env_id", "players", "observation", "desired_goal", "achieved_goal", "count")
    assert spec.desired_goal._fields == ("b", "a") and spec.achieved_goal.a.shape == (5,)
    for ts in (env.reset(), env.step(np.ones(2, np.int32))):
        state = ts.observation
        assert type(state) is type(spec) and type(state.achieved_goal) is type(spec.achieved_goal)
        np.testing.assert_array_equal(state.achieved_goal.a[:, 0] - state.observation[:, 0], [4000, 4000])
        np.testing.assert_array_equal(state.desired_goal.b[:, 1] - state.observation[:, 0], [1010, 1010])
    env.close()


def test_the_layer_may_show_a_hidden_entry():
    env = compat.make_gymnasium(TASK, num_envs=2)
    env._pool.info_keys = [*env._pool.info_keys, ("distance", "_distance")]
    env.reset()
    _, _, _, _, info = env.step(np.zeros(2, np.int32))
    np.testing.assert_array_equal(info["distance"], [0.5, 0.5])
    env.close()


def test_dm_fields_of_names_that_are_not_identifiers():
    # gymnasium-robotics' kitchen has goals named "bottom burner": EnvPool's dm face writes such a field with "_".
    env = compat.make_dm(TASK, num_envs=1, obs_names="observation,goal.bottom burner,goal.class")
    assert env.observation_spec().goal._fields == ("bottom_burner", "f_class")
    state = env.reset().observation
    np.testing.assert_array_equal(state.goal.bottom_burner[0] - state.observation[0, 0], [1000, 1010])
    assert compat.make_spec(TASK, obs_names="observation,goal.bottom burner").state_array_spec[
        "obs:goal:bottom burner"].shape == [2]
    env.close()
