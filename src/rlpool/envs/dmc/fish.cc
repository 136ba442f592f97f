// Fish domain (tasks: upright, swim), as dm_control 1.0.50's suite/fish.py.
#include <array>
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"upright", "swim"};
// _JOINTS: the tail's and fins' joints, in dm_control's order.
constexpr std::array<const char*, 7> kJoints = {"tail1",         "tail_twist",   "tail2",        "finright_roll",
                                                "finright_pitch", "finleft_roll", "finleft_pitch"};

EnvSpec spec(const mjModel* m, const Config& c) {
  std::vector<ObsEntry> obs = {{"joint_angles", {7}}, {"upright", {}}};
  if (task_name(c, kTasks) == "swim") obs.push_back({"target", {3}});
  obs.push_back({"velocity", {m->nv}});
  return make_spec(m, obs);
}

class Fish final : public DmcEnv {
 public:
  explicit Fish(const Config& c)
      : DmcEnv(c, 10, kWritesModel),
        swim_(task_name(c, kTasks) == "swim"),
        root_(m_->jnt_qposadr[id(mjOBJ_JOINT, "root")]),
        torso_(id(mjOBJ_BODY, "torso")),
        target_(id(mjOBJ_GEOM, "target")),
        mouth_(id(mjOBJ_GEOM, "mouth")) {
    for (std::size_t i = 0; i < kJoints.size(); ++i) {
      qpos_[i] = m_->jnt_qposadr[id(mjOBJ_JOINT, kJoints[i])];
    }
    // Swim moves the target every episode (upright leaves it where it is).
    add_task_state(m_->geom_pos + 3 * target_, 3);
  }

 private:
  void initialize_episode(Rng& rng) override {
    // Orientation uniform on the rotations: a normalised 4-D Gaussian.
    double quat[4];
    double norm2 = 0.0;
    for (double& q : quat) {
      q = rng.normal();
      norm2 += q * q;
    }
    const double norm = std::sqrt(norm2);
    for (int i = 0; i < 4; ++i) d_->qpos[root_ + 3 + i] = quat[i] / norm;
    for (int adr : qpos_) d_->qpos[adr] = rng.uniform(-0.2, 0.2);
    if (swim_) {
      double* pos = m_->geom_pos + 3 * target_;
      pos[0] = rng.uniform(-0.4, 0.4);
      pos[1] = rng.uniform(-0.4, 0.4);
      pos[2] = rng.uniform(0.1, 0.3);
    } else {
      m_->geom_rgba[4 * target_ + 3] = 0.0f;  // hidden: irrelevant to upright
    }
  }

  // Physics.upright: the torso's z axis projected on the world's.
  double upright() const { return xmat(torso_)[8]; }

  // Physics.mouth_to_target: in the mouth's frame (global vector times xmat).
  void mouth_to_target(double v[3]) const {
    const double* t = d_->geom_xpos + 3 * target_;
    const double* mo = d_->geom_xpos + 3 * mouth_;
    const double* r = d_->geom_xmat + 9 * mouth_;
    const double g[3] = {t[0] - mo[0], t[1] - mo[1], t[2] - mo[2]};
    for (int j = 0; j < 3; ++j) v[j] = g[0] * r[j] + g[1] * r[3 + j] + g[2] * r[6 + j];
  }

  double get_reward() override {
    if (!swim_) return tolerance(upright(), 1.0, 1.0, 1.0);
    const double radii = m_->geom_size[3 * mouth_] + m_->geom_size[3 * target_];
    double v[3];
    mouth_to_target(v);
    const double in_target = tolerance(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 0.0, radii, 2.0 * radii);
    const double is_upright = 0.5 * (upright() + 1.0);
    return (7.0 * in_target + is_upright) / 8.0;
  }

  void get_observation(ObsWriter& w) override {
    w.next();
    for (int adr : qpos_) w.put(d_->qpos[adr]);
    w.next().put(upright());
    if (swim_) {
      double v[3];
      mouth_to_target(v);
      w.next().put(v, 3);
    }
    w.next().put(d_->qvel, m_->nv);
  }

  const bool swim_;
  const int root_, torso_, target_, mouth_;
  std::array<int, 7> qpos_{};
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcFish", .options = base_options("upright"), .spec = model_spec(spec), .create = make_env<Fish>()});

}  // namespace rlpool::dmc
