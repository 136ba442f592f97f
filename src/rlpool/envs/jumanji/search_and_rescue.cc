// Jumanji's SearchAndRescue (jumanji 1.1.2, SearchAndRescue-v0) in C++: A
// searchers, steered by continuous [rotation, acceleration] actions, look for
// T targets that drift by a random walk on the unit torus. Follows
// jumanji/environments/swarms/:
// - search_and_rescue/generator.py RandomGenerator.__call__ (l.52-97): key,
//   searcher_key, target_key = split(key, 3); k_pos, k_head, k_speed =
//   split(searcher_key, 3); uniform positions (A, 2), headings in [0, 2 pi),
//   speeds in [min_speed, max_speed); target positions uniform (T, 2), zero
//   velocities, none found.
// - search_and_rescue/env.py SearchAndRescue.step (l.217-275): key,
//   target_key = split(state.key); common/updates.py update_state (l.72-95:
//   actions clipped to [-1, 1], update_velocity l.26-52, move l.55-69);
//   dynamics.py RandomWalk.__call__ (l.59-77); the targets found
//   (utils.py searcher_detect_targets l.52-84, _check_target_in_view
//   l.25-49) through esquilax's spatial transform with target_contact_range;
//   reward.py IndividualRewardFn (l.37-88: split between the finders, summed,
//   scaled by (time_limit - step) / time_limit); done when step >= time_limit
//   or every target is found, a termination either way.
// - search_and_rescue/observations.py AgentAndTargetObservationFn.__call__
//   (l.168-212) with _target_view (l.84-130) and common/updates.py
//   view_reduction_fn / angular_width / view (l.98-203): searcher_views
//   (A, 3, 128): channel 0 the other searchers within 0.4, channels 1 and 2
//   the found and unfound targets within 0.1, each ray the nearest distance /
//   range, -1 where nothing is; env.py _state_to_observation (l.277-284).
// - info: the State's searcher headings and speeds and the targets'
//   positions, velocities and found flags, as EnvPool 1.2.7's info has them.
// esquilax 2.1.0 transforms/_space.py spatial (l.113-453): agents are binned
// on a grid of floor(1 / i_range) cells a side (floor_divide of the position
// by the cell width); agent a meets b when b's cell index (row * n + col,
// dropped outside 0..n*n-1) is one of the 3 x 3 cells around a's (wrapped)
// and the torus distance squared is <= i_range**2; a searcher does not meet
// itself. The reductions (logical or; the views' min over distances >= 0,
// else -1) do not depend on the order of the pairs, nor on a cell visited
// twice (a grid of 1 or 2 cells a side), so pairs are taken in index order.
//
// Float32 as XLA's CPU code computes it (checked against jax 0.10.2): sin,
// cos and atan2 are glibc's sinf/cosf/atan2f; a division by a constant is a
// product with the constant's float32 inverse; update_velocity's and move's
// multiply-adds are fused, and so are the sums of squares of the distances
// (fma(dx, dx, dy * dy)), in the views and in esquilax's range check.
//
// The view rays (jnp.linspace inside the views' interaction function) are
// start * (1 - s) + stop * s, s = i * (1 / 127), the ends from float32
// view_angle * pi, with stop * s fused: the test pins them with an object's
// edge put between the candidate roundings.
//
// Render: viewer.py SearchAndRescueViewer (l.29-73, 123-129) and
// common/viewer.py draw_agents and format_plot (l.25-74): the
// render_mode="rgb_array" picture, 480 x 480 with the unit square's axes
// limits filling it (x right, y up), on white: each searcher an arrow head (a
// filled triangle 16 px long, its tip 10 px ahead of the position along the
// heading, its base 12 px wide) in #282B28, then each target a disc of
// radius 4 px, #E98449 (orange) while lost, #B3B6BC (light grey) once found,
// in index order.
//
// Each agent's observation row: its own searcher_views and positions rows;
// targets_remaining and step, jumanji's one value for all, repeated.
//
// State bytes (after the env's key): searchers.pos (A x 2 float32),
// searchers.heading (A float32), searchers.speed (A float32), targets.pos
// (T x 2 float32), targets.vel (T x 2 float32), targets.found (T bytes, 0/1),
// the State's key (two uint32), step (int32).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kChannels = 3;
constexpr int kNumVision = 128;           // AgentAndTargetObservationFn's num_vision
constexpr double kSearcherVision = 0.4;   // searcher_vision_range
constexpr double kTargetVision = 0.1;     // target_vision_range
constexpr double kViewAngle = 0.4;        // view_angle, a fraction of pi
constexpr double kTargetAccStd = 0.0001;  // RandomWalk(acc_std=0.0001, vel_max=0.002)
constexpr double kTargetVelMax = 0.002;

