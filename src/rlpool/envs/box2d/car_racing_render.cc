#include "envs/box2d/car_racing_render.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace rlpool::box2d::car_render {

namespace {

constexpr int kOut = 96;

// The X filter's walk along a row is the same for every row: output column j
// sums source pixels [first, boundary) whole, then takes the boundary pixel
// split xc : xf between column j and column j + 1.
struct XColumn {
  int first = 0, boundary = 0;
  std::uint32_t xc = 0, xf = 0;
};

std::array<XColumn, kOut> x_columns() {
  std::array<XColumn, kOut> cols{};
  const int xspace = 0x4000 * kWindowW / kOut;
  int xcounter = xspace, first = 0, j = 0;
  for (int x = 0; x < kWindowW && j < kOut; ++x) {
    if (xcounter > 0x4000) {
      xcounter -= 0x4000;
    } else {
      const int xfrac = 0x4000 - xcounter;
      cols[static_cast<std::size_t>(j++)] = {first, x, static_cast<std::uint32_t>(xcounter),
                                             static_cast<std::uint32_t>(xfrac)};
      first = x + 1;
      xcounter = xspace - xfrac;
    }
  }
  return cols;
}

// Rows y and y + 1 of a band and of the X pass's output; where y is the last
// row, b repeats it and db is null.
struct RowPair {
  const std::uint32_t* a;
  const std::uint32_t* b;
  std::uint8_t* da;
  std::uint8_t* db;
};
inline RowPair row_pair(const std::uint32_t* band, int rows, std::uint8_t* half, int y) {
  const bool pair = y + 1 < rows;
  const std::uint32_t* a = band + static_cast<std::size_t>(y) * kWindowW;
  std::uint8_t* da = half + static_cast<std::size_t>(y) * kOut * 3;
  return {a, pair ? a + kWindowW : a, da, pair ? da + kOut * 3 : nullptr};
}

// An output pixel of rows y and y + 1 (XRGB8888: B, G, R, X bytes) as RGB;
// `db` is null where row y is the band's last.
inline void store_pair(std::uint32_t lo, std::uint32_t hi, std::uint8_t*& da, std::uint8_t*& db) {
  da[0] = static_cast<std::uint8_t>(lo >> 16);
  da[1] = static_cast<std::uint8_t>(lo >> 8);
  da[2] = static_cast<std::uint8_t>(lo);
  da += 3;
  if (db != nullptr) {
    db[0] = static_cast<std::uint8_t>(hi >> 16);
    db[1] = static_cast<std::uint8_t>(hi >> 8);
    db[2] = static_cast<std::uint8_t>(hi);
    db += 3;
  }
}

}  // namespace

