// Jumanji's JobShop (JobShop-v0): job shop scheduling, as jumanji 1.1.2
// writes it, with its default generator RandomGenerator(num_jobs=20,
// num_machines=10, max_num_ops=8, max_op_duration=6).
//
// Follows jumanji/environments/packing/job_shop/:
// - generator.py RandomGenerator.__call__ (lines 121-184): the same jax.random
//   draws (split into 4 keys; machine ids, durations, ops per job).
// - env.py JobShop: reset and step (163-288), _update_operations,
//   _update_machines (290-384), _is_action_valid, _set_busy,
//   _create_action_mask (494-588).
// - render: viewer.py JobShopViewer (l.63-85, 128-174): the
//   render_mode="rgb_array" picture, jumanji's Gantt chart at 480 x 480 on
//   white, with its axes limits filling the frame: time 0..num_jobs *
//   max_num_ops * max_op_duration // num_machines (at least 1) left to right,
//   machine ids -0.9..num_machines bottom to top. Grey (176, 176, 176)
//   vertical lines 1 px wide every 10 time units (the major ticks' grid);
//   each scheduled operation a box from its start time over its duration, 0.8
//   high around its machine's id, black 1 px edges around plt.get_cmap("hsv",
//   num_jobs + 1)(job) (jumanji_colormap.h); over them, a red dashed line 1
//   px wide at time step_count. jumanji's "J<job>" labels and title are left
//   out.
//
// jumanji's step updates the state whatever the action (an invalid one too,
// which then ends the episode), so this one does as well: a job's next
// operation is the first one its ops_mask still holds (argmax: the first op
// when none is left).
//
// State bytes (after the env's key, see jumanji_env.h): jumanji's State
// fields, little-endian, row-major: ops_machine_ids (J x O int32),
// ops_durations (J x O int32), ops_mask (J x O uint8), machines_job_ids (M
// int32), machines_remaining_times (M int32), step_count (int32),
// scheduled_times (J x O int32), key (2 uint32, key_data's words), with J =
// num_jobs, O = max_num_ops, M = num_machines. The State's action_mask follows
// from these (jumanji computes it from the same fields at every step) and is
// rebuilt on load.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

struct Options {
  int num_jobs;
  int num_machines;
  int max_num_ops;
  int max_op_duration;
};

Options read_options(const Config& c) {
  Options o{};
  o.num_jobs = static_cast<int>(c.get_int_in("num_jobs", 1, 1000));
  o.num_machines = static_cast<int>(c.get_int_in("num_machines", 1, 1000));
  o.max_num_ops = static_cast<int>(c.get_int_in("max_num_ops", 1, 1000));
  o.max_op_duration = static_cast<int>(c.get_int_in("max_op_duration", 1, 1000));
  return o;
}

EnvSpec job_shop_spec(const Config& c) {
  const Options o = read_options(c);
  const std::vector<std::int64_t> ops = {o.num_jobs, o.max_num_ops};
  EnvSpec spec;
  spec.obs_kind = ObsKind::kDict;
  const std::vector<std::int64_t> machines = {o.num_machines};
  const auto ints = [](const char* name, std::vector<std::int64_t> shape, double low, double high) {
    return ArraySpec{.name = name, .dtype = DType::kInt32, .shape = std::move(shape), .low = {low}, .high = {high}};
  };
  const auto flags = [](const char* name, std::vector<std::int64_t> shape) {
    return ArraySpec{.name = name, .dtype = DType::kBool, .shape = std::move(shape), .low = {0}, .high = {1}};
  };
  spec.obs = {
      ints("ops_machine_ids", ops, -1, o.num_machines - 1),
      ints("ops_durations", ops, -1, o.max_op_duration),
      flags("ops_mask", ops),
      ints("machines_job_ids", machines, 0, o.num_jobs),
      ints("machines_remaining_times", machines, 0, o.max_op_duration),
      flags("action_mask", {o.num_machines, o.num_jobs + 1}),
  };
  // One job (or num_jobs, the no-op) per machine: a MultiDiscrete([num_jobs + 1] * num_machines).
  spec.action = {.name = "action",
                 .dtype = DType::kInt64,
                 .shape = {o.num_machines},
                 .low = {0},
                 .high = {double(o.num_jobs)}};
  spec.render_width = spec.render_height = 480;
  spec.render_fps = 5.0;
  return spec;
}