float f32(double v) { return static_cast<float>(v); }

const float kTwoPi = f32(2.0 * std::numbers::pi);

// jnp.remainder(x, y) of floats: C's fmod, moved to y's sign.
float remainder(float x, float y) {
  float r = std::fmod(x, y);
  if (r != 0.0f && ((r < 0.0f) != (y < 0.0f))) r += y;
  return r;
}

float sign(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); }

// esquilax.utils.shortest_vector(a, b, length) of one coordinate.
float shortest(float a, float b, float length) {
  const float x = b - a;
  const float x2 = sign(x) * (std::fabs(x) - length);
  return std::fabs(x) < std::fabs(x2) ? x : x2;
}

// view_reduction_fn: the nearest distance, -1 where nothing is seen.
float view_reduce(float a, float b) { return (a < 0.0f || b < 0.0f) ? std::max(a, b) : std::min(a, b); }

// esquilax's spatial binning for one interaction range on the unit square.
struct Grid {
  explicit Grid(double i_range)
      : n(static_cast<int>(std::floor(1.0 / i_range))),
        inv_width(1.0f / f32(1.0 / n)),
        width(f32(1.0 / n)),
        range2(f32(i_range * i_range)) {}

  // jnp.floor_divide(x, width).astype(int32), the division by the constant
  // width taken as XLA's product with its inverse (not pinned by a test: a
  // pair within range is in neighbouring cells unless a coordinate sits on a
  // cell's edge).
  int coord(float x) const {
    const float mod = std::fmod(x, width);
    float div = (x - mod) * inv_width;
    if (mod != 0.0f && (mod < 0.0f) != (width < 0.0f)) div -= 1.0f;
    return static_cast<int>(std::round(div));
  }
  std::array<int, 2> cell(const float* pos) const { return {coord(pos[0]), coord(pos[1])}; }
  // b's bin (bincount drops one outside the grid) is among the 3 x 3 around a's cell.
  bool near(const std::array<int, 2>& a, const std::array<int, 2>& b) const {
    const int idx = b[0] * n + b[1];
    if (idx < 0 || idx >= n * n) return false;
    for (int o0 = -1; o0 <= 1; ++o0) {
      for (int o1 = -1; o1 <= 1; ++o1) {
        const int r = ((a[0] + o0) % n + n) % n;
        const int c = ((a[1] + o1) % n + n) % n;
        if (r * n + c == idx) return true;
      }
    }
    return false;
  }
  // The torus distance squared within range (shortest_distance(norm=False)).
  bool in_range(const float* p, const float* q) const {
    float d[2];
    for (int k = 0; k < 2; ++k) {
      const float x = std::fabs(p[k] - q[k]);
      d[k] = x > 0.5f ? 1.0f - x : x;
    }
    return std::fma(d[0], d[0], d[1] * d[1]) <= range2;
  }

  int n;
  float inv_width;
  float width;
  float range2;
};

// angular_width: the distance / i_range and the angles of the viewed disc's
// edges from the viewing agent's heading.
struct Width {
  float norm_dist;
  float left;
  float right;
};

Width angular_width(const float* p, const float* q, float heading, float inv_range, float radius) {
  const float dx = shortest(p[0], q[0], 1.0f);
  const float dy = shortest(p[1], q[1], 1.0f);
  const float dist = std::sqrt(std::fma(dx, dx, dy * dy));
  const float phi = remainder(std::atan2(dy, dx), kTwoPi);
  const float dh = shortest(phi, heading, kTwoPi);
  const float a_width = std::atan2(radius, dist);
  return {dist * inv_range, dh - a_width, dh + a_width};
}

