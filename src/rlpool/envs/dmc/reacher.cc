// Reacher domain (tasks: easy, hard), as dm_control 1.0.50's suite/reacher.py.
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kBigTarget = 0.05;
constexpr double kSmallTarget = 0.015;
const std::vector<std::string> kTasks = {"easy", "hard"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq}}, {"to_target", {2}}, {"velocity", {m->nv}}});
}

class Reacher final : public DmcEnv {
 public:
  explicit Reacher(const Config& c)
      : DmcEnv(c, 1, kWritesModel),
        target_size_(task_name(c, kTasks) == "easy" ? kBigTarget : kSmallTarget),
        target_(id(mjOBJ_GEOM, "target")),
        finger_(id(mjOBJ_GEOM, "finger")) {
    // The target moves every episode.
    add_task_state(m_->geom_pos + 3 * target_, 3);
  }

 private:
  void initialize_episode(Rng& rng) override {
    m_->geom_size[3 * target_] = target_size_;
    randomize_limited_and_rotational_joints(m_, d_, rng);
    // Target uniform in angle and radius (as dm_control: not uniform in area).
    const double angle = rng.uniform(0.0, 2.0 * kPi);
    const double radius = rng.uniform(0.05, 0.20);
    m_->geom_pos[3 * target_] = radius * std::sin(angle);
    m_->geom_pos[3 * target_ + 1] = radius * std::cos(angle);
  }

  // Physics.finger_to_target: target minus finger, x and y.
  void finger_to_target(double v[2]) const {
    for (int i = 0; i < 2; ++i) v[i] = d_->geom_xpos[3 * target_ + i] - d_->geom_xpos[3 * finger_ + i];
  }

  double get_reward() override {
    double v[2];
    finger_to_target(v);
    const double radii = m_->geom_size[3 * target_] + m_->geom_size[3 * finger_];
    return tolerance(std::sqrt(v[0] * v[0] + v[1] * v[1]), 0.0, radii);
  }

  void get_observation(ObsWriter& w) override {
    double v[2];
    finger_to_target(v);
    w.next().put(d_->qpos, m_->nq);
    w.next().put(v, 2);
    w.next().put(d_->qvel, m_->nv);
  }

  const double target_size_;
  const int target_, finger_;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcReacher", .options = base_options("easy"), .spec = model_spec(spec), .create = make_env<Reacher>()});

}  // namespace rlpool::dmc
