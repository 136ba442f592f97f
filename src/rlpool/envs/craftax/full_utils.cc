// Full Craftax's shared game rules (full_utils.h): craftax 1.6.1's
// craftax/craftax/util/game_logic_utils.py (l.1-412) and
// util/maths_utils.py get_distance_map (l.5-23), with constants.py's
// TORCH_LIGHT_MAP (l.592-594).
//
// Float32 is computed as XLA computes these functions jitted on CPU, in
// craftax's order (the build uses -ffp-contract=off). Measured against
// craftax, XLA fuses a multiply into the add that follows it in two places:
// get_damage's sum over (physical, fire, ice) is a reduce whose loop fuses
// each product into the running sum, fma(a2, b2, fma(a1, b1, a0 * b0)), the
// same standalone and inside update_mobs (the damage done to the player);
// and calculate_light_level's 1 - c^3 is fma(-(c * c), c, 1). Everything
// else is plain float32: the other products these functions add (armour *
// 0.1, the attribute scales 1 + 0.25 * (strength - 1) and 1 + 0.05 *
// (intelligence - 1), -damage * is_attacking) come out the same fused or not
// for the integers they take. TORCH_LIGHT_MAP is computed eagerly at import,
// unfused: clip(1 - distance * 0.2f, 0, 1) (the division by 5 is a multiply
// by the float32 reciprocal). lax.max/min order +0 above -0 (health clipped
// from -0 becomes +0).
#include "envs/craftax/full_utils.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

namespace rlpool::craftax::full {

namespace {

// lax.max / lax.min on float32: NaN if either is NaN; +0 is above -0.
float xla_max(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) && std::signbit(b) ? a : std::fabs(a);
  return a > b ? a : b;
}
float xla_min(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) || std::signbit(b) ? -std::fabs(a) : a;
  return a < b ? a : b;
}

}  // namespace

bool is_boss_vulnerable(const State& s) {
  const int level = read_index(s.player_level, kNumLevels);
  int melee = 0;
  for (const bool m : s.melee_mobs.mask[level]) melee += m ? 1 : 0;
  int ranged = 0;
  for (const bool m : s.ranged_mobs.mask[level]) ranged += m ? 1 : 0;
  return melee == 0 && ranged == 0 && s.boss_timesteps_to_spawn_this_round <= 0;
}

float get_damage(const DamageVector& damage, const DamageVector& defense) {
  // damages = (1 - defense) * damage_vector; damages.sum(): XLA's reduce
  // adds the products in order, each product fused into its add.
  const float d0 = (1.0f - defense[0]) * damage[0];
  return std::fma(1.0f - defense[2], damage[2], std::fma(1.0f - defense[1], damage[1], d0));
}

float get_damage_done_to_player(const State& s, const DamageVector& damage) {
  // scaled_defenses rows (armour * 0.1, fire enchantment * 0.2, ice
  // enchantment * 0.2), each summed over the 4 armour pieces in order.
  DamageVector defense{};
  for (int j = 0; j < 4; ++j) {
    const auto k = static_cast<std::size_t>(j);
    const float armour = static_cast<float>(s.inventory.armour[k]) * 0.1f;
    const float fire = s.armour_enchantments[k] == 1 ? 0.2f : 0.0f;
    const float ice = s.armour_enchantments[k] == 2 ? 0.2f : 0.0f;
    if (j == 0) {
      defense = {armour, fire, ice};
    } else {
      defense[0] += armour;
      defense[1] += fire;
      defense[2] += ice;
    }
  }
  const float scale = 1.0f + (is_fighting_boss(s) ? 1.0f : 0.0f) * kBossFightExtraDamage;
  const DamageVector scaled = {damage[0] * scale, damage[1] * scale, damage[2] * scale};
  return get_damage(scaled, defense);
}

DamageVector get_player_damage_vector(const State& s) {
  constexpr std::array<std::int32_t, 5> kPhysicalDamages = {1, 2, 3, 5, 8};
  const std::int32_t physical_int = kPhysicalDamages[static_cast<std::size_t>(read_index(s.inventory.sword, 5))];
  const float fire = static_cast<float>(physical_int * (s.sword_enchantment == 1 ? 1 : 0)) * 0.5f;
  const float ice = static_cast<float>(physical_int * (s.sword_enchantment == 2 ? 1 : 0)) * 0.5f;
  const float strength_scale = 1.0f + 0.25f * static_cast<float>(s.player_strength - 1);
  const float intelligence_scale = 1.0f + 0.05f * static_cast<float>(s.player_intelligence - 1);
  return {static_cast<float>(physical_int) * strength_scale, fire * intelligence_scale, ice * intelligence_scale};
}

