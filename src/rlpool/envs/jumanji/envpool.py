"""The Jumanji tasks through ``rlpool.compat.envpool``: EnvPool 1.2.7's ids, config and action spaces.

EnvPool also names each task ``Jumanji/<id>``. Its config has, per task, keys for an instance given from outside
(``tsp_coordinates``, ...: EnvPool's way to start from jumanji's state, which rlpool's ``set_state`` covers) and
for replays its renderer draws, all empty by default, plus a few generator parameters. An empty key is accepted
empty and refused otherwise; a parameter with an rlpool option (``_OPTIONS``) sets that option; any other is taken
at EnvPool's value only. The config is reported with EnvPool's keys in its order, at rlpool's values: jumanji's,
where EnvPool 1.2.7's differ (``cvrp_max_capacity`` 30, not EnvPool's 20; ``RubiksCube-partly-scrambled-v0``'s
``rubiks_cube_num_scrambles`` 7, jumanji's registration, not EnvPool's 20); pass EnvPool's value to get its
instances' sizes. EnvPool gives a multi-discrete action space (BinPack's ``[ems, item]``) as an int32 ``Box`` of
the choices' ranges, and so does this layer.
EnvPool 1.2.7 gives the multi-agent tasks (``MULTI_AGENT``; rlpool's own faces step them with an agent axis) as
one env: the entries jumanji gives once for all agents once, the agents' actions as one vector, one reward
(their sum, Connector's their mean, or jumanji's one shared reward), and Connector's and SearchAndRescue's
rewards per agent in ``info``; so does this layer. ``Connector-v2`` is EnvPool's other name of ``Connector-v3``.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import EnvPoolError, FamilyLayout, register_ids, register_layout
from rlpool.envs.jumanji.registration import TASKS

_CONFIG: dict[str, tuple[str, str]] = {
    "BinPack-v2": ("bin_pack_", "item_x_len item_y_len item_z_len items_mask replay_ems_x1 replay_ems_x2 "
                                "replay_ems_y1 replay_ems_y2 replay_ems_z1 replay_ems_z2 replay_ems_mask "
                                "replay_items_mask replay_items_placed replay_action_mask replay_rewards "
                                "replay_done render_container render_item_x_len render_item_y_len render_item_z_len "
                                "render_items_location_replay"),
    "CVRP-v1": ("cvrp_", "max_capacity=20 coordinates demands distance_matrix replay_rewards replay_done "
                         "render_num_total_visits_replay"),
    "Cleaner-v0": ("cleaner_", "grid agent_locations penalty_per_timestep=0.5"),
    "Connector-v3": ("connector_", "grid"),
    "FlatPack-v0": ("flat_pack_", "blocks action_mask replay_rewards replay_done"),
    "Game2048-v1": ("game2048_", "initial_board replay_boards add_random_cell=True"),
    "GraphColoring-v1": ("graph_coloring_", "edges"),
    "JobShop-v0": ("job_shop_", "ops_machine_ids ops_durations ops_mask machines_job_ids machines_remaining_times "
                                "action_mask replay_ops_mask replay_machines_job_ids "
                                "replay_machines_remaining_times replay_action_mask replay_rewards "
                                "render_scheduled_times_replay"),
    "Knapsack-v1": ("knapsack_", "weights values total_budget=12.5"),
    "LevelBasedForaging-v0": ("lbf_", "agents food"),
    "MMST-v0": ("mmst_", "node_types adj_matrix positions action_mask replay_node_types replay_positions "
                         "replay_action_mask replay_rewards render_nodes_to_connect render_connected_nodes_replay"),
    "Maze-v0": ("maze_", "walls agent_position target_position"),
    "Minesweeper-v0": ("minesweeper_", "mine_locations replay_boards replay_rewards replay_done"),
    "MultiCVRP-v0": ("multi_cvrp_", "node_coordinates node_demands windows_start windows_end coeffs_early "
                                    "coeffs_late vehicle_local_times vehicle_capacities action_mask"),
    "PacMan-v1": ("pacman_", "grid player_location pellet_locations ghost_locations power_up_locations action_mask "
                             "frightened_state_time=0 initial_score=0 replay_pellet_locations "
                             "replay_player_locations replay_ghost_locations replay_power_up_locations "
                             "replay_frightened_state_time replay_action_mask replay_score replay_rewards "
                             "replay_done"),
    "RobotWarehouse-v0": ("robot_warehouse_", "agents_view action_mask render_grid render_agent_x render_agent_y "
                                              "render_agent_direction render_agent_carrying render_shelf_x "
                                              "render_shelf_y render_shelf_requested"),
    "RubiksCube-partly-scrambled-v0": ("rubiks_cube_", "num_scrambles=20 initial_cube"),
    "RubiksCube-v0": ("rubiks_cube_", "num_scrambles=100 initial_cube"),
    "SearchAndRescue-v0": ("search_and_rescue_", "target_acc_std=9.999999747378752e-05 searcher_views positions "
                                                 "headings speeds targets_remaining=1.0 target_positions "
                                                 "target_velocities target_found replay_searcher_views "
                                                 "replay_positions replay_targets_remaining replay_rewards "
                                                 "replay_done render_headings_replay render_target_positions_replay "
                                                 "render_target_found_replay"),
    "SlidingTilePuzzle-v0": ("sliding_tile_initial_", "puzzle"),
    "Snake-v1": ("snake_", "head_position fruit_position"),
    "Sokoban-v0": ("sokoban_", "level_index=-1 render_fixed_grid_replay render_variable_grid_replay"),
    "Sudoku-v0": ("sudoku_", "initial_board database='mixed'"),
    "Sudoku-very-easy-v0": ("sudoku_", "initial_board database='very-easy'"),
    "TSP-v1": ("tsp_", "coordinates distance_matrix replay_rewards replay_done"),
    "Tetris-v0": ("tetris_", "initial_grid tetromino action_mask replay_grids replay_tetrominoes "
                             "replay_action_masks replay_done render_grid_padded_replay"),
}
"""EnvPool 1.2.7's Jumanji config keys after its pool keys, per task: (their common prefix, the rest in order;
``name=value`` for a key with a value, a bare name for one that is empty by default)."""

MULTI_AGENT: dict[str, dict[str, Any]] = {
    "Cleaner-v0": {"shared": ("grid", "step_count"), "reward": "shared"},
    "Connector-v3": {"shared": ("grid", "step_count"), "reward": "mean", "agent_rewards": "agent_rewards"},
    "LevelBasedForaging-v0": {"shared": ("step_count",)},
    "MMST-v0": {"shared": ("node_types", "adj_matrix", "step_count"), "reward": "shared"},
    "MultiCVRP-v0": {"shared": ("nodes.coordinates", "nodes.demands", "windows.start", "windows.end",
                                "coeffs.early", "coeffs.late"), "reward": "shared", "action_dtype": np.int16},
    "RobotWarehouse-v0": {"shared": ("step_count",), "reward": "shared"},
    "SearchAndRescue-v0": {"shared": ("targets_remaining", "step"), "agent_rewards": "searcher_rewards"},
}
"""Tasks on rlpool's multi-agent API, which EnvPool 1.2.7 gives as one env (``JumanjiAgentsLayout``): the
observation entries jumanji gives once for all agents (rlpool repeats them on every agent's row; EnvPool has
them once), how the one reward comes from the agents' (``"sum"``, the default, as jumanji's
``MultiToSingleWrapper``; ``"mean"``, Connector's in EnvPool; ``"shared"``: jumanji's one reward, which rlpool
repeats per agent), the info key of the agents' own rewards where EnvPool gives them, and the action's dtype
where EnvPool's is not int32."""

