"""The hand-written reference text of the Craftax family, Craftax-Classic and full Craftax (``docs/envs/craftax.md``).

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

_FULL_ACTIONS = (
    Part(("noop", "left", "right", "up", "down", "do (collect, attack, drink, eat, open a chest)", "sleep",
          "place stone", "place table", "place furnace", "place plant", "make wood pickaxe", "make stone pickaxe",
          "make iron pickaxe", "make wood sword", "make stone sword", "make iron sword", "rest", "descend (a ladder "
          "down)", "ascend (a ladder up)", "make diamond pickaxe", "make diamond sword", "make iron armour",
          "make diamond armour", "shoot arrow", "make arrow", "cast fireball", "cast iceball", "place torch",
          "drink red potion", "drink green potion", "drink blue potion", "drink pink potion", "drink cyan potion",
          "drink yellow potion", "read book", "enchant sword", "enchant armour", "make torch", "level up dexterity",
          "level up strength", "level up intelligence", "enchant bow")),
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
Info: one float32 `Achievements/<name>` entry per achievement (22, craftax's names in its `Achievement` order:
`collect_wood` ... `make_iron_sword`; 100 for each achievement the player holds when the episode terminates,
else 0, as craftax's `log_achievements_to_info`), `score` (craftax's `compute_score`, the geometric-mean score of
those, nonzero only when the episode terminates) and `discount` (0 when terminated, else 1).
"""

_FULL_REWARD = """
craftax's: for each achievement unlocked for the first time in the episode (67 achievements), its weight in
craftax's `ACHIEVEMENT_REWARD_MAP` (1 for the basic ones, 3 intermediate, 5 advanced, 8 very advanced), plus
0.1 x the change of the player's health (float32, as craftax's jitted code computes it).
"""

_FULL_START = """
A new world of 9 floors of 48 x 48 from craftax's `generate_world`: the overworld, the gnomish mines, the
dungeon, the sewers, the vaults, the troll mines, the fire realm, the ice realm and the graveyard, each made of
Perlin noise or of rooms and paths, with ores, chests, fountains and the ladders between the floors; the player
on the overworld facing up with 9 health, food, drink, energy and mana, attributes 1 (with `god_mode`, 99 of
every item and the best tools and armour). The world is drawn from the env's JAX key (see the key scheme
above): the symbolic ids from `split(k)[1]` of the reset's key `k`, the pixel ids from `k` itself, as craftax's
two envs do.
"""

_FULL_END = """
Terminates when craftax's game is over (`is_game_over`): the player's health drops to 0, the necromancer (on the
last floor) is defeated, or the game's clock reaches craftax's `max_timesteps`, 100,000 steps. The time limit
(also 100,000) truncates; at step 100,000 both flags are set.
"""

_FULL_INFO = """
Info: one float32 `Achievements/<name>` entry per achievement (67, craftax's names: `collect_wood` ...
`defeat_archer`; 100 for each achievement the player holds when the episode terminates, else 0, as craftax's
`log_achievements_to_info`) and `discount` (0 when terminated, else 1). Full Craftax's info has no score.
"""

