// Full Craftax's pixel observation: craftax 1.6.1's craftax/renderer.py
// make_craftax_pixel_renderer (l.201-913) at block_pixel_size 10
// (BLOCK_PIXEL_SIZE_AGENT), divided by 255 as envs/craftax_pixels_env.py
// get_obs does: (130, 110, 3) float32 in [0, 1], the 9 x 11 tiles of the map
// view above INVENTORY_OBS_HEIGHT (4) tiles of inventory.
//
// The textures are craftax's own, processed as craftax/constants.py
// load_all_textures_given_size does and written by rlpool's Python side
// (rlpool/envs/craftax/textures.py full_textures_file) into one raw file: the
// 8 bytes "RLPCXFT1", uint32 block pixel size (10), uint32 count of float32
// values, then the arrays of Textures below in their order, C-ordered,
// little-endian.
//
// Floats follow craftax's jitted XLA CPU code bit for bit: the multiply-adds
// XLA contracts are std::fma (the file is built with -ffp-contract=off), and
// x / 255 is x * float(1 / 255).
#pragma once

#include <array>
#include <string>

#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"

namespace rlpool::craftax::full {

constexpr int kBlockPixels = 10;                                        // BLOCK_PIXEL_SIZE_AGENT
constexpr int kSmallPixels = 8;                                         // int(0.8 * 10): inventory icons
constexpr int kNumberPixels = 4;                                        // int(0.4 * 10): digits
constexpr int kMapPixelRows = kObsRows * kBlockPixels;                  // 90
constexpr int kPixelCols = kObsCols * kBlockPixels;                     // 110
constexpr int kPixelRows = (kObsRows + kInventoryObsHeight) * kBlockPixels;  // 130
constexpr int kPixelObsSize = kPixelRows * kPixelCols * 3;              // 42900

template <int N>
using Tile = std::array<std::array<std::array<float, 3>, N>, N>;  // [row][col][rgb]
template <int N>
using TileRgba = std::array<std::array<std::array<float, 4>, N>, N>;  // [row][col][rgba], alpha 0 or 1
template <int N>
using Alpha = std::array<std::array<float, N>, N>;  // [row][col], 0 or 1

// The small inventory icons, in the file's order (textures.py FULL_ICON_FILES).
enum Icon : int {
  kIconHealth, kIconFood, kIconDrink, kIconEnergy, kIconMana,
  kIconWoodPickaxe, kIconStonePickaxe, kIconIronPickaxe, kIconDiamondPickaxe,
  kIconWoodSword, kIconStoneSword, kIconIronSword, kIconDiamondSword,
  kIconBow, kIconArrow, kIconSapling, kIconTorch,
  kIconPotionRed, kIconPotionGreen, kIconPotionBlue, kIconPotionPink, kIconPotionCyan, kIconPotionYellow,
  kIconBook, kIconFireball, kIconIceball, kIconXp, kIconDexterity, kIconStrength, kIconIntelligence,
  kIconIronHelmet, kIconIronChestplate, kIconIronPants, kIconIronBoots,
  kIconDiamondHelmet, kIconDiamondChestplate, kIconDiamondPants, kIconDiamondBoots,
  kNumIcons,
};

// The enchantment overlays, in the file's order (textures.py FULL_ENCHANT_FILES).
enum Enchant : int {
  kEnchantSwordFire, kEnchantSwordIce, kEnchantArrowFire, kEnchantArrowIce,
  kEnchantArmourFire,                       // helmet, chestplate, pants, boots
  kEnchantArmourIce = kEnchantArmourFire + 4,  // helmet, chestplate, pants, boots
  kNumEnchants = kEnchantArmourIce + 4,
};

// The textures the renderer reads (values as craftax holds them: integer
// colours 0..255, alphas 0 or 1, all as float32; "rgb * alpha" where craftax
// applies apply_alpha).
struct Textures {
  std::array<Tile<kBlockPixels>, kNumBlockTypes> block;          // block_textures (OUT_OF_BOUNDS grey, DARKNESS black)
  std::array<Tile<kSmallPixels>, kNumBlockTypes> smaller_block;  // smaller_block_textures
  std::array<TileRgba<kBlockPixels>, kNumItemTypes> item;        // item textures, RGBA
  std::array<Tile<kBlockPixels>, 5> player;                      // left, right, up, down, sleep
  std::array<Alpha<kBlockPixels>, 5> player_alpha;
  std::array<Tile<kNumberPixels>, 10> number;                    // 0 (blank), 1..9: rgb * alpha
  std::array<Alpha<kNumberPixels>, 10> number_alpha;
  std::array<Tile<kNumberPixels>, 10> number_with_zero;          // 0..9: rgb * alpha
  std::array<Alpha<kNumberPixels>, 10> number_with_zero_alpha;
  std::array<Tile<kSmallPixels>, kNumIcons> icons;
  std::array<TileRgba<kSmallPixels>, kNumEnchants> enchant;
  std::array<Tile<kBlockPixels>, 8> melee;                       // rgb * alpha, by type_id
  std::array<Alpha<kBlockPixels>, 8> melee_alpha;
  std::array<Tile<kBlockPixels>, 3> passive;
  std::array<Alpha<kBlockPixels>, 3> passive_alpha;
  std::array<Tile<kBlockPixels>, 8> ranged;
  std::array<Alpha<kBlockPixels>, 8> ranged_alpha;
  std::array<Tile<kBlockPixels>, 8> projectile;                  // by projectile type_id, pointing up
  std::array<Alpha<kBlockPixels>, 8> projectile_alpha;
  std::array<std::array<float, kPixelCols>, kMapPixelRows> night_noise_intensity;
};

// The textures from the file textures.py writes; throws std::invalid_argument
// naming the file where it is missing, of another format or size.
Textures load_textures(const std::string& path);

// Which of craftax's jitted programs a frame's floats follow: get_obs and
// step_env's, or reset_env's (full_render.cc says where they differ).
enum class Program { kStep, kReset };

// renderer.py render_craftax_pixels(state) / 255: kPixelObsSize floats,
// (row, column, channel) in C order.
void render_pixels(const State& state, const Textures& textures, float* out, Program program);

}  // namespace rlpool::craftax::full
