// Road layouts of the racetrack scenarios (see layouts.h). Follows RacetrackEnv._make_road,
// RacetrackEnvLarge._make_road and RacetrackEnvOval._make_road of highway_env/envs/racetrack_env.py
// (highway-env 1.12.1), in the same order of additions and arithmetic.
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

std::shared_ptr<AbstractLane> straight(RoadNetwork& net, const std::string& from, const std::string& to, Vec2 start,
                                       Vec2 end, LineTypes lt, double width, std::optional<double> speed_limit) {
  auto lane = std::make_shared<StraightLane>(start, end, width, lt, false, speed_limit);
  net.add_lane(from, to, lane);
  return lane;
}

// CircularLane(center, radius, deg2rad(start_deg), deg2rad(end_deg), width=width, clockwise, line_types,
// speed_limit).
void circular(RoadNetwork& net, const std::string& from, const std::string& to, Vec2 center, double radius,
              double start_deg, double end_deg, bool clockwise, LineTypes lt, double width,
              std::optional<double> speed_limit) {
  net.add_lane(from, to,
               std::make_shared<CircularLane>(center, radius, deg2rad(start_deg), deg2rad(end_deg), clockwise, width,
                                              lt, false, speed_limit));
}
}  // namespace

RacetrackRoad make_racetrack_road() {
  RacetrackRoad out;
  RoadNetwork& net = out.network;
  // Speed limits of the sections: Straight, Turn20, Straight, Turn 15, Turn15, Straight, Turn25x2, Turn18.
  const std::optional<double> speedlimits[9] = {std::nullopt, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0};
  const double w = 5;

  // 1 - Straight section (the first lane is RacetrackEnv.lane)
  out.lane = straight(net, "a", "b", {42, 0}, {100, 0}, {C, S}, w, speedlimits[1]);
  straight(net, "a", "b", {42, 5}, {100, 5}, {S, C}, w, speedlimits[1]);

  // 2 - Circular Arc #1
  const Vec2 center1{100, -20};
  const double radii1 = 20;
  circular(net, "b", "c", center1, radii1, 90, -1, false, {C, N}, w, speedlimits[2]);
  circular(net, "b", "c", center1, radii1 + 5, 90, -1, false, {S, C}, w, speedlimits[2]);

  // 3 - Vertical Straight
  straight(net, "c", "d", {120, -20}, {120, -30}, {C, N}, w, speedlimits[3]);
  straight(net, "c", "d", {125, -20}, {125, -30}, {S, C}, w, speedlimits[3]);

  // 4 - Circular Arc #2
  const Vec2 center2{105, -30};
  const double radii2 = 15;
  circular(net, "d", "e", center2, radii2, 0, -181, false, {C, N}, w, speedlimits[4]);
  circular(net, "d", "e", center2, radii2 + 5, 0, -181, false, {S, C}, w, speedlimits[4]);

  // 5 - Circular Arc #3
  const Vec2 center3{70, -30};
  const double radii3 = 15;
  circular(net, "e", "f", center3, radii3 + 5, 0, 136, true, {C, S}, w, speedlimits[5]);
  circular(net, "e", "f", center3, radii3, 0, 137, true, {N, C}, w, speedlimits[5]);

  // 6 - Slant
  straight(net, "f", "g", {55.7, -15.7}, {35.7, -35.7}, {C, N}, w, speedlimits[6]);
  straight(net, "f", "g", {59.3934, -19.2}, {39.3934, -39.2}, {S, C}, w, speedlimits[6]);

  // 7 - Circular Arc #4 (two sections)
  const Vec2 center4{18.1, -18.1};
  const double radii4 = 25;
  circular(net, "g", "h", center4, radii4, 315, 170, false, {C, N}, w, speedlimits[7]);
  circular(net, "g", "h", center4, radii4 + 5, 315, 165, false, {S, C}, w, speedlimits[7]);
  circular(net, "h", "i", center4, radii4, 170, 56, false, {C, N}, w, speedlimits[7]);
  circular(net, "h", "i", center4, radii4 + 5, 170, 58, false, {S, C}, w, speedlimits[7]);

  // 8 - Circular Arc #5 - Reconnects to Start
  const Vec2 center5{43.2, 23.4};
  const double radii5 = 18.5;
  circular(net, "i", "a", center5, radii5 + 5, 240, 270, true, {C, S}, w, speedlimits[8]);
  circular(net, "i", "a", center5, radii5, 238, 268, true, {N, C}, w, speedlimits[8]);
  return out;
}