class SearchAndRescue final : public JumanjiEnv {
 public:
  explicit SearchAndRescue(const Config& config)
      : JumanjiEnv(static_cast<int>(config.get_int("num_searchers"))),
        a_(static_cast<int>(config.get_int("num_searchers"))),
        t_(static_cast<int>(config.get_int("num_targets"))),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        contact_range_(config.get_double("target_contact_range")),
        max_rotate_(f32(config.get_double("searcher_max_rotate"))),
        max_accelerate_(f32(config.get_double("searcher_max_accelerate"))),
        min_speed_(f32(config.get_double("searcher_min_speed"))),
        max_speed_(f32(config.get_double("searcher_max_speed"))),
        radius_(f32(contact_range_)),
        detect_grid_(contact_range_),
        searcher_grid_(kSearcherVision),
        target_grid_(kTargetVision),
        pos_(static_cast<std::size_t>(2 * a_)),
        heading_(static_cast<std::size_t>(a_)),
        speed_(static_cast<std::size_t>(a_)),
        target_pos_(static_cast<std::size_t>(2 * t_)),
        target_vel_(static_cast<std::size_t>(2 * t_)),
        found_(static_cast<std::size_t>(t_)),
        rays_(kNumVision),
        finds_(static_cast<std::size_t>(a_ * t_)),
        finders_(static_cast<std::size_t>(t_)),
        walk_(static_cast<std::size_t>(2 * t_)) {
    // jnp.linspace(-view_angle * pi, view_angle * pi, 128) as the step's XLA program computes it: the ends
    // from the float32 view_angle (a traced parameter there), s = i * (1 / 127), and start * (1 - s) +
    // stop * s with the second product fused.
    const float pi = f32(std::numbers::pi);
    const float start = -f32(kViewAngle) * pi;
    const float stop = f32(kViewAngle) * pi;
    const float inv = 1.0f / static_cast<float>(kNumVision - 1);
    for (int i = 0; i < kNumVision - 1; ++i) {
      const float s = static_cast<float>(i) * inv;
      rays_[static_cast<std::size_t>(i)] = std::fma(stop, s, start * (1.0f - s));
    }
    rays_.back() = stop;
  }

