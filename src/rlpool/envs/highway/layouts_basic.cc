// Road layouts of the highway, merge, intersection, two-way, u-turn, exit, parking and lane-keeping
// scenarios (see layouts.h). Follows the `_make_road` / `_create_road` methods of
// highway_env/envs/{highway,merge,intersection,two_way,u_turn,exit,parking,lane_keeping}_env.py
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
constexpr LineType CL = LineType::CONTINUOUS_LINE;

// np.radians / np.deg2rad.
double radians(double degrees) { return degrees * (kPi / 180.0); }
// Python's % on ints (floored).
int py_imod(int a, int b) { return ((a % b) + b) % b; }
// rotation @ v with rotation = [[c, -s], [s, c]].
Vec2 rotate(double c, double s, const Vec2& v) { return matvec(Mat2{{{c, -s}, {s, c}}}, v); }
}  // namespace

RoadNetwork make_highway_road(int lanes_count) {
  return RoadNetwork::straight_road_network(lanes_count, 0.0, 10000.0, 0.0, 30.0);
}

MergeRoad make_merge_road() {
  RoadNetwork net;
  // Highway lanes
  const double ends[4] = {150, 80, 80, 150};  // Before, converging, merge, after
  const double y[2] = {0, StraightLane::DEFAULT_WIDTH};
  const LineTypes line_type[2] = {{CL, S}, {N, CL}};
  const LineTypes line_type_merge[2] = {{CL, S}, {N, S}};
  const double sum2 = ends[0] + ends[1];
  const double sum3 = sum2 + ends[2];
  const double sum4 = sum3 + ends[3];
  for (int i = 0; i < 2; ++i) {
    net.add_lane("a", "b",
                 std::make_shared<StraightLane>(Vec2{0, y[i]}, Vec2{sum2, y[i]}, StraightLane::DEFAULT_WIDTH,
                                                line_type[i]));
    net.add_lane("b", "c",
                 std::make_shared<StraightLane>(Vec2{sum2, y[i]}, Vec2{sum3, y[i]}, StraightLane::DEFAULT_WIDTH,
                                                line_type_merge[i]));
    net.add_lane("c", "d",
                 std::make_shared<StraightLane>(Vec2{sum3, y[i]}, Vec2{sum4, y[i]}, StraightLane::DEFAULT_WIDTH,
                                                line_type[i]));
  }
  // Merging lane (MergeEnv's c is CONTINUOUS_LINE)
  const double amplitude = 3.25;
  auto ljk = std::make_shared<StraightLane>(Vec2{0, 6.5 + 4 + 4}, Vec2{ends[0], 6.5 + 4 + 4},
                                            StraightLane::DEFAULT_WIDTH, LineTypes{CL, CL}, true);
  auto lkb = std::make_shared<SineLane>(ljk->position(ends[0], -amplitude), ljk->position(sum2, -amplitude),
                                        amplitude, 2 * kPi / (2 * ends[1]), kPi / 2, StraightLane::DEFAULT_WIDTH,
                                        LineTypes{CL, CL}, true);
  const Vec2 lbc_start = lkb->position(ends[1], 0);
  auto lbc = std::make_shared<StraightLane>(lbc_start, lkb->position(ends[1], 0) + Vec2{ends[2], 0},
                                            StraightLane::DEFAULT_WIDTH, LineTypes{N, CL}, true);
  net.add_lane("j", "k", ljk);
  net.add_lane("k", "b", lkb);
  net.add_lane("b", "c", lbc);
  MergeRoad out;
  out.obstacle = lbc->position(ends[2], 0);
  out.network = std::move(net);
  return out;
}

MergeRoad make_merge_generic_road(int lanes_count, double pre_merge, double converge, double parallel,
                                  double after) {
  if (!(pre_merge > 0 && converge > 0 && parallel > 0))
    throw std::invalid_argument("highway: All road segments must have positive length");
  if (!(after >= 90)) throw std::invalid_argument("highway: The after merge road segment must have length >= 90");
  MergeRoad out;
  out.end_position = pre_merge + converge + parallel + after - 90;

  RoadNetwork net;
  net = RoadNetwork::straight_road_network(lanes_count, 0, pre_merge + converge, 0.0, 30.0,
                                           std::pair<std::string, std::string>{"a", "b"}, std::move(net));
  net = RoadNetwork::straight_road_network(lanes_count, pre_merge + converge, parallel, 0.0, 30.0,
                                           std::pair<std::string, std::string>{"b", "c"}, std::move(net));
  net = RoadNetwork::straight_road_network(lanes_count, pre_merge + converge + parallel, after, 0.0, 30.0,
                                           std::pair<std::string, std::string>{"c", "d"}, std::move(net));

  const double amplitude = 3.25;
  const double y_parallel = lanes_count * StraightLane::DEFAULT_WIDTH;
  const double y_approach = y_parallel + 2 * amplitude;

  auto ljk = std::make_shared<StraightLane>(Vec2{0, y_approach}, Vec2{pre_merge, y_approach},
                                            StraightLane::DEFAULT_WIDTH, LineTypes{CL, CL}, true, 30.0);
  auto lkb = std::make_shared<SineLane>(Vec2{pre_merge, y_parallel + amplitude},
                                        Vec2{pre_merge + converge, y_parallel + amplitude}, amplitude,
                                        2 * kPi / (2 * converge), kPi / 2, StraightLane::DEFAULT_WIDTH,
                                        LineTypes{CL, CL}, true, 30.0);
  auto lbc = std::make_shared<StraightLane>(Vec2{pre_merge + converge, y_parallel},
                                            Vec2{pre_merge + converge + parallel, y_parallel},
                                            StraightLane::DEFAULT_WIDTH, LineTypes{S, CL}, true, 30.0);
  net.add_lane("j", "k", ljk);
  net.add_lane("k", "b", lkb);
  net.add_lane("b", "c", lbc);
  out.obstacle = lbc->position(parallel, 0);
  out.network = std::move(net);
  return out;
}