class JobShop final : public JumanjiEnv {
 public:
  explicit JobShop(const Config& config)
      : o_(read_options(config)),
        jobs_(static_cast<std::size_t>(o_.num_jobs)),
        machines_(static_cast<std::size_t>(o_.num_machines)),
        ops_(static_cast<std::size_t>(o_.max_num_ops)),
        no_op_(o_.num_jobs),
        machine_ids_(jobs_ * ops_),
        durations_(jobs_ * ops_),
        ops_mask_(jobs_ * ops_),
        machine_job_(machines_),
        remaining_(machines_),
        scheduled_(jobs_ * ops_),
        action_mask_(machines_ * (jobs_ + 1)),
        next_op_(jobs_),
        busy_job_(jobs_),
        new_job_(jobs_),
        // -num_jobs * max_num_ops * max_op_duration, a Python int made float32
        penalty_(static_cast<float>(-static_cast<std::int64_t>(o_.num_jobs) * o_.max_num_ops * o_.max_op_duration)) {}

 protected:
  void new_episode(Key key) override {
    // RandomGenerator.__call__: key, machine_key, duration_key, ops_key = split(key, 4)
    std::array<Key, 4> keys{};
    jax_random::split(key, keys.data(), 4);
    state_key_ = keys[0];
    const std::size_t n = jobs_ * ops_;
    jax_random::randint(keys[1], machine_ids_.data(), n, 0, o_.num_machines);
    jax_random::randint(keys[2], durations_.data(), n, 1, std::int64_t{o_.max_op_duration} + 1);
    jax_random::randint(keys[3], next_op_.data(), jobs_, 1, std::int64_t{o_.max_num_ops} + 1);  // ops per job
    for (std::size_t j = 0; j < jobs_; ++j) {
      for (std::size_t k = 0; k < ops_; ++k) {
        const std::size_t at = j * ops_ + k;
        if (static_cast<std::int32_t>(k) >= next_op_[j]) {
          machine_ids_[at] = -1;
          durations_[at] = -1;
        }
        ops_mask_[at] = machine_ids_[at] != -1;
        scheduled_[at] = -1;
      }
    }
    std::fill(machine_job_.begin(), machine_job_.end(), no_op_);
    std::fill(remaining_.begin(), remaining_.end(), 0);
    step_count_ = 0;
    update_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    for (std::size_t m = 0; m < machines_; ++m) {
      const std::int64_t a = action.discrete(m);
      if (a < 0 || a > no_op_) {
        throw std::invalid_argument("JobShop's action " + std::to_string(a) + " for machine " + std::to_string(m) +
                                    " is out of range [0, " + std::to_string(no_op_) + "]");
      }
    }
    bool invalid = false;
    for (std::size_t m = 0; m < machines_; ++m) {
      invalid = invalid || !action_mask_[m * (jobs_ + 1) + static_cast<std::size_t>(action.discrete(m))];
    }
    next_ops();
    // _update_machines
    std::fill(new_job_.begin(), new_job_.end(), std::uint8_t{0});
    for (std::size_t m = 0; m < machines_; ++m) {
      const auto a = static_cast<std::int32_t>(action.discrete(m));
      std::int32_t left = remaining_[m];
      if (a == no_op_) {
        if (remaining_[m] == 0) machine_job_[m] = no_op_;
      } else {
        const auto j = static_cast<std::size_t>(a);
        machine_job_[m] = a;
        left = durations_[j * ops_ + static_cast<std::size_t>(next_op_[j])];
        new_job_[j] = 1;  // _set_busy
      }
      remaining_[m] = left > 0 ? left - 1 : 0;
    }
    // _update_operations: each job some machine took has its next operation scheduled now
    for (std::size_t j = 0; j < jobs_; ++j) {
      if (!new_job_[j]) continue;
      const std::size_t at = j * ops_ + static_cast<std::size_t>(next_op_[j]);
      scheduled_[at] = step_count_;
      ops_mask_[at] = 0;
    }
    update_action_mask();
    ++step_count_;
    bool all_idle = true, all_free = true;
    for (std::size_t m = 0; m < machines_; ++m) {
      all_idle = all_idle && machine_job_[m] == no_op_ && remaining_[m] == 0;
      all_free = all_free && remaining_[m] == 0;
    }
    bool any_op = false;
    for (std::uint8_t f : ops_mask_) any_op = any_op || f != 0;
    const bool finished = !any_op && all_free;
    rewards[0] = invalid || all_idle ? penalty_ : -1.0f;
    return Outcome{.terminated = invalid || all_idle || finished, .truncated = false};
  }

