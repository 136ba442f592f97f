// Full Craftax's world generation: craftax 1.6.1
// craftax/craftax/world_gen/world_gen.py generate_smoothworld (l.360-569),
// generate_dungeon (l.76-358) and generate_world (l.571-713), the initial
// state of an episode: six noise-generated floors (overworld, gnomish mines,
// troll mines, fire, ice, graveyard; world_gen_configs.py) and three dungeon
// floors (dungeon, sewers, vaults), stacked as levels s0, d0, s1, d1, d2, s2,
// s3, s4, s5.
//
// Every jax.random draw is made in craftax's order from the same keys,
// including splits whose sub-key craftax never uses (smoothworld l.395 and
// l.441, dungeon l.86's middle key), the tree mask's uniform that draws from
// the outer `rng` (l.454-456), and the dungeon path scan's carry, which is the
// second split's sub-key (l.263-265). jax.random.randint with per-element
// bounds (the chest and fountain positions) is one draw over the whole shape
// with each element's own span (jax_random::randint_each). choice with a bool or
// unnormalised p is jax's choice on the mask as 0/1 float32 (jax promotes p to
// float32), so jax_random::choice_p does it. JAX's dynamic_update_slice
// wraps a negative start and then clamps it so the update fits (the torch
// light around the up ladder near the border, the dungeon path rows and
// columns).
//
// Float32 follows XLA's computation of the vmapped (6, 48, 48) world (read
// off its optimised HLO and checked against craftax): the perlin
// interpolation is plain float32 (noise.h with fma = false: the vmapped
// (6, 48, 48) noise is not fused like a lone 48 x 48 one; the fused form
// changes a tile in about 1 seed in 1,000), the noise normalisation's
// multiply is fused with the add that follows it (fractal below), divisions
// by config constants are multiplies by their float32 reciprocals
// (distance / strength, TORCH_LIGHT_MAP's distance / 5).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/noise.h"

