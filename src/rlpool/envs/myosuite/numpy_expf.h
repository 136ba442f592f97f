// numpy_expf: float32 exp(x) bit-identical to numpy's float32 np.exp on x86-64
// CPUs where numpy dispatches its AVX512F kernel (numpy 2.x,
// numpy/_core/src/umath/loops_exponent_log.dispatch.c.src, simd_exp_FLOAT in
// its AVX512F instantiation, reached through FLOAT_exp; numpy reports this
// dispatch as AVX512_SKX / X86_V4). The kernel saturates x >= xmax to +inf and
// x <= xmin to 0, maps any NaN to numpy's quiet +NaN, rounds k = rint(x*log2(e))
// with the 1.5*2^23 add/subtract trick, reduces y = x - k*ln2 with a two-part
// Cody-Waite constant (fused multiply-adds), evaluates exp(y) as a 5th- over
// 2nd-order Remez ratio (fused multiply-adds, one division) and scales by 2^k
// as _mm512_scalef_ps does (one rounding, gradual underflow). Every fused
// multiply-add is an explicit std::fmaf, so the code needs a build that does
// not contract a*b+c by itself (-ffp-contract=off). numpy's AVX2+FMA3 kernel
// (a CPU without AVX512F) scales denormal results differently, and a CPU
// without AVX2+FMA3 makes numpy fall back to libm's expf: the reference
// values differ there.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace rlpool::myosuite {

namespace numpy_expf_detail {

// 2^e as a float, for -126 <= e <= 127.
inline float pow2f(int e) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(e + 127) << 23);
}

}  // namespace numpy_expf_detail

inline float numpy_expf(float x) {
  constexpr float kXmax = 88.72283935546875f;
  constexpr float kXmin = -103.97208404541015625f;
  constexpr float kLog2e = 1.442695040888963407359924681001892137f;
  constexpr float kRintMagic = 0x1.8p23f;
  constexpr float kLn2High = -6.93145752e-1f;
  constexpr float kLn2Low = -1.42860677e-6f;
  constexpr float kP0 = 9.999999999980870924916e-01f;
  constexpr float kP1 = 7.257664613233124478488e-01f;
  constexpr float kP2 = 2.473615434895520810817e-01f;
  constexpr float kP3 = 5.114512081637298353406e-02f;
  constexpr float kP4 = 6.757896990527504603057e-03f;
  constexpr float kP5 = 5.082762527590693718096e-04f;
  constexpr float kQ0 = 1.0f;
  constexpr float kQ1 = -2.742335390411667452936e-01f;
  constexpr float kQ2 = 2.159509375685829852307e-02f;

  if (std::isnan(x)) {
    return std::bit_cast<float>(std::uint32_t{0x7fc00000});
  }
  if (x >= kXmax) {
    return std::bit_cast<float>(std::uint32_t{0x7f800000});
  }
  if (x <= kXmin) {
    return 0.0f;
  }

  // k = rint(x * log2(e)), |k| <= 150: (q + 1.5*2^23) - 1.5*2^23 rounds to
  // the nearest integer, ties to even.
  const float q = x * kLog2e;
  const float k = (q + kRintMagic) - kRintMagic;

  // y = x - k*ln2 (numpy's third Cody-Waite term is zero, an exact no-op).
  float y = std::fmaf(k, kLn2High, x);
  y = std::fmaf(k, kLn2Low, y);

  float num = std::fmaf(kP5, y, kP4);
  num = std::fmaf(num, y, kP3);
  num = std::fmaf(num, y, kP2);
  num = std::fmaf(num, y, kP1);
  num = std::fmaf(num, y, kP0);
  float den = std::fmaf(kQ2, y, kQ1);
  den = std::fmaf(den, y, kQ0);
  const float poly = num / den;

  // poly * 2^k with one rounding, as scalef: poly is near [0.7, 1.5], so the
  // first product by 2^(k/2) is exact and normal, and the second rounds once
  // (to a denormal, or to +inf past the float range).
  const int ki = static_cast<int>(k);
  const int k1 = ki / 2;
  const int k2 = ki - k1;
  return (poly * numpy_expf_detail::pow2f(k1)) * numpy_expf_detail::pow2f(k2);
}

}  // namespace rlpool::myosuite
