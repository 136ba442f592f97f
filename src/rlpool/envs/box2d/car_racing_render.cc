#include "car_racing_render.h"

#include <algorithm>
#include <array>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rlpool::box2d::car_render {

// SDL_gfx's alpha blend into a 32-bit surface: per channel
// d + ((s - d) * a >> 8), the shift arithmetic (its unsigned wrap-around
// amounts to that).
void Canvas::put_weighted(int x, int y, std::uint32_t color, std::uint32_t weight) {
  const int a = static_cast<int>((255u * weight) >> 8);
  if (x < 0 || x >= kWindowW) return;
  std::uint32_t* r = row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  if (a == 255) {
    p = color;
    return;
  }
  std::uint32_t out = 0;
  for (int shift = 0; shift <= 16; shift += 8) {
    const int d = static_cast<int>((p >> shift) & 0xff);
    const int s = static_cast<int>((color >> shift) & 0xff);
    out |= static_cast<std::uint32_t>((d + (((s - d) * a) >> 8)) & 0xff) << shift;
  }
  p = out;
}

void Canvas::hline(int x1, int x2, int y, std::uint32_t color) {
  if (x1 > x2) std::swap(x1, x2);
  if (x2 < 0 || x1 >= kWindowW) return;
  std::uint32_t* r = row(y);
  if (r == nullptr) return;
  x1 = std::max(x1, 0);
  x2 = std::min(x2, kWindowW - 1);
  std::fill(r + x1, r + x2 + 1, color);
}

void Canvas::vline(int x, int y1, int y2, std::uint32_t color) {
  if (y1 > y2) std::swap(y1, y2);
  y1 = std::max(y1, 0);
  y2 = std::min(y2, kWindowH - 1);
  for (int y = y1; y <= y2; ++y) put(x, y, color);
}

namespace {

constexpr int kLeft = 1, kRight = 2, kBottom = 4, kTop = 8;

int clip_code(int x, int y) {
  int code = 0;
  if (x < 0) {
    code |= kLeft;
  } else if (x > kWindowW - 1) {
    code |= kRight;
  }
  if (y < 0) {
    code |= kTop;
  } else if (y > kWindowH - 1) {
    code |= kBottom;
  }
  return code;
}

// SDL_gfx's Cohen-Sutherland clip, float slope and Sint16 truncations included.
bool clip_line(std::int16_t& x1, std::int16_t& y1, std::int16_t& x2, std::int16_t& y2) {
  const int left = 0, right = kWindowW - 1, top = 0, bottom = kWindowH - 1;
  while (true) {
    int c1 = clip_code(x1, y1);
    int c2 = clip_code(x2, y2);
    if ((c1 | c2) == 0) return true;
    if ((c1 & c2) != 0) return false;
    if (c1 == 0) {
      std::swap(x1, x2);
      std::swap(y1, y2);
      std::swap(c1, c2);
    }
    const float m = x2 != x1 ? static_cast<float>(y2 - y1) / static_cast<float>(x2 - x1) : 1.0f;
    if (c1 & kLeft) {
      y1 = static_cast<std::int16_t>(y1 + static_cast<std::int16_t>(static_cast<float>(left - x1) * m));
      x1 = static_cast<std::int16_t>(left);
    } else if (c1 & kRight) {
      y1 = static_cast<std::int16_t>(y1 + static_cast<std::int16_t>(static_cast<float>(right - x1) * m));
      x1 = static_cast<std::int16_t>(right);
    } else if (c1 & kBottom) {
      if (x2 != x1) x1 = static_cast<std::int16_t>(x1 + static_cast<std::int16_t>(static_cast<float>(bottom - y1) / m));
      y1 = static_cast<std::int16_t>(bottom);
    } else if (c1 & kTop) {
      if (x2 != x1) x1 = static_cast<std::int16_t>(x1 + static_cast<std::int16_t>(static_cast<float>(top - y1) / m));
      y1 = static_cast<std::int16_t>(top);
    }
  }
}

}  // namespace

