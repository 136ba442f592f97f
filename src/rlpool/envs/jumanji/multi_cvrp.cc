// Jumanji's MultiCVRP (jumanji 1.1.2, MultiCVRP-v0) in C++: num_vehicles
// vehicles (the agents) leave a depot (node 0) to serve num_customers
// customers with demands and soft time windows, all moving at once. Follows
// jumanji/environments/routing/multi_cvrp/:
// - utils.py get_init_settings and its get_<n>_customer_init_settings
//   (l.171-318): the map size, capacity, start window, penalty coefficient
//   ranges and largest demand of each (num_customers, num_vehicles) pair
//   the default generator takes; generator.py Generator.__init__ (l.40-92):
//   a time window 20 long.
// - generator.py UniformRandomGenerator.__call__ (l.123-171): problem_key,
//   key = split(key) (the State keeps `key`); utils.py
//   generate_uniform_random_problem (l.107-168): split(problem_key, 5);
//   coordinates uniform on [0, map_max); demands randint(0,
//   customer_demand_max), the depot's 0, scaled by total_capacity / their sum
//   (float32), truncated to int16, at most customer_demand_max; window starts
//   uniform on [0, max_start_window), ends 20 later; early and late
//   coefficients uniform on their ranges, the depot's 0. Every vehicle at the
//   depot, full, step_count 1.
// - env.py MultiCVRP.step (l.166-188) and _update_state (l.372-449): a
//   vehicle's node becomes the depot unless its demand is positive and the
//   vehicle can carry it; of vehicles picking the same node only the first
//   keeps it, the others go to the depot (jnp.unique with return_index and
//   size, padded with its smallest value at that value's first index); each
//   vehicle's distance and local time grow by the distance moved
//   (utils.py compute_distance, l.100-104), its time penalty by
//   compute_time_penalties (l.38-67) at the new node; the depot refills a
//   vehicle, a customer's demand is taken off and set to 0; `order` records
//   the nodes at column step_count (a write past its end dropped, as JAX's
//   scatter drops it); the action mask (create_action_mask, l.25-35) is the
//   customers with demand that the vehicle's capacity covers, and the depot.
//   The episode ends (a termination) once no demand is left with every
//   vehicle at the depot, or once step_count passes 2 * num_customers.
// - reward.py DenseReward (l.79-112, the default): the drop of the summed
//   distances plus the drop of the summed time penalties, in float32; on the
//   step past the step limit, utils.py worst_case_remaining_reward (l.74-97)
//   instead. One reward, every vehicle's.
// - env.py observation_spec (l.191-318) and _state_to_observation
//   (l.451-483): nodes, windows and coefficients are shared (repeated on each
//   vehicle's row); the vehicles' coordinates, local times, capacities and
//   the action mask are each vehicle's own row.
// - render: viewer.py MultiCVRPViewer (l.33-86, 154-261): the
//   render_mode="rgb_array" picture, 480 x 480 with the map (coordinates /
//   map_max, the unit square's axes limits) filling it (x right, y up), on
//   white (jumanji draws over a city-map photo): the depot a black square
//   0.04 a side, each customer a black disc of radius 0.01; each vehicle's
//   order up to step_count cut into routes as _group_tour cuts it, vehicle
//   v's routes in plt.get_cmap("hsv", num_vehicles + 1)(v)
//   (jumanji_colormap.h): lines 2 px wide between consecutive nodes
//   (jumanji's quiver arrows, without heads), then a disc of radius 4 px in
//   its colour on each node of a route, the depot's the last vehicle's with a
//   route. All the lines go down before the discs, so that a customer's
//   centre shows its vehicle.
// The observation's dtypes are jumanji's (demands and capacities int16).
//
// State bytes (after the env's key), in jumanji's State order:
// nodes.coordinates ((n + 1) * 2 float32), nodes.demands (n + 1 int16),
// windows.start, windows.end, coeffs.early, coeffs.late (n + 1 float32 each),
// vehicles.local_times (A float32), vehicles.capacities (A int16),
// vehicles.positions (A int16), vehicles.distances, vehicles.time_penalties
// (A float32 each), order (A * 2n int16), step_count (int16), action_mask
// (A * (n + 1) bytes, 0 or 1), the State's key (two uint32); n is
// num_customers and A num_vehicles.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr std::int16_t kDepot = 0;
constexpr float kWindowLength = 20.0f;

