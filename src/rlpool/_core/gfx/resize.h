// Resizing 8-bit images, in the two ways the engine and envs need.
//
// Resizer reproduces OpenCV's cv::resize for 8-bit images pixel for pixel:
// INTER_AREA (what gymnasium's AtariPreprocessing and EnvPool use) and
// INTER_LINEAR. Written from OpenCV's documented algorithm and the arithmetic
// its uint8 code paths perform; no OpenCV code or dependency. Envs resize
// their observations with it. The source is an interleaved H x W x cn uint8
// image; the output is planar (one dst_h x dst_w plane per channel), as a
// channel-first observation needs.
//
// resize_rgb resizes a rendered RGB frame to the size a caller asked for
// (render(), pixel observations): bilinear in float with OpenCV's pixel
// centres, rounded half away from zero, interleaved in and out. It is not
// Resizer's INTER_LINEAR (11-bit fixed-point weights, OpenCV's rounding): on
// random images about one value in eight differs, by one. Each keeps its own
// arithmetic, so rendered frames and observations stay what they are.
//
// Resizer's exactness notes (they decide every rounding):
// - INTER_AREA, non-integer ratio: per-source-row horizontal sums in float,
//   then per-output-row vertical sums in float, each in OpenCV's term order,
//   rounded half to even. The compiler must not contract a*b+c into FMA
//   (the extension is built with -ffp-contract=off).
// - INTER_AREA, integer ratio: exact integer block sums, then OpenCV's rounding.
// - INTER_LINEAR: 11-bit fixed-point weights; the vertical pass rounds the way
//   OpenCV's 128-bit SIMD kernel does, for every element of a row.
#pragma once

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RLPOOL_RESIZE_X86 1
#endif

namespace rlpool {

// Whether the CPU has AVX2 (checked at run time: the build targets baseline
// x86-64).
inline bool cpu_has_avx2() {
  static const bool ok = [] {
#if defined(RLPOOL_RESIZE_X86)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
  }();
  return ok;
}

class Resizer {
 public:
  enum class Method { kArea, kLinear };

  // avx2: whether the AVX2 kernels may run where the CPU has them (false
  // forces the SSE2/scalar ones, for tests); the results are the same.
  Resizer(int src_h, int src_w, int dst_h, int dst_w, int cn, Method method, bool avx2 = true)
      : src_h_(src_h), src_w_(src_w), dst_h_(dst_h), dst_w_(dst_w), cn_(cn) {
    if (src_h <= 0 || src_w <= 0 || dst_h <= 0 || dst_w <= 0 || cn <= 0) {
      throw std::invalid_argument("resize sizes must be positive");
    }
    if (dst_h == src_h && dst_w == src_w) {
      kind_ = Kind::kCopy;
      return;
    }
    // cv::resize: inv_scale = dst / src, scale = 1 / inv_scale.
    const double inv_sx = static_cast<double>(dst_w) / src_w;
    const double inv_sy = static_cast<double>(dst_h) / src_h;
    const double sx = 1.0 / inv_sx, sy = 1.0 / inv_sy;
    const int isx = static_cast<int>(std::lrint(sx)), isy = static_cast<int>(std::lrint(sy));
    const bool area_fast = std::abs(sx - isx) < DBL_EPSILON && std::abs(sy - isy) < DBL_EPSILON;
    bool area = method == Method::kArea;
    // OpenCV: an exact 2x2 linear downscale is the same as the area average.
    if (!area && area_fast && isx == 2 && isy == 2) area = true;
    if (area && sx >= 1 && sy >= 1) {
      if (area_fast) {
        kind_ = Kind::kAreaFast;
        fast_sx_ = isx;
        fast_sy_ = isy;
      } else {
        kind_ = Kind::kArea;
        std::vector<Tap> x_taps, y_taps;
        build_area_taps(src_w, dst_w, sx, x_taps);
        build_area_taps(src_h, dst_h, sy, y_taps);
        wpad_ = (dst_w + 7) / 8 * 8;
        pad_taps(x_taps, wpad_, ntx_, xsrc_, xw_);
        pad_taps(y_taps, dst_h, nty_, ysrc_, yw_);
        hbuf_.assign(static_cast<std::size_t>((src_h + 7) / 8 * 8) * wpad_, 0.0f);
        tcol_.assign(8 * static_cast<std::size_t>(src_w), 0.0f);
        out_.assign(static_cast<std::size_t>(dst_h) * dst_w * cn, 0);
        // The output rows that read a source row are consecutive.
        out_first_.assign(static_cast<std::size_t>(src_h), dst_h);
        out_last_.assign(static_cast<std::size_t>(src_h), -1);
        for (const auto& t : y_taps) {
          const std::size_t s = static_cast<std::size_t>(t.s);
          out_first_[s] = std::min(out_first_[s], t.d);
          out_last_[s] = std::max(out_last_[s], t.d);
        }
        for (int r = 0; r < src_h; ++r) {  // read by none (not seen): say row 0, to keep the range valid
          const std::size_t i = static_cast<std::size_t>(r);
          if (out_first_[i] > out_last_[i]) out_first_[i] = out_last_[i] = 0;
        }
        src_mask_.assign(static_cast<std::size_t>((src_h + 63) / 64), 0);
        out_mask_.assign(static_cast<std::size_t>((dst_h + 63) / 64), 0);
        avx2_ = avx2 && cpu_has_avx2() && cn == 1;
        row_avx2_ = avx2_ && build_row_tables();
      }
      return;
    }
    // Linear weights (also OpenCV's stand-in for INTER_AREA when upscaling).
    kind_ = Kind::kLinear;
    build_linear(src_w, dst_w, sx, inv_sx, area, xofs_, xalpha_, &xmax_);
    int unused = 0;
    build_linear(src_h, dst_h, sy, inv_sy, area, yofs_, ybeta_, &unused);
    hrow_.assign(2 * static_cast<std::size_t>(dst_w) * cn, 0);
  }

