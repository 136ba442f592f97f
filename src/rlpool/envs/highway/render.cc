// The highway family's frames: EnvViewer.display() (the world surface moved onto the observer, the lanes'
// side lines, the road objects, the vehicles with their history, the lidar overlay) and get_image(), and
// GrayscaleObservation's conversion and frame stack.
//
// Follows highway_env/envs/common/graphics.py (EnvViewer, ObservationGraphics), highway_env/road/graphics.py
// (WorldSurface, LaneGraphics, RoadGraphics, RoadObjectGraphics), highway_env/vehicle/graphics.py
// (VehicleGraphics) and GrayscaleObservation in highway_env/envs/common/observation.py (highway-env 1.12.1).
// Python's int() of a float truncates (pix), `//` on floats is CPython's floor division, numpy's arange,
// clip and dot are reproduced where highway-env uses them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "envs/highway/behavior.h"
#include "envs/highway/dynamics.h"
#include "envs/highway/lane.h"
#include "envs/highway/objects.h"
#include "envs/highway/render.h"
#include "envs/highway/road.h"
#include "envs/highway/vehicle.h"

namespace rlpool::highway {
namespace {

using raster::Color;
using raster::Surface;

constexpr Color kGrey{100, 100, 100};
constexpr Color kWhite{255, 255, 255};
constexpr Color kBlack{60, 60, 60};  // VehicleGraphics.BLACK / RoadObjectGraphics.BLACK
constexpr Color kRed{255, 100, 100};
constexpr Color kGreen{50, 200, 0};
constexpr Color kBlue{100, 200, 255};
constexpr Color kYellow{200, 200, 0};
constexpr Color kLidar{0, 0, 0};  // ObservationGraphics.COLOR

// LaneGraphics constants [m].
constexpr double kStripeSpacing = 4.33;
constexpr double kStripeLength = 3;
constexpr double kStripeWidth = 0.3;

// Bounds that keep an absurd viewer (a scaling of almost 0, or huge) from exhausting memory, where
// highway-env would run for hours or fail to make a pygame surface.
constexpr int kMaxStripes = 10'000'000;
constexpr int kMaxSprite = 16384;  // [px] side of a vehicle's or object's sprite

// A sprite surface (pygame.Surface((w, h), SRCALPHA)).
Surface sprite(int w, int h) {
  if (w > kMaxSprite || h > kMaxSprite) {
    throw std::invalid_argument("highway render: scaling is too large (a sprite of " + std::to_string(w) + " x " +
                                std::to_string(h) + " pixels)");
  }
  return Surface(std::max(w, 0), std::max(h, 0));
}

// CPython's float floor division (float_floor_div / _float_div_mod).
double py_floordiv(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0) {
    if ((wx < 0) != (mod < 0)) div -= 1.0;
  }
  double floordiv;
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
  return floordiv;
}

// Python's int() of a float as an int (pygame receives ints; coordinates stay far inside int's range for any
// frame that shows them, and values beyond it are clamped).
int py_int(double x) {
  const double t = std::trunc(x);
  if (!(t > -2147483648.0)) return -2147483647 - 1;
  if (!(t < 2147483647.0)) return 2147483647;
  return static_cast<int>(t);
}

// WorldSurface: a surface with a world origin and a scaling.
class WorldSurface {
 public:
  WorldSurface(int width, int height, double scaling, const std::array<double, 2>& centering)
      : surface(width, height), scaling(scaling), centering_position(centering) {}

  // pix(length): int(length * scaling).
  int pix(double length) const { return py_int(length * scaling); }
  std::array<int, 2> pos2pix(double x, double y) const { return {pix(x - origin[0]), pix(y - origin[1])}; }
  std::array<int, 2> vec2pix(const Vec2& v) const { return pos2pix(v[0], v[1]); }
  bool is_visible(const Vec2& v, int margin = 50) const {
    const auto [x, y] = vec2pix(v);
    return -margin < x && x < surface.w + margin && -margin < y && y < surface.h + margin;
  }
  void move_display_window_to(const Vec2& position) {
    origin = {position[0] - centering_position[0] * surface.w / scaling,
              position[1] - centering_position[1] * surface.h / scaling};
  }

