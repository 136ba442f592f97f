// Full Craftax's mob spawning: craftax 1.6.1's craftax/game_logic.py
// spawn_mobs (l.2044-2421), ported to match craftax's jitted JAX on CPU bit
// for bit.
//
// On the player's level, one passive mob, one melee mob and one ranged mob
// may spawn, in that order, each seeing the mob map as the one before left it.
// Each draws, from two keys split off in turn, a uniform for its chance (per
// floor, FLOOR_MOB_SPAWN_CHANCE; monsters three times as likely on a level not
// yet cleared; melee mobs likelier at night on the overworld) and a cell from
// jax.random.choice with p = can_spawn / count over the 48 x 48 cells. Passive
// mobs spawn on grass, path, fire grass or ice grass more than 3 and less than
// the despawn distance from the player (Euclidean), never in the boss fight;
// monsters more than 9 away, on the same blocks (ranged deep things on water).
// In the boss fight (the last level) monsters spawn on graves within 6 of the
// player, of the types of floor boss_progress, only in a spawn wave (then
// 1000 x as likely: certain).
//
// As craftax does, each class writes its first free slot (slot 0 when none
// is free) whether or not a mob spawns: its type_id always becomes the new
// type, its position, health and mask only on a spawn; and the mob map at that
// slot's position (as JAX indexes it) is or-ed with its mask. The cells and
// the choice are worked out only where a mob may spawn, since nothing else
// uses them; both keys are split off always.
#include <array>
#include <cmath>
#include <cstdint>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_game.h"
#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {
namespace {

constexpr std::int32_t kDeepThing = 5;  // the ranged type that lives in water

using CellMap = std::array<std::array<bool, kMapSize>, kMapSize>;

Key next_sub(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

template <std::size_t N>
int count(const std::array<bool, N>& mask) {
  int n = 0;
  for (const bool m : mask) n += m ? 1 : 0;
  return n;
}

// jnp.argmax(jnp.logical_not(mask)): the first free slot, 0 when none is.
template <std::size_t N>
int first_free(const std::array<bool, N>& mask) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!mask[i]) return static_cast<int>(i);
  }
  return 0;
}

// One class's spawn: the chance draw, the choice over the cells (`fill`
// writes which may take the mob), then the slot's writes.
template <int N, class Fill>
void spawn_class(State& s, Mobs<N>& mobs, int level, Key& rng, bool allowed, float chance, std::int32_t type,
                 float health, const Fill& fill) {
  auto& mask = mobs.mask[level];
  const bool has_slot = count(mask) < N;
  const bool lucky = jax_random::uniform1(next_sub(rng)) < chance;
  const Key choice_key = next_sub(rng);
  const int k = first_free(mask);
  if (allowed && has_slot && lucky) {
    CellMap can_spawn{};
    fill(can_spawn);
    int cells = 0;
    for (const auto& row : can_spawn) cells += count(row);
    if (cells > 0) {
      std::array<float, kMapSize * kMapSize> p;
      // XLA computes mask / sum as select(mask, 1 / sum, 0).
      const float each = 1.0f / static_cast<float>(cells);
      for (int x = 0; x < kMapSize; ++x) {
        for (int y = 0; y < kMapSize; ++y) {
          p[static_cast<std::size_t>(x * kMapSize + y)] = can_spawn[x][y] ? each : 0.0f;
        }
      }
      std::int32_t cell = 0;
      jax_random::choice_p(choice_key, &cell, 1, p.data(), p.size());
      mobs.position[level][k] = Position{cell / kMapSize, cell % kMapSize};
      mobs.health[level][k] = health;
      mask[k] = true;
    }
  }
  mobs.type_id[level][k] = type;
  const Position at = mobs.position[level][k];
  auto& mob_map = s.mob_map[level];
  const int wx = write_index(at[0], kMapSize);
  const int wy = write_index(at[1], kMapSize);
  if (wx >= 0 && wy >= 0) {
    mob_map[wx][wy] = mob_map[read_index(at[0], kMapSize)][read_index(at[1], kMapSize)] || mask[k];
  }
}

}  // namespace