// SDL_gfx's lineColor at full alpha (only reached for 45-degree lines here).
void Canvas::line(int x1, int y1, int x2, int y2, std::uint32_t color) {
  const int sx = x2 >= x1 ? 1 : -1;
  const int sy = y2 >= y1 ? 1 : -1;
  int dx = sx * (x2 - x1) + 1;
  int dy = sy * (y2 - y1) + 1;
  int stepx = sx, stepy = 0, jumpx = 0, jumpy = sy;
  if (dx < dy) {
    std::swap(dx, dy);
    stepx = 0;
    stepy = sy;
    jumpx = sx;
    jumpy = 0;
  }
  int x = x1, y = y1, acc = 0;
  for (int k = 0; k < dx; ++k, x += stepx, y += stepy) {
    put(x, y, color);
    acc += dy;
    if (acc >= dx) {
      acc -= dx;
      x += jumpx;
      y += jumpy;
    }
  }
}

// SDL_gfx's aalineColorInt without the end point (as aapolygon draws edges):
// Wu's algorithm with a 32-bit error accumulator.
void Canvas::aaline(std::int16_t x1, std::int16_t y1, std::int16_t x2, std::int16_t y2, std::uint32_t color) {
  int from, to;
  band_rows(from, to);
  if (std::max(y1, y2) + 1 < from || std::min(y1, y2) - 1 > to) return;  // no pixel in the band
  if (!clip_line(x1, y1, x2, y2)) return;
  std::int32_t xx0 = x1, yy0 = y1, xx1 = x2, yy1 = y2;
  if (yy0 > yy1) {
    std::swap(yy0, yy1);
    std::swap(xx0, xx1);
  }
  int dx = xx1 - xx0;
  int dy = yy1 - yy0;
  int xdir = 1;
  if (dx < 0) {
    xdir = -1;
    dx = -dx;
  }
  if (dx == 0) return vline(x1, y1, y2, color);
  if (dy == 0) return hline(x1, x2, y1, color);
  if (dx == dy) return line(x1, y1, x2, y2, color);
  std::uint32_t erracc = 0;
  put(x1, y1, color);
  if (dy > dx) {
    const std::uint32_t erradj = static_cast<std::uint32_t>((dx << 16) / dy) << 16;
    int x0pxdir = xx0 + xdir;
    while (--dy) {
      const std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        xx0 = x0pxdir;
        x0pxdir += xdir;
      }
      ++yy0;
      const std::uint32_t wgt = (erracc >> 24) & 255;
      put_weighted(xx0, yy0, color, 255 - wgt);
      put_weighted(x0pxdir, yy0, color, wgt);
    }
  } else {
    const std::uint32_t erradj = static_cast<std::uint32_t>((dy << 16) / dx) << 16;
    int y0p1 = yy0 + 1;
    while (--dx) {
      const std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        yy0 = y0p1;
        ++y0p1;
      }
      xx0 += xdir;
      const std::uint32_t wgt = (erracc >> 24) & 255;
      put_weighted(xx0, yy0, color, 255 - wgt);
      put_weighted(xx0, y0p1, color, wgt);
    }
  }
}

