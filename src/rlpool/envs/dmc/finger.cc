// Finger domain (tasks: spin, turn_easy, turn_hard), as dm_control 1.0.50's suite/finger.py.
#include <cmath>
#include <stdexcept>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEasyTargetSize = 0.07;
constexpr double kHardTargetSize = 0.03;
constexpr double kSpinVelocity = 15.0;
constexpr double kSpinHingeDamping = 0.03;
constexpr int kMaxAttempts = 1000;
const std::vector<std::string> kTasks = {"spin", "turn_easy", "turn_hard"};

EnvSpec spec(const mjModel* m, const Config& c) {
  std::vector<ObsEntry> obs = {{"position", {4}}, {"velocity", {3}}, {"touch", {2}}};
  if (task_name(c, kTasks) != "spin") {
    obs.push_back({"target_position", {2}});
    obs.push_back({"dist_to_target", {}});
  }
  return make_spec(m, obs);
}

class Finger final : public DmcEnv {
 public:
  explicit Finger(const Config& c)
      : DmcEnv(c, 2, kWritesModel),
        spin_(task_name(c, kTasks) == "spin"),
        target_radius_(task_name(c, kTasks) == "turn_easy" ? kEasyTargetSize : kHardTargetSize),
        target_site_(id(mjOBJ_SITE, "target")),
        tip_site_(id(mjOBJ_SITE, "tip")),
        hinge_(id(mjOBJ_JOINT, "hinge")),
        cap1_(id(mjOBJ_GEOM, "cap1")),
        s_proximal_(id(mjOBJ_SENSOR, "proximal")),
        s_distal_(id(mjOBJ_SENSOR, "distal")),
        s_proximal_vel_(id(mjOBJ_SENSOR, "proximal_velocity")),
        s_distal_vel_(id(mjOBJ_SENSOR, "distal_velocity")),
        s_hinge_vel_(id(mjOBJ_SENSOR, "hinge_velocity")),
        s_tip_(id(mjOBJ_SENSOR, "tip")),
        s_target_(id(mjOBJ_SENSOR, "target")),
        s_spinner_(id(mjOBJ_SENSOR, "spinner")),
        s_touchtop_(id(mjOBJ_SENSOR, "touchtop")),
        s_touchbottom_(id(mjOBJ_SENSOR, "touchbottom")) {
    // Turn moves the target every episode (spin leaves it where it is).
    add_task_state(m_->site_pos + 3 * target_site_, 3);
  }

 private:
  void initialize_episode(Rng& rng) override {
    if (spin_) {
      // Spin.initialize_episode: hide target and tip, lower the hinge's damping.
      m_->site_rgba[4 * target_site_ + 3] = 0.0f;
      m_->site_rgba[4 * tip_site_ + 3] = 0.0f;
      m_->dof_damping[m_->jnt_dofadr[hinge_]] = kSpinHingeDamping;
    } else {
      // Turn.initialize_episode: target on the circle the tip sweeps around the hinge.
      const double target_angle = rng.uniform(-kPi, kPi);
      const double* anchor = d_->xanchor + 3 * hinge_;
      const double* size = m_->geom_size + 3 * cap1_;
      const double radius = size[0] + size[1] + size[2];
      m_->site_pos[3 * target_site_] = anchor[0] + radius * std::sin(target_angle);
      m_->site_pos[3 * target_site_ + 2] = anchor[2] + radius * std::cos(target_angle);
      m_->site_size[3 * target_site_] = target_radius_;
    }
    set_random_joint_angles(rng);
  }

  // _set_random_joint_angles: random joint angles until nothing is in contact.
  void set_random_joint_angles(Rng& rng) {
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      randomize_limited_and_rotational_joints(m_, d_, rng);
      after_reset();
      if (d_->ncon == 0) return;
    }
    throw std::runtime_error("Could not find a collision-free state after 1000 attempts");
  }

  // Physics.tip_position / target_position: (x, z) relative to the hinge.
  void relative_xz(int sensor_id, double v[2]) const {
    const double* p = sensor(sensor_id);
    const double* spinner = sensor(s_spinner_);
    v[0] = p[0] - spinner[0];
    v[1] = p[2] - spinner[2];
  }

  double dist_to_target() const {
    double tip[2], target[2];
    relative_xz(s_tip_, tip);
    relative_xz(s_target_, target);
    const double dx = target[0] - tip[0];
    const double dz = target[1] - tip[1];
    return std::sqrt(dx * dx + dz * dz) - m_->site_size[3 * target_site_];
  }

  double get_reward() override {
    if (spin_) return sensor(s_hinge_vel_)[0] <= -kSpinVelocity ? 1.0 : 0.0;
    return dist_to_target() <= 0.0 ? 1.0 : 0.0;
  }

  void get_observation(ObsWriter& w) override {
    double tip[2];
    relative_xz(s_tip_, tip);
    // bounded_position: the finger's joints, the hinge angle as the tip's position.
    w.next().put(sensor(s_proximal_)[0]).put(sensor(s_distal_)[0]).put(tip, 2);
    w.next().put(sensor(s_proximal_vel_)[0]).put(sensor(s_distal_vel_)[0]).put(sensor(s_hinge_vel_)[0]);
    w.next().put(std::log1p(sensor(s_touchtop_)[0])).put(std::log1p(sensor(s_touchbottom_)[0]));
    if (!spin_) {
      double target[2];
      relative_xz(s_target_, target);
      w.next().put(target, 2);
      w.next().put(dist_to_target());
    }
  }

  const bool spin_;
  const double target_radius_;
  const int target_site_, tip_site_, hinge_, cap1_;
  const int s_proximal_, s_distal_, s_proximal_vel_, s_distal_vel_, s_hinge_vel_;
  const int s_tip_, s_target_, s_spinner_, s_touchtop_, s_touchbottom_;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcFinger", .options = base_options("spin"), .spec = model_spec(spec), .create = make_env<Finger>()});

}  // namespace rlpool::dmc
