// Walker domain (tasks: stand, walk, run), as dm_control 1.0.50's suite/walker.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kStandHeight = 1.2;
constexpr int kSubSteps = 10;  // control timestep .025 s / timestep .0025 s
const std::vector<std::string> kTasks = {"stand", "walk", "run"};

double move_speed(const std::string& task) {
  if (task == "walk") return 1.0;
  if (task == "run") return 8.0;
  return 0.0;  // stand
}

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"orientations", {2 * (m->nbody - 1)}}, {"height", {}}, {"velocity", {m->nv}}});
}

class Walker final : public DmcEnv {
 public:
  explicit Walker(const Config& c)
      : DmcEnv(c, kSubSteps),
        move_speed_(move_speed(task_name(c, kTasks))),
        torso_(id(mjOBJ_BODY, "torso")),
        speed_(id(mjOBJ_SENSOR, "torso_subtreelinvel")) {}

 private:
  void initialize_episode(Rng& rng) override { randomize_limited_and_rotational_joints(m_, d_, rng); }

  double torso_height() const { return xpos(torso_)[2]; }

  double get_reward() override {
    const double standing = tolerance(torso_height(), kStandHeight, INFINITY, kStandHeight / 2);
    const double upright = (1.0 + xmat(torso_)[8]) / 2.0;  // torso_upright: xmat zz
    const double stand_reward = (3.0 * standing + upright) / 4.0;
    if (move_speed_ == 0.0) return stand_reward;
    const double move_reward =
        tolerance(sensor(speed_)[0], move_speed_, INFINITY, move_speed_ / 2, Sigmoid::kLinear, 0.5);
    return stand_reward * (5.0 * move_reward + 1.0) / 6.0;
  }

  void get_observation(ObsWriter& w) override {
    // orientations: xmat[1:, ['xx', 'xz']] of every body but the world.
    w.next();
    for (int b = 1; b < m_->nbody; ++b) w.put(xmat(b)[0]).put(xmat(b)[2]);
    w.next().put(torso_height());
    w.next().put(d_->qvel, m_->nv);
  }

  const double move_speed_;
  const int torso_;
  const int speed_;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcWalker", .options = base_options("stand"), .spec = model_spec(spec), .create = make_env<Walker>()});

}  // namespace rlpool::dmc
