// Image resizing that reproduces OpenCV's cv::resize for 8-bit images pixel for
// pixel: INTER_AREA (what gymnasium's AtariPreprocessing and EnvPool use) and
// INTER_LINEAR. Written from OpenCV's documented algorithm and the arithmetic
// its uint8 code paths perform; no OpenCV code or dependency.
//
// The source is an interleaved H x W x cn uint8 image; the output is planar
// (one dst_h x dst_w plane per channel), as the channel-first observation needs.
//
// Exactness notes (they decide every rounding):
// - INTER_AREA, non-integer ratio: per-source-row horizontal sums in float,
//   then per-output-row vertical sums in float, each in OpenCV's term order,
//   rounded half to even. The compiler must not contract a*b+c into FMA
//   (the extension is built with -ffp-contract=off).
// - INTER_AREA, integer ratio: exact integer block sums, then OpenCV's rounding.
// - INTER_LINEAR: 11-bit fixed-point weights; the vertical pass rounds the way
//   OpenCV's 128-bit SIMD kernel does for the elements it covers and the way
//   its scalar tail does for the rest.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlpool::atari {

class Resizer {
 public:
  enum class Method { kArea, kLinear };

  Resizer(int src_h, int src_w, int dst_h, int dst_w, int cn, Method method)
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
        build_area_taps(src_w, dst_w, sx, x_taps_);
        build_area_taps(src_h, dst_h, sy, y_taps_);
        pad_x_taps();
        hbuf_.assign(static_cast<std::size_t>(src_h) * dst_w, 0.0f);
        row_f_.assign(static_cast<std::size_t>(src_w), 0.0f);
        acc_.assign(static_cast<std::size_t>(dst_w), 0.0f);
      }
      return;
    }
    // Linear weights (also OpenCV's stand-in for INTER_AREA when upscaling).
    kind_ = Kind::kLinear;
    build_linear(src_w, dst_w, sx, inv_sx, area, xofs_, xalpha_, &xmax_);
    int unused = 0;
    build_linear(src_h, dst_h, sy, inv_sy, area, yofs_, ybeta_, &unused);
    hrow_.assign(2 * static_cast<std::size_t>(dst_w) * cn, 0);
    // OpenCV's vertical kernel handles 16, then 8 elements per 128-bit vector;
    // the remaining elements of a row take the scalar path.
    const int width = dst_w * cn;
    simd_end_ = width >= 8 ? width / 8 * 8 : 0;
  }

  int cn() const { return cn_; }

  // src: src_h x src_w x cn interleaved. dst: cn planes of dst_h x dst_w.
  void run(const std::uint8_t* src, std::uint8_t* dst) {
    switch (kind_) {
      case Kind::kCopy:
        return run_copy(src, dst);
      case Kind::kArea:
        return run_area(src, dst);
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
    const long r = std::lrint(v);
    return static_cast<std::uint8_t>(std::clamp<long>(r, 0, 255));
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

  // Horizontal taps as ntaps_ arrays of dst_w entries; outputs with fewer taps
  // get weight-0 taps at the end, which add +0.0f and change nothing.
  void pad_x_taps() {
    std::vector<int> count(static_cast<std::size_t>(dst_w_), 0);
    for (const auto& t : x_taps_) ++count[static_cast<std::size_t>(t.d)];
    ntaps_ = *std::max_element(count.begin(), count.end());
    tap_src_.assign(static_cast<std::size_t>(ntaps_) * dst_w_, 0);
    tap_w_.assign(static_cast<std::size_t>(ntaps_) * dst_w_, 0.0f);
    std::fill(count.begin(), count.end(), 0);
    for (const auto& t : x_taps_) {
      const std::size_t k = static_cast<std::size_t>(count[static_cast<std::size_t>(t.d)]++);
      tap_src_[k * dst_w_ + t.d] = t.s;
      tap_w_[k * dst_w_ + t.d] = t.w;
    }
    for (int d = 0; d < dst_w_; ++d) {
      for (int k = count[static_cast<std::size_t>(d)]; k < ntaps_; ++k) {
        tap_src_[static_cast<std::size_t>(k) * dst_w_ + d] = tap_src_[static_cast<std::size_t>(k - 1) * dst_w_ + d];
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

  void run_area(const std::uint8_t* src, std::uint8_t* dst) {
    const std::size_t w = static_cast<std::size_t>(dst_w_);
    const std::size_t plane = static_cast<std::size_t>(dst_h_) * w;
    for (int c = 0; c < cn_; ++c) {
      // Horizontal pass: every source row once (OpenCV recomputes a row shared
      // by two output rows; the values are the same).
      int done_row = -1;
      for (const auto& yt : y_taps_) {
        if (yt.s <= done_row) continue;
        done_row = yt.s;
        const std::uint8_t* s = src + static_cast<std::size_t>(yt.s) * src_w_ * cn_ + c;
        for (int x = 0; x < src_w_; ++x) row_f_[static_cast<std::size_t>(x)] = static_cast<float>(s[x * cn_]);
        float* h = hbuf_.data() + static_cast<std::size_t>(yt.s) * w;
        const float* rf = row_f_.data();
        // buf starts at 0; 0 + p == p, so the first tap is a plain product.
        for (std::size_t d = 0; d < w; ++d) h[d] = rf[tap_src_[d]] * tap_w_[d];
        for (int k = 1; k < ntaps_; ++k) {
          const int* ts = tap_src_.data() + static_cast<std::size_t>(k) * w;
          const float* tw = tap_w_.data() + static_cast<std::size_t>(k) * w;
          for (std::size_t d = 0; d < w; ++d) h[d] = h[d] + rf[ts[d]] * tw[d];
        }
      }
      // Vertical pass: the first row of an output row is assigned, the others
      // added in order; then round half to even and saturate.
      std::uint8_t* out = dst + static_cast<std::size_t>(c) * plane;
      std::size_t j = 0;
      while (j < y_taps_.size()) {
        const int dy = y_taps_[j].d;
        float* acc = acc_.data();
        {
          const float beta = y_taps_[j].w;
          const float* h = hbuf_.data() + static_cast<std::size_t>(y_taps_[j].s) * w;
          for (std::size_t d = 0; d < w; ++d) acc[d] = beta * h[d];
        }
        for (++j; j < y_taps_.size() && y_taps_[j].d == dy; ++j) {
          const float beta = y_taps_[j].w;
          const float* h = hbuf_.data() + static_cast<std::size_t>(y_taps_[j].s) * w;
          for (std::size_t d = 0; d < w; ++d) acc[d] = acc[d] + beta * h[d];
        }
        std::uint8_t* o = out + static_cast<std::size_t>(dy) * w;
        for (std::size_t d = 0; d < w; ++d) o[d] = saturate_round(acc[d]);
      }
    }
  }

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
        std::int32_t v;
        if (e < simd_end_) {
          // (S >> 4) * b >> 16 per row (16-bit multiply-high), then (sum + 2) >> 2.
          const std::int32_t a0 = ((r0[e] >> 4) * b0) >> 16;
          const std::int32_t a1 = ((r1[e] >> 4) * b1) >> 16;
          v = (a0 + a1 + 2) >> 2;
        } else {
          v = (r0[e] * b0 + r1[e] * b1 + (1 << 21)) >> 22;
        }
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
  std::vector<Tap> x_taps_, y_taps_;
  int ntaps_ = 0;
  std::vector<int> tap_src_;
  std::vector<float> tap_w_;
  std::vector<float> hbuf_, row_f_, acc_;
  // Area (integer ratio).
  int fast_sx_ = 1, fast_sy_ = 1;
  // Linear.
  std::vector<int> xofs_, yofs_;
  std::vector<std::int16_t> xalpha_, ybeta_;
  int xmax_ = 0;
  int simd_end_ = 0;
  std::vector<std::int32_t> hrow_;
};

}  // namespace rlpool::atari