RoadNetwork make_intersection_road() {
  const double lane_width = AbstractLane::DEFAULT_WIDTH;
  const double right_turn_radius = lane_width + 5;              // [m]
  const double left_turn_radius = right_turn_radius + lane_width;  // [m]
  const double outer_distance = right_turn_radius + lane_width / 2;
  const double access_length = 50 + 50;  // [m]

  RoadNetwork net;
  for (int corner = 0; corner < 4; ++corner) {
    const double angle = radians(90 * corner);
    const bool is_horizontal = corner % 2 != 0;
    const int priority = is_horizontal ? 3 : 1;
    const double c = std::cos(angle), s = std::sin(angle);
    const std::string k = std::to_string(corner);
    // Incoming
    Vec2 start = rotate(c, s, {lane_width / 2, access_length + outer_distance});
    Vec2 end = rotate(c, s, {lane_width / 2, outer_distance});
    net.add_lane("o" + k, "ir" + k,
                 std::make_shared<StraightLane>(start, end, AbstractLane::DEFAULT_WIDTH, LineTypes{S, C}, false,
                                                10.0, priority));
    // Right turn
    const Vec2 r_center = rotate(c, s, {outer_distance, outer_distance});
    net.add_lane("ir" + k, "il" + std::to_string(py_imod(corner - 1, 4)),
                 std::make_shared<CircularLane>(r_center, right_turn_radius, angle + radians(180),
                                                angle + radians(270), true, AbstractLane::DEFAULT_WIDTH,
                                                LineTypes{N, C}, false, 10.0, priority));
    // Left turn
    const Vec2 l_center =
        rotate(c, s, {-left_turn_radius + lane_width / 2, left_turn_radius - lane_width / 2});
    net.add_lane("ir" + k, "il" + std::to_string(py_imod(corner + 1, 4)),
                 std::make_shared<CircularLane>(l_center, left_turn_radius, angle + radians(0),
                                                angle + radians(-90), false, AbstractLane::DEFAULT_WIDTH,
                                                LineTypes{N, N}, false, 10.0, priority - 1));
    // Straight
    start = rotate(c, s, {lane_width / 2, outer_distance});
    end = rotate(c, s, {lane_width / 2, -outer_distance});
    net.add_lane("ir" + k, "il" + std::to_string(py_imod(corner + 2, 4)),
                 std::make_shared<StraightLane>(start, end, AbstractLane::DEFAULT_WIDTH, LineTypes{S, N}, false,
                                                10.0, priority));
    // Exit
    start = rotate(c, s, {access_length + outer_distance, lane_width / 2});
    end = rotate(c, s, {outer_distance, lane_width / 2});
    const std::string prev = std::to_string(py_imod(corner - 1, 4));
    net.add_lane("il" + prev, "o" + prev,
                 std::make_shared<StraightLane>(end, start, AbstractLane::DEFAULT_WIDTH, LineTypes{N, C}, false,
                                                10.0, priority));
  }
  return net;
}

RoadNetwork make_two_way_road(double length) {
  RoadNetwork net;
  net.add_lane("a", "b",
               std::make_shared<StraightLane>(Vec2{0, 0}, Vec2{length, 0}, StraightLane::DEFAULT_WIDTH,
                                              LineTypes{CL, S}));
  net.add_lane("a", "b",
               std::make_shared<StraightLane>(Vec2{0, StraightLane::DEFAULT_WIDTH},
                                              Vec2{length, StraightLane::DEFAULT_WIDTH},
                                              StraightLane::DEFAULT_WIDTH, LineTypes{N, CL}));
  net.add_lane("b", "a",
               std::make_shared<StraightLane>(Vec2{length, 0}, Vec2{0, 0}, StraightLane::DEFAULT_WIDTH,
                                              LineTypes{N, N}));
  return net;
}

