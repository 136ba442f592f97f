// The small rules craftax 1.6.1's Classic game logic and mobs share
// (craftax_classic/game_logic.py: in_bounds, is_in_wall, is_in_mob,
// is_position_in_bounds_not_in_wall_not_in_mob_not_in_lava, get_distance_map),
// and JAX's indexing of the map at positions that may be off it.
//
// Craftax reads and writes map/mob_map at positions one step off the map (a
// mob at the border): map_at / mob_at and set_map / set_mob do what JAX does
// there (common_rules.h).
#pragma once

#include <cstdint>
#include <cstdlib>

#include "envs/craftax/classic_state.h"
#include "envs/craftax/common_rules.h"

namespace rlpool::craftax::classic {

// state.map[p[0], p[1]] and state.mob_map[p[0], p[1]] as JAX reads them.
inline std::int32_t map_at(const State& s, std::int32_t x, std::int32_t y) {
  return s.map[read_index(x, kMapSize)][read_index(y, kMapSize)];
}
inline bool mob_at(const State& s, std::int32_t x, std::int32_t y) {
  return s.mob_map[read_index(x, kMapSize)][read_index(y, kMapSize)];
}
// state.map.at[x, y].set(v) and state.mob_map.at[x, y].set(v) as JAX writes them.
inline void set_map(State& s, std::int32_t x, std::int32_t y, std::int32_t v) {
  const int i = write_index(x, kMapSize);
  const int j = write_index(y, kMapSize);
  if (i >= 0 && j >= 0) s.map[i][j] = v;
}
inline void set_mob(State& s, std::int32_t x, std::int32_t y, bool v) {
  const int i = write_index(x, kMapSize);
  const int j = write_index(y, kMapSize);
  if (i >= 0 && j >= 0) s.mob_map[i][j] = v;
}

// in_bounds(state, position).
constexpr bool in_bounds(std::int32_t x, std::int32_t y) { return 0 <= x && x < kMapSize && 0 <= y && y < kMapSize; }

// is_in_wall(state, position): the block there (as JAX reads it) is solid.
inline bool is_in_wall(const State& s, std::int32_t x, std::int32_t y) { return is_solid(map_at(s, x, y)); }

// is_in_mob(state, position): a mob there, or the player.
inline bool is_in_mob(const State& s, std::int32_t x, std::int32_t y) {
  return mob_at(s, x, y) || (s.player_position[0] == x && s.player_position[1] == y);
}

// is_position_in_bounds_not_in_wall_not_in_mob_not_in_lava(state, position).
inline bool is_free(const State& s, std::int32_t x, std::int32_t y) {
  return in_bounds(x, y) && !is_in_wall(s, x, y) && !is_in_mob(s, x, y) && map_at(s, x, y) != kLava;
}

// get_distance_map(position)[i][j]: |i - x| + |j - y|.
constexpr std::int32_t distance(std::int32_t x, std::int32_t y, int i, int j) {
  return std::abs(i - x) + std::abs(j - y);
}

}  // namespace rlpool::craftax::classic
