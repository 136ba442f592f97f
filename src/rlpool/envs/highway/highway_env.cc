// AbstractEnv: the step loop, rewards and flags, info, the spec and saved states of the highway family.
// Follows highway_env/envs/common/abstract.py (highway-env 1.12.1).
#include "envs/highway/highway_env.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "envs/highway/action.h"
#include "envs/highway/observation.h"

namespace rlpool::highway {
namespace {

constexpr std::string_view kMagic = "rlpool-highway-v1";

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get(const char* what) {
    T value;
    std::memcpy(&value, take(sizeof(T), what).data(), sizeof(T));
    return value;
  }
  std::string_view take(std::size_t n, const char* what) {
    if (bytes_.size() - pos_ < n) {
      throw std::invalid_argument(std::string("highway env state is truncated (in its ") + what + ")");
    }
    auto part = bytes_.substr(pos_, n);
    pos_ += n;
    return part;
  }
  std::size_t left() const { return bytes_.size() - pos_; }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

std::string option_text(const OptionValue& value) {
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return number_text(*d);
  return "'" + std::get<std::string>(value) + "'";
}

}  // namespace

std::size_t ActionView::size() const {
  if (spec == nullptr || spec->dtype == DType::kInt64) return 1;
  return static_cast<std::size_t>(spec->shape.back());
}

std::string config_key(const std::string& env_type, const std::vector<Option>& options, const Config& config) {
  std::string key = env_type + "(";
  bool first = true;
  for (const auto& option : options) {
    if (!config.has(option.name)) continue;
    OptionValue value;
    if (std::holds_alternative<bool>(option.default_value)) {
      value = config.get_bool(option.name);
    } else if (std::holds_alternative<std::int64_t>(option.default_value)) {
      value = config.get_int(option.name);
    } else if (std::holds_alternative<double>(option.default_value)) {
      value = config.get_double(option.name);
    } else {
      value = config.get_string(option.name);
    }
    key += (first ? "" : ", ") + option.name + "=" + option_text(value);
    first = false;
  }
  return key + ")";
}

EnvSpec abstract_env_spec(const Config& config, const ScenarioInfo& info) {
  const EnvOptions o = parse_env_options(config);
  EnvSpec spec;
  spec.obs = observation_entries(o, info);
  spec.obs_kind = observation_kind(o.observation);
  spec.action = action_space(o.action);
  ArraySpec action_info{.name = "action", .dtype = spec.action.dtype == DType::kInt64 ? DType::kInt64 : DType::kFloat64,
                        .shape = spec.action.shape};
  if (o.observation.multi_agent) {
    const auto agents = static_cast<std::int64_t>(o.controlled_vehicles);
    spec.num_agents = static_cast<int>(agents);
    for (auto& entry : spec.obs) entry.shape.insert(entry.shape.begin(), agents);
    spec.action.shape.insert(spec.action.shape.begin(), agents);
    action_info.shape.insert(action_info.shape.begin(), agents);
    if (spec.action.dtype != DType::kInt64) {  // one bound for every element
      spec.action.low = {spec.action.low.at(0)};
      spec.action.high = {spec.action.high.at(0)};
    }
  }
  spec.info = {
      ArraySpec{.name = "speed", .dtype = DType::kFloat64},
      ArraySpec{.name = "crashed", .dtype = DType::kBool},
      action_info,
  };
  for (const auto& name : info.reward_names) {
    spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64});
  }
  for (const auto& entry : info.info) spec.info.push_back(entry);
  spec.render_width = o.screen_width;
  spec.render_height = o.screen_height;
  spec.render_fps = 2.0 * static_cast<double>(o.policy_frequency);  // update_metadata: 2 x policy_frequency
  return spec;
}

AbstractEnv::AbstractEnv(const Config& config, std::string env_type, ScenarioInfo info)
    : config_(config),
      env_type_(std::move(env_type)),
      scenario_(std::move(info)),
      options_(parse_env_options(config)),
      spec_(abstract_env_spec(config, scenario_)) {
  config_key_ = config_key(env_type_, find_env_type(env_type_).options, config);
  action_bytes_ = spec_.action.dtype == DType::kInt64
                      ? sizeof(std::int64_t) * static_cast<std::size_t>(std::max<std::int64_t>(spec_.action.num_elements(), 1))
                      : sizeof(double) * static_cast<std::size_t>(spec_.action.num_elements());
  info_speed_ = info_index(spec_.info, "speed");
  info_crashed_ = info_index(spec_.info, "crashed");
  info_action_ = info_index(spec_.info, "action");
  for (const auto& name : scenario_.reward_names) info_rewards_.push_back(info_index(spec_.info, name));
}

