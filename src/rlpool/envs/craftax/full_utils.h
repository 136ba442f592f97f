// Full Craftax's shared game rules: C++ versions of every function of
// craftax 1.6.1's craftax/craftax/util/game_logic_utils.py (l.1-412:
// is_fighting_boss ... clip_inventory_and_intrinsics) and
// util/maths_utils.py (get_distance_map), plus constants.py's
// TORCH_LIGHT_MAP (l.592-594). Constants and JAX's off-array indexing are
// full_rules.h's.
//
// Where craftax returns a new state these work in place on a State&; tuples
// are small structs. Positions are (x, y) = (row, column) of the 48 x 48
// level maps, read and written as JAX does at positions off the map
// (full_rules.h). Float32 follows XLA's jitted computation on CPU
// (full_utils.cc says, per expression, where XLA fuses a multiply and an add
// into one fma).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"

namespace rlpool::craftax::full {

using Position = std::array<std::int32_t, 2>;
// State::mob_projectile_directions / player_projectile_directions for N
// slots (N is deduced from the Mobs argument only).
template <int N>
using ProjectileDirections =
    std::type_identity_t<std::array<std::array<Position, static_cast<std::size_t>(N)>, kNumLevels>>;

// is_fighting_boss(state, static_params): the player is on the last level (8).
inline bool is_fighting_boss(const State& s) { return s.player_level == kNumLevels - 1; }

// is_boss_spawn_wave(state, static_params): fighting the boss and
// boss_timesteps_to_spawn_this_round >= 1.
inline bool is_boss_spawn_wave(const State& s) {
  return is_fighting_boss(s) && s.boss_timesteps_to_spawn_this_round >= 1;
}

// is_boss_vulnerable(state): no melee and no ranged mob alive on the
// player's level and boss_timesteps_to_spawn_this_round <= 0.
bool is_boss_vulnerable(const State& s);

// has_beaten_boss(state, static_params): boss_progress >= num_levels - 1.
inline bool has_beaten_boss(const State& s) { return s.boss_progress >= kNumLevels - 1; }

// get_max_health/food/drink/energy/mana(state) (int32).
inline std::int32_t get_max_health(const State& s) { return 8 + s.player_strength; }
inline std::int32_t get_max_food(const State& s) { return 7 + 2 * s.player_dexterity; }
inline std::int32_t get_max_drink(const State& s) { return 7 + 2 * s.player_dexterity; }
inline std::int32_t get_max_energy(const State& s) { return 7 + 2 * s.player_dexterity; }
inline std::int32_t get_max_mana(const State& s) { return 6 + 3 * s.player_intelligence; }

// get_damage(damage_vector, defense_vector): sum over physical, fire, ice of
// (1 - defense) * damage (float32, XLA's order and fusion).
float get_damage(const DamageVector& damage, const DamageVector& defense);

// get_damage_done_to_player(state, static_params, damage_vector): the damage
// after the player's defence (armour pieces * 0.1 physical, fire/ice armour
// enchantments 0.2 each), times 1.5 while fighting the boss.
float get_damage_done_to_player(const State& s, const DamageVector& damage);

// get_player_damage_vector(state): (physical, fire, ice) damage of the
// player's sword ([1, 2, 3, 5, 8][sword]; fire/ice half of it when the sword
// is enchanted), scaled by strength (physical) and intelligence (fire, ice).
DamageVector get_player_damage_vector(const State& s);

// in_bounds(state, position): 0 <= x, y < 48.
constexpr bool in_bounds(std::int32_t x, std::int32_t y) { return 0 <= x && x < kMapSize && 0 <= y && y < kMapSize; }
constexpr bool in_bounds(const Position& p) { return in_bounds(p[0], p[1]); }

// is_in_solid_block(state, position): SOLID_BLOCK_MAPPING of the block there
// on the player's level (as JAX reads it).
inline bool is_in_solid_block(const State& s, const Position& p) { return is_solid(block_at(s, p[0], p[1])); }

// is_in_mob(state, position): the player's level's mob_map there (as JAX
// reads it), or the player stands there.
inline bool is_in_mob(const State& s, const Position& p) {
  return mob_at(s, s.player_level, p[0], p[1]) || (s.player_position[0] == p[0] && s.player_position[1] == p[1]);
}

// is_position_in_bounds_not_in_mob_not_colliding(state, position,
// collision_map): in bounds, no mob or player there, not solid, and not a
// block the collision map forbids ([0] ground: anything not solid, water or
// lava; [1] water; [2] lava).
bool is_position_in_bounds_not_in_mob_not_colliding(const State& s, const Position& p, const Collision& collision);

// is_near_block(state, block_type): one of the 8 CLOSE_BLOCKS neighbours of
// the player is in bounds and is block_type.
bool is_near_block(const State& s, std::int32_t block_type);

// calculate_light_level(timestep, params): 1 - |cos(pi * ((timestep /
// day_length) % 1 + 0.3))|^3 (float32, as XLA computes it in craftax_step
// and generate_world; the same bits as full_worldgen.cc's light_level_at).
float calculate_light_level(std::int32_t timestep, const Params& params);

// Result of attack_mob_class: craftax's (mobs, did_kill_mob, is_attacking_mob,
// new_achievements); mobs and achievements are updated in place.
struct AttackClassResult {
  bool did_kill_mob = false;
  bool is_attacking_mob = false;
};

// attack_mob_class(state, mobs, position, damage_vector, can_get_achievement,
// mob_class_index): damages the first live mob of `mobs` at `position` on the
// player's level by get_damage(damage, MOB_TYPE_DEFENSE_MAPPING[type,
// class]); then unmasks every mob (all levels) whose health is <= 0; a kill
// sets MOB_ACHIEVEMENT_MAP[class, type] in s.achievements when
// can_get_achievement. `mobs` is one of s's Mobs (it is read through s's
// player_level only). Instantiated for N = 2 and 3.
template <int N>
AttackClassResult attack_mob_class(State& s, Mobs<N>& mobs, const Position& position, const DamageVector& damage,
                                   bool can_get_achievement, int mob_class_index);

// Result of attack_mob: craftax's (state, did_attack_mob, did_kill_mob).
struct AttackResult {
  bool did_attack_mob = false;
  bool did_kill_mob = false;
};

// attack_mob(state, position, damage_vector, can_eat): attack_mob_class on
// the melee (class 1, achievements always), passive (class 0, achievements
// and food +6 capped at max / hunger 0 on a kill when can_eat) and ranged
// (class 2) mobs in that order; a kill clears mob_map there and a melee or
// ranged kill adds one to monsters_killed[player_level].
AttackResult attack_mob(State& s, const Position& position, const DamageVector& damage, bool can_eat);

// spawn_projectile(state, static_params, projectiles, projectile_directions,
// new_projectile_position, is_spawning_projectile, direction,
// projectile_type): when is_spawning, writes the projectile into the first
// free slot of the player's level (slot 0 when all are taken, overwriting
// it); otherwise writes that slot back unchanged. Instantiated for N = 3.
template <int N>
void spawn_projectile(const State& s, Mobs<N>& projectiles, ProjectileDirections<N>& projectile_directions, const Position& position,
                      bool is_spawning, const Position& direction, std::int32_t projectile_type);

// clip_inventory_and_intrinsics(state, params): every inventory count to at
// most 99; health into [9 if god_mode else 0, max health]; food, drink,
// energy, mana into [0, max].
void clip_inventory_and_intrinsics(State& s, const Params& params);

// maths_utils.get_distance_map(position, map_size)[i][j]: the float32
// euclidean distance sqrt(dx^2 + dy^2) between (x, y) and (i, j).
float distance_at(std::int32_t x, std::int32_t y, std::int32_t i, std::int32_t j);

// constants.TORCH_LIGHT_MAP: 9 x 9 float32 around (4, 4), [i][j].
const std::array<std::array<float, 9>, 9>& torch_light_map();

}  // namespace rlpool::craftax::full
