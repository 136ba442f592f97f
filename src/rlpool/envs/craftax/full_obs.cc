// Full Craftax's symbolic observation, as craftax 1.6.1's jitted
// craftax/renderer.py render_craftax_symbolic (l.9-199) computes it on CPU.
//
// The observation is 8268 float32. First a 9 x 11 view around the player
// (rows player_x-4..+4, columns player_y-5..+5 of the player's level; off the
// map: OUT_OF_BOUNDS, no item, no light), 83 channels per cell, flattened in
// C order: 37 block one-hot, 5 item one-hot and 40 mob channels (class * 8 +
// type_id for the classes melee, passive, ranged, mob projectile, player
// projectile), all 82 zeroed where the cell's light is not above 0.05, then
// that visibility bit. Then 16 inventory values (sqrt of wood, stone, coal,
// iron, diamond, sapphire, ruby, sapling, torches, arrows over 10; books / 2,
// pickaxe / 4, sword / 4, sword and bow enchantments, bow), 6 potions
// (sqrt / 10), 9 intrinsics (health, food, drink, energy, mana, xp, dexterity,
// strength, intelligence over 10), the direction one-hot (player_direction -
// 1), the 4 armour slots / 2, the 4 armour enchantments, and light_level,
// is_sleeping, is_resting, the two learned spells, player_level / 10, the
// level cleared (monsters_killed >= 8) and is_boss_vulnerable.
//
// XLA computes `x / 10.0` as x * float32(0.1) and sqrt as IEEE sqrtf; /2 and
// /4 are exact either way. The mob channels are written for every mob slot
// of the level, masked or off screen too, as craftax's
// `.at[x, y, c].set(on_screen)` does in JAX: a negative index wraps once and
// a write still off the array is dropped, so an off-screen or masked slot may
// write 0 over a flag an earlier slot set. The view is jax.lax.dynamic_slice
// of the map padded by 13 cells, whose start JAX clamps into the padded map.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "envs/craftax/full_game.h"
#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {
namespace {

constexpr int kViewRows = kObsRows;
constexpr int kViewCols = kObsCols;
constexpr int kPad = kMaxObsDim + 2;
constexpr int kMobTypesPerClass = kNumMobTypes;
constexpr int kMobChannels = 5 * kMobTypesPerClass;
constexpr int kCellChannels = kNumBlockTypes + kNumItemTypes + kMobChannels + 1;  // 83
static_assert(kViewRows * kViewCols * kCellChannels + 51 == kSymbolicObsSize);

// a - b + c in int32 with JAX's wrap-around (no signed overflow).
std::int32_t wrap_sub_add(std::int32_t a, std::int32_t b, std::int32_t c) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b) +
                                   static_cast<std::uint32_t>(c));
}

// One class's scan (_add_mob_to_map) over the level's slots, in slot order.
template <int N>
void add_mobs(const Mobs<N>& mobs, int level, const State& s, int mob_class, float* view) {
  for (int i = 0; i < N; ++i) {
    const std::int32_t lx = wrap_sub_add(mobs.position[level][i][0], s.player_position[0], kViewRows / 2);
    const std::int32_t ly = wrap_sub_add(mobs.position[level][i][1], s.player_position[1], kViewCols / 2);
    const bool on_screen = lx >= 0 && lx < kViewRows && ly >= 0 && ly < kViewCols && mobs.mask[level][i];
    const std::int32_t id = wrap_sub_add(mobs.type_id[level][i], 0, mob_class * kMobTypesPerClass);
    const int r = write_index(lx, kViewRows);
    const int c = write_index(ly, kViewCols);
    const int ch = write_index(id, kMobChannels);
    if (r >= 0 && c >= 0 && ch >= 0) {
      view[(r * kViewCols + c) * kCellChannels + kNumBlockTypes + kNumItemTypes + ch] = on_screen ? 1.0f : 0.0f;
    }
  }
}

float sqrt_tenth(std::int32_t v) { return std::sqrt(static_cast<float>(v)) * 0.1f; }
float tenth(std::int32_t v) { return static_cast<float>(v) * 0.1f; }

}  // namespace

