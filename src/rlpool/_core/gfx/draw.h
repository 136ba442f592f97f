// pygame's drawing primitives on a 32-bit XRGB8888 surface, with the integer
// and float arithmetic of the originals (SDL_gfx as pygame-ce bundles it for
// pygame.gfxdraw; pygame's own draw.c for pygame.draw), so that the pixels
// come out the same as gymnasium's frames. Used by CarRacing (box2d) and the
// classic control envs.
//
// Every primitive is a template on its surface S, which provides
//   int width() const, int height() const;
//   std::uint32_t* row(int y);             // nullptr where y is not drawn
//   void band_rows(int& from, int& to) const;  // the rows row() may give, to skip work
// (Image below; CarRacing's Canvas draws in bands of rows, some flipped).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace rlpool::draw {

// 0x00RRGGBB, as SDL maps a colour into an XRGB8888 surface.
inline std::uint32_t rgb(int r, int g, int b) {
  return (static_cast<std::uint32_t>(r & 0xff) << 16) | (static_cast<std::uint32_t>(g & 0xff) << 8) |
         static_cast<std::uint32_t>(b & 0xff);
}

// A whole surface in memory: pygame.Surface((w, h)).
class Image {
 public:
  Image(int w, int h) : w_(w), h_(h), px_(static_cast<std::size_t>(w) * h, 0) {}
  int width() const { return w_; }
  int height() const { return h_; }
  std::uint32_t* row(int y) { return y >= 0 && y < h_ ? px_.data() + static_cast<std::size_t>(y) * w_ : nullptr; }
  void band_rows(int& from, int& to) const {
    from = 0;
    to = h_ - 1;
  }
  void fill(std::uint32_t color) { std::fill(px_.begin(), px_.end(), color); }
  // surfarray.pixels3d transposed: height x width x 3, top row first.
  void write_rgb(std::uint8_t* rgb) const { write_rows(rgb, false); }
  // pygame.transform.flip(surf, False, True), then surfarray.pixels3d
  // transposed: height x width x 3, the surface's last row first; or only
  // the `w` columns from `x0`.
  void write_flipped_rgb(std::uint8_t* rgb) const { write_rows(rgb, true, 0, w_); }
  void write_flipped_rgb(std::uint8_t* rgb, int x0, int w) const { write_rows(rgb, true, x0, w); }

 private:
  void write_rows(std::uint8_t* rgb, bool flipped, int x0 = 0, int w = -1) const {
    if (w < 0) w = w_;
    for (int k = 0; k < h_; ++k) {
      const int y = flipped ? h_ - 1 - k : k;
      const std::uint32_t* r = px_.data() + static_cast<std::size_t>(y) * w_ + x0;
      for (int x = 0; x < w; ++x) {
        *rgb++ = static_cast<std::uint8_t>(r[x] >> 16);
        *rgb++ = static_cast<std::uint8_t>(r[x] >> 8);
        *rgb++ = static_cast<std::uint8_t>(r[x]);
      }
    }
  }

  int w_, h_;
  std::vector<std::uint32_t> px_;
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Whether the CPU has AVX2: the extension is built for baseline x86-64, and
// its hottest drawing loops (CarRacing's frame) have AVX2 versions beside.
inline bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

namespace detail {
// 32-byte stores where baseline x86-64's std::fill stores 16 bytes at a time.
// CarRacing's frame is mostly such spans: a window of 800k pixels, some twice.
__attribute__((target("avx2"))) inline void fill_avx2(std::uint32_t* p, int n, std::uint32_t color) {
  const __m256i v = _mm256_set1_epi32(static_cast<int>(color));
  int i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + i), v);
  for (; i < n; ++i) p[i] = color;
}
}  // namespace detail
#else
inline bool has_avx2() { return false; }
#endif

// n pixels of one colour from p.
inline void fill_pixels(std::uint32_t* p, int n, std::uint32_t color) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (n >= 32 && has_avx2()) return detail::fill_avx2(p, n, color);
#endif
  std::fill(p, p + n, color);
}

template <class S>
void put(S& s, int x, int y, std::uint32_t color) {
  if (x < 0 || x >= s.width()) return;
  if (std::uint32_t* r = s.row(y)) r[x] = color;
}