// smoothscale's SSE2 shrink filters: 14-bit fixed-point weights, 16-bit
// lanes (mulhi, wrapping adds, saturating pack); X first, then Y.
#if defined(__SSE2__)
// As pygame's own SSE2 filter does it: a pixel's four channels in 16-bit
// lanes, two rows at once.
void shrink_x_sse2(const std::uint32_t* band, int rows, std::uint8_t* half) {
  static const std::array<XColumn, kOut> kColumns = x_columns();
  const int xspace = 0x4000 * kWindowW / kOut;
  const __m128i xrecip = _mm_set1_epi16(static_cast<short>(0x40000000 / xspace));
  const __m128i zero = _mm_setzero_si128();
  const auto load2 = [&](std::uint32_t a, std::uint32_t b) {
    return _mm_unpacklo_epi64(_mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(a)), zero),
                              _mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(b)), zero));
  };
  // Sum of pixels [from, to) of one row, a channel per 16-bit lane (lanes
  // 0-3), four pixels a load. The lanes add modulo 2^16 as pygame's do, in
  // another order; no column's sum of ~11 pixels comes near 2^16, so the
  // values are the same.
  const auto row_sum = [&](const std::uint32_t* row, int from, int to) {
    __m128i s0 = zero, s1 = zero;
    int x = from;
    for (; x + 4 <= to; x += 4) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + x));
      s0 = _mm_add_epi16(s0, _mm_unpacklo_epi8(v, zero));
      s1 = _mm_add_epi16(s1, _mm_unpackhi_epi8(v, zero));
    }
    s0 = _mm_add_epi16(s0, s1);
    s0 = _mm_add_epi16(s0, _mm_srli_si128(s0, 8));
    for (; x < to; ++x) {
      s0 = _mm_add_epi16(s0, _mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(row[x])), zero));
    }
    return s0;
  };
  for (int y = 0; y < rows; y += 2) {
    auto [a, b, da, db] = row_pair(band, rows, half, y);
    __m128i acc = zero;
    int x = 0;
    for (const XColumn& col : kColumns) {
      acc = _mm_add_epi16(acc, _mm_unpacklo_epi64(row_sum(a, x, col.boundary), row_sum(b, x, col.boundary)));
      x = col.boundary;
      const __m128i p = _mm_slli_epi16(load2(a[x], b[x]), 2);
      ++x;
      __m128i d = _mm_add_epi16(_mm_mulhi_epu16(p, _mm_set1_epi16(static_cast<short>(col.xc))), acc);
      acc = _mm_mulhi_epu16(p, _mm_set1_epi16(static_cast<short>(col.xf)));
      d = _mm_packus_epi16(_mm_mulhi_epu16(d, xrecip), zero);
      // Low 32 bits: row y's pixel as XRGB8888 (B, G, R, X bytes); next 32: row y + 1.
      store_pair(static_cast<std::uint32_t>(_mm_cvtsi128_si32(d)),
                 static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(d, 4))), da, db);
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same filter, the same 16-bit lane arithmetic, on AVX2 where the CPU has
// it (checked at run time; the extension is built for baseline x86-64): the
// two rows side by side in one register (row y in the low 128 bits, row y + 1
// in the high), and each column's 9 or 10 whole pixels as two loads of four
// and one of the rest under a mask, not pixel by pixel.
namespace {

// A column's walk for the AVX2 filter, its constants as plain data (built
// without AVX2, loaded inside the filter).
struct Avx2Column {
  alignas(32) std::int32_t tail_mask[8];  // the whole pixels after the 4-pixel blocks, both rows
  alignas(32) std::uint16_t xc[16];
  alignas(32) std::uint16_t xf[16];
  int first, blocks, boundary;
};

const std::vector<Avx2Column>& avx2_columns() {
  static const std::vector<Avx2Column> cols = [] {
    std::vector<Avx2Column> out;
    for (const XColumn& c : x_columns()) {
      Avx2Column col{};
      const int n = c.boundary - c.first;
      col.first = c.first;
      col.blocks = n / 4;
      col.boundary = c.boundary;
      for (int i = 0; i < 8; ++i) col.tail_mask[i] = i % 4 < n % 4 ? -1 : 0;
      for (int i = 0; i < 16; ++i) {
        col.xc[i] = static_cast<std::uint16_t>(c.xc);
        col.xf[i] = static_cast<std::uint16_t>(c.xf);
      }
      out.push_back(col);
    }
    return out;
  }();
  return cols;
}

// Four pixels of row a (low 128 bits) and of row b (high 128 bits).
__attribute__((target("avx2"))) inline __m256i load_rows(const std::uint32_t* a, const std::uint32_t* b) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a))),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), 1);
}

}  // namespace