// get_init_settings: what the default generator takes for a (num_customers, num_vehicles) pair.
struct Settings {
  int map_max = 10;
  int max_capacity = 60;
  float max_start_window = 10.0f;
  float early_low = 0.0f;
  float early_high = 0.2f;
  float late_low = 0.0f;
  float late_high = 1.0f;
  int customer_demand_max = 10;
};

Settings settings_for(std::int64_t customers, std::int64_t vehicles) {
  Settings s;
  const auto refuse = [&](const char* allowed) {
    throw std::invalid_argument("MultiCVRP: num_vehicles must be " + std::string(allowed) +
                                " for num_customers=" + std::to_string(customers) + ", got " +
                                std::to_string(vehicles));
  };
  if (customers == 6 || customers == 20) {
    if (vehicles != 2 && vehicles != 3) refuse("2 or 3");
    s.max_capacity = customers == 6 ? 20 : 60;
    s.customer_demand_max = customers == 6 ? (vehicles == 2 ? 10 : 20) : (vehicles == 2 ? 10 : 15);
  } else if (customers == 50 || customers == 100) {
    if (vehicles < 2 || vehicles > 5) refuse("2, 3, 4 or 5");
    s.map_max = 20;
    s.max_capacity = customers == 50 ? 150 : 300;
    s.max_start_window = customers == 50 ? 20.0f : 40.0f;
    s.customer_demand_max = 5 * static_cast<int>(vehicles);
  } else if (customers == 150) {
    if (vehicles != 5) refuse("5");
    s.map_max = 20;
    s.max_capacity = 180;
    s.max_start_window = 60.0f;
    s.early_low = s.early_high = 0.1f;
    s.late_low = s.late_high = 0.5f;
  } else {
    throw std::invalid_argument("MultiCVRP: num_customers must be one of 6, 20, 50, 100, 150, got " +
                                std::to_string(customers));
  }
  return s;
}

// compute_time_penalties at one node: early and late penalties, each 0 inside the window.
float time_penalty(float local_time, float start, float end, float early, float late) {
  const float early_penalty = local_time < start ? (start - local_time) * early : 0.0f;
  const float late_penalty = local_time > end ? (local_time - end) * late : 0.0f;
  return early_penalty + late_penalty;
}

// Float32 sums as XLA's CPU backend computes a reduce fused with the elementwise ops that produce its values
// (read from its optimised HLO and LLVM IR with jax 0.10.2 on x86-64, and checked step by step against
// jumanji for 7, 21, 51, 101 and 151 nodes and 2 to 5 vehicles; the worst-case reward's two sums of 21
// values differ: the distances' loop takes one vector per iteration, the penalties' four and an epilogue).
// Above 32 values its tree-reduction rewrite sums windows of 32 (the array zero-padded to a multiple of 32,
// half the padding, rounded down, in front), each in order, then the windows' sums in order. From 16 values
// up LLVM vectorises the loop four lanes wide: `interleave` vectors of four per iteration, each lane summed
// in order over the iterations, the lanes added as (l0 + l2) + (l1 + l3); with `epilogue`, four more values
// after the iterations form one vector whose first lane starts from that sum, added up the same way; the
// rest in order. Fewer than 16 values are summed in order.
float sum_in_order(const float* values, std::size_t n, float total = 0.0f) {
  for (std::size_t i = 0; i < n; ++i) total += values[i];
  return total;
}

float add_lanes(const float lanes[4]) { return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]); }

