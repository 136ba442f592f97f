// MyoSuite's torso-posing tasks: myosuite 2.11.6's TorsoEnvV0
// (envs/myo/myobase/torso_v0.py) and its registered ids
// (envs/myo/myobase/__init__.py: myoTorsoPoseFixed-v0 and
// myoTorsoExoPoseFixed-v0, frame_skip 5, the same 18 target joints).
//
// The target is the middle of each target_jnt_range entry (the class never
// draws one), compared position by position with the first qpos entries as
// upstream's get_obs_dict does (qpos[:18]). The observation is qpos,
// qvel * dt, the pose error (target - qpos[:18]) and the muscles'
// activations; the reward terms are pose (-|error|), bonus (within pose_thd
// and 1.5 pose_thd), penalty (beyond pi, which also ends the episode) and
// act_reg (-|act| / na); weighted_reward_keys also weighs done, by 0.
// A reset draws nothing (reset_type "init": Robot.reset to init_qpos).
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/pose.h"

namespace rlpool::myosuite {
namespace {

struct TorsoParams {
  // target_jnt_range (joint name, low, high), in order.
  std::vector<std::pair<std::string, std::array<double, 2>>> target_jnt_range;
  double pose_thd = 0.25;
};

class TorsoEnv : public PoseRewardEnv {
 public:
  TorsoEnv(const Setup& setup, const TaskBase& base, TorsoParams params)
      : PoseRewardEnv(setup, base), p_(std::move(params)) {
    // _setup: target_jnt_value = np.mean(target_jnt_range, axis=1); each joint must exist.
    for (const auto& [name, range] : p_.target_jnt_range) {
      joint(name);
      target_.push_back((range[0] + range[1]) / 2.0);
    }
    if (static_cast<int>(target_.size()) > m()->nq) {
      throw std::invalid_argument(setup.id + ": the target pose has " + std::to_string(target_.size()) +
                                  " joints, the model's qpos " + std::to_string(m()->nq));
    }
  }

 protected:
  // obs_dict["pose_err"]: target - qpos[:len(target)].
  void pose_err(std::vector<double>& err) const {
    err.clear();
    for (std::size_t i = 0; i < target_.size(); ++i) err.push_back(target_[i] - d()->qpos[i]);
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq);
    put_qvel_dt(obs);
    pose_err(err_);
    obs.insert(obs.end(), err_.begin(), err_.end());
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    pose_err(err_);
    pose_rewards(numpy_norm(err_.data(), static_cast<int>(err_.size())), p_.pose_thd, M_PI, r);
  }

  void reset_task(std::vector<double>& /*qpos*/, std::vector<double>& /*qvel*/) override {}

 private:
  const TorsoParams p_;
  std::vector<double> target_, err_;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"pose", 1.0}, {"bonus", 4.0}, {"act_reg", 1.0}, {"penalty", 50}, {"done", 0}};

constexpr const char* kTorso = "simhive/myo_sim/torso/myotorso.xml";
constexpr const char* kTorsoExo = "simhive/myo_sim/torso/myotorso_exosuit.xml";

bool register_all() {
  // Both ids' target_jnt_range: lat_bending in [-0.1, 0.1], every other joint at 0.
  std::vector<std::pair<std::string, std::array<double, 2>>> range;
  for (const char* name : {"flex_extension", "lat_bending", "axial_rotation", "Abs_t1", "Abs_t2", "Abs_r3",
                           "L4_L5_FE", "L4_L5_LB", "L4_L5_AR", "L3_L4_FE", "L3_L4_LB", "L3_L4_AR", "L2_L3_FE",
                           "L2_L3_LB", "L2_L3_AR", "L1_L2_FE", "L1_L2_LB", "L1_L2_AR"}) {
    range.emplace_back(name, std::string(name) == "lat_bending" ? std::array<double, 2>{-0.1, 0.1}
                                                                : std::array<double, 2>{0.0, 0.0});
  }
  register_task("myoTorsoPoseFixed-v0",
                {{kTorso, 5, kWeights}, make_task<TorsoEnv>(TorsoParams{.target_jnt_range = range})});
  register_task("myoTorsoExoPoseFixed-v0",
                {{kTorsoExo, 5, kWeights}, make_task<TorsoEnv>(TorsoParams{.target_jnt_range = range})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
