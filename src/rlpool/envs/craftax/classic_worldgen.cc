// Craftax-Classic's world generation: craftax 1.6.1
// craftax/craftax_classic/world_gen.py generate_world (l.10-256), the initial
// state of an episode. Every jax.random draw is made in craftax's order from
// the same keys, including the splits whose sub-key craftax never uses (l.38,
// l.96) and the tree mask's uniform, which draws from the outer `rng` rather
// than the split-off `_rng` (l.131). Noise and thresholds are float32 as XLA
// computes them (noise.h; `x / 5.0` becomes `x * 0.2f`); XLA's kernel fuses
// the water and mountain noise's normalising multiply with the next add
// (`+ player_proximity_map`, `+ 0.05`) into one fma, which moves those values
// by an ulp in about a fifth of the cells.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "_core/env/jax_random.h"
#include "envs/craftax/classic_game.h"
#include "envs/craftax/classic_rules.h"
#include "envs/craftax/classic_state.h"
#include "envs/craftax/noise.h"

namespace rlpool::craftax::classic {

namespace {

constexpr int kCells = kMapSize * kMapSize;
using Field = std::array<float, kCells>;

// generate_fractal_noise_2d(rng, map_size, res, octaves=1) on the 64 x 64 map
// (XLA does not fuse the interpolation's multiply-adds at this shape), plus
// `add` when given: XLA fuses the normalisation's multiply with that add.
Field fractal(Key rng, int res0, int res1, const Field* add = nullptr) {
  Field f{};
  fractal_noise_2d(rng, NoiseShape{kMapSize, kMapSize, res0, res1}, /*fma=*/false, f.data(),
                   add != nullptr ? add->data() : nullptr);
  return f;
}

Field uniform_field(Key rng) {
  Field f{};
  jax_random::uniform(rng, f.data(), f.size());
  return f;
}

// rng, _rng = jax.random.split(rng): returns _rng and advances rng.
Key split_off(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

}  // namespace

State generate_world(Key rng, const Params& params) {
  State s{};
  const std::int32_t px = kMapSize / 2;
  const std::int32_t py = kMapSize / 2;

  // player_proximity_map = clip(distance / 5.0, 0, 1) (l.18-22).
  Field proximity{};
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      const float d = static_cast<float>(distance(px, py, i, j)) * 0.2f;
      proximity[static_cast<std::size_t>(i * kMapSize + j)] = d < 0.0f ? 0.0f : (d > 1.0f ? 1.0f : d);
    }
  }

  constexpr int kSmallRes = kMapSize / 16;
  constexpr int kLargerRes = kMapSize / 4;
  constexpr int kXRes0 = kMapSize / 8;
  constexpr int kXRes1 = kMapSize / 2;

  // Water and sand (l.12-58).
  // water + proximity is one fused multiply-add in XLA's kernel.
  Field water = fractal(split_off(rng), kSmallRes, kSmallRes, &proximity);
  for (int k = 0; k < kCells; ++k) water[k] = water[k] - 1.0f;
  split_off(rng);  // l.38: unused
  std::array<std::int32_t, kCells> map{};
  for (int k = 0; k < kCells; ++k) {
    map[k] = water[k] > 0.7f ? kWater : kGrass;
    if (water[k] < 0.75f && water[k] > 0.6f && map[k] != kWater) map[k] = kSand;
  }

  // Mountains (l.60-78).
  constexpr float kMountainThreshold = 0.7f;
  // mountain + 0.05 is one fused multiply-add in XLA's kernel.
  Field offset{};
  offset.fill(0.05f);
  Field mountain = fractal(split_off(rng), kSmallRes, kSmallRes, &offset);
  for (int k = 0; k < kCells; ++k) {
    mountain[k] = mountain[k] + proximity[k] - 1.0f;
    if (mountain[k] > kMountainThreshold) map[k] = kStone;
  }

  // Paths (l.80-94): path_x and its transpose.
  const Field path_x = fractal(split_off(rng), kXRes0, kXRes1);
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      const int k = i * kMapSize + j;
      if (mountain[k] > kMountainThreshold && path_x[k] > 0.8f) map[k] = kPath;
    }
  }
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      const int k = i * kMapSize + j;
      if (mountain[k] > kMountainThreshold && path_x[j * kMapSize + i] > 0.8f) map[k] = kPath;
    }
  }

  // Caves (l.96-98); the split's sub-key is unused.
  split_off(rng);
  for (int k = 0; k < kCells; ++k) {
    if (mountain[k] > 0.85f && water[k] > 0.4f) map[k] = kPath;
  }

  // Ores (l.100-120).
  const Field coal = uniform_field(split_off(rng));
  for (int k = 0; k < kCells; ++k) {
    if (map[k] == kStone && coal[k] < 0.04f) map[k] = kCoal;
  }
  const Field iron = uniform_field(split_off(rng));
  for (int k = 0; k < kCells; ++k) {
    if (map[k] == kStone && iron[k] < 0.03f) map[k] = kIron;
  }
  const Field diamond = uniform_field(split_off(rng));
  for (int k = 0; k < kCells; ++k) {
    if (mountain[k] > 0.8f && diamond[k] < 0.005f && map[k] == kStone) map[k] = kDiamond;
  }

  // Trees (l.122-135): (tree_noise > 0.5) * uniform(rng) > 0.8, with the outer rng.
  const Field tree_noise = fractal(split_off(rng), kLargerRes, kLargerRes);
  const Field tree_u = uniform_field(rng);
  for (int k = 0; k < kCells; ++k) {
    const float v = (tree_noise[k] > 0.5f ? 1.0f : 0.0f) * tree_u[k];
    if (v > 0.8f && map[k] == kGrass) map[k] = kTree;
  }

  // Lava (l.137-142).
  for (int k = 0; k < kCells; ++k) {
    if (mountain[k] > 0.85f && tree_noise[k] > 0.7f) map[k] = kLava;
  }

  // The player spawns on grass (l.145).
  map[px * kMapSize + py] = kGrass;

  // always_diamond (l.148-164): one stone cell, chosen with p = stone / count,
  // becomes diamond (or stays stone when the flag is off).
  std::vector<float> p(kCells);
  float count = 0.0f;
  for (int k = 0; k < kCells; ++k) count += map[k] == kStone ? 1.0f : 0.0f;  // exact: a small integer
  for (int k = 0; k < kCells; ++k) p[static_cast<std::size_t>(k)] = (map[k] == kStone ? 1.0f : 0.0f) / count;
  std::int32_t diamond_index = 0;
  jax_random::choice_p(split_off(rng), &diamond_index, 1, p.data(), p.size());
  map[(diamond_index / kMapSize) * kMapSize + diamond_index % kMapSize] =
      params.always_diamond ? kDiamond : kStone;

  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) s.map[i][j] = map[i * kMapSize + j];
  }

  // Mobs (l.166-213): zombies' health 1, cows' cow_health, skeletons' and
  // arrows' 0; arrow directions (1, 1); nothing alive.
  s.zombies.health.fill(1);
  s.cows.health.fill(params.cow_health);
  for (auto& d : s.arrow_directions) d = {1, 1};

  s.player_position = {px, py};
  s.player_direction = kUp;
  s.player_health = 9;
  s.player_food = 9;
  s.player_drink = 9;
  s.player_energy = 9;
  s.light_level = calculate_light_level(0, params);
  s.state_rng = split_off(rng);  // l.225
  s.timestep = 0;
  return s;
}

}  // namespace rlpool::craftax::classic