  Surface surface;
  double scaling;
  std::array<double, 2> centering_position;
  Vec2 origin{0.0, 0.0};
};

// LaneGraphics.draw_stripes.
void draw_stripes(const AbstractLane& lane, WorldSurface& surface, std::vector<double> starts,
                  std::vector<double> ends, const std::vector<double>& lats) {
  const double length = lane.length;
  const auto clip = [length](double v) { return std::min(std::max(v, 0.0), length); };  // np.clip(v, 0, length)
  const int width = std::max(surface.pix(kStripeWidth), 1);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const double start = clip(starts[k]);
    const double end = clip(ends[k]);
    if (std::abs(start - end) > 0.5 * kStripeLength) {
      const auto p1 = surface.vec2pix(lane.position(start, lats[k]));
      const auto p2 = surface.vec2pix(lane.position(end, lats[k]));
      raster::draw_line(surface.surface, kWhite, p1[0], p1[1], p2[0], p2[1], width);
    }
  }
}

// LaneGraphics.display: both side lines of a lane, striped, continuous (as a curve of short segments) or a
// single continuous line.
void display_lane(const AbstractLane& lane, WorldSurface& surface) {
  const double stripes = 2 * (surface.surface.h + surface.surface.w) / (kStripeSpacing * surface.scaling);
  if (!(stripes <= kMaxStripes)) {
    char scaling[32];
    std::snprintf(scaling, sizeof scaling, "%g", surface.scaling);
    throw std::invalid_argument(std::string("highway render: scaling ") + scaling +
                                " is too small for the screen (over 10 million stripes per lane side)");
  }
  const int stripes_count = py_int(stripes);
  const double s_origin = lane.local_coordinates(surface.origin).first;
  // float(int(s_origin)) is trunc(s_origin) for any finite float.
  const double s0 = (py_floordiv(std::trunc(s_origin), kStripeSpacing) - (stripes_count / 2)) * kStripeSpacing;
  for (int side = 0; side < 2; ++side) {
    const LineType type = lane.line_types[side];
    std::vector<double> starts, ends, lats;
    if (type == LineType::STRIPED || type == LineType::CONTINUOUS) {
      const double extent = type == LineType::STRIPED ? kStripeLength : kStripeSpacing;
      for (int k = 0; k < stripes_count; ++k) {
        const double start = s0 + k * kStripeSpacing;
        starts.push_back(start);
        ends.push_back(start + extent);
      }
    } else if (type == LineType::CONTINUOUS_LINE) {
      starts.push_back(s0 + 0 * kStripeSpacing);
      ends.push_back(s0 + stripes_count * kStripeSpacing + kStripeLength);
    } else {
      continue;
    }
    lats.reserve(starts.size());
    for (double s : starts) lats.push_back((side - 0.5) * lane.width_at(s));
    draw_stripes(lane, surface, std::move(starts), std::move(ends), lats);
  }
}

// VehicleGraphics.lighten(color).
Color lighten(const Color& c, double ratio = 0.68) {
  return {std::min(static_cast<int>(c.r / ratio), 255), std::min(static_cast<int>(c.g / ratio), 255),
          std::min(static_cast<int>(c.b / ratio), 255), c.a};
}

// VehicleGraphics.get_color.
Color vehicle_color(const Vehicle& v, bool crashed, bool transparent) {
  Color color = kYellow;  // DEFAULT_COLOR
  if (v.color) {
    color = {(*v.color)[0], (*v.color)[1], (*v.color)[2]};
  } else if (crashed) {
    color = kRed;
  } else if (v.is_a(KIND_LINEAR)) {
    color = kYellow;
  } else if (v.is_a(KIND_IDM)) {
    color = kBlue;
  } else if (v.is_a(KIND_MDP)) {
    color = kGreen;  // EGO_COLOR
  }
  if (transparent) color.a = 30;
  return color;
}