  void observe(const Output& out) const override {
    const std::size_t n = jobs_ * ops_;
    std::memcpy(out.obs_as<std::int32_t>(0), machine_ids_.data(), n * sizeof(std::int32_t));
    std::memcpy(out.obs_as<std::int32_t>(1), durations_.data(), n * sizeof(std::int32_t));
    std::memcpy(out.obs_as<bool>(2), ops_mask_.data(), n);  // bytes 0 or 1, as a bool's
    std::memcpy(out.obs_as<std::int32_t>(3), machine_job_.data(), machines_ * sizeof(std::int32_t));
    std::memcpy(out.obs_as<std::int32_t>(4), remaining_.data(), machines_ * sizeof(std::int32_t));
    std::memcpy(out.obs_as<bool>(5), action_mask_.data(), action_mask_.size());
  }

  void render(const Frame& frame) override { draw(Canvas(frame)); }

  std::string save() const override {
    std::string bytes;
    const std::size_t n = jobs_ * ops_;
    append(bytes, machine_ids_.data(), n * sizeof(std::int32_t));
    append(bytes, durations_.data(), n * sizeof(std::int32_t));
    append(bytes, ops_mask_.data(), n);
    append(bytes, machine_job_.data(), machines_ * sizeof(std::int32_t));
    append(bytes, remaining_.data(), machines_ * sizeof(std::int32_t));
    append(bytes, step_count_);
    append(bytes, scheduled_.data(), n * sizeof(std::int32_t));
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader r(bytes, "JobShop");
    const std::size_t n = jobs_ * ops_;
    std::vector<std::int32_t> machine_ids = read_values<std::int32_t>(r, n, "ops_machine_ids");
    std::vector<std::int32_t> durations = read_values<std::int32_t>(r, n, "ops_durations");
    std::vector<std::uint8_t> ops_mask = read_values<std::uint8_t>(r, n, "ops_mask");
    std::vector<std::int32_t> machine_job = read_values<std::int32_t>(r, machines_, "machines_job_ids");
    std::vector<std::int32_t> remaining = read_values<std::int32_t>(r, machines_, "machines_remaining_times");
    const auto step_count = r.read<std::int32_t>("step_count");
    std::vector<std::int32_t> scheduled = read_values<std::int32_t>(r, n, "scheduled_times");
    const Key key = read_key(r);
    r.done();
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    for (std::size_t j = 0; j < jobs_; ++j) {
      for (std::size_t k = 0; k < ops_; ++k) {
        const std::size_t at = j * ops_ + k;
        // An operation is padding (machine and duration -1, never to schedule) or real; the first is real.
        if (machine_ids[at] == -1 && k > 0) {
          check_range(durations[at], -1, -1, "ops_durations (of a padded op)");
          check_range(ops_mask[at], 0, 0, "ops_mask (of a padded op)");
        } else {
          check_range(machine_ids[at], 0, o_.num_machines - 1, "ops_machine_ids");
          check_range(durations[at], 1, o_.max_op_duration, "ops_durations");
          check_range(ops_mask[at], 0, 1, "ops_mask");
        }
        check_range(scheduled[at], -1, step_count, "scheduled_times");
      }
    }
    for (std::size_t m = 0; m < machines_; ++m) {
      check_range(machine_job[m], 0, o_.num_jobs, "machines_job_ids");
      check_range(remaining[m], 0, o_.max_op_duration, "machines_remaining_times");
    }
    machine_ids_ = std::move(machine_ids);
    durations_ = std::move(durations);
    ops_mask_ = std::move(ops_mask);
    machine_job_ = std::move(machine_job);
    remaining_ = std::move(remaining);
    scheduled_ = std::move(scheduled);
    step_count_ = step_count;
    state_key_ = key;
    update_action_mask();
  }

 private:
  // jnp.argmax(ops_mask, axis=-1): each job's first operation left, 0 when none is.
  void next_ops() {
    for (std::size_t j = 0; j < jobs_; ++j) {
      const std::uint8_t* row = &ops_mask_[j * ops_];
      std::int32_t first = 0;
      for (std::size_t k = 0; k < ops_; ++k) {
        if (row[k]) {
          first = static_cast<std::int32_t>(k);
          break;
        }
      }
      next_op_[j] = first;
    }
  }