void render_symbolic(const State& s, float* obs) {
  std::memset(obs, 0, sizeof(float) * kSymbolicObsSize);
  const int level = read_index(s.player_level, kNumLevels);
  const auto& map = s.map[level];
  const auto& items = s.item_map[level];
  const auto& light = s.light_map[level];

  // dynamic_slice's start in the padded map (of kMapSize + 2 * kPad cells),
  // clamped so that the view lies inside it.
  constexpr int kPadded = kMapSize + 2 * kPad;
  const auto start = [](std::int32_t p, int half, int size) {
    const std::int64_t t = static_cast<std::int64_t>(p) - half + kPad;
    return t < 0 ? 0 : (t > kPadded - size ? kPadded - size : t);
  };
  const std::int64_t x0 = start(s.player_position[0], kViewRows / 2, kViewRows) - kPad;
  const std::int64_t y0 = start(s.player_position[1], kViewCols / 2, kViewCols) - kPad;

  // Blocks and items (one_hot of an id outside its classes is all zeros).
  for (int r = 0; r < kViewRows; ++r) {
    for (int c = 0; c < kViewCols; ++c) {
      const std::int64_t x = x0 + r;
      const std::int64_t y = y0 + c;
      const bool on_map = x >= 0 && x < kMapSize && y >= 0 && y < kMapSize;
      const std::int32_t block = on_map ? map[x][y] : kOutOfBounds;
      const std::int32_t item = on_map ? items[x][y] : kItemNone;
      float* cell = obs + (r * kViewCols + c) * kCellChannels;
      if (block >= 0 && block < kNumBlockTypes) cell[block] = 1.0f;
      if (item >= 0 && item < kNumItemTypes) cell[kNumBlockTypes + item] = 1.0f;
    }
  }

  // Mobs, class by class in craftax's order.
  add_mobs(s.melee_mobs, level, s, 0, obs);
  add_mobs(s.passive_mobs, level, s, 1, obs);
  add_mobs(s.ranged_mobs, level, s, 2, obs);
  add_mobs(s.mob_projectiles, level, s, 3, obs);
  add_mobs(s.player_projectiles, level, s, 4, obs);

  // Darkness: the 82 channels times (light > 0.05), then that bit.
  for (int r = 0; r < kViewRows; ++r) {
    for (int c = 0; c < kViewCols; ++c) {
      const std::int64_t x = x0 + r;
      const std::int64_t y = y0 + c;
      const bool on_map = x >= 0 && x < kMapSize && y >= 0 && y < kMapSize;
      const bool visible = (on_map ? light[x][y] : 0.0f) > 0.05f;
      float* cell = obs + (r * kViewCols + c) * kCellChannels;
      if (!visible) std::memset(cell, 0, sizeof(float) * (kCellChannels - 1));
      cell[kCellChannels - 1] = visible ? 1.0f : 0.0f;
    }
  }

  float* out = obs + kViewRows * kViewCols * kCellChannels;
  const Inventory& inv = s.inventory;
  for (const std::int32_t v :
       {inv.wood, inv.stone, inv.coal, inv.iron, inv.diamond, inv.sapphire, inv.ruby, inv.sapling, inv.torches,
        inv.arrows}) {
    *out++ = sqrt_tenth(v);
  }
  *out++ = static_cast<float>(inv.books) / 2.0f;
  *out++ = static_cast<float>(inv.pickaxe) / 4.0f;
  *out++ = static_cast<float>(inv.sword) / 4.0f;
  *out++ = static_cast<float>(s.sword_enchantment);
  *out++ = static_cast<float>(s.bow_enchantment);
  *out++ = static_cast<float>(inv.bow);
  for (const std::int32_t v : inv.potions) *out++ = sqrt_tenth(v);

  *out++ = s.player_health * 0.1f;
  for (const std::int32_t v : {s.player_food, s.player_drink, s.player_energy, s.player_mana, s.player_xp,
                               s.player_dexterity, s.player_strength, s.player_intelligence}) {
    *out++ = tenth(v);
  }

  const std::int32_t d = s.player_direction - 1;
  for (int k = 0; k < 4; ++k) *out++ = d == k ? 1.0f : 0.0f;
  for (const std::int32_t v : inv.armour) *out++ = static_cast<float>(v) / 2.0f;
  for (const std::int32_t v : s.armour_enchantments) *out++ = static_cast<float>(v);

  *out++ = s.light_level;
  *out++ = s.is_sleeping ? 1.0f : 0.0f;
  *out++ = s.is_resting ? 1.0f : 0.0f;
  *out++ = s.learned_spells[0] ? 1.0f : 0.0f;
  *out++ = s.learned_spells[1] ? 1.0f : 0.0f;
  *out++ = tenth(s.player_level);
  *out++ = s.monsters_killed[level] >= kMonstersKilledToClearLevel ? 1.0f : 0.0f;
  *out++ = is_boss_vulnerable(s) ? 1.0f : 0.0f;
}

}  // namespace rlpool::craftax::full