// The state VehicleGraphics.display reads: the vehicle itself, or one of its history entries (Python's
// create_from copies: same class and color, not crashed, no steering).
struct VehicleView {
  const Vehicle& vehicle;
  Vec2 position;
  double heading;
  bool crashed;
  double steering;
};

// VehicleGraphics.display.
void display_vehicle(const VehicleView& view, WorldSurface& surface, bool transparent) {
  if (!surface.is_visible(view.position)) return;
  const Vehicle& v = view.vehicle;
  const double tire_length = 1, tire_width = 0.3;
  const double headlight_length = 0.72, headlight_width = 0.6;
  const double vl = v.length, vw = v.width;

  const double length = vl + 2 * tire_length;
  Surface vehicle_surface = sprite(surface.pix(length), surface.pix(length));
  const std::array<int, 4> rect{surface.pix(tire_length), surface.pix(length / 2 - vw / 2), surface.pix(vl),
                                surface.pix(vw)};
  const std::array<int, 4> rect_headlight_left{surface.pix(tire_length + vl - headlight_length),
                                               surface.pix(length / 2 - (1.4 * vw) / 3),
                                               surface.pix(headlight_length), surface.pix(headlight_width)};
  const std::array<int, 4> rect_headlight_right{surface.pix(tire_length + vl - headlight_length),
                                                surface.pix(length / 2 + (0.6 * vw) / 5),
                                                surface.pix(headlight_length), surface.pix(headlight_width)};
  const Color color = vehicle_color(v, view.crashed, transparent);
  const auto draw = [&](const Color& c, const std::array<int, 4>& r, int width) {
    raster::draw_rect(vehicle_surface, c, r[0], r[1], r[2], r[3], width);
  };
  draw(color, rect, 0);
  draw(lighten(color), rect_headlight_left, 0);
  draw(lighten(color), rect_headlight_right, 0);
  draw(kBlack, rect, 1);

  // Tires: only for the plain kinematic and bicycle vehicles (Python's `type(vehicle) in [...]`).
  if (typeid(v) == typeid(Vehicle) || typeid(v) == typeid(BicycleVehicle)) {
    const std::array<std::array<double, 2>, 4> tire_positions{{
        {static_cast<double>(surface.pix(tire_length)), static_cast<double>(surface.pix(length / 2 - vw / 2))},
        {static_cast<double>(surface.pix(tire_length)), static_cast<double>(surface.pix(length / 2 + vw / 2))},
        {static_cast<double>(surface.pix(length - tire_length)),
         static_cast<double>(surface.pix(length / 2 - vw / 2))},
        {static_cast<double>(surface.pix(length - tire_length)),
         static_cast<double>(surface.pix(length / 2 + vw / 2))},
    }};
    const std::array<double, 4> tire_angles{0, 0, view.steering, view.steering};
    for (std::size_t i = 0; i < tire_positions.size(); ++i) {
      Surface tire_surface = sprite(surface.pix(tire_length), surface.pix(tire_length));
      raster::draw_rect(tire_surface, kBlack, 0, surface.pix(tire_length / 2 - tire_width / 2),
                        surface.pix(tire_length), surface.pix(tire_width), 0);
      raster::blit_rotate(vehicle_surface, tire_surface, tire_positions[i],
                          -tire_angles[i] * (180.0 / std::numbers::pi), true);
    }
  }

  // Centered rotation.
  const double h = std::abs(view.heading) > 2 * std::numbers::pi / 180 ? view.heading : 0;
  const auto position = surface.pos2pix(view.position[0], view.position[1]);
  raster::blit_rotate(surface.surface, vehicle_surface,
                      {static_cast<double>(position[0]), static_cast<double>(position[1])},
                      -h * (180.0 / std::numbers::pi), false);
}