float xla_sum(const std::vector<float>& values, std::size_t interleave, bool epilogue) {
  constexpr std::size_t kWindow = 32;
  constexpr std::size_t kLanes = 4;
  const std::size_t n = values.size();
  if (n > kWindow) {
    const std::size_t padded = (n + kWindow - 1) / kWindow * kWindow;
    std::vector<float> windows(padded / kWindow, 0.0f);
    const std::size_t front = (padded - n) / 2;
    for (std::size_t i = 0; i < n; ++i) {
      float& window = windows[(i + front) / kWindow];
      window = window + values[i];
    }
    return sum_in_order(windows.data(), windows.size());
  }
  if (n < 16) return sum_in_order(values.data(), n);
  const std::size_t block = kLanes * interleave;
  const std::size_t looped = n / block * block;
  float lanes[kLanes] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (std::size_t i = 0; i < looped; ++i) lanes[i % kLanes] += values[i];
  float total = add_lanes(lanes);
  std::size_t done = looped;
  if (epilogue && n - done >= kLanes) {
    const std::size_t extra = (n - done) / kLanes * kLanes;
    float tail[kLanes] = {total, 0.0f, 0.0f, 0.0f};
    for (std::size_t i = 0; i < extra; ++i) tail[i % kLanes] += values[done + i];
    total = add_lanes(tail);
    done += extra;
  }
  return sum_in_order(values.data() + done, n - done, total);
}

// A sum over the vehicles (A values).
float sum(const std::vector<float>& values) { return xla_sum(values, 1, false); }

// jnp.asarray(x, int16) of a float32: truncation, NaN as 0 (XLA's conversion).
std::int16_t to_int16(float x) {
  if (std::isnan(x)) return 0;
  return static_cast<std::int16_t>(std::clamp(std::trunc(x), -32768.0f, 32767.0f));
}

// A load check of float32 values: throws std::invalid_argument naming `field` unless each is in low..high.
void check_floats(const std::vector<float>& values, float low, float high, const char* field) {
  for (const float v : values) {
    if (!(v >= low && v <= high)) {
      throw std::invalid_argument(std::string("state's ") + field + " hold " + std::to_string(v) + ", expected " +
                                  std::to_string(low) + ".." + std::to_string(high));
    }
  }
}

class MultiCVRP final : public JumanjiEnv {
 public:
  MultiCVRP(const Config& config, const Settings& settings)
      : JumanjiEnv(static_cast<int>(config.get_int("num_vehicles"))),
        n_(static_cast<int>(config.get_int("num_customers"))),
        a_(static_cast<int>(config.get_int("num_vehicles"))),
        s_(settings),
        coordinates_(static_cast<std::size_t>(2 * (n_ + 1))),
        demands_(static_cast<std::size_t>(n_ + 1)),
        start_(static_cast<std::size_t>(n_ + 1)),
        end_(static_cast<std::size_t>(n_ + 1)),
        early_(static_cast<std::size_t>(n_ + 1)),
        late_(static_cast<std::size_t>(n_ + 1)),
        local_times_(static_cast<std::size_t>(a_)),
        capacities_(static_cast<std::size_t>(a_)),
        positions_(static_cast<std::size_t>(a_)),
        distances_(static_cast<std::size_t>(a_)),
        time_penalties_(static_cast<std::size_t>(a_)),
        order_(static_cast<std::size_t>(a_ * 2 * n_)),
        mask_(static_cast<std::size_t>(a_ * (n_ + 1))),
        next_(static_cast<std::size_t>(a_)) {}