__attribute__((target("avx2"))) void shrink_x_avx2(const std::uint32_t* band, int rows, std::uint8_t* half) {
  const std::vector<Avx2Column>& columns = avx2_columns();
  const int xspace = 0x4000 * kWindowW / kOut;
  const __m256i xrecip = _mm256_set1_epi16(static_cast<short>(0x40000000 / xspace));
  const __m256i zero = _mm256_setzero_si256();
  for (int y = 0; y < rows; y += 2) {
    auto [a, b, da, db] = row_pair(band, rows, half, y);
    __m256i acc = zero;  // the carried split pixel; per lane, 16-bit lanes 0-3 are the row's
    for (const Avx2Column& col : columns) {
      __m256i s0 = zero, s1 = zero;
      int x = col.first;
      for (int k = 0; k < col.blocks; ++k, x += 4) {
        const __m256i v = load_rows(a + x, b + x);
        s0 = _mm256_add_epi16(s0, _mm256_unpacklo_epi8(v, zero));
        s1 = _mm256_add_epi16(s1, _mm256_unpackhi_epi8(v, zero));
      }
      // The rest (1-3 pixels) under the mask; the load reaches past the
      // boundary pixel, and past the row's end at the last column (the band
      // keeps readable pixels after its last row: kBandPixels).
      const __m256i v =
          _mm256_and_si256(load_rows(a + x, b + x), _mm256_load_si256(reinterpret_cast<const __m256i*>(col.tail_mask)));
      s0 = _mm256_add_epi16(s0, _mm256_unpacklo_epi8(v, zero));
      s1 = _mm256_add_epi16(s1, _mm256_unpackhi_epi8(v, zero));
      s0 = _mm256_add_epi16(s0, s1);
      acc = _mm256_add_epi16(acc, _mm256_add_epi16(s0, _mm256_srli_si256(s0, 8)));
      const int xb = col.boundary;
      const __m256i p = _mm256_slli_epi16(
          _mm256_unpacklo_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(_mm_cvtsi32_si128(static_cast<int>(a[xb]))),
                                                       _mm_cvtsi32_si128(static_cast<int>(b[xb])), 1),
                               zero),
          2);
      __m256i d = _mm256_add_epi16(_mm256_mulhi_epu16(p, _mm256_load_si256(reinterpret_cast<const __m256i*>(col.xc))), acc);
      acc = _mm256_mulhi_epu16(p, _mm256_load_si256(reinterpret_cast<const __m256i*>(col.xf)));
      d = _mm256_packus_epi16(_mm256_mulhi_epu16(d, xrecip), zero);
      store_pair(static_cast<std::uint32_t>(_mm256_cvtsi256_si32(d)),
                 static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm256_extracti128_si256(d, 1))), da, db);
    }
  }
}
#else
void shrink_x_avx2(const std::uint32_t* band, int rows, std::uint8_t* half) { shrink_x_sse2(band, rows, half); }
#endif

void Canvas::x_pass(int y0, int y1) {
  (draw::has_avx2() ? shrink_x_avx2 : shrink_x_sse2)(band_.data(), y1 - y0, half_.data());
}
#else
void Canvas::x_pass(int y0, int y1) {
  static const std::array<XColumn, kOut> kColumns = x_columns();
  const int xspace = 0x4000 * kWindowW / kOut;
  const std::uint32_t xrecip = static_cast<std::uint16_t>(0x40000000 / xspace);
  for (int y = y0; y < y1; ++y) {
    const std::uint32_t* src = band_.data() + static_cast<std::size_t>(y - y0) * kWindowW;
    std::uint8_t* dst = half_.data() + static_cast<std::size_t>(y - y0) * kOut * 3;
    std::uint32_t carry[3] = {0, 0, 0};
    for (const XColumn& col : kColumns) {
      // Red and blue summed in two 16-bit lanes at once (at most 11 pixels of 255).
      std::uint32_t rb = 0, g = 0;
      for (int x = col.first; x < col.boundary; ++x) {
        rb += src[x] & 0x00ff00ffu;
        g += (src[x] >> 8) & 0xffu;
      }
      const std::uint32_t sums[3] = {rb >> 16, g, rb & 0xffffu};
      const std::uint32_t p = src[col.boundary];
      const std::uint32_t ch[3] = {(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff};
      for (int c = 0; c < 3; ++c) {
        const std::uint32_t v = ch[c] << 2;
        const std::uint32_t acc = (carry[c] + sums[c]) & 0xffffu;
        const std::uint32_t d = (((v * col.xc) >> 16) + acc) & 0xffffu;
        *dst++ = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * xrecip) >> 16, 255));
        carry[c] = (v * col.xf) >> 16;
      }
    }
  }
}
#endif

