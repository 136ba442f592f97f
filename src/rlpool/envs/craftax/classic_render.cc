// Craftax-Classic's pixel observation (classic_render.h): craftax 1.6.1's
// craftax_classic/renderer.py render_craftax_pixels (l.116-709), step by step
// in its order: map tiles (l.118-156), the player sprite (l.158-167), zombies,
// cows, skeletons and arrows alpha-blended in slot order (l.169-405), night
// (l.407-437), sleep (l.439-449), the inventory strip (l.464-697), then / 255
// (envs/craftax_pixels_env.py get_obs).
//
// Float order is XLA's for craftax's jitted get_obs on CPU (jax 0.10.2): inside
// a fusion `a * b + c * d` becomes one fma of one product with the other
// product rounded; which product is fused at each blend (player, mobs, night
// static, desaturation, daylight mix) was found from XLA's optimised HLO and
// differential tests, bit for bit against craftax. Everything else is plain float32.
// Blends whose weights are 0 or 1 (off-screen or masked mobs, the sleep mix,
// 0/1 alphas of arrows and digits) give the same bits either way, and are
// skipped or computed plainly.
#include "envs/craftax/classic_render.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "_core/env/jax_random.h"
#include "envs/craftax/classic_rules.h"

namespace rlpool::craftax::classic {

namespace {

constexpr char kMagic[8] = {'R', 'L', 'P', 'C', 'X', 'C', 'T', '1'};
constexpr std::size_t kHeaderBytes = 16;
constexpr std::size_t kTextureFloats = sizeof(Textures) / sizeof(float);

static_assert(std::is_trivially_copyable_v<Textures>);
static_assert(sizeof(Textures) == 10090 * sizeof(float), "Textures must be the file's float32 arrays, unpadded");

std::uint32_t read_u32(const char* p) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(p[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[3])) << 24;
}

// JAX's index into an axis of n for a dynamic_slice of one: a negative index
// wraps once, then the start is clamped into the array.
int dynamic_index(std::int32_t i, int n) {
  const std::int64_t j = i < 0 ? static_cast<std::int64_t>(i) + n : i;
  return static_cast<int>(std::clamp<std::int64_t>(j, 0, n - 1));
}

using Pixels = std::array<std::array<std::array<float, 3>, kPixelCols>, kPixelRows>;

// The blend of one mob sprite over its tile (renderer.py _add_zombie_to_pixels
// and its cow/skeleton copies): (1 - alpha) * tile + texture * alpha, fused as
// fma((1 - alpha), tile, texture * alpha).
[[gnu::always_inline]] inline void blend_sprite(Pixels& px, int row, int col, const Tile<kBlockPixels>& tex, const Alpha<kBlockPixels>& alpha) {
  for (int i = 0; i < kBlockPixels; ++i) {
    for (int j = 0; j < kBlockPixels; ++j) {
      const float a = alpha[i][j];
      for (int c = 0; c < 3; ++c) {
        float& p = px[row + i][col + j][c];
        p = std::fma(1.0f - a, p, tex[i][j][c] * a);
      }
    }
  }
}

// Where a mob in slot k is drawn: its tile's top-left pixel, or false where it
// is masked out or off the view (craftax then blends with weight 0, which
// leaves every pixel's bits as they are).
template <int N>
bool mob_tile(const State& s, const Mobs<N>& mobs, int k, int* row, int* col) {
  const std::int32_t x = mobs.position[k][0] - s.player_position[0] + kObsRows / 2;
  const std::int32_t y = mobs.position[k][1] - s.player_position[1] + kObsCols / 2;
  if (!mobs.mask[k] || x < 0 || x >= kObsRows || y < 0 || y >= kObsCols) return false;
  *row = x * kBlockPixels;
  *col = y * kBlockPixels;
  return true;
}

// lum = 0.299 r + 0.587 g + 0.114 b, as XLA fuses it.
[[gnu::always_inline]] inline float luminance(const std::array<float, 3>& p) {
  return std::fma(p[2], 0.114f, std::fma(p[0], 0.299f, p[1] * 0.587f));
}

// An inventory icon at cell (x, y) of the strip (renderer.py: .at[...].set of
// the texture, or of smaller_empty_texture where the count is not positive),
// then the count's digit (_render_number).
void draw_item(Pixels& px, const Textures& t, const Tile<kSmallPixels>& icon, std::int32_t count, int x, int y) {
  const int top = kMapPixelRows + y * kBlockPixels;  // inv_pixel_left_space is 0 at 7 px
  const int left = x * kBlockPixels;
  for (int i = 0; i < kSmallPixels; ++i) {
    for (int j = 0; j < kSmallPixels; ++j) {
      for (int c = 0; c < 3; ++c) px[top + i][left + j][c] = count > 0 ? icon[i][j][c] : 0.0f;
    }
  }
  const int n = dynamic_index(count, 10);
  const int offset = kBlockPixels - kNumberPixels - 1;
  for (int i = 0; i < kNumberPixels; ++i) {
    for (int j = 0; j < kNumberPixels; ++j) {
      for (int c = 0; c < 3; ++c) {
        float& p = px[top + offset + i][left + offset + j][c];
        p = p * (1.0f - t.number_alpha[n][i][j]) + t.number[n][i][j][c];
      }
    }
  }
}

}  // namespace

