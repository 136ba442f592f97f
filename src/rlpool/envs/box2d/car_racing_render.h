// CarRacing's frame as gymnasium draws it with pygame: a 1000x800 32-bit
// surface filled with SDL_gfx's polygon routines (gfxdraw.aapolygon, then
// filled_polygon), pygame.draw.polygon for the car and the indicators, and
// pygame.transform.smoothscale (its SSE2 fixed-point filter) down to 96x96.
// Each primitive reproduces the integer arithmetic of the original, so the
// pixels come out the same.
#pragma once

#include <cstdint>
#include <vector>

namespace rlpool::box2d {

struct Point {
  double x, y;
};

// What a frame shows, in world coordinates (gymnasium's values, float64).
struct FrameInput {
  double angle = 0;  // -hull.angle
  double zoom = 0;
  double car_x = 0, car_y = 0;
  int bg_color[3] = {};
  int grass_color[3] = {};
  struct Poly {
    Point points[4];
    int color[3];
  };
  std::vector<Poly> road;  // gymnasium's road_poly, in order
  struct CarPoly {
    int count = 0;
    Point points[8];
    int color[3];
  };
  std::vector<CarPoly> car;  // car_dynamics' draw order, already through the body transforms
  double true_speed = 0;
  double wheel_omega[4] = {};
  double steer_angle = 0;
  double angular_velocity = 0;
  double reward = 0;
};

namespace car_render {

constexpr int kWindowW = 1000;
constexpr int kWindowH = 800;

// 0x00RRGGBB, as SDL maps a colour into an XRGB8888 surface.
inline std::uint32_t rgb(int r, int g, int b) {
  return (static_cast<std::uint32_t>(r & 0xff) << 16) | (static_cast<std::uint32_t>(g & 0xff) << 8) |
         static_cast<std::uint32_t>(b & 0xff);
}

class Canvas {
 public:
  Canvas() : px_(static_cast<std::size_t>(kWindowW) * kWindowH, 0) {}

  // While flipped, row y is drawn at row H-1-y: gymnasium draws the world,
  // flips the surface, then draws the indicators on the flipped one.
  void set_flipped(bool flipped) { flipped_ = flipped; }

  // gymnasium's _render("state_pixels"): the 96x96x3 frame.
  void draw(const FrameInput& in, std::uint8_t* obs);

 private:
  // gfxdraw.aapolygon followed by gfxdraw.filled_polygon (Sint16 vertices).
  void gfx_polygon(const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color);
  // pygame.draw.polygon, filled (int vertices).
  void draw_polygon(const int* vx, const int* vy, int n, std::uint32_t color);
  // pygame.transform.smoothscale to 96x96, written as HxWx3 uint8.
  void smoothscale_96(std::uint8_t* out);

  std::uint32_t* row(int y) { return px_.data() + static_cast<std::size_t>(flipped_ ? kWindowH - 1 - y : y) * kWindowW; }
  bool inside(int x, int y) const { return x >= 0 && x < kWindowW && y >= 0 && y < kWindowH; }
  void put(int x, int y, std::uint32_t color) {
    if (inside(x, y)) row(y)[x] = color;
  }
  void put_weighted(int x, int y, std::uint32_t color, std::uint32_t weight);
  void hline(int x1, int x2, int y, std::uint32_t color);
  void vline(int x, int y1, int y2, std::uint32_t color);
  void line(int x1, int y1, int x2, int y2, std::uint32_t color);
  void aaline(std::int16_t x1, std::int16_t y1, std::int16_t x2, std::int16_t y2, std::uint32_t color);
  void filled_polygon(const std::int16_t* vx, const std::int16_t* vy, int n, std::uint32_t color);

  std::vector<std::uint32_t> px_;
  std::vector<int> ints_;
  std::vector<std::uint8_t> half_;  // smoothscale's X pass: 800 rows of 96 pixels
  bool flipped_ = false;
};

}  // namespace car_render

using car_render::Canvas;

}  // namespace rlpool::box2d
