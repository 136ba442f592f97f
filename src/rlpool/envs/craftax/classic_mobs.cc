// Craftax-Classic's mobs: craftax 1.6.1's craftax_classic/game_logic.py
// update_mobs (l.755-1222: zombies 758-902, cows 906-963, skeletons 966-1156,
// arrows 1158-1217) and spawn_mobs (l.1400-1630), ported to match craftax's
// jitted JAX on CPU bit for bit.
//
// Each lax.scan over mob slots is a loop in slot order that carries the state
// (slot k + 1 sees slot k's move) and a key: the zombie scan carries the last
// split's sub-key, the cow and skeleton scans the outer key, and every scan is
// preceded by a split whose sub-key goes unused. Every draw is made whether
// or not its result is used (masked-out slots still draw, still move and
// still count their cooldown down, as in craftax). Reads and writes of the
// map and mob map at positions off the map follow JAX's indexing
// (classic_rules.h); argmax of an all-false mask is 0.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "_core/env/jax_random.h"
#include "envs/craftax/classic_game.h"
#include "envs/craftax/classic_rules.h"
#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {
namespace {

using Pos = std::array<std::int32_t, 2>;

constexpr std::int32_t sign(std::int32_t v) { return (v > 0) - (v < 0); }

// jax.random.split: `rng, sub = split(rng)`.
Key next_sub(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

// jax.random.choice(sub, DIRECTIONS[lo:lo + n]) without p: randint(0, n), then take.
Pos random_direction(Key sub, int lo, int n) {
  const std::int32_t i = jax_random::randint1(sub, 0, n);
  return kDirections[static_cast<std::size_t>(lo + i)];
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
  dir[static_cast<std::size_t>(axis)] =
      sign(s.player_position[static_cast<std::size_t>(axis)] - pos[static_cast<std::size_t>(axis)]);
  return dir;
}

std::int32_t player_distance(const State& s, const Pos& pos) {
  return std::abs(pos[0] - s.player_position[0]) + std::abs(pos[1] - s.player_position[1]);
}

// The mob map update every mob scan ends with: clear the old cell if the mob
// was alive, then mark the new cell if it stays alive.
void move_on_mob_map(State& s, const Pos& old_pos, bool old_mask, const Pos& new_pos, bool new_mask) {
  set_mob(s, old_pos[0], old_pos[1], mob_at(s, old_pos[0], old_pos[1]) && !old_mask);
  set_mob(s, new_pos[0], new_pos[1], mob_at(s, new_pos[0], new_pos[1]) || new_mask);
}

// jnp.argmax(jnp.logical_not(mask)): the first free slot, 0 if none.
template <std::size_t N>
std::size_t first_free(const std::array<bool, N>& mask) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!mask[i]) return i;
  }
  return 0;
}

template <std::size_t N>
int count(const std::array<bool, N>& mask) {
  int c = 0;
  for (bool m : mask) c += m;
  return c;
}

// update_mobs._move_zombie (l.758-898) for one slot; returns the carried key.
Key move_zombie(Key rng, State& s, std::size_t i, const Params& params) {
  auto& z = s.zombies;
  const Pos pos = z.position[i];

  const Pos rnd_dir = random_direction(next_sub(rng), 1, 4);
  const Pos rnd_prop{pos[0] + rnd_dir[0], pos[1] + rnd_dir[1]};
  const Pos to_dir = towards_player(next_sub(rng), s, pos);
  const Pos to_prop{pos[0] + to_dir[0], pos[1] + to_dir[1]};

  const std::int32_t dist = player_distance(s, pos);
  const float u = jax_random::uniform1(next_sub(rng));  // drawn whatever the distance
  const bool close = dist < 10 && u < 0.75f;
  Pos prop = close ? to_prop : rnd_prop;

  const bool attacking = dist == 1 && z.attack_cooldown[i] <= 0 && z.mask[i];
  if (attacking) prop = pos;
  const std::int32_t damage = s.is_sleeping ? 7 : 2;
  const std::int32_t new_cooldown = attacking ? 5 : z.attack_cooldown[i] - 1;
  const bool waking = s.is_sleeping && attacking;
  s.player_health -= damage * static_cast<std::int32_t>(attacking);
  s.is_sleeping = s.is_sleeping && !attacking;
  s.achievements[kWakeUp] = s.achievements[kWakeUp] || waking;

  const Pos new_pos = is_free(s, prop[0], prop[1]) ? prop : pos;
  const bool stays = dist < params.mob_despawn_distance;
  const Key carry = next_sub(rng);

  const bool new_mask = z.mask[i] && stays;
  move_on_mob_map(s, pos, z.mask[i], new_pos, new_mask);
  z.position[i] = new_pos;
  z.attack_cooldown[i] = new_cooldown;
  z.mask[i] = new_mask;
  return carry;
}