  int cn() const { return cn_; }

  // src: src_h x src_w x cn interleaved. dst: cn planes of dst_h x dst_w.
  // row_dirty (optional, src_h flags): the rows of src that may differ from the
  // previous call's src; the others are promised equal, and the area kernel
  // then reuses what it computed from them (same values, less work).
  void run(const std::uint8_t* src, std::uint8_t* dst, const std::uint8_t* row_dirty = nullptr) {
    switch (kind_) {
      case Kind::kCopy:
        return run_copy(src, dst);
      case Kind::kArea:
        // hbuf_ holds one channel at a time: reuse needs a single channel.
        return run_area(src, dst, cache_valid_ && cn_ == 1 ? row_dirty : nullptr);
      case Kind::kAreaFast:
        return run_area_fast(src, dst);
      case Kind::kLinear:
        return run_linear(src, dst);
    }
  }

 private:
  enum class Kind { kCopy, kArea, kAreaFast, kLinear };
  struct Tap {
    int d, s;
    float w;
  };

  static std::uint8_t saturate_round(float v) {
    // cvRound (half to even under the default rounding mode), then clamp.
#if defined(__SSE2__)
    const int r = _mm_cvtss_si32(_mm_set_ss(v));
#else
    const long r = std::lrint(v);
#endif
    return static_cast<std::uint8_t>(std::clamp<long>(r, 0, 255));
  }

  // saturate_round over n values.
  static void saturate_round(const float* v, std::uint8_t* out, std::size_t n) {
    std::size_t i = 0;
#if defined(__SSE2__)
    // cvtps2dq rounds half to even (default MXCSR); the packs saturate to 0..255.
    for (; i + 16 <= n; i += 16) {
      const __m128i a = _mm_cvtps_epi32(_mm_loadu_ps(v + i));
      const __m128i b = _mm_cvtps_epi32(_mm_loadu_ps(v + i + 4));
      const __m128i c = _mm_cvtps_epi32(_mm_loadu_ps(v + i + 8));
      const __m128i d = _mm_cvtps_epi32(_mm_loadu_ps(v + i + 12));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                       _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
    }
#endif
    for (; i < n; ++i) out[i] = saturate_round(v[i]);
  }

  // OpenCV's computeResizeAreaTab: source cells overlapping each output cell,
  // weighted by the overlapped fraction (in double, stored as float).
  static void build_area_taps(int ssize, int dsize, double scale, std::vector<Tap>& tab) {
    tab.clear();
    for (int dx = 0; dx < dsize; ++dx) {
      const double fsx1 = dx * scale;
      const double fsx2 = fsx1 + scale;
      const double cell = std::min(scale, ssize - fsx1);
      int sx1 = static_cast<int>(std::ceil(fsx1));
      int sx2 = static_cast<int>(std::floor(fsx2));
      sx2 = std::min(sx2, ssize - 1);
      sx1 = std::min(sx1, sx2);
      if (sx1 - fsx1 > 1e-3) tab.push_back({dx, sx1 - 1, static_cast<float>((sx1 - fsx1) / cell)});
      for (int sx = sx1; sx < sx2; ++sx) tab.push_back({dx, sx, static_cast<float>(1.0 / cell)});
      if (fsx2 - sx2 > 1e-3) {
        tab.push_back({dx, sx2, static_cast<float>(std::min(std::min(fsx2 - sx2, 1.0), cell) / cell)});
      }
    }
  }