// VehicleGraphics.display_history: every int(simulation / frequency)-th of the first
// int(simulation * duration) history entries, transparent.
void display_history(const Vehicle& v, WorldSurface& surface, int simulation) {
  const double frequency = 3, duration = 2;
  const int stop = py_int(simulation * duration);
  const int step = py_int(simulation / frequency);
  if (step <= 0) throw std::invalid_argument("highway render: simulation_frequency must be at least 3 to show trajectories");
  for (int i = 0; i < stop && i < static_cast<int>(v.history.size()); i += step) {
    const VehicleSnapshot& snap = v.history[static_cast<std::size_t>(i)];
    display_vehicle({v, snap.position, snap.heading, false, 0.0}, surface, true);
  }
}

// RoadObjectGraphics.get_color.
Color object_color(const RoadObject& o) {
  Color color = kYellow;
  if (o.is_a(KIND_OBSTACLE)) {
    color = o.crashed ? kRed : kYellow;
  } else if (o.is_a(KIND_LANDMARK)) {
    color = o.hit ? kGreen : kBlue;
  }
  return color;
}

// RoadObjectGraphics.display.
void display_object(const RoadObject& o, WorldSurface& surface) {
  Surface s = sprite(surface.pix(o.length), surface.pix(o.length));
  const std::array<int, 4> rect{0, surface.pix(o.length / 2 - o.width / 2), surface.pix(o.length),
                                surface.pix(o.width)};
  raster::draw_rect(s, object_color(o), rect[0], rect[1], rect[2], rect[3], 0);
  raster::draw_rect(s, kBlack, rect[0], rect[1], rect[2], rect[3], 1);
  const double h = std::abs(o.heading) > 2 * std::numbers::pi / 180 ? o.heading : 0;
  const auto position = surface.pos2pix(o.position[0], o.position[1]);
  raster::blit_rotate(surface.surface, s, {static_cast<double>(position[0]), static_cast<double>(position[1])},
                      -h * (180.0 / std::numbers::pi), false);
}

// ObservationGraphics.display_grid: the lidar's closed polyline.
void display_lidar(const LidarOverlay& lidar, WorldSurface& surface) {
  if (lidar.cells <= 0 || static_cast<int>(lidar.distances.size()) < lidar.cells) return;
  const double angle = 2 * std::numbers::pi / lidar.cells;
  // np.arange(-angle / 2, 2 pi - angle / 2, 2 pi / cells): ceil((stop - start) / step) values, the first
  // two computed directly and the others as start + i * (second - first).
  const double start = -angle / 2, stop = 2 * std::numbers::pi - angle / 2, step = 2 * std::numbers::pi / lidar.cells;
  const auto count = static_cast<std::size_t>(std::ceil((stop - start) / step));
  std::vector<double> arange(count);
  if (count > 0) arange[0] = start;
  if (count > 1) arange[1] = start + step;
  const double delta = count > 1 ? arange[1] - arange[0] : 0.0;
  for (std::size_t i = 2; i < count; ++i) arange[i] = start + static_cast<double>(i) * delta;
  // psi = repeat(arange, 2) rolled by one; r = repeat(minimum(grid[:, 0], maximum_range), 2).
  std::vector<double> psi;
  for (double a : arange) {
    psi.push_back(a);
    psi.push_back(a);
  }
  if (psi.empty()) return;
  std::rotate(psi.begin(), psi.begin() + 1, psi.end());
  std::vector<std::array<int, 2>> points;
  const float range = static_cast<float>(lidar.maximum_range);
  for (std::size_t i = 0; i < psi.size(); ++i) {
    const std::size_t cell = std::min(i / 2, static_cast<std::size_t>(lidar.cells - 1));
    const float d = lidar.distances[cell];
    const double r = static_cast<double>(std::isnan(d) ? d : std::min(d, range));
    points.push_back(surface.pos2pix(lidar.origin[0] + r * std::cos(psi[i]), lidar.origin[1] + r * std::sin(psi[i])));
  }
  raster::draw_lines(surface.surface, kLidar, true, points, 1);
}

