// AbstractEnv: highway-env's common env (a road, vehicles on it, one or more controlled vehicles driven by an
// action type and seen through an observation type) as an rlpool Env that each scenario file derives from.
//
// Follows highway_env/envs/common/abstract.py (highway-env 1.12.1): reset() builds the scene and observes;
// step() advances time by 1 / policy_frequency, acts on the first of simulation_frequency //
// policy_frequency simulation frames, runs road.act() and road.step(1 / simulation_frequency) each frame,
// then observes and computes reward, terminated, truncated and info.
//
// What a scenario implements (virtual hooks, each named after the Python method it follows):
//   reset_scene()        _reset(): build road_ (make_road) and the vehicles, fill controlled_vehicles_.
//   reward(action)       _reward(action).
//   rewards(action)      _rewards(action), values in the order of ScenarioInfo::reward_names (the info
//                        entries of those names: highway-env's info["rewards"][name] is info[name] here,
//                        as every API face takes flat info names); the default has none (Python's
//                        NotImplementedError).
//   is_terminated()      _is_terminated().
//   is_truncated()       _is_truncated(); default time >= duration.
//   write_info(out, a)   _info() beyond speed / crashed / action / rewards (ScenarioInfo::info entries).
//   after_step()         what a scenario's step() does after AbstractEnv.step (intersection's spawns).
//   do_step(a, out)      the whole step, for a scenario whose step() is not AbstractEnv's (lane keeping);
//                        it uses simulate(), observe() and write_outcome().
//   define_spaces(ready) highway-env's define_spaces() side effects: called where reset() calls it, before
//                        (false) and after (true) the scene is built (lane keeping's observation draws).
//   agent_reward(i, a, r), agent_terminated(i, t): per-agent results of a multi-agent env (MultiAgentObservation
//                        and MultiAgentAction); defaults give every agent reward() and is_terminated().
//   attribute(name, dst) AttributesObservation's getattr(env, name); ScenarioInfo::attributes gives shapes.
//
// A minimal scenario (see highway.cc):
//
//   class MyEnv final : public AbstractEnv {
//    public:
//     MyEnv(const Config& c, std::string type) : AbstractEnv(c, std::move(type), info(c)) {}
//     static ScenarioInfo info(const Config&) { return {.reward_names = {"collision_reward"}}; }
//    protected:
//     void reset_scene() override { road_ = ...; controlled_vehicles_ = {...}; }
//     double reward(const ActionView&) override { return vehicle()->crashed ? -1 : 0; }
//     std::vector<double> rewards(const ActionView&) override { return {double(vehicle()->crashed)}; }
//     bool is_terminated() override { return vehicle()->crashed; }
//   };
//   static const bool kRegistered = register_scenario<MyEnv>("MyEnv", abstract_env_options({...}));
//
// Randomness: every draw of an episode (highway-env's env.np_random, which is also road.np_random) comes
// from the env's own generator, seeded from the pool's at each reset (np_random()).
//
// Saved state: the words of that generator at the episode's start and the actions taken since (as Box2D
// does): set_state rebuilds the scene from the words and replays the actions, which gives the identical
// world and generator. A state costs the action's bytes per step; a restore costs one step per step taken.
//
// Rendering: render() draws EnvViewer's frame (render.h) at screen_width x screen_height; render_fps is
// highway-env's metadata["render_fps"], 2 x policy_frequency.
//
// Truncation: highway-env truncates when its float `time` (+= 1 / policy_frequency per step) reaches
// `duration`; the env reports that itself (Output::truncated). registration.py sets the task's
// max_episode_steps to the step count at which that happens (the same float sums), so both limits agree.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "_core/env/env.h"
#include "envs/highway/env_options.h"
#include "envs/highway/render.h"
#include "envs/highway/road.h"
#include "envs/highway/vehicle.h"

namespace rlpool::highway {

class AbstractEnv;
class ActionType;
class ObservationType;

// What a scenario adds to the spec: its reward names (info entries of those names), its info entries, and the
// shapes of the attributes an AttributesObservation reads (getattr(env, name)).
struct ScenarioInfo {
  std::vector<std::string> reward_names = {};
  std::vector<ArraySpec> info = {};
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> attributes = {};
};

// The action of a step, as highway-env's code gets it (`action`): one per agent in a multi-agent env.
struct ActionView {
  const rlpool::Action* action = nullptr;  // null at reset (highway-env's info there samples the action space)
  const ArraySpec* spec = nullptr;
  int agents = 1;
  // The agent's discrete action, or its continuous action's values (float64; `size` per agent).
  std::int64_t discrete(std::size_t agent = 0) const { return action->discrete(agent); }
  const double* continuous(std::size_t agent = 0) const { return action->continuous() + agent * size(); }
  std::size_t size() const;
};

class AbstractEnv : public Env {
 public:
  // PERCEPTION_DISTANCE = 5.0 * Vehicle.MAX_SPEED: the farthest vehicle any observation shows [m].
  static constexpr double PERCEPTION_DISTANCE = 5.0 * Vehicle::MAX_SPEED;

  AbstractEnv(const Config& config, std::string env_type, ScenarioInfo info);
  ~AbstractEnv() override;

  void reset(Rng& rng, const Output& out) final;
  void step(const rlpool::Action& action, Rng& rng, const Output& out) final;
  std::string get_state() const final;
  void set_state(std::string_view state) final;
  // env.render() in rgb_array mode: highway-env's EnvViewer frame (render.h), screen_width x screen_height,
  // centred on the first controlled vehicle, with the lidar's overlay under a LidarObservation.
  void render(const Frame& frame) final;