namespace rlpool::craftax::full {

namespace {

constexpr int kCells = kMapSize * kMapSize;
template <typename T>
using Grid = std::array<T, kCells>;
using Field = Grid<float>;

// rng, _rng = jax.random.split(rng): returns _rng and advances rng.
Key split_off(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

constexpr int at(int i, int j) { return i * kMapSize + j; }

// jax.random.choice(key, arange(n), p=p) for one index, p float32 (masks as 0/1).
std::int32_t choice1(Key key, const float* p, std::size_t n) {
  std::int32_t index = 0;
  jax_random::choice_p(key, &index, 1, p, n);
  return index;
}

// calculate_light_level(0, params): (0 / day_length) % 1 + 0.3, then
// 1 - |cos(pi * progress)|^3 with the cube's last multiply fused.
float light_level_at(std::int32_t timestep, const Params& params) {
  float progress = static_cast<float>(timestep) / static_cast<float>(params.day_length);
  float r = std::fmod(progress, 1.0f);
  if (r < 0.0f) r += 1.0f;
  progress = r + 0.3f;
  const float c = std::fabs(std::cos(std::numbers::pi_v<float> * progress));
  return std::fma(-(c * c), c, 1.0f);
}

// generate_fractal_noise_2d(rng, (48, 48), res, octaves=1) as XLA computes it
// inside generate_world's vmap: the perlin noise (plain float32 interpolation,
// unlike a lone 48 x 48 fractal's fused one, then times sqrt(2)) is
// materialised, the normalisation is
// (n - min) * (1 / (max - min)), and when the next operation adds to it
// (`+ player_proximity_map_water`, `+ 0.05`) the multiply and that add are one
// fma: fma(n - min, 1 / (max - min), add).
Field fractal(Key rng, int res0, int res1, const Field* add = nullptr) {
  Field n{};
  perlin_noise_2d(jax_random::split2(rng).second, NoiseShape{kMapSize, kMapSize, res0, res1}, /*fma=*/false, n.data());
  const auto [lo, hi] = std::minmax_element(n.begin(), n.end());
  const float min = *lo;
  const float scale = 1.0f / (*hi - min);
  Field f{};
  for (int k = 0; k < kCells; ++k) f[k] = add != nullptr ? std::fma(n[k] - min, scale, (*add)[k]) : (n[k] - min) * scale;
  return f;
}

Field uniform_field(Key rng) {
  Field f{};
  jax_random::uniform(rng, f.data(), f.size());
  return f;
}

struct Floor {
  Grid<std::int32_t> map{};
  Grid<std::int32_t> item_map{};
  Field light_map{};
  std::array<std::int32_t, 2> ladder_down{};
  std::array<std::int32_t, 2> ladder_up{};
};

// TORCH_LIGHT_MAP (constants.py l.592-594): clip(1 - distance / 5, 0, 1) on
// 9 x 9 around (4, 4); XLA computes distance / 5.0 as distance * 0.2f.
std::array<float, 81> torch_light_map() {
  std::array<float, 81> t{};
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      const int dx = i - 4;
      const int dy = j - 4;
      const float d = std::sqrt(static_cast<float>(dx * dx + dy * dy)) * 0.2f;
      t[static_cast<std::size_t>(i * 9 + j)] = std::clamp(1.0f - d, 0.0f, 1.0f);
    }
  }
  return t;
}

// generate_smoothworld (l.360-569) for one config.
Floor generate_smoothworld(Key rng, const SmoothGenConfig& config, const Params& params) {
  constexpr int px = kMapSize / 2;
  constexpr int py = kMapSize / 2;
  // Proximity maps (l.361-378): euclidean distance to the player, / strength
  // (XLA multiplies by the float32 reciprocal of the constant), clipped.
  const float water_scale = 1.0f / config.player_proximity_map_water_strength;
  const float mountain_scale = 1.0f / config.player_proximity_map_mountain_strength;
  Field prox_water{};
  Field prox_mountain{};
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      const int dx = i - px;
      const int dy = j - py;
      const float d = std::sqrt(static_cast<float>(dx * dx + dy * dy));
      prox_water[at(i, j)] = std::clamp(d * water_scale, 0.0f, config.player_proximity_map_water_max);
      prox_mountain[at(i, j)] = std::clamp(d * mountain_scale, 0.0f, config.player_proximity_map_mountain_max);
    }
  }
  constexpr int kLargerRes = kMapSize / 4;
  constexpr int kSmallRes = kMapSize / 16;
  constexpr int kXRes0 = kMapSize / 8;
  constexpr int kXRes1 = kMapSize / 2;

  Floor f;
  auto& map = f.map;

  // Water (l.384-405).
  Field water = fractal(split_off(rng), kSmallRes, kSmallRes, &prox_water);
  for (int k = 0; k < kCells; ++k) water[k] = water[k] - 1.0f;
  split_off(rng);  // l.395: unused
  for (int k = 0; k < kCells; ++k) {
    map[k] = water[k] > config.water_threshold ? config.sea_block : config.default_block;
    if (water[k] > config.sand_threshold && map[k] != config.sea_block) map[k] = config.coast_block;
  }

  // Mountains (l.407-422).
  constexpr float kMountainThreshold = 0.7f;
  Field offset{};
  offset.fill(0.05f);
  Field mountain = fractal(split_off(rng), kSmallRes, kSmallRes, &offset);
  for (int k = 0; k < kCells; ++k) {
    mountain[k] = mountain[k] + prox_mountain[k] - 1.0f;
    if (mountain[k] > kMountainThreshold) map[k] = config.mountain_block;
  }

  // Paths (l.424-438).
  const Field path_x = fractal(split_off(rng), kXRes0, kXRes1);
  for (int k = 0; k < kCells; ++k) {
    if (mountain[k] > kMountainThreshold && path_x[k] > 0.8f) map[k] = config.path_block;
  }
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      if (mountain[at(i, j)] > kMountainThreshold && path_x[at(j, i)] > 0.8f) map[at(i, j)] = config.path_block;
    }
  }

  // Caves (l.440-443); the split's sub-key is unused.
  split_off(rng);
  for (int k = 0; k < kCells; ++k) {
    if (mountain[k] > 0.85f && water[k] > 0.4f) map[k] = config.inner_mountain_block;
  }

  // Trees (l.445-458): the uniform draws from the outer rng.
  const Field tree_noise = fractal(split_off(rng), kLargerRes, kLargerRes);
  const Field tree_u = uniform_field(rng);
  for (int k = 0; k < kCells; ++k) {
    const float v = (tree_noise[k] > config.tree_threshold_perlin ? 1.0f : 0.0f) * tree_u[k];
    if (v > config.tree_threshold_uniform && map[k] == config.tree_requirement_block) map[k] = config.tree;
  }

  // Ores (l.460-474): a scan over the 5 ores carrying its own key.
  {
    Key ore_rng = split_off(rng);
    for (std::size_t o = 0; o < 5; ++o) {
      const Field u = uniform_field(split_off(ore_rng));
      for (int k = 0; k < kCells; ++k) {
        if (map[k] == config.ore_requirement_blocks[o] && u[k] < config.ore_chances[o]) map[k] = config.ores[o];
      }
    }
  }

  // Lava (l.476-481).
  Grid<bool> lava_map{};
  for (int k = 0; k < kCells; ++k) {
    lava_map[k] = mountain[k] > 0.85f && tree_noise[k] > 0.7f;
    if (lava_map[k]) map[k] = config.lava;
  }

  // Diamond (l.483-504): a stone cell chosen with p = stone / count becomes
  // diamond on the overworld with always_diamond, else stone (with no stone,
  // p is NaN and the index 0).
  {
    const bool adding_diamond = config.default_block == kGrass && params.always_diamond;
    std::vector<float> valid(kCells);
    float count = 0.0f;
    for (int k = 0; k < kCells; ++k) count += map[k] == kStone ? 1.0f : 0.0f;  // exact: a small integer
    for (int k = 0; k < kCells; ++k) valid[static_cast<std::size_t>(k)] = (map[k] == kStone ? 1.0f : 0.0f) / count;
    const std::int32_t index = choice1(split_off(rng), valid.data(), valid.size());
    map[at(index / kMapSize, index % kMapSize)] = adding_diamond ? kDiamond : kStone;
  }

  // Light map and the player's spawn block (l.506-512).
  f.light_map.fill(config.default_light);
  map[at(px, py)] = config.player_spawn;

  // Ladders (l.514-547).
  std::vector<float> valid(kCells);
  for (int k = 0; k < kCells; ++k) valid[static_cast<std::size_t>(k)] = map[k] == config.valid_ladder ? 1.0f : 0.0f;
  const std::int32_t down = choice1(split_off(rng), valid.data(), valid.size());
  f.ladder_down = {down / kMapSize, down % kMapSize};
  if (config.ladder_down) f.item_map[at(f.ladder_down[0], f.ladder_down[1])] = kItemLadderDown;
  const std::int32_t up = choice1(split_off(rng), valid.data(), valid.size());
  f.ladder_up = {up / kMapSize, up % kMapSize};

  // Torch light around the up ladder (l.549-555): a 9 x 9 update at
  // ladder_up - 4, whose start JAX first wraps when negative (as it does any
  // negative index, -1 becomes 47) and then clamps so the update fits.
  static const std::array<float, 81> kTorch = torch_light_map();
  auto start = [](std::int32_t v) { return std::clamp(v < 0 ? v + kMapSize : v, 0, kMapSize - 9); };
  const int x0 = start(f.ladder_up[0] - 4);
  const int y0 = start(f.ladder_up[1] - 4);
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      f.light_map[at(x0 + i, y0 + j)] =
          kTorch[static_cast<std::size_t>(i * 9 + j)] * (1.0f - config.default_light) + config.default_light * 1.0f;
    }
  }

  // Lava glow (l.557-561): light += convolve(lava_map, z, "same"), clipped to [0, 1].
  if (config.lava == kLava) {
    static constexpr std::array<float, 9> kGlow = {0.2f, 0.7f, 0.2f, 0.7f, 1.0f, 0.7f, 0.2f, 0.7f, 0.2f};
    Field glow{};
    for (int i = 0; i < kMapSize; ++i) {
      for (int j = 0; j < kMapSize; ++j) {
        float acc = 0.0f;
        for (int a = 0; a < 3; ++a) {
          for (int b = 0; b < 3; ++b) {
            const int x = i + a - 1;
            const int y = j + b - 1;
            if (x < 0 || y < 0 || x >= kMapSize || y >= kMapSize || !lava_map[at(x, y)]) continue;
            acc = acc + kGlow[static_cast<std::size_t>(a * 3 + b)];
          }
        }
        glow[at(i, j)] = acc;
      }
    }
    for (int k = 0; k < kCells; ++k) f.light_map[k] = f.light_map[k] + glow[k];
  }
  for (int k = 0; k < kCells; ++k) f.light_map[k] = std::clamp(f.light_map[k], 0.0f, 1.0f);

  // Up ladder item (l.563-566): kept off when the config has none (the down
  // ladder's item, if any, stays).
  if (config.ladder_up) f.item_map[at(f.ladder_up[0], f.ladder_up[1])] = kItemLadderUp;
  return f;
}

