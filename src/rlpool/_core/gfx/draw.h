// pygame's drawing as gymnasium's render() uses it, pixel for pixel: what an
// env that draws its frame includes. The primitives are in
//   surface.h      the XRGB8888 surface (Image) and pixel writes
//   gfxdraw.h      pygame.gfxdraw (SDL_gfx)
//   pygame_draw.h  pygame.draw (draw.c)
//   images.h       sprites from gymnasium's PNGs: load, scale, flip, blit
// and here are the shapes gymnasium composes from them: rotated points,
// polygons of float points, discs.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "_core/gfx/gfxdraw.h"
#include "_core/gfx/images.h"
#include "_core/gfx/pygame_draw.h"
#include "_core/gfx/surface.h"

namespace rlpool::draw {

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

}  // namespace rlpool::draw