  // Taps as n arrays of `count` entries, tap-major: tap k of output d at
  // [k * count + d]. Outputs with fewer taps (and padding outputs >= the real
  // ones) get weight-0 taps; a zero product adds +0.0f and changes nothing, so
  // every output runs the same straight-line loop.
  static void pad_taps(const std::vector<Tap>& taps, int count, int& n, std::vector<int>& src,
                       std::vector<float>& w) {
    std::vector<int> per(static_cast<std::size_t>(count), 0);
    for (const auto& t : taps) ++per[static_cast<std::size_t>(t.d)];
    n = *std::max_element(per.begin(), per.end());
    src.assign(static_cast<std::size_t>(n) * count, 0);
    w.assign(static_cast<std::size_t>(n) * count, 0.0f);
    std::fill(per.begin(), per.end(), 0);
    for (const auto& t : taps) {  // ordered by output, then source
      const std::size_t k = static_cast<std::size_t>(per[static_cast<std::size_t>(t.d)]++);
      src[k * count + t.d] = t.s;
      w[k * count + t.d] = t.w;
    }
    for (int d = 0; d < count; ++d) {
      for (int k = std::max(per[static_cast<std::size_t>(d)], 1); k < n; ++k) {
        src[static_cast<std::size_t>(k) * count + d] = src[static_cast<std::size_t>(k - 1) * count + d];
      }
    }
  }

  static void build_linear(int ssize, int dsize, double scale, double inv_scale, bool area_mode,
                           std::vector<int>& ofs, std::vector<std::int16_t>& coef, int* xmax) {
    ofs.assign(static_cast<std::size_t>(dsize), 0);
    coef.assign(2 * static_cast<std::size_t>(dsize), 0);
    *xmax = dsize;
    for (int d = 0; d < dsize; ++d) {
      float f;
      int s;
      if (!area_mode) {
        f = static_cast<float>((d + 0.5) * scale - 0.5);
        s = static_cast<int>(std::floor(f));
        f -= static_cast<float>(s);
      } else {
        s = static_cast<int>(std::floor(d * scale));
        f = static_cast<float>((d + 1) - (s + 1) * inv_scale);
        f = f <= 0 ? 0.f : f - static_cast<float>(std::floor(f));
      }
      if (s < 0) {
        f = 0;
        s = 0;
      }
      if (s + 1 >= ssize) {
        *xmax = std::min(*xmax, d);
        if (s >= ssize - 1) {
          f = 0;
          s = ssize - 1;
        }
      }
      ofs[static_cast<std::size_t>(d)] = s;
      coef[2 * static_cast<std::size_t>(d)] = saturate_short((1.f - f) * 2048);
      coef[2 * static_cast<std::size_t>(d) + 1] = saturate_short(f * 2048);
    }
  }

  static std::int16_t saturate_short(float v) {
    return static_cast<std::int16_t>(std::clamp<long>(std::lrint(v), -32768, 32767));
  }

  void run_copy(const std::uint8_t* src, std::uint8_t* dst) const {
    const std::size_t plane = static_cast<std::size_t>(src_h_) * src_w_;
    if (cn_ == 1) {
      std::memcpy(dst, src, plane);
      return;
    }
    for (std::size_t i = 0; i < plane; ++i) {
      for (int c = 0; c < cn_; ++c) dst[c * plane + i] = src[i * cn_ + c];
    }
  }