// SDL_gfx's pixelColorWeight at full colour alpha: alpha (255 * weight) >> 8,
// blended per channel as d + ((s - d) * a >> 8).
template <class S>
void put_weighted(S& s, int x, int y, std::uint32_t color, std::uint32_t weight) {
  const int a = static_cast<int>((255u * weight) >> 8);
  if (x < 0 || x >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  if (a == 255) {
    p = color;
    return;
  }
  std::uint32_t out = 0;
  for (int shift = 0; shift <= 16; shift += 8) {
    const int d = static_cast<int>((p >> shift) & 0xff);
    const int c = static_cast<int>((color >> shift) & 0xff);
    out |= static_cast<std::uint32_t>((d + (((c - d) * a) >> 8)) & 0xff) << shift;
  }
  p = out;
}

// gfxdraw.hline / SDL_gfx hlineColor (clipped).
template <class S>
void hline(S& s, int x1, int x2, int y, std::uint32_t color) {
  if (x1 > x2) std::swap(x1, x2);
  if (x2 < 0 || x1 >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  x1 = std::max(x1, 0);
  x2 = std::min(x2, s.width() - 1);
  fill_pixels(r + x1, x2 - x1 + 1, color);
}

// gfxdraw.vline / SDL_gfx vlineColor (clipped).
template <class S>
void vline(S& s, int x, int y1, int y2, std::uint32_t color) {
  if (y1 > y2) std::swap(y1, y2);
  y1 = std::max(y1, 0);
  y2 = std::min(y2, s.height() - 1);
  for (int y = y1; y <= y2; ++y) put(s, x, y, color);
}

namespace detail {

constexpr int kLeft = 1, kRight = 2, kBottom = 4, kTop = 8;

inline int clip_code(int x, int y, int w, int h) {
  int code = 0;
  if (x < 0) {
    code |= kLeft;
  } else if (x > w - 1) {
    code |= kRight;
  }
  if (y < 0) {
    code |= kTop;
  } else if (y > h - 1) {
    code |= kBottom;
  }
  return code;
}

// SDL_gfx's Cohen-Sutherland clip, float slope and Sint16 truncations included.
inline bool clip_line(std::int16_t& x1, std::int16_t& y1, std::int16_t& x2, std::int16_t& y2, int w, int h) {
  const int left = 0, right = w - 1, top = 0, bottom = h - 1;
  while (true) {
    int c1 = clip_code(x1, y1, w, h);
    int c2 = clip_code(x2, y2, w, h);
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

}  // namespace detail

// SDL_gfx's aalineColorInt without the end point (as aapolygon draws edges):
// Wu's algorithm with a 32-bit error accumulator. A 45-degree line has no
// special case there (that is only for lines with their end point): its
// step (1 << 32) wraps to 0, so it is drawn at weight 255 (alpha 254).
template <class S>
void gfx_aaline(S& s, std::int16_t x1, std::int16_t y1, std::int16_t x2, std::int16_t y2, std::uint32_t color) {
  int from, to;
  s.band_rows(from, to);
  if (std::max(y1, y2) + 1 < from || std::min(y1, y2) - 1 > to) return;  // no pixel in the band
  if (!detail::clip_line(x1, y1, x2, y2, s.width(), s.height())) return;
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
  if (dx == 0) return vline(s, x1, y1, y2, color);
  if (dy == 0) return hline(s, x1, x2, y1, color);
  put(s, x1, y1, color);
  // Drawn in bands of rows (CarRacing's Canvas), a long line would be walked
  // once per band: the walk starts at the band and stops after it. After k
  // steps the error accumulator is k * erradj modulo 2^32, and x (steep) or y
  // (shallow) has moved once per carry, floor(k * erradj / 2^32) times; a
  // 45-degree line's erradj wraps to 0 and it moves every step.
  const auto carries = [](std::uint32_t erradj, int k) {
    return erradj == 0 ? k : static_cast<int>((static_cast<std::uint64_t>(k) * erradj) >> 32);
  };
  if (dy > dx) {
    const std::uint32_t erradj = static_cast<std::uint32_t>((dx << 16) / dy) << 16;
    // Step k (1 .. dy - 1) draws row yy0 + k.
    const int first = std::max(1, from - yy0), last = std::min(dy - 1, to - yy0);
    std::uint32_t erracc = static_cast<std::uint32_t>(static_cast<std::uint64_t>(first - 1) * erradj);
    xx0 += xdir * carries(erradj, first - 1);
    yy0 += first - 1;
    int x0pxdir = xx0 + xdir;
    for (int k = first; k <= last; ++k) {
      const std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        xx0 = x0pxdir;
        x0pxdir += xdir;
      }
      ++yy0;
      const std::uint32_t wgt = (erracc >> 24) & 255;
      put_weighted(s, xx0, yy0, color, 255 - wgt);
      put_weighted(s, x0pxdir, yy0, color, wgt);
    }
  } else {
    const std::uint32_t erradj = static_cast<std::uint32_t>((dy << 16) / dx) << 16;
    // Step k (1 .. dx - 1) draws rows yy0 + carries(k) and the one below:
    // start at the first step that reaches row from - 1.
    const int need = from - 1 - yy0;
    int first = 1;
    if (need > 0) {
      first = erradj == 0 ? need
                          : static_cast<int>(((static_cast<std::uint64_t>(need) << 32) + erradj - 1) / erradj);
      first = std::max(first, 1);
    }
    std::uint32_t erracc = static_cast<std::uint32_t>(static_cast<std::uint64_t>(first - 1) * erradj);
    yy0 += carries(erradj, first - 1);
    xx0 += xdir * (first - 1);
    int y0p1 = yy0 + 1;
    for (int k = first; k < dx; ++k) {
      const std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        yy0 = y0p1;
        ++y0p1;
      }
      if (yy0 > to) break;
      xx0 += xdir;
      const std::uint32_t wgt = (erracc >> 24) & 255;
      put_weighted(s, xx0, yy0, color, 255 - wgt);
      put_weighted(s, xx0, y0p1, color, wgt);
    }
  }
}

// Edge i of a polygon (from vertex i - 1, wrapping, to vertex i) with its
// ends ordered so that y1 < y2; false for a horizontal edge, which both
// scanline fills skip.
template <class T>
bool upward_edge(const T* vx, const T* vy, int n, int i, int& x1, int& y1, int& x2, int& y2) {
  const int ip = i == 0 ? n - 1 : i - 1;
  if (vy[ip] == vy[i]) return false;
  const bool up = vy[ip] < vy[i];
  x1 = up ? vx[ip] : vx[i];
  y1 = up ? vy[ip] : vy[i];
  x2 = up ? vx[i] : vx[ip];
  y2 = up ? vy[i] : vy[ip];
  return true;
}

// SDL_gfx's filledPolygonColorMT: 16.16 fixed-point edge crossings, rounded.
// `ints` is scratch space (kept by the caller to save allocations).
template <class S>
void gfx_filled_polygon(S& s, const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color,
                        std::vector<int>& ints) {
  int miny = vy[0], maxy = vy[0];
  for (int i = 1; i < n; ++i) {
    miny = std::min(miny, static_cast<int>(vy[i]));
    maxy = std::max(maxy, static_cast<int>(vy[i]));
  }
  // Rows off the surface, or off the band, draw nothing.
  int from, to;
  s.band_rows(from, to);
  from = std::max({miny, from, 0});
  to = std::min({maxy, to, s.height() - 1});
  for (int y = from; y <= to; ++y) {
    ints.clear();
    for (int i = 0; i < n; ++i) {
      int x1, y1, x2, y2;
      if (!upward_edge(vx, vy, n, i, x1, y1, x2, y2)) continue;
      if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
        const std::int64_t v = static_cast<std::int64_t>((65536 * (y - y1)) / (y2 - y1)) * (x2 - x1) + 65536LL * x1;
        ints.push_back(static_cast<int>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))));
      }
    }
    std::sort(ints.begin(), ints.end());
    for (std::size_t i = 0; i + 1 < ints.size(); i += 2) {
      int xa = ints[i] + 1;
      xa = (xa >> 16) + ((xa & 32768) >> 15);
      int xb = ints[i + 1] - 1;
      xb = (xb >> 16) + ((xb & 32768) >> 15);
      hline(s, static_cast<std::int16_t>(xa), static_cast<std::int16_t>(xb), y, color);
    }
  }
}

