// numpy_exp: float64 exp(x) bit-identical to numpy's float64 np.exp on x86-64
// CPUs with AVX512_SKX where numpy was built with SVML (the Linux x86-64
// wheels of numpy 2.x). There numpy's DOUBLE_exp
// (numpy/_core/src/umath/loops_exponent_log.dispatch.c.src, the
// NPY_CAN_LINK_SVML branch) sends arrays, 0-d arrays and numpy scalars
// through simd_exp_f64, which calls SVML's __svml_exp8_ha (only partially
// overlapping input/output or very large strides fall back to libm's exp,
// which this does not follow); numpy's own
// AVX512F_exp_DOUBLE is not compiled in such builds. The function below
// follows that SVML kernel as shipped in numpy's wheels: for |x| < 707.70327
// it rounds x*log2(e) down to a multiple of 1/16 with a round-toward-zero
// fused multiply-add, reduces r = x - kd*ln2 with two fused steps, evaluates
// a degree-6 polynomial and a 16-entry 2^(j/16) table (fused multiply-adds)
// and scales by 2^floor(kd) (vscalefpd); |x| >= 707.70327 goes through SVML's
// scalar fallback (a 64-entry 2^(j/64) table, plain SSE2 arithmetic, a
// split scaling for subnormal results), which saturates x > 709.78 to +inf
// and x < -745.13 to +0; a NaN comes back quieted with its sign and payload.
// The table entries are hi = RN(2^(j/64)) and lo = RN((2^(j/64) - hi)/hi);
// the 16-entry table is every fourth entry. Every fused multiply-add is an
// explicit std::fma and the rounding toward zero is emulated exactly, so the
// code needs a build that does not contract a*b+c by itself
// (-ffp-contract=off) and the default rounding mode. Other CPUs or builds
// give other references: without AVX512_SKX, or numpy built without SVML,
// numpy computes float64 exp with libm's exp or with its own AVX512F
// table kernel, whose results can differ from these in the last bit.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace rlpool::myosuite {

