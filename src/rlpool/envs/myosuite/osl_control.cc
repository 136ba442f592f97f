// The Open Source Leg's state machine and the gait-cycle table (osl_control.h):
// myosuite 2.11.6's envs/myo/assets/leg/myoosl_control.py (initDefaults,
// lines 156-233, for the parameters; State.check_transition, lines 255-265;
// MyoOSLController._get_joint_torque, lines 136-154) and np.loadtxt of
// sample_gait_cycle.csv in RunTrack._setup (run_track_v0.py, lines 120-134).
#include "envs/myosuite/osl_control.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace rlpool::myosuite {
namespace {

// np.deg2rad: x * (pi / 180).
double deg(double x) { return x * (std::numbers::pi / 180.0); }

constexpr double kGravity = 9.81;
// HARDWARE[joint]['peak_torque'].
constexpr double kKneePeak = 142.272, kAnklePeak = 168.192;

}  // namespace

OslController::OslController(double body_mass) {
  const double weight = body_mass * kGravity;
  using S = Sensor;
  params_[0] = {{99.372, 3.180, deg(5)},
                {19.874, 0, deg(-2)},
                {{S::kLoad, 0.25 * weight, true}, {S::kAnkleAngle, deg(6), true}}};
  params_[1] = {{99.372, 1.272, deg(8)}, {79.498, 0.063, deg(-20)}, {{S::kLoad, 0.15 * weight, false}}};
  params_[2] = {{39.749, 0.063, deg(60)},
                {7.949, 0, deg(25)},
                {{S::kKneeAngle, deg(50), true}, {S::kKneeVel, deg(3), false}}};
  params_[3] = {{15.899, 3.816, deg(5)},
                {7.949, 0, deg(15)},
                {{S::kLoad, 0.4 * weight, true}, {S::kKneeAngle, deg(30), false}}};
}

void OslController::update(const OslSensors& s) {
  const auto value = [&s](Sensor sensor) {
    switch (sensor) {
      case Sensor::kLoad: return s.load;
      case Sensor::kKneeAngle: return s.knee_angle;
      case Sensor::kKneeVel: return s.knee_vel;
      case Sensor::kAnkleAngle: return s.ankle_angle;
    }
    return 0.0;
  };
  const int current = static_cast<int>(state_);
  for (const Threshold& t : params_[static_cast<std::size_t>(current)].thresholds) {
    const double v = value(t.sensor);
    if (t.above ? v > t.value : v < t.value) {
      state_ = static_cast<OslState>((current + 1) % 4);
      return;
    }
  }
}

std::array<double, 2> OslController::torques(const OslSensors& s) const {
  const StateParams& p = params_[static_cast<std::size_t>(state_)];
  const auto torque = [](const Gains& g, double angle, double vel, double peak) {
    return std::min(std::max(g.stiffness * (g.target - angle) - g.damping * vel, -1 * peak), peak);
  };
  return {torque(p.knee, s.knee_angle, s.knee_vel, kKneePeak), torque(p.ankle, s.ankle_angle, s.ankle_vel, kAnklePeak)};
}

GaitCycle read_gait_cycle(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("'" + path + "': the OSL gait cycle table cannot be opened");
  const auto fail = [&path](int line, const std::string& what) {
    throw std::invalid_argument("'" + path + "', line " + std::to_string(line) + ": " + what);
  };
  GaitCycle g;
  std::string line;
  if (!std::getline(in, line)) fail(1, "no header row");
  {
    std::stringstream header(line);
    std::string name;
    while (std::getline(header, name, ',')) {
      if (!name.empty() && name.back() == '\r') name.pop_back();
      if (name.empty()) fail(1, "an empty column name");
      g.columns.push_back(name);
    }
  }
  if (g.columns.empty()) fail(1, "no column names");
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<double> row;
    const char* p = line.data();
    const char* const end = p + line.size();
    while (true) {
      while (p < end && *p == ' ') ++p;
      double v = 0.0;
      const auto [next, ec] = std::from_chars(p, end, v);
      if (ec != std::errc()) fail(number, "a field that is not a number");
      row.push_back(v);
      p = next;
      while (p < end && *p == ' ') ++p;
      if (p == end) break;
      if (*p != ',') fail(number, "a field that is not a number");
      ++p;
    }
    if (row.size() != g.columns.size()) {
      fail(number, std::to_string(row.size()) + " fields, the header names " + std::to_string(g.columns.size()));
    }
    g.rows.push_back(std::move(row));
  }
  if (g.rows.empty()) fail(number, "no rows after the header");
  return g;
}

}  // namespace rlpool::myosuite