// gfxdraw.aapolygon: the closed outline, each edge without its end point.
template <class S>
void gfx_aapolygon(S& s, const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color) {
  for (int i = 1; i < n; ++i) gfx_aaline(s, vx[i - 1], vy[i - 1], vx[i], vy[i], color);
  gfx_aaline(s, vx[n - 1], vy[n - 1], vx[0], vy[0], color);
}

// gfxdraw.aapolygon then gfxdraw.filled_polygon with the same points and
// colour, as gymnasium draws most of its polygons.
template <class S>
void gfx_polygon(S& s, const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color,
                 std::vector<int>& ints) {
  gfx_aapolygon(s, vx, vy, n, color);
  gfx_filled_polygon(s, vx, vy, n, color, ints);
}

// gfxdraw.aacircle: SDL_gfx's aaellipseColor with rx = ry = r.
template <class S>
void gfx_aacircle(S& s, int x, int y, int r, std::uint32_t color) {
  if (r < 0) return;
  if (r == 0) return vline(s, x, y, y, color);
  if (x + r < 0 || x - r > s.width() - 1 || y + r < 0 || y - r > s.height() - 1) return;
  const int a2 = r * r, b2 = r * r;
  const int ds = 2 * a2, dt = 2 * b2;
  const int xc2 = 2 * x, yc2 = 2 * y;
  const double sab = std::sqrt(static_cast<double>(a2 + b2));
  const int dxt = static_cast<std::int16_t>(std::lrint(static_cast<double>(a2) / sab));
  int t = 0, sv = -2 * a2 * r, d = 0;
  int xp = x, yp = y - r;
  put(s, xp, yp, color);
  put(s, xc2 - xp, yp, color);
  put(s, xp, yc2 - yp, color);
  put(s, xc2 - xp, yc2 - yp, color);
  const auto weights = [](int num, int den, std::uint32_t& weight, std::uint32_t& iweight) {
    float cp = 1.0f;
    if (den != 0) cp = std::min(static_cast<float>(std::abs(num)) / static_cast<float>(std::abs(den)), 1.0f);
    weight = static_cast<std::uint8_t>(cp * 255);
    iweight = 255 - weight;
  };
  std::uint32_t weight, iweight;
  for (int i = 1; i <= dxt; ++i) {
    --xp;
    d += t - b2;
    int ys;
    if (d >= 0) {
      ys = yp - 1;
    } else if ((d - sv - a2) > 0) {
      if ((2 * d - sv - a2) >= 0) {
        ys = yp + 1;
      } else {
        ys = yp;
        ++yp;
        d -= sv + a2;
        sv += ds;
      }
    } else {
      ++yp;
      ys = yp + 1;
      d -= sv + a2;
      sv += ds;
    }
    t -= dt;
    weights(d, sv, weight, iweight);
    const int xx = xc2 - xp;
    put_weighted(s, xp, yp, color, iweight);
    put_weighted(s, xx, yp, color, iweight);
    put_weighted(s, xp, ys, color, weight);
    put_weighted(s, xx, ys, color, weight);
    int yy = yc2 - yp;
    put_weighted(s, xp, yy, color, iweight);
    put_weighted(s, xx, yy, color, iweight);
    yy = yc2 - ys;
    put_weighted(s, xp, yy, color, weight);
    put_weighted(s, xx, yy, color, weight);
  }
  const int dyt = static_cast<std::int16_t>(std::lrint(static_cast<double>(b2) / sab));
  for (int i = 1; i <= dyt; ++i) {
    ++yp;
    d -= sv + a2;
    int xs;
    if (d <= 0) {
      xs = xp + 1;
    } else if ((d + t - b2) < 0) {
      if ((2 * d + t - b2) <= 0) {
        xs = xp - 1;
      } else {
        xs = xp;
        --xp;
        d += t - b2;
        t -= dt;
      }
    } else {
      --xp;
      xs = xp - 1;
      d += t - b2;
      t -= dt;
    }
    sv += ds;
    weights(d, t, weight, iweight);
    int xx = xc2 - xp;
    const int yy = yc2 - yp;
    put_weighted(s, xp, yp, color, iweight);
    put_weighted(s, xx, yp, color, iweight);
    put_weighted(s, xp, yy, color, iweight);
    put_weighted(s, xx, yy, color, iweight);
    xx = xc2 - xs;
    put_weighted(s, xs, yp, color, weight);
    put_weighted(s, xx, yp, color, weight);
    put_weighted(s, xs, yy, color, weight);
    put_weighted(s, xx, yy, color, weight);
  }
}