void spawn_mobs(State& state, Key rng, const Params& params) {
  const int level = read_index(state.player_level, kNumLevels);
  const std::int32_t px = state.player_position[0];
  const std::int32_t py = state.player_position[1];
  const auto& map = state.map[level];
  const bool fighting_boss = is_fighting_boss(state);
  const bool spawn_wave = is_boss_spawn_wave(state);
  const int boss_floor = read_index(state.boss_progress, kNumLevels);

  // monster_spawn_coeff: 3 on a level not cleared, else 1; in the boss fight
  // times 1000 in a spawn wave, else 0.
  const std::int32_t uncleared = state.monsters_killed[level] < kMonstersKilledToClearLevel ? 1 : 0;
  const std::int32_t coeff = (1 + uncleared * 2) * (fighting_boss ? (spawn_wave ? 1000 : 0) : 1);
  const float monster_coeff = static_cast<float>(coeff);

  // get_distance_map: sqrt(dx^2 + dy^2) in float32.
  const auto distance = [px, py](int x, int y) { return distance_at(px, py, x, y); };
  const float despawn = static_cast<float>(params.mob_despawn_distance);
  const auto valid_block = [](std::int32_t b) {
    return b == kGrass || b == kPath || b == kFireGrass || b == kIceGrass;
  };
  const auto grave_block = [](std::int32_t b) { return b == kGrave || b == kGrave2 || b == kGrave3; };
  // The cells a monster may take: `on(block)` there, at a distance the fight
  // allows, nearer than the despawn distance, and no mob there.
  const auto monster_cells = [&](const auto& on) {
    return [&, on](CellMap& cells) {
      for (int x = 0; x < kMapSize; ++x) {
        for (int y = 0; y < kMapSize; ++y) {
          const float d = distance(x, y);
          const bool in_range = fighting_boss ? d <= 6.0f : d > 9.0f;
          cells[x][y] = on(map[x][y]) && in_range && d < despawn && !state.mob_map[level][x][y];
        }
      }
    };
  };

  // Passive mobs.
  {
    const std::int32_t type = kFloorMobMapping[level][kMobPassive];
    const float health = kMobTypeHealthMapping[read_index(type, kNumLevels)][kMobPassive];
    spawn_class(state, state.passive_mobs, level, rng, !fighting_boss, kFloorMobSpawnChance[level][0], type, health,
                [&](CellMap& cells) {
                  for (int x = 0; x < kMapSize; ++x) {
                    for (int y = 0; y < kMapSize; ++y) {
                      const float d = distance(x, y);
                      cells[x][y] = valid_block(map[x][y]) && d > 3.0f && d < despawn && !state.mob_map[level][x][y];
                    }
                  }
                });
  }

  // Melee mobs: base + night * (1 - light)^2, the multiply-add fused as XLA
  // emits it.
  {
    const std::int32_t type = kFloorMobMapping[fighting_boss ? boss_floor : level][kMobMelee];
    const float health = kMobTypeHealthMapping[read_index(type, kNumLevels)][kMobMelee];
    const float dark = 1.0f - state.light_level;
    const float chance = std::fma(kFloorMobSpawnChance[level][3], dark * dark, kFloorMobSpawnChance[level][1]);
    const auto on = [&](std::int32_t b) { return fighting_boss ? grave_block(b) : valid_block(b); };
    spawn_class(state, state.melee_mobs, level, rng, true, chance * monster_coeff, type, health, monster_cells(on));
  }

  // Ranged mobs (deep things on water).
  {
    const std::int32_t type = kFloorMobMapping[fighting_boss ? boss_floor : level][kMobRanged];
    const float health = kMobTypeHealthMapping[read_index(type, kNumLevels)][kMobRanged];
    const auto on = [&](std::int32_t b) {
      if (fighting_boss) return grave_block(b);
      return type == kDeepThing ? b == kWater : valid_block(b);
    };
    spawn_class(state, state.ranged_mobs, level, rng, true, kFloorMobSpawnChance[level][2] * monster_coeff, type,
                health, monster_cells(on));
  }
}

}  // namespace rlpool::craftax::full
