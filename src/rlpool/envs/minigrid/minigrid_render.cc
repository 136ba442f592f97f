// render() of every Minigrid / BabyAI env: minigrid 3.2.0's get_frame with its
// defaults (highlight, 32-pixel tiles, the whole grid), pixel for pixel.
//
// minigrid draws each tile at 3x (96 x 96) with shape tests at pixel centres
// ((x + 0.5) / 96 in [0, 1]), highlights it, and averages 3 x 3 blocks in
// float64 (the mean over a row of three, then over the three rows), the
// float tile truncated when stored in the uint8 frame. The arithmetic here
// follows numpy's types step by step (float32 where minigrid's helpers make
// float32 arrays, float64 where they mix with Python floats) so that the
// comparisons at shape edges come out the same.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

constexpr int kTilePx = 32;  // minigrid's TILE_PIXELS
constexpr int kSubdivs = 3;  // render_tile's supersampling
constexpr int kBig = kTilePx * kSubdivs;
constexpr double kRenderFps = 10;  // minigrid's metadata["render_fps"]
constexpr double kPi = 3.141592653589793;  // math.pi

using Rgb = std::array<std::uint8_t, 3>;

// minigrid's COLORS, indexed by Color.
constexpr std::array<Rgb, 6> kRgb = {{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {112, 39, 195}, {255, 255, 0},
                                      {100, 100, 100}}};
constexpr Rgb kBlack = {0, 0, 0};

// A colour times a float (numpy's float64 product), truncated as a uint8 store does.
Rgb scaled(Rgb c, double k) {
  return {static_cast<std::uint8_t>(c[0] * k), static_cast<std::uint8_t>(c[1] * k),
          static_cast<std::uint8_t>(c[2] * k)};
}

// The 96 x 96 supersampled tile.
struct Canvas {
  std::array<std::uint8_t, kBig * kBig * 3> px{};

  // minigrid's fill_coords: every pixel whose centre passes `in`.
  template <class In>
  void fill(const In& in, Rgb c) {
    for (int y = 0; y < kBig; ++y) {
      const double yf = (y + 0.5) / kBig;
      for (int x = 0; x < kBig; ++x) {
        if (in((x + 0.5) / kBig, yf)) std::memcpy(&px[static_cast<std::size_t>((y * kBig + x) * 3)], c.data(), 3);
      }
    }
  }
};

// minigrid's point_in_* shapes, as predicates on (x, y) in [0, 1].
auto rect(double xmin, double xmax, double ymin, double ymax) {
  return [=](double x, double y) { return x >= xmin && x <= xmax && y >= ymin && y <= ymax; };
}

auto circle(double cx, double cy, double r) {
  return [=](double x, double y) { return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r; };
}

// point_in_line: the ends are float32 arrays, so the direction and length are
// float32; the query point is float64 and so is everything computed from it.
auto line(double x0, double y0, double x1, double y1, double r) {
  const float p0x = static_cast<float>(x0), p0y = static_cast<float>(y0);
  float dx = static_cast<float>(x1) - p0x, dy = static_cast<float>(y1) - p0y;
  const float dist = std::sqrt(dx * dx + dy * dy);
  dx /= dist;
  dy /= dist;
  const double xmin = std::min(x0, x1) - r, xmax = std::max(x0, x1) + r;
  const double ymin = std::min(y0, y1) - r, ymax = std::max(y0, y1) + r;
  return [=](double x, double y) {
    if (x < xmin || x > xmax || y < ymin || y > ymax) return false;
    const double qx = x - p0x, qy = y - p0y;
    const double a = std::min(std::max(qx * dx + qy * dy, 0.0), static_cast<double>(dist));
    const double ex = x - (p0x + a * dx), ey = y - (p0y + a * dy);
    return std::sqrt(ex * ex + ey * ey) <= r;
  };
}

