// Jumanji's CVRP (jumanji 1.1.2, CVRP-v1) in C++: a vehicle of capacity
// max_capacity starts at a depot (node 0) and serves num_nodes customers,
// each with a demand; it goes back to the depot to refill. Follows
// jumanji/environments/routing/cvrp/:
// - generator.py UniformGenerator.__call__ (l.78-115): key, coordinates_key,
//   demands_key = split(key, 3); coordinates jax.random.uniform(
//   coordinates_key, (num_nodes + 1, 2)); demands jax.random.randint(
//   demands_key, (num_nodes + 1,), 1, max_demand) with the depot's set to 0;
//   at the depot with a full vehicle, only the depot visited, the trajectory
//   all depot, num_total_visits 1; the State keeps `key`.
// - env.py CVRP.step (l.162-197): an action is valid on a node not visited
//   whose demand the vehicle can carry; an invalid one leaves the State as it
//   was. _update_state (l.312-340): the depot refills the vehicle, another
//   node takes its demand off; the depot is unvisited after each valid step,
//   then the node moved to is visited; the node goes into the trajectory at
//   num_total_visits (a write past its end is dropped, as jax drops it). The
//   episode terminates when every node (the depot too) is visited or on an
//   invalid action; there is no time limit of the game's own.
// - reward.py DenseReward (l.68-104, the default): minus the distance moved
//   (-2 * num_nodes * sqrt(2) for an invalid action), less the distance from
//   the new node to the depot once every node is visited;
//   distance_between_two_cities (l.107-111) is jnp.linalg.norm of the
//   difference, in float32 as XLA computes it on a CPU (dx * dx fused into
//   the add of dy * dy, then sqrt).
// - env.py observation_spec (l.199-262) and _state_to_observation
//   (l.342-366): demands and capacity divided by max_capacity (float32, as
//   XLA divides by a constant: times its float32 reciprocal); the
//   action mask is the unvisited nodes the capacity covers, the depot
//   wherever the vehicle is not.
// - render: viewer.py CVRPViewer (l.33-75, 151-250): the
//   render_mode="rgb_array" picture, 480 x 480 with the unit square's axes
//   limits filling it (x right, y up), on white (jumanji draws over a
//   city-map photo): the depot a black square 0.04 a side, each customer a
//   black disc of radius 0.01; the trajectory cut into routes as _group_tour
//   cuts it (each leaves the depot; the last may not be back), route k in
//   plt.get_cmap("hsv", num_nodes)(k) (jumanji_colormap.h): lines 2 px wide
//   between its consecutive nodes (jumanji's quiver arrows, without heads),
//   then a disc of radius 4 px in its colour on each of its nodes, the
//   depot's the last route's. All the routes' lines go down before their
//   discs, so that a node's centre shows its route.
//
// State bytes (after the env's key), in jumanji's State order: coordinates
// ((num_nodes + 1) * 2 float32), demands (num_nodes + 1 int32), position
// (int32), capacity (int32), visited_mask (num_nodes + 1 bytes, 0 or 1),
// trajectory (2 * num_nodes int32), num_total_visits (int32), the State's
// key (two uint32).
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

constexpr std::int32_t kDepot = 0;
// Bounds on the options (jumanji sets none but max_demand <= max_capacity): every count stays in int32.
constexpr std::int64_t kMaxNodes = 100000;
constexpr std::int64_t kMaxCapacity = 1'000'000'000;

class CVRP final : public JumanjiEnv {
 public:
  explicit CVRP(const Config& config)
      : n_(static_cast<int>(config.get_int("num_nodes"))),
        max_capacity_(static_cast<std::int32_t>(config.get_int("max_capacity"))),
        max_demand_(static_cast<std::int32_t>(config.get_int("max_demand"))),
        coordinates_(static_cast<std::size_t>(2 * (n_ + 1))),
        demands_(static_cast<std::size_t>(n_ + 1)),
        visited_(static_cast<std::size_t>(n_ + 1), 0),
        trajectory_(static_cast<std::size_t>(2 * n_), kDepot) {}

