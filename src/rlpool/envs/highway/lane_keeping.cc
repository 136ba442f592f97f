// The LaneKeeping scenario: LaneKeepingEnv (lane-keeping-v0). A BicycleVehicle (dynamical bicycle model)
// starts on a straight lane that leads onto a sine-shaped lane and steers (one continuous action) to stay
// on the lane's centre; the reward is 1 - (lateral error / lane width) ** 2 against the lane it follows
// (the straight lane until the vehicle leaves it, then the sine lane). The observation is
// AttributesObservation's dict of the env's attributes: `state` and `derivative` (the vehicle's lateral
// state [y, heading, lateral speed, yaw rate] and its time derivative, each plus uniform noise) and
// `reference_state` ([y - lateral error, lane heading, 0, 0]), each float64 [4, 1]. The episode never ends
// by itself (gymnasium's registration gives it 200 steps).
//
// Follows highway_env/envs/lane_keeping_env.py (highway-env 1.12.1). Its step() is not AbstractEnv's: it
// updates the followed lane, acts, observes *before* simulating, then simulates one policy period without
// acting again and leaves `time` at 0 (its info is empty: the info entries here are AbstractEnv's). Its
// observation space is computed by observing (AttributesObservation.space()), so each of reset()'s two
// define_spaces() draws the noise of `state` and `derivative` once more (highway-env's env always has a
// vehicle there: its constructor already reset it once); AbstractEnv::set_state rebuilds the scene without
// the reset's observation, so a replay draws that observation's noise before its first step. The LPV
// interval predictor (`lpv`, None in highway-env) and the stored trajectories (rendering only) are not ported.
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/dynamics.h"
#include "envs/highway/highway_env.h"
#include "envs/highway/layouts.h"
#include "envs/highway/observation.h"

namespace rlpool::highway {
namespace {

constexpr std::array<std::size_t, 4> kLateral{1, 2, 4, 5};  // state[[1, 2, 4, 5]]

class LaneKeepingEnv final : public AbstractEnv {
 public:
  LaneKeepingEnv(const Config& config, std::string env_type)
      : AbstractEnv(config, std::move(env_type), info(config)),
        state_noise_(config.get_finite("state_noise")),
        derivative_noise_(config.get_finite("derivative_noise")) {}

  static ScenarioInfo info(const Config& config) {
    const EnvOptions o = parse_env_options(config);
    config.get_finite("state_noise");
    config.get_finite("derivative_noise");
    if (o.observation.multi_agent) {
      throw std::invalid_argument("LaneKeepingEnv has one controlled vehicle: MultiAgentObservation and "
                                  "MultiAgentAction are not supported");
    }
    const bool bicycle = o.action.type != "DiscreteMetaAction" && o.action.dynamical;
    if (o.observation.type == "AttributesObservation" && !bicycle) {
      throw std::invalid_argument("LaneKeepingEnv's attributes (state, derivative, reference_state) read a "
                                  "BicycleVehicle: AttributesObservation needs a continuous or discrete action "
                                  "with action_dynamical=True");
    }
    return {.attributes = {{"state", {4, 1}}, {"derivative", {4, 1}}, {"reference_state", {4, 1}}}};
  }

  // getattr(env, name) for AttributesObservation: state, derivative (noisy) and reference_state.
  void attribute(const std::string& name, double* dst) override {
    const auto* v = dynamic_cast<const BicycleVehicle*>(vehicle());
    if (v == nullptr) throw std::logic_error("LaneKeepingEnv: the controlled vehicle is no BicycleVehicle");
    observed_ = true;
    if (name == "state" || name == "derivative") {
      const BicycleState values = name == "state" ? v->state() : v->derivative();
      const double noise = name == "state" ? state_noise_ : derivative_noise_;
      std::array<double, 4> draws{};
      for (double& d : draws) d = np_random().uniform(-noise, noise);
      for (std::size_t k = 0; k < 4; ++k) dst[k] = values[kLateral[k]] + draws[k];
      return;
    }
    if (name == "reference_state") {
      const auto [longi, lat] = lane_->local_coordinates(v->position);
      const double psi_l = lane_->heading_at(longi);
      dst[0] = v->position[1] - lat;
      dst[1] = psi_l;
      dst[2] = 0;
      dst[3] = 0;
      return;
    }
    AbstractEnv::attribute(name, dst);
  }