AbstractEnv::~AbstractEnv() = default;

Road& AbstractEnv::road() const {
  if (!road_) throw std::logic_error("highway: the env has no road before its first reset");
  return *road_;
}

void AbstractEnv::attribute(const std::string& name, double* /*dst*/) {
  throw std::invalid_argument("highway: " + env_type_ + " has no attribute '" + name +
                              "' for AttributesObservation");
}

std::vector<double> AbstractEnv::rewards(const ActionView& /*action*/) { return {}; }

RenderConfig AbstractEnv::render_config() const {
  RenderConfig c;
  c.screen_width = options_.screen_width;
  c.screen_height = options_.screen_height;
  c.scaling = options_.scaling;
  c.centering_position = options_.centering_position;
  c.simulation_frequency = static_cast<int>(options_.simulation_frequency);
  return c;
}

void AbstractEnv::render(const Frame& frame) {
  if (!road_) throw std::logic_error("highway: render before the first reset");
  const RenderConfig config = render_config();
  if (frame.width != config.screen_width || frame.height != config.screen_height) {
    throw std::logic_error("highway: render() draws at screen_width x screen_height only");
  }
  // ObservationGraphics: the lidar's rays when env.observation_type is a LidarObservation.
  std::optional<LidarOverlay> lidar;
  if (spec_.num_agents == 0) {
    if (const auto* l = dynamic_cast<const LidarObservation*>(observation_types_.front().get())) {
      lidar = LidarOverlay{.origin = l->origin(), .cells = l->cells(), .maximum_range = l->maximum_range(),
                           .distances = {}};
      for (std::size_t i = 0; i < l->grid().size(); i += 2) lidar->distances.push_back(l->grid()[i]);
    }
  }
  render_rgb(*road_, vehicle(), config, frame.rgb, lidar ? &*lidar : nullptr);
}

bool AbstractEnv::is_truncated() { return time_ >= options_.duration; }

void AbstractEnv::write_info(const Output& /*out*/, const ActionView& /*action*/) {}

double AbstractEnv::agent_reward(std::size_t /*agent*/, const ActionView& /*action*/, double shared) {
  return shared;
}

bool AbstractEnv::agent_terminated(std::size_t /*agent*/, bool shared) { return shared; }

void AbstractEnv::make_types() {
  // define_spaces(): fresh action and observation types, one per agent under MultiAgentAction /
  // MultiAgentObservation (bound to the controlled vehicles), else one for the first controlled vehicle.
  action_types_.clear();
  observation_types_.clear();
  if (options_.observation.multi_agent) {
    for (Vehicle* v : controlled_vehicles_) {
      action_types_.push_back(action_factory(*this, options_.action));
      action_types_.back()->set_controlled_vehicle(v);
      observation_types_.push_back(observation_factory(*this, options_.observation));
      observation_types_.back()->set_observer_vehicle(v);
    }
  }
  if (action_types_.empty()) {  // single agent, or the vehicle class before the agents exist
    action_types_.push_back(action_factory(*this, options_.action));
    observation_types_.push_back(observation_factory(*this, options_.observation));
  }
}

void AbstractEnv::begin_episode(const std::array<std::uint64_t, 4>& words) {
  start_words_ = words;
  rng_.set_words(words);
  actions_.clear();
  started_ = true;
  make_types();
  define_spaces(false);
  time_ = 0;
  steps_ = 0;
  controlled_vehicles_.clear();
  reset_scene();
  if (!road_ || controlled_vehicles_.empty()) {
    throw std::logic_error("highway: " + env_type_ + "'s reset_scene made no road or no controlled vehicle");
  }
  road_->neighbour_vehicles_connected_lanes = options_.neighbour_vehicles_connected_lanes;
  if (spec_.num_agents > 0 && controlled_vehicles_.size() != static_cast<std::size_t>(spec_.num_agents)) {
    throw std::logic_error("highway: " + env_type_ + " made " + std::to_string(controlled_vehicles_.size()) +
                           " controlled vehicles for " + std::to_string(spec_.num_agents) + " agents");
  }
  make_types();
  define_spaces(true);
  agent_done_.assign(static_cast<std::size_t>(spec_.agents_per_row()), false);
}

void AbstractEnv::reset(Rng& rng, const Output& out) {
  begin_episode({rng.next(), rng.next(), rng.next(), rng.next()});
  observe(out);
  write_info_entries(out, ActionView{.action = nullptr, .spec = &spec_.action, .agents = spec_.agents_per_row()});
}