  // Tables for horizontal_row_avx2: xsrc_ and xw_ rearranged per group of 8
  // outputs, with source columns relative to 16-byte windows. Group g (outputs
  // 8*g .. 8*g+7, two 128-bit lanes of 4) reads the 16 source bytes at
  // rbase_[2*g + lane]. Tap k of output 8*g + 4*lane + j: its source byte is at
  // rshuf_[(g*ntx_ + k)*32 + 16*lane + 4*j] in that window (the 3 bytes above
  // it are 0x80, so pshufb zero-extends it to 32 bits), its weight is
  // rw_[(g*ntx_ + k)*8 + 4*lane + j]. Padding outputs get byte 0, weight 0.
  // False if some lane's taps span more than 16 bytes (blocks of rows then).
  bool build_row_tables() {
    if (src_w_ < 16) return false;
    const std::size_t wp = static_cast<std::size_t>(wpad_), groups = wp / 8, nt = static_cast<std::size_t>(ntx_);
    rbase_.assign(2 * groups, 0);
    rshuf_.assign(groups * nt * 32, 0x80);
    rw_.assign(groups * nt * 8, 0.0f);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::size_t lane = 0; lane < 2; ++lane) {
        int lo = src_w_, hi = -1;
        for (std::size_t j = 0; j < 4; ++j) {
          const std::size_t d = 8 * g + 4 * lane + j;
          if (d >= static_cast<std::size_t>(dst_w_)) continue;
          for (std::size_t k = 0; k < nt; ++k) {
            lo = std::min(lo, xsrc_[k * wp + d]);
            hi = std::max(hi, xsrc_[k * wp + d]);
          }
        }
        if (hi >= 0 && hi - lo >= 16) return false;
        const int base = hi < 0 ? 0 : std::min(lo, src_w_ - 16);  // the 16-byte load stays in the row
        rbase_[2 * g + lane] = base;
        for (std::size_t j = 0; j < 4; ++j) {
          const std::size_t d = 8 * g + 4 * lane + j;
          for (std::size_t k = 0; k < nt; ++k) {
            const std::size_t t = g * nt + k;
            const bool real = d < static_cast<std::size_t>(dst_w_);
            rshuf_[t * 32 + 16 * lane + 4 * j] = real ? static_cast<std::uint8_t>(xsrc_[k * wp + d] - base) : 0;
            rw_[t * 8 + 4 * lane + j] = real ? xw_[k * wp + d] : 0.0f;
          }
        }
      }
    }
    return true;
  }

  // INTER_AREA, non-integer ratio. Each output value is computed with exactly
  // OpenCV's float operations in OpenCV's order; only the data layout differs.
  // Horizontal pass: hbuf_ row r, column d = sum over d's taps (in source
  // order) of float(src[r][s]) * w -- the first product assigned, the next
  // ones added (OpenCV adds to a zeroed buffer, and 0 + p == p). Several source
  // rows go through at once (4 with SSE2, 8 with AVX2): the rows are transposed
  // into column-major floats (tcol_), each tap is a multiply-add with a
  // broadcast weight, and transposes put the results back in rows. With AVX2
  // and taps that fit the windows of build_row_tables, rows go one at a time
  // (horizontal_row_avx2): no transposes, and only the changed rows.
  // Vertical pass: an output row's first source row is assigned, the others
  // added in order; then round half to even and saturate.
  void run_area(const std::uint8_t* src, std::uint8_t* dst, const std::uint8_t* row_dirty) {
    const std::size_t plane = static_cast<std::size_t>(dst_h_) * dst_w_;
    const int block = avx2_ ? 8 : 4;
    mark_dirty(row_dirty);
    for (int c = 0; c < cn_; ++c) {
      if (row_avx2_) {
        horizontal_rows(src);
      } else {
        for (int r0 = 0; r0 < src_h_; r0 += block) {
          // r0 is a multiple of the block size, so the block's bits share a word.
          const auto row = static_cast<unsigned>(r0);
          const std::uint64_t bits = src_mask_[row / 64] >> (row % 64);
          if ((bits & ((1u << block) - 1)) == 0) continue;
#if defined(RLPOOL_RESIZE_X86)
          if (avx2_) {
            horizontal_block8_avx2(src, r0);
            continue;
          }
#endif
          horizontal_block(src, c, r0);
        }
      }
      // Only the output rows that read a changed source row (the other rows of
      // a recomputed block got the same horizontal sums as before); out_ still
      // holds the rest.
      vertical_rows(out_.data() + static_cast<std::size_t>(c) * plane);
    }
    std::memcpy(dst, out_.data(), out_.size());
    cache_valid_ = true;
  }

  // src_mask_ bit r: source row r is flagged (every row when row_dirty is
  // null); out_mask_ bit dy: output row dy reads a flagged row. Bit masks
  // instead of a test per row: those branches mispredicted.
  // (Unsigned indices: signed / 64 would be an idiv under -Os.)
  void mark_dirty(const std::uint8_t* row_dirty) {
    for (auto& w : src_mask_) w = 0;  // a few words: std::fill is a call under -Os
    for (auto& w : out_mask_) w = 0;
    const auto h = static_cast<unsigned>(src_h_);
    if (row_dirty == nullptr) {
      for (unsigned r = 0; r < h; ++r) set_bit(src_mask_, r);
      for (unsigned d = 0; d < static_cast<unsigned>(dst_h_); ++d) set_bit(out_mask_, d);
      return;
    }
    unsigned r = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; r + 16 <= h; r += 16) {  // r % 64 is a multiple of 16: the 16 bits share a word
      const __m128i f = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row_dirty + r));
      const auto bits = static_cast<std::uint64_t>(~_mm_movemask_epi8(_mm_cmpeq_epi8(f, zero)) & 0xFFFF);
      src_mask_[r / 64] |= bits << (r % 64);
    }