  // _create_action_mask: machine m may take job j when it is free, j's next operation
  // needs m, no machine is still busy with j, and j has operations left; no-op always.
  void update_action_mask() {
    next_ops();
    std::fill(busy_job_.begin(), busy_job_.end(), std::uint8_t{0});
    for (std::size_t m = 0; m < machines_; ++m) {
      const std::int32_t j = machine_job_[m];
      if (remaining_[m] > 0 && j >= 0 && j < o_.num_jobs) busy_job_[static_cast<std::size_t>(j)] = 1;
    }
    std::fill(action_mask_.begin(), action_mask_.end(), std::uint8_t{0});
    for (std::size_t j = 0; j < jobs_; ++j) {
      const std::size_t at = j * ops_ + static_cast<std::size_t>(next_op_[j]);
      if (busy_job_[j] || !ops_mask_[at]) continue;  // busy, or finished (its first op left is none)
      const std::int32_t m = machine_ids_[at];
      if (m < 0 || remaining_[static_cast<std::size_t>(m)] != 0) continue;
      action_mask_[static_cast<std::size_t>(m) * (jobs_ + 1) + j] = 1;
    }
    for (std::size_t m = 0; m < machines_; ++m) action_mask_[m * (jobs_ + 1) + jobs_] = 1;
  }

  void draw(const Canvas& canvas) const {
    const double x_max = std::max(1, o_.num_jobs * o_.max_num_ops * o_.max_op_duration / o_.num_machines);
    const double y_span = o_.num_machines + 0.9;
    const auto px = [&](double t) { return static_cast<int>(std::lround(t / x_max * canvas.width())); };
    const auto py = [&](double m) {
      return static_cast<int>(std::lround((o_.num_machines - m) / y_span * canvas.height()));
    };
    canvas.fill(Rgb{255, 255, 255});
    if (10.0 / x_max * canvas.width() < 2.0) {  // the grid lines would touch: the chart's background is all grey
      canvas.fill(Rgb{176, 176, 176});
    } else {
      for (int t = 0; t < x_max; t += 10) canvas.rect(px(t), 0, px(t) + 1, canvas.height(), Rgb{176, 176, 176});
    }
    for (std::size_t j = 0; j < jobs_; ++j) {
      for (std::size_t op = 0; op < ops_; ++op) {
        const std::int32_t start = scheduled_[j * ops_ + op];
        if (start < 0) continue;
        const std::int32_t m = machine_ids_[j * ops_ + op];
        const int x0 = px(start);
        const int x1 = px(start + durations_[j * ops_ + op]);
        const int y0 = py(m + 0.4);
        const int y1 = py(m - 0.4);
        canvas.rect(x0, y0, x1 + 1, y1 + 1, Rgb{0, 0, 0});
        canvas.rect(x0 + 1, y0 + 1, x1, y1, hsv_entry(o_.num_jobs + 1, static_cast<int>(j)));
      }
    }
    const int now = px(step_count_);
    for (int y = 0; y < canvas.height(); y += 8) canvas.rect(now, y, now + 1, y + 4, Rgb{255, 0, 0});
  }

  const Options o_;
  const std::size_t jobs_, machines_, ops_;
  const std::int32_t no_op_;

  // jumanji's State
  std::vector<std::int32_t> machine_ids_;  // ops_machine_ids [job][op]
  std::vector<std::int32_t> durations_;    // ops_durations [job][op]
  std::vector<std::uint8_t> ops_mask_;     // [job][op]
  std::vector<std::int32_t> machine_job_;  // machines_job_ids
  std::vector<std::int32_t> remaining_;    // machines_remaining_times
  std::vector<std::int32_t> scheduled_;    // scheduled_times [job][op]
  std::int32_t step_count_ = 0;
  Key state_key_{};
  std::vector<std::uint8_t> action_mask_;  // [machine][job or no-op], derived

  // Scratch, sized once
  std::vector<std::int32_t> next_op_;
  std::vector<std::uint8_t> busy_job_;
  std::vector<std::uint8_t> new_job_;
  const float penalty_;
};

const bool registered = register_env_type({
    .name = "JumanjiJobShop",
    .options = {{"num_jobs", std::int64_t{20}, "RandomGenerator's num_jobs, 1..1000"},
                {"num_machines", std::int64_t{10}, "RandomGenerator's num_machines, 1..1000"},
                {"max_num_ops", std::int64_t{8}, "RandomGenerator's max_num_ops: a job's most operations, 1..1000"},
                {"max_op_duration", std::int64_t{6}, "RandomGenerator's max_op_duration: the longest op, 1..1000"}},
    .spec = job_shop_spec,
    .create = make_env<JobShop>(),
});

}  // namespace

}  // namespace rlpool::jumanji
