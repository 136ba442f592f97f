// Full Craftax's pixel observation (full_render.h): craftax 1.6.1's
// craftax/renderer.py render_craftax_pixels (l.204-910), step by step in its
// order: map tiles with the boss's look (l.206-254), items with the blocked
// ladders (l.256-307), the player (l.309-318), melee, passive and ranged mobs
// (l.320-407), mob then player projectiles (l.409-509), darkness from the
// light map (l.511-524), night with its noise (l.526-545), sleep (l.562-565),
// the inventory strip (l.581-903), then / 255 (envs/craftax_pixels_env.py
// get_obs).
//
// Float order is XLA's for craftax's jitted get_obs on CPU (jax 0.10.2): the
// night blends are one fusion, in which `a * b + c * d` becomes one fma of one
// product with the other product rounded; which product is fused at each
// blend was found from the optimised HLO and differential tests, bit for bit
// against craftax; the darkness before them (light * pixel) is a plain
// product. reset_env's program (a new world's frame) compiles that fusion
// with other fma choices (Program::kReset, below). Every other blend has
// weights 0 or 1 (alphas of craftax's full textures are 0 or 1; masked or
// off-screen mobs weigh 0) and colours that are whole numbers, so it gives the
// same bits in any order, and is computed as a choice of texture or pixel.
#include "envs/craftax/full_render.h"

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
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {

namespace {

constexpr char kMagic[8] = {'R', 'L', 'P', 'C', 'X', 'F', 'T', '1'};
constexpr std::size_t kHeaderBytes = 16;
constexpr std::size_t kTextureFloats = sizeof(Textures) / sizeof(float);
constexpr int kPad = kMaxObsDim + 2;  // jnp.pad width round the level's maps
constexpr int kPadded = kMapSize + 2 * kPad;

static_assert(std::is_trivially_copyable_v<Textures>);
static_assert(sizeof(Textures) == 54552 * sizeof(float), "Textures must be the file's float32 arrays, unpadded");

std::uint32_t read_u32(const char* p) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(p[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[3])) << 24;
}

// The start of a dynamic_slice of `size` along an axis of n: a negative start
// wraps once, then it is clamped so that the slice fits.
int slice_start(std::int64_t i, int n, int size) {
  const std::int64_t j = i < 0 ? i + n : i;
  return static_cast<int>(std::clamp<std::int64_t>(j, 0, n - size));
}

// XLA's float32 -> int32 conversion: NaN is 0, out of range saturates.
std::int32_t to_int32(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return INT32_MAX;
  if (f < -2147483648.0f) return INT32_MIN;
  return static_cast<std::int32_t>(f);
}

// jnp's floor division and remainder by 10.
std::int32_t floor_div10(std::int32_t n) { return n / 10 - ((n % 10 != 0 && n < 0) ? 1 : 0); }
std::int32_t floor_mod10(std::int32_t n) { return n - 10 * floor_div10(n); }

using Pixels = std::array<std::array<std::array<float, 3>, kPixelCols>, kPixelRows>;

// The view of a level's map round the player (the map padded by kPad with
// `fill`, sliced at player_position - OBS_DIM // 2 + kPad).
template <typename T, typename U>
std::array<std::array<U, kObsCols>, kObsRows> view(const State& s, const LevelMaps<T>& maps, U fill) {
  const int level = read_index(s.player_level, kNumLevels);
  const int x0 = slice_start(static_cast<std::int64_t>(s.player_position[0]) - kObsRows / 2 + kPad, kPadded, kObsRows);
  const int y0 = slice_start(static_cast<std::int64_t>(s.player_position[1]) - kObsCols / 2 + kPad, kPadded, kObsCols);
  std::array<std::array<U, kObsCols>, kObsRows> out;
  for (int i = 0; i < kObsRows; ++i) {
    for (int j = 0; j < kObsCols; ++j) {
      const int x = x0 + i - kPad;
      const int y = y0 + j - kPad;
      const bool on_map = 0 <= x && x < kMapSize && 0 <= y && y < kMapSize;
      out[i][j] = on_map ? static_cast<U>(maps[level][x][y]) : fill;
    }
  }
  return out;
}

// Where a mob (or projectile) in slot k is drawn: its tile's top-left pixel,
// or false where it is masked out or off the view (craftax then blends with
// weight 0, which leaves every pixel as it is).
template <int N>
bool sprite_tile(const State& s, const Mobs<N>& mobs, int level, int k, int* row, int* col) {
  const std::int64_t x = static_cast<std::int64_t>(mobs.position[level][k][0]) - s.player_position[0] + kObsRows / 2;
  const std::int64_t y = static_cast<std::int64_t>(mobs.position[level][k][1]) - s.player_position[1] + kObsCols / 2;
  if (!mobs.mask[level][k] || x < 0 || x >= kObsRows || y < 0 || y >= kObsCols) return false;
  *row = static_cast<int>(x) * kBlockPixels;
  *col = static_cast<int>(y) * kBlockPixels;
  return true;
}

// One class of mobs in slot order (renderer.py _add_mob_to_pixels): the
// sprite of its type where alpha is 1, the pixels where it is 0.
template <int N, std::size_t T>
void draw_mobs(Pixels& px, const State& s, int level, const Mobs<N>& mobs, const std::array<Tile<kBlockPixels>, T>& tex,
               const std::array<Alpha<kBlockPixels>, T>& alpha) {
  int row = 0;
  int col = 0;
  for (int k = 0; k < N; ++k) {
    if (!sprite_tile(s, mobs, level, k, &row, &col)) continue;
    const int type = read_index(mobs.type_id[level][k], static_cast<int>(T));
    for (int i = 0; i < kBlockPixels; ++i) {
      for (int j = 0; j < kBlockPixels; ++j) {
        if (alpha[type][i][j] != 0.0f) px[row + i][col + j] = tex[type][i][j];
      }
    }
  }
}

// Projectiles in slot order (renderer.py _add_projectile_to_pixels): the
// upward sprite flipped upside down when moving down or right, transposed
// when moving sideways.
template <int N>
void draw_projectiles(Pixels& px, const State& s, int level, const Mobs<N>& projectiles,
                      const std::array<std::array<std::array<std::int32_t, 2>, static_cast<std::size_t>(N)>, kNumLevels>&
                          directions,
                      const Textures& t) {
  int row = 0;
  int col = 0;
  for (int k = 0; k < N; ++k) {
    if (!sprite_tile(s, projectiles, level, k, &row, &col)) continue;
    const int type = read_index(projectiles.type_id[level][k], 8);
    const auto& dir = directions[level][k];
    const bool flip = dir[0] > 0 || dir[1] > 0;
    const bool transpose = dir[1] != 0;
    for (int i = 0; i < kBlockPixels; ++i) {
      for (int j = 0; j < kBlockPixels; ++j) {
        int a = transpose ? j : i;
        const int b = transpose ? i : j;
        if (flip) a = kBlockPixels - 1 - a;
        if (t.projectile_alpha[type][a][b] != 0.0f) px[row + i][col + j] = t.projectile[type][a][b];
      }
    }
  }
}

// The inventory strip's cells (renderer.py _render_icon, _render_digit,
// _render_two_digit_number, _render_icon_with_alpha); x is the column, y the
// row of tiles below the map.
class Strip {
 public:
  Strip(Pixels& px, const Textures& t) : px_(px), t_(t) {}

  // .at[cell's 8 x 8 inside].set(icon), or black where `shown` is false
  // (smaller_empty_texture).
  void icon(const Tile<kSmallPixels>& icon, bool shown, int x, int y) {
    const int top = kMapPixelRows + y * kBlockPixels + 1;
    const int left = x * kBlockPixels + 1;
    for (int i = 0; i < kSmallPixels; ++i) {
      for (int j = 0; j < kSmallPixels; ++j) px_[top + i][left + j] = shown ? icon[i][j] : std::array<float, 3>{};
    }
  }

  // An RGBA overlay on the cell's 8 x 8 inside (alpha 0 or 1).
  void overlay(const TileRgba<kSmallPixels>* tex, int x, int y) {
    if (tex == nullptr) return;  // craftax's all-zero texture: the pixels stay
    const int top = kMapPixelRows + y * kBlockPixels + 1;
    const int left = x * kBlockPixels + 1;
    for (int i = 0; i < kSmallPixels; ++i) {
      for (int j = 0; j < kSmallPixels; ++j) {
        const auto& p = (*tex)[i][j];
        if (p[3] != 0.0f) px_[top + i][left + j] = {p[0], p[1], p[2]};
      }
    }
  }

  // One digit (index read as JAX reads it) at column offset `left` of the cell.
  void digit(const std::array<Tile<kNumberPixels>, 10>& tex, const std::array<Alpha<kNumberPixels>, 10>& alpha,
             std::int32_t n, int x, int y, int left) {
    const int k = read_index(n, 10);
    const int top = kMapPixelRows + y * kBlockPixels + kBlockPixels - kNumberPixels;
    const int col = x * kBlockPixels + left;
    for (int i = 0; i < kNumberPixels; ++i) {
      for (int j = 0; j < kNumberPixels; ++j) {
        for (int c = 0; c < 3; ++c) {
          float& p = px_[top + i][col + j][c];
          p = p * (1.0f - alpha[k][i][j]) + tex[k][i][j][c];
        }
      }
    }
  }

  // _render_digit: number_textures (0 blank) at the cell's bottom right.
  void single(std::int32_t n, int x, int y) { digit(t_.number, t_.number_alpha, n, x, y, kBlockPixels - kNumberPixels); }

  // _render_two_digit_number: the ones (with a 0 unless the number is 0),
  // then the tens (blank for 0) to their left.
  void number(std::int32_t n, int x, int y) {
    const bool zero = n == 0;
    digit(zero ? t_.number : t_.number_with_zero, zero ? t_.number_alpha : t_.number_with_zero_alpha, floor_mod10(n), x,
          y, kBlockPixels - kNumberPixels);
    digit(t_.number, t_.number_alpha, floor_div10(n), x, y, kBlockPixels - 2 * kNumberPixels);
  }

  // An icon shown where the count is positive, then the count.
  void counted(const Tile<kSmallPixels>& tex, std::int32_t n, int x, int y) {
    icon(tex, n > 0, x, y);
    number(n, x, y);
  }

 private:
  Pixels& px_;
  const Textures& t_;
};

// Enchantment overlay e (0 none, 1 fire, 2 ice, as JAX reads the index) of
// the textures starting at `fire` and `ice`.
const TileRgba<kSmallPixels>* enchant_overlay(const Textures& t, std::int32_t e, int fire, int ice) {
  const int k = read_index(e, 3);
  if (k == 0) return nullptr;
  return &t.enchant[k == 1 ? fire : ice];
}

}  // namespace

