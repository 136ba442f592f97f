// Humanoid_CMU domain (tasks: stand, walk, run), as dm_control 1.0.50's
// suite/humanoid_CMU.py.
#include <array>
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"stand", "walk", "run"};
constexpr double kStandHeight = 1.4;
constexpr double kWalkSpeed = 1.0;
constexpr double kRunSpeed = 10.0;
// The free root joint's 7 qpos entries are not among the joint angles.
constexpr int kRootQpos = 7;

double move_speed(const Config& c) {
  const std::string task = task_name(c, kTasks);
  return task == "stand" ? 0.0 : task == "walk" ? kWalkSpeed : kRunSpeed;
}

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"joint_angles", {m->nq - kRootQpos}},
                       {"head_height", {}},
                       {"extremities", {12}},
                       {"torso_vertical", {3}},
                       {"com_velocity", {3}},
                       {"velocity", {m->nv}}});
}

class HumanoidCMU final : public DmcEnv {
 public:
  explicit HumanoidCMU(const Config& c)
      : DmcEnv(c, 10),
        move_speed_(move_speed(c)),
        thorax_(id(mjOBJ_BODY, "thorax")),
        head_(id(mjOBJ_BODY, "head")),
        limbs_{id(mjOBJ_BODY, "lhand"), id(mjOBJ_BODY, "lfoot"), id(mjOBJ_BODY, "rhand"), id(mjOBJ_BODY, "rfoot")},
        com_velocity_(id(mjOBJ_SENSOR, "thorax_subtreelinvel")) {}

 private:
  void initialize_episode(Rng& rng) override {
    // A random collision-free configuration.
    bool penetrating = true;
    while (penetrating) {
      randomize_limited_and_rotational_joints(m_, d_, rng);
      after_reset();
      penetrating = d_->ncon > 0;
    }
  }

  double head_height() const { return xpos(head_)[2]; }

  double get_reward() override {
    const double standing = tolerance(head_height(), kStandHeight, INFINITY, kStandHeight / 4);
    // thorax_upright: xmat['thorax', 'zy'].
    const double upright = tolerance(xmat(thorax_)[7], 0.9, INFINITY, 1.9, Sigmoid::kLinear, 0.0);
    const double stand_reward = standing * upright;
    double small_control = 0.0;
    for (int i = 0; i < m_->nu; ++i) small_control += tolerance(d_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    small_control = (4 + small_control / m_->nu) / 5;
    const double* com_velocity = sensor(com_velocity_);
    if (move_speed_ == 0.0) {
      const double dont_move =
          (tolerance(com_velocity[0], 0.0, 0.0, 2.0) + tolerance(com_velocity[1], 0.0, 0.0, 2.0)) / 2;
      return small_control * stand_reward * dont_move;
    }
    const double speed = std::hypot(com_velocity[0], com_velocity[1]);
    double move = tolerance(speed, move_speed_, INFINITY, move_speed_, Sigmoid::kLinear, 0.0);
    move = (5 * move + 1) / 6;
    return small_control * stand_reward * move;
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos + kRootQpos, m_->nq - kRootQpos);
    w.next().put(head_height());
    // extremities: limb positions relative to the thorax, in its frame (v . R).
    const double* frame = xmat(thorax_);
    const double* torso = xpos(thorax_);
    w.next();
    for (int limb : limbs_) {
      const double* p = xpos(limb);
      const double v[3] = {p[0] - torso[0], p[1] - torso[1], p[2] - torso[2]};
      for (int col = 0; col < 3; ++col) w.put(v[0] * frame[col] + v[1] * frame[3 + col] + v[2] * frame[6 + col]);
    }
    w.next().put(xmat(thorax_) + 6, 3);  // torso_vertical: zx, zy, zz
    w.next().put(sensor(com_velocity_), 3);
    w.next().put(d_->qvel, m_->nv);
  }

  const double move_speed_;
  const int thorax_;
  const int head_;
  const std::array<int, 4> limbs_;  // lhand, lfoot, rhand, rfoot
  const int com_velocity_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcHumanoidCMU",
                                                   .options = base_options("stand"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<HumanoidCMU>()});

}  // namespace rlpool::dmc
