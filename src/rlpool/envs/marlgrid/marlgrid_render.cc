// MARLGrid's tiles (marlgrid_env.h), as EnvPool 1.2.7's envpool.marlgrid draws
// them after kandouss/marlgrid's rendering.py: the pixel observation's cells and
// render()'s whole grid at 32 pixels a cell.
//
// A tile is drawn at 3x with shape tests at pixel centres and averaged over
// 3 x 3 blocks (the integer mean). Objects fill their tile (wall (74, 65, 42),
// goal green, bonus yellow, lava orange); an empty cell is black with a grid
// line of value min(20, size - 10) on its top row and right column (none at
// the observation's 8 pixels). An agent is marlgrid's triangle in its colour,
// blended over an object by the triangle's brightness; a tile with a black
// corner gets the empty tile's grid line added. Tiles are turned to the
// viewer's frame. The Minigrid core's own tile drawing (minigrid_render.cc) is
// minigrid's look, not marlgrid's, and private to that file, so these are
// drawn here.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "envs/marlgrid/marlgrid_env.h"

namespace rlpool::marlgrid {
namespace {

constexpr int kSubdivs = 3;
constexpr double kPi = 3.14159265358979323846;
constexpr int kKinds = 5;      // empty, wall, goal, bonus, lava
constexpr int kColors = kMaxAgents + 1;  // the agents' colours and none

Rgb kind_rgb(int kind) {
  switch (kind) {
    case 1: return {74, 65, 42};
    case 2: return {0, 255, 0};
    case 3: return {255, 255, 0};
    default: return {255, 128, 0};
  }
}

int tile_kind(const Obj& o) {
  switch (o.type) {
    case Type::kWall: return 1;
    case Type::kGoal: return 2;
    case Type::kFloor: return 3;
    case Type::kLava: return 4;
    default: return 0;
  }
}

void empty_tile(int size, std::uint8_t* dst) {
  const auto line = static_cast<std::uint8_t>(std::clamp(size - 10, 0, 20));
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      std::memset(dst + (y * size + x) * 3, (y == 0 || x == size - 1) ? line : 0, 3);
    }
  }
}

// The agent's triangle (0.12, 0.19), (0.87, 0.50), (0.12, 0.81), turned `dir` quarter turns about the
// centre, at 3x and averaged (marlgrid's corners are float32 values, computed with in float64).
void agent_tile(Rgb color, int dir, int size, std::uint8_t* dst) {
  const double ax = static_cast<double>(0.12f), ay = static_cast<double>(0.19f);
  const double bx = static_cast<double>(0.87f), by = static_cast<double>(0.50f);
  const double cx = static_cast<double>(0.12f), cy = static_cast<double>(0.81f);
  const double v0x = cx - ax, v0y = cy - ay, v1x = bx - ax, v1y = by - ay;
  const double d00 = v0x * v0x + v0y * v0y, d01 = v0x * v1x + v0y * v1y, d11 = v1x * v1x + v1y * v1y;
  const double inv = 1.0 / (d00 * d11 - d01 * d01);
  const double theta = 0.5 * kPi * dir;
  const double c = std::cos(-theta), s = std::sin(-theta);
  const int big = size * kSubdivs;
  std::vector<std::uint8_t> hit(static_cast<std::size_t>(big * big), 0);
  for (int y = 0; y < big; ++y) {
    const double yf = (y + 0.5) / big;
    for (int x = 0; x < big; ++x) {
      const double xf = (x + 0.5) / big;
      const double px = 0.5 + (xf - 0.5) * c - (yf - 0.5) * s;
      const double py = 0.5 + (yf - 0.5) * c + (xf - 0.5) * s;
      const double v2x = px - ax, v2y = py - ay;
      const double d02 = v0x * v2x + v0y * v2y, d12 = v1x * v2x + v1y * v2y;
      const double u = (d11 * d02 - d01 * d12) * inv;
      const double v = (d00 * d12 - d01 * d02) * inv;
      hit[static_cast<std::size_t>(y * big + x)] = (u >= 0.0 && v >= 0.0 && u + v < 1.0) ? 1 : 0;
    }
  }
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      int n = 0;
      for (int dy = 0; dy < kSubdivs; ++dy) {
        for (int dx = 0; dx < kSubdivs; ++dx) n += hit[static_cast<std::size_t>((y * kSubdivs + dy) * big + x * kSubdivs + dx)];
      }
      for (int ch = 0; ch < 3; ++ch) dst[(y * size + x) * 3 + ch] = static_cast<std::uint8_t>(color[ch] * n / 9);
    }
  }
}

bool black_corner(const std::uint8_t* t, int size) {
  for (int p : {0, size - 1, (size - 1) * size, size * size - 1}) {
    if (t[3 * p] == 0 && t[3 * p + 1] == 0 && t[3 * p + 2] == 0) return true;
  }
  return false;
}