// EnvViewer.display() onto a new world surface.
WorldSurface display(const Road& road, const Vehicle* focus, const RenderConfig& config, const LidarOverlay* lidar) {
  if (config.screen_width < 0 || config.screen_height < 0)
    throw std::invalid_argument("highway render: the screen size must not be negative");
  if (!(config.scaling > 0) || !std::isfinite(config.scaling))
    throw std::invalid_argument("highway render: scaling must be a positive number");
  WorldSurface surface(config.screen_width, config.screen_height, config.scaling, config.centering_position);
  surface.move_display_window_to(focus != nullptr ? focus->position : Vec2{0.0, 0.0});
  // RoadGraphics.display.
  std::fill(surface.surface.px.begin(), surface.surface.px.end(), raster::map_rgba(kGrey));
  for (const auto& [from, tos] : road.network.graph)
    for (const auto& [to, lanes] : tos)
      for (const auto& lane : lanes) display_lane(*lane, surface);
  // RoadGraphics.display_road_objects.
  for (const auto& o : road.objects) display_object(*o, surface);
  // RoadGraphics.display_traffic.
  if (road.record_history)
    for (const auto& v : road.vehicles) display_history(*v, surface, config.simulation_frequency);
  for (const auto& v : road.vehicles)
    display_vehicle({*v, v->position, v->heading, v->crashed, v->action.steering}, surface, false);
  if (lidar != nullptr) display_lidar(*lidar, surface);
  return surface;
}

}  // namespace

void render_rgb(const Road& road, const Vehicle* focus, const RenderConfig& config, std::uint8_t* rgb,
                const LidarOverlay* lidar) {
  const WorldSurface surface = display(road, focus, config, lidar);
  const std::size_t n = surface.surface.px.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t p = surface.surface.px[i];
    rgb[3 * i] = static_cast<std::uint8_t>((p >> 16) & 0xff);
    rgb[3 * i + 1] = static_cast<std::uint8_t>((p >> 8) & 0xff);
    rgb[3 * i + 2] = static_cast<std::uint8_t>(p & 0xff);
  }
}

RenderConfig grayscale_viewer_config(const RenderConfig& env_config, int observation_width, int observation_height,
                                     std::optional<double> scaling,
                                     std::optional<std::array<double, 2>> centering_position) {
  RenderConfig viewer = env_config;
  viewer.screen_width = observation_width;
  viewer.screen_height = observation_height;
  if (scaling && *scaling != 0.0) viewer.scaling = *scaling;
  if (centering_position) viewer.centering_position = *centering_position;
  return viewer;
}

void grayscale_frame(const Road& road, const Vehicle* observer, const RenderConfig& viewer,
                     const std::array<double, 3>& weights, std::uint8_t* out) {
  const WorldSurface surface = display(road, observer, viewer, nullptr);
  const int w = surface.surface.w, h = surface.surface.h;
  for (int x = 0; x < w; ++x) {
    for (int y = 0; y < h; ++y) {
      const std::uint32_t p = surface.surface.at(x, y);
      // np.dot(rgb, weights) of a float64 pixel row: OpenBLAS's ddot (fused multiply-adds in index order).
      const std::array<double, 3> c{static_cast<double>((p >> 16) & 0xff), static_cast<double>((p >> 8) & 0xff),
                                    static_cast<double>(p & 0xff)};
      const double gray = np_dot3(c, weights);
      // .clip(0, 255).astype(np.uint8)
      const double clipped = std::min(std::max(gray, 0.0), 255.0);
      out[static_cast<std::size_t>(x) * h + y] = static_cast<std::uint8_t>(clipped);
    }
  }
}

void grayscale_observe(const Road& road, const Vehicle* observer, const RenderConfig& viewer,
                       const std::array<double, 3>& weights, int stack_size, std::uint8_t* stack) {
  if (stack_size <= 0) throw std::invalid_argument("highway render: the grayscale stack_size must be positive");
  const std::size_t frame = static_cast<std::size_t>(viewer.screen_width) * viewer.screen_height;
  if (stack_size > 1) std::memmove(stack, stack + frame, frame * (stack_size - 1));
  grayscale_frame(road, observer, viewer, weights, stack + frame * (stack_size - 1));
}

}  // namespace rlpool::highway