void AbstractEnv::step(const rlpool::Action& action, Rng& /*rng*/, const Output& out) {
  if (!started_) throw std::logic_error("highway: step before the first reset");
  const auto* bytes = static_cast<const unsigned char*>(action.data);
  actions_.insert(actions_.end(), bytes, bytes + action_bytes_);
  do_step(ActionView{.action = &action, .spec = &spec_.action, .agents = spec_.agents_per_row()}, out);
}

void AbstractEnv::do_step(const ActionView& action, const Output& out) {
  time_ += 1.0 / static_cast<double>(options_.policy_frequency);
  simulate(&action);
  observe(out);
  write_outcome(out, action);
  after_step();
}

void AbstractEnv::simulate(const ActionView* action) {
  const std::int64_t frames = options_.simulation_frequency / options_.policy_frequency;
  const double dt = 1.0 / static_cast<double>(options_.simulation_frequency);
  for (std::int64_t frame = 0; frame < frames; ++frame) {
    if (action != nullptr && action->action != nullptr && steps_ % frames == 0) {
      for (std::size_t i = 0; i < action_types_.size(); ++i) {
        // An agent whose episode is over has its action ignored (rlpool's multi-agent rule).
        if (spec_.num_agents > 0 && agent_done_[i]) continue;
        action_types_[i]->act(*action, i);
      }
    }
    road_->act();
    road_->step(dt);
    ++steps_;
  }
}

void AbstractEnv::observe(const Output& out) {
  if (spec_.num_agents == 0) {
    observation_types_.front()->observe(out.obs);
    return;
  }
  std::vector<void*> entries(spec_.obs.size());
  for (std::size_t agent = 0; agent < observation_types_.size(); ++agent) {
    for (std::size_t k = 0; k < spec_.obs.size(); ++k) {
      const std::size_t per_agent = spec_.obs[k].num_bytes() / static_cast<std::size_t>(spec_.num_agents);
      entries[k] = static_cast<unsigned char*>(out.obs[k]) + agent * per_agent;
    }
    observation_types_[agent]->observe(entries.data());
  }
}

void AbstractEnv::write_outcome(const Output& out, const ActionView& action) {
  const double shared_reward = reward(action);
  const bool shared_terminated = is_terminated();
  const bool truncated = is_truncated();
  if (spec_.num_agents == 0) {
    out.reward[0] = shared_reward;
    out.terminated[0] = shared_terminated;
    if (out.truncated != nullptr) out.truncated[0] = truncated;
  } else {
    for (std::size_t i = 0; i < static_cast<std::size_t>(spec_.num_agents); ++i) {
      const bool was_done = agent_done_[i];
      const double r = agent_reward(i, action, shared_reward);
      const bool t = agent_terminated(i, shared_terminated);
      out.reward[i] = was_done ? 0.0 : r;
      out.terminated[i] = was_done || t;
      if (out.truncated != nullptr) out.truncated[i] = truncated;
      agent_done_[i] = was_done || t;
    }
  }
  write_info_entries(out, action);
}

void AbstractEnv::write_info_entries(const Output& out, const ActionView& action) {
  Vehicle* v = vehicle();
  out.put_info(info_speed_, v->speed);
  *out.info_as<bool>(info_crashed_) = v->crashed;
  const ArraySpec& a = spec_.info[info_action_];
  const auto n = static_cast<std::size_t>(a.num_elements());
  if (a.dtype == DType::kInt64) {
    auto* dst = out.info_as<std::int64_t>(info_action_);
    for (std::size_t i = 0; i < n; ++i) dst[i] = action.action != nullptr ? action.action->discrete(i) : 0;
  } else {
    auto* dst = out.info_as<double>(info_action_);
    for (std::size_t i = 0; i < n; ++i) dst[i] = action.action != nullptr ? action.action->continuous()[i] : 0.0;
  }
  if (!info_rewards_.empty()) {
    const std::vector<double> values = rewards(action);
    if (values.size() != info_rewards_.size()) {
      throw std::logic_error("highway: " + env_type_ + "'s rewards() gave " + std::to_string(values.size()) +
                             " values for " + std::to_string(info_rewards_.size()) + " reward names");
    }
    for (std::size_t i = 0; i < values.size(); ++i) out.put_info(info_rewards_[i], values[i]);
  }
  write_info(out, action);
}

// --------------------------------------------------------------------------- saved state

