#include "car_racing_render.h"

#include <algorithm>
#include <cmath>

namespace rlpool::box2d::car_render {

// SDL_gfx's alpha blend into a 32-bit surface: per channel
// d + ((s - d) * a >> 8), the shift arithmetic (its unsigned wrap-around
// amounts to that).
void Canvas::put_weighted(int x, int y, std::uint32_t color, std::uint32_t weight) {
  const int a = static_cast<int>((255u * weight) >> 8);
  if (!inside(x, y)) return;
  std::uint32_t& p = row(y)[x];
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
  if (y < 0 || y >= kWindowH || x2 < 0 || x1 >= kWindowW) return;
  x1 = std::max(x1, 0);
  x2 = std::min(x2, kWindowW - 1);
  std::uint32_t* r = row(y);
  std::fill(r + x1, r + x2 + 1, color);
}

void Canvas::vline(int x, int y1, int y2, std::uint32_t color) {
  if (y1 > y2) std::swap(y1, y2);
  if (x < 0 || x >= kWindowW || y2 < 0 || y1 >= kWindowH) return;
  y1 = std::max(y1, 0);
  y2 = std::min(y2, kWindowH - 1);
  for (int y = y1; y <= y2; ++y) row(y)[x] = color;
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
  // Rows off the surface draw nothing.
  const int from = std::max(miny, 0);
  const int to = std::min(maxy, kWindowH - 1);
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

void Canvas::gfx_polygon(const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color) {
  for (int i = 1; i < n; ++i) aaline(vx[i - 1], vy[i - 1], vx[i], vy[i], color);
  aaline(vx[n - 1], vy[n - 1], vx[0], vy[0], color);
  filled_polygon(vx, vy, n, color);
}

// pygame's draw_fillpoly: float crossings, floored for the left end of a
// span and ceiled for the right, plus the horizontal inner edges.
void Canvas::draw_polygon(const int* vx, const int* vy, int n, std::uint32_t color) {
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
  for (int y = miny; y <= maxy; ++y) {
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

// smoothscale's SSE2 shrink filters: 14-bit fixed-point weights, 16-bit
// lanes (mulhi, wrapping adds, saturating pack); X first, then Y.
void Canvas::smoothscale_96(std::uint8_t* out) {
  constexpr int kOut = 96;
  half_.assign(static_cast<std::size_t>(kWindowH) * kOut * 3, 0);
  const int xspace = 0x4000 * kWindowW / kOut;
  const std::uint32_t xrecip = static_cast<std::uint16_t>(0x40000000 / xspace);
  for (int y = 0; y < kWindowH; ++y) {
    const std::uint32_t* src = px_.data() + static_cast<std::size_t>(y) * kWindowW;
    std::uint8_t* dst = half_.data() + static_cast<std::size_t>(y) * kOut * 3;
    std::uint16_t acc[3] = {0, 0, 0};
    int xcounter = xspace;
    for (int x = 0; x < kWindowW; ++x) {
      const std::uint32_t p = src[x];
      const std::uint32_t ch[3] = {(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff};
      if (xcounter > 0x4000) {
        for (int c = 0; c < 3; ++c) acc[c] = static_cast<std::uint16_t>(acc[c] + ch[c]);
        xcounter -= 0x4000;
      } else {
        const int xfrac = 0x4000 - xcounter;
        for (int c = 0; c < 3; ++c) {
          const std::uint32_t v = ch[c] << 2;
          const std::uint16_t d = static_cast<std::uint16_t>(((v * static_cast<std::uint32_t>(xcounter)) >> 16) + acc[c]);
          *dst++ = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * xrecip) >> 16, 255));
          acc[c] = static_cast<std::uint16_t>((v * static_cast<std::uint32_t>(xfrac)) >> 16);
        }
        xcounter = xspace - xfrac;
      }
    }
  }
  const int yspace = 0x4000 * kWindowH / kOut;
  const std::uint32_t yrecip = static_cast<std::uint16_t>(0x40000000 / yspace);
  std::uint16_t acc[kOut * 3] = {};
  int ycounter = yspace;
  for (int y = 0; y < kWindowH; ++y) {
    const std::uint8_t* src = half_.data() + static_cast<std::size_t>(y) * kOut * 3;
    if (ycounter > 0x4000) {
      for (int i = 0; i < kOut * 3; ++i) acc[i] = static_cast<std::uint16_t>(acc[i] + src[i]);
      ycounter -= 0x4000;
    } else {
      const int yfrac = 0x4000 - ycounter;
      for (int i = 0; i < kOut * 3; ++i) {
        const std::uint32_t v = static_cast<std::uint32_t>(src[i]) << 2;
        const std::uint16_t d = static_cast<std::uint16_t>(((v * static_cast<std::uint32_t>(ycounter)) >> 16) + acc[i]);
        *out++ = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * yrecip) >> 16, 255));
        acc[i] = static_cast<std::uint16_t>((v * static_cast<std::uint32_t>(yfrac)) >> 16);
      }
      ycounter = yspace - yfrac;
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

void Canvas::draw(const FrameInput& in, std::uint8_t* obs) {
  const Rotation rotate(in.angle);
  const Point scroll = rotate(-in.car_x * in.zoom, -in.car_y * in.zoom);
  const double tx = kWindowW / 2 + scroll.x;
  const double ty = kWindowH / 4 + scroll.y;
  std::fill(px_.begin(), px_.end(), 0u);  // a new black surface per frame
  set_flipped(true);                      // the world is drawn upside down, then flipped
  std::int16_t vx[4], vy[4];
  const auto world_poly = [&](const Point* pts, const int* color, bool clip) {
    bool visible = !clip;
    for (int k = 0; k < 4; ++k) {
      const Point r = rotate(pts[k].x, pts[k].y);
      const double x = r.x * in.zoom + tx;
      const double y = r.y * in.zoom + ty;
      visible = visible || (-kMaxShapeDim <= x && x <= kWindowW + kMaxShapeDim && -kMaxShapeDim <= y &&
                            y <= kWindowH + kMaxShapeDim);
      vx[k] = to_sint16(x);
      vy[k] = to_sint16(y);
    }
    if (visible) gfx_polygon(vx, vy, 4, rgb(color[0], color[1], color[2]));
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
  int ix[8], iy[8];
  for (const auto& poly : in.car) {
    for (int k = 0; k < poly.count; ++k) {
      const Point r = rotate(poly.points[k].x, poly.points[k].y);
      ix[k] = static_cast<int>(r.x * in.zoom + tx);
      iy[k] = static_cast<int>(r.y * in.zoom + ty);
    }
    draw_polygon(ix, iy, poly.count, rgb(poly.color[0], poly.color[1], poly.color[2]));
  }

  // _render_indicators, on the flipped surface.
  set_flipped(false);
  constexpr double W = kWindowW, H = kWindowH;
  constexpr double s = W / 40.0, h = H / 40.0;
  const auto quad = [&](const double (&pts)[4][2], std::uint32_t color) {
    for (int k = 0; k < 4; ++k) {
      ix[k] = static_cast<int>(pts[k][0]);
      iy[k] = static_cast<int>(pts[k][1]);
    }
    draw_polygon(ix, iy, 4, color);
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

  smoothscale_96(obs);
}

}  // namespace rlpool::box2d::car_render