_OPTIONS: dict[str, dict[str, str]] = {
    "CVRP-v1": {"cvrp_max_capacity": "max_capacity"},
    "Knapsack-v1": {"knapsack_total_budget": "total_budget"},
    "RubiksCube-v0": {"rubiks_cube_num_scrambles": "num_scrambles_on_reset"},
    "Sokoban-v0": {"sokoban_level_index": "level_index"},
    "RubiksCube-partly-scrambled-v0": {"rubiks_cube_num_scrambles": "num_scrambles_on_reset"},
    "Sudoku-v0": {"sudoku_database": "sudoku_database"},
    "Sudoku-very-easy-v0": {"sudoku_database": "sudoku_database"},
}
"""EnvPool's config keys that set an rlpool option of the task: task -> {EnvPool's key: rlpool's option}."""


def _keys(task_id: str) -> dict[str, Any]:
    """EnvPool's config keys of ``task_id`` with their defaults, in EnvPool's order."""
    prefix, body = _CONFIG[task_id]
    out: dict[str, Any] = {}
    for word in body.split():
        name, eq, value = word.partition("=")
        out[prefix + name] = ast.literal_eval(value) if eq else ""
    return out


class JumanjiLayout(FamilyLayout):
    """EnvPool's face of one Jumanji task: its config keys, and multi-discrete actions as an int32 box."""

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.keys = _keys(task_id)
        self.names = _OPTIONS.get(task_id, {})

    def options(self, opts: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's keys -> rlpool's options, or checked against their only value here and dropped."""
        opts = dict(opts)
        for key, default in self.keys.items():
            if key not in opts:
                continue
            value = opts.pop(key)
            if key in self.names:
                opts[self.names[key]] = value
            elif not _same(value, default):
                if default == "":
                    raise EnvPoolError(f"{key}={value!r}: rlpool's {self.task_id} takes no instance in its config "
                                       "(EnvPool's key; set_state puts a given state into an env)")
                raise EnvPoolError(f"{key}={value!r}: rlpool's {self.task_id} has {key} {default!r} only "
                                   "(EnvPool's value; rlpool has no option for it)")
        return opts

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: its pool keys, then the task's keys in EnvPool's order, then rlpool's others."""
        rest = dict(config)
        mode = rest.pop("autoreset_mode")
        head = list(rest)[: list(rest).index("reward_threshold") + 1]
        out = {k: rest.pop(k) for k in head}
        for key, default in self.keys.items():
            out[key] = rest.pop(self.names[key]) if key in self.names else default
        return {**out, **rest, "autoreset_mode": mode}

    def action_space(self, space: Any) -> Any:
        """A MultiDiscrete as EnvPool's int32 box of its choices' ranges; any other space as it is."""
        from gymnasium import spaces

        if isinstance(space, spaces.MultiDiscrete):
            return spaces.Box(0, (np.asarray(space.nvec) - 1).astype(np.int32), space.shape, np.int32)
        return space


class JumanjiAgentsLayout(JumanjiLayout):
    """A multi-agent task as EnvPool 1.2.7 gives it: one env, the shared entries once, one reward."""

    agents_as_one = True

    def __init__(self, task_id: str) -> None:
        super().__init__(task_id)
        form = MULTI_AGENT[task_id]
        self.shared: tuple[str, ...] = form["shared"]
        self.combine: str = form.get("reward", "sum")
        self.agent_rewards_key = form.get("agent_rewards")
        self.action_dtype = form.get("action_dtype", np.int32)

    def obs(self, obs: Any) -> Any:
        """Rlpool's agent rows with each shared entry taken once (agent 0's copy: a view)."""
        return self._take_shared(obs, lambda value: value[:, 0])

    def observation_space(self, space: Any) -> Any:
        """Rlpool's per-env space with each shared entry's agent axis dropped (a bounded int scalar: Discrete)."""
        from gymnasium import spaces

        def once(s: Any) -> Any:
            if isinstance(s, spaces.MultiBinary):
                return spaces.MultiBinary(list(np.atleast_1d(s.n)[1:]))
            low, high = s.low[0], s.high[0]
            if np.ndim(low) == 0 and np.issubdtype(s.dtype, np.integer):
                return spaces.Discrete(int(high) - int(low) + 1, start=int(low), dtype=s.dtype)
            return spaces.Box(low, high, s.shape[1:], s.dtype)

        return self._take_shared(space, once, lambda entries: spaces.Dict(OrderedDict(entries)))

    def obs_entry_spec(self, key: str, spec: Any) -> Any:
        """A shared entry's ``state_array_spec`` without the agent axis."""
        if key in self.shared:
            spec.shape = spec.shape[1:]
            for bound in ("minimum", "maximum"):
                value = getattr(spec, bound)
                if np.ndim(value):
                    setattr(spec, bound, value[0].item() if (value == value[0]).all() else value[0])
        return spec

    def reward(self, reward: np.ndarray) -> np.ndarray:
        """The env's reward: the agents' sum, mean, or the shared reward (agent 0's copy)."""
        if self.combine == "shared":
            return reward[:, 0]
        if self.combine == "mean":
            return reward.mean(axis=1, dtype=reward.dtype)
        return reward.sum(axis=1, dtype=reward.dtype)

    def action_space(self, space: Any) -> Any:
        """The agents' choices as EnvPool's integer box (int32; MultiCVRP's int16), or the continuous box."""
        from gymnasium import spaces

        if isinstance(space, spaces.MultiDiscrete):
            dtype = self.action_dtype
            return spaces.Box(0, (np.asarray(space.nvec) - 1).astype(dtype), space.shape, dtype)
        return space

    def _take_shared(self, tree: Any, once: Any, make: Any = dict, prefix: str = "") -> Any:
        """``tree`` (a dict, or a gymnasium Dict) with ``once`` applied to each shared entry."""
        items = tree.spaces.items() if hasattr(tree, "spaces") else tree.items()
        out = {}
        for key, value in items:
            name = prefix + key
            if isinstance(value, dict) or hasattr(value, "spaces"):
                out[key] = self._take_shared(value, once, make, name + ".")
            else:
                out[key] = once(value) if name in self.shared else value
        return make(out)


def _same(value: Any, default: Any) -> bool:
    if isinstance(default, str):
        return isinstance(value, str) and value == default
    if isinstance(default, bool):
        return isinstance(value, (bool, np.bool_)) and bool(value) == default
    return (isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
            and np.float32(value) == np.float32(default))


_LAYOUTS = {task_id: JumanjiAgentsLayout(task_id) if task_id in MULTI_AGENT else JumanjiLayout(task_id)
            for task_id in TASKS}
_TYPES = {env_type for env_type, _, _ in TASKS.values()}


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    if env_type not in _TYPES:
        return None
    from rlpool.registry import resolve_alias

    return _LAYOUTS.get(resolve_alias(task_id)[0])


register_ids({**{f"Jumanji/{task_id}": (task_id, {}) for task_id in TASKS},
              "Connector-v2": ("Connector-v3", {}), "Jumanji/Connector-v2": ("Connector-v3", {})})