namespace numpy_exp_detail {

inline constexpr double kExp2Hi[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0,
    0x1.0874518759bc8p+0, 0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0,
    0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, 0x1.172b83c7d517bp+0,
    0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0,
    0x1.2d285a6e4030bp+0, 0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0,
    0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, 0x1.3dea64c123422p+0,
    0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0,
    0x1.56f4736b527dap+0, 0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0,
    0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, 0x1.6a09e667f3bcdp+0,
    0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0,
    0x1.868d99b4492edp+0, 0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0,
    0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, 0x1.9c49182a3f090p+0,
    0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0,
    0x1.bcc1e904bc1d2p+0, 0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0,
    0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, 0x1.d5818dcfba487p+0,
    0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0,
    0x1.fa7c1819e90d8p+0,};

inline constexpr double kExp2Lo[64] = {
    0.0, -0x1.160139cd8dc5dp-56, 0x1.cd2523567f613p-55,
    0x1.0f74e61e6c861p-57, 0x1.79aa65d837b6dp-54, 0x1.ebe3d702f9cd1p-60,
    -0x1.556522a2fbd0ep-54, -0x1.1c923b9d5f416p-54, -0x1.01b15eaa59348p-55,
    0x1.b898c3f1353bfp-55, 0x1.aecf73e3a2f60p-54, 0x1.a6f4144a6c38dp-55,
    0x1.68efde3a8a894p-54, 0x1.0472b981fe7f2p-55, 0x1.2f7e16d09ab31p-55,
    0x1.b3782720c0ab4p-55, 0x1.34d754db0abb6p-55, 0x1.fdd395dd3f84ap-55,
    -0x1.24aedcc4b5068p-54, -0x1.1d1e83e9436d2p-56, 0x1.59f48a72a4c6dp-55,
    -0x1.8a78f4817895bp-58, 0x1.363ed60c2ac11p-59, 0x1.ecce1daa10379p-57,
    0x1.690cebb7aafb0p-56, -0x1.f94340071a38ep-55, -0x1.8dec6bd0f385fp-56,
    0x1.3350518fdd78ep-54, 0x1.063e1e21c5409p-54, 0x1.432e62b64c035p-54,
    -0x1.c33c53bef4da8p-55, -0x1.3cedd78565858p-54, -0x1.3b3efbf5e2228p-54,
    -0x1.367efb86da9eep-57, -0x1.81f647e5a3ecfp-56, -0x1.619321e55e68ap-55,
    -0x1.b32dcb94da51dp-56, 0x1.5ebe1abd66c55p-57, -0x1.369b6f13b3734p-54,
    -0x1.4d450d872576ep-54, 0x1.db72fc1f0eab4p-55, 0x1.bf68359f35f44p-56,
    -0x1.da9b88b6c1e29p-58, -0x1.2434322f4f9aap-54, 0x1.1affc2b91ce27p-56,
    -0x1.7c50422622263p-55, -0x1.1bbd1d3bcbb15p-54, 0x1.469846e735ab3p-55,
    0x1.c1a7792cb3387p-55, -0x1.5c3d956dcaebap-58, -0x1.8d6f438ad9334p-57,
    0x1.4ffd70a5fddcdp-56, 0x1.36eae30af0cb3p-56, 0x1.4e08fd10959acp-55,
    0x1.76b2c6c921968p-57, -0x1.fad5d3ffffa6fp-55, 0x1.4a385a63d07a7p-56,
    0x1.e5a50d5c192acp-55, -0x1.2d52107b43e1fp-55, 0x1.4b604603a88d3p-56,
    -0x1.ff7128fd391f0p-55, 0x1.ec3bc41aa2008p-55, 0x1.a64a931d185eep-55,
    0x1.7893b4d91cd9dp-56,};

inline double from_bits(std::uint64_t b) { return std::bit_cast<double>(b); }
inline std::uint64_t to_bits(double d) { return std::bit_cast<std::uint64_t>(d); }

// 2^e as a double; e is a biased exponent field in [1, 2046].
inline double pow2_biased(std::uint64_t e) { return from_bits(e << 52); }

// SVML's scalar path for |x| >= 707.70327 (finite or infinite, not NaN).
inline double exp_large(double x) {
  constexpr double kOverflow = 0x1.62e42fefa39efp+9;    // above: +inf
  constexpr double kSubnormal = -0x1.6232bdd7abcd2p+9;  // below: split scaling
  constexpr double kUnderflow = -0x1.74910d52d3051p+9;  // below: +0
  constexpr double k64OverLn2 = 0x1.71547652b82fep+6;
  constexpr double kShift = 0x1.8p52;
  constexpr double kLn2By64Hi = 0x1.62e42fefa0000p-7;
  constexpr double kLn2By64Lo = 0x1.cf79abc9e3b3ap-46;
  constexpr double kA1 = 0x1.0p-1;
  constexpr double kA2 = 0x1.55555555548f8p-3;
  constexpr double kA3 = 0x1.5555555558fccp-5;
  constexpr double kA4 = 0x1.111123aaf20d3p-7;
  constexpr double kA5 = 0x1.6c16a1c2a3ffdp-10;
  constexpr double kTwoM60 = 0x1.0p-60;
  constexpr double kSplit = 0x1.8p32;

  const std::uint64_t bits = to_bits(x);
  if (((bits >> 52) & 0x7ff) == 0x7ff) {
    return (bits >> 63) != 0 ? 0.0 : x * x;
  }
  if (!(x <= kOverflow)) {
    return INFINITY;
  }
  if (x < kUnderflow) {
    return 0.0;
  }
  const double t = k64OverLn2 * x + kShift;
  const auto n = static_cast<std::uint32_t>(to_bits(t));
  const double kd = t - kShift;
  double r = x - kd * kLn2By64Hi;
  r = r - kd * kLn2By64Lo;
  const std::uint32_t j = n & 63;
  const double hi = kExp2Hi[j];
  double p = kA5 * r + kA4;
  p = p * r + kA3;
  p = p * r + kA2;
  p = p * r + kA1;
  p = p * r;
  p = p * r;
  p = p + r;
  p = p + kExp2Lo[j];
  p = p * hi;
  if (!(x < kSubnormal)) {
    p = p + hi;
    const std::uint64_t e = ((n >> 6) + 0x3ff) & 0x7ff;
    if (e <= 0x7fe) {
      return p * pow2_biased(e);
    }
    return p * pow2_biased((e - 1) & 0x7ff) * 2.0;
  }
  // Subnormal result: scale by 2^(m+60), round the sum to the subnormal grid
  // once through a split into a short head and a tail.
  const std::uint64_t e = ((n >> 6) + 0x43b) & 0x7ff;
  const double sc = pow2_biased(e);
  const double tail = p * sc;
  const double head = sc * hi;
  const double s = head + tail;
  if (e <= 50) {
    return s * kTwoM60;
  }
  const double lo = (head - s) + tail;
  const double v = s * kSplit;
  const double u = (s + v) - v;
  const double rest = lo + (s - u);
  return u * kTwoM60 + rest * kTwoM60;
}

}  // namespace numpy_exp_detail