 protected:
  void new_episode(Key key) override {
    std::array<Key, 3> keys{};
    jax_random::split(key, keys.data(), keys.size());
    std::array<Key, 3> searcher_keys{};
    jax_random::split(keys[1], searcher_keys.data(), searcher_keys.size());
    jax_random::uniform(searcher_keys[0], pos_.data(), pos_.size(), 0.0f, 1.0f);
    jax_random::uniform(searcher_keys[1], heading_.data(), heading_.size(), 0.0f, kTwoPi);
    jax_random::uniform(searcher_keys[2], speed_.data(), speed_.size(), min_speed_, max_speed_);
    jax_random::uniform(keys[2], target_pos_.data(), target_pos_.size(), 0.0f, 1.0f);
    std::fill(target_vel_.begin(), target_vel_.end(), 0.0f);
    std::fill(found_.begin(), found_.end(), false);
    state_key_ = keys[0];
    step_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto [next, target_key] = jax_random::split2(state_key_);
    state_key_ = next;
    move_searchers(action.continuous());
    move_targets(target_key);

    // Who finds what: searcher s, target t (not found before, in contact range and in s's view cone).
    const float view = f32(kViewAngle) * f32(std::numbers::pi);  // searcher_view_angle * pi, a float32 parameter
    std::vector<std::uint8_t>& finds = finds_;  // the step's scratch, sized once
    std::vector<int>& finders = finders_;
    std::fill(finds.begin(), finds.end(), std::uint8_t{0});
    std::fill(finders.begin(), finders.end(), 0);
    for (int s = 0; s < a_; ++s) {
      const float* p = &pos_[static_cast<std::size_t>(2 * s)];
      const auto cell = detect_grid_.cell(p);
      for (int t = 0; t < t_; ++t) {
        if (found_[static_cast<std::size_t>(t)]) continue;
        const float* q = &target_pos_[static_cast<std::size_t>(2 * t)];
        if (!detect_grid_.near(cell, detect_grid_.cell(q)) || !detect_grid_.in_range(p, q)) continue;
        const float dx = shortest(p[0], q[0], 1.0f);
        const float dy = shortest(p[1], q[1], 1.0f);
        const float phi = remainder(std::atan2(dy, dx), kTwoPi);
        const float dh = shortest(phi, heading_[static_cast<std::size_t>(s)], kTwoPi);
        if (dh >= -view && dh <= view) {
          finds[static_cast<std::size_t>(s * t_ + t)] = 1;
          ++finders[static_cast<std::size_t>(t)];
        }
      }
    }
    // IndividualRewardFn: each find split between its finders, summed per searcher, then scaled.
    const float scale = static_cast<float>(time_limit_ - step_) * (1.0f / static_cast<float>(time_limit_));
    for (int s = 0; s < a_; ++s) {
      float sum = 0.0f;
      for (int t = 0; t < t_; ++t) {
        if (finds[static_cast<std::size_t>(s * t_ + t)] != 0) {
          sum += 1.0f / static_cast<float>(finders[static_cast<std::size_t>(t)]);
        }
      }
      rewards[s] = static_cast<double>(scale * sum);
    }
    for (int t = 0; t < t_; ++t) {
      if (finders[static_cast<std::size_t>(t)] > 0) found_[static_cast<std::size_t>(t)] = true;
    }
    ++step_;
    const bool all_found = std::all_of(found_.begin(), found_.end(), [](bool f) { return f; });
    return {.terminated = step_ >= time_limit_ || all_found};
  }