#endif
    for (; r < h; ++r) src_mask_[r / 64] |= static_cast<std::uint64_t>(row_dirty[r] != 0) << (r % 64);
    for_each_bit(src_mask_, [&](int row) {
      // One or two output rows read a source row: both ends are set without a
      // loop (its varying trip count mispredicted), then any rows between.
      const auto first = static_cast<unsigned>(out_first_[static_cast<std::size_t>(row)]);
      const auto last = static_cast<unsigned>(out_last_[static_cast<std::size_t>(row)]);
      set_bit(out_mask_, first);
      set_bit(out_mask_, last);
      for (unsigned d = first + 1; d < last; ++d) set_bit(out_mask_, d);
    });
  }

  // The extension is built with -Os (nanobind's default), which leaves small
  // helpers like these out of line unless forced.
  __attribute__((always_inline)) static void set_bit(std::vector<std::uint64_t>& mask, unsigned i) {
    mask[i / 64] |= std::uint64_t{1} << (i % 64);
  }

  // f(i) for each set bit i, in increasing order.
  template <typename F>
  __attribute__((always_inline)) static void for_each_bit(const std::vector<std::uint64_t>& mask, F&& f) {
    for (std::size_t w = 0; w < mask.size(); ++w) {
      for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
        f(static_cast<int>(64 * w) + std::countr_zero(bits));
      }
    }
  }

  // The flagged rows through horizontal_row_avx2 (only when row_avx2_, which
  // needs x86), with the common tap counts fixed at compile time.
  void horizontal_rows([[maybe_unused]] const std::uint8_t* src) {
#if defined(RLPOOL_RESIZE_X86)
    switch (ntx_) {
      case 2:
        return for_each_bit(src_mask_, [&](int r) { horizontal_row_avx2<2>(src, r); });
      case 3:
        return for_each_bit(src_mask_, [&](int r) { horizontal_row_avx2<3>(src, r); });
      case 4:
        return for_each_bit(src_mask_, [&](int r) { horizontal_row_avx2<4>(src, r); });
      default:
        return for_each_bit(src_mask_, [&](int r) { horizontal_row_avx2<0>(src, r); });
    }
#endif
  }

  // The output rows flagged in out_mask_, from hbuf_ into out (one plane).
  void vertical_rows(std::uint8_t* out) {
#if defined(RLPOOL_RESIZE_X86)
    if (avx2_) {
      switch (nty_) {
        case 3:
          return for_each_bit(out_mask_, [&](int dy) { vertical_row_avx2<3>(dy, out); });
        case 4:
          return for_each_bit(out_mask_, [&](int dy) { vertical_row_avx2<4>(dy, out); });
        default:
          return for_each_bit(out_mask_, [&](int dy) { vertical_row_avx2<0>(dy, out); });
      }
    }
#endif
    for_each_bit(out_mask_, [&](int dy) { vertical_row(dy, out); });
  }

  // Source row r, clamped to the image (padding rows repeat the last one).
  // Inlined by force: under -Os (the extension's flags) it was a call per row
  // load in the block kernels.
  __attribute__((always_inline)) const std::uint8_t* src_row(const std::uint8_t* src, int r) const {
    return src + static_cast<std::size_t>(std::min(r, src_h_ - 1)) * src_w_ * cn_;
  }

  void horizontal_block(const std::uint8_t* src, int c, int r0) {
    const std::size_t wp = static_cast<std::size_t>(wpad_);
#if defined(RLPOOL_RESIZE_X86)
    float* t = tcol_.data();  // t[4 * x + k] = src[r0 + k][x]
    int x = 0;
    if (cn_ == 1) {
      const __m128i zero = _mm_setzero_si128();
      for (; x + 16 <= src_w_; x += 16) {
        __m128 v[4][4];  // [row][group of 4 columns]
        for (int k = 0; k < 4; ++k) {
          const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src_row(src, r0 + k) + x));
          const __m128i lo = _mm_unpacklo_epi8(b, zero), hi = _mm_unpackhi_epi8(b, zero);
          v[k][0] = _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero));
          v[k][1] = _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero));
          v[k][2] = _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero));
          v[k][3] = _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero));
        }
        for (int g = 0; g < 4; ++g) {
          __m128 a0 = v[0][g], a1 = v[1][g], a2 = v[2][g], a3 = v[3][g];
          _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
          float* o = t + 4 * static_cast<std::size_t>(x + 4 * g);
          _mm_storeu_ps(o, a0);
          _mm_storeu_ps(o + 4, a1);
          _mm_storeu_ps(o + 8, a2);
          _mm_storeu_ps(o + 12, a3);
        }
      }
    }
    for (; x < src_w_; ++x) {
      for (int k = 0; k < 4; ++k) t[4 * x + k] = static_cast<float>(src_row(src, r0 + k)[x * cn_ + c]);
    }
    for (int d0 = 0; d0 < wpad_; d0 += 4) {
      __m128 acc[4];
      for (int k = 0; k < 4; ++k) {
        const std::size_t d = static_cast<std::size_t>(d0 + k);
        acc[k] = _mm_mul_ps(_mm_loadu_ps(t + 4 * static_cast<std::size_t>(xsrc_[d])), _mm_set1_ps(xw_[d]));
        for (int j = 1; j < ntx_; ++j) {
          const std::size_t i = static_cast<std::size_t>(j) * wp + d;
          acc[k] = _mm_add_ps(acc[k], _mm_mul_ps(_mm_loadu_ps(t + 4 * static_cast<std::size_t>(xsrc_[i])),
                                                 _mm_set1_ps(xw_[i])));
        }
      }
      _MM_TRANSPOSE4_PS(acc[0], acc[1], acc[2], acc[3]);
      for (int k = 0; k < 4; ++k) {
        _mm_storeu_ps(hbuf_.data() + static_cast<std::size_t>(r0 + k) * wp + static_cast<std::size_t>(d0), acc[k]);
      }
    }
