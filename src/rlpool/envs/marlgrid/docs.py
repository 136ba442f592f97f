"""The hand-written reference text of the MARLGrid family (``docs/envs/marlgrid.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry computes:
task ids, spaces, time limits and options. The ids are ``registration.py``'s (EnvPool 1.2.7's).
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

_ACTIONS = ("turn left", "turn right", "move forward", "pickup (does nothing)", "drop (does nothing)",
            "toggle (does nothing)", "done (does nothing)")
_OBS = """
Per agent (the agent axis first: `[num_envs, n_agents, ...]`), with `observation_format="pixels"` (the
default) its egocentric partial view as an image: `view_size` x `view_size` cells of `view_tile_size` pixels,
the agent in the middle of the bottom row (`view_offset` rows up) looking up, walls hiding what lies behind
them, unseen cells in the shadow colour (35, 25, 30); walls (74, 65, 42), the goal green, bonus tiles yellow,
agents as triangles in their colours (red, blue, purple, orange, olive, pink; with `prestige_coloring` from red
to blue by their recent rewards), an agent's own triangle on top in its cell. A finished agent's view is all
shadow. `"matrix"` gives the same view as 13 channels per cell (empty, wall, goal, bonus, lava, agent, the
agent's r, g, b, its direction relative to the viewer one-hot; unseen cells all 0), `"full_matrix"` the whole
grid that way (absolute directions). `info["agent_pos"]` (x, y), `agent_dir` (0 right, 1 down, 2 left, 3 up),
`agent_active` and `agent_done` are EnvPool's `players.pos`, `dir`, `active` and `done`.
"""
_REWARD = ("1 on reaching the goal (Goalcycle: `bonus_reward` for the next bonus tile of the cycle, "
           "-|`bonus_penalty`| for another), times `1 - 0.9 * step / max_steps` with `reward_decay`; 0 for a "
           "finished agent.")
_END = ("An agent terminates on the goal (or lava) and stays terminated, its actions ignored; the episode ends "
        "when every agent has (with `respawn` an agent is placed again at once instead). Every agent is truncated "
        "at `max_steps`.")


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/marlgrid.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="marlgrid",
        title="MARLGrid",
        intro="""
EnvPool 1.2.7's `envpool.marlgrid` (its C++ port of kandouss/marlgrid, MIT): grid worlds where several agents
act at once, each with its own partial view, on rlpool's multi-agent API (an action, reward and flags per agent,
in an order of moves drawn each step). Built on rlpool's Minigrid core (its grid and objects). The ids, options
and sizes are EnvPool's (`MarlGrid-1AgentCluttered15x15-v0` is an 11 x 11 grid there, with a 5-cell view).
EnvPool's `max_episode_steps` is also its reward decay's horizon; here that is the option `max_steps`
(default 100), which the pool's `max_episode_steps` defaults to.

Tested against EnvPool 1.2.7 itself: EnvPool's levels (its grid and agents) copied in with `set_state` and
replayed with the same actions give the same pixel (and matrix) observations bit for bit, rewards, per-agent
flags, positions and episode ends over whole episodes, for every id and the other options; generated levels
(start cells and directions, clutter, goal and bonus cells) have EnvPool's distributions (chi-square over 600
resets). Levels come from rlpool's own generator, so the same seed does not give EnvPool's level. Where agents
share a cell, which one is drawn depends on the drawn order of moves, as in EnvPool. `get_state`/`set_state`
carry the grid, the agents, each cell's agents in arrival order and the step count (`render()`: the whole grid
at 32 pixels a cell).
""",
        envs=(
            EnvDoc(title="MarlGrid Empty and Cluttered", env_types=("MarlGrid",),
                   summary="Agents race to the green goal in the bottom-right inner corner of a walled room "
                           "(`randomize_goal`: a random cell), among `n_clutter` random walls (Cluttered). "
                           "Goalcycle (`env_name=\"goalcycle\"`): no goal, `n_bonus_tiles` bonus tiles to visit "
                           "in a cycle for `bonus_reward` each.",
                   reward=_REWARD,
                   starting_state="Walls, goal (or bonus tiles) and clutter at random cells, then each agent on a "
                                  "random free cell (cells may be shared with `ghost_mode`) facing a random "
                                  "direction.",
                   termination=_END, actions=(Part(_ACTIONS),), observation_text=_OBS,
                   version_history=("`v0`: EnvPool 1.2.7's ids and rules.",)),
        ),
    )