bool is_position_in_bounds_not_in_mob_not_colliding(const State& s, const Position& p, const Collision& collision) {
  const bool pos_in_bounds = in_bounds(p);
  const std::int32_t block = block_at(s, p[0], p[1]);
  const bool in_solid_block = is_solid(block);
  const bool in_mob = is_in_mob(s, p);
  const bool in_lava = block == kLava;
  const bool in_water = block == kWater;
  const bool on_ground_block = !in_solid_block && !in_water && !in_lava;
  bool valid_move = pos_in_bounds && !in_mob && !in_solid_block;
  valid_move = valid_move && (!collision[0] || !on_ground_block);
  valid_move = valid_move && (!collision[1] || !in_water);
  valid_move = valid_move && (!collision[2] || !in_lava);
  return valid_move;
}

bool is_near_block(const State& s, std::int32_t block_type) {
  int count = 0;
  for (const auto& d : kCloseBlocks) {
    const std::int32_t x = s.player_position[0] + d[0];
    const std::int32_t y = s.player_position[1] + d[1];
    count += in_bounds(x, y) && block_at(s, x, y) == block_type ? 1 : 0;
  }
  return count > 0;
}

float calculate_light_level(std::int32_t timestep, const Params& params) {
  // (timestep / day_length) % 1 + 0.3 (true float32 division; jnp.remainder
  // moves a negative remainder into [0, 1)), then 1 - |cos(pi * progress)|^3
  // with the cube's last multiply fused into the subtraction.
  float progress = static_cast<float>(timestep) / static_cast<float>(params.day_length);
  float r = std::fmod(progress, 1.0f);
  if (r < 0.0f) r += 1.0f;
  progress = r + 0.3f;
  const float c = std::fabs(std::cos(std::numbers::pi_v<float> * progress));
  return std::fma(-(c * c), c, 1.0f);
}

template <int N>
AttackClassResult attack_mob_class(State& s, Mobs<N>& mobs, const Position& position, const DamageVector& damage,
                                   bool can_get_achievement, int mob_class_index) {
  const int level = read_index(s.player_level, kNumLevels);
  std::array<bool, N> attacking{};
  int num_attacking = 0;
  int target = -1;
  for (int k = 0; k < N; ++k) {
    const auto& pos = mobs.position[level][k];
    attacking[k] = pos[0] == position[0] && pos[1] == position[1] && mobs.mask[level][k];
    num_attacking += attacking[k] ? 1 : 0;
    if (attacking[k] && target < 0) target = k;
  }
  if (target < 0) target = 0;  // jnp.argmax of an all-false array
  const bool is_attacking = num_attacking > 0;
  const std::int32_t type = mobs.type_id[level][target];
  const auto cls = static_cast<std::size_t>(mob_class_index);
  const float dealt = get_damage(
      damage, kMobTypeDefenseMapping[static_cast<std::size_t>(read_index(type, 9))][cls]);
  const int write_level = write_index(s.player_level, kNumLevels);
  if (write_level >= 0) mobs.health[write_level][target] += -dealt * (is_attacking ? 1.0f : 0.0f);

  const bool old_mask = mobs.mask[level][target];
  for (int l = 0; l < kNumLevels; ++l) {
    for (int k = 0; k < N; ++k) mobs.mask[l][k] = mobs.health[l][k] > 0.0f && mobs.mask[l][k];
  }
  const bool did_kill = old_mask && !mobs.mask[level][target];
  const std::int32_t achievement =
      kMobAchievementMap[cls][static_cast<std::size_t>(read_index(type, kNumMobTypes))];
  auto& a = s.achievements[static_cast<std::size_t>(achievement)];
  a = a || (did_kill && can_get_achievement);
  return {did_kill, is_attacking};
}

template AttackClassResult attack_mob_class<2>(State&, Mobs<2>&, const Position&, const DamageVector&, bool, int);
template AttackClassResult attack_mob_class<3>(State&, Mobs<3>&, const Position&, const DamageVector&, bool, int);