#else
    for (int k = 0; k < 4; ++k) {
      const std::uint8_t* s = src_row(src, r0 + k) + c;
      float* h = hbuf_.data() + static_cast<std::size_t>(r0 + k) * wp;
      for (std::size_t d = 0; d < wp; ++d) {
        float v = static_cast<float>(s[xsrc_[d] * cn_]) * xw_[d];
        for (int j = 1; j < ntx_; ++j) {
          const std::size_t i = static_cast<std::size_t>(j) * wp + d;
          v = v + static_cast<float>(s[xsrc_[i] * cn_]) * xw_[i];
        }
        h[d] = v;
      }
    }
#endif
  }

  void vertical_row(int dy, std::uint8_t* out) {
    const std::size_t wp = static_cast<std::size_t>(wpad_);
    const std::size_t h = static_cast<std::size_t>(dst_h_);
    float acc[kMaxRowFloats];
    for (std::size_t d0 = 0; d0 < wp; d0 += kMaxRowFloats) {
      const std::size_t n = std::min(wp - d0, kMaxRowFloats);
      {
        const float beta = yw_[static_cast<std::size_t>(dy)];
        const float* row = hbuf_.data() + static_cast<std::size_t>(ysrc_[static_cast<std::size_t>(dy)]) * wp + d0;
        for (std::size_t d = 0; d < n; ++d) acc[d] = beta * row[d];
      }
      for (int k = 1; k < nty_; ++k) {
        const std::size_t i = static_cast<std::size_t>(k) * h + static_cast<std::size_t>(dy);
        const float beta = yw_[i];
        const float* row = hbuf_.data() + static_cast<std::size_t>(ysrc_[i]) * wp + d0;
        for (std::size_t d = 0; d < n; ++d) acc[d] = acc[d] + beta * row[d];
      }
      const std::size_t real = d0 >= static_cast<std::size_t>(dst_w_) ? 0 : std::min(n, dst_w_ - d0);
      saturate_round(acc, out + static_cast<std::size_t>(dy) * dst_w_ + d0, real);
    }
  }

