// What craftax 1.6.1's Classic and full games share below their own rules
// (classic_rules.h, full_rules.h): the DIRECTIONS and CLOSE_BLOCKS tables,
// the same in craftax_classic/constants.py (l.68-88) and craftax/constants.py
// (l.343-363), and JAX's indexing at indices that may be off an array.
//
// JAX indexing (measured on jax 0.10.2): a read x[i] of a traced index takes
// i + n for a negative i, then clamps into [0, n); a write x.at[i].set(v)
// takes i + n for a negative i and drops the write if that is still off the
// array. Each axis is treated on its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace rlpool::craftax {

// JAX's read index for an array axis of n: wrap a negative once, then clamp.
constexpr int read_index(std::int64_t i, int n) {
  const std::int64_t j = i < 0 ? i + n : i;
  return static_cast<int>(j < 0 ? 0 : (j >= n ? n - 1 : j));
}

// JAX's write index: wrap a negative once; -1 where the write is dropped.
constexpr int write_index(std::int64_t i, int n) {
  const std::int64_t j = i < 0 ? i + n : i;
  return j < 0 || j >= n ? -1 : static_cast<int>(j);
}

// DIRECTIONS: [action][dx, dy], (16, 2) int32; rows 0-4 are the moves of
// NOOP, LEFT, RIGHT, UP, DOWN, the rest (0, 0).
inline constexpr std::array<std::array<std::int32_t, 2>, 16> kDirections = {{
    {0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}, {0, 0}, {0, 0}, {0, 0},
    {0, 0}, {0, 0},  {0, 0}, {0, 0},  {0, 0}, {0, 0}, {0, 0}, {0, 0},
}};

// DIRECTIONS[i] as JAX reads it for a traced i.
constexpr const std::array<std::int32_t, 2>& direction(std::int64_t i) {
  return kDirections[static_cast<std::size_t>(read_index(i, static_cast<int>(kDirections.size())))];
}

// CLOSE_BLOCKS: the 8 neighbours, in craftax's order.
inline constexpr std::array<std::array<std::int32_t, 2>, 8> kCloseBlocks = {{
    {0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1},
}};

}  // namespace rlpool::craftax