// gfxdraw.filled_circle: SDL_gfx's filledCircleColor, a midpoint circle of hlines.
template <class S>
void gfx_filled_circle(S& s, int x, int y, int rad, std::uint32_t color) {
  if (rad < 0) return;
  if (rad == 0) return put(s, x, y, color);
  if (x + rad < 0 || x - rad > s.width() - 1 || y + rad < 0 || y - rad > s.height() - 1) return;
  int cx = 0, cy = rad, ocx = -1, ocy = -1;
  int df = 1 - rad, d_e = 3, d_se = -2 * rad + 5;
  do {
    const int xpcx = x + cx, xmcx = x - cx, xpcy = x + cy, xmcy = x - cy;
    if (ocy != cy) {
      if (cy > 0) {
        hline(s, xmcx, xpcx, y + cy, color);
        hline(s, xmcx, xpcx, y - cy, color);
      } else {
        hline(s, xmcx, xpcx, y, color);
      }
      ocy = cy;
    }
    if (ocx != cx) {
      if (cx != cy) {
        if (cx > 0) {
          hline(s, xmcy, xpcy, y - cx, color);
          hline(s, xmcy, xpcy, y + cx, color);
        } else {
          hline(s, xmcy, xpcy, y, color);
        }
      }
      ocx = cx;
    }
    if (df < 0) {
      df += d_e;
      d_e += 2;
      d_se += 2;
    } else {
      df += d_se;
      d_e += 2;
      d_se += 4;
      --cy;
    }
    ++cx;
  } while (cx <= cy);
}

// pygame.draw.polygon (filled): draw_fillpoly's float crossings, floored for
// the left end of a span and ceiled for the right, plus the horizontal inner edges.
template <class S>
void pg_fill_polygon(S& s, const int* vx, const int* vy, int n, std::uint32_t color, std::vector<int>& ints) {
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
    hline(s, minx, maxx, miny, color);
    return;
  }
  int from, to;
  s.band_rows(from, to);
  from = std::max(from, miny);
  to = std::min(to, maxy);
  for (int y = from; y <= to; ++y) {
    ints.clear();
    for (int i = 0; i < n; ++i) {
      int x1, y1, x2, y2;
      if (!upward_edge(vx, vy, n, i, x1, y1, x2, y2)) continue;
      if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
        float f = static_cast<float>((y - y1) * (x2 - x1)) / static_cast<float>(y2 - y1);
        f = ints.size() % 2 == 0 ? std::floor(f) : std::ceil(f);
        ints.push_back(static_cast<int>(f) + x1);
      }
    }
    std::sort(ints.begin(), ints.end());
    for (std::size_t i = 0; i + 1 < ints.size(); i += 2) hline(s, ints[i], ints[i + 1], y, color);
  }
  for (int i = 0; i < n; ++i) {
    const int ip = i == 0 ? n - 1 : i - 1;
    const int y = vy[i];
    if (miny < y && vy[ip] == y && y < maxy) hline(s, vx[i], vx[ip], y, color);
  }
}

// draw.c's draw_filltri (pygame.draw.polygon of three points): the corners
// sorted by y, float32 slopes from a double division, spans truncated.
template <class S>
void pg_fill_triangle(S& s, const int* vx, const int* vy, std::uint32_t color) {
  int p0x = vx[0], p1x = vx[1], p2x = vx[2], p0y = vy[0], p1y = vy[1], p2y = vy[2];
  if (p1y < p0y) {
    std::swap(p1x, p0x);
    std::swap(p1y, p0y);
  }
  if (p2y < p1y) {
    std::swap(p1x, p2x);
    std::swap(p1y, p2y);
    if (p1y < p0y) {
      std::swap(p1x, p0x);
      std::swap(p1y, p0y);
    }
  }
  if (p0y == p1y && p1y == p2y && p0x == p1x && p1x != p2x) {
    std::swap(p1x, p2x);
    std::swap(p1y, p2y);
  }
  const float d1 = static_cast<float>((p2x - p0x) / ((p2y - p0y) + 1e-17));
  const float d2 = static_cast<float>((p1x - p0x) / ((p1y - p0y) + 1e-17));
  const float d3 = static_cast<float>((p2x - p1x) / ((p2y - p1y) + 1e-17));
  for (int y = p0y; y <= p2y; ++y) {
    const int x1 = p0x + static_cast<int>(static_cast<float>(y - p0y) * d1);
    const int x2 = y < p1y ? p0x + static_cast<int>(static_cast<float>(y - p0y) * d2)
                           : p1x + static_cast<int>(static_cast<float>(y - p1y) * d3);
    hline(s, x1, x2, y, color);
  }
}

// pygame.draw.polygon (filled) of int points: three go to draw_filltri, more to draw_fillpoly.
template <class S>
void pg_polygon(S& s, const int* vx, const int* vy, int n, std::uint32_t color, std::vector<int>& ints) {
  if (n == 3) return pg_fill_triangle(s, vx, vy, color);
  pg_fill_polygon(s, vx, vy, n, color, ints);
}

