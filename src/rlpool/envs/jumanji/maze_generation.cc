// Jumanji's recursive-division maze generator (jumanji 1.1.2,
// jumanji/environments/commons/maze_utils/maze_generation.py generate_maze,
// l.71-219): see maze_generation.h.
#include "envs/jumanji/maze_generation.h"

#include <array>
#include <cstddef>

namespace rlpool::jumanji {

void generate_maze(Key key, int rows, int cols, std::vector<std::uint8_t>& walls, std::vector<MazeChamber>& stack) {
  walls.assign(static_cast<std::size_t>(rows * cols), 0);
  stack.clear();
  stack.push_back({0, 0, cols, rows});
  auto set = [&](int row, int col, std::uint8_t v) { walls[static_cast<std::size_t>(row * cols + col)] = v; };
  auto push = [&](std::int32_t x, std::int32_t y, std::int32_t width, std::int32_t height) {
    if (width > 1 && height > 1) stack.push_back({x, y, width, height});
  };
  while (!stack.empty()) {
    const MazeChamber c = stack.back();
    stack.pop_back();
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), keys.size());
    key = keys[0];
    if (c.width >= c.height) {  // split_horizontally: a vertical wall
      const std::int32_t wall_dx = jax_random::randint1(keys[1], 0, c.width / 2) * 2 + 1;
      const std::int32_t wall_x = c.x + wall_dx;
      for (std::int32_t i = c.y; i < c.y + c.height; ++i) set(i, wall_x, 1);
      push(c.x, c.y, wall_dx, c.height);
      push(wall_x + 1, c.y, c.width - wall_dx - 1, c.height);
      const std::int32_t passage_y = jax_random::randint1(keys[2], 0, (c.height + 1) / 2) * 2;
      set(c.y + passage_y, wall_x, 0);
    } else {  // split_vertically: a horizontal wall
      const std::int32_t wall_dy = jax_random::randint1(keys[1], 0, c.height / 2) * 2 + 1;
      const std::int32_t wall_y = c.y + wall_dy;
      for (std::int32_t i = c.x; i < c.x + c.width; ++i) set(wall_y, i, 1);
      push(c.x, c.y, c.width, wall_dy);
      push(c.x, wall_y + 1, c.width, c.height - wall_dy - 1);
      const std::int32_t passage_x = jax_random::randint1(keys[2], 0, (c.width + 1) / 2) * 2;
      set(wall_y, c.x + passage_x, 0);
    }
  }
}

}  // namespace rlpool::jumanji
