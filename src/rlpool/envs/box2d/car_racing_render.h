// CarRacing's frame as gymnasium draws it with pygame: a 1000x800 32-bit
// surface filled with SDL_gfx's polygon routines (gfxdraw.aapolygon, then
// filled_polygon), pygame.draw.polygon for the car and the indicators, and
// pygame.transform.smoothscale (its SSE2 fixed-point filter) down to 96x96.
// Each primitive reproduces the integer arithmetic of the original, so the
// pixels come out the same. Not drawn: the score digits, which gymnasium
// renders with pygame's font (FreeType); they cover output rows 87-91 at the
// left, about 0.5% of the frame. draw_video draws gymnasium's rgb_array frame
// the same way: the window with the skid marks, shrunk to 600x400.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "_core/gfx/draw.h"

namespace rlpool::box2d {

using draw::Point;

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
  // car_dynamics' particles (skid marks), oldest first: drawn in rgb_array frames only.
  struct Skid {
    std::vector<Point> points;
    bool grass = false;
  };
  std::vector<std::shared_ptr<Skid>> skids;
};

namespace car_render {

constexpr int kWindowW = 1000;
constexpr int kWindowH = 800;

using draw::rgb;

// The window is drawn in bands of rows, each band's polygons and lines in
// gymnasium's order, then the band goes through smoothscale's X pass: every
// pixel depends only on the writes to it, in order, so banding changes no
// value, and a band stays in cache where a whole window would not.
class Canvas {
 public:
  Canvas() : band_(kBandPixels, 0) {}

  // gymnasium's _render("state_pixels"): the 96x96x3 frame.
  void draw(const FrameInput& in, std::uint8_t* obs);
  // gymnasium's _render("rgb_array"): the 600x400x3 frame, skid marks included.
  void draw_video(const FrameInput& in, std::uint8_t* rgb);

  // The surface draw.h's primitives draw on. Row y of the current drawing
  // stage (pre-flip for the world), or null when it falls outside the band.
  int width() const { return kWindowW; }
  int height() const { return kWindowH; }
  std::uint32_t* row(int y) {
    const int r = flipped_ ? kWindowH - 1 - y : y;
    return r >= lo_ && r < hi_ ? band_.data() + static_cast<std::size_t>(r - lo_) * kWindowW : nullptr;
  }
  // The stage's rows that fall in the band: [from, to].
  void band_rows(int& from, int& to) const {
    from = flipped_ ? kWindowH - hi_ : lo_;
    to = flipped_ ? kWindowH - 1 - lo_ : hi_ - 1;
  }

 private:
  static constexpr int kBand = 32;  // rows; 800 = 25 bands of 128 KiB
  // The X filter reads up to 3 pixels past a row's boundary pixel (the last
  // row's too): the band has this many after its last row.
  static constexpr std::size_t kBandPixels = static_cast<std::size_t>(kWindowW) * kBand + 4;

  // One polygon to draw: gfxdraw.aapolygon + filled_polygon (world), or
  // pygame.draw.polygon (car, world; indicators, on the flipped window); or
  // a segment of pygame.draw.lines, width 2 (skid marks, world).
  enum class Kind : std::uint8_t { kGfxPolygon, kPolygon, kLine2 };
  struct Prim {
    Kind kind;
    bool flipped;  // drawn before gymnasium flips the surface
    int n;
    int x[8], y[8];
    int ymin, ymax;  // in final (flipped) rows, widened by 1 for anti-aliasing
    std::uint32_t color;
  };

  void add(Kind kind, bool flipped, int n, const int* x, const int* y, std::uint32_t color);
  // The frame's primitives in gymnasium's order, skid marks too if `skids`.
  void build(const FrameInput& in, bool skids);
  // Draws the primitives that reach the band's rows [lo_, hi_).
  void paint();
  void x_pass(int y0, int y1);
  void y_pass(int y0, int y1, std::uint8_t*& out);

  std::vector<std::uint32_t> band_;
  std::vector<Prim> prims_;
  std::vector<int> ints_;
  std::vector<std::uint8_t> half_;  // smoothscale's X pass of the band: 96 pixels a row
  std::array<std::uint16_t, 96 * 3> yacc_{};  // smoothscale's Y pass, carried from band to band
  int ycounter_ = 0;
  int lo_ = 0, hi_ = 0;             // the band's final rows [lo, hi)
  bool flipped_ = false;
};

// smoothscale's X pass over `rows` rows of the window (contiguous, kWindowW
// pixels each, 3 readable pixels after the last), into 96 RGB pixels a row:
// pygame's SSE2 filter, and the same arithmetic on AVX2 (for a CPU where
// draw::has_avx2()). Canvas uses the AVX2 one where it can; tests compare them.
void shrink_x_sse2(const std::uint32_t* band, int rows, std::uint8_t* half);
void shrink_x_avx2(const std::uint32_t* band, int rows, std::uint8_t* half);

}  // namespace car_render

using car_render::Canvas;

}  // namespace rlpool::box2d