RacetrackRoad make_racetrack_large_road(std::optional<double> default_speedlimit) {
  RacetrackRoad out;
  RoadNetwork& net = out.network;
  const double w = 5;
  const double w2 = 2 * w;
  const auto sl = default_speedlimit;

  // Straight section (the first lane is RacetrackEnv.lane)
  out.lane = straight(net, "a", "b", {42, 0}, {200, 0}, {C, S}, w, sl);
  straight(net, "a", "b", {42, w}, {200, w}, {S, S}, w, sl);
  straight(net, "a", "b", {42, w2}, {200, w2}, {N, C}, w, sl);

  // 2 - Circular Arc #1
  const Vec2 center1{200, -20};
  const double radii1 = 20;
  circular(net, "b", "c", center1, radii1, 90, -1, false, {C, N}, w, sl);
  circular(net, "b", "c", center1, radii1 + w, 90, -1, false, {S, S}, w, sl);
  circular(net, "b", "c", center1, radii1 + w2, 90, -1, false, {N, C}, w, sl);

  // 3 - Vertical Straight
  const double delta_extension = -1.0;  // Better join
  straight(net, "c", "d", {220, -20}, {220, -60 + delta_extension}, {C, N}, w, sl);
  straight(net, "c", "d", {220 + w, -20}, {220 + w, -60 + delta_extension}, {S, S}, w, sl);
  straight(net, "c", "d", {220 + w2, -20}, {220 + w2, -60 + delta_extension}, {N, C}, w, sl);

  // 4 - Circular Arc #2
  const Vec2 center4{205, -60};
  const double radii4 = 15;
  circular(net, "d", "e", center4, radii4, 0, -181, false, {C, N}, w, sl);
  circular(net, "d", "e", center4, radii4 + w, 0, -181, false, {S, S}, w, sl);
  circular(net, "d", "e", center4, radii4 + w2, 0, -181, false, {N, C}, w, sl);

  // 5 - Circular Arc #3
  const Vec2 center5{170, -60};
  const double radii5 = 15;
  circular(net, "e", "f", center5, radii5 + 5, 0, 136, true, {C, N}, w, sl);
  circular(net, "e", "f", center5, radii5, 0, 137, true, {S, S}, w, sl);
  circular(net, "e", "f", center5, radii5 - w, 0, 137, true, {N, C}, w, sl);

  // 6 - Slant, extended by [-30, -30]
  const Vec2 extend{-30, -30};
  const Vec2 start6{155.7, -45.7};
  const Vec2 end6 = Vec2{135.7, -65.7} + extend;
  straight(net, "f", "g", start6, end6, {C, N}, w, sl);
  const Vec2 start6_2{159.3934, -49.2};
  const Vec2 end6_2 = Vec2{139.3934, -69.2} + extend;
  straight(net, "f", "g", start6_2, end6_2, {S, S}, w, sl);
  const Vec2 start6_3{start6[0] + 2 * (start6_2[0] - start6[0]), start6[1] + 2 * (start6_2[1] - start6[1])};
  const Vec2 end6_3{end6[0] + 2 * (end6_2[0] - end6[0]), end6[1] + 2 * (end6_2[1] - end6[1])};
  straight(net, "f", "g", start6_3, end6_3, {N, C}, w, sl);

  // 7 - Circular Arc #4, reflected with the slant
  const Vec2 center7 = Vec2{118.1, -48.1} + extend;
  const double radii7 = 25;
  const double theta7 = 317;
  const double theta7_end = 205;
  circular(net, "g", "h", center7, radii7, theta7, theta7_end - 3, false, {C, N}, w, sl);
  circular(net, "g", "h", center7, radii7 + 5, theta7, theta7_end, false, {S, S}, w, sl);
  circular(net, "g", "h", center7, radii7 + w2, theta7, theta7_end, false, {N, C}, w, sl);

  // 8 - Next slant, from the last arc's end towards section 9's circle
  const Vec2 start8{center7[0] + radii7 * std::cos(deg2rad(theta7_end)),
                    center7[1] + radii7 * std::sin(deg2rad(theta7_end))};
  const Vec2 start8_2{center7[0] + (radii7 + w) * std::cos(deg2rad(theta7_end)),
                      center7[1] + (radii7 + w) * std::sin(deg2rad(theta7_end))};
  const Vec2 start8_3{center7[0] + (radii7 + w2) * std::cos(deg2rad(theta7_end)),
                      center7[1] + (radii7 + w2) * std::sin(deg2rad(theta7_end))};
  const double radii9 = 15;
  const double rad = deg2rad(30);
  const Vec2 end8{42 - radii9 * std::cos(rad), -radii9 - radii9 * std::sin(rad)};
  const Vec2 end8_2{42 - (radii9 + w) * std::cos(rad), -radii9 - (radii9 + w) * std::sin(rad)};
  const Vec2 end8_3{42 - (radii9 + w2) * std::cos(rad), -radii9 - (radii9 + w2) * std::sin(rad)};
  straight(net, "h", "i", start8, end8, {C, N}, w, sl);
  straight(net, "h", "i", start8_2, end8_2, {S, S}, w, sl);
  straight(net, "h", "i", start8_3, end8_3, {N, C}, w, sl);

  // 9 - Circular arc 7, end
  const Vec2 center9{42, -radii9};
  circular(net, "i", "a", center9, radii9, 210, 88, false, {C, N}, w, sl);
  circular(net, "i", "a", center9, radii9 + w, 210, 90, false, {S, S}, w, sl);
  circular(net, "i", "a", center9, radii9 + w2, 212, 88, false, {N, C}, w, sl);
  return out;
}