 protected:
  void new_episode(Key key) override {
    Key keys[3];
    jax_random::split(key, keys, 3);
    state_key_ = keys[0];
    jax_random::uniform(keys[1], coordinates_.data(), coordinates_.size());
    jax_random::randint(keys[2], demands_.data(), demands_.size(), 1, max_demand_);
    demands_[kDepot] = 0;
    position_ = kDepot;
    num_total_visits_ = 1;
    capacity_ = max_capacity_;
    std::fill(visited_.begin(), visited_.end(), 0);
    visited_[kDepot] = 1;
    std::fill(trajectory_.begin(), trajectory_.end(), kDepot);
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto node = static_cast<std::int32_t>(action.discrete());
    const auto at = static_cast<std::size_t>(node);
    const bool valid = visited_[at] == 0 && capacity_ >= demands_[at];
    const std::int32_t old_position = position_;
    if (valid) {
      capacity_ = node == kDepot ? max_capacity_ : capacity_ - demands_[at];
      visited_[kDepot] = 0;
      visited_[at] = 1;
      position_ = node;
      if (num_total_visits_ < 2 * n_) trajectory_[static_cast<std::size_t>(num_total_visits_)] = node;
      num_total_visits_ += 1;
    }
    // DenseReward, with the State before the step (old_position) and after it.
    float reward = valid ? -distance(old_position, position_) : -static_cast<float>(2 * n_) * std::sqrt(2.0f);
    const bool all_visited = std::all_of(visited_.begin(), visited_.end(), [](std::uint8_t v) { return v != 0; });
    if (all_visited) reward = reward - distance(position_, kDepot);
    rewards[0] = reward;
    return Outcome{.terminated = all_visited || !valid};
  }

  void observe(const Output& out) const override {
    // x / max_capacity as XLA computes it: times the float32 reciprocal of the constant.
    const float scale = 1.0f / static_cast<float>(max_capacity_);
    std::copy(coordinates_.begin(), coordinates_.end(), out.obs_as<float>(0));
    float* demands = out.obs_as<float>(1);
    for (std::size_t i = 0; i < demands_.size(); ++i) demands[i] = static_cast<float>(demands_[i]) * scale;
    bool* unvisited = out.obs_as<bool>(2);
    for (std::size_t i = 0; i < visited_.size(); ++i) unvisited[i] = visited_[i] == 0;
    *out.obs_as<std::int32_t>(3) = position_;
    std::copy(trajectory_.begin(), trajectory_.end(), out.obs_as<std::int32_t>(4));
    *out.obs_as<float>(5) = static_cast<float>(capacity_) * scale;
    bool* mask = out.obs_as<bool>(6);
    for (std::size_t i = 0; i < visited_.size(); ++i) mask[i] = visited_[i] == 0 && capacity_ >= demands_[i];
    mask[kDepot] = position_ != kDepot;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, coordinates_);
    append_values(bytes, demands_);
    append(bytes, position_);
    append(bytes, capacity_);
    append_values(bytes, visited_);
    append_values(bytes, trajectory_);
    append(bytes, num_total_visits_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "CVRP");
    std::vector<float> coordinates = read_values<float>(reader, coordinates_.size(), "coordinates");
    std::vector<std::int32_t> demands = read_values<std::int32_t>(reader, demands_.size(), "demands");
    const auto position = reader.read<std::int32_t>("position");
    const auto capacity = reader.read<std::int32_t>("capacity");
    std::vector<std::uint8_t> visited = read_values<std::uint8_t>(reader, visited_.size(), "visited_mask");
    std::vector<std::int32_t> trajectory = read_values<std::int32_t>(reader, trajectory_.size(), "trajectory");
    const auto num_total_visits = reader.read<std::int32_t>("num_total_visits");
    const Key key = read_key(reader);
    reader.done();
    check_unit_interval(coordinates, "coordinates");
    check_all(demands, 0, max_demand_, "demands entry");
    check_range(position, 0, n_, "position");
    check_range(capacity, 0, max_capacity_, "capacity");
    check_all(visited, 0, 1, "visited_mask entry");
    check_all(trajectory, 0, n_, "trajectory entry");
    check_range(num_total_visits, 1, 2LL * n_ + 1, "num_total_visits");
    coordinates_ = std::move(coordinates);
    demands_ = std::move(demands);
    position_ = position;
    capacity_ = capacity;
    visited_ = std::move(visited);
    trajectory_ = std::move(trajectory);
    num_total_visits_ = num_total_visits;
    state_key_ = key;
  }

 private:
  void draw(const Canvas& canvas) const {
    constexpr Rgb kBlack{0, 0, 0};
    const double w = canvas.width();
    const double h = canvas.height();
    const auto x = [&](std::int32_t i) { return coordinates_[2 * static_cast<std::size_t>(i)] * w; };
    const auto y = [&](std::int32_t i) { return (1.0 - coordinates_[2 * static_cast<std::size_t>(i) + 1]) * h; };
    canvas.fill(Rgb{255, 255, 255});
    const double half = 0.02 * w;  // half the depot's side
    canvas.rect(static_cast<int>(std::lround(x(kDepot) - half)), static_cast<int>(std::lround(y(kDepot) - half)),
                static_cast<int>(std::lround(x(kDepot) + half)), static_cast<int>(std::lround(y(kDepot) + half)),
                kBlack);
    for (std::int32_t i = 1; i <= n_; ++i) canvas.disc(x(i), y(i), 0.01 * w, kBlack);
    const int visits = std::min(num_total_visits_, static_cast<std::int32_t>(trajectory_.size()));
    for (int pass = 0; pass < 2; ++pass) {  // the lines, then the discs
      int route = -1;
      for (int j = 1; j < visits; ++j) {
        const std::int32_t a = trajectory_[static_cast<std::size_t>(j - 1)];
        const std::int32_t b = trajectory_[static_cast<std::size_t>(j)];
        if (a == kDepot && b == kDepot) continue;
        if (a == kDepot) ++route;
        const Rgb colour = hsv_entry(n_, std::max(route, 0));
        if (pass == 0) {
          canvas.line(x(a), y(a), x(b), y(b), colour, 2);
        } else {
          canvas.disc(x(a), y(a), 4.0, colour);
          canvas.disc(x(b), y(b), 4.0, colour);
        }
      }
    }
  }

  // distance_between_two_cities: jnp.linalg.norm(a - b), with XLA's fused multiply-add.
  float distance(std::int32_t a, std::int32_t b) const {
    return planar_distance(&coordinates_[static_cast<std::size_t>(2 * a)],
                           &coordinates_[static_cast<std::size_t>(2 * b)]);
  }

  int n_;
  std::int32_t max_capacity_;
  std::int32_t max_demand_;
  std::vector<float> coordinates_;    // (num_nodes + 1, 2)
  std::vector<std::int32_t> demands_;  // (num_nodes + 1,)
  std::int32_t position_ = kDepot;
  std::int32_t capacity_ = 0;
  std::vector<std::uint8_t> visited_;
  std::vector<std::int32_t> trajectory_;  // (2 * num_nodes,)
  std::int32_t num_total_visits_ = 1;
  Key state_key_{};
};