  void observe(const Output& out) const override {
    auto* views = out.obs_as<float>(0);
    std::fill(views, views + static_cast<std::ptrdiff_t>(a_) * kChannels * kNumVision, -1.0f);
    const float inv_searcher = 1.0f / f32(kSearcherVision);
    const float inv_target = 1.0f / f32(kTargetVision);
    for (int s = 0; s < a_; ++s) {
      const float* p = &pos_[static_cast<std::size_t>(2 * s)];
      const float heading = heading_[static_cast<std::size_t>(s)];
      float* row = views + static_cast<std::ptrdiff_t>(s) * kChannels * kNumVision;
      const auto searcher_cell = searcher_grid_.cell(p);
      for (int b = 0; b < a_; ++b) {
        if (b == s) continue;
        const float* q = &pos_[static_cast<std::size_t>(2 * b)];
        if (!searcher_grid_.near(searcher_cell, searcher_grid_.cell(q)) || !searcher_grid_.in_range(p, q)) continue;
        see(row, angular_width(p, q, heading, inv_searcher, radius_));
      }
      const auto target_cell = target_grid_.cell(p);
      for (int t = 0; t < t_; ++t) {
        const float* q = &target_pos_[static_cast<std::size_t>(2 * t)];
        if (!target_grid_.near(target_cell, target_grid_.cell(q)) || !target_grid_.in_range(p, q)) continue;
        const int channel = found_[static_cast<std::size_t>(t)] ? 1 : 2;
        see(row + channel * kNumVision, angular_width(p, q, heading, inv_target, radius_));
      }
    }
    const int found = static_cast<int>(std::count(found_.begin(), found_.end(), true));
    // 1 - found / T as XLA computes it: a fused multiply-add with the inverse of T.
    const float remaining = std::fma(-static_cast<float>(found), 1.0f / static_cast<float>(t_), 1.0f);
    std::fill(out.obs_as<float>(1), out.obs_as<float>(1) + a_, remaining);
    std::fill(out.obs_as<std::int32_t>(2), out.obs_as<std::int32_t>(2) + a_, step_);
    std::copy(pos_.begin(), pos_.end(), out.obs_as<float>(3));  // pos / env_size, env_size 1
    std::copy(heading_.begin(), heading_.end(), out.info_as<float>(0));
    std::copy(speed_.begin(), speed_.end(), out.info_as<float>(1));
    std::copy(target_pos_.begin(), target_pos_.end(), out.info_as<float>(2));
    std::copy(target_vel_.begin(), target_vel_.end(), out.info_as<float>(3));
    std::copy(found_.begin(), found_.end(), out.info_as<bool>(4));
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, pos_);
    append_values(bytes, heading_);
    append_values(bytes, speed_);
    append_values(bytes, target_pos_);
    append_values(bytes, target_vel_);
    for (bool f : found_) append(bytes, static_cast<std::uint8_t>(f));
    append_key(bytes, state_key_);
    append(bytes, step_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "SearchAndRescue");
    const auto a = static_cast<std::size_t>(a_);
    const auto t = static_cast<std::size_t>(t_);
    auto pos = read_values<float>(reader, 2 * a, "searchers.pos");
    auto heading = read_values<float>(reader, a, "searchers.heading");
    auto speed = read_values<float>(reader, a, "searchers.speed");
    auto target_pos = read_values<float>(reader, 2 * t, "targets.pos");
    auto target_vel = read_values<float>(reader, 2 * t, "targets.vel");
    auto found = read_values<std::uint8_t>(reader, t, "targets.found");
    const Key key = read_key(reader);
    const auto step = reader.read<std::int32_t>("step");
    reader.done();
    check_unit_interval(pos, "searchers.pos");
    check_floats(heading, 0.0f, kTwoPi, "searchers.heading");
    check_floats(speed, min_speed_, max_speed_, "searchers.speed");
    check_unit_interval(target_pos, "targets.pos");
    check_floats(target_vel, -1.0f, 1.0f, "targets.vel");
    check_all(found, 0, 1, "targets.found");
    check_range(step, 0, time_limit_, "step");
    pos_ = std::move(pos);
    heading_ = std::move(heading);
    speed_ = std::move(speed);
    target_pos_ = std::move(target_pos);
    target_vel_ = std::move(target_vel);
    for (std::size_t i = 0; i < t; ++i) found_[i] = found[i] != 0;
    state_key_ = key;
    step_ = step;
  }

 private:
  void draw(const Canvas& canvas) const {
    const double w = canvas.width();
    const double h = canvas.height();
    canvas.fill(Rgb{255, 255, 255});
    for (std::size_t s = 0; s < static_cast<std::size_t>(a_); ++s) {
      const double x = pos_[2 * s] * w;
      const double y = (1.0 - pos_[2 * s + 1]) * h;
      const double dx = std::cos(heading_[s]);
      const double dy = -std::sin(heading_[s]);  // y grows downwards on the frame
      fill_triangle(canvas, {x + 10 * dx, y + 10 * dy}, {x - 6 * dx - 6 * dy, y - 6 * dy + 6 * dx},
                    {x - 6 * dx + 6 * dy, y - 6 * dy - 6 * dx}, Rgb{0x28, 0x2B, 0x28});
    }
    for (std::size_t t = 0; t < static_cast<std::size_t>(t_); ++t) {
      const Rgb colour = found_[t] ? Rgb{0xB3, 0xB6, 0xBC} : Rgb{0xE9, 0x84, 0x49};
      canvas.disc(target_pos_[2 * t] * w, (1.0 - target_pos_[2 * t + 1]) * h, 4.0, colour);
    }
  }

  // The pixels whose centres lie inside the triangle (a, b, c).
  static void fill_triangle(const Canvas& canvas, std::array<double, 2> a, std::array<double, 2> b,
                            std::array<double, 2> c, Rgb colour) {
    const auto side = [](const std::array<double, 2>& p, const std::array<double, 2>& q, double x, double y) {
      return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    };
    const int x0 = static_cast<int>(std::floor(std::min({a[0], b[0], c[0]})));
    const int x1 = static_cast<int>(std::ceil(std::max({a[0], b[0], c[0]})));
    const int y0 = static_cast<int>(std::floor(std::min({a[1], b[1], c[1]})));
    const int y1 = static_cast<int>(std::ceil(std::max({a[1], b[1], c[1]})));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double e0 = side(a, b, x + 0.5, y + 0.5);
        const double e1 = side(b, c, x + 0.5, y + 0.5);
        const double e2 = side(c, a, x + 0.5, y + 0.5);
        if ((e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0)) canvas.pixel(x, y, colour);
      }
    }
  }

  static void check_floats(const std::vector<float>& values, float low, float high, const char* field) {
    for (const float v : values) {
      if (!(v >= low && v <= high)) {  // NaN fails too
        throw std::invalid_argument(std::string("state's ") + field + " hold " + std::to_string(v) + ", expected " +
                                    std::to_string(low) + ".." + std::to_string(high));
      }
    }
  }

  // update_state: clipped actions turn and speed the searchers up, then they move.
  void move_searchers(const double* actions) {
    const float pi = f32(std::numbers::pi);
    for (int s = 0; s < a_; ++s) {
      const auto i = static_cast<std::size_t>(s);
      const float rotate = std::clamp(f32(actions[2 * i]), -1.0f, 1.0f);
      const float accelerate = std::clamp(f32(actions[2 * i + 1]), -1.0f, 1.0f);
      // XLA folds max_rotate * pi into one constant and fuses both updates' multiply-adds.
      heading_[i] = remainder(std::fma(rotate, max_rotate_ * pi, heading_[i]), kTwoPi);
      speed_[i] = std::min(std::max(std::fma(accelerate, max_accelerate_, speed_[i]), min_speed_), max_speed_);
      const float c = std::cos(heading_[i]);
      const float sn = std::sin(heading_[i]);
      pos_[2 * i] = remainder(std::fma(speed_[i], c, pos_[2 * i]), 1.0f);
      pos_[2 * i + 1] = remainder(std::fma(speed_[i], sn, pos_[2 * i + 1]), 1.0f);
    }
  }

  // RandomWalk: normal accelerations, the speed capped at vel_max, positions wrapped. XLA folds acc_std
  // into normal's sqrt(2) * erf_inv(u) (one constant, the multiply-add with the velocity fused), and
  // computes vel_max * vel / norm as vel * (vel_max * (1 / norm)).
  void move_targets(Key key) {
    std::vector<float>& u = walk_;  // the step's scratch, sized once
    jax_random::uniform(key, u.data(), u.size(), std::nextafter(-1.0f, 0.0f), 1.0f);
    const float scale = f32(kTargetAccStd) * std::bit_cast<float>(0x3FB504F3u);  // acc_std * sqrt(2)
    const float vel_max = f32(kTargetVelMax);
    for (std::size_t t = 0; t < static_cast<std::size_t>(t_); ++t) {
      float v[2];
      for (std::size_t k = 0; k < 2; ++k) {
        v[k] = std::fma(scale, jax_random::erf_inv(u[2 * t + k]), target_vel_[2 * t + k]);
      }
      const float norm = std::sqrt(std::fma(v[0], v[0], v[1] * v[1]));
      const float factor = vel_max * (1.0f / norm);
      for (std::size_t k = 0; k < 2; ++k) {
        const float capped = norm > vel_max ? v[k] * factor : v[k];
        target_vel_[2 * t + k] = capped;
        target_pos_[2 * t + k] = remainder(target_pos_[2 * t + k] + capped, 1.0f);
      }
    }
  }

  // One viewed disc on a row of rays: its distance where a ray passes between its edges.
  void see(float* row, const Width& w) const {
    for (int r = 0; r < kNumVision; ++r) {
      const float ray = rays_[static_cast<std::size_t>(r)];
      if (w.left < ray && ray < w.right) row[r] = view_reduce(row[r], w.norm_dist);
    }
  }

  int a_;
  int t_;
  int time_limit_;
  double contact_range_;
  float max_rotate_;
  float max_accelerate_;
  float min_speed_;
  float max_speed_;
  float radius_;
  Grid detect_grid_;
  Grid searcher_grid_;
  Grid target_grid_;
  std::vector<float> pos_;
  std::vector<float> heading_;
  std::vector<float> speed_;
  std::vector<float> target_pos_;
  std::vector<float> target_vel_;
  std::vector<bool> found_;
  std::vector<float> rays_;
  Key state_key_{};
  std::int32_t step_ = 0;
  // A step's scratch, sized once: who finds which target, each target's finders, the random walk's draws.
  std::vector<std::uint8_t> finds_;
  std::vector<int> finders_;
  std::vector<float> walk_;
};