// pygame.draw.circle, filled (width 0): draw_circle_filled's hlines, after
// circle()'s checks (radius under 1, or the disc wholly off the surface: nothing).
template <class S>
void pg_circle(S& s, int x0, int y0, int radius, std::uint32_t color) {
  if (radius < 1) return;
  if (x0 > s.width() + radius || x0 < -radius || y0 > s.height() + radius || y0 < -radius) return;
  int f = 1 - radius, ddf_x = 0, ddf_y = -2 * radius, x = 0, y = radius;
  while (x < y) {
    if (f >= 0) {
      --y;
      ddf_y += 2;
      f += ddf_y;
    }
    ++x;
    ddf_x += 2;
    f += ddf_x + 1;
    // Only where the next step lowers y, as draw.c does (no overdraw).
    if (f >= 0) {
      hline(s, x0 - x, x0 + x - 1, y0 + y - 1, color);
      hline(s, x0 - x, x0 + x - 1, y0 - y, color);
    }
    hline(s, x0 - y, x0 + y - 1, y0 + x - 1, color);
    hline(s, x0 - y, x0 + y - 1, y0 - x, color);
  }
}

namespace detail {

// draw.c's Bresenham walk from (x1, y1) towards (x2, y2), one step() at a time.
struct Bresenham {
  Bresenham(int x1, int y1, int x2, int y2)
      : x(x1), y(y1), dx(std::abs(x2 - x1)), dy(std::abs(y2 - y1)), sx(x1 < x2 ? 1 : -1), sy(y1 < y2 ? 1 : -1),
        err((dx > dy ? dx : -dy) / 2) {}
  void step() {
    const int e2 = err;
    if (e2 > -dx) {
      err -= dy;
      x += sx;
    }
    if (e2 < dy) {
      err += dx;
      y += sy;
    }
  }
  int x, y;
  const int dx, dy, sx, sy;
  int err;
};

}  // namespace detail

// pygame.draw.line, width 1: Bresenham from the truncated end points.
template <class S>
void pg_line(S& s, int x1, int y1, int x2, int y2, std::uint32_t color) {
  if (y1 == y2) return hline(s, x1, x2, y1, color);
  if (x1 == x2) return vline(s, x1, y1, y2, color);
  for (detail::Bresenham b(x1, y1, x2, y2); b.x != x2 || b.y != y2; b.step()) put(s, b.x, b.y, color);
  put(s, x2, y2, color);
}

namespace detail {

// draw.c's get_antialiased_color: float blend with what is there, truncated.
template <class S>
void pg_blend(S& s, int x, int y, std::uint32_t color, float brightness) {
  if (x < 0 || x >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  std::uint32_t out = 0;
  for (int shift = 0; shift <= 16; shift += 8) {
    const float c = static_cast<float>((color >> shift) & 0xff);
    const float b = static_cast<float>((p >> shift) & 0xff);
    out |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(brightness * c + (1 - brightness) * b)) << shift;
  }
  p = out;
}

}  // namespace detail

// draw.c's draw_aaline: Wu's algorithm in float32, the line clipped one pixel
// wider than the surface, end points drawn or not as aalines asks.
template <class S>
void pg_aaline(S& s, std::uint32_t color, float from_x, float from_y, float to_x, float to_y,
               bool disable_first_endpoint, bool disable_second_endpoint, bool extra_pixel) {
  float dx = to_x - from_x;
  float dy = to_y - from_y;
  if (std::fabs(dx) < 0.0001 && std::fabs(dy) < 0.0001) {
    detail::pg_blend(s, static_cast<int>(std::floor(from_x + 0.5)), static_cast<int>(std::floor(from_y + 0.5)),
                     color, 1.0f);
    return;
  }
  float clip_left = -1.0f;
  float clip_right = clip_left + static_cast<float>(s.width()) + 1.0f;
  float clip_top = -1.0f;
  float clip_bottom = clip_top + static_cast<float>(s.height()) + 1.0f;
  const bool steep = std::fabs(dx) < std::fabs(dy);
  if (steep) {
    std::swap(from_x, from_y);
    std::swap(to_x, to_y);
    std::swap(dx, dy);
    std::swap(clip_left, clip_top);
    std::swap(clip_right, clip_bottom);
  }
  if (dx < 0) {
    std::swap(from_x, to_x);
    std::swap(from_y, to_y);
    dx = -dx;
    dy = -dy;
  }
  if (to_x <= clip_left || from_x >= clip_right) return;
  const float gradient = dy / dx;
  if (from_x < clip_left) {
    from_y += gradient * (clip_left - from_x);
    from_x = clip_left;
  }
  if (to_x > clip_right) {
    to_y += gradient * (clip_right - to_x);
    to_x = clip_right;
  }
  if (gradient > 0.0f) {
    if (to_y <= clip_top || from_y >= clip_bottom) return;
    if (from_y < clip_top) {
      from_x += (clip_top - from_y) / gradient;
      from_y = clip_top;
    }
    if (to_y > clip_bottom) {
      to_x += (clip_bottom - to_y) / gradient;
      to_y = clip_bottom;
    }
  } else {
    if (from_y <= clip_top || to_y >= clip_bottom) return;
    if (to_y < clip_top) {
      to_x += (clip_top - to_y) / gradient;
      to_y = clip_top;
    }
    if (from_y > clip_bottom) {
      from_x += (clip_bottom - from_y) / gradient;
      from_y = clip_bottom;
    }
  }
  // One pixel down, so that (int) rounds down; pixels are drawn one higher.
  from_y += 1.0f;
  to_y += 1.0f;
  const auto plot = [&](int a, int b, float brightness) {
    if (steep) {
      detail::pg_blend(s, b, a, color, brightness);
    } else {
      detail::pg_blend(s, a, b, color, brightness);
    }
  };
  // An end point: the two pixels across the line at column xp, weighted by x_gap.
  const auto endpoint = [&](int xp, float y_endpoint, float x_gap) {
    float brightness = y_endpoint - static_cast<float>(static_cast<int>(y_endpoint));
    const int yi = static_cast<int>(y_endpoint);
    if (static_cast<float>(yi) < y_endpoint) plot(xp, yi, brightness * x_gap);
    brightness = 1 - brightness;
    plot(xp, yi - 1, brightness * x_gap);
  };
  int x_pixel_start = 0;
  float intersect_y = 0;
  if (!disable_first_endpoint || extra_pixel) {
    x_pixel_start = static_cast<int>(from_x);
    const float y_endpoint = intersect_y = from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
    if (to_x > clip_left + 1.0f) {
      endpoint(x_pixel_start, y_endpoint, 1 + static_cast<float>(x_pixel_start) - from_x);
      intersect_y += gradient;
      ++x_pixel_start;
    }
  }
  if (disable_first_endpoint) {
    x_pixel_start = static_cast<int>(std::ceil(from_x));
    intersect_y = from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
  }
  const int x_pixel_end = static_cast<int>(std::ceil(to_x));
  if (!disable_second_endpoint || extra_pixel) {
    if (from_x < clip_right - 1.0f) {
      const float y_endpoint = to_y + gradient * (static_cast<float>(x_pixel_end) - to_x);
      endpoint(x_pixel_end, y_endpoint, 1 - static_cast<float>(x_pixel_end) + to_x);
    }
  }
  for (int x = x_pixel_start; x < x_pixel_end; ++x) {
    const int y = static_cast<int>(intersect_y);
    float brightness = 1 - intersect_y + static_cast<float>(y);
    plot(x, y - 1, brightness);
    if (static_cast<float>(y) < intersect_y) plot(x, y, 1 - brightness);
    intersect_y += gradient;
  }
}