std::string AbstractEnv::get_state() const {
  if (!started_) throw std::logic_error("get_state before the first reset");
  std::string out;
  out.append(kMagic);
  put(out, static_cast<std::uint32_t>(config_key_.size()));
  out.append(config_key_);
  for (auto word : start_words_) put(out, word);
  put(out, static_cast<std::uint64_t>(actions_.size() / action_bytes_));
  out.append(reinterpret_cast<const char*>(actions_.data()), actions_.size());
  return out;
}

void AbstractEnv::check_logged_action(const rlpool::Action& action, std::size_t step) const {
  const auto where = [&] { return "highway env state: the action of step " + std::to_string(step + 1); };
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(spec_.action.num_elements(), 1));
  if (spec_.action.dtype == DType::kInt64) {
    const auto low = static_cast<std::int64_t>(spec_.action.low.at(0));
    const auto high = static_cast<std::int64_t>(spec_.action.high.at(0));
    for (std::size_t i = 0; i < n; ++i) {
      const auto a = action.discrete(i);
      if (a < low || a > high) {
        throw std::invalid_argument(where() + " is " + std::to_string(a) + ", outside the action space");
      }
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(action.continuous()[i])) throw std::invalid_argument(where() + " is not finite");
  }
}

void AbstractEnv::scratch_output(Output& out) {
  if (scratch_obs_.empty()) {
    for (const auto& e : spec_.obs) scratch_obs_.emplace_back(e.num_bytes());
    for (const auto& e : spec_.info) scratch_info_.emplace_back(e.num_bytes());
    for (auto& b : scratch_obs_) scratch_obs_ptrs_.push_back(b.data());
    for (auto& b : scratch_info_) scratch_info_ptrs_.push_back(b.data());
    const auto agents = static_cast<std::size_t>(spec_.agents_per_row());
    scratch_reward_.assign(agents, 0.0);
    scratch_terminated_ = std::make_unique<bool[]>(agents);
    scratch_truncated_ = std::make_unique<bool[]>(agents);
  }
  out.obs = scratch_obs_ptrs_.data();
  out.info = scratch_info_ptrs_.data();
  out.reward = scratch_reward_.data();
  out.terminated = scratch_terminated_.get();
  out.truncated = scratch_truncated_.get();
}

void AbstractEnv::set_state(std::string_view state) {
  Reader in(state);
  if (in.take(kMagic.size(), "header") != kMagic) {
    throw std::invalid_argument("not a highway env state (it does not start with '" + std::string(kMagic) + "')");
  }
  const auto key_size = in.get<std::uint32_t>("config");
  const auto key = in.take(key_size, "config");
  if (key != config_key_) {
    throw std::invalid_argument("highway env state is from an env made as '" + std::string(key) +
                                "', but this env is '" + config_key_ + "'");
  }
  std::array<std::uint64_t, 4> words{};
  for (auto& word : words) word = in.get<std::uint64_t>("generator");
  const auto steps = in.get<std::uint64_t>("step count");
  if (in.left() % action_bytes_ != 0 || steps != in.left() / action_bytes_) {
    throw std::invalid_argument("highway env state holds " + std::to_string(in.left()) + " bytes of actions for " +
                                std::to_string(steps) + " steps of " + std::to_string(action_bytes_) + " bytes");
  }
  const std::string log(in.take(in.left(), "actions"));
  for (std::size_t k = 0; k < steps; ++k) check_logged_action(rlpool::Action{log.data() + k * action_bytes_}, k);

  const std::string before = started_ ? get_state() : std::string();
  try {
    begin_episode(words);
    Output out{};
    scratch_output(out);
    const auto agents = static_cast<std::size_t>(spec_.agents_per_row());
    for (std::size_t k = 0; k < steps; ++k) {
      const rlpool::Action action{log.data() + k * action_bytes_};
      actions_.insert(actions_.end(), log.begin() + static_cast<std::ptrdiff_t>(k * action_bytes_),
                      log.begin() + static_cast<std::ptrdiff_t>((k + 1) * action_bytes_));
      do_step(ActionView{.action = &action, .spec = &spec_.action, .agents = static_cast<int>(agents)}, out);
      bool over = true;
      for (std::size_t i = 0; i < agents; ++i) over = over && (out.terminated[i] || out.truncated[i]);
      if (over && k + 1 < steps) {
        throw std::invalid_argument("highway env state replays past the end of its episode (it ends at step " +
                                    std::to_string(k + 1) + " of " + std::to_string(steps) + ")");
      }
    }
  } catch (...) {
    if (!before.empty()) set_state(before);
    throw;
  }
}

}  // namespace rlpool::highway