// A cell's tile, in the world's frame: its kind, and an agent (color, dir) drawn on it where `agent`.
void draw_tile(int kind, bool agent, Rgb color, int dir, int size, std::uint8_t* dst) {
  const auto px = static_cast<std::size_t>(size * size);
  if (kind == 0) {
    if (!agent) {
      empty_tile(size, dst);
      return;
    }
    agent_tile(color, dir, size, dst);
  } else {
    const Rgb base = kind_rgb(kind);
    for (std::size_t p = 0; p < px; ++p) std::memcpy(dst + 3 * p, base.data(), 3);
    if (agent) {  // blend by the triangle's brightness (r + g + b), relative to its brightest pixel
      std::vector<std::uint8_t> over(px * 3);
      agent_tile(color, dir, size, over.data());
      int top = 0;
      for (std::size_t p = 0; p < px; ++p) top = std::max(top, over[3 * p] + over[3 * p + 1] + over[3 * p + 2]);
      if (top > 0) {
        for (std::size_t p = 0; p < px; ++p) {
          const int a = over[3 * p] + over[3 * p + 1] + over[3 * p + 2];
          for (int ch = 0; ch < 3; ++ch) {
            dst[3 * p + ch] = static_cast<std::uint8_t>((base[ch] * (top - a) + over[3 * p + ch] * a) / top);
          }
        }
      }
    }
  }
  if (black_corner(dst, size)) {
    std::vector<std::uint8_t> line(px * 3);
    empty_tile(size, line.data());
    for (std::size_t i = 0; i < px * 3; ++i) dst[i] = static_cast<std::uint8_t>(std::min(255, dst[i] + line[i]));
  }
}

// The tile turned `quarter` quarter turns (EnvPool's RotateImage: out(x, y) = in(y, size - 1 - x) for one).
void turn(const std::uint8_t* src, int size, int quarter, std::uint8_t* dst) {
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      int sx = x, sy = y;
      if (quarter == 1) {
        sx = y;
        sy = size - 1 - x;
      } else if (quarter == 2) {
        sx = size - 1 - x;
        sy = size - 1 - y;
      } else if (quarter == 3) {
        sx = size - 1 - y;
        sy = x;
      }
      std::memcpy(dst + (y * size + x) * 3, src + (sy * size + sx) * 3, 3);
    }
  }
}

}  // namespace

void MarlGridEnv::tile(int x, int y, int viewer, int size, int quarter, std::uint8_t* dst) {
  const int kind = grid_.in_bounds(x, y) ? tile_kind(grid_.get(x, y)) : 0;
  const int top = top_agent(x, y, viewer);
  const int dir = top >= 0 ? agents_[static_cast<std::size_t>(top)].dir : 0;
  const Rgb color = top >= 0 ? agent_color(top) : Rgb{0, 0, 0};
  const auto bytes = static_cast<std::size_t>(size * size * 3);
  if (s_.prestige_coloring) {  // colours of any value: drawn each time
    std::vector<std::uint8_t> raw(bytes);
    draw_tile(kind, top >= 0, color, dir, size, raw.data());
    turn(raw.data(), size, quarter, dst);
    return;
  }
  const int size_class = size == kRenderTile && size != s_.view_tile_size ? 1 : 0;
  const int color_key = top >= 0 ? top : kMaxAgents;
  const std::size_t key =
      static_cast<std::size_t>((((size_class * kKinds + kind) * kColors + color_key) * 4 + dir) * 4 + quarter);
  if (tiles_.empty()) tiles_.resize(static_cast<std::size_t>(2 * kKinds * kColors * 4 * 4));
  auto& t = tiles_[key];
  if (t.empty()) {
    std::vector<std::uint8_t> raw(bytes);
    draw_tile(kind, top >= 0, color, dir, size, raw.data());
    t.resize(bytes);
    turn(raw.data(), size, quarter, t.data());
  }
  std::memcpy(dst, t.data(), bytes);
}

void MarlGridEnv::render(const Frame& frame) {
  const int n = s_.grid_size;
  if (frame.width != n * kRenderTile || frame.height != n * kRenderTile) {
    throw std::invalid_argument("MarlGrid: render() draws " + std::to_string(n * kRenderTile) + "x" +
                                std::to_string(n * kRenderTile) + " frames");
  }
  const int t = kRenderTile;
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(t * t * 3));
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      tile(x, y, -1, t, 0, buf.data());
      for (int r = 0; r < t; ++r) {
        std::memcpy(frame.rgb + (static_cast<std::size_t>(y * t + r) * static_cast<std::size_t>(frame.width) +
                                 static_cast<std::size_t>(x * t)) * 3,
                    buf.data() + static_cast<std::size_t>(r * t * 3), static_cast<std::size_t>(t * 3));
      }
    }
  }
}

}  // namespace rlpool::marlgrid