// SDL_gfx's filledPolygonColorMT: 16.16 fixed-point edge crossings, rounded.
void Canvas::filled_polygon(const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color) {
  int miny = vy[0], maxy = vy[0];
  for (int i = 1; i < n; ++i) {
    miny = std::min(miny, static_cast<int>(vy[i]));
    maxy = std::max(maxy, static_cast<int>(vy[i]));
  }
  // Rows off the surface, or off the band, draw nothing.
  int from, to;
  band_rows(from, to);
  from = std::max({miny, from, 0});
  to = std::min({maxy, to, kWindowH - 1});
  for (int y = from; y <= to; ++y) {
    ints_.clear();
    for (int i = 0; i < n; ++i) {
      const int i1 = i == 0 ? n - 1 : i - 1;
      const int i2 = i;
      int y1 = vy[i1], y2 = vy[i2], x1, x2;
      if (y1 < y2) {
        x1 = vx[i1];
        x2 = vx[i2];
      } else if (y1 > y2) {
        y2 = vy[i1];
        y1 = vy[i2];
        x2 = vx[i1];
        x1 = vx[i2];
      } else {
        continue;
      }
      if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
        const std::int64_t v = static_cast<std::int64_t>((65536 * (y - y1)) / (y2 - y1)) * (x2 - x1) + 65536LL * x1;
        ints_.push_back(static_cast<int>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))));
      }
    }
    std::sort(ints_.begin(), ints_.end());
    for (std::size_t i = 0; i + 1 < ints_.size(); i += 2) {
      int xa = ints_[i] + 1;
      xa = (xa >> 16) + ((xa & 32768) >> 15);
      int xb = ints_[i + 1] - 1;
      xb = (xb >> 16) + ((xb & 32768) >> 15);
      hline(static_cast<std::int16_t>(xa), static_cast<std::int16_t>(xb), y, color);
    }
  }
}

void Canvas::gfx_polygon(const Prim& p) {
  std::int16_t vx[8], vy[8];
  for (int i = 0; i < p.n; ++i) {
    vx[i] = static_cast<std::int16_t>(p.x[i]);
    vy[i] = static_cast<std::int16_t>(p.y[i]);
  }
  for (int i = 1; i < p.n; ++i) aaline(vx[i - 1], vy[i - 1], vx[i], vy[i], p.color);
  aaline(vx[p.n - 1], vy[p.n - 1], vx[0], vy[0], p.color);
  filled_polygon(vx, vy, p.n, p.color);
}

// pygame's draw_fillpoly: float crossings, floored for the left end of a
// span and ceiled for the right, plus the horizontal inner edges.
void Canvas::draw_polygon(const Prim& p) {
  const int* vx = p.x;
  const int* vy = p.y;
  const int n = p.n;
  const std::uint32_t color = p.color;
  int miny = vy[0], maxy = vy[0];
  for (int i = 1; i < n; ++i) {
    miny = std::min(miny, vy[i]);
    maxy = std::max(maxy, vy[i]);
  }
  if (miny == maxy) {
    int minx = vx[0], maxx = vx[0];
    for (int i = 1; i < n; ++i) {
      minx = std::min(minx, vx[i]);
      maxx = std::max(maxx, vx[i]);
    }
    hline(minx, maxx, miny, color);
    return;
  }
  int from, to;
  band_rows(from, to);
  from = std::max(from, miny);
  to = std::min(to, maxy);
  for (int y = from; y <= to; ++y) {
    ints_.clear();
    for (int i = 0; i < n; ++i) {
      const int ip = i == 0 ? n - 1 : i - 1;
      int y1 = vy[ip], y2 = vy[i], x1, x2;
      if (y1 < y2) {
        x1 = vx[ip];
        x2 = vx[i];
      } else if (y1 > y2) {
        y2 = vy[ip];
        y1 = vy[i];
        x2 = vx[ip];
        x1 = vx[i];
      } else {
        continue;
      }
      if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
        float f = static_cast<float>((y - y1) * (x2 - x1)) / static_cast<float>(y2 - y1);
        f = ints_.size() % 2 == 0 ? std::floor(f) : std::ceil(f);
        ints_.push_back(static_cast<int>(f) + x1);
      }
    }
    std::sort(ints_.begin(), ints_.end());
    for (std::size_t i = 0; i + 1 < ints_.size(); i += 2) hline(ints_[i], ints_[i + 1], y, color);
  }
  for (int i = 0; i < n; ++i) {
    const int ip = i == 0 ? n - 1 : i - 1;
    const int y = vy[i];
    if (miny < y && vy[ip] == y && y < maxy) hline(vx[i], vx[ip], y, color);
  }
}

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

}  // namespace