void Canvas::y_pass(int y0, int y1, std::uint8_t*& out) {
  const int yspace = 0x4000 * kWindowH / kOut;
  const std::uint32_t yrecip = static_cast<std::uint16_t>(0x40000000 / yspace);
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* src = half_.data() + static_cast<std::size_t>(y - y0) * kOut * 3;
    if (ycounter_ > 0x4000) {
      for (int i = 0; i < kOut * 3; ++i) yacc_[i] = static_cast<std::uint16_t>(yacc_[i] + src[i]);
      ycounter_ -= 0x4000;
    } else {
      const int yfrac = 0x4000 - ycounter_;
      for (int i = 0; i < kOut * 3; ++i) {
        const std::uint32_t v = static_cast<std::uint32_t>(src[i]) << 2;
        const std::uint16_t d =
            static_cast<std::uint16_t>(((v * static_cast<std::uint32_t>(ycounter_)) >> 16) + yacc_[i]);
        *out++ = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * yrecip) >> 16, 255));
        yacc_[i] = static_cast<std::uint16_t>((v * static_cast<std::uint32_t>(yfrac)) >> 16);
      }
      ycounter_ = yspace - yfrac;
    }
  }
}

namespace {

constexpr double kScale = 6.0;
constexpr double kPlayfield = 2000 / kScale;
constexpr double kGrassDim = kPlayfield / 20.0;
constexpr double kZoom = 2.7;
// gymnasium's MAX_SHAPE_DIM: polygons with no vertex within this margin of
// the window are skipped.
const double kMaxShapeDim = std::max({kGrassDim, 40 / kScale, 21 / kScale}) * std::sqrt(2.0) * kZoom * kScale;

using draw::to_sint16;

}  // namespace

void Canvas::add(Kind kind, bool flipped, int n, const int* x, const int* y, std::uint32_t color) {
  Prim p{.kind = kind, .flipped = flipped, .n = n, .x = {}, .y = {}, .ymin = y[0], .ymax = y[0], .color = color};
  for (int k = 0; k < n; ++k) {
    p.x[k] = x[k];
    p.y[k] = y[k];
    p.ymin = std::min(p.ymin, y[k]);
    p.ymax = std::max(p.ymax, y[k]);
  }
  if (flipped) {
    const int lo = kWindowH - 1 - p.ymax, hi = kWindowH - 1 - p.ymin;
    p.ymin = lo;
    p.ymax = hi;
  }
  p.ymin -= kind == Kind::kLine2 ? 2 : 1;  // a line's second pixel, or anti-aliasing
  p.ymax += kind == Kind::kLine2 ? 2 : 1;
  prims_.push_back(p);
}