 protected:
  void reset_scene() override {
    // _make_road
    LaneKeepingRoad layout = make_lane_keeping_road();
    lane_ = layout.lane;
    lanes_ = layout.lanes;
    road_ = std::make_unique<Road>(std::move(layout.network), &np_random(), /*record_history=*/false,
                                   options().neighbour_vehicles_connected_lanes);
    // _make_vehicles
    Road& road = *road_;
    const AbstractLane& start = road.network.get_lane(LaneIndex{"c", "d", 0});
    auto ego = action_type().make_vehicle(road, start.position(50, -4), start.heading_at(0), 8.3);
    road.vehicles.push_back(ego);
    controlled_vehicles_ = {ego.get()};
  }

  // AttributesObservation.space() observes: the noisy attributes draw their noise, and those draws only
  // (their values are unused), at both define_spaces() of a reset.
  void define_spaces(bool scene_ready) override {
    draw_observation_noise();
    if (scene_ready) observed_ = false;
  }

  // LaneKeepingEnv.step: follow the next lane once off the current one, act, observe, then simulate (the
  // action is not applied again there); reward, never terminated nor truncated; `time` stays 0.
  void do_step(const ActionView& action, const Output& out) override {
    // AbstractEnv::set_state rebuilds the scene without the reset's observation, whose noise draws the
    // episode's later draws follow: a replay draws them here, before its first step.
    if (!observed_) draw_observation_noise();
    observed_ = true;
    if (!lanes_.empty() && !lane_->on_lane(vehicle()->position)) {
      lane_ = lanes_.front();
      lanes_.erase(lanes_.begin());
    }
    action_type().act(action, 0);
    observe(out);
    simulate(nullptr);
    write_outcome(out, action);
  }

  // _reward: 1 - (lateral error / lane width) ** 2.
  double reward(const ActionView& /*action*/) override {
    const double lat = lane_->local_coordinates(vehicle()->position).second;
    const double ratio = lat / lane_->width;
    return 1 - ratio * ratio;
  }

  bool is_terminated() override { return false; }
  bool is_truncated() override { return false; }

 private:
  // The noise draws of one observation (AttributesObservation's attributes in their order), values unused.
  void draw_observation_noise() {
    const ObservationConfig& c = options().observation;
    if (c.type != "AttributesObservation") return;
    for (const auto& name : c.attributes) {
      const double noise = name == "state" ? state_noise_ : name == "derivative" ? derivative_noise_ : -1;
      if (noise < 0) continue;
      for (int k = 0; k < 4; ++k) np_random().uniform(-noise, noise);
    }
  }

  double state_noise_;
  double derivative_noise_;
  std::shared_ptr<AbstractLane> lane_;                // the lane followed (Python's self.lane)
  std::vector<std::shared_ptr<AbstractLane>> lanes_;  // the lanes to follow next (Python's self.lanes)
  bool observed_ = false;  // the scene was observed since it was built (reset() observes; a replay does not)
};

std::vector<Option> lane_keeping_options() {
  std::vector<Option> options = abstract_env_options({
      {"observation_type", std::string("AttributesObservation")},
      {"observation_attributes", std::string("state,derivative,reference_state")},
      {"action_type", std::string("ContinuousAction")},
      {"action_steering_range",
       number_text(-std::numbers::pi / 3) + "," + number_text(std::numbers::pi / 3)},
      {"action_longitudinal", false},
      {"action_lateral", true},
      {"action_dynamical", true},
      {"simulation_frequency", std::int64_t{10}},
      {"policy_frequency", std::int64_t{10}},
      {"screen_width", std::int64_t{600}},
      {"screen_height", std::int64_t{250}},
      {"scaling", 7.0},
      {"centering_position_x", 0.4},
      {"centering_position_y", 0.5},
  });
  const std::vector<Option> own = {
      {"state_noise", 0.05, "Half-width of the uniform noise added to each value of the `state` attribute."},
      {"derivative_noise", 0.05, "Half-width of the uniform noise added to each value of the `derivative` attribute."},
  };
  options.insert(options.end(), own.begin(), own.end());
  return options;
}

const bool kLaneKeeping = register_scenario<LaneKeepingEnv>("LaneKeepingEnv", lane_keeping_options());

}  // namespace
}  // namespace rlpool::highway
