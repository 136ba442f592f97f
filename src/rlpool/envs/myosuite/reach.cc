// MyoSuite's reaching tasks: myosuite 2.11.6's ReachEnvV0
// (envs/myo/myobase/reach_v0.py) and its registered ids
// (envs/myo/myobase/__init__.py: finger, motor finger and hand reaching,
// each with a fixed and a random target).
//
// Each tip site has a target site ("<tip>_target"), placed at a reset by one
// uniform draw of three numbers per site (in the ids' order, even where the
// range is a single point). The observation is qpos, qvel * dt, the tips'
// positions, the reach error (targets - tips) and the muscles' activations;
// the reward terms are reach (-|error|), bonus (within 2 near_th and near_th),
// act_reg (-|act| / na) and penalty (beyond far_th per site, counted from the
// third step on).
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/reach.h"

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

class ReachEnv : public MyoEnv {
 public:
  ReachEnv(const Setup& setup, const TaskBase& base, ReachParams params)
      : MyoEnv(setup, base, {"reach", "bonus", "act_reg", "penalty"}), p_(std::move(params)) {
    for (const auto& [name, range] : p_.target_reach_range) {
      tip_sids_.push_back(site(name));
      target_sids_.push_back(site(name + "_target"));
    }
  }

 protected:
  // obs_dict["reach_err"]: targets' positions minus tips' positions.
  void reach_err(std::vector<double>& err) const {
    const mjData* dd = d();
    err.clear();
    for (std::size_t i = 0; i < tip_sids_.size(); ++i) {
      for (int k = 0; k < 3; ++k) err.push_back(dd->site_xpos[3 * target_sids_[i] + k] - dd->site_xpos[3 * tip_sids_[i] + k]);
    }
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq);
    put_qvel_dt(obs);
    for (const int s : tip_sids_) obs.insert(obs.end(), dd->site_xpos + 3 * s, dd->site_xpos + 3 * s + 3);
    reach_err(err_);
    obs.insert(obs.end(), err_.begin(), err_.end());
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    reach_err(err_);
    const double reach_dist = numpy_norm(err_.data(), static_cast<int>(err_.size()));
    const double act_mag = mm->na != 0 ? numpy_norm(d()->act, mm->na) / mm->na : 0.0;
    const auto n = static_cast<double>(tip_sids_.size());
    const double far_th = d()->time > 2 * dt() ? p_.far_th * n : std::numeric_limits<double>::infinity();
    const double near_th = n * 0.0125;
    r.terms[0] = -1.0 * reach_dist;
    r.terms[1] = 1.0 * (reach_dist < 2 * near_th) + 1.0 * (reach_dist < near_th);
    r.terms[2] = -1.0 * act_mag;
    r.terms[3] = -1.0 * (reach_dist > far_th);
    r.sparse = -1.0 * reach_dist;
    r.solved = reach_dist < near_th;
    r.done = reach_dist > far_th;
  }

  void reset_task(std::vector<double>& /*qpos*/, std::vector<double>& /*qvel*/) override {
    // generate_target_pose: each target site's model position, drawn.
    for (std::size_t i = 0; i < tip_sids_.size(); ++i) {
      const auto& range = p_.target_reach_range[i].second;
      double* pos = site_pos(target_sids_[i]);
      for (int k = 0; k < 3; ++k) pos[k] = rng().uniform(range[0][static_cast<std::size_t>(k)], range[1][static_cast<std::size_t>(k)]);
    }
  }

 private:
  const ReachParams p_;
  std::vector<int> tip_sids_, target_sids_;
  std::vector<double> err_;
};


constexpr const char* kMotorFinger = "simhive/myo_sim/finger/motorfinger_v0.xml";
constexpr const char* kFinger = "simhive/myo_sim/finger/myofinger_v0.xml";
constexpr const char* kHand = "envs/myo/assets/hand/myohand_pose.xml";

using Point = std::array<double, 3>;
using Span = std::array<Point, 2>;

bool register_all() {
  const auto add = register_reach;
  const Span finger_fixed = {Point{0.2, 0.05, 0.20}, Point{0.2, 0.05, 0.20}};
  const Span finger_random = {Point{0.1, -0.1, 0.1}, Point{0.27, 0.1, 0.3}};
  add("motorFingerReachFixed-v0", kMotorFinger, 5, {{{"IFtip", finger_fixed}}});
  add("motorFingerReachRandom-v0", kMotorFinger, 5, {{{"IFtip", finger_random}}});
  add("myoFingerReachFixed-v0", kFinger, 10, {{{"IFtip", finger_fixed}}});
  add("myoFingerReachRandom-v0", kFinger, 10, {{{"IFtip", finger_random}}});

  // The hand's five tips: each target at a point, or in a box around it (myosuite's sums, as it writes them).
  const auto at = [](const Point& p) { return Span{p, p}; };
  add("myoHandReachFixed-v0", kHand, 10,
      {{{"THtip", at({-0.165, -0.537, 1.495})},
        {"IFtip", at({-0.151, -0.547, 1.455})},
        {"MFtip", at({-0.146, -0.547, 1.447})},
        {"RFtip", at({-0.148, -0.543, 1.445})},
        {"LFtip", at({-0.148, -0.528, 1.434})}},
       0.044});
  add("myoHandReachRandom-v0", kHand, 10,
      {{{"THtip", {Point{-0.165 - 0.020, -0.537 - 0.040, 1.495 - 0.040}, Point{-0.165 + 0.040, -0.537 + 0.020, 1.495 + 0.040}}},
        {"IFtip", {Point{-0.151 - 0.040, -0.547 - 0.020, 1.455 - 0.010}, Point{-0.151 + 0.040, -0.547 + 0.020, 1.455 + 0.010}}},
        {"MFtip", {Point{-0.146 - 0.040, -0.547 - 0.020, 1.447 - 0.010}, Point{-0.146 + 0.040, -0.547 + 0.020, 1.447 + 0.010}}},
        {"RFtip", {Point{-0.148 - 0.040, -0.543 - 0.020, 1.445 - 0.010}, Point{-0.148 + 0.040, -0.543 + 0.020, 1.445 + 0.010}}},
        {"LFtip", {Point{-0.148 - 0.040, -0.528 - 0.020, 1.434 - 0.010}, Point{-0.148 + 0.040, -0.528 + 0.020, 1.434 + 0.010}}}},
       0.034});
  return true;
}

const bool kRegistered = register_all();

}  // namespace

bool register_reach(const std::string& id, const char* model, int frame_skip, ReachParams params) {
  // DEFAULT_RWD_KEYS_AND_WEIGHTS (written here, not in a namespace-scope table: other files' static
  // initialisers register through this function, in whatever order the linker runs them).
  std::vector<std::pair<std::string, double>> weights = {{"reach", 1.0}, {"bonus", 4.0}, {"penalty", 50}};
  return register_task(id, {{model, frame_skip, std::move(weights)}, make_task<ReachEnv>(std::move(params))});
}

}  // namespace rlpool::myosuite