#if defined(RLPOOL_RESIZE_X86)
  __attribute__((target("avx2"), always_inline)) static inline void transpose8(__m256* v) {
    const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
    const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
    const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
    const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    v[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    v[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    v[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    v[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    v[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    v[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    v[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    v[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
  }

  // One source row's horizontal sums (gray only), 8 outputs per vector: each
  // tap's source bytes picked out of two 16-byte windows by pshufb, then the
  // same products and sums as horizontal_block.
  // kTaps: ntx_ known at compile time (the tap loop unrolls, also at -Os with
  // the pragma), or 0.
  template <int kTaps>
  __attribute__((target("avx2"))) void horizontal_row_avx2(const std::uint8_t* src, int r) {
    const std::size_t wp = static_cast<std::size_t>(wpad_);
    const std::size_t nt = kTaps > 0 ? static_cast<std::size_t>(kTaps) : static_cast<std::size_t>(ntx_);
    const std::uint8_t* s = src + static_cast<std::size_t>(r) * src_w_;
    float* h = hbuf_.data() + static_cast<std::size_t>(r) * wp;
    const std::uint8_t* shuf = rshuf_.data();
    const float* w = rw_.data();
    for (std::size_t g = 0; g < wp / 8; ++g, shuf += 32 * nt, w += 8 * nt) {
      const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + rbase_[2 * g]));
      const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + rbase_[2 * g + 1]));
      const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
      __m256 acc = _mm256_setzero_ps();
#pragma GCC unroll 8
      for (std::size_t k = 0; k < nt; ++k) {
        const __m256i idx = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shuf + 32 * k));
        const __m256 p = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, idx)), _mm256_loadu_ps(w + 8 * k));
        acc = k == 0 ? p : _mm256_add_ps(acc, p);  // the first product assigned, as OpenCV's 0 + p
      }
      _mm256_storeu_ps(h + 8 * g, acc);
    }
  }

  // horizontal_block with 8 rows per vector (gray only).
  __attribute__((target("avx2"))) void horizontal_block8_avx2(const std::uint8_t* src, int r0) {
    float* t = tcol_.data();  // t[8 * x + k] = src[r0 + k][x]
    int x = 0;
    for (; x + 8 <= src_w_; x += 8) {
      __m256 v[8];
      for (int k = 0; k < 8; ++k) {
        const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src_row(src, r0 + k) + x));
        v[k] = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
      }
      transpose8(v);
      for (int j = 0; j < 8; ++j) _mm256_storeu_ps(t + 8 * static_cast<std::size_t>(x + j), v[j]);
    }
    for (; x < src_w_; ++x) {
      for (int k = 0; k < 8; ++k) t[8 * x + k] = static_cast<float>(src_row(src, r0 + k)[x]);
    }
    const std::size_t wp = static_cast<std::size_t>(wpad_);
    for (std::size_t d0 = 0; d0 < wp; d0 += 8) {
      __m256 acc[8];
      for (std::size_t k = 0; k < 8; ++k) {
        const std::size_t d = d0 + k;
        acc[k] = _mm256_mul_ps(_mm256_loadu_ps(t + 8 * static_cast<std::size_t>(xsrc_[d])), _mm256_broadcast_ss(&xw_[d]));
        for (int j = 1; j < ntx_; ++j) {
          const std::size_t i = static_cast<std::size_t>(j) * wp + d;
          acc[k] = _mm256_add_ps(acc[k], _mm256_mul_ps(_mm256_loadu_ps(t + 8 * static_cast<std::size_t>(xsrc_[i])),
                                                       _mm256_broadcast_ss(&xw_[i])));
        }
      }
      transpose8(acc);
      for (int k = 0; k < 8; ++k) {
        _mm256_storeu_ps(hbuf_.data() + static_cast<std::size_t>(r0 + k) * wp + d0, acc[k]);
      }
    }
  }

  // vertical_row with the rounding done in registers: 8 outputs at a time,
  // cvtps2dq (half to even, as saturate_round) and saturating packs. kTaps:
  // nty_ known at compile time (row pointers and weights stay in registers;
  // the byte stores may alias anything, so members would be reloaded), or 0.
  // The unroll pragmas: the extension is built with -Os, which would not.
  template <int kTaps>
  __attribute__((target("avx2"))) void vertical_row_avx2(int dy, std::uint8_t* out) {
    const std::size_t wp = static_cast<std::size_t>(wpad_);
    const std::size_t h = static_cast<std::size_t>(dst_h_);
    const std::size_t w = static_cast<std::size_t>(dst_w_);
    const std::size_t nt = kTaps > 0 ? static_cast<std::size_t>(kTaps) : static_cast<std::size_t>(nty_);
    std::uint8_t* o = out + static_cast<std::size_t>(dy) * w;
    const float* hb = hbuf_.data();
    const int* ys = ysrc_.data() + dy;
    const float* yw = yw_.data() + dy;
    constexpr std::size_t kRegs = kTaps > 0 ? static_cast<std::size_t>(kTaps) : 1;
    const float* rows[kRegs];
    __m256 betas[kRegs];
    if constexpr (kTaps > 0) {
#pragma GCC unroll 8
      for (std::size_t k = 0; k < kRegs; ++k) {
        rows[k] = hb + static_cast<std::size_t>(ys[k * h]) * wp;
        betas[k] = _mm256_broadcast_ss(yw + k * h);
      }
    }
    for (std::size_t d = 0; d < w; d += 8) {
      __m256 a = _mm256_setzero_ps();
#pragma GCC unroll 8
      for (std::size_t k = 0; k < nt; ++k) {
        __m256 p;
        if constexpr (kTaps > 0) {
          p = _mm256_mul_ps(betas[k], _mm256_loadu_ps(rows[k] + d));
        } else {
          p = _mm256_mul_ps(_mm256_broadcast_ss(yw + k * h),
                            _mm256_loadu_ps(hb + static_cast<std::size_t>(ys[k * h]) * wp + d));
        }
        a = k == 0 ? p : _mm256_add_ps(a, p);  // the first product assigned
      }
      const __m256i n = _mm256_cvtps_epi32(a);
      const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1));
      const __m128i bytes = _mm_packus_epi16(words, words);
      if (d + 8 <= w) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(o + d), bytes);
      } else {  // the row's last, partial group: no write past the row
        alignas(16) std::uint8_t tail[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(tail), bytes);
        std::memcpy(o + d, tail, w - d);
      }
    }
  }
