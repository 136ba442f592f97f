"""The hand-written reference text of the Craftax family (``docs/envs/craftax.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

_ACTIONS = (
    Part(("noop", "left", "right", "up", "down", "do (collect, attack, drink, eat)", "sleep", "place stone",
          "place table", "place furnace", "place plant", "make wood pickaxe", "make stone pickaxe",
          "make iron pickaxe", "make wood sword", "make stone sword", "make iron sword")),
)

_REWARD = """
craftax's: +1 for each achievement unlocked for the first time in the episode (22 achievements), plus
0.1 x the change of the player's health (`fma(health_delta, 0.1, achievement_delta)` in float32, as craftax's
jitted code computes it).
"""

_START = """
A new 64 x 64 world from craftax's `generate_world`: Perlin-noise water, sand, mountains, caves, tunnels, ores,
trees and lava, at least one diamond (`always_diamond`), the player at the centre facing up with full health,
food, drink and energy. The world is drawn from the env's JAX key (see the key scheme above).
"""

_END = """
Terminates when craftax's game is over (`is_game_over`): the player's health drops to 0, the player stands in
lava, or the game's clock reaches craftax's `max_timesteps`, 10,000 steps. The time limit (also 10,000)
truncates; at step 10,000 both flags are set.
"""

_INFO = """
Info: `achievements` (22 float32 in craftax's `Achievement` order, `collect_wood` ... `make_iron_sword`: 100 for
each achievement the player holds when the episode terminates, else 0, as craftax's `compute_score`), `score`
(craftax's geometric-mean score of those, nonzero only when the episode terminates) and `discount` (0 when
terminated, else 1).
"""

_SYMBOLIC = (
    Part("the 7 x 9 view around the player (rows: x - 3 .. x + 3, columns: y - 4 .. y + 4), 21 channels a cell "
         "in C order: a one-hot of the 17 block types (off the map: OUT_OF_BOUNDS), then zombie, cow, skeleton "
         "and arrow flags", 7 * 9 * 21),
    Part(("wood / 10", "stone / 10", "coal / 10", "iron / 10", "diamond / 10", "sapling / 10",
          "wood pickaxe / 10", "stone pickaxe / 10", "iron pickaxe / 10", "wood sword / 10", "stone sword / 10",
          "iron sword / 10")),
    Part(("health / 10", "food / 10", "drink / 10", "energy / 10")),
    Part(("facing left", "facing right", "facing up", "facing down")),
    Part(("light level (`calculate_light_level`: 1 at midday, 0 at midnight)", "sleeping")),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/craftax.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="craftax",
        title="Craftax-Classic",
        intro="""
Craftax-Classic from craftax 1.6.1 (Michael Matthews et al., MIT licence; github.com/MichaelTMatthews/Craftax),
ported to C++ from its JAX code: a 2-D open-world survival game with 17 actions and 22 achievements. The ids
are EnvPool 1.2.7's, which are craftax's names; EnvPool's other spelling, `Craftax/Classic-Symbolic-v1`,
is accepted by the EnvPool layer (`rlpool.compat.envpool`). Full Craftax (`Craftax-Symbolic-v1`, 9 floors,
43 actions) is not ported yet.

Keys. rlpool follows EnvPool 1.2.7, which draws what craftax draws from the same JAX keys: env i of a pool
made with `seed=s` starts from `jax.random.PRNGKey(s + i)`, its first world is `reset_env(PRNGKey(s + i))`,
each step is `key, k = split(key); step_env(k)`, and a later reset is `key, k = split(key); reset_env(k)`. A
reset with a new seed (`reset(seed=...)`) starts again from `PRNGKey(seed)`. `PRNGKey` keeps a seed's low 32
bits (JAX with x64 off). The random numbers are JAX's threefry draws, reproduced bit for bit
(`_core/env/jax_random.h`), and the float32 arithmetic is that of craftax's jitted XLA code on CPU (division by
a constant as multiplication by its float32 reciprocal, the multiply-adds XLA fuses as `fma`, XLA's blocked
cumulative sum), so a seed gives craftax's and EnvPool's episodes. `tests/envs/craftax` compares
observations, rewards, flags, info and states step by step with craftax 1.6.1 run on CPU with jax/jaxlib
0.10.2, and observations, rewards and flags with EnvPool 1.2.7.