// update_mobs._move_cow (l.906-957) for one slot; the outer key is carried.
Key move_cow(Key rng, State& s, std::size_t i, const Params& params) {
  auto& c = s.cows;
  const Pos pos = c.position[i];
  const Pos dir = random_direction(next_sub(rng), 1, 8);  // half of DIRECTIONS[1:9] are (0, 0)
  const Pos prop{pos[0] + dir[0], pos[1] + dir[1]};
  const Pos new_pos = is_free(s, prop[0], prop[1]) ? prop : pos;
  const bool stays = player_distance(s, pos) < params.mob_despawn_distance;
  const bool new_mask = c.mask[i] && stays;
  move_on_mob_map(s, pos, c.mask[i], new_pos, new_mask);
  c.position[i] = new_pos;
  c.mask[i] = new_mask;
  return rng;
}

// update_mobs._move_skeleton (l.966-1150) for one slot; the outer key is carried.
Key move_skeleton(Key rng, State& s, std::size_t i, const Params& params) {
  auto& k = s.skeletons;
  const Pos pos = k.position[i];

  const Pos rnd_dir = random_direction(next_sub(rng), 1, 4);
  const Pos rnd_prop{pos[0] + rnd_dir[0], pos[1] + rnd_dir[1]};
  const Pos to_dir = towards_player(next_sub(rng), s, pos);
  const Pos towards{pos[0] + to_dir[0], pos[1] + to_dir[1]};
  const Pos away{pos[0] - to_dir[0], pos[1] - to_dir[1]};

  const std::int32_t dist = player_distance(s, pos);
  const bool far = dist >= 10;
  const bool too_close = dist <= 3;
  Pos prop = far ? towards : rnd_prop;
  if (too_close) prop = away;
  if (!(jax_random::uniform1(next_sub(rng)) > 0.85f)) prop = rnd_prop;

  bool attacking = dist >= 4 && dist <= 5;
  attacking = attacking || (too_close && !is_free(s, prop[0], prop[1]));
  attacking = attacking && k.attack_cooldown[i] <= 0 && k.mask[i];

  // Shoot an arrow into the first free arrow slot (slot 0 when none is free).
  const bool spawning = attacking && count(s.arrows.mask) < kMaxArrows;
  const std::size_t a = first_free(s.arrows.mask);
  if (spawning) {
    s.arrows.position[a] = pos;
    s.arrows.mask[a] = true;
    s.arrow_directions[a] = to_dir;
  }

  if (attacking) prop = pos;
  const std::int32_t new_cooldown = attacking ? 4 : k.attack_cooldown[i] - 1;
  const Pos new_pos = is_free(s, prop[0], prop[1]) ? prop : pos;
  const bool stays = dist < params.mob_despawn_distance;
  const bool new_mask = k.mask[i] && stays;
  move_on_mob_map(s, pos, k.mask[i], new_pos, new_mask);
  k.position[i] = new_pos;
  k.attack_cooldown[i] = new_cooldown;
  k.mask[i] = new_mask;
  return rng;
}

// update_mobs._move_arrow (l.1158-1214) for one slot. Every slot moves, a
// masked-out one too (its position keeps drifting, off the map as well).
void move_arrow(State& s, std::size_t i) {
  auto& ar = s.arrows;
  const Pos pos{ar.position[i][0] + s.arrow_directions[i][0], ar.position[i][1] + s.arrow_directions[i][1]};
  const bool in_player = pos[0] == s.player_position[0] && pos[1] == s.player_position[1];
  const std::int32_t block = map_at(s, pos[0], pos[1]);
  const bool in_wall = is_solid(block) && block != kWater;  // arrows fly over water
  const bool go_on = in_bounds(pos[0], pos[1]) && !in_wall && !is_in_mob(s, pos[0], pos[1]);
  const bool alive = ar.mask[i];
  const bool hit_player = in_player && alive;
  const bool removing = (block == kFurnace || block == kCraftingTable) && alive;

  ar.position[i] = pos;
  ar.mask[i] = go_on && alive;
  s.player_health -= 2 * static_cast<std::int32_t>(hit_player);
  s.is_sleeping = s.is_sleeping && !hit_player;
  set_map(s, pos[0], pos[1], removing ? kPath : block);
}