// point_in_triangle: the corners and their dot products are float32; the
// products with the float64 query point are float64, scaled by the float32
// inverse denominator.
struct Triangle {
  float ax, ay, v0x, v0y, v1x, v1y, d00, d01, d11, inv;
  Triangle(double x_a, double y_a, double x_b, double y_b, double x_c, double y_c)
      : ax(static_cast<float>(x_a)),
        ay(static_cast<float>(y_a)),
        v0x(static_cast<float>(x_c) - ax),
        v0y(static_cast<float>(y_c) - ay),
        v1x(static_cast<float>(x_b) - ax),
        v1y(static_cast<float>(y_b) - ay),
        d00(v0x * v0x + v0y * v0y),
        d01(v0x * v1x + v0y * v1y),
        d11(v1x * v1x + v1y * v1y),
        inv(1.0f / (d00 * d11 - d01 * d01)) {}
  bool operator()(double x, double y) const {
    const double v2x = x - ax, v2y = y - ay;
    const double d02 = v0x * v2x + v0y * v2y;
    const double d12 = v1x * v2x + v1y * v2y;
    const double u = (static_cast<double>(d11) * d02 - static_cast<double>(d01) * d12) * inv;
    const double v = (static_cast<double>(d00) * d12 - static_cast<double>(d01) * d02) * inv;
    return u >= 0 && v >= 0 && (u + v) < 1;
  }
};

// minigrid's rotate_fn: the query point turned by -theta about (cx, cy).
template <class In>
auto rotated(In in, double cx, double cy, double theta) {
  const double c = std::cos(-theta), s = std::sin(-theta);
  return [=](double x, double y) {
    x -= cx;
    y -= cy;
    return in(cx + x * c - y * s, cy + y * c + x * s);
  };
}

// Each WorldObj's render().
void draw(Canvas& img, const Obj& obj) {
  const Rgb c = kRgb[static_cast<std::size_t>(obj.color)];
  switch (obj.type) {
    case Type::kGoal:
    case Type::kWall:
      img.fill(rect(0, 1, 0, 1), c);
      break;
    case Type::kFloor:
      img.fill(rect(0.031, 1, 0.031, 1), scaled(c, 0.5));
      break;
    case Type::kLava:
      img.fill(rect(0, 1, 0, 1), {255, 128, 0});
      for (int i = 0; i < 3; ++i) {
        const double ylo = 0.3 + 0.2 * i, yhi = 0.4 + 0.2 * i;
        img.fill(line(0.1, ylo, 0.3, yhi, 0.03), kBlack);
        img.fill(line(0.3, yhi, 0.5, ylo, 0.03), kBlack);
        img.fill(line(0.5, ylo, 0.7, yhi, 0.03), kBlack);
        img.fill(line(0.7, yhi, 0.9, ylo, 0.03), kBlack);
      }
      break;
    case Type::kDoor:
      if (obj.state == kOpen) {
        img.fill(rect(0.88, 1.00, 0.00, 1.00), c);
        img.fill(rect(0.92, 0.96, 0.04, 0.96), kBlack);
      } else if (obj.state == kLocked) {
        img.fill(rect(0.00, 1.00, 0.00, 1.00), c);
        img.fill(rect(0.06, 0.94, 0.06, 0.94), scaled(c, 0.45));
        img.fill(rect(0.52, 0.75, 0.50, 0.56), c);  // the key slot
      } else {
        img.fill(rect(0.00, 1.00, 0.00, 1.00), c);
        img.fill(rect(0.04, 0.96, 0.04, 0.96), kBlack);
        img.fill(rect(0.08, 0.92, 0.08, 0.92), c);
        img.fill(rect(0.12, 0.88, 0.12, 0.88), kBlack);
        img.fill(circle(0.75, 0.50, 0.08), c);  // the handle
      }
      break;
    case Type::kKey:
      img.fill(rect(0.50, 0.63, 0.31, 0.88), c);
      img.fill(rect(0.38, 0.50, 0.59, 0.66), c);
      img.fill(rect(0.38, 0.50, 0.81, 0.88), c);
      img.fill(circle(0.56, 0.28, 0.190), c);
      img.fill(circle(0.56, 0.28, 0.064), kBlack);
      break;
    case Type::kBall:
      img.fill(circle(0.5, 0.5, 0.31), c);
      break;
    case Type::kBox:
      img.fill(rect(0.12, 0.88, 0.12, 0.88), c);
      img.fill(rect(0.18, 0.82, 0.18, 0.82), kBlack);
      img.fill(rect(0.16, 0.84, 0.47, 0.53), c);
      break;
    default:  // empty: the grid lines only
      break;
  }
}

constexpr std::size_t kTileBytes = static_cast<std::size_t>(kTilePx * kTilePx * 3);

