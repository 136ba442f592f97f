// Craftax-Classic's symbolic observation and score, as craftax 1.6.1 computes
// them: craftax_classic/renderer.py render_craftax_symbolic (l.7-110) and
// craftax_classic/envs/common.py compute_score.
//
// The observation is 1345 float32: a 7 x 9 view around the player (rows
// player_x-3..+3, columns player_y-4..+4, OUT_OF_BOUNDS off the map), 17
// block one-hot channels and 4 mob channels (zombie, cow, skeleton, arrow) per
// cell, flattened in C order; then the inventory (12) and the intrinsics
// (health, food, drink, energy) as craftax computes them in float16
// (float16(x) / 10 is XLA's float16 multiply by float16(0.1)); the direction
// one-hot (player_direction - 1); light_level; is_sleeping.
//
// The mob channels are written for every mob slot, masked or off screen too,
// as craftax's `.at[x, y, c].set(on_screen)` does in JAX: a negative local
// index wraps once, one still off the view is dropped, so an off-screen slot
// may write 0 over a flag an earlier slot of the same class set.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "envs/craftax/classic_game.h"
#include "envs/craftax/classic_rules.h"
#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {
namespace {

// IEEE binary16 from float32, round to nearest even (overflow to infinity,
// subnormals kept, NaN stays NaN).
std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xFFu;
  std::uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFFu) return static_cast<std::uint16_t>(sign | 0x7C00u | (mant != 0 ? 0x200u : 0u));
  const int e = static_cast<int>(exp) - 127 + 15;  // the half's biased exponent
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    // A half subnormal (or zero): the value is mant' * 2^-24.
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;  // the implicit bit
    const int shift = 14 - e;  // 14..24
    const std::uint32_t half_mant = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1);
    std::uint32_t h = half_mant;
    if (rest > halfway || (rest == halfway && (half_mant & 1u) != 0)) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0)) ++h;  // a carry may reach infinity: right
  return static_cast<std::uint16_t>(sign | h);
}

float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t bits;
  if (exp == 0x1Fu) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    int e = -14;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    mant &= 0x3FFu;
    bits = sign | (static_cast<std::uint32_t>(e + 127) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(bits);
}

float to_half(float f) { return half_bits_to_float(float_to_half_bits(f)); }

// jnp.asarray(v).astype(float16) / 10.0 as XLA computes it (a float16 multiply
// by float16(0.1), exact in float32 and rounded once to float16), as float32.
// int32 -> float16 through float32 rounds the same way: every int32 that float32
// cannot hold exactly is beyond float16's range and becomes infinity either way.
float half_tenth(std::int32_t v) {
  static const float kTenth = to_half(0.1f);  // 0.0999755859375
  return to_half(to_half(static_cast<float>(v)) * kTenth);
}

// a - b + c in int32 with JAX's wrap-around (no signed overflow).
std::int32_t wrap_sub_add(std::int32_t a, std::int32_t b, std::int32_t c) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b) +
                                   static_cast<std::uint32_t>(c));
}

constexpr int kCellChannels = kNumBlockTypes + 4;

template <int N>
void add_mobs(const Mobs<N>& mobs, const State& s, int channel, float* obs) {
  for (int i = 0; i < N; ++i) {
    const std::int32_t lx = wrap_sub_add(mobs.position[i][0], s.player_position[0], kObsRows / 2);
    const std::int32_t ly = wrap_sub_add(mobs.position[i][1], s.player_position[1], kObsCols / 2);
    const bool on_screen = lx >= 0 && lx < kObsRows && ly >= 0 && ly < kObsCols && mobs.mask[i];
    const int r = write_index(lx, kObsRows);
    const int c = write_index(ly, kObsCols);
    if (r >= 0 && c >= 0) obs[(r * kObsCols + c) * kCellChannels + kNumBlockTypes + channel] = on_screen ? 1.0f : 0.0f;
  }
}

}  // namespace

void render_symbolic(const State& s, float* obs) {
  std::memset(obs, 0, sizeof(float) * kSymbolicObsSize);
  // Map view: the padded map's dynamic_slice. The view always lies inside the
  // padding (11 cells) for a player on the map; load_state checks that.
  for (int r = 0; r < kObsRows; ++r) {
    for (int c = 0; c < kObsCols; ++c) {
      const std::int64_t x = static_cast<std::int64_t>(s.player_position[0]) - kObsRows / 2 + r;
      const std::int64_t y = static_cast<std::int64_t>(s.player_position[1]) - kObsCols / 2 + c;
      const std::int32_t block = (x >= 0 && x < kMapSize && y >= 0 && y < kMapSize) ? s.map[x][y] : kOutOfBounds;
      // jax.nn.one_hot: an id outside [0, 17) gives all zeros.
      if (block >= 0 && block < kNumBlockTypes) obs[(r * kObsCols + c) * kCellChannels + block] = 1.0f;
    }
  }
  add_mobs(s.zombies, s, 0, obs);
  add_mobs(s.cows, s, 1, obs);
  add_mobs(s.skeletons, s, 2, obs);
  add_mobs(s.arrows, s, 3, obs);

  float* out = obs + kObsRows * kObsCols * kCellChannels;
  const Inventory& inv = s.inventory;
  for (const std::int32_t v : {inv.wood, inv.stone, inv.coal, inv.iron, inv.diamond, inv.sapling, inv.wood_pickaxe,
                               inv.stone_pickaxe, inv.iron_pickaxe, inv.wood_sword, inv.stone_sword, inv.iron_sword}) {
    *out++ = half_tenth(v);
  }
  for (const std::int32_t v : {s.player_health, s.player_food, s.player_drink, s.player_energy}) *out++ = half_tenth(v);
  const std::int32_t d = s.player_direction - 1;
  for (int k = 0; k < 4; ++k) *out++ = d == k ? 1.0f : 0.0f;
  *out++ = s.light_level;
  *out++ = s.is_sleeping ? 1.0f : 0.0f;
}

float compute_score(const State& s, bool done) {
  // exp(mean(log(1 + achievements * done * 100))) - 1 in float32 depends only on
  // how many achievements count (each term is log(1) or log(101)); the values
  // are XLA's (its own log and exp on CPU, not libm's), measured on jax 0.10.2
  // for every count and independent of which achievements they are.
  static constexpr std::array<std::uint32_t, kNumAchievements + 1> kScoreBits = {
      0x00000000, 0x3e6f0190, 0x3f05730a, 0x3f60593e, 0x3fa83b68, 0x3fed5fbc, 0x402153af, 0x4055eb52,
      0x408b64b6, 0x40b365bb, 0x40e4bd10, 0x4110cc4a, 0x41365436, 0x41649ead, 0x418edb8d, 0x41b21188,
      0x41dd7f66, 0x42098820, 0x422a90db, 0x42534f71, 0x4282c849, 0x42a1c639, 0x42c7fffe,
  };
  if (!done) return 0.0f;
  int count = 0;
  for (const bool a : s.achievements) count += a ? 1 : 0;
  return std::bit_cast<float>(kScoreBits[count]);
}

}  // namespace rlpool::craftax::classic
