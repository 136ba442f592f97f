// MyoSuite's joint-posing tasks: myosuite 2.11.6's PoseEnvV0
// (envs/myo/myobase/pose_v0.py) and its registered ids
// (envs/myo/myobase/__init__.py: the elbow, elbow with exoskeleton, finger,
// motor finger and hand poses, the ten ASL hand poses and the random hand
// pose drawn between them).
//
// The observation is qpos, qvel * dt, the pose error (target - qpos) and the
// muscles' activations; the reward terms are pose (-|error|), bonus (within
// pose_thd and 1.5 pose_thd), penalty (beyond 2 pi) and act_reg (-|act| / na).
// A reset draws, in order: the carried weight (the Exo Random ids), the
// target (target_type "generate": one uniform per target joint, even where a
// "Fixed" id's range is a single value), and the initial joints (reset_type
// "random": one uniform per joint over its range).
// The reward that torso.cc shares (pose.h) is defined here.
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/pose.h"

namespace rlpool::myosuite {

PoseRewardEnv::PoseRewardEnv(const Setup& setup, const TaskBase& base)
    : MyoEnv(setup, base, {"pose", "bonus", "penalty", "act_reg"}) {}

void PoseRewardEnv::pose_rewards(double pose_dist, double pose_thd, double far_th, Rewards& r) const {
  const mjModel* mm = m();
  const double act_mag = mm->na != 0 ? numpy_norm(d()->act, mm->na) / mm->na : 0.0;
  r.terms[0] = -1.0 * pose_dist;
  r.terms[1] = 1.0 * (pose_dist < pose_thd) + 1.0 * (pose_dist < 1.5 * pose_thd);
  r.terms[2] = -1.0 * (pose_dist > far_th);
  r.terms[3] = -1.0 * act_mag;
  r.sparse = -1.0 * pose_dist;
  r.solved = pose_dist < pose_thd;
  r.done = pose_dist > far_th;
}

namespace {

struct PoseParams {
  // target_jnt_range (joint name, low, high), in order; empty where target_jnt_value is given.
  std::vector<std::pair<std::string, std::array<double, 2>>> target_jnt_range;
  std::vector<double> target_jnt_value;
  std::vector<std::string> viz_site_targets;
  bool random_reset = false;     // reset_type "random" (else "init")
  bool generate_target = true;   // target_type "generate" (else "fixed")
  double pose_thd = 0.35;
  std::string weight_bodyname;   // the Exo Random ids' carried weight
  std::array<double, 2> weight_range{};
};

class PoseEnv : public PoseRewardEnv {
 public:
  PoseEnv(const Setup& setup, const TaskBase& base, PoseParams params)
      : PoseRewardEnv(setup, base), p_(std::move(params)) {
    for (const std::string& s : p_.viz_site_targets) {
      tip_sids_.push_back(site(s));
      target_sids_.push_back(site(s + "_target"));
    }
    if (!p_.weight_bodyname.empty()) weight_body_ = body(p_.weight_bodyname);
    // _setup: a range's middle is the target until the first reset draws one.
    if (!p_.target_jnt_range.empty()) {
      target_.clear();
      for (const auto& [name, range] : p_.target_jnt_range) {
        joint(name);  // the joint must exist, as myosuite's joint_name2id asks
        target_.push_back((range[0] + range[1]) / 2.0);
      }
    } else {
      target_ = p_.target_jnt_value;
    }
    const int nq = m()->nq;
    if (static_cast<int>(target_.size()) != nq && target_.size() != 1) {
      throw std::invalid_argument(setup.id + ": the target pose has " + std::to_string(target_.size()) +
                                  " joints, the model " + std::to_string(nq));
    }
    if (p_.random_reset && m()->njnt != nq) {
      throw std::invalid_argument(setup.id + ": a random reset needs one qpos per joint");
    }
    keep(&target_);
  }