RacetrackRoad make_racetrack_oval_road(double length, int no_lanes, bool block_lane, bool force_decision) {
  if (!(length != 0) || no_lanes == 0)
    throw std::invalid_argument(
        "highway: make_racetrack_oval_road needs length and no_lanes resolved (Python draws them when 0)");
  RacetrackRoad out;
  RoadNetwork& net = out.network;
  const std::optional<double> speedlimits[9] = {std::nullopt, 10, 10, 10, 10, 10, 10, 10, 10};
  const double w = 5;
  const int n = no_lanes;

  // Lane 1: first inner lane (RacetrackEnv.lane), then the lanes between, then the outer lane.
  out.lane = straight(net, "a", "b", {0, 0}, {length + 1, 0}, {C, S}, w, speedlimits[1]);
  for (int i = 1; i < n - 1; ++i)
    straight(net, "a", "b", {0, i * 5.0}, {length + 1, i * 5.0}, {S, N}, w, speedlimits[1]);
  straight(net, "a", "b", {0, (n - 1) * 5.0}, {length + 1, (n - 1) * 5.0}, {S, C}, w, speedlimits[1]);

  // Turn 1
  const Vec2 center1{length, -20};
  const double radii1 = 20;
  circular(net, "b", "c", center1, radii1, 90, 0, false, {C, N}, w, speedlimits[2]);
  for (int i = 1; i < n - 1; ++i) circular(net, "b", "c", center1, radii1 + i * 5, 90, 0, false, {S, N}, w, speedlimits[2]);
  circular(net, "b", "c", center1, radii1 + (n - 1) * 5, 90, 0, false, {S, C}, w, speedlimits[2]);

  // Vertical Straight 1
  straight(net, "c", "d", {length + 20, -20}, {length + 20, -50}, {C, N}, w, speedlimits[3]);
  for (int i = 1; i < n - 1; ++i)
    straight(net, "c", "d", {length + 20 + i * 5, -20}, {length + 20 + i * 5, -50}, {S, N}, w, speedlimits[3]);
  straight(net, "c", "d", {length + 20 + (n - 1) * 5, -20}, {length + 20 + (n - 1) * 5, -50}, {S, C}, w,
           speedlimits[3]);

  // Turn 2
  const Vec2 center2{length + 5, -50};
  const double radii2 = 15;
  circular(net, "d", "e", center2, radii2, 0, -90, false, {C, N}, w, speedlimits[4]);
  for (int i = 1; i < n - 1; ++i) circular(net, "d", "e", center2, radii2 + i * 5, 0, -90, false, {S, N}, w, speedlimits[4]);
  circular(net, "d", "e", center2, radii2 + (n - 1) * 5, 0, -90, false, {S, C}, w, speedlimits[4]);

  // Horizontal Straight 2
  straight(net, "e", "f", {length + 5, -65}, {-5, -65}, {C, N}, w, speedlimits[5]);
  for (int i = 1; i < n - 1; ++i)
    straight(net, "e", "f", {length + 5, static_cast<double>(-(65 + i * 5))}, {-5, static_cast<double>(-(65 + i * 5))},
             {S, N}, w, speedlimits[5]);
  straight(net, "e", "f", {length + 5, static_cast<double>(-(65 + (n - 1) * 5))},
           {-5, static_cast<double>(-(65 + (n - 1) * 5))}, {S, C}, w, speedlimits[5]);

  // Turn 3
  const Vec2 center4{-5, -50};
  const double radii4 = 15;
  circular(net, "f", "g", center4, radii4, -90, -180, false, {C, N}, w, speedlimits[6]);
  for (int i = 1; i < n - 1; ++i)
    circular(net, "f", "g", center4, radii4 + i * 5, -90, -180, false, {S, N}, w, speedlimits[6]);
  circular(net, "f", "g", center4, radii4 + (n - 1) * 5, -90, -180, false, {S, C}, w, speedlimits[6]);

  // Vertical Straight 2
  straight(net, "g", "h", {-20, -50}, {-20, -20}, {C, N}, w, speedlimits[7]);
  for (int i = 1; i < n - 1; ++i)
    straight(net, "g", "h", {static_cast<double>(-20 - i * 5), -50}, {static_cast<double>(-20 - i * 5), -20}, {S, N}, w,
             speedlimits[7]);
  straight(net, "g", "h", {static_cast<double>(-20 - (n - 1) * 5), -50}, {static_cast<double>(-20 - (n - 1) * 5), -20},
           {S, C}, w, speedlimits[7]);

  // Turn 4 (as in Python, the lanes between get line types (STRIPED, CONTINUOUS) here)
  const Vec2 center6{0, -20};
  const double radii6 = 20;
  circular(net, "h", "a", center6, radii6, 180, 90, false, {C, N}, w, speedlimits[8]);
  for (int i = 1; i < n - 1; ++i)
    circular(net, "h", "a", center6, radii6 + i * 5, 180, 90, false, {S, C}, w, speedlimits[8]);
  circular(net, "h", "a", center6, radii6 + (n - 1) * 5, 180, 90, false, {S, C}, w, speedlimits[8]);

  // Scenario to force a "binary" decision
  if (block_lane) {
    for (double i : {40.0, 43.0, 46.0, 49.0}) {
      out.obstacles.push_back({length - i, 3.75});
      out.obstacles.push_back({length - i, 6.25});
    }
  }
  if (force_decision) {
    for (double i : {-1.25, 1.25, 8.85, 11.25}) out.obstacles.push_back({length - 90.0, i});
  }
  return out;
}

}  // namespace rlpool::highway
