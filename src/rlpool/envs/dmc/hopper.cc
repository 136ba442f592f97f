// Hopper domain (tasks: stand, hop), as dm_control 1.0.50's suite/hopper.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kStandHeight = 0.6;
constexpr double kHopSpeed = 2.0;
constexpr int kSubSteps = 4;  // control timestep .02 s / timestep .005 s
const std::vector<std::string> kTasks = {"stand", "hop"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq - 1}}, {"velocity", {m->nv}}, {"touch", {2}}});
}

class Hopper final : public DmcEnv {
 public:
  explicit Hopper(const Config& c)
      : DmcEnv(c, kSubSteps),
        hopping_(task_name(c, kTasks) == "hop"),
        torso_(id(mjOBJ_BODY, "torso")),
        foot_(id(mjOBJ_BODY, "foot")),
        speed_(id(mjOBJ_SENSOR, "torso_subtreelinvel")),
        touch_toe_(id(mjOBJ_SENSOR, "touch_toe")),
        touch_heel_(id(mjOBJ_SENSOR, "touch_heel")) {}

 private:
  void initialize_episode(Rng& rng) override { randomize_limited_and_rotational_joints(m_, d_, rng); }

  // Height of the torso above the foot (centres of mass).
  double height() const { return d_->xipos[3 * torso_ + 2] - d_->xipos[3 * foot_ + 2]; }

  double get_reward() override {
    const double standing = tolerance(height(), kStandHeight, 2.0);
    if (hopping_) {
      return standing * tolerance(sensor(speed_)[0], kHopSpeed, INFINITY, kHopSpeed / 2, Sigmoid::kLinear, 0.5);
    }
    double small_control = 0.0;
    for (int i = 0; i < m_->nu; ++i) small_control += tolerance(d_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    small_control = (small_control / m_->nu + 4.0) / 5.0;
    return standing * small_control;
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos + 1, m_->nq - 1);  // without rootx: translation invariant
    w.next().put(d_->qvel, m_->nv);
    w.next().put(std::log1p(sensor(touch_toe_)[0])).put(std::log1p(sensor(touch_heel_)[0]));
  }

  const bool hopping_;
  const int torso_;
  const int foot_;
  const int speed_;
  const int touch_toe_;
  const int touch_heel_;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcHopper", .options = base_options("stand"), .spec = model_spec(spec), .create = make_env<Hopper>()});

}  // namespace rlpool::dmc