 protected:
  double target(int i) const { return target_.size() == 1 ? target_[0] : target_[static_cast<std::size_t>(i)]; }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq);
    put_qvel_dt(obs);
    for (int i = 0; i < mm->nq; ++i) obs.push_back(target(i) - dd->qpos[i]);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    err_.resize(static_cast<std::size_t>(mm->nq));
    for (int i = 0; i < mm->nq; ++i) err_[static_cast<std::size_t>(i)] = target(i) - dd->qpos[i];
    pose_rewards(numpy_norm(err_.data(), mm->nq), p_.pose_thd, 4 * M_PI / 2, r);
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    mjModel* mm = m();
    mjData* dd = d();
    if (weight_body_ >= 0) {
      const double weight = rng().uniform(p_.weight_range[0], p_.weight_range[1]);
      set_body_mass(weight_body_, weight);
      geom_size(mm->body_geomadr[weight_body_])[0] = 0.01 + 2.5 * weight / 100;
    }
    // update_target: the target pose (drawn or fixed) put in qpos to find where the tips would be, which is
    // where the target sites go. The state it restores afterwards is reset anyway.
    if (p_.generate_target) {
      for (std::size_t i = 0; i < p_.target_jnt_range.size(); ++i) {
        target_[i] = rng().uniform(p_.target_jnt_range[i].second[0], p_.target_jnt_range[i].second[1]);
      }
    }
    for (int i = 0; i < mm->nq; ++i) dd->qpos[i] = target(i);
    forward();
    for (std::size_t i = 0; i < tip_sids_.size(); ++i) {
      const double* tip = dd->site_xpos + 3 * tip_sids_[i];
      std::copy(tip, tip + 3, site_pos(target_sids_[i]));
    }
    if (p_.random_reset) {
      for (int j = 0; j < mm->njnt; ++j) qpos[static_cast<std::size_t>(j)] = rng().uniform(mm->jnt_range[2 * j], mm->jnt_range[2 * j + 1]);
    }
  }

 private:
  const PoseParams p_;
  std::vector<int> tip_sids_, target_sids_;
  int weight_body_ = -1;
  std::vector<double> target_, err_;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"pose", 1.0}, {"bonus", 4.0}, {"act_reg", 1.0}, {"penalty", 50}};
const std::vector<std::pair<std::string, double>> kExoWeights = {
    {"pose", 1.0}, {"bonus", 4.0}, {"act_reg", 5.0}, {"penalty", 50}};

constexpr const char* kElbow = "envs/myo/assets/elbow/myoelbow_1dof6muscles.xml";
constexpr const char* kElbowExo = "envs/myo/assets/elbow/myoelbow_1dof6muscles_1dofexo.xml";
constexpr const char* kMotorFinger = "simhive/myo_sim/finger/motorfinger_v0.xml";
constexpr const char* kFinger = "simhive/myo_sim/finger/myofinger_v0.xml";
constexpr const char* kHand = "envs/myo/assets/hand/myohand_pose.xml";

// The hand model's joints, in jnt_namesHand's order, and the ten ASL poses (ASL_qpos) over them.
const std::vector<std::string> kHandJoints = {
    "pro_sup",      "deviation",   "flexion",     "cmc_abduction", "cmc_flexion",    "mp_flexion",
    "ip_flexion",   "mcp2_flexion", "mcp2_abduction", "pm2_flexion", "md2_flexion",  "mcp3_flexion",
    "mcp3_abduction", "pm3_flexion", "md3_flexion", "mcp4_flexion", "mcp4_abduction", "pm4_flexion",
    "md4_flexion",  "mcp5_flexion", "mcp5_abduction", "pm5_flexion", "md5_flexion"};
const std::vector<std::vector<double>> kAslPoses = {
    {0, 0, 0, 0.5624, 0.28272, -0.75573, -1.309, 1.30045, -0.006982, 1.45492, 0.998897, 1.26466, 0, 1.40604,
     0.227795, 1.07614, -0.020944, 1.46103, 0.06284, 0.83263, -0.14399, 1.571, 1.38248},
    {0, 0, 0, 0.0248, 0.04536, -0.7854, -1.309, 0.366605, 0.010473, 0.269258, 0.111722, 1.48459, 0, 1.45318,
     1.44532, 1.44532, -0.204204, 1.46103, 1.44532, 1.48459, -0.2618, 1.47674, 1.48459},
    {0, 0, 0, 0.0248, 0.04536, -0.7854, -1.13447, 0.514973, 0.010473, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 1.44532, -0.204204, 1.46103, 1.44532, 1.48459, -0.2618, 1.47674, 1.48459},
    {0, 0, 0, 0.3384, 0.25305, 0.01569, -0.0262045, 0.645885, 0.010473, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 1.571, -0.036652, 1.52387, 1.45318, 1.40604, -0.068068, 1.39033, 1.571},
    {0, 0, 0, 0.6392, -0.147495, -0.7854, -1.309, 0.637158, 0.010473, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 0.306345, -0.010472, 0.400605, 0.133535, 0.21994, -0.068068, 0.274925, 0.01571},
    {0, 0, 0, 0.3384, 0.25305, 0.01569, -0.0262045, 0.645885, 0.010473, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 0.306345, -0.010472, 0.400605, 0.133535, 0.21994, -0.068068, 0.274925, 0.01571},
    {0, 0, 0, 0.6392, -0.147495, -0.7854, -1.309, 0.637158, 0.010473, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 0.306345, -0.010472, 0.400605, 0.133535, 1.1861, -0.2618, 1.35891, 1.48459},
    {0, 0, 0, 0.524, 0.01569, -0.7854, -1.309, 0.645885, -0.006982, 0.128305, 0.111722, 0.510575, 0, 0.37704,
     0.117825, 1.28036, -0.115192, 1.52387, 1.45318, 0.432025, -0.068068, 0.18852, 0.149245},
    {0, 0, 0, 0.428, 0.22338, -0.7854, -1.309, 0.645885, -0.006982, 0.128305, 0.194636, 1.39033, 0, 1.08399,
     0.573415, 0.667675, -0.020944, 0, 0.06284, 0.432025, -0.068068, 0.18852, 0.149245},
    {0, 0, 0, 0.5624, 0.28272, -0.75573, -1.309, 1.30045, -0.006982, 1.45492, 0.998897, 0.39275, 0, 0.18852,
     0.227795, 0.667675, -0.020944, 0, 0.06284, 0.432025, -0.068068, 0.18852, 0.149245},
};
// myoHandPoseFixed-v0's target.
const std::vector<double> kHandPoseFixed = {0, 0, 0, -0.0904, 0.0824475, -0.681555, -0.514888, 0, -0.013964,
                                            -0.0458132, 0, 0.67553, -0.020944, 0.76979, 0.65982, 0, 0, 0, 0,
                                            0.479155, -0.099484, 0.95831, 0};
