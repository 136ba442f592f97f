// pygame.gfxdraw's primitives: SDL_gfx as pygame-ce bundles it, with its
// integer and float arithmetic (Cohen-Sutherland clipping, Wu's lines,
// 16.16 fixed-point polygon fills, midpoint circles), so that the pixels come
// out the same as gymnasium's frames. On a surface of surface.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "_core/gfx/surface.h"

namespace rlpool::draw {

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

}  // namespace rlpool::draw