void Canvas::build(const FrameInput& in, bool skids) {
  const draw::Rotation rotate(in.angle);
  const Point scroll = rotate(-in.car_x * in.zoom, -in.car_y * in.zoom);
  const double tx = kWindowW / 2 + scroll.x;
  const double ty = kWindowH / 4 + scroll.y;
  prims_.clear();

  // The world (drawn before the flip): gfxdraw polygons, their vertices as
  // Sint16; those with no vertex near the window are skipped, as gymnasium does.
  int ix[8], iy[8];
  const auto world_poly = [&](const Point* pts, const int* color, bool clip) {
    bool visible = !clip;
    for (int k = 0; k < 4; ++k) {
      const Point r = rotate(pts[k].x, pts[k].y);
      const double x = r.x * in.zoom + tx;
      const double y = r.y * in.zoom + ty;
      visible = visible || (-kMaxShapeDim <= x && x <= kWindowW + kMaxShapeDim && -kMaxShapeDim <= y &&
                            y <= kWindowH + kMaxShapeDim);
      ix[k] = to_sint16(x);
      iy[k] = to_sint16(y);
    }
    if (visible) add(Kind::kGfxPolygon, true, 4, ix, iy, rgb(color[0], color[1], color[2]));
  };
  const Point field[4] = {{kPlayfield, kPlayfield}, {kPlayfield, -kPlayfield}, {-kPlayfield, -kPlayfield},
                          {-kPlayfield, kPlayfield}};
  world_poly(field, in.bg_color, false);
  for (int x = -20; x < 20; x += 2) {
    for (int y = -20; y < 20; y += 2) {
      const Point grass[4] = {{kGrassDim * x + kGrassDim, kGrassDim * y + 0},
                              {kGrassDim * x + 0, kGrassDim * y + 0},
                              {kGrassDim * x + 0, kGrassDim * y + kGrassDim},
                              {kGrassDim * x + kGrassDim, kGrassDim * y + kGrassDim}};
      world_poly(grass, in.grass_color, true);
    }
  }
  for (const auto& poly : in.road) world_poly(poly.points, poly.color, true);

  // car_dynamics' draw: the skid marks (rgb_array only), pygame.draw.lines
  // of int() coordinates, width 2; then the car's polygons, likewise int().
  if (skids) {
    for (const auto& mark : in.skids) {
      const std::uint32_t color = mark->grass ? rgb(102, 102, 0) : rgb(0, 0, 0);
      for (std::size_t k = 0; k < mark->points.size(); ++k) {
        const Point r = rotate(mark->points[k].x, mark->points[k].y);
        ix[1] = static_cast<int>(r.x * in.zoom + tx);
        iy[1] = static_cast<int>(r.y * in.zoom + ty);
        if (k > 0) add(Kind::kLine2, true, 2, ix, iy, color);
        ix[0] = ix[1];
        iy[0] = iy[1];
      }
    }
  }
  for (const auto& poly : in.car) {
    for (int k = 0; k < poly.count; ++k) {
      const Point r = rotate(poly.points[k].x, poly.points[k].y);
      ix[k] = static_cast<int>(r.x * in.zoom + tx);
      iy[k] = static_cast<int>(r.y * in.zoom + ty);
    }
    add(Kind::kPolygon, true, poly.count, ix, iy, rgb(poly.color[0], poly.color[1], poly.color[2]));
  }

  // _render_indicators, on the flipped surface.
  constexpr double W = kWindowW, H = kWindowH;
  constexpr double s = W / 40.0, h = H / 40.0;
  const auto quad = [&](const double (&pts)[4][2], std::uint32_t color) {
    for (int k = 0; k < 4; ++k) {
      ix[k] = static_cast<int>(pts[k][0]);
      iy[k] = static_cast<int>(pts[k][1]);
    }
    add(Kind::kPolygon, false, 4, ix, iy, color);
  };
  quad({{W, H}, {W, H - 5 * h}, {0, H - 5 * h}, {0, H}}, rgb(0, 0, 0));
  const auto vertical = [&](double place, double val, double value, std::uint32_t color) {
    if (std::abs(value) <= 1e-4) return;
    quad({{place * s, H - (h + h * val)},
          {(place + 1) * s, H - (h + h * val)},
          {(place + 1) * s, H - h},
          {(place + 0) * s, H - h}},
         color);
  };
  const auto horizontal = [&](double place, double val, double value, std::uint32_t color) {
    if (std::abs(value) <= 1e-4) return;
    quad({{(place + 0) * s, H - 4 * h},
          {(place + val) * s, H - 4 * h},
          {(place + val) * s, H - 2 * h},
          {(place + 0) * s, H - 2 * h}},
         color);
  };
  vertical(5, 0.02 * in.true_speed, in.true_speed, rgb(255, 255, 255));
  vertical(7, 0.01 * in.wheel_omega[0], in.wheel_omega[0], rgb(0, 0, 255));
  vertical(8, 0.01 * in.wheel_omega[1], in.wheel_omega[1], rgb(0, 0, 255));
  vertical(9, 0.01 * in.wheel_omega[2], in.wheel_omega[2], rgb(51, 0, 255));
  vertical(10, 0.01 * in.wheel_omega[3], in.wheel_omega[3], rgb(51, 0, 255));
  horizontal(20, -10.0 * in.steer_angle, in.steer_angle, rgb(0, 255, 0));
  horizontal(30, -0.8 * in.angular_velocity, in.angular_velocity, rgb(255, 0, 0));
  // The reward's digits (pygame's font rendering) are not drawn.
}