// Grid.render_tile: grid lines, the object, the agent, the highlight, then the
// 3 x 3 means (out: 32 x 32 x 3).
void render_tile(const Obj& obj, int agent_dir, bool highlight, std::uint8_t* out) {
  Canvas img;
  img.fill(rect(0, 0.031, 0, 1), {100, 100, 100});
  img.fill(rect(0, 1, 0, 0.031), {100, 100, 100});
  draw(img, obj);
  if (agent_dir >= 0) {
    const Triangle tri(0.12, 0.19, 0.87, 0.50, 0.12, 0.81);
    img.fill(rotated(tri, 0.5, 0.5, 0.5 * kPi * agent_dir), {255, 0, 0});
  }
  if (highlight) {
    // highlight_img: img + 0.3 * (255 - img) in float64, clipped, truncated.
    for (auto& v : img.px) v = static_cast<std::uint8_t>(std::min(v + 0.30 * (255 - v), 255.0));
  }
  for (int ty = 0; ty < kTilePx; ++ty) {
    for (int tx = 0; tx < kTilePx; ++tx) {
      for (int ch = 0; ch < 3; ++ch) {
        double mean = 0;
        for (int sy = 0; sy < kSubdivs; ++sy) {
          const std::uint8_t* row = &img.px[static_cast<std::size_t>(((ty * kSubdivs + sy) * kBig + tx * kSubdivs) * 3 + ch)];
          mean += static_cast<double>(row[0] + row[3] + row[6]) / kSubdivs;
        }
        out[(ty * kTilePx + tx) * 3 + ch] = static_cast<std::uint8_t>(mean / kSubdivs);
      }
    }
  }
}

// The cache index: minigrid's key (the object's encoding, agent direction, highlight).
std::size_t tile_key(const Obj& obj, int agent_dir, bool highlight) {
  std::uint8_t enc[3];
  obj.encode(enc);
  return ((((static_cast<std::size_t>(enc[0]) * 6 + enc[1]) * 3 + enc[2]) * 5 + static_cast<std::size_t>(agent_dir + 1)) *
          2) +
         (highlight ? 1 : 0);
}
constexpr std::size_t kTileKeys = 11 * 6 * 3 * 5 * 2;

}  // namespace

const std::uint8_t* MiniGridEnv::tile(const Obj& obj, int dir, bool highlight) {
  if (tiles_.empty()) tiles_.resize(kTileKeys);
  auto& t = tiles_[tile_key(obj, dir, highlight)];
  if (t.empty()) {
    t.resize(kTileBytes);
    render_tile(obj, dir, highlight, t.data());
  }
  return t.data();
}

void MiniGridEnv::render(const Frame& frame) {
  if (frame.width != width * kTilePx || frame.height != height * kTilePx) {
    throw std::invalid_argument("minigrid: render() draws " + std::to_string(width * kTilePx) + "x" +
                                std::to_string(height * kTilePx) + " frames");
  }
  // get_full_render: the cells of the view the agent sees.
  gen_obs_grid();
  highlight_.assign(static_cast<std::size_t>(width * height), 0);
  const int sz = agent_view_size;
  for (int j = 0; j < sz; ++j) {
    for (int i = 0; i < sz; ++i) {
      const Pos p = view_pos(i, j);
      if (mask_[static_cast<std::size_t>(j * sz + i)] && grid.in_bounds(p)) {
        highlight_[static_cast<std::size_t>(p.y * width + p.x)] = 1;
      }
    }
  }
  const std::size_t row_bytes = static_cast<std::size_t>(kTilePx * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int dir = agent_pos == Pos{x, y} ? agent_dir : -1;
      const std::uint8_t* t = tile(grid.get(x, y), dir, highlight_[static_cast<std::size_t>(y * width + x)] != 0);
      for (int r = 0; r < kTilePx; ++r) {
        std::memcpy(frame.rgb + (static_cast<std::size_t>(y * kTilePx + r) * frame.width + x * kTilePx) * 3,
                    t + r * row_bytes, row_bytes);
      }
    }
  }
}

bool register_minigrid(EnvType type, std::function<Pos(const Config&)> grid_size) {
  type.spec = [spec = type.spec, create = type.create, grid_size = std::move(grid_size)](const Config& config) {
    EnvSpec s = spec(config);
    Pos size;
    if (grid_size) {
      size = grid_size(config);
    } else {
      const auto env = create(config);
      const auto& mg = dynamic_cast<const MiniGridEnv&>(*env);
      size = {mg.width, mg.height};
    }
    s.render_width = size.x * kTilePx;
    s.render_height = size.y * kTilePx;
    s.render_fps = kRenderFps;
    return s;
  };
  return register_env_type(std::move(type));
}

}  // namespace rlpool::minigrid