Textures load_textures(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("craftax textures: cannot open " + path);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw std::invalid_argument("craftax textures: " + path + " is not a texture file written by rlpool.envs.craftax.textures");
  }
  const std::uint32_t size = read_u32(bytes.data() + 8);
  const std::uint32_t count = read_u32(bytes.data() + 12);
  if (size != kBlockPixels || count != kTextureFloats || bytes.size() != kHeaderBytes + sizeof(Textures)) {
    throw std::invalid_argument("craftax textures: " + path + " is " + std::to_string(bytes.size()) +
                                " bytes and says " + std::to_string(count) + " values at " + std::to_string(size) +
                                " px; expected " + std::to_string(kHeaderBytes + sizeof(Textures)) + " bytes: " +
                                std::to_string(kTextureFloats) + " values at " + std::to_string(kBlockPixels) +
                                " px (delete it, and rlpool.envs.craftax.textures writes it anew)");
  }
  Textures t;
  std::memcpy(static_cast<void*>(&t), bytes.data() + kHeaderBytes, sizeof(Textures));
  return t;
}

// Built twice, for CPUs with FMA instructions and without, the one for this
// CPU picked when the program loads: without the instruction each std::fma is
// a call into libm (the same correctly rounded result), tens of thousands a
// frame.
[[gnu::target_clones("fma", "default")]] void render_pixels(const State& s, const Textures& t, float* out) {
  Pixels px{};  // the inventory strip starts black

  // Map tiles: the 7 x 9 view round the player, OUT_OF_BOUNDS off the map.
  for (int i = 0; i < kObsRows; ++i) {
    for (int j = 0; j < kObsCols; ++j) {
      const std::int32_t x = s.player_position[0] - kObsRows / 2 + i;
      const std::int32_t y = s.player_position[1] - kObsCols / 2 + j;
      const std::int32_t block = in_bounds(x, y) ? s.map[x][y] : kOutOfBounds;
      if (block < 0 || block >= kNumBlockTypes) continue;  // no texture matches: stays 0
      const auto& tex = t.block[block];
      for (int a = 0; a < kBlockPixels; ++a) {
        for (int b = 0; b < kBlockPixels; ++b) px[i * kBlockPixels + a][j * kBlockPixels + b] = tex[a][b];
      }
    }
  }

  // The player, at the centre tile: map * (1 - alpha) + texture * alpha
  // (elsewhere alpha and texture are 0 and the map keeps its bits).
  const int sprite = dynamic_index(s.is_sleeping ? 4 : s.player_direction - 1, 5);
  const int prow = (kObsRows / 2) * kBlockPixels;
  const int pcol = (kObsCols / 2) * kBlockPixels;
  for (int i = 0; i < kBlockPixels; ++i) {
    for (int j = 0; j < kBlockPixels; ++j) {
      const float a = t.player_alpha[sprite][i][j];
      for (int c = 0; c < 3; ++c) {
        float& p = px[prow + i][pcol + j][c];
        p = std::fma(p, 1.0f - a, t.player[sprite][i][j][c] * a);
      }
    }
  }

  // Mobs, in slot order: zombies, cows, skeletons, then arrows.
  int row = 0;
  int col = 0;
  for (int k = 0; k < kMaxZombies; ++k) {
    if (mob_tile(s, s.zombies, k, &row, &col)) blend_sprite(px, row, col, t.mobs[0], t.mobs_alpha[0]);
  }
  for (int k = 0; k < kMaxCows; ++k) {
    if (mob_tile(s, s.cows, k, &row, &col)) blend_sprite(px, row, col, t.mobs[1], t.mobs_alpha[1]);
  }
  for (int k = 0; k < kMaxSkeletons; ++k) {
    if (mob_tile(s, s.skeletons, k, &row, &col)) blend_sprite(px, row, col, t.mobs[2], t.mobs_alpha[2]);
  }
  for (int k = 0; k < kMaxArrows; ++k) {
    if (!mob_tile(s, s.arrows, k, &row, &col)) continue;
    // arrow-up, flipped upside down when moving down or right, transposed when moving sideways.
    const bool flip = s.arrow_directions[k][0] > 0 || s.arrow_directions[k][1] > 0;
    const bool transpose = s.arrow_directions[k][1] != 0;
    for (int i = 0; i < kBlockPixels; ++i) {
      for (int j = 0; j < kBlockPixels; ++j) {
        int a = transpose ? j : i;
        const int b = transpose ? i : j;
        if (flip) a = kBlockPixels - 1 - a;
        if (t.arrow_alpha[a][b] != 0.0f) px[row + i][col + j] = t.arrow[a][b];  // 0/1 alpha: the texture or the tile
      }
    }
  }

  // Night: static noise towards the edges, desaturated and tinted, blended in
  // by daylight; then the sleep greying.
  const float daylight = s.light_level;
  const float intensity = std::max((0.5f - daylight) * 2.0f, 0.0f);
  std::array<float, kMapPixelRows * kPixelCols> noise{};
  if (daylight < 0.5f) jax_random::uniform(s.state_rng, noise.data(), noise.size());
  constexpr std::array<float, 3> kHalfNightTint = {0.0f, 8.0f, 32.0f};  // 0.5 * (0, 16, 64)
  constexpr std::array<float, 3> kHalfSleepTint = {0.0f, 0.0f, 8.0f};   // 0.5 * (0, 0, 16)
  for (int r = 0; r < kMapPixelRows; ++r) {
    for (int c = 0; c < kPixelCols; ++c) {
      std::array<float, 3>& p = px[r][c];
      std::array<float, 3> night = p;
      if (daylight < 0.5f) {
        const float stat = std::fma(noise[r * kPixelCols + c], 95.0f, 32.0f);
        const float mask = intensity * t.night_noise_intensity[r][c];
        for (int ch = 0; ch < 3; ++ch) night[ch] = std::fma(mask, stat, (1.0f - mask) * p[ch]);
      }
      const float lum = luminance(night);
      std::array<float, 3> blended;
      for (int ch = 0; ch < 3; ++ch) {
        const float enhanced = std::fma(night[ch], 0.4f, lum * 0.6f);
        const float tinted = std::fma(enhanced, 0.5f, kHalfNightTint[ch]);
        blended[ch] = std::fma(daylight, p[ch], (1.0f - daylight) * tinted);
      }
      if (s.is_sleeping) {
        const float grey = luminance(blended) * 0.5f;
        for (int ch = 0; ch < 3; ++ch) p[ch] = grey + kHalfSleepTint[ch];
      } else {
        p = blended;
      }
    }
  }

  // The inventory strip: intrinsics, then the items, as craftax places them.
  const Inventory& inv = s.inventory;
  draw_item(px, t, t.icons[0], s.player_health, 0, 0);
  draw_item(px, t, t.icons[1], s.player_food, 1, 0);
  draw_item(px, t, t.icons[2], s.player_drink, 2, 0);
  draw_item(px, t, t.icons[3], s.player_energy, 3, 0);
  draw_item(px, t, t.smaller_block[kWood], inv.wood, 5, 0);
  draw_item(px, t, t.smaller_block[kStone], inv.stone, 6, 0);
  draw_item(px, t, t.smaller_block[kCoal], inv.coal, 7, 0);
  draw_item(px, t, t.smaller_block[kIron], inv.iron, 8, 0);
  draw_item(px, t, t.smaller_block[kDiamond], inv.diamond, 0, 1);
  draw_item(px, t, t.icons[10], inv.sapling, 4, 0);
  draw_item(px, t, t.icons[4], inv.wood_pickaxe, 1, 1);
  draw_item(px, t, t.icons[5], inv.stone_pickaxe, 2, 1);
  draw_item(px, t, t.icons[6], inv.iron_pickaxe, 3, 1);
  draw_item(px, t, t.icons[7], inv.wood_sword, 4, 1);
  draw_item(px, t, t.icons[8], inv.stone_sword, 5, 1);
  draw_item(px, t, t.icons[9], inv.iron_sword, 6, 1);

  // / 255, as XLA computes it: * float(1 / 255).
  constexpr float kInv255 = 0.00392156886f;
  const float* flat = &px[0][0][0];
  for (int i = 0; i < kPixelObsSize; ++i) out[i] = flat[i] * kInv255;
}

}  // namespace rlpool::craftax::classic