// smoothscale's SSE2 shrink filters: 14-bit fixed-point weights, 16-bit
// lanes (mulhi, wrapping adds, saturating pack); X first, then Y.
#if defined(__SSE2__)
// As pygame's own SSE2 filter does it: a pixel's four channels in 16-bit
// lanes, two rows at once.
void Canvas::x_pass(int y0, int y1) {
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
  for (int y = y0; y < y1; y += 2) {
    const bool pair = y + 1 < y1;
    const std::uint32_t* a = band_.data() + static_cast<std::size_t>(y - y0) * kWindowW;
    const std::uint32_t* b = pair ? a + kWindowW : a;
    std::uint8_t* da = half_.data() + static_cast<std::size_t>(y - y0) * kOut * 3;
    std::uint8_t* db = pair ? da + kOut * 3 : nullptr;
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
      const auto lo = static_cast<std::uint32_t>(_mm_cvtsi128_si32(d));
      const auto hi = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(d, 4)));
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
  }
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

// pygame's Vector2.rotate_rad: the angle reduced to [0, 2pi) first, exact
// quarter turns special-cased.
class Rotation {
 public:
  explicit Rotation(double angle) {
    constexpr double kTwoPi = 2 * M_PI;
    constexpr double kEpsilon = 1e-6;
    angle = std::fmod(angle, kTwoPi);
    if (angle < 0) angle += kTwoPi;
    if (std::fmod(angle + kEpsilon, M_PI_2) < 2 * kEpsilon) {
      quarter_ = static_cast<int>((angle + kEpsilon) / M_PI_2) % 4;
    } else {
      sin_ = std::sin(angle);
      cos_ = std::cos(angle);
    }
  }
  Point operator()(double x, double y) const {
    switch (quarter_) {
      case 0:
        return {x, y};
      case 1:
        return {-y, x};
      case 2:
        return {-x, -y};
      case 3:
        return {y, -x};
      default:
        return {cos_ * x - sin_ * y, sin_ * x + cos_ * y};
    }
  }

 private:
  int quarter_ = -1;
  double sin_ = 0, cos_ = 0;
};

// gfxdraw's coordinates: Python's int() (truncation), then a C cast to Sint16.
std::int16_t to_sint16(double v) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::int64_t>(v) & 0xffff));
}

}  // namespace

void Canvas::add(bool gfx, bool flipped, int n, const int* x, const int* y, std::uint32_t color) {
  Prim p{.gfx = gfx, .flipped = flipped, .n = n, .x = {}, .y = {}, .ymin = y[0], .ymax = y[0], .color = color};
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
  p.ymin -= 1;
  p.ymax += 1;
  prims_.push_back(p);
}

void Canvas::draw(const FrameInput& in, std::uint8_t* obs) {
  const Rotation rotate(in.angle);
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
    if (visible) add(true, true, 4, ix, iy, rgb(color[0], color[1], color[2]));
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

  // The car: pygame.draw.polygon takes int() of each coordinate.
  for (const auto& poly : in.car) {
    for (int k = 0; k < poly.count; ++k) {
      const Point r = rotate(poly.points[k].x, poly.points[k].y);
      ix[k] = static_cast<int>(r.x * in.zoom + tx);
      iy[k] = static_cast<int>(r.y * in.zoom + ty);
    }
    add(false, true, poly.count, ix, iy, rgb(poly.color[0], poly.color[1], poly.color[2]));
  }

  // _render_indicators, on the flipped surface.
  constexpr double W = kWindowW, H = kWindowH;
  constexpr double s = W / 40.0, h = H / 40.0;
  const auto quad = [&](const double (&pts)[4][2], std::uint32_t color) {
    for (int k = 0; k < 4; ++k) {
      ix[k] = static_cast<int>(pts[k][0]);
      iy[k] = static_cast<int>(pts[k][1]);
    }
    add(false, false, 4, ix, iy, color);
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
    for (const Prim& p : prims_) {
      if (p.ymax < lo_ || p.ymin >= hi_) continue;
      flipped_ = p.flipped;
      if (p.gfx) {
        gfx_polygon(p);
      } else {
        draw_polygon(p);
      }
    }
    x_pass(lo_, hi_);
    y_pass(lo_, hi_, out);
  }
}

}  // namespace rlpool::box2d::car_render