  // What observation and action types read.
  Road& road() const;
  bool has_road() const { return road_ != nullptr; }
  // The first controlled vehicle (Python's env.vehicle), or null before the first reset.
  Vehicle* vehicle() const { return controlled_vehicles_.empty() ? nullptr : controlled_vehicles_.front(); }
  const std::vector<Vehicle*>& controlled_vehicles() const { return controlled_vehicles_; }
  Rng& np_random() { return rng_; }
  const EnvOptions& options() const { return options_; }
  // The viewer's config (screen size, scaling, centering position, simulation frequency).
  RenderConfig render_config() const;
  const Config& config() const { return config_; }
  double time() const { return time_; }
  std::int64_t steps() const { return steps_; }
  // The (first agent's) action and observation types: highway-env's env.action_type / observation_type.
  ActionType& action_type() const { return *action_types_.front(); }
  ObservationType& observation_type() const { return *observation_types_.front(); }
  // Python's getattr(env, name) for AttributesObservation: writes the attribute's float64 values
  // (ScenarioInfo::attributes gives the shape). The default knows no attribute.
  virtual void attribute(const std::string& name, double* dst);

 protected:
  virtual void reset_scene() = 0;
  virtual double reward(const ActionView& action) = 0;
  virtual std::vector<double> rewards(const ActionView& action);
  virtual bool is_terminated() = 0;
  virtual bool is_truncated();
  virtual void write_info(const Output& out, const ActionView& action);
  virtual void after_step() {}
  virtual void define_spaces(bool /*scene_ready*/) {}
  // A multi-agent env's agent results: `shared` is reward() / is_terminated() (highway-env's scalar results,
  // which every agent gets by default; a scenario with per-agent results, as MultiAgentWrapper's
  // agents_rewards and agents_terminated, overrides these).
  virtual double agent_reward(std::size_t agent, const ActionView& action, double shared);
  virtual bool agent_terminated(std::size_t agent, bool shared);
  // AbstractEnv.step by default: time, simulate(action), observe, write_outcome, after_step.
  virtual void do_step(const ActionView& action, const Output& out);

  // AbstractEnv._simulate: simulation_frequency // policy_frequency frames of road.act() and
  // road.step(1 / simulation_frequency); the action (if any) is applied at the first one.
  void simulate(const ActionView* action);
  // observation_type.observe() into the output's observation entries.
  void observe(const Output& out);
  // reward, terminated and truncated (per agent where the env has agents), then the info entries.
  void write_outcome(const Output& out, const ActionView& action);
  // The info entries alone (speed, crashed, action, the rewards, then write_info).
  void write_info_entries(const Output& out, const ActionView& action);
  // The other vehicles' class (other_vehicles_type) as a factory: create_random on the road.
  const std::string& other_vehicles_type() const { return options_.other_vehicles_type; }

  std::unique_ptr<Road> road_;
  std::vector<Vehicle*> controlled_vehicles_;  // owned by road_->vehicles
  double time_ = 0;                            // simulation time [s]
  std::int64_t steps_ = 0;                     // simulation frames performed

 private:
  void make_types();
  void begin_episode(const std::array<std::uint64_t, 4>& words);
  void check_logged_action(const rlpool::Action& action, std::size_t step) const;
  void scratch_output(Output& out);

  Config config_;
  std::string env_type_;
  std::string config_key_;
  ScenarioInfo scenario_;
  EnvOptions options_;
  EnvSpec spec_;
  std::vector<std::unique_ptr<ActionType>> action_types_;
  std::vector<std::unique_ptr<ObservationType>> observation_types_;
  Rng rng_;
  std::array<std::uint64_t, 4> start_words_{};
  std::vector<unsigned char> actions_;
  std::size_t action_bytes_;
  bool started_ = false;
  // Info positions (find_info: present where the spec has them).
  std::size_t info_speed_ = 0, info_crashed_ = 0, info_action_ = 0;
  std::vector<std::size_t> info_rewards_;
  // Per-agent flags of a multi-agent env: an agent stays terminated once it is (rlpool's rule).
  std::vector<bool> agent_done_;
  // Buffers of a replayed step's results (set_state).
  std::vector<std::vector<unsigned char>> scratch_obs_, scratch_info_;
  std::vector<void*> scratch_obs_ptrs_, scratch_info_ptrs_;
  std::vector<double> scratch_reward_;
  std::unique_ptr<bool[]> scratch_terminated_, scratch_truncated_;
};

// The spec of a scenario with these options: observation, action, info (speed, crashed, action, the
// rewards by name, the scenario's own), num_agents.
EnvSpec abstract_env_spec(const Config& config, const ScenarioInfo& info);

// The config key of a saved state: the env type and every option's value (a state is refused by an env made
// otherwise).
std::string config_key(const std::string& env_type, const std::vector<Option>& options, const Config& config);

// Registers scenario E, made as E(config, env_type) and described by E::info(config).
template <class E>
bool register_scenario(const std::string& name, std::vector<Option> options) {
  return register_env_type({
      .name = name,
      .options = options,
      .spec = [](const Config& config) { return abstract_env_spec(config, E::info(config)); },
      .create = [name](const Config& config) -> std::unique_ptr<Env> { return std::make_unique<E>(config, name); },
  });
}

}  // namespace rlpool::highway