void Canvas::paint() {
  for (const Prim& p : prims_) {
    if (p.ymax < lo_ || p.ymin >= hi_) continue;
    flipped_ = p.flipped;
    switch (p.kind) {
      case Kind::kGfxPolygon: {
        std::int16_t vx[8], vy[8];
        for (int i = 0; i < p.n; ++i) {
          vx[i] = static_cast<std::int16_t>(p.x[i]);
          vy[i] = static_cast<std::int16_t>(p.y[i]);
        }
        draw::gfx_polygon(*this, vx, vy, p.n, p.color, ints_);
        break;
      }
      case Kind::kPolygon:
        draw::pg_fill_polygon(*this, p.x, p.y, p.n, p.color, ints_);
        break;
      case Kind::kLine2:
        draw::pg_line_width(*this, p.x[0], p.y[0], p.x[1], p.y[1], 2, p.color);
        break;
    }
  }
}

void Canvas::draw_video(const FrameInput& in, std::uint8_t* rgb) {
  constexpr int kVideoW = 600, kVideoH = 400;
  build(in, true);
  // The whole window as one band: pygame's new surface is black.
  band_.assign(static_cast<std::size_t>(kWindowW) * kWindowH, 0u);
  lo_ = 0;
  hi_ = kWindowH;
  paint();
  // smoothscale works on each channel alike.
  std::vector<std::uint8_t> channel(band_.size());
  for (int c = 0; c < 3; ++c) {
    const int shift = 16 - 8 * c;
    for (std::size_t i = 0; i < band_.size(); ++i) channel[i] = static_cast<std::uint8_t>(band_[i] >> shift);
    const std::vector<std::uint8_t> small = draw::smoothscale_shrink(channel.data(), kWindowW, kWindowH, kVideoW, kVideoH);
    for (std::size_t i = 0; i < small.size(); ++i) rgb[i * 3 + static_cast<std::size_t>(c)] = small[i];
  }
  band_.assign(kBandPixels, 0u);
}

void Canvas::draw(const FrameInput& in, std::uint8_t* obs) {
  build(in, false);
  constexpr double W = kWindowW;
  const draw::Rotation rotate(in.angle);
  const Point scroll = rotate(-in.car_x * in.zoom, -in.car_y * in.zoom);
  const double tx = kWindowW / 2 + scroll.x;
  const double ty = kWindowH / 4 + scroll.y;
  const Point field[4] = {{kPlayfield, kPlayfield}, {kPlayfield, -kPlayfield}, {-kPlayfield, -kPlayfield},
                          {-kPlayfield, kPlayfield}};

  // pygame draws on a new black surface; a band that the playfield polygon
  // (first, unclipped) surely covers is not cleared.
  Point corners[4];
  for (int k = 0; k < 4; ++k) {
    const Point r = rotate(field[k].x, field[k].y);
    corners[k] = {r.x * in.zoom + tx, (kWindowH - 1) - (r.y * in.zoom + ty)};  // in final rows
  }
  const auto inside_field = [&](double x, double y) {
    int positive = 0, negative = 0;
    for (int k = 0; k < 4; ++k) {
      const Point& a = corners[k];
      const Point& b = corners[(k + 1) % 4];
      const double cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
      positive += cross > 0;
      negative += cross < 0;
    }
    return positive == 4 || negative == 4;
  };
  constexpr double kMargin = 4;

  half_.resize(static_cast<std::size_t>(kBand) * kOut * 3);
  yacc_.fill(0);
  ycounter_ = 0x4000 * kWindowH / kOut;
  std::uint8_t* out = obs;
  for (lo_ = 0; lo_ < kWindowH; lo_ += kBand) {
    hi_ = std::min(lo_ + kBand, kWindowH);
    const bool covered = inside_field(-kMargin, lo_ - kMargin) && inside_field(W + kMargin, lo_ - kMargin) &&
                         inside_field(-kMargin, hi_ + kMargin) && inside_field(W + kMargin, hi_ + kMargin);
    if (!covered) std::fill(band_.begin(), band_.end(), 0u);
    paint();
    x_pass(lo_, hi_);
    y_pass(lo_, hi_, out);
  }
}

}  // namespace rlpool::box2d::car_render