// draw.c's draw_line_width (pygame.draw.line(s) with width > 1): Bresenham
// along the longer axis, each step a span of `width` pixels across it
// (starting width / 2 before the line, one later for an even width).
template <class S>
void pg_line_width(S& s, int x1, int y1, int x2, int y2, int width, std::uint32_t color) {
  if (width < 1) return;
  if (width == 1) return pg_line(s, x1, y1, x2, y2, color);
  const int end_x = s.width() - 1, end_y = s.height() - 1;
  const int extra = 1 - (width % 2);
  width /= 2;
  const bool xinc = std::abs(x1 - x2) <= std::abs(y1 - y2);  // spans run along x
  const int grow_x = xinc ? width : 0, grow_y = xinc ? 0 : width;
  if (std::max(x1, x2) + grow_x < 0 || std::max(y1, y2) + grow_y < 0 || std::min(x1, x2) - grow_x >= s.width() ||
      std::min(y1, y2) - grow_y >= s.height()) {
    return;
  }
  const auto span_x = [&](int x, int y) {
    const int from = std::max(x - width + extra, 0), to = std::min(end_x, x + width);
    if (from <= to) hline(s, from, to, y, color);
  };
  if (x1 == x2 && y1 == y2) return span_x(x1, y1);
  detail::Bresenham b(x1, y1, x2, y2);
  if (xinc) {
    for (; b.y != y2 + b.sy; b.step()) {
      if (0 <= b.y && b.y <= end_y) span_x(b.x, b.y);
    }
  } else {
    for (; b.x != x2 + b.sx; b.step()) {
      if (0 <= b.x && b.x <= end_x) {
        const int from = std::max(b.y - width + extra, 0), to = std::min(end_y, b.y + width);
        if (from <= to) vline(s, b.x, from, to, color);
      }
    }
  }
}

// pygame.draw.lines, width 1, of int points.
template <class S>
void pg_lines(S& s, std::uint32_t color, const int* xs, const int* ys, int n, bool closed) {
  for (int i = 1; i < n; ++i) pg_line(s, xs[i - 1], ys[i - 1], xs[i], ys[i], color);
  if (closed && n > 2) pg_line(s, xs[n - 1], ys[n - 1], xs[0], ys[0], color);
}

// pygame.draw.aalines: each segment's inner end points left to the next, an
// extra pixel where a steep segment meets a shallow one; `closed` joins the
// last point to the first and leaves the outer end points out too.
template <class S>
void pg_aalines(S& s, std::uint32_t color, const float* xs, const float* ys, int n, bool closed = false) {
  const auto steep = [&](int a, int b) { return std::fabs(xs[b] - xs[a]) < std::fabs(ys[b] - ys[a]); };
  const auto whole = [&](int i) { return std::round(xs[i]) == xs[i] && std::round(ys[i]) == ys[i]; };
  // First segment; aalines compares its steepness with a mix of the next
  // segment's x and this one's y (sic), and keeps the result.
  bool steep_prev = steep(0, 1);
  bool steep_curr = n > 2 && std::fabs(xs[2] - xs[1]) < std::fabs(ys[2] - ys[0]);
  bool disable = !whole(1);
  pg_aaline(s, color, xs[0], ys[0], xs[1], ys[1], closed && disable, disable, steep_prev > steep_curr);
  int prev = 0;
  for (int i = 2; i < n - 1; ++i) {
    steep_prev = steep(prev, prev + 1);
    steep_curr = steep(i - 1, i);
    disable = !whole(i);
    prev = i - 1;
    pg_aaline(s, color, xs[i - 1], ys[i - 1], xs[i], ys[i], disable, disable, steep_prev != steep_curr);
  }
  steep_prev = steep(prev, prev + 1);
  steep_curr = steep(n - 2, n - 1);
  disable = !whole(n - 1);
  pg_aaline(s, color, xs[n - 2], ys[n - 2], xs[n - 1], ys[n - 1], disable, closed && disable,
            steep_prev != steep_curr);
  if (closed && n > 2) {
    steep_prev = steep_curr;
    steep_curr = steep(n - 1, 0);
    disable = !whole(0);
    pg_aaline(s, color, xs[n - 1], ys[n - 1], xs[0], ys[0], disable, disable, steep_prev != steep_curr);
  }
}