RoadNetwork make_u_turn_road(double length) {
  RoadNetwork net;
  const double w = StraightLane::DEFAULT_WIDTH;
  // Upper starting lanes after the U-Turn, from x = length to 0.
  net.add_lane("c", "d", std::make_shared<StraightLane>(Vec2{length, w}, Vec2{0, w}, w, LineTypes{CL, S}));
  net.add_lane("c", "d", std::make_shared<StraightLane>(Vec2{length, 0}, Vec2{0, 0}, w, LineTypes{N, CL}));
  // Counter-clockwise circular U-Turn lanes.
  const Vec2 center{length, w + 20};  // [m]
  const double radius = 20;           // [m]
  const double alpha = 0;             // [deg]
  const double radii[2] = {radius, radius + w};
  const LineTypes line[2] = {{C, S}, {N, C}};
  for (int lane = 0; lane < 2; ++lane) {
    net.add_lane("b", "c",
                 std::make_shared<CircularLane>(center, radii[lane], radians(90 - alpha), radians(-90 + alpha),
                                                false, AbstractLane::DEFAULT_WIDTH, line[lane]));
  }
  const double offset = 2 * radius;
  // Lower starting lanes before the U-Turn, from x = 0 to length.
  net.add_lane("a", "b",
               std::make_shared<StraightLane>(Vec2{0, (2 * w + offset) - w}, Vec2{length, (2 * w + offset) - w}, w,
                                              LineTypes{CL, S}));
  net.add_lane("a", "b",
               std::make_shared<StraightLane>(Vec2{0, 2 * w + offset}, Vec2{length, 2 * w + offset}, w,
                                              LineTypes{N, CL}));
  return net;
}

RoadNetwork make_exit_road(int lanes_count, double road_length, double exit_position, double exit_length) {
  RoadNetwork net = RoadNetwork::straight_road_network(lanes_count, 0, exit_position, 0.0, 30.0,
                                                       std::pair<std::string, std::string>{"0", "1"});
  net = RoadNetwork::straight_road_network(lanes_count + 1, exit_position, exit_length, 0.0, 30.0,
                                           std::pair<std::string, std::string>{"1", "2"}, std::move(net));
  net = RoadNetwork::straight_road_network(lanes_count, exit_position + exit_length,
                                           road_length - exit_position - exit_length, 0.0, 30.0,
                                           std::pair<std::string, std::string>{"2", "3"}, std::move(net));
  for (auto& [from, to_dict] : net.graph)
    for (auto& [to, lanes] : to_dict)
      for (std::size_t id = 0; id < lanes.size(); ++id) lanes[id]->speed_limit = 26 - 3.4 * static_cast<double>(id);
  const Vec2 exit_pos{exit_position + exit_length, lanes_count * CircularLane::DEFAULT_WIDTH};
  const double radius = 150;
  const Vec2 exit_center = exit_pos + Vec2{0, radius};
  net.add_lane("2", "exit",
               std::make_shared<CircularLane>(exit_center, radius, 3 * kPi / 2, 2 * kPi, true,
                                              AbstractLane::DEFAULT_WIDTH, std::nullopt, true));
  return net;
}

RoadNetwork make_parking_road(int spots) {
  RoadNetwork net;
  const double width = 4.0;
  const LineTypes lt{C, C};
  const double x_offset = 0;
  const double y_offset = 10;
  const double length = 8;
  const int half = spots / 2;  // spots >= 0
  for (int k = 0; k < spots; ++k) {
    const double x = (k + 1 - half) * (width + x_offset) - width / 2;
    net.add_lane("a", "b",
                 std::make_shared<StraightLane>(Vec2{x, y_offset}, Vec2{x, y_offset + length}, width, lt));
    net.add_lane("b", "c",
                 std::make_shared<StraightLane>(Vec2{x, -y_offset}, Vec2{x, -y_offset - length}, width, lt));
  }
  return net;
}

LaneKeepingRoad make_lane_keeping_road() {
  LaneKeepingRoad out;
  auto lane = std::make_shared<SineLane>(Vec2{0, 0}, Vec2{500, 0}, 5, 2 * kPi / 100, 0, 10, LineTypes{S, S});
  out.network.add_lane("a", "b", lane);
  auto other_lane = std::make_shared<StraightLane>(Vec2{50, 50}, Vec2{115, 15}, 10, LineTypes{S, S});
  out.network.add_lane("c", "d", other_lane);
  out.lane = other_lane;
  out.lanes = {lane};
  out.network.add_lane("d", "a",
                       std::make_shared<StraightLane>(Vec2{115, 15},
                                                      Vec2{115 + 20, 15 + 20 * (15.0 - 50) / (115 - 50)}, 10,
                                                      LineTypes{N, S}));
  return out;
}

}  // namespace rlpool::highway
