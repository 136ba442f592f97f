// Full Craftax's mob moves: craftax 1.6.1's craftax/craftax/game_logic.py
// update_mobs (l.1091-1828: melee mobs 1094-1292, passive mobs 1293-1384,
// ranged mobs 1385-1609, mob projectiles 1610-1712, player projectiles
// 1713-1828), ported to match craftax's jitted JAX on CPU bit for bit. Only
// the player's level moves.
//
// Each lax.scan over mob slots is a loop in slot order that carries the state
// (slot k + 1 sees slot k's move) and a key: the melee scan carries the last
// split's sub-key, the passive and ranged scans the outer key, and every scan
// is preceded by a split whose sub-key goes unused (the projectile scans draw
// nothing). Every draw is made whether or not its result is used: masked-out
// slots still draw, still move and still count their cooldown down, and dead
// projectiles keep flying (off the map too), as in craftax. Reads and writes
// of the maps at positions off the map follow JAX's indexing (full_rules.h).
// The shared rules (damage to the player, collisions, attack_mob,
// spawn_projectile) are full_utils.h's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_game.h"
#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {
namespace {

using Pos = Position;

constexpr std::int32_t sign(std::int32_t v) { return (v > 0) - (v < 0); }

// jax.random.split: `rng, sub = split(rng)`.
Key next_sub(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

Pos add(const Pos& a, const Pos& b) { return {a[0] + b[0], a[1] + b[1]}; }
Pos sub(const Pos& a, const Pos& b) { return {a[0] - b[0], a[1] - b[1]}; }
bool same(const Pos& a, const Pos& b) { return a[0] == b[0] && a[1] == b[1]; }

// jax.random.choice(sub, DIRECTIONS[1:1 + n]) without p: randint(0, n), then take.
Pos random_direction(Key sub, int n) {
  const std::int32_t i = jax_random::randint1(sub, 0, n);
  return kDirections[static_cast<std::size_t>(1 + i)];
}

// The move towards the player along one axis: p over the two axes is
// (|d| == max|d|) / sum|d| (0/0 = NaN when the mob sits on the player, which
// choice_p answers with axis 0), and the chosen axis moves by sign(d).
Pos towards_player(Key sub, const State& s, const Pos& pos) {
  const std::int32_t a0 = std::abs(s.player_position[0] - pos[0]);
  const std::int32_t a1 = std::abs(s.player_position[1] - pos[1]);
  const std::int32_t mx = a0 > a1 ? a0 : a1;
  const float sum = static_cast<float>(a0 + a1);
  const float p[2] = {static_cast<float>(a0 == mx) / sum, static_cast<float>(a1 == mx) / sum};
  std::int32_t axis = 0;
  jax_random::choice_p(sub, &axis, 1, p, 2);
  Pos dir{0, 0};
  const auto a = static_cast<std::size_t>(axis);
  dir[a] = sign(s.player_position[a] - pos[a]);
  return dir;
}

std::int32_t player_distance(const State& s, const Pos& pos) {
  return std::abs(pos[0] - s.player_position[0]) + std::abs(pos[1] - s.player_position[1]);
}

// The mob map update every mob scan ends with: clear the old cell if the mob
// was alive, then mark the new cell if it stays alive.
void move_on_mob_map(State& s, const Pos& old_pos, bool old_mask, const Pos& new_pos, bool new_mask) {
  const std::int32_t l = s.player_level;
  set_mob(s, l, old_pos[0], old_pos[1], mob_at(s, l, old_pos[0], old_pos[1]) && !old_mask);
  set_mob(s, l, new_pos[0], new_pos[1], mob_at(s, l, new_pos[0], new_pos[1]) || new_mask);
}

template <std::size_t N>
int count(const std::array<bool, N>& mask) {
  int c = 0;
  for (bool m : mask) c += m;
  return c;
}

// table[type_id] as JAX reads it (type ids are 0..7; clamped as JAX would).
template <class T, std::size_t N>
const T& row(const std::array<T, N>& table, std::int32_t type_id) {
  return table[static_cast<std::size_t>(read_index(type_id, static_cast<int>(N)))];
}

// A damage vector times a float32 scalar, element by element (craftax's
// vector * scalar, e.g. the damage times a 0/1 mask).
DamageVector scaled(const DamageVector& d, float f) { return {d[0] * f, d[1] * f, d[2] * f}; }

// update_mobs._move_melee_mob (l.1094-1285) for one slot; returns the carried key.
Key move_melee_mob(Key rng, State& s, std::size_t i, const Params& params) {
  const auto l = static_cast<std::size_t>(read_index(s.player_level, kNumLevels));
  auto& mobs = s.melee_mobs;
  const Pos pos = mobs.position[l][i];
  const bool alive = mobs.mask[l][i];
  const std::int32_t cooldown = mobs.attack_cooldown[l][i];
  const std::int32_t type = mobs.type_id[l][i];

  const Pos rnd_prop = add(pos, random_direction(next_sub(rng), 4));
  const Pos to_prop = add(pos, towards_player(next_sub(rng), s, pos));

  const std::int32_t dist = player_distance(s, pos);
  const bool boss = is_fighting_boss(s);
  const float u = jax_random::uniform1(next_sub(rng));  // drawn whatever the distance
  const bool close = (dist < 10 || boss) && u < 0.75f;
  Pos prop = close ? to_prop : rnd_prop;

  const bool attacking = dist == 1 && cooldown <= 0 && alive;
  if (attacking) prop = pos;

  // base * (1 + 2.5 * is_sleeping): 1 or 3.5.
  const float sleep_factor = 1.0f + 2.5f * static_cast<float>(s.is_sleeping);
  const float damage =
      get_damage_done_to_player(s, scaled(row(kMobTypeDamageMapping, type)[kMobMelee], sleep_factor));
  const std::int32_t new_cooldown = attacking ? 5 : cooldown - 1;
  const bool waking = s.is_sleeping && attacking;
  s.player_health = s.player_health - damage * static_cast<float>(attacking);
  s.is_sleeping = s.is_sleeping && !attacking;
  s.is_resting = s.is_resting && !attacking;
  s.achievements[kWakeUp] = s.achievements[kWakeUp] || waking;

  const Collision& collision = row(kMobTypeCollisionMapping, type)[kMobMelee];
  const Pos new_pos = is_position_in_bounds_not_in_mob_not_colliding(s, prop, collision) ? prop : pos;
  const bool stays = dist < params.mob_despawn_distance || boss;
  const Key carry = next_sub(rng);

  const bool new_mask = alive && stays;
  move_on_mob_map(s, pos, alive, new_pos, new_mask);
  mobs.position[l][i] = new_pos;
  mobs.attack_cooldown[l][i] = new_cooldown;
  mobs.mask[l][i] = new_mask;
  return carry;
}

// update_mobs._move_passive_mob (l.1293-1376) for one slot; the outer key is carried.
Key move_passive_mob(Key rng, State& s, std::size_t i, const Params& params) {
  const auto l = static_cast<std::size_t>(read_index(s.player_level, kNumLevels));
  auto& mobs = s.passive_mobs;
  const Pos pos = mobs.position[l][i];
  const bool alive = mobs.mask[l][i];
  const Pos prop = add(pos, random_direction(next_sub(rng), 8));  // half of DIRECTIONS[1:9] are (0, 0)
  const Collision& collision = row(kMobTypeCollisionMapping, mobs.type_id[l][i])[kMobPassive];
  const Pos new_pos = is_position_in_bounds_not_in_mob_not_colliding(s, prop, collision) ? prop : pos;
  const bool stays = player_distance(s, pos) < params.mob_despawn_distance;
  const bool new_mask = alive && stays;
  move_on_mob_map(s, pos, alive, new_pos, new_mask);
  mobs.position[l][i] = new_pos;
  mobs.mask[l][i] = new_mask;
  return rng;
}

// update_mobs._move_ranged_mob (l.1385-1602) for one slot; the outer key is carried.
Key move_ranged_mob(Key rng, State& s, std::size_t i, const Params& params) {
  const auto l = static_cast<std::size_t>(read_index(s.player_level, kNumLevels));
  auto& mobs = s.ranged_mobs;
  const Pos pos = mobs.position[l][i];
  const bool alive = mobs.mask[l][i];
  const std::int32_t cooldown = mobs.attack_cooldown[l][i];
  const std::int32_t type = mobs.type_id[l][i];

  const Pos rnd_prop = add(pos, random_direction(next_sub(rng), 4));
  const Pos to_dir = towards_player(next_sub(rng), s, pos);
  const Pos towards = add(pos, to_dir);
  const Pos away = sub(pos, to_dir);

  const std::int32_t dist = player_distance(s, pos);
  const bool far = dist >= 6;
  const bool too_close = dist <= 3;
  Pos prop = far ? towards : rnd_prop;
  if (too_close) prop = away;
  if (!(jax_random::uniform1(next_sub(rng)) > 0.85f)) prop = rnd_prop;

  // Shoot when 4-5 away, or when too close but blocked from running.
  const Collision& collision = row(kMobTypeCollisionMapping, type)[kMobRanged];
  bool attacking = dist >= 4 && dist <= 5;
  attacking = attacking || (too_close && !is_position_in_bounds_not_in_mob_not_colliding(s, prop, collision));
  attacking = attacking && cooldown <= 0 && alive;

  const bool spawning = attacking && count(s.mob_projectiles.mask[l]) < kMaxMobProjectiles;
  spawn_projectile(s, s.mob_projectiles, s.mob_projectile_directions, pos, spawning, to_dir,
                   row(kRangedMobTypeToProjectileType, type));

  if (attacking) prop = pos;
  const std::int32_t new_cooldown = attacking ? 4 : cooldown - 1;
  const Pos new_pos = is_position_in_bounds_not_in_mob_not_colliding(s, prop, collision) ? prop : pos;
  const bool stays = dist < params.mob_despawn_distance || is_fighting_boss(s);
  const bool new_mask = alive && stays;
  move_on_mob_map(s, pos, alive, new_pos, new_mask);
  mobs.position[l][i] = new_pos;
  mobs.attack_cooldown[l][i] = new_cooldown;
  mobs.mask[l][i] = new_mask;
  return rng;
}

// The next cell of a projectile: in bounds and not solid (water is not a
// wall for projectiles), as both projectile scans work it out.
bool flies_on(const State& s, const Pos& p) {
  const std::int32_t block = block_at(s, p[0], p[1]);
  return in_bounds(p) && !(is_solid(block) && block != kWater);
}

// update_mobs._move_mob_projectile (l.1610-1704) for one slot.
void move_mob_projectile(State& s, std::size_t i) {
  const std::int32_t level = s.player_level;
  const auto l = static_cast<std::size_t>(read_index(level, kNumLevels));
  auto& pr = s.mob_projectiles;
  const Pos old_pos = pr.position[l][i];
  const Pos pos = add(old_pos, s.mob_projectile_directions[l][i]);
  const bool alive = pr.mask[l][i];

  const bool hit_player =
      (same(old_pos, s.player_position) && alive) || (same(pos, s.player_position) && alive);
  const bool go_on = flies_on(s, pos) && !is_in_mob(s, pos) && !hit_player;

  // A live projectile breaks a crafting table or furnace it flies into.
  const std::int32_t block = map_at(s, level, pos[0], pos[1]);
  const bool removing = (block == kFurnace || block == kCraftingTable) && alive;
  const float damage = get_damage_done_to_player(s, row(kMobTypeDamageMapping, pr.type_id[l][i])[kMobProjectile]);

  pr.position[l][i] = pos;
  pr.mask[l][i] = go_on && alive;
  s.player_health = s.player_health - damage * static_cast<float>(hit_player);
  s.is_sleeping = s.is_sleeping && !hit_player;
  s.is_resting = s.is_resting && !hit_player;
  set_map(s, level, pos[0], pos[1], removing ? static_cast<std::int32_t>(kPath) : block);
}

// update_mobs._move_player_projectile (l.1713-1817) for one slot.
void move_player_projectile(State& s, std::size_t i) {
  const auto l = static_cast<std::size_t>(read_index(s.player_level, kNumLevels));
  auto& pr = s.player_projectiles;
  const std::int32_t type = pr.type_id[l][i];
  const bool alive = pr.mask[l][i];

  DamageVector damage = scaled(row(kMobTypeDamageMapping, type)[kMobProjectile], static_cast<float>(alive));
  const bool is_arrow = type == kProjectileArrow || type == kProjectileArrow2;

  // Bow enchantment: half the physical damage again as fire (1) or ice (2).
  DamageVector arrow_add{0.0f, 0.0f, 0.0f};
  const int e = write_index(s.bow_enchantment, 3);
  if (e >= 0) arrow_add[static_cast<std::size_t>(e)] = damage[0] * 0.5f;
  arrow_add[0] = 0.0f;
  for (std::size_t k = 0; k < 3; ++k) damage[k] = damage[k] + (is_arrow ? arrow_add[k] : 0.0f);

  // Attribute scaling: dexterity for arrows, intelligence for spells.
  const float arrow_coeff = 1.0f + 0.2f * static_cast<float>(s.player_dexterity - 1);
  const float magic_coeff = 1.0f + 0.5f * static_cast<float>(s.player_intelligence - 1);
  const float by_dexterity = is_arrow ? arrow_coeff : 1.0f;
  const bool is_spell = type == kProjectileFireball || type == kProjectileIceball;
  const float by_intelligence = is_spell ? magic_coeff : 1.0f;
  for (float& d : damage) d = d * by_dexterity;
  for (float& d : damage) d = d * by_intelligence;

  const Pos old_pos = pr.position[l][i];
  const Pos pos = add(old_pos, s.player_projectile_directions[l][i]);
  const bool flying = flies_on(s, pos);

  // It hits a mob where it is, or else where it goes.
  const AttackResult at_old = attack_mob(s, old_pos, damage, false);
  const float left = static_cast<float>(1 - static_cast<std::int32_t>(at_old.did_attack_mob));
  const AttackResult at_new = attack_mob(s, pos, scaled(damage, left), false);
  const bool did_attack = at_old.did_attack_mob || at_new.did_attack_mob;

  pr.position[l][i] = pos;
  pr.mask[l][i] = flying && !did_attack && alive;
}

}  // namespace

void update_mobs(Key rng, State& state, const Params& params) {
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxMeleeMobs; ++i) rng = move_melee_mob(rng, state, i, params);
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxPassiveMobs; ++i) rng = move_passive_mob(rng, state, i, params);
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxRangedMobs; ++i) rng = move_ranged_mob(rng, state, i, params);
  next_sub(rng);  // unused; the projectiles draw nothing
  for (std::size_t i = 0; i < kMaxMobProjectiles; ++i) move_mob_projectile(state, i);
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxPlayerProjectiles; ++i) move_player_projectile(state, i);
}

}  // namespace rlpool::craftax::full
