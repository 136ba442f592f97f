// Road layouts of the roundabout scenarios (see layouts.h). Follows RoundaboutEnv._make_road and
// RoundaboutGenericEnv._make_road of highway_env/envs/roundabout_env.py (highway-env 1.12.1), in the same
// order of additions and arithmetic.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "envs/highway/layouts.h"

namespace rlpool::highway {

namespace {
constexpr double kPi = std::numbers::pi;
constexpr LineType N = LineType::NONE;
constexpr LineType S = LineType::STRIPED;
constexpr LineType C = LineType::CONTINUOUS;

double deg2rad(double degrees) { return degrees * (kPi / 180.0); }

void add_straight(RoadNetwork& net, const char* from, const char* to, Vec2 start, Vec2 end, LineTypes lt) {
  net.add_lane(from, to, std::make_shared<StraightLane>(start, end, AbstractLane::DEFAULT_WIDTH, lt));
}

void add_sine(RoadNetwork& net, const char* from, const char* to, Vec2 start, Vec2 end, double amplitude,
              double pulsation, double phase) {
  net.add_lane(from, to,
               std::make_shared<SineLane>(start, end, amplitude, pulsation, phase, AbstractLane::DEFAULT_WIDTH,
                                          LineTypes{C, C}));
}

// The eight ring sections (se -> ex -> ee -> nx -> ne -> wx -> we -> sx -> se) and their angles [deg].
constexpr const char* kNodes[9] = {"se", "ex", "ee", "nx", "ne", "wx", "we", "sx", "se"};
}  // namespace

RoadNetwork make_roundabout_road() {
  // Circle lanes: (s)outh/(e)ast/(n)orth/(w)est (e)ntry/e(x)it.
  const Vec2 center{0, 0};  // [m]
  const double radius = 20;  // [m]
  const double alpha = 24;   // [deg]

  RoadNetwork net;
  const double radii[2] = {radius, radius + 4};
  const LineTypes line[2] = {{C, S}, {N, C}};
  const double angles[8][2] = {{90 - alpha, alpha},           {alpha, -alpha},
                               {-alpha, -90 + alpha},         {-90 + alpha, -90 - alpha},
                               {-90 - alpha, -180 + alpha},   {-180 + alpha, -180 - alpha},
                               {180 - alpha, 90 + alpha},     {90 + alpha, 90 - alpha}};
  for (int lane = 0; lane < 2; ++lane) {
    for (int i = 0; i < 8; ++i) {
      net.add_lane(kNodes[i], kNodes[i + 1],
                   std::make_shared<CircularLane>(center, radii[lane], deg2rad(angles[i][0]),
                                                  deg2rad(angles[i][1]), false, AbstractLane::DEFAULT_WIDTH,
                                                  line[lane]));
    }
  }

  // Access lanes: (r)oad/(s)ine
  const double access = 170;  // [m]
  const double dev = 85;      // [m]
  const double a = 5;         // [m]
  const double delta_st = 0.2 * dev;  // [m]

  const double delta_en = dev - delta_st;
  const double w = 2 * kPi / dev;
  add_straight(net, "ser", "ses", {2, access}, {2, dev / 2}, {S, C});
  add_sine(net, "ses", "se", {2 + a, dev / 2}, {2 + a, dev / 2 - delta_st}, a, w, -kPi / 2);
  add_sine(net, "sx", "sxs", {-2 - a, -dev / 2 + delta_en}, {-2 - a, dev / 2}, a, w, -kPi / 2 + w * delta_en);
  add_straight(net, "sxs", "sxr", {-2, dev / 2}, {-2, access}, {N, C});

  add_straight(net, "eer", "ees", {access, -2}, {dev / 2, -2}, {S, C});
  add_sine(net, "ees", "ee", {dev / 2, -2 - a}, {dev / 2 - delta_st, -2 - a}, a, w, -kPi / 2);
  add_sine(net, "ex", "exs", {-dev / 2 + delta_en, 2 + a}, {dev / 2, 2 + a}, a, w, -kPi / 2 + w * delta_en);
  add_straight(net, "exs", "exr", {dev / 2, 2}, {access, 2}, {N, C});

  add_straight(net, "ner", "nes", {-2, -access}, {-2, -dev / 2}, {S, C});
  add_sine(net, "nes", "ne", {-2 - a, -dev / 2}, {-2 - a, -dev / 2 + delta_st}, a, w, -kPi / 2);
  add_sine(net, "nx", "nxs", {2 + a, dev / 2 - delta_en}, {2 + a, -dev / 2}, a, w, -kPi / 2 + w * delta_en);
  add_straight(net, "nxs", "nxr", {2, -dev / 2}, {2, -access}, {N, C});

  add_straight(net, "wer", "wes", {-access, 2}, {-dev / 2, 2}, {S, C});
  add_sine(net, "wes", "we", {-dev / 2, 2 + a}, {-dev / 2 + delta_st, 2 + a}, a, w, -kPi / 2);
  add_sine(net, "wx", "wxs", {dev / 2 - delta_en, -2 - a}, {-dev / 2, -2 - a}, a, w, -kPi / 2 + w * delta_en);
  add_straight(net, "wxs", "wxr", {-dev / 2, -2}, {-access, -2}, {N, C});
  return net;
}

RoadNetwork make_roundabout_generic_road(double radius, int num_lanes) {
  if (num_lanes < 1) throw std::invalid_argument("highway: roundabout_lanes must be >= 1");
  const Vec2 center{0, 0};  // [m]
  const double alpha = 24;  // [deg]

  RoadNetwork net;
  std::vector<double> radii;
  for (int i = 0; i < num_lanes; ++i) radii.push_back(radius + (4 * i));
  const double angles[8][2] = {{90 - alpha, alpha},           {alpha, -alpha},
                               {-alpha, -90 + alpha},         {-90 + alpha, -90 - alpha},
                               {-90 - alpha, -180 + alpha},   {-180 + alpha, -180 - alpha},
                               {180 - alpha, 90 + alpha},     {90 + alpha, 90 - alpha}};
  for (int lane = 0; lane < num_lanes; ++lane) {
    LineTypes line_types;
    if (num_lanes == 1)
      line_types = {C, C};
    else if (lane == 0)
      line_types = {C, S};
    else if (lane == num_lanes - 1)
      line_types = {N, C};
    else
      line_types = {N, S};
    for (int i = 0; i < 8; ++i) {
      net.add_lane(kNodes[i], kNodes[i + 1],
                   std::make_shared<CircularLane>(center, radii[static_cast<std::size_t>(lane)],
                                                  deg2rad(angles[i][0]), deg2rad(angles[i][1]), false,
                                                  AbstractLane::DEFAULT_WIDTH, line_types));
    }
  }

  // Dynamically calculate exact coordinates on the outermost circle
  const double outer_radius = radii.back();
  auto pt = [&](double angle_deg) {
    const double rad = deg2rad(angle_deg);
    return Vec2{outer_radius * std::cos(rad), outer_radius * std::sin(rad)};
  };
  const Vec2 p_se = pt(90 - alpha);
  const Vec2 p_ex = pt(alpha);
  const Vec2 p_ee = pt(-alpha);
  const Vec2 p_nx = pt(-90 + alpha);
  const Vec2 p_ne = pt(-90 - alpha);
  const Vec2 p_wx = pt(-180 + alpha);
  const Vec2 p_we = pt(180 - alpha);
  const Vec2 p_sx = pt(90 + alpha);

  // In case radius is very large (Python's max(100.0, x): x only if x > 100.0)
  const double dev_candidate = 2 * outer_radius + 40.0;
  const double dev = dev_candidate > 100.0 ? dev_candidate : 100.0;
  const double access = dev + 40.0;

  // South Entry (ses -> se)
  double d = dev / 2 - p_se[1];
  double a = (p_se[0] - 2) / 2;
  double w = kPi / d;
  add_straight(net, "ser", "ses", {2, access}, {2, dev / 2}, {S, C});
  add_sine(net, "ses", "se", {2 + a, dev / 2}, {2 + a, p_se[1]}, a, w, -kPi / 2);

  // South Exit (sx -> sxs)
  d = dev / 2 - p_sx[1];
  a = (p_sx[0] + 2) / 2;
  w = kPi / d;
  add_sine(net, "sx", "sxs", {p_sx[0] - a, p_sx[1]}, {p_sx[0] - a, dev / 2}, a, w, -kPi / 2);
  add_straight(net, "sxs", "sxr", {-2, dev / 2}, {-2, access}, {N, C});

  // East Entry (ees -> ee)
  d = dev / 2 - p_ee[0];
  a = (-2 - p_ee[1]) / 2;
  w = kPi / d;
  add_straight(net, "eer", "ees", {access, -2}, {dev / 2, -2}, {S, C});
  add_sine(net, "ees", "ee", {dev / 2, -2 - a}, {p_ee[0], -2 - a}, a, w, -kPi / 2);

  // East Exit (ex -> exs)
  d = dev / 2 - p_ex[0];
  a = (2 - p_ex[1]) / 2;
  w = kPi / d;
  add_sine(net, "ex", "exs", {p_ex[0], p_ex[1] + a}, {dev / 2, p_ex[1] + a}, a, w, -kPi / 2);
  add_straight(net, "exs", "exr", {dev / 2, 2}, {access, 2}, {N, C});

  // North Entry (nes -> ne)
  d = p_ne[1] - (-dev / 2);
  a = (-2 - p_ne[0]) / 2;
  w = kPi / d;
  add_straight(net, "ner", "nes", {-2, -access}, {-2, -dev / 2}, {S, C});
  add_sine(net, "nes", "ne", {-2 - a, -dev / 2}, {-2 - a, p_ne[1]}, a, w, -kPi / 2);

  // North Exit (nx -> nxs)
  d = p_nx[1] - (-dev / 2);
  a = (2 - p_nx[0]) / 2;
  w = kPi / d;
  add_sine(net, "nx", "nxs", {p_nx[0] + a, p_nx[1]}, {p_nx[0] + a, -dev / 2}, a, w, -kPi / 2);
  add_straight(net, "nxs", "nxr", {2, -dev / 2}, {2, -access}, {N, C});

  // West Entry (wes -> we)
  d = p_we[0] - (-dev / 2);
  a = (p_we[1] - 2) / 2;
  w = kPi / d;
  add_straight(net, "wer", "wes", {-access, 2}, {-dev / 2, 2}, {S, C});
  add_sine(net, "wes", "we", {-dev / 2, 2 + a}, {p_we[0], 2 + a}, a, w, -kPi / 2);

  // West Exit (wx -> wxs)
  d = p_wx[0] - (-dev / 2);
  a = (p_wx[1] + 2) / 2;
  w = kPi / d;
  add_sine(net, "wx", "wxs", {p_wx[0], p_wx[1] - a}, {-dev / 2, p_wx[1] - a}, a, w, -kPi / 2);
  add_straight(net, "wxs", "wxr", {-dev / 2, -2}, {-access, -2}, {N, C});
  return net;
}

}  // namespace rlpool::highway