EnvSpec cvrp_spec(const Config& config) {
  const std::int64_t n = config.get_int_in("num_nodes", 1, kMaxNodes);
  const std::int64_t capacity = config.get_int_in("max_capacity", 1, kMaxCapacity);
  config.get_int_in("max_demand", 1, capacity);
  const auto nodes = static_cast<double>(n);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "coordinates", .dtype = DType::kFloat32, .shape = {n + 1, 2}, .low = {0}, .high = {1}},
              ArraySpec{.name = "demands", .dtype = DType::kFloat32, .shape = {n + 1}, .low = {0}, .high = {1}},
              ArraySpec{.name = "unvisited_nodes", .dtype = DType::kBool, .shape = {n + 1}, .low = {0}, .high = {1}},
              ArraySpec{.name = "position", .dtype = DType::kInt32, .shape = {}, .low = {0}, .high = {nodes}},
              ArraySpec{.name = "trajectory", .dtype = DType::kInt32, .shape = {2 * n}, .low = {0},
                        .high = {nodes + 1}},
              ArraySpec{.name = "capacity", .dtype = DType::kFloat32, .shape = {}, .low = {0}, .high = {1}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {n + 1}, .low = {0}, .high = {1}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {nodes}},
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
  };
}

std::unique_ptr<Env> make_cvrp(const Config& config) {
  cvrp_spec(config);  // checks the options
  return std::make_unique<CVRP>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiCVRP",
    .options =
        {
            {"num_nodes", std::int64_t{20}, "How many customer nodes besides the depot (the default generator's "
                                            "num_nodes), 1..100000."},
            {"max_capacity", std::int64_t{30}, "The vehicle's capacity (the generator's max_capacity), "
                                               "1..1000000000."},
            {"max_demand", std::int64_t{10}, "Demands are drawn from 1..max_demand - 1 (the generator's "
                                             "max_demand, jax.random.randint's exclusive bound), 1..max_capacity."},
        },
    .spec = cvrp_spec,
    .create = make_cvrp,
});

}  // namespace rlpool::jumanji