AttackResult attack_mob(State& s, const Position& position, const DamageVector& damage, bool can_eat) {
  const AttackClassResult melee = attack_mob_class(s, s.melee_mobs, position, damage, true, kMobMelee);
  const AttackClassResult passive = attack_mob_class(s, s.passive_mobs, position, damage, can_eat, kMobPassive);
  if (passive.did_kill_mob && can_eat) {
    s.player_food = std::min(get_max_food(s), s.player_food + 6);
    s.player_hunger = 0.0f;
  }
  const AttackClassResult ranged = attack_mob_class(s, s.ranged_mobs, position, damage, true, kMobRanged);

  const bool did_attack = melee.is_attacking_mob || passive.is_attacking_mob || ranged.is_attacking_mob;
  const bool did_kill_monster = melee.did_kill_mob || ranged.did_kill_mob;
  const bool did_kill = did_kill_monster || passive.did_kill_mob;
  set_mob(s, s.player_level, position[0], position[1],
          mob_at(s, s.player_level, position[0], position[1]) && !did_kill);
  const int level = write_index(s.player_level, kNumLevels);
  if (level >= 0) s.monsters_killed[static_cast<std::size_t>(level)] += did_kill_monster ? 1 : 0;
  return {did_attack, did_kill};
}

template <int N>
void spawn_projectile(const State& s, Mobs<N>& projectiles, ProjectileDirections<N>& projectile_directions, const Position& position,
                      bool is_spawning, const Position& direction, std::int32_t projectile_type) {
  const int level = read_index(s.player_level, kNumLevels);
  int index = 0;  // jnp.argmax(~mask): the first free slot, 0 when all are taken
  for (int k = 0; k < N; ++k) {
    if (!projectiles.mask[level][k]) {
      index = k;
      break;
    }
  }
  const Position new_position = is_spawning ? position : projectiles.position[level][index];
  const bool new_mask = is_spawning ? true : projectiles.mask[level][index];
  const Position new_direction = is_spawning ? direction : projectile_directions[level][index];
  const std::int32_t new_type = is_spawning ? projectile_type : projectiles.type_id[level][index];
  const int write_level = write_index(s.player_level, kNumLevels);
  if (write_level < 0) return;
  projectiles.position[write_level][index] = new_position;
  projectiles.mask[write_level][index] = new_mask;
  projectiles.type_id[write_level][index] = new_type;
  projectile_directions[write_level][index] = new_direction;
}

template void spawn_projectile<3>(const State&, Mobs<3>&, ProjectileDirections<3>&,
                                  const Position&, bool, const Position&, std::int32_t);
template void spawn_projectile<2>(const State&, Mobs<2>&, ProjectileDirections<2>&,
                                  const Position&, bool, const Position&, std::int32_t);

void clip_inventory_and_intrinsics(State& s, const Params& params) {
  Inventory& inv = s.inventory;
  const auto cap = [](std::int32_t& v) { v = std::min(v, 99); };
  for (std::int32_t* v : {&inv.wood, &inv.stone, &inv.coal, &inv.iron, &inv.diamond, &inv.sapling, &inv.pickaxe,
                          &inv.sword, &inv.bow, &inv.arrows, &inv.torches, &inv.ruby, &inv.sapphire, &inv.books}) {
    cap(*v);
  }
  for (std::int32_t& v : inv.armour) cap(v);
  for (std::int32_t& v : inv.potions) cap(v);

  const float min_health = params.god_mode ? 9.0f : 0.0f;
  s.player_health = xla_min(xla_max(s.player_health, min_health), static_cast<float>(get_max_health(s)));
  s.player_food = std::min(std::max(s.player_food, 0), get_max_food(s));
  s.player_drink = std::min(std::max(s.player_drink, 0), get_max_drink(s));
  s.player_energy = std::min(std::max(s.player_energy, 0), get_max_energy(s));
  s.player_mana = std::min(std::max(s.player_mana, 0), get_max_mana(s));
}

float distance_at(std::int32_t x, std::int32_t y, std::int32_t i, std::int32_t j) {
  const std::int32_t dx = std::abs(i - x);
  const std::int32_t dy = std::abs(j - y);
  return std::sqrt(static_cast<float>(dx * dx + dy * dy));
}

const std::array<std::array<float, 9>, 9>& torch_light_map() {
  static const std::array<std::array<float, 9>, 9> kMap = [] {
    std::array<std::array<float, 9>, 9> m{};
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) {
        const float d = distance_at(4, 4, i, j) * 0.2f;
        m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = std::clamp(1.0f - d, 0.0f, 1.0f);
      }
    }
    return m;
  }();
  return kMap;
}

}  // namespace rlpool::craftax::full