 protected:
  void new_episode(Key key) override {
    const auto [problem_key, state_key] = jax_random::split2(key);
    state_key_ = state_key;
    Key keys[5];
    jax_random::split(problem_key, keys, 5);
    jax_random::uniform(keys[0], coordinates_.data(), coordinates_.size(), 0.0f, static_cast<float>(s_.map_max));
    std::vector<std::int32_t> drawn(demands_.size());
    jax_random::randint(keys[1], drawn.data(), drawn.size(), 0, s_.customer_demand_max);
    drawn[kDepot] = 0;
    std::int32_t total = 0;
    for (const std::int32_t d : drawn) total += d;
    const float ratio = static_cast<float>(s_.max_capacity * a_) / static_cast<float>(total);
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      const std::int16_t scaled = to_int16(static_cast<float>(drawn[i]) * ratio);
      demands_[i] = std::min<std::int16_t>(scaled, static_cast<std::int16_t>(s_.customer_demand_max));
    }
    jax_random::uniform(keys[2], start_.data(), start_.size(), 0.0f, s_.max_start_window);
    for (std::size_t i = 0; i < start_.size(); ++i) end_[i] = start_[i] + kWindowLength;
    jax_random::uniform(keys[3], early_.data(), early_.size(), s_.early_low, s_.early_high);
    jax_random::uniform(keys[4], late_.data(), late_.size(), s_.late_low, s_.late_high);
    early_[kDepot] = 0.0f;
    late_[kDepot] = 0.0f;
    std::fill(local_times_.begin(), local_times_.end(), 0.0f);
    std::fill(capacities_.begin(), capacities_.end(), static_cast<std::int16_t>(s_.max_capacity));
    std::fill(positions_.begin(), positions_.end(), kDepot);
    std::fill(distances_.begin(), distances_.end(), 0.0f);
    std::fill(time_penalties_.begin(), time_penalties_.end(), 0.0f);
    std::fill(order_.begin(), order_.end(), kDepot);
    step_count_ = 1;
    update_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    // The nodes the vehicles go to: the depot for a node without demand or beyond the capacity, and for
    // every vehicle but the first that picks a node.
    std::vector<std::int16_t>& next = next_;  // sized once: no allocation per step
    for (std::size_t v = 0; v < next.size(); ++v) {
      const auto node = static_cast<std::int16_t>(action.discrete(v));
      const std::int16_t demand = demands_[static_cast<std::size_t>(node)];
      next[v] = capacities_[v] >= demand && demand > 0 ? node : kDepot;
    }
    for (std::size_t v = 0; v < next.size(); ++v) {
      for (std::size_t u = 0; u < v; ++u) {
        if (next[u] == next[v]) {
          next[v] = kDepot;
          break;
        }
      }
    }
    const float old_distance = sum(distances_);
    const float old_penalty = sum(time_penalties_);
    for (std::size_t v = 0; v < next.size(); ++v) {
      const auto node = static_cast<std::size_t>(next[v]);
      const float moved = planar_distance(&coordinates_[2 * static_cast<std::size_t>(positions_[v])],
                                          &coordinates_[2 * node]);
      distances_[v] = distances_[v] + moved;
      local_times_[v] = local_times_[v] + moved;  // speed 1
      time_penalties_[v] =
          time_penalties_[v] + time_penalty(local_times_[v], start_[node], end_[node], early_[node], late_[node]);
      capacities_[v] = next[v] == kDepot ? static_cast<std::int16_t>(s_.max_capacity)
                                         : static_cast<std::int16_t>(capacities_[v] - demands_[node]);
    }
    for (std::size_t v = 0; v < next.size(); ++v) {
      demands_[static_cast<std::size_t>(next[v])] = 0;
      positions_[v] = next[v];
      if (step_count_ < 2 * n_) order_[v * 2 * static_cast<std::size_t>(n_) + static_cast<std::size_t>(step_count_)] = next[v];
    }
    step_count_ = static_cast<std::int16_t>(step_count_ + 1);
    update_mask();

