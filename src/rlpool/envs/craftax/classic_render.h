// Craftax-Classic's pixel observation: craftax 1.6.1's
// craftax_classic/renderer.py make_craftax_pixel_renderer (l.113-712) at
// block_pixel_size 7 (BLOCK_PIXEL_SIZE_AGENT), divided by 255 as
// envs/craftax_pixels_env.py get_obs does: (63, 63, 3) float32 in [0, 1].
//
// The textures are craftax's own, processed as constants.py
// load_all_textures_given_size does and written by rlpool's Python side
// (rlpool/envs/craftax/textures.py) into one raw file: the 8 bytes "RLPCXCT1",
// uint32 block pixel size (7), uint32 count of float32 values, then the
// arrays of Textures below in their order, C-ordered, little-endian.
//
// Floats follow craftax's jitted XLA CPU code bit for bit: the multiply-adds
// XLA contracts are std::fma (the file is built with -ffp-contract=off), and
// x / 255 is x * float(1 / 255).
#pragma once

#include <array>
#include <string>

#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {

constexpr int kBlockPixels = 7;                                // BLOCK_PIXEL_SIZE_AGENT
constexpr int kSmallPixels = 5;                                // int(0.8 * 7): inventory icons
constexpr int kNumberPixels = 4;                               // int(0.6 * 7): digits
constexpr int kMapPixelRows = kObsRows * kBlockPixels;         // 49
constexpr int kPixelCols = kObsCols * kBlockPixels;            // 63
constexpr int kPixelRows = (kObsRows + 2) * kBlockPixels;      // 63: the map, then INVENTORY_OBS_HEIGHT rows
constexpr int kPixelObsSize = kPixelRows * kPixelCols * 3;     // 11907

template <int N>
using Tile = std::array<std::array<std::array<float, 3>, N>, N>;  // [row][col][rgb]
template <int N>
using Alpha = std::array<std::array<float, N>, N>;                // [row][col]

// The textures the renderer reads (values as craftax holds them: integer
// colours 0..255 and alphas, all as float32).
struct Textures {
  std::array<Tile<kBlockPixels>, kNumBlockTypes> block;           // block_textures
  std::array<Tile<kSmallPixels>, kNumBlockTypes> smaller_block;   // smaller_block_textures
  std::array<Tile<kBlockPixels>, 5> player;                       // left, right, up, down, sleep
  std::array<Alpha<kBlockPixels>, 5> player_alpha;                // alpha / 255
  std::array<Tile<kNumberPixels>, 10> number;                     // 0 (blank), 1..9: rgb * alpha
  std::array<Alpha<kNumberPixels>, 10> number_alpha;              // 0 or 1
  // health, food, drink, energy, wood/stone/iron pickaxe, wood/stone/iron sword, sapling
  std::array<Tile<kSmallPixels>, 11> icons;
  std::array<Tile<kBlockPixels>, 3> mobs;                         // zombie, cow, skeleton
  std::array<Alpha<kBlockPixels>, 3> mobs_alpha;                  // alpha / 255
  Tile<kBlockPixels> arrow;                                       // arrow-up, rgb * alpha
  Alpha<kBlockPixels> arrow_alpha;                                // 0 or 1
  std::array<std::array<float, kPixelCols>, kMapPixelRows> night_noise_intensity;
};

// The textures from the file textures.py writes; throws std::invalid_argument
// naming the file where it is missing, of another format or size.
Textures load_textures(const std::string& path);

// renderer.py render_craftax_pixels(state) / 255: kPixelObsSize floats,
// (row, column, channel) in C order.
void render_pixels(const State& state, const Textures& textures, float* out);

}  // namespace rlpool::craftax::classic