const std::vector<std::string> kHandTips = {"THtip", "IFtip", "MFtip", "RFtip", "LFtip"};

using Range = std::vector<std::pair<std::string, std::array<double, 2>>>;

bool add(const std::string& id, const char* model, int frame_skip, const std::vector<std::pair<std::string, double>>& w,
         PoseParams params) {
  return register_task(id, {{model, frame_skip, w}, make_task<PoseEnv>(std::move(params))});
}

bool register_all() {
  const Range elbow_fixed = {{"r_elbow_flex", {2, 2}}}, elbow_random = {{"r_elbow_flex", {0, 2.27}}};
  const auto elbow = [](const Range& range) {
    return PoseParams{.target_jnt_range = range, .viz_site_targets = {"wrist"}, .random_reset = true, .pose_thd = 0.175};
  };
  add("myoElbowPose1D6MFixed-v0", kElbow, 10, kWeights, elbow(elbow_fixed));
  add("myoElbowPose1D6MRandom-v0", kElbow, 10, kWeights, elbow(elbow_random));
  add("myoElbowPose1D6MExoFixed-v0", kElbowExo, 10, kExoWeights, elbow(elbow_fixed));
  PoseParams exo_random = elbow(elbow_random);
  exo_random.weight_bodyname = "carry_weight";
  exo_random.weight_range = {0.1, 2};
  add("myoElbowPose1D6MExoRandom-v0", kElbowExo, 10, kExoWeights, exo_random);

  const Range finger_fixed = {{"IFadb", {0, 0}}, {"IFmcp", {0, 0}}, {"IFpip", {0.75, 0.75}}, {"IFdip", {0.75, 0.75}}};
  const Range finger_random = {{"IFadb", {-0.2, 0.2}}, {"IFmcp", {-0.4, 1}}, {"IFpip", {0.1, 1}}, {"IFdip", {0.1, 1}}};
  const auto finger = [](const Range& range) {
    return PoseParams{.target_jnt_range = range, .viz_site_targets = {"IFtip"}};
  };
  add("motorFingerPoseFixed-v0", kMotorFinger, 5, kWeights, finger(finger_fixed));
  add("motorFingerPoseRandom-v0", kMotorFinger, 5, kWeights, finger(finger_random));
  add("myoFingerPoseFixed-v0", kFinger, 10, kWeights, finger(finger_fixed));
  add("myoFingerPoseRandom-v0", kFinger, 10, kWeights, finger(finger_random));

  const auto hand_fixed = [](const std::vector<double>& value) {
    return PoseParams{.target_jnt_value = value, .viz_site_targets = kHandTips, .generate_target = false, .pose_thd = 0.7};
  };
  add("myoHandPoseFixed-v0", kHand, 10, kWeights, hand_fixed(kHandPoseFixed));
  for (std::size_t k = 0; k < kAslPoses.size(); ++k) {
    add("myoHandPose" + std::to_string(k) + "Fixed-v0", kHand, 10, kWeights, hand_fixed(kAslPoses[k]));
  }
  // myoHandPoseRandom-v0: each joint between the smallest and largest of the ASL poses.
  Range hand_range;
  for (std::size_t j = 0; j < kHandJoints.size(); ++j) {
    std::array<double, 2> range{kAslPoses[0][j], kAslPoses[0][j]};
    for (const auto& pose : kAslPoses) range = {std::min(range[0], pose[j]), std::max(range[1], pose[j])};
    hand_range.emplace_back(kHandJoints[j], range);
  }
  add("myoHandPoseRandom-v0", kHand, 10, kWeights,
      PoseParams{.target_jnt_range = hand_range, .viz_site_targets = kHandTips, .random_reset = true, .pose_thd = 0.7});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
