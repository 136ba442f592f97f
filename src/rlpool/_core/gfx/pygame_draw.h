// pygame.draw's primitives: pygame's own draw.c, with its integer and float
// arithmetic (float crossings of polygon fills, Bresenham lines, float32 Wu
// anti-aliasing), so that the pixels come out the same as gymnasium's frames.
// On a surface of surface.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "_core/gfx/surface.h"

namespace rlpool::draw {

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

}  // namespace rlpool::draw