AutoReset ids. craftax's `EnvironmentAutoReset.step(k)` steps with `split(k)[0]` and, when the episode ends,
resets with `split(k)[1]` within the same step; the `-AutoReset-` ids use these keys (env option
`auto_reset`) and run in the `SameStep` autoreset mode by default, as EnvPool runs them (another
`autoreset_mode` may be asked for). The plain ids run in `NextStep`, EnvPool's mode for them. With `SameStep`
the row's info after a reset is the new episode's; the ending step's achievements and score are in
`final_info`.

Info: craftax's `Achievements/<name>` entries (float32, 100 for an achievement unlocked in an episode that
ends at this step, else 0), `score` and `discount`, as EnvPool gives them. Where rlpool differs from EnvPool: a
time limit shorter than 10,000 steps truncates without filling the
achievements and score or zeroing the discount (EnvPool counts it as the episode's end there); where the game
ends at the time limit's step (at step 10,000 it always does) EnvPool sets `terminated` only, rlpool both
flags. EnvPool's options for full Craftax and its debugging options (`god_mode`, `fractal_noise_angles`,
`initial_state`, `debug_state`, `render_tile_size`, the map and mob-slot sizes) are taken by the EnvPool layer
at their Classic values only; `set_state` restores any state.

Crafter. Craftax-Classic re-implements Danijar Hafner's Crafter 1.8.3 (the numpy game of "Benchmarking the
Spectrum of Agent Capabilities"): the same 64 x 64 worlds, 17 actions and 22 achievements, but its own code,
world generator and random numbers (JAX keys instead of numpy's `RandomState`), so no seed gives Crafter's
episodes, and rlpool makes no comparison with Crafter. EnvPool has no Crafter ids, nor does rlpool.

Pixels and `render`: craftax's 63 x 63 renderer (7-pixel tiles, the inventory below the map, night darkening
and noise) with craftax's own textures, which rlpool takes from craftax 1.6.1's wheel: fetched once by name,
version and sha256 with pip, each PNG checked against the wheel's RECORD, into rlpool's cache
(`<cache>/craftax/craftax-1.6.1/`). The Pixels ids fetch it when a pool is made, the Symbolic ids only for
`render_mode`. `render()` gives that frame as uint8 for both.

State: `get_state()` is craftax's `EnvState` as raw little-endian bytes in `jax.tree_util.tree_leaves` order
(bools as one byte), followed by the env's JAX key (two uint32); `set_state` checks every field.
""",
        envs=(
            EnvDoc(
                title="Craftax-Classic-Symbolic",
                env_types=("CraftaxClassicSymbolic",),
                summary="Craftax-Classic with craftax's symbolic observation (`render_craftax_symbolic`).",
                actions=_ACTIONS,
                observation=_SYMBOLIC,
                observation_text=(
                    "The inventory and intrinsics are computed in float16 as craftax does (`float16(x) * "
                    "float16(0.1)`: 1 gives 0.0999755859375)." + _INFO
                ),
                reward=_REWARD,
                starting_state=_START,
                termination=_END,
            ),
            EnvDoc(
                title="Craftax-Classic-Pixels",
                env_types=("CraftaxClassicPixels",),
                summary="Craftax-Classic with craftax's pixel observation.",
                actions=_ACTIONS,
                observation_text=(
                    "craftax's 63 x 63 RGB frame / 255 as float32 (`render_craftax_pixels`): the 7 x 9 tiles "
                    "around the player, darkened at night, above two rows of inventory and intrinsics icons."
                    + _INFO
                ),
                reward=_REWARD,
                starting_state=_START,
                termination=_END,
            ),
        ),
    )
