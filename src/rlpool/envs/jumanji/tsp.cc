// Jumanji's TSP (jumanji 1.1.2, TSP-v1) in C++: num_cities cities in the unit
// square; each step visits one city not visited yet, and the tour closes by
// itself after the last one. Follows jumanji/environments/routing/tsp/:
// - generator.py UniformGenerator.__call__ (l.58-80): key, sample_key =
//   split(key); the coordinates are jax.random.uniform(sample_key,
//   (num_cities, 2)); position -1, nothing visited, trajectory all -1; the
//   State keeps `key`.
// - env.py TSP.step (l.139-171): an action on a visited city is invalid and
//   leaves the State as it was; a valid one is _update_state (l.263-281).
//   The episode terminates when every city is visited or on an invalid
//   action; there is no time limit of the game's own.
// - reward.py DenseReward (l.68-100, the default): minus the distance from the
//   last city to the new one (0 for the first city; -num_cities * sqrt(2) for
//   an invalid action), less the distance back to the first city once every
//   city is visited; distance_between_two_cities (l.110-114) is
//   jnp.linalg.norm of the difference, in float32 as XLA computes it on a CPU
//   (dx * dx fused into the add of dy * dy, then sqrt).
// - env.py observation_spec (l.173-213) and _state_to_observation (l.283-297):
//   coordinates, position, trajectory, action_mask (not visited). position's
//   bounds are -1..num_cities - 1: jumanji's spec leaves out the -1 that its
//   first observation holds.
// - render: viewer.py TSPViewer (l.31-66, 128-168): the
//   render_mode="rgb_array" picture, 480 x 480 with the unit square's axes
//   limits filling it (x right, y up), on white (jumanji draws over a
//   city-map photo): every city a dimgray (105, 105, 105) disc of radius 6
//   px, black lines 2 px wide (jumanji's quiver arrows, without heads) from
//   each visited city to the next in the trajectory, and the visited cities
//   black discs over them.
// Indexing follows jax: position -1 and trajectory[0] == -1 read the last
// city (jax wraps negative indices), and a write past the trajectory's end
// is dropped.
//
// State bytes (after the env's key), in jumanji's State order: coordinates
// (num_cities * 2 float32), position (int32), visited_mask (num_cities
// bytes, 0 or 1), trajectory (num_cities int32), num_visited (int32), the
// State's key (two uint32).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

// The most cities an env may have (jumanji sets none); it keeps every index in int32 with room to spare.
constexpr std::int64_t kMaxCities = 100000;

class TSP final : public JumanjiEnv {
 public:
  explicit TSP(const Config& config)
      : n_(static_cast<int>(config.get_int("num_cities"))),
        coordinates_(static_cast<std::size_t>(2 * n_)),
        visited_(static_cast<std::size_t>(n_), 0),
        trajectory_(static_cast<std::size_t>(n_), -1) {}

 protected:
  void new_episode(Key key) override {
    auto [next, sample_key] = jax_random::split2(key);
    state_key_ = next;
    jax_random::uniform(sample_key, coordinates_.data(), coordinates_.size());
    position_ = -1;
    std::fill(visited_.begin(), visited_.end(), 0);
    std::fill(trajectory_.begin(), trajectory_.end(), -1);
    num_visited_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto city = static_cast<std::int32_t>(action.discrete());
    const bool valid = visited_[static_cast<std::size_t>(city)] == 0;
    const std::int32_t old_position = position_;
    const std::int32_t old_num_visited = num_visited_;
    const std::int32_t first_city = trajectory_[0];
    if (valid) {
      position_ = city;
      visited_[static_cast<std::size_t>(city)] = 1;
      if (num_visited_ < n_) trajectory_[static_cast<std::size_t>(num_visited_)] = city;
      num_visited_ += 1;
    }
    // DenseReward, with the State before the step (old_*) and after it.
    float reward = valid ? -distance(old_position, position_) : -static_cast<float>(n_) * std::sqrt(2.0f);
    if (old_num_visited == 0) reward = 0.0f;
    const bool all_visited = std::all_of(visited_.begin(), visited_.end(), [](std::uint8_t v) { return v != 0; });
    if (all_visited) reward = reward - distance(position_, first_city);
    rewards[0] = reward;
    return Outcome{.terminated = num_visited_ == n_ || !valid};
  }