    const bool past_limit = step_count_ > 2 * n_;
    const bool served = std::all_of(demands_.begin(), demands_.end(), [](std::int16_t d) { return d == 0; }) &&
                        std::all_of(positions_.begin(), positions_.end(), [](std::int16_t p) { return p == kDepot; });
    const float reward = past_limit ? worst_case_remaining_reward()
                                    : (old_distance - sum(distances_)) + (old_penalty - sum(time_penalties_));
    for (int v = 0; v < a_; ++v) rewards[v] = reward;
    return Outcome{.terminated = served || past_limit};
  }

  void observe(const Output& out) const override {
    const auto nodes = static_cast<std::size_t>(n_ + 1);
    for (std::size_t v = 0; v < static_cast<std::size_t>(a_); ++v) {
      std::copy(coordinates_.begin(), coordinates_.end(), out.obs_as<float>(0) + v * 2 * nodes);
      std::copy(demands_.begin(), demands_.end(), out.obs_as<std::int16_t>(1) + v * nodes);
      std::copy(start_.begin(), start_.end(), out.obs_as<float>(2) + v * nodes);
      std::copy(end_.begin(), end_.end(), out.obs_as<float>(3) + v * nodes);
      std::copy(early_.begin(), early_.end(), out.obs_as<float>(4) + v * nodes);
      std::copy(late_.begin(), late_.end(), out.obs_as<float>(5) + v * nodes);
      const auto at = 2 * static_cast<std::size_t>(positions_[v]);
      out.obs_as<float>(6)[2 * v] = coordinates_[at];
      out.obs_as<float>(6)[2 * v + 1] = coordinates_[at + 1];
      out.obs_as<float>(7)[v] = local_times_[v];
      out.obs_as<std::int16_t>(8)[v] = capacities_[v];
    }
    bool* mask = out.obs_as<bool>(9);
    for (std::size_t i = 0; i < mask_.size(); ++i) mask[i] = mask_[i] != 0;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, coordinates_);
    append_values(bytes, demands_);
    append_values(bytes, start_);
    append_values(bytes, end_);
    append_values(bytes, early_);
    append_values(bytes, late_);
    append_values(bytes, local_times_);
    append_values(bytes, capacities_);
    append_values(bytes, positions_);
    append_values(bytes, distances_);
    append_values(bytes, time_penalties_);
    append_values(bytes, order_);
    append(bytes, step_count_);
    append_values(bytes, mask_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "MultiCVRP");
    const std::size_t nodes = demands_.size();
    const std::size_t vehicles = positions_.size();
    auto coordinates = read_values<float>(reader, coordinates_.size(), "nodes.coordinates");
    auto demands = read_values<std::int16_t>(reader, nodes, "nodes.demands");
    auto start = read_values<float>(reader, nodes, "windows.start");
    auto end = read_values<float>(reader, nodes, "windows.end");
    auto early = read_values<float>(reader, nodes, "coeffs.early");
    auto late = read_values<float>(reader, nodes, "coeffs.late");
    auto local_times = read_values<float>(reader, vehicles, "vehicles.local_times");
    auto capacities = read_values<std::int16_t>(reader, vehicles, "vehicles.capacities");
    auto positions = read_values<std::int16_t>(reader, vehicles, "vehicles.positions");
    auto distances = read_values<float>(reader, vehicles, "vehicles.distances");
    auto time_penalties = read_values<float>(reader, vehicles, "vehicles.time_penalties");
    auto order = read_values<std::int16_t>(reader, order_.size(), "order");
    const auto step_count = reader.read<std::int16_t>("step_count");
    auto mask = read_values<std::uint8_t>(reader, mask_.size(), "action_mask");
    const Key key = read_key(reader);
    reader.done();
    const auto map_max = static_cast<float>(s_.map_max);
    const float max_time = max_local_time();
    check_floats(coordinates, 0.0f, map_max, "nodes.coordinates");
    check_all(demands, 0, s_.max_capacity, "nodes.demands entry");
    check_floats(start, 0.0f, s_.max_start_window + kWindowLength, "windows.start");
    check_floats(end, 0.0f, s_.max_start_window + kWindowLength, "windows.end");
    check_floats(early, 0.0f, s_.late_high, "coeffs.early");
    check_floats(late, 0.0f, s_.late_high, "coeffs.late");
    check_floats(local_times, 0.0f, max_time, "vehicles.local_times");
    check_all(capacities, 0, s_.max_capacity, "vehicles.capacities entry");
    check_all(positions, 0, n_, "vehicles.positions entry");
    check_floats(distances, 0.0f, max_time, "vehicles.distances");
    check_floats(time_penalties, 0.0f, 1e30f, "vehicles.time_penalties");
    check_all(order, 0, n_, "order entry");
    check_range(step_count, 1, 2LL * n_ + 1, "step_count");
    check_all(mask, 0, 1, "action_mask entry");
    coordinates_ = std::move(coordinates);
    demands_ = std::move(demands);
    start_ = std::move(start);
    end_ = std::move(end);
    early_ = std::move(early);
    late_ = std::move(late);
    local_times_ = std::move(local_times);
    capacities_ = std::move(capacities);
    positions_ = std::move(positions);
    distances_ = std::move(distances);
    time_penalties_ = std::move(time_penalties);
    order_ = std::move(order);
    step_count_ = step_count;
    mask_ = std::move(mask);
    state_key_ = key;
  }

 private:
  void draw(const Canvas& canvas) const {
    constexpr Rgb kBlack{0, 0, 0};
    const double w = canvas.width();
    const double h = canvas.height();
    const double map_max = s_.map_max;
    const auto x = [&](std::int16_t i) { return coordinates_[2 * static_cast<std::size_t>(i)] / map_max * w; };
    const auto y = [&](std::int16_t i) {
      return (1.0 - coordinates_[2 * static_cast<std::size_t>(i) + 1] / map_max) * h;
    };
    canvas.fill(Rgb{255, 255, 255});
    const double half = 0.02 * w;  // half the depot's side
    canvas.rect(static_cast<int>(std::lround(x(kDepot) - half)), static_cast<int>(std::lround(y(kDepot) - half)),
                static_cast<int>(std::lround(x(kDepot) + half)), static_cast<int>(std::lround(y(kDepot) + half)),
                kBlack);
    for (std::int16_t i = 1; i <= n_; ++i) canvas.disc(x(i), y(i), 0.01 * w, kBlack);
    const int columns = std::min(static_cast<int>(step_count_), 2 * n_);
    for (int pass = 0; pass < 2; ++pass) {  // the lines, then the discs
      for (int v = 0; v < a_; ++v) {
        const std::int16_t* order = &order_[static_cast<std::size_t>(v) * 2 * static_cast<std::size_t>(n_)];
        const Rgb colour = hsv_entry(a_ + 1, v);
        for (int j = 1; j < columns; ++j) {
          const std::int16_t a = order[j - 1];
          const std::int16_t b = order[j];
          if (a == kDepot && b == kDepot) continue;
          if (pass == 0) {
            canvas.line(x(a), y(a), x(b), y(b), colour, 2);
          } else {
            canvas.disc(x(a), y(a), 4.0, colour);
            canvas.disc(x(b), y(b), 4.0, colour);
          }
        }
      }
    }
  }

  // max_single_vehicle_distance / speed: 2 * map_max * sqrt(2) * num_customers in float32.
  float max_local_time() const {
    return static_cast<float>(2 * s_.map_max) * std::sqrt(2.0f) * static_cast<float>(n_);
  }

  // create_action_mask: customers with demand within each vehicle's capacity, and the depot.
  void update_mask() {
    const auto nodes = static_cast<std::size_t>(n_ + 1);
    for (std::size_t v = 0; v < static_cast<std::size_t>(a_); ++v) {
      for (std::size_t i = 0; i < nodes; ++i) {
        mask_[v * nodes + i] = capacities_[v] >= demands_[i] && demands_[i] > 0 ? 1 : 0;
      }
      mask_[v * nodes + kDepot] = 1;
    }
  }

  // worst_case_remaining_reward: twice the distances from the depot to the customers with demand left,
  // and the time penalties of reaching them after that long past the vehicles' mean local time.
  float worst_case_remaining_reward() const {
    std::vector<float> to_depot(demands_.size());
    for (std::size_t i = 0; i < demands_.size(); ++i) {
      const float has_demand = demands_[i] > 0 ? 1.0f : 0.0f;
      to_depot[i] = planar_distance(&coordinates_[0], &coordinates_[2 * i]) * has_demand;
    }
    const float distance_penalty = 2.0f * xla_sum(to_depot, 1, false);
    const float mean_time = sum(local_times_) * (1.0f / static_cast<float>(a_));
    const float current_time = mean_time + distance_penalty;
    std::vector<float> penalties(demands_.size());
    for (std::size_t i = 0; i < demands_.size(); ++i) {
      const float has_demand = demands_[i] > 0 ? 1.0f : 0.0f;
      penalties[i] = time_penalty(current_time, start_[i], end_[i], early_[i], late_[i]) * has_demand;
    }
    return -distance_penalty - xla_sum(penalties, 4, true);
  }

  int n_;
  int a_;
  Settings s_;
  std::vector<float> coordinates_;  // (n + 1, 2)
  std::vector<std::int16_t> demands_;
  std::vector<float> start_;
  std::vector<float> end_;
  std::vector<float> early_;
  std::vector<float> late_;
  std::vector<float> local_times_;  // (A,)
  std::vector<std::int16_t> capacities_;
  std::vector<std::int16_t> positions_;
  std::vector<float> distances_;
  std::vector<float> time_penalties_;
  std::vector<std::int16_t> order_;  // (A, 2n)
  std::int16_t step_count_ = 1;
  std::vector<std::uint8_t> mask_;  // (A, n + 1)
  Key state_key_{};
  std::vector<std::int16_t> next_;  // a step's scratch: the node each vehicle goes to
};