_FULL_SYMBOLIC = (
    Part("the 9 x 11 view around the player on its floor (rows: x - 4 .. x + 4, columns: y - 5 .. y + 5), 83 "
         "channels a cell in C order: a one-hot of the 37 block types (off the map: OUT_OF_BOUNDS), a one-hot of "
         "the 5 item types, 40 mob flags (melee, passive, ranged, mob projectile, player projectile, 8 types "
         "each), all 0 where the cell's light is not above 0.05, then that visibility flag", 9 * 11 * 83),
    Part(("sqrt(wood) / 10", "sqrt(stone) / 10", "sqrt(coal) / 10", "sqrt(iron) / 10", "sqrt(diamond) / 10",
          "sqrt(sapphire) / 10", "sqrt(ruby) / 10", "sqrt(sapling) / 10", "sqrt(torches) / 10",
          "sqrt(arrows) / 10", "books / 2", "pickaxe level / 4", "sword level / 4", "sword enchantment",
          "bow enchantment", "bow")),
    Part(("sqrt(red potions) / 10", "sqrt(green potions) / 10", "sqrt(blue potions) / 10",
          "sqrt(pink potions) / 10", "sqrt(cyan potions) / 10", "sqrt(yellow potions) / 10")),
    Part(("health / 10", "food / 10", "drink / 10", "energy / 10", "mana / 10", "xp / 10", "dexterity / 10",
          "strength / 10", "intelligence / 10")),
    Part(("facing left", "facing right", "facing up", "facing down")),
    Part(("helmet / 2", "chestplate / 2", "pants / 2", "boots / 2")),
    Part(("helmet enchantment", "chestplate enchantment", "pants enchantment", "boots enchantment")),
    Part(("light level", "sleeping", "resting", "learned fireball", "learned iceball", "floor / 10",
          "floor cleared (8 monsters killed)", "necromancer vulnerable")),
)

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
        title="Craftax",
        intro="""
Craftax-Classic and full Craftax from craftax 1.6.1 (Michael Matthews et al., MIT licence;
github.com/MichaelTMatthews/Craftax), ported to C++ from its JAX code. Craftax-Classic is a 2-D open-world
survival game with 17 actions and 22 achievements on one 64 x 64 floor; full Craftax adds 8 floors below
(48 x 48 each: mines, dungeons, fire and ice realms, a boss), 43 actions (ladders, bows, spells, potions,
enchanting, attributes) and 67 achievements. The ids are EnvPool 1.2.7's, which are craftax's names;
EnvPool's other spelling, `Craftax/Classic-Symbolic-v1` or `Craftax/Symbolic-v1`, is accepted by the EnvPool
layer (`rlpool.compat.envpool`).

Keys. rlpool follows EnvPool 1.2.7, which draws what craftax draws from the same JAX keys: env i of a pool
made with `seed=s` starts from `jax.random.PRNGKey(s + i)`, its first world is `reset_env(PRNGKey(s + i))`,
each step is `key, k = split(key); step_env(k)`, and a later reset is `key, k = split(key); reset_env(k)`. A
reset with a new seed (`reset(seed=...)`) starts again from `PRNGKey(seed)`. `PRNGKey` keeps a seed's low 32
bits (JAX with x64 off). The random numbers are JAX's threefry draws, reproduced bit for bit
(`_core/env/jax_random.h`), and the float32 arithmetic is that of craftax's jitted XLA code on CPU (division by
a constant as multiplication by its float32 reciprocal, the multiply-adds XLA fuses as `fma`, XLA's blocked
cumulative sum), so a seed gives craftax's and EnvPool's episodes. `tests/envs/craftax` compares
observations, rewards, flags, info and states step by step with craftax 1.6.1 run on CPU with jax/jaxlib
0.10.2, and observations, rewards and flags with EnvPool 1.2.7 (a full Craftax pixel frame of a reset is
craftax's in rlpool and differs in the last bit in EnvPool: see Craftax-Pixels). EnvPool's own full Craftax
world generation differs from craftax's for a few keys (a few cells of a floor: 3 worlds in about 900 resets
of random runs compared here); rlpool's worlds are craftax's there too.

AutoReset ids. craftax's `EnvironmentAutoReset.step(k)` steps with `split(k)[0]` and, when the episode ends,
resets with `split(k)[1]` within the same step; the `-AutoReset-` ids use these keys (env option
`auto_reset`) and run in the `SameStep` autoreset mode by default, as EnvPool runs them (another
`autoreset_mode` may be asked for). The plain ids run in `NextStep`, EnvPool's mode for them. With `SameStep`
the row's info after a reset is the new episode's; the ending step's achievements and score are in
`final_info`.

Info: craftax's `Achievements/<name>` entries (float32, 100 for an achievement unlocked in an episode that
ends at this step, else 0), `score` (Classic only: full Craftax's info has none) and `discount`, as EnvPool
gives them. Where rlpool differs from EnvPool: a time limit shorter than craftax's `max_timesteps` truncates
without filling the achievements and score or zeroing the discount (EnvPool counts it as the episode's end
there); where the game ends at the time limit's step (at step 10,000, or 100,000 for full Craftax, it always
does) EnvPool sets `terminated` only, rlpool both flags. EnvPool's config has one key set for both games: the
keys of the other game (on the Classic ids `god_mode` and `max_attribute`, on the full Craftax ids the mob
healths and spawn chances) and its debugging options (`fractal_noise_angles`, `initial_state`, `debug_state`,
`render_tile_size`, the map and mob-slot sizes) are taken by the EnvPool layer at EnvPool's values for the task
only; `set_state` restores any state.

Crafter. Craftax-Classic re-implements Danijar Hafner's Crafter 1.8.3 (the numpy game of "Benchmarking the
Spectrum of Agent Capabilities"): the same 64 x 64 worlds, 17 actions and 22 achievements, but its own code,
world generator and random numbers (JAX keys instead of numpy's `RandomState`), so no seed gives Crafter's
episodes, and rlpool makes no comparison with Crafter. EnvPool has no Crafter ids, nor does rlpool.

Pixels and `render`: craftax's renderers, 63 x 63 for Classic (7-pixel tiles, the inventory below the map,
night darkening and noise) and 130 x 110 for full Craftax (10-pixel tiles, darkness beyond the light map, a
four-row inventory, potions, spells, armour and enchantments), with craftax's own textures, which rlpool takes
from craftax 1.6.1's wheel: fetched once by name, version and sha256 with pip, each PNG checked against the
wheel's RECORD, into rlpool's cache (`<cache>/craftax/`). The Pixels ids fetch it when a pool is made, the
Symbolic ids only for `render_mode`. `render()` gives that frame as uint8 for both.

State: `get_state()` is craftax's `EnvState` as raw little-endian bytes in `jax.tree_util.tree_leaves` order
(bools as one byte), followed by the env's JAX key (two uint32): 20,960 bytes for Classic, 273,284 for full
Craftax; `set_state` checks every field.
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
            EnvDoc(
                title="Craftax-Symbolic",
                env_types=("CraftaxSymbolic",),
                summary="Full Craftax with craftax's symbolic observation (`render_craftax_symbolic`).",
                actions=_FULL_ACTIONS,
                observation=_FULL_SYMBOLIC,
                observation_text=(
                    "`x / 10` is computed as `x * float32(0.1)` as craftax's jitted step computes it; a reset's "
                    "intrinsics, constants of craftax's `reset_env` program, are divided exactly (9 gives 0.9, a "
                    "step 0.90000004). The space is craftax's and EnvPool's `Box(0, 1)`, but some values go above 1 "
                    "in play: an ice enchantment is 2, and health, mana and xp / 10 pass 1 once the attributes or "
                    "xp grow." + _FULL_INFO
                ),
                reward=_FULL_REWARD,
                starting_state=_FULL_START,
                termination=_FULL_END,
            ),
            EnvDoc(
                title="Craftax-Pixels",
                env_types=("CraftaxPixels",),
                summary="Full Craftax with craftax's pixel observation.",
                actions=_FULL_ACTIONS,
                observation_text=(
                    "craftax's 130 x 110 RGB frame / 255 as float32: the 9 x 11 tiles of the player's floor "
                    "around the player, dark where the floor's light map is, darkened at night, above four rows "
                    "of inventory, intrinsics, potions, spells, armour and enchantment icons. Every frame is craftax's "
                    "bit for bit: a step's is its `step_env` frame, a reset's its `reset_env` frame, whose program "
                    "XLA compiles with other roundings of the daylight blend. EnvPool 1.2.7 draws a reset's frame as "
                    "a step's, so its reset frames differ from rlpool's (and craftax's) in the last bit of about 1 in "
                    "7 map values; its other frames are rlpool's." + _FULL_INFO
                ),
                reward=_FULL_REWARD,
                starting_state=_FULL_START,
                termination=_FULL_END,
            ),
        ),
    )