Textures load_textures(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("craftax textures: cannot open " + path);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw std::invalid_argument("craftax textures: " + path +
                                " is not a full Craftax texture file written by rlpool.envs.craftax.textures");
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
// a call into libm (the same correctly rounded result).
[[gnu::target_clones("fma", "default")]] void render_pixels(const State& s, const Textures& t, float* out,
                                                            Program program) {
  Pixels px{};  // the inventory strip starts black
  const int level = read_index(s.player_level, kNumLevels);

  // Map tiles: OUT_OF_BOUNDS off the map; the necromancer looks vulnerable
  // when is_boss_vulnerable. A value without a texture stays black.
  const auto blocks = view(s, s.map, static_cast<std::int32_t>(kOutOfBounds));
  const std::int32_t boss = is_boss_vulnerable(s) ? kNecromancerVulnerable : kNecromancer;
  for (int i = 0; i < kObsRows; ++i) {
    for (int j = 0; j < kObsCols; ++j) {
      const std::int32_t block = blocks[i][j] == kNecromancer ? boss : blocks[i][j];
      if (block < 0 || block >= kNumBlockTypes) continue;
      for (int a = 0; a < kBlockPixels; ++a) {
        for (int b = 0; b < kBlockPixels; ++b) px[i * kBlockPixels + a][j * kBlockPixels + b] = t.block[block][a][b];
      }
    }
  }

  // Items over the tiles (alpha 0 or 1): a down ladder is drawn blocked until
  // the level's monsters are killed.
  const auto items = view(s, s.item_map, static_cast<std::int32_t>(kItemNone));
  const std::int32_t ladder_down =
      s.monsters_killed[level] >= kMonstersKilledToClearLevel ? kItemLadderDown : kItemLadderDownBlocked;
  for (int i = 0; i < kObsRows; ++i) {
    for (int j = 0; j < kObsCols; ++j) {
      const std::int32_t item = items[i][j] == kItemLadderDown ? ladder_down : items[i][j];
      if (item < 1 || item >= kNumItemTypes) continue;
      for (int a = 0; a < kBlockPixels; ++a) {
        for (int b = 0; b < kBlockPixels; ++b) {
          const auto& p = t.item[item][a][b];
          if (p[3] != 0.0f) px[i * kBlockPixels + a][j * kBlockPixels + b] = {p[0], p[1], p[2]};
        }
      }
    }
  }

  // The player at the centre tile (alpha 0 or 1).
  const int sprite = read_index(s.is_sleeping ? 4 : static_cast<std::int64_t>(s.player_direction) - 1, 5);
  const int prow = (kObsRows / 2) * kBlockPixels;
  const int pcol = (kObsCols / 2) * kBlockPixels;
  for (int i = 0; i < kBlockPixels; ++i) {
    for (int j = 0; j < kBlockPixels; ++j) {
      if (t.player_alpha[sprite][i][j] != 0.0f) px[prow + i][pcol + j] = t.player[sprite][i][j];
    }
  }

  // Mobs of the player's level in slot order, then projectiles.
  draw_mobs(px, s, level, s.melee_mobs, t.melee, t.melee_alpha);
  draw_mobs(px, s, level, s.passive_mobs, t.passive, t.passive_alpha);
  draw_mobs(px, s, level, s.ranged_mobs, t.ranged, t.ranged_alpha);
  draw_projectiles(px, s, level, s.mob_projectiles, s.mob_projectile_directions, t);
  draw_projectiles(px, s, level, s.player_projectiles, s.player_projectile_directions, t);

  // Darkness, night and sleep: one XLA fusion per pixel and channel.
  //   lit = light * map
  //   night = (1 - mask) * lit + mask * noise,   mask = intensity * night_noise_intensity
  //   night = night_texture * 0.5 + 0.5 * night
  //   map = daylight * lit + (1 - daylight) * night, times (1 - sleeping * 0.5)
  // XLA fuses mask * noise and daylight * lit into the adds (as in Classic).
  // reset_env's program compiles this fusion (its optimised LLVM IR) to a
  // loop over each map row's pixels 0-103, eight at a time with the channels
  // apart, and pixels 104-109 one by one; in the eight-wide part the red and
  // green channels fuse (1 - daylight) * night into the last add instead
  // (found against craftax's reset frames, every value of many worlds);
  // elsewhere it is as above. A new world's daylight is 0.797 (timestep 0),
  // so its night mask is 0 and the night blend exact in any order.
  const auto light = view(s, s.light_map, 0.0f);
  const float daylight = s.player_level == 0 ? s.light_level : 1.0f;
  const float intensity = std::max((0.5f - daylight) * 2.0f, 0.0f);
  const float sleep = 1.0f - (s.is_sleeping ? 0.5f : 0.0f);
  // The noise (uniform(state_rng) * 95 + 32) weighs 0 in daylight >= 0.5: not drawn there.
  std::vector<float> noise(static_cast<std::size_t>(kMapPixelRows) * kPixelCols);
  if (intensity != 0.0f) jax_random::uniform(s.state_rng, noise.data(), noise.size());
  constexpr std::array<float, 3> kHalfNight = {0.0f, 8.0f, 32.0f};  // night_texture (0, 16, 64) * 0.5
  constexpr int kResetVectorPixels = 104;  // 13 vectors of 8 pixels of a 110-pixel row
  for (int r = 0; r < kMapPixelRows; ++r) {
    for (int c = 0; c < kPixelCols; ++c) {
      const float l = light[r / kBlockPixels][c / kBlockPixels];
      const float stat = std::fma(noise[static_cast<std::size_t>(r) * kPixelCols + c], 95.0f, 32.0f);
      const float mask = intensity * t.night_noise_intensity[r][c];
      for (int ch = 0; ch < 3; ++ch) {
        float& p = px[r][c][ch];
        const float lit = l * p;
        const float night = std::fma(mask, stat, (1.0f - mask) * lit);
        const float tinted = std::fma(night, 0.5f, kHalfNight[ch]);
        const bool fuse_night = program == Program::kReset && c < kResetVectorPixels && ch < 2;
        p = sleep * (fuse_night ? std::fma(1.0f - daylight, tinted, daylight * lit)
                                : std::fma(daylight, lit, (1.0f - daylight) * tinted));
      }
    }
  }

  // The inventory strip, in craftax's order (later cells draw over earlier).
  Strip strip(px, t);
  const Inventory& inv = s.inventory;
  const float health_floor = std::floor(s.player_health);
  const std::int32_t health = to_int32(std::max(health_floor, 1.0f));
  strip.counted(t.icons[kIconHealth], health, 0, 0);
  strip.counted(t.icons[kIconFood], s.player_food, 1, 0);
  strip.counted(t.icons[kIconDrink], s.player_drink, 2, 0);
  strip.counted(t.icons[kIconEnergy], s.player_energy, 3, 0);
  strip.counted(t.icons[kIconMana], s.player_mana, 4, 0);
  strip.counted(t.smaller_block[kWood], inv.wood, 0, 2);
  strip.counted(t.smaller_block[kStone], inv.stone, 1, 2);
  strip.counted(t.smaller_block[kCoal], inv.coal, 0, 1);
  strip.counted(t.smaller_block[kIron], inv.iron, 1, 1);
  strip.counted(t.smaller_block[kDiamond], inv.diamond, 2, 1);
  strip.counted(t.smaller_block[kSapphire], inv.sapphire, 3, 1);
  strip.counted(t.smaller_block[kRuby], inv.ruby, 4, 1);
  strip.counted(t.icons[kIconSapling], inv.sapling, 5, 1);
  // Tools: pickaxe_textures / sword_textures index 0 is empty.
  const int pickaxe = read_index(inv.pickaxe, 5);
  strip.icon(t.icons[kIconWoodPickaxe + std::max(pickaxe - 1, 0)], pickaxe > 0, 8, 2);
  const int sword = read_index(inv.sword, 5);
  strip.icon(t.icons[kIconWoodSword + std::max(sword - 1, 0)], sword > 0, 8, 1);
  strip.icon(t.icons[kIconBow], read_index(inv.bow, 2) > 0, 6, 1);
  strip.counted(t.icons[kIconArrow], inv.arrows, 6, 2);
  for (int i = 0; i < 4; ++i) {
    const int armour = read_index(inv.armour[i], 3);
    strip.icon(t.icons[(armour == 2 ? kIconDiamondHelmet : kIconIronHelmet) + i], armour > 0, 7, i);
  }
  strip.counted(t.icons[kIconTorch], inv.torches, 2, 2);
  for (int i = 0; i < 6; ++i) strip.counted(t.icons[kIconPotionRed + i], inv.potions[i], i, 3);
  strip.counted(t.icons[kIconBook], inv.books, 3, 2);
  strip.icon(t.icons[kIconFireball], s.learned_spells[0], 4, 2);
  strip.icon(t.icons[kIconIceball], s.learned_spells[1], 5, 2);
  // Enchantments over the sword, the arrows and the armour.
  strip.overlay(enchant_overlay(t, s.sword_enchantment, kEnchantSwordFire, kEnchantSwordIce), 8, 1);
  const std::int32_t arrow_enchantment = inv.arrows > 0 ? s.bow_enchantment : 0;
  strip.overlay(enchant_overlay(t, arrow_enchantment, kEnchantArrowFire, kEnchantArrowIce), 6, 2);
  for (int i = 0; i < 4; ++i) {
    strip.overlay(enchant_overlay(t, s.armour_enchantments[i], kEnchantArmourFire + i, kEnchantArmourIce + i), 7, i);
  }
  // The floor, then the attributes.
  strip.single(s.player_level, 6, 0);
  strip.icon(t.icons[kIconXp], s.player_xp > 0, 9, 0);
  strip.single(s.player_xp, 9, 0);
  strip.icon(t.icons[kIconDexterity], true, 9, 1);
  strip.single(s.player_dexterity, 9, 1);
  strip.icon(t.icons[kIconStrength], true, 9, 2);
  strip.single(s.player_strength, 9, 2);
  strip.icon(t.icons[kIconIntelligence], true, 9, 3);
  strip.single(s.player_intelligence, 9, 3);

  // / 255, as XLA computes it: * float(1 / 255).
  constexpr float kInv255 = 0.00392156886f;
  const float* flat = &px[0][0][0];
  for (int i = 0; i < kPixelObsSize; ++i) out[i] = flat[i] * kInv255;
}

}  // namespace rlpool::craftax::full