#endif

  void run_area_fast(const std::uint8_t* src, std::uint8_t* dst) const {
    const int area = fast_sx_ * fast_sy_;
    const float scale = 1.f / static_cast<float>(area);
    const std::size_t plane = static_cast<std::size_t>(dst_h_) * dst_w_;
    const std::size_t row_stride = static_cast<std::size_t>(src_w_) * cn_;
    for (int c = 0; c < cn_; ++c) {
      std::uint8_t* out = dst + static_cast<std::size_t>(c) * plane;
      for (int dy = 0; dy < dst_h_; ++dy) {
        for (int dx = 0; dx < dst_w_; ++dx) {
          int sum = 0;
          for (int yy = 0; yy < fast_sy_; ++yy) {
            const std::uint8_t* s = src + (static_cast<std::size_t>(dy) * fast_sy_ + yy) * row_stride +
                                    static_cast<std::size_t>(dx) * fast_sx_ * cn_ + c;
            for (int xx = 0; xx < fast_sx_; ++xx) sum += s[xx * cn_];
          }
          std::uint8_t v;
          if (area == 4) {
            v = static_cast<std::uint8_t>((sum + 2) >> 2);  // OpenCV's 2x2 kernel rounds half up
          } else {
            v = saturate_round(static_cast<float>(sum) * scale);
          }
          out[static_cast<std::size_t>(dy) * dst_w_ + dx] = v;
        }
      }
    }
  }

  void run_linear(const std::uint8_t* src, std::uint8_t* dst) {
    const int width = dst_w_ * cn_;
    const std::size_t plane = static_cast<std::size_t>(dst_h_) * dst_w_;
    const std::size_t row_stride = static_cast<std::size_t>(src_w_) * cn_;
    std::int32_t* r0 = hrow_.data();
    std::int32_t* r1 = hrow_.data() + width;
    int have0 = -1, have1 = -1;  // source rows currently in r0 / r1
    for (int dy = 0; dy < dst_h_; ++dy) {
      const int sy0 = yofs_[static_cast<std::size_t>(dy)];
      const int ya = std::clamp(sy0, 0, src_h_ - 1);
      const int yb = std::clamp(sy0 + 1, 0, src_h_ - 1);
      if (have0 != ya) {
        if (have1 == ya) {
          std::swap(r0, r1);
          std::swap(have0, have1);
        } else {
          hresize(src + static_cast<std::size_t>(ya) * row_stride, r0);
          have0 = ya;
        }
      }
      if (have1 != yb) {
        hresize(src + static_cast<std::size_t>(yb) * row_stride, r1);
        have1 = yb;
      }
      const std::int32_t b0 = ybeta_[2 * static_cast<std::size_t>(dy)];
      const std::int32_t b1 = ybeta_[2 * static_cast<std::size_t>(dy) + 1];
      for (int e = 0; e < width; ++e) {
        // (S >> 4) * b >> 16 per row (16-bit multiply-high), then (sum + 2) >> 2:
        // OpenCV's vector arithmetic, which its uint8 kernel applies to every
        // element of the row, the last ones (width % 8) included. (A scalar
        // (S0*b0 + S1*b1 + 2^21) >> 22 for those was off by one now and then:
        // 7 pixels of a 264 x 631 frame.)
        const std::int32_t a0 = ((r0[e] >> 4) * b0) >> 16;
        const std::int32_t a1 = ((r1[e] >> 4) * b1) >> 16;
        const std::int32_t v = (a0 + a1 + 2) >> 2;
        const int dx = e / cn_, c = e % cn_;
        dst[static_cast<std::size_t>(c) * plane + static_cast<std::size_t>(dy) * dst_w_ + dx] =
            static_cast<std::uint8_t>(std::clamp(v, 0, 255));
      }
    }
  }

  void hresize(const std::uint8_t* s, std::int32_t* d) const {
    for (int dx = 0; dx < dst_w_; ++dx) {
      const int sx = xofs_[static_cast<std::size_t>(dx)] * cn_;
      const std::int32_t a0 = xalpha_[2 * static_cast<std::size_t>(dx)];
      const std::int32_t a1 = xalpha_[2 * static_cast<std::size_t>(dx) + 1];
      for (int c = 0; c < cn_; ++c) {
        d[dx * cn_ + c] = dx < xmax_ ? s[sx + c] * a0 + s[sx + cn_ + c] * a1 : s[sx + c] * 2048;
      }
    }
  }

  int src_h_, src_w_, dst_h_, dst_w_, cn_;
  Kind kind_ = Kind::kCopy;
  // Area (non-integer ratio).
  static constexpr std::size_t kMaxRowFloats = 256;  // vertical pass chunk
  int ntx_ = 0, nty_ = 0;           // taps per output column / row (padded)
  std::vector<int> xsrc_, ysrc_;    // tap-major source column / row
  std::vector<float> xw_, yw_;      // tap-major weights
  bool avx2_ = false;
  bool row_avx2_ = false;           // horizontal_row_avx2 (else blocks of rows)
  std::vector<int> rbase_;          // its tables: see build_row_tables
  std::vector<std::uint8_t> rshuf_;
  std::vector<float> rw_;
  int wpad_ = 0;                    // hbuf_ row width: dst_w rounded up to 8
  std::vector<float> hbuf_, tcol_;  // horizontal sums (rows x wpad_); a few rows column-major
  std::vector<std::uint8_t> out_;   // the last result (planar), for rows that did not change
  std::vector<int> out_first_, out_last_;  // per source row: the output rows that read it
  std::vector<std::uint64_t> src_mask_, out_mask_;  // see mark_dirty
  bool cache_valid_ = false;
  // Area (integer ratio).
  int fast_sx_ = 1, fast_sy_ = 1;
  // Linear.
  std::vector<int> xofs_, yofs_;
  std::vector<std::int16_t> xalpha_, ybeta_;
  int xmax_ = 0;
  std::vector<std::int32_t> hrow_;
};

// Bilinear resize of an RGB uint8 frame (row-major, 3 channels), with pixel
// centres aligned as OpenCV's INTER_LINEAR aligns them; when both sizes are
// equal it is a copy. Used where a caller asks for a render size other than
// the one an env draws at.
void resize_rgb(const std::uint8_t* src, int src_width, int src_height, std::uint8_t* dst, int dst_width,
                int dst_height);

}  // namespace rlpool
