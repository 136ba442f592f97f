// The pygame-like raster layer of the highway family's renderer: filled and outlined rectangles, 1-pixel and
// thick lines, polylines, nearest-neighbour surface rotation, alpha blits, Vector2 rotation and
// highway-env's blit_rotate helper.
//
// Follows pygame-ce 2.5's src_c/draw.c (rect, draw_rect; lines are the shared port of draw.c in
// _core/gfx/pygame_draw.h), src_c/transform.c (surf_rotate, rotate, rotate90), src_c/math.c (Vector2.rotate:
// degrees to radians as angle * (pi / 180), quarter turns special-cased within epsilon 1e-6),
// src_c/alphablit.c (ALPHA_BLEND) and highway-env's blit_rotate (highway_env/vehicle/graphics.py). Integer
// and float arithmetic follows the C code (transform.rotate's C float angle, truncating int conversions).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "_core/gfx/pygame_draw.h"
#include "_core/gfx/surface.h"
#include "envs/highway/render.h"

namespace rlpool::highway::raster {
namespace {

struct Rect {
  int x, y, w, h;
};

// SDL_IntersectRect: false (nothing) where either rectangle is empty or they do not meet.
bool intersect(const Rect& a, const Rect& b, Rect& out) {
  if (a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0) return false;
  int amin = std::max(a.x, b.x);
  int amax = std::min(a.x + a.w, b.x + b.w);
  int bmin = std::max(a.y, b.y);
  int bmax = std::min(a.y + a.h, b.y + b.h);
  out = {amin, bmin, amax - amin, bmax - bmin};
  return out.w > 0 && out.h > 0;
}

void fill(Surface& s, const Rect& r, std::uint32_t color) {
  for (int y = r.y; y < r.y + r.h; ++y) std::fill_n(&s.at(r.x, y), r.w, color);
}

// draw.c's draw_rect (the outline of width `width`), made of drawhorzlineclip spans.
void rect_outline(Surface& s, int x1, int y1, int x2, int y2, int width, std::uint32_t color) {
  for (int i = 0; i < width; i++) {
    draw::hline(s, x1, x2, y1 + i, color);
    draw::hline(s, x1, x2, y2 - i, color);
  }
  for (int i = 0; i < (y2 - y1) - 2 * width + 1; i++) {
    draw::hline(s, x1, x1 + width - 1, y1 + width + i, color);
    draw::hline(s, x2 - width + 1, x2, y1 + width + i, color);
  }
}

// transform.c's rotate90.
Surface rotate90(const Surface& src, int angle) {
  int numturns = (angle / 90) % 4;
  if (numturns < 0) numturns = 4 + numturns;
  const bool swap_sides = numturns % 2 != 0;
  Surface dst(swap_sides ? src.h : src.w, swap_sides ? src.w : src.h);
  for (int y = 0; y < dst.h; ++y) {
    for (int x = 0; x < dst.w; ++x) {
      int sx = x, sy = y;
      switch (numturns) {
        case 1:
          sx = src.w - 1 - y;
          sy = x;
          break;
        case 2:
          sx = src.w - 1 - x;
          sy = src.h - 1 - y;
          break;
        case 3:
          sx = y;
          sy = src.h - 1 - x;
          break;
        default:
          break;
      }
      dst.at(x, y) = src.at(sx, sy);
    }
  }
  return dst;
}

}  // namespace

void draw_rect(Surface& surface, const Color& color, int x, int y, int w, int h, int width) {
  if (width < 0) return;
  Rect clipped;
  if (!intersect({x, y, w, h}, {0, 0, surface.w, surface.h}, clipped)) return;
  const std::uint32_t c = map_rgba(color);
  if (width > 0 && (width * 2) < clipped.w && (width * 2) < clipped.h) {
    rect_outline(surface, x, y, x + w - 1, y + h - 1, width, c);
  } else {
    fill(surface, clipped, c);
  }
}

void draw_line(Surface& surface, const Color& color, int x1, int y1, int x2, int y2, int width) {
  draw::pg_line_width(surface, x1, y1, x2, y2, width, map_rgba(color));
}

void draw_lines(Surface& surface, const Color& color, bool closed, const std::vector<std::array<int, 2>>& points,
                int width) {
  if (points.size() < 2 || width < 1) return;
  const std::uint32_t c = map_rgba(color);
  const std::size_t n = points.size();
  for (std::size_t i = 1; i < n; ++i)
    draw::pg_line_width(surface, points[i - 1][0], points[i - 1][1], points[i][0], points[i][1], width, c);
  if (closed && n > 2)
    draw::pg_line_width(surface, points[n - 1][0], points[n - 1][1], points[0][0], points[0][1], width, c);
}

Surface rotate(const Surface& surf, float angle) {
  if (surf.w < 1 || surf.h < 1) return surf;
  if (!(std::fmod(static_cast<double>(angle), static_cast<double>(90.0f)))) {
    return rotate90(surf, static_cast<int>(angle));
  }
  const double radangle = angle * .01745329251994329;
  const double sangle = std::sin(radangle);
  const double cangle = std::cos(radangle);
  const double x = surf.w;
  const double y = surf.h;
  const double cx = cangle * x;
  const double cy = cangle * y;
  const double sx = sangle * x;
  const double sy = sangle * y;
  const int nxmax = static_cast<int>(std::max(std::max(std::max(std::fabs(cx + sy), std::fabs(cx - sy)),
                                                       std::fabs(-cx + sy)),
                                              std::fabs(-cx - sy)));
  const int nymax = static_cast<int>(std::max(std::max(std::max(std::fabs(sx + cy), std::fabs(sx - cy)),
                                                       std::fabs(-sx + cy)),
                                              std::fabs(-sx - cy)));
  Surface dst(nxmax, nymax);
  // The background: the source's top-left pixel without its alpha (transparent on an alpha surface).
  const std::uint32_t bgcolor = surf.px[0] & ~0xff000000u;
  // transform.c's rotate: 16.16 fixed-point stepping through the source.
  const int cyc = dst.h / 2;
  const int xd = ((surf.w - dst.w) << 15);
  const int yd = ((surf.h - dst.h) << 15);
  const int isin = static_cast<int>(sangle * 65536);
  const int icos = static_cast<int>(cangle * 65536);
  const int ax = ((dst.w) << 15) - static_cast<int>(cangle * ((static_cast<long long>(dst.w) - 1) << 15));
  const int ay = ((dst.h) << 15) - static_cast<int>(sangle * ((static_cast<long long>(dst.w) - 1) << 15));
  const int xmaxval = ((surf.w) << 16) - 1;
  const int ymaxval = ((surf.h) << 16) - 1;
  for (int yy = 0; yy < dst.h; yy++) {
    int dx = (ax + (isin * (cyc - yy))) + xd;
    int dy = (ay - (icos * (cyc - yy))) + yd;
    std::uint32_t* dstpos = &dst.at(0, yy);
    for (int xx = 0; xx < dst.w; xx++) {
      if (dx < 0 || dy < 0 || dx > xmaxval || dy > ymaxval)
        *dstpos++ = bgcolor;
      else
        *dstpos++ = surf.at(dx >> 16, dy >> 16);
      dx += icos;
      dy += isin;
    }
  }
  return dst;
}

void blit(Surface& dst, const Surface& src, int x, int y, bool dst_alpha) {
  Rect r;
  if (!intersect({x, y, src.w, src.h}, {0, 0, dst.w, dst.h}, r)) return;
  for (int yy = r.y; yy < r.y + r.h; ++yy) {
    for (int xx = r.x; xx < r.x + r.w; ++xx) {
      const std::uint32_t s = src.at(xx - x, yy - y);
      const int sa = static_cast<int>(s >> 24);
      if (sa == 0) continue;
      std::uint32_t& d = dst.at(xx, yy);
      if (sa == 255) {
        d = s;
        continue;
      }
      const int sr = (s >> 16) & 0xff, sg = (s >> 8) & 0xff, sb = s & 0xff;
      int dr = (d >> 16) & 0xff, dg = (d >> 8) & 0xff, db = d & 0xff;
      int da = dst_alpha ? static_cast<int>(d >> 24) : 255;
      if (da) {
        // ALPHA_BLEND_COMP: (((sC - dC) * sA + sC) >> 8) + dC (arithmetic shift).
        dr = (((sr - dr) * sa + sr) >> 8) + dr;
        dg = (((sg - dg) * sa + sg) >> 8) + dg;
        db = (((sb - db) * sa + sb) >> 8) + db;
        da = sa + da - ((sa * da) / 255);
      } else {
        dr = sr;
        dg = sg;
        db = sb;
        da = sa;
      }
      d = (static_cast<std::uint32_t>(dst_alpha ? da : 0) << 24) | (static_cast<std::uint32_t>(dr) << 16) |
          (static_cast<std::uint32_t>(dg) << 8) | static_cast<std::uint32_t>(db);
    }
  }
}

Vec2 vector2_rotate(const Vec2& v, double angle_degrees) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  constexpr double kHalfPi = std::numbers::pi / 2;
  constexpr double kEpsilon = 1e-6;
  double angle = angle_degrees * (std::numbers::pi / 180.0);
  angle = std::fmod(angle, kTwoPi);
  if (angle < 0) angle += kTwoPi;
  if (std::fmod(angle + kEpsilon, kHalfPi) < 2 * kEpsilon) {
    switch (static_cast<int>((angle + kEpsilon) / kHalfPi)) {
      case 1:
        return {-v[1], v[0]};
      case 2:
        return {-v[0], -v[1]};
      case 3:
        return {v[1], -v[0]};
      default:
        return v;
    }
  }
  const double s = std::sin(angle);
  const double c = std::cos(angle);
  return {c * v[0] - s * v[1], s * v[0] + c * v[1]};
}