EnvSpec multi_cvrp_spec(const Config& config) {
  const std::int64_t n = config.get_int_in("num_customers", 6, 150);
  const std::int64_t a = config.get_int_in("num_vehicles", 2, 5);
  const Settings s = settings_for(n, a);
  const double map_max = s.map_max;
  const double capacity = s.max_capacity;
  const double end_window = static_cast<double>(s.max_start_window + kWindowLength);
  const double coef = static_cast<double>(s.late_high);
  const double max_time =
      static_cast<double>(static_cast<float>(2 * s.map_max) * std::sqrt(2.0f) * static_cast<float>(n));
  const auto shared = [a, n](const char* name, DType dtype, std::vector<std::int64_t> inner, double high) {
    std::vector<std::int64_t> shape = {a, n + 1};
    shape.insert(shape.end(), inner.begin(), inner.end());
    return ArraySpec{.name = name, .dtype = dtype, .shape = shape, .low = {0}, .high = {high}};
  };
  EnvSpec spec{
      .obs =
          {
              shared("nodes.coordinates", DType::kFloat32, {2}, map_max),
              shared("nodes.demands", DType::kInt16, {}, capacity),
              shared("windows.start", DType::kFloat32, {}, end_window),
              shared("windows.end", DType::kFloat32, {}, end_window),
              shared("coeffs.early", DType::kFloat32, {}, coef),
              shared("coeffs.late", DType::kFloat32, {}, coef),
              ArraySpec{.name = "vehicles.coordinates", .dtype = DType::kFloat32, .shape = {a, 2}, .low = {0},
                        .high = {map_max}},
              ArraySpec{.name = "vehicles.local_times", .dtype = DType::kFloat32, .shape = {a}, .low = {0},
                        .high = {max_time}},
              ArraySpec{.name = "vehicles.capacities", .dtype = DType::kInt16, .shape = {a}, .low = {0},
                        .high = {capacity}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {a, n + 1}, .low = {0}, .high = {1}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {a}, .low = {0},
                          .high = {static_cast<double>(n)}},
  };
  spec.num_agents = static_cast<int>(a);
  spec.render_width = spec.render_height = 480;
  spec.render_fps = 5.0;
  return spec;
}

std::unique_ptr<Env> make_multi_cvrp(const Config& config) {
  multi_cvrp_spec(config);  // checks the options
  return std::make_unique<MultiCVRP>(
      config, settings_for(config.get_int("num_customers"), config.get_int("num_vehicles")));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiMultiCVRP",
    .options =
        {
            {"num_customers", std::int64_t{20},
             "Customer nodes besides the depot (the default generator's num_customers): 6, 20, 50, 100 or 150."},
            {"num_vehicles", std::int64_t{2},
             "Vehicles, the agents (the generator's num_vehicles): 2 or 3 for 6 or 20 customers, 2..5 for 50 or "
             "100, 5 for 150."},
        },
    .spec = multi_cvrp_spec,
    .create = make_multi_cvrp,
});

}  // namespace rlpool::jumanji