  void observe(const Output& out) const override {
    std::copy(coordinates_.begin(), coordinates_.end(), out.obs_as<float>(0));
    *out.obs_as<std::int32_t>(1) = position_;
    std::copy(trajectory_.begin(), trajectory_.end(), out.obs_as<std::int32_t>(2));
    bool* mask = out.obs_as<bool>(3);
    for (std::size_t i = 0; i < visited_.size(); ++i) mask[i] = visited_[i] == 0;
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, coordinates_);
    append(bytes, position_);
    append_values(bytes, visited_);
    append_values(bytes, trajectory_);
    append(bytes, num_visited_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "TSP");
    std::vector<float> coordinates = read_values<float>(reader, coordinates_.size(), "coordinates");
    const auto position = reader.read<std::int32_t>("position");
    std::vector<std::uint8_t> visited = read_values<std::uint8_t>(reader, visited_.size(), "visited_mask");
    std::vector<std::int32_t> trajectory = read_values<std::int32_t>(reader, trajectory_.size(), "trajectory");
    const auto num_visited = reader.read<std::int32_t>("num_visited");
    const Key key = read_key(reader);
    reader.done();
    check_unit_interval(coordinates, "coordinates");
    check_range(position, -1, n_ - 1, "position");
    check_all(visited, 0, 1, "visited_mask entry");
    check_all(trajectory, -1, n_ - 1, "trajectory entry");
    check_range(num_visited, 0, n_, "num_visited");
    coordinates_ = std::move(coordinates);
    position_ = position;
    visited_ = std::move(visited);
    trajectory_ = std::move(trajectory);
    num_visited_ = num_visited;
    state_key_ = key;
  }

 private:
  // coordinates[i] as jax indexes it: -1 is the last city.
  const float* city(std::int32_t i) const {
    const std::int32_t at = i < 0 ? i + n_ : i;
    return &coordinates_[static_cast<std::size_t>(2 * at)];
  }

  void draw(const Canvas& canvas) const {
    constexpr Rgb kBlack{0, 0, 0};
    constexpr double kRadius = 6.0;
    const auto x = [&](std::int32_t i) { return city(i)[0] * canvas.width(); };
    const auto y = [&](std::int32_t i) { return (1.0 - city(i)[1]) * canvas.height(); };
    canvas.fill(Rgb{255, 255, 255});
    for (std::int32_t i = 0; i < n_; ++i) canvas.disc(x(i), y(i), kRadius, Rgb{105, 105, 105});
    const std::int32_t visited = std::min(num_visited_, n_);
    const auto at = [&](std::int32_t k) { return trajectory_[static_cast<std::size_t>(k)]; };
    for (std::int32_t k = 1; k < visited; ++k) canvas.line(x(at(k - 1)), y(at(k - 1)), x(at(k)), y(at(k)), kBlack, 2);
    for (std::int32_t k = 0; k < visited; ++k) canvas.disc(x(at(k)), y(at(k)), kRadius, kBlack);
  }

  // distance_between_two_cities: jnp.linalg.norm(a - b), with XLA's fused multiply-add.
  float distance(std::int32_t a, std::int32_t b) const { return planar_distance(city(a), city(b)); }

  int n_;
  std::vector<float> coordinates_;  // (num_cities, 2)
  std::int32_t position_ = -1;
  std::vector<std::uint8_t> visited_;
  std::vector<std::int32_t> trajectory_;
  std::int32_t num_visited_ = 0;
  Key state_key_{};
};

EnvSpec tsp_spec(const Config& config) {
  const std::int64_t n = config.get_int_in("num_cities", 1, kMaxCities);
  const auto last = static_cast<double>(n - 1);
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "coordinates", .dtype = DType::kFloat32, .shape = {n, 2}, .low = {0}, .high = {1}},
              // jumanji's spec says 0..num_cities - 1 (a DiscreteArray), but position is -1 until the first step.
              ArraySpec{.name = "position", .dtype = DType::kInt32, .shape = {}, .low = {-1}, .high = {last}},
              ArraySpec{.name = "trajectory", .dtype = DType::kInt32, .shape = {n}, .low = {-1}, .high = {last}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {n}, .low = {0}, .high = {1}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {last}},
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
  };
}

std::unique_ptr<Env> make_tsp(const Config& config) {
  tsp_spec(config);  // checks the options
  return std::make_unique<TSP>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiTSP",
    .options = {{"num_cities", std::int64_t{20},
                 "How many cities (the default generator's num_cities), 1..100000."}},
    .spec = tsp_spec,
    .create = make_tsp,
});

}  // namespace rlpool::jumanji