// generate_dungeon (l.76-358) for one config: 8 rooms in a 3 x 3 grid of
// 16-cell chunks, built on the map padded by 10 (padding 0) and cropped.
Floor generate_dungeon(Key rng, const DungeonConfig& config) {
  constexpr int kChunk = 16;
  constexpr int kChunksW = kMapSize / kChunk;
  constexpr int kRooms = 8;
  constexpr int kMinRoom = 5;
  constexpr int kMaxRoom = 10;
  constexpr int kPad = kMaxRoom;
  constexpr int kP = kMapSize + 2 * kPad;  // padded side
  using Padded = std::vector<std::int32_t>;
  auto pat = [](int i, int j) { return static_cast<std::size_t>(i * kP + j); };

  Key keys[3];
  jax_random::split(rng, keys, 3);
  rng = keys[0];
  std::array<std::int32_t, kRooms * 2> room_sizes{};
  jax_random::randint(keys[2], room_sizes.data(), room_sizes.size(), kMinRoom, kMaxRoom);

  Padded block(static_cast<std::size_t>(kP * kP), 0);
  Padded items(static_cast<std::size_t>(kP * kP), 0);
  for (int i = kPad; i < kPad + kMapSize; ++i) {
    for (int j = kPad; j < kPad + kMapSize; ++j) block[pat(i, j)] = kWall;
  }

  // Rooms (l.97-197): a scan carrying its own key.
  std::array<float, kChunksW * kChunksW> occupancy{};
  occupancy.fill(1.0f);
  std::array<std::array<std::int32_t, 2>, kRooms> room_positions{};
  {
    Key r = split_off(rng);
    for (int room = 0; room < kRooms; ++room) {
      const std::int32_t chunk = choice1(split_off(r), occupancy.data(), occupancy.size());
      occupancy[static_cast<std::size_t>(chunk)] = 0.0f;
      std::array<std::int32_t, 2> offset{};
      jax_random::randint(split_off(r), offset.data(), 2, 0, kChunk - kMinRoom);
      const std::int32_t rx = (chunk % kChunksW) * kChunk + kMaxRoom + offset[0];
      const std::int32_t ry = (chunk / kChunksW) * kChunk + kMaxRoom + offset[1];
      const std::int32_t sx = room_sizes[static_cast<std::size_t>(room * 2)];
      const std::int32_t sy = room_sizes[static_cast<std::size_t>(room * 2 + 1)];
      for (int a = 0; a < sx; ++a) {
        for (int b = 0; b < sy; ++b) block[pat(rx + a, ry + b)] = kPath;
      }
      items[pat(rx, ry)] = kItemTorch;
      items[pat(rx + sx - 1, ry)] = kItemTorch;
      items[pat(rx, ry + sy - 1)] = kItemTorch;
      items[pat(rx + sx - 1, ry + sy - 1)] = kItemTorch;
      const std::array<std::int32_t, 2> lo = {1, 1};
      const std::array<std::int32_t, 2> hi = {sx - 1, sy - 1};
      std::array<std::int32_t, 2> chest{};
      jax_random::randint_each(split_off(r), chest.data(), 2, lo.data(), hi.data());
      block[pat(rx + chest[0], ry + chest[1])] = kChest;
      Key fk[3];
      jax_random::split(r, fk, 3);
      r = fk[0];
      std::array<std::int32_t, 2> fountain{};
      jax_random::randint_each(fk[1], fountain.data(), 2, lo.data(), hi.data());
      const bool has_fountain = jax_random::uniform1(fk[2]) > 0.5f;
      if (has_fountain) block[pat(rx + fountain[0], ry + fountain[1])] = config.fountain_block;
      room_positions[static_cast<std::size_t>(room)] = {rx, ry};
    }
  }

  // Paths (l.199-274): an L from each room to an already-included one.
  {
    Key r = split_off(rng);
    std::array<float, kRooms> included{};
    included[kRooms - 1] = 1.0f;
    auto sign = [](std::int32_t v) { return (v > 0) - (v < 0); };
    for (int path = 0; path < kRooms; ++path) {
      const auto src = room_positions[static_cast<std::size_t>(path)];
      const std::int32_t sink_index = choice1(split_off(r), included.data(), included.size());
      const auto sink = room_positions[static_cast<std::size_t>(sink_index)];
      // Horizontal: row src[0], columns from src[1] towards sink[1].
      const std::int32_t hd = sink[1] - src[1];
      if (hd != 0) {
        for (int k = 0; k < kP; ++k) {
          const std::int32_t idx = (k - src[1]) * sign(hd);
          if (idx >= 0 && idx <= std::abs(hd) && block[pat(src[0], k)] == kWall) block[pat(src[0], k)] = kPath;
        }
      }
      // Vertical: column sink[1], rows from src[0] towards sink[0].
      const std::int32_t vd = sink[0] - src[0];
      if (vd != 0) {
        for (int k = 0; k < kP; ++k) {
          const std::int32_t idx = (k - src[0]) * sign(vd);
          if (idx >= 0 && idx <= std::abs(vd) && block[pat(k, sink[1])] == kWall) block[pat(k, sink[1])] = kPath;
        }
      }
      r = split_off(r);  // the carry is the second split's sub-key
      included[static_cast<std::size_t>(path)] = 1.0f;
    }
  }

  // Special block (l.276-280).
  block[pat(room_positions[0][0] + 2, room_positions[0][1] + 2)] = config.special_block;

  Floor f;
  Grid<std::int32_t> map{};
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      map[at(i, j)] = block[pat(i + kPad, j + kPad)];
      f.item_map[at(i, j)] = items[pat(i + kPad, j + kPad)];
    }
  }

  // Walls next to paths, darkness elsewhere, moss and rare path blocks (l.287-317).
  auto open = [&](int i, int j) {
    return i >= 0 && j >= 0 && i < kMapSize && j < kMapSize && map[at(i, j)] != kWall;
  };
  std::vector<std::int32_t> rare(kCells);
  {
    static constexpr std::array<float, 2> kRareP = {0.9f, 0.1f};
    jax_random::choice_p(split_off(rng), rare.data(), rare.size(), kRareP.data(), kRareP.size());
  }
  for (int i = 0; i < kMapSize; ++i) {
    for (int j = 0; j < kMapSize; ++j) {
      const int k = at(i, j);
      const bool adj = open(i, j) || open(i - 1, j) || open(i + 1, j) || open(i, j - 1) || open(i, j + 1);
      const bool is_rare = rare[static_cast<std::size_t>(k)] != 0;
      std::int32_t v = kDarkness;
      if (adj) {
        if (map[k] == kWall) {
          v = is_rare ? kWallMoss : kWall;
        } else {
          v = is_rare && map[k] == kPath && f.item_map[k] == kItemNone ? config.rare_path_replacement_block : map[k];
        }
      }
      f.map[k] = v;
    }
  }
  f.light_map.fill(1.0f);

  // Ladders (l.321-355).
  std::vector<float> valid(kCells);
  float count = 0.0f;
  for (int k = 0; k < kCells; ++k) count += f.map[k] == kPath ? 1.0f : 0.0f;
  for (int k = 0; k < kCells; ++k) valid[static_cast<std::size_t>(k)] = (f.map[k] == kPath ? 1.0f : 0.0f) / count;
  const std::int32_t down = choice1(split_off(rng), valid.data(), valid.size());
  f.ladder_down = {down / kMapSize, down % kMapSize};
  f.item_map[at(f.ladder_down[0], f.ladder_down[1])] = kItemLadderDown;
  for (int k = 0; k < kCells; ++k) valid[static_cast<std::size_t>(k)] = f.map[k] == kPath ? 1.0f : 0.0f;
  const std::int32_t up = choice1(split_off(rng), valid.data(), valid.size());
  f.ladder_up = {up / kMapSize, up % kMapSize};
  f.item_map[at(f.ladder_up[0], f.ladder_up[1])] = kItemLadderUp;
  return f;
}