void blit_rotate(Surface& surf, const Surface& image, const std::array<double, 2>& pos, double angle,
                 bool dst_alpha) {
  const double w = image.w;
  const double h = image.h;
  const std::array<Vec2, 4> box{Vec2{0.0, 0.0}, Vec2{w, 0.0}, Vec2{w, -h}, Vec2{0.0, -h}};
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  for (std::size_t i = 0; i < box.size(); ++i) {
    const Vec2 p = vector2_rotate(box[i], angle);
    if (i == 0 || p[0] < min_x) min_x = p[0];
    if (i == 0 || p[1] < min_y) min_y = p[1];
    if (i == 0 || p[0] > max_x) max_x = p[0];
    if (i == 0 || p[1] > max_y) max_y = p[1];
  }
  const std::array<double, 2> origin_pos{w / 2, h / 2};
  const Vec2 pivot{origin_pos[0], -origin_pos[1]};
  const Vec2 pivot_rotate = vector2_rotate(pivot, angle);
  const Vec2 pivot_move{pivot_rotate[0] - pivot[0], pivot_rotate[1] - pivot[1]};
  const double origin_x = pos[0] - origin_pos[0] + min_x - pivot_move[0];
  const double origin_y = pos[1] - origin_pos[1] - max_y + pivot_move[1];
  const Surface rotated = rotate(image, static_cast<float>(angle));
  // Surface.blit truncates a float position towards zero.
  blit(surf, rotated, static_cast<int>(origin_x), static_cast<int>(origin_y), dst_alpha);
}

}  // namespace rlpool::highway::raster