inline double numpy_exp(double x) {
  namespace d = numpy_exp_detail;
  constexpr double kRareBound = 0x1.61da04cbafe44p+9;  // |x| >= this: exp_large
  constexpr double kLog2e = 0x1.71547652b82fep+0;
  // 1.5*2^48 + 1023: its unit in the last place is 1/16 and its low four
  // mantissa bits are zero.
  constexpr double kShift = 0x1.8000000003ff0p+48;
  constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
  constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
  constexpr double kC0 = 0x1.fffffffffff70p-1;
  constexpr double kC1 = 0x1.000000000d008p-1;
  constexpr double kC2 = 0x1.5555553939732p-3;
  constexpr double kC3 = 0x1.55557242d68fep-5;
  constexpr double kC4 = 0x1.1101cbbc265c0p-7;
  constexpr double kC5 = 0x1.7411836940c04p-10;

  if (std::isnan(x)) {
    return d::from_bits(d::to_bits(x) | 0x0008000000000000ULL);
  }
  if (std::fabs(x) >= kRareBound) {
    return d::exp_large(x);
  }
  // y = x*log2(e) + kShift rounded toward zero (the sum is positive, so this
  // is rounding down): round to nearest, then step down one ulp when the
  // exact sum lies below. kShift - y is exact, and the sign of the fused
  // x*log2(e) + (kShift - y) is the sign of the exact residual.
  double y = std::fma(x, kLog2e, kShift);
  if (std::fma(x, kLog2e, kShift - y) < 0.0) {
    y = d::from_bits(d::to_bits(y) - 1);
  }
  const double kd = y - kShift;  // multiple of 1/16, exact
  const std::uint64_t j = (d::to_bits(y) & 15) * 4;
  double r = std::fma(-kd, kLn2Hi, x);
  r = std::fma(-kLn2Lo, kd, r);
  r = d::from_bits(d::to_bits(r) & 0xbfffffffffffffffULL);
  const double r2 = r * r;
  double a = std::fma(kC5, r, kC4);
  const double b = std::fma(kC3, r, kC2);
  const double c = std::fma(kC1, r, kC0);
  a = std::fma(a, r2, b);
  a = std::fma(a, r2, c);
  double q = std::fma(a, r, d::kExp2Lo[j]);
  q = std::fma(q, d::kExp2Hi[j], d::kExp2Hi[j]);
  // q * 2^floor(kd): floor(kd) is in [-1022, 1021] here and the product is
  // normal, so a multiplication by the exact power of two is exact.
  const auto m = static_cast<std::int64_t>(std::floor(kd));
  return q * d::pow2_biased(static_cast<std::uint64_t>(m + 1023));
}

}  // namespace rlpool::myosuite