EnvSpec search_and_rescue_spec(const Config& config) {
  const auto a = config.get_int_in("num_searchers", 1, 64);
  const std::int64_t t = config.get_int_in("num_targets", 1, 10'000);
  const auto time_limit = config.get_int_in("time_limit", 1, 1'000'000'000);
  config.get_double_in("target_contact_range", 0.001, 0.5);
  config.get_double_in("searcher_max_rotate", 0.0, 1.0);
  config.get_double_in("searcher_max_accelerate", 0.0, 1.0);
  const double min_speed = config.get_double_in("searcher_min_speed", 0.0, 1.0);
  const double max_speed = config.get_double_in("searcher_max_speed", 0.0, 1.0);
  if (max_speed < min_speed) {
    throw std::invalid_argument("option 'searcher_max_speed' (" + std::to_string(max_speed) +
                                ") must not be below 'searcher_min_speed' (" + std::to_string(min_speed) + ")");
  }
  return EnvSpec{
      .obs = {ArraySpec{.name = "searcher_views", .dtype = DType::kFloat32, .shape = {a, kChannels, kNumVision},
                        .low = {-1.0}, .high = {1.0}},
              ArraySpec{.name = "targets_remaining", .dtype = DType::kFloat32, .shape = {a}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step", .dtype = DType::kInt32, .shape = {a}, .low = {0.0},
                        .high = {static_cast<double>(time_limit)}},
              ArraySpec{.name = "positions", .dtype = DType::kFloat32, .shape = {a, 2}, .low = {0.0}, .high = {1.0}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {a, 2}, .low = {-1.0}, .high = {1.0}},
      // The State's searchers and targets, as EnvPool 1.2.7's info gives them.
      .info = {ArraySpec{.name = "searcher_headings", .dtype = DType::kFloat32, .shape = {a}},
               ArraySpec{.name = "searcher_speeds", .dtype = DType::kFloat32, .shape = {a}},
               ArraySpec{.name = "target_positions", .dtype = DType::kFloat32, .shape = {t, 2}},
               ArraySpec{.name = "target_velocities", .dtype = DType::kFloat32, .shape = {t, 2}},
               ArraySpec{.name = "target_found", .dtype = DType::kBool, .shape = {t}}},
      .render_width = 480,
      .render_height = 480,
      .render_fps = 5.0,
      .num_agents = static_cast<int>(a),
  };
}

std::unique_ptr<Env> make_search_and_rescue(const Config& config) {
  search_and_rescue_spec(config);  // checks the options
  return std::make_unique<SearchAndRescue>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiSearchAndRescue",
    .options =
        {
            {"num_searchers", std::int64_t{2}, "Searchers, the agents (RandomGenerator's num_searchers), 1..64."},
            {"num_targets", std::int64_t{40}, "Targets to find (RandomGenerator's num_targets), 1..10000."},
            {"time_limit", std::int64_t{400},
             "Steps after which the episode ends (SearchAndRescue's time_limit; jumanji counts it a termination)."},
            {"target_contact_range", 0.02,
             "Range at which a searcher finds a target, also the agents' visual radius, 0.001..0.5."},
            {"searcher_max_rotate", 0.25, "The most a searcher turns in a step, a fraction of pi, 0..1."},
            {"searcher_max_accelerate", 0.005, "The most a searcher's speed changes in a step, 0..1."},
            {"searcher_min_speed", 0.005, "A searcher's least speed, 0..1."},
            {"searcher_max_speed", 0.02, "A searcher's greatest speed, 0..1 (not below searcher_min_speed)."},
        },
    .spec = search_and_rescue_spec,
    .create = make_search_and_rescue,
});

}  // namespace rlpool::jumanji