// One mob kind's spawn (spawn_mobs l.1403-1469, 1471-1549, 1551-1627): the
// chance draw, then a choice over the 4096 cells with p = can_spawn / sum.
// Both keys are split off every step, as craftax does; the cells (`fill`
// writes which may take the mob) and the choice are worked out only where a
// mob spawns, since nothing else uses them (craftax computes them always: a
// tenth of a Classic step's time here where done always).
template <int N, class Fill>
void spawn_one(State& s, Mobs<N>& mobs, Key& rng, float chance, std::int32_t health, const Fill& fill) {
  const bool has_slot = count(mobs.mask) < N;
  const bool lucky = jax_random::uniform1(next_sub(rng)) < chance;
  const Key choice_key = next_sub(rng);
  const std::size_t k = first_free(mobs.mask);
  if (has_slot && lucky) {
    std::array<std::array<bool, kMapSize>, kMapSize> can_spawn_map{};
    fill(can_spawn_map);
    int cells = 0;
    for (const auto& row : can_spawn_map) cells += count(row);
    if (cells > 0) {
      std::array<float, kMapSize * kMapSize> p;
      const float total = static_cast<float>(cells);
      for (int x = 0; x < kMapSize; ++x) {
        for (int y = 0; y < kMapSize; ++y) {
          p[static_cast<std::size_t>(x * kMapSize + y)] = static_cast<float>(can_spawn_map[x][y]) / total;
        }
      }
      std::int32_t cell = 0;
      jax_random::choice_p(choice_key, &cell, 1, p.data(), p.size());
      mobs.position[k] = Pos{cell / kMapSize, cell % kMapSize};
      mobs.health[k] = health;
      mobs.mask[k] = true;
    }
  }
  const Pos& at = mobs.position[k];
  set_mob(s, at[0], at[1], mob_at(s, at[0], at[1]) || mobs.mask[k]);
}

}  // namespace

void update_mobs(Key rng, State& state, const Params& params) {
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxZombies; ++i) rng = move_zombie(rng, state, i, params);
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxCows; ++i) rng = move_cow(rng, state, i, params);
  next_sub(rng);  // unused
  for (std::size_t i = 0; i < kMaxSkeletons; ++i) rng = move_skeleton(rng, state, i, params);
  next_sub(rng);  // unused; the arrows draw nothing
  for (std::size_t i = 0; i < kMaxArrows; ++i) move_arrow(state, i);
}

void spawn_mobs(State& state, Key rng, const Params& params) {
  const std::int32_t px = state.player_position[0];
  const std::int32_t py = state.player_position[1];
  using Map = std::array<std::array<bool, kMapSize>, kMapSize>;
  // The cells a mob may take: on one of `blocks`, more than `near` and less
  // than the despawn distance from the player, with no mob there.
  const auto cells = [&](std::int32_t block, std::int32_t also, std::int32_t near) {
    return [&state, px, py, block, also, near, far = params.mob_despawn_distance](Map& map) {
      for (int x = 0; x < kMapSize; ++x) {
        for (int y = 0; y < kMapSize; ++y) {
          const std::int32_t d = distance(px, py, x, y);
          const std::int32_t b = state.map[x][y];
          map[x][y] = (b == block || b == also) && d > near && d < far && !state.mob_map[x][y];
        }
      }
    };
  };

  // Cows: on grass, 4 to despawn distance - 1 away from the player.
  spawn_one(state, state.cows, rng, params.spawn_cow_chance, params.cow_health, cells(kGrass, kGrass, 3));

  // Zombies: on grass or path, 10 to despawn distance - 1 away; likelier at
  // night: base + night * (1 - light)^2, the multiply-add fused as XLA emits it.
  const float dark = 1.0f - state.light_level;
  const float zombie_chance =
      std::fma(params.spawn_zombie_night_chance, dark * dark, params.spawn_zombie_base_chance);
  spawn_one(state, state.zombies, rng, zombie_chance, params.zombie_health, cells(kGrass, kPath, 9));

  // Skeletons: on path (the tunnels), 10 to despawn distance - 1 away.
  spawn_one(state, state.skeletons, rng, params.spawn_skeleton_chance, params.skeleton_health,
            cells(kPath, kPath, 9));
}

}  // namespace rlpool::craftax::classic