struct Point {
  double x, y;
};

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
inline std::int16_t to_sint16(double v) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::int64_t>(v) & 0xffff));
}

// gymnasium's gfxdraw.aapolygon + filled_polygon of float points (at most 8).
template <class S>
void gfx_polygon(S& s, const Point* pts, int n, std::uint32_t color, std::vector<int>& ints) {
  std::int16_t vx[8], vy[8];
  for (int i = 0; i < n; ++i) {
    vx[i] = to_sint16(pts[i].x);
    vy[i] = to_sint16(pts[i].y);
  }
  gfx_polygon(s, vx, vy, n, color, ints);
}

// pygame.draw.polygon of float points (int() of each coordinate), then, if
// `outline`, gfxdraw.aapolygon of the same points (at most 8).
template <class S>
void pg_polygon(S& s, const double* xs, const double* ys, int n, std::uint32_t color, bool outline,
                std::vector<int>& ints) {
  int ix[8] = {}, iy[8] = {};
  std::int16_t gx[8] = {}, gy[8] = {};
  for (int i = 0; i < n; ++i) {
    ix[i] = static_cast<int>(xs[i]);
    iy[i] = static_cast<int>(ys[i]);
    gx[i] = to_sint16(xs[i]);
    gy[i] = to_sint16(ys[i]);
  }
  pg_polygon(s, ix, iy, n, color, ints);
  if (outline) gfx_aapolygon(s, gx, gy, n, color);
}

// gfxdraw.aacircle then gfxdraw.filled_circle, as gymnasium draws its discs.
template <class S>
void gfx_disc(S& s, int x, int y, int r, std::uint32_t color) {
  gfx_aacircle(s, x, y, r, color);
  gfx_filled_circle(s, x, y, r, color);
}

// pygame.transform.smoothscale's shrink filter (the SSE2 one pygame uses on
// x86-64) for one 8-bit channel of a w x h image to dw x dh (dw <= w,
// dh <= h): X first, then Y; 14-bit fixed-point weights, whole source pixels
// summed in 16 bits, the pixel on a boundary split between two outputs.
inline std::vector<std::uint8_t> smoothscale_shrink(const std::uint8_t* src, int w, int h, int dw, int dh) {
  std::vector<std::uint8_t> half(static_cast<std::size_t>(dw) * h);
  const int xspace = 0x4000 * w / dw;
  const std::uint32_t xrecip = static_cast<std::uint16_t>(0x40000000 / xspace);
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* in = src + static_cast<std::size_t>(y) * w;
    std::uint8_t* out = half.data() + static_cast<std::size_t>(y) * dw;
    std::uint32_t acc = 0;
    int xcounter = xspace, j = 0;
    for (int x = 0; x < w && j < dw; ++x) {
      if (xcounter > 0x4000) {
        acc = (acc + in[x]) & 0xffffu;
        xcounter -= 0x4000;
      } else {
        const int xfrac = 0x4000 - xcounter;
        const std::uint32_t v = static_cast<std::uint32_t>(in[x]) << 2;
        const std::uint32_t d = (((v * static_cast<std::uint32_t>(xcounter)) >> 16) + acc) & 0xffffu;
        out[j++] = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * xrecip) >> 16, 255));
        acc = (v * static_cast<std::uint32_t>(xfrac)) >> 16;
        xcounter = xspace - xfrac;
      }
    }
  }
  std::vector<std::uint8_t> out(static_cast<std::size_t>(dw) * dh);
  const int yspace = 0x4000 * h / dh;
  const std::uint32_t yrecip = static_cast<std::uint16_t>(0x40000000 / yspace);
  std::vector<std::uint32_t> acc(static_cast<std::size_t>(dw), 0);
  int ycounter = yspace, j = 0;
  for (int y = 0; y < h && j < dh; ++y) {
    const std::uint8_t* in = half.data() + static_cast<std::size_t>(y) * dw;
    if (ycounter > 0x4000) {
      for (int x = 0; x < dw; ++x) acc[x] = (acc[x] + in[x]) & 0xffffu;
      ycounter -= 0x4000;
    } else {
      const int yfrac = 0x4000 - ycounter;
      std::uint8_t* row = out.data() + static_cast<std::size_t>(j++) * dw;
      for (int x = 0; x < dw; ++x) {
        const std::uint32_t v = static_cast<std::uint32_t>(in[x]) << 2;
        const std::uint32_t d = (((v * static_cast<std::uint32_t>(ycounter)) >> 16) + acc[x]) & 0xffffu;
        row[x] = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * yrecip) >> 16, 255));
        acc[x] = (v * static_cast<std::uint32_t>(yfrac)) >> 16;
      }
      ycounter = yspace - yfrac;
    }
  }
  return out;
}

