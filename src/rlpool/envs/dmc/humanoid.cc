// Humanoid domain (tasks: stand, walk, run, run_pure_state), as dm_control
// 1.0.50's suite/humanoid.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kStandHeight = 1.4;
constexpr int kSubSteps = 5;  // control timestep .025 s / timestep .005 s
const std::vector<std::string> kTasks = {"stand", "walk", "run", "run_pure_state"};

double move_speed(const std::string& task) {
  if (task == "walk") return 1.0;
  if (task == "run" || task == "run_pure_state") return 10.0;
  return 0.0;  // stand
}

EnvSpec spec(const mjModel* m, const Config& c) {
  if (task_name(c, kTasks) == "run_pure_state") return make_spec(m, {{"position", {m->nq}}, {"velocity", {m->nv}}});
  return make_spec(m, {{"joint_angles", {m->nq - 7}},
                       {"head_height", {}},
                       {"extremities", {12}},
                       {"torso_vertical", {3}},
                       {"com_velocity", {3}},
                       {"velocity", {m->nv}}});
}

class Humanoid final : public DmcEnv {
 public:
  explicit Humanoid(const Config& c)
      : DmcEnv(c, kSubSteps),
        move_speed_(move_speed(task_name(c, kTasks))),
        pure_state_(task_name(c, kTasks) == "run_pure_state"),
        torso_(id(mjOBJ_BODY, "torso")),
        head_(id(mjOBJ_BODY, "head")),
        limbs_{id(mjOBJ_BODY, "left_hand"), id(mjOBJ_BODY, "left_foot"), id(mjOBJ_BODY, "right_hand"),
               id(mjOBJ_BODY, "right_foot")},
        com_velocity_(id(mjOBJ_SENSOR, "torso_subtreelinvel")) {}

 private:
  void initialize_episode(Rng& rng) override {
    // A collision-free random configuration: redraw while anything touches.
    do {
      randomize_limited_and_rotational_joints(m_, d_, rng);
      after_reset();
    } while (d_->ncon > 0);
  }

  double head_height() const { return xpos(head_)[2]; }

  double get_reward() override {
    const double standing = tolerance(head_height(), kStandHeight, INFINITY, kStandHeight / 4);
    const double upright = tolerance(xmat(torso_)[8], 0.9, INFINITY, 1.9, Sigmoid::kLinear, 0.0);
    const double stand_reward = standing * upright;
    double small_control = 0.0;
    for (int i = 0; i < m_->nu; ++i) small_control += tolerance(d_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    small_control = (4.0 + small_control / m_->nu) / 5.0;
    const double* v = sensor(com_velocity_);
    if (move_speed_ == 0.0) {
      const double dont_move = (tolerance(v[0], 0.0, 0.0, 2.0) + tolerance(v[1], 0.0, 0.0, 2.0)) / 2.0;
      return small_control * stand_reward * dont_move;
    }
    double move = tolerance(std::hypot(v[0], v[1]), move_speed_, INFINITY, move_speed_, Sigmoid::kLinear, 0.0);
    move = (5.0 * move + 1.0) / 6.0;
    return small_control * stand_reward * move;
  }

  void get_observation(ObsWriter& w) override {
    if (pure_state_) {
      w.next().put(d_->qpos, m_->nq);
      w.next().put(d_->qvel, m_->nv);
      return;
    }
    w.next().put(d_->qpos + 7, m_->nq - 7);  // without the free root joint
    w.next().put(head_height());
    // extremities: hands and feet relative to the torso, in its frame.
    const double* torso_pos = xpos(torso_);
    const double* r = xmat(torso_);
    w.next();
    for (int limb : limbs_) {
      const double* p = xpos(limb);
      const double d[3] = {p[0] - torso_pos[0], p[1] - torso_pos[1], p[2] - torso_pos[2]};
      for (int j = 0; j < 3; ++j) w.put(d[0] * r[j] + d[1] * r[3 + j] + d[2] * r[6 + j]);
    }
    w.next().put(r + 6, 3);  // torso xmat zx, zy, zz
    w.next().put(sensor(com_velocity_), 3);
    w.next().put(d_->qvel, m_->nv);
  }

  const double move_speed_;
  const bool pure_state_;
  const int torso_;
  const int head_;
  const int limbs_[4];
  const int com_velocity_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcHumanoid",
                                                   .options = base_options("stand"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Humanoid>()});

}  // namespace rlpool::dmc