template <int N>
void empty_mobs(Mobs<N>& m) {
  for (auto& level : m.health) level.fill(1.0f);
}

}  // namespace

State generate_world(Key rng, const Params& params) {
  State s{};
  std::array<Key, 7> smooth_keys{};
  jax_random::split(rng, smooth_keys.data(), smooth_keys.size());
  std::array<Key, 4> dungeon_keys{};
  jax_random::split(smooth_keys[0], dungeon_keys.data(), dungeon_keys.size());
  rng = dungeon_keys[0];

  auto store = [&s](int level, const Floor& f) {
    const auto l = static_cast<std::size_t>(level);
    for (int i = 0; i < kMapSize; ++i) {
      for (int j = 0; j < kMapSize; ++j) {
        s.map[l][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = f.map[at(i, j)];
        s.item_map[l][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = f.item_map[at(i, j)];
        s.light_map[l][static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = f.light_map[at(i, j)];
      }
    }
    s.down_ladders[l] = f.ladder_down;
    s.up_ladders[l] = f.ladder_up;
  };
  for (std::size_t i = 0; i < kSmoothGenConfigs.size(); ++i) {
    store(kSmoothGenLevels[i], generate_smoothworld(smooth_keys[i + 1], kSmoothGenConfigs[i], params));
  }
  for (std::size_t i = 0; i < kDungeonConfigs.size(); ++i) {
    store(kDungeonLevels[i], generate_dungeon(dungeon_keys[i + 1], kDungeonConfigs[i]));
  }

  // Mobs and projectiles (l.600-633): health 1, nothing alive, directions (1, 1).
  empty_mobs(s.melee_mobs);
  empty_mobs(s.ranged_mobs);
  empty_mobs(s.passive_mobs);
  empty_mobs(s.mob_projectiles);
  empty_mobs(s.player_projectiles);
  for (auto& level : s.mob_projectile_directions) level.fill({1, 1});
  for (auto& level : s.player_projectile_directions) level.fill({1, 1});

  // Potion mapping (l.643-644).
  jax_random::permutation_indices(split_off(rng), s.potion_mapping.data(), s.potion_mapping.size());

  // Inventory (l.647-651): full in god mode.
  if (params.god_mode) {
    auto& inv = s.inventory;
    inv.wood = inv.stone = inv.coal = inv.iron = inv.diamond = inv.sapling = 99;
    inv.pickaxe = 4;
    inv.sword = 4;
    inv.bow = 1;
    inv.arrows = inv.torches = inv.ruby = inv.sapphire = inv.books = 99;
    inv.potions.fill(99);
    inv.armour.fill(2);
  }

  s.monsters_killed[0] = 10;  // the first ladder starts open
  s.player_position = {kMapSize / 2, kMapSize / 2};
  s.player_direction = kUp;
  s.player_level = 0;
  s.player_health = 9.0f;
  s.player_food = 9;
  s.player_drink = 9;
  s.player_energy = 9;
  s.player_mana = 9;
  s.player_dexterity = 1;
  s.player_strength = 1;
  s.player_intelligence = 1;
  s.boss_timesteps_to_spawn_this_round = kBossFightSpawnTurns;
  s.light_level = light_level_at(0, params);
  s.state_rng = split_off(rng);  // l.653
  s.timestep = 0;
  return s;
}

}  // namespace rlpool::craftax::full
