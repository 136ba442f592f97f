// Jumanji's maze generator (jumanji 1.1.2,
// jumanji/environments/commons/maze_utils/maze_generation.py generate_maze,
// l.201-219, and what it calls, l.71-199, with stack.py's Stack), shared by
// the Maze and Cleaner envs: recursive division with a stack of chambers
// (x, y, width, height), the whole maze first. Each popped chamber splits the
// key three ways (key, wall_key, passage_key); a chamber at least as wide as
// high gets a vertical wall at an odd offset (random_odd: randint(0,
// width // 2) * 2 + 1) with a passage at an even offset (random_even:
// randint(0, (height + 1) // 2) * 2), else a horizontal one the same way; the
// two sides are pushed (left/above first) when both their sides are over 1.
#pragma once

#include <cstdint>
#include <vector>

#include "envs/jumanji/jumanji_env.h"

namespace rlpool::jumanji {

// A chamber of maze_generation.py: its top-left square and its size.
struct MazeChamber {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t width = 0;
  std::int32_t height = 0;
};

// maze_generation.generate_maze(cols, rows, key): `walls` becomes rows x cols
// (row-major), 1 a wall, 0 free. `stack` is scratch (its contents are
// replaced). Every chamber lies inside the maze, so no write falls outside it.
void generate_maze(Key key, int rows, int cols, std::vector<std::uint8_t>& walls, std::vector<MazeChamber>& stack);

}  // namespace rlpool::jumanji