// SDL2's per-pixel alpha blit of one ARGB pixel (colour `color`, alpha a)
// onto an XRGB surface: red and blue blended together in one word, green in
// another, d + ((s - d) * a >> 8) in unsigned 32-bit arithmetic.
template <class S>
void blit_alpha(S& s, int x, int y, std::uint32_t color, std::uint32_t a) {
  if (a == 0 || x < 0 || x >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  if (a == 255) {
    p = color & 0x00ffffffu;
    return;
  }
  const std::uint32_t s1 = color & 0xff00ffu, d1 = p & 0xff00ffu;
  const std::uint32_t rb = (d1 + (((s1 - d1) * a) >> 8)) & 0xff00ffu;
  const std::uint32_t s2 = color & 0xff00u, d2 = p & 0xff00u;
  const std::uint32_t g = (d2 + (((s2 - d2) * a) >> 8)) & 0xff00u;
  p = rb | g;
}

// An image gymnasium draws from a PNG file of its package, named by its
// path there (e.g. "envs/toy_text/img/tile_ice.png"). Nothing of it is in
// rlpool's sources: at make time rlpool.images decodes gymnasium's files into
// a cache folder, the env's `_images` option, which load() reads.
struct Sprite {
  const char* file;
};

// An ARGB picture (0xAARRGGBB, row-major): a loaded sprite, or one scaled from it.
struct Pixels {
  int width = 0, height = 0;
  std::vector<std::uint32_t> argb;
};

// `sprite` from `folder` (rlpool.images' format: "RLPIMG01", width and
// height as little-endian uint32, then the pixels as little-endian uint32),
// read once per process. std::runtime_error names a missing or bad file.
inline const Pixels& load(const std::string& folder, const Sprite& sprite) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<const Pixels>> cache;
  if (folder.empty()) {
    throw std::runtime_error(std::string("no image folder to draw ") + sprite.file +
                             " from (the env's _images option, which rlpool.make sets)");
  }
  const std::string path = folder + "/" + sprite.file + ".argb";
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[path];
  if (!slot) {
    const auto fail = [&](const std::string& why) {
      cache.erase(path);
      throw std::runtime_error("cannot read image " + path + ": " + why);
    };
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("no such file");
    char magic[8] = {};
    std::uint32_t size[2] = {};
    in.read(magic, sizeof(magic));
    in.read(reinterpret_cast<char*>(size), sizeof(size));  // little-endian, as on every target
    if (!in || std::memcmp(magic, "RLPIMG01", 8) != 0) fail("not an rlpool image file");
    if (size[0] == 0 || size[1] == 0 || size[0] > 16384 || size[1] > 16384) fail("bad size");
    in.seekg(0, std::ios::end);
    const auto file_size = static_cast<std::uint64_t>(in.tellg());
    if (file_size != 16 + 4 * std::uint64_t{size[0]} * size[1]) fail("its size does not match its header");
    in.seekg(16);
    auto p = std::make_unique<Pixels>();
    p->width = static_cast<int>(size[0]);
    p->height = static_cast<int>(size[1]);
    p->argb.resize(static_cast<std::size_t>(size[0]) * size[1]);
    in.read(reinterpret_cast<char*>(p->argb.data()), static_cast<std::streamsize>(p->argb.size() * 4));
    if (!in) fail("truncated");
    slot = std::move(p);
  }
  return *slot;
}

// pygame.transform.scale: SDL's nearest-neighbour stretch, 16.16 fixed-point
// steps starting half a step in.
inline Pixels scale_nearest(const Pixels& src, int w, int h) {
  Pixels out{w, h, std::vector<std::uint32_t>(static_cast<std::size_t>(w) * h)};
  const std::uint32_t incx = (static_cast<std::uint32_t>(src.width) << 16) / static_cast<std::uint32_t>(w);
  const std::uint32_t incy = (static_cast<std::uint32_t>(src.height) << 16) / static_cast<std::uint32_t>(h);
  std::uint32_t posy = incy / 2;
  for (int y = 0; y < h; ++y, posy += incy) {
    const std::uint32_t* row = src.argb.data() + static_cast<std::size_t>(posy >> 16) * src.width;
    std::uint32_t posx = incx / 2;
    for (int x = 0; x < w; ++x, posx += incx) out.argb[static_cast<std::size_t>(y) * w + x] = row[posx >> 16];
  }
  return out;
}

// pygame.transform.flip: mirrored left-right and/or upside down.
inline Pixels flip(const Pixels& src, bool horizontal, bool vertical) {
  Pixels out{src.width, src.height, std::vector<std::uint32_t>(src.argb.size())};
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      const int sx = horizontal ? src.width - 1 - x : x, sy = vertical ? src.height - 1 - y : y;
      out.argb[static_cast<std::size_t>(y) * src.width + x] = src.argb[static_cast<std::size_t>(sy) * src.width + sx];
    }
  }
  return out;
}

// Surface.blit of an ARGB picture with its per-pixel alpha, top left at (x, y).
template <class S>
void blit(S& s, const Pixels& p, int x, int y) {
  for (int j = 0; j < p.height; ++j) {
    const std::uint32_t* row = p.argb.data() + static_cast<std::size_t>(j) * p.width;
    for (int i = 0; i < p.width; ++i) blit_alpha(s, x + i, y + j, row[i], row[i] >> 24);
  }
}

}  // namespace rlpool::draw
