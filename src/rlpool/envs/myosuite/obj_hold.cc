// MyoSuite's object-holding tasks: myosuite 2.11.6's ObjHoldFixedEnvV0 and
// ObjHoldRandomEnvV0 (envs/myo/myobase/obj_hold_v0.py) and their registered
// ids (envs/myo/myobase/__init__.py: myoHandObjHoldFixed-v0 and
// myoHandObjHoldRandom-v0).
//
// The hand starts fully open and palm up (init_qpos zero for the hand but
// for qpos[0] = -1.5; the object's free joint as the model has it). The
// observation is the hand's qpos, its qvel * dt, the object site's position,
// the goal's offset from it and the muscles' activations (get_obs_dict); the
// reward terms are goal_dist (-|offset|), bonus (within 0.02 and 0.01),
// act_reg and penalty (dropped: beyond 0.3, which also ends the episode).
// The fixed id draws nothing at a reset. The random id draws, in order: the
// goal site's position (three uniforms in +-0.03 around the object site's
// initial position), then the object's size (three uniforms in [0.02, 0.03)),
// written to the last geom's size and the goal site's size.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

struct ObjHoldParams {
  bool random = false;  // ObjHoldRandomEnvV0
};

class ObjHoldEnv : public MyoEnv {
 public:
  ObjHoldEnv(const Setup& setup, const TaskBase& base, ObjHoldParams params)
      : MyoEnv(setup, base, {"goal_dist", "bonus", "act_reg", "penalty"}),
        p_(params),
        object_(site("object")),
        goal_(site("goal")) {
    const mjModel* mm = m();
    if (mm->nq < 7 || mm->nv < 6 || mm->ngeom < 1) {
      throw std::invalid_argument(setup.id + ": the model has no free object after the hand");
    }
    // _setup: the object site's position in the model's initial state.
    const double* obj = d()->site_xpos + 3 * object_;
    object_init_pos_ = {obj[0], obj[1], obj[2]};
    // The random id writes site_size of the goal: this env's own copy, saved with its state.
    site_size_.assign(mm->site_size, mm->site_size + 3 * mm->nsite);
    m()->site_size = site_size_.data();
    keep(&site_size_);
  }

 protected:
  // obs_dict["obj_err"]: site_xpos[goal] - site_xpos[object].
  std::array<double, 3> obj_err() const {
    const double* x = d()->site_xpos;
    return {x[3 * goal_] - x[3 * object_], x[3 * goal_ + 1] - x[3 * object_ + 1],
            x[3 * goal_ + 2] - x[3 * object_ + 2]};
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq - 7);
    for (int i = 0; i < mm->nv - 6; ++i) obs.push_back(dd->qvel[i] * dt());
    obs.insert(obs.end(), dd->site_xpos + 3 * object_, dd->site_xpos + 3 * object_ + 3);
    const auto err = obj_err();
    obs.insert(obs.end(), err.begin(), err.end());
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const auto err = obj_err();
    const double goal_dist = std::abs(numpy_norm(err.data(), 3));
    const double act_mag = mm->na != 0 ? numpy_norm(d()->act, mm->na) / mm->na : 0.0;
    const double goal_th = 0.010;
    const bool drop = goal_dist > 0.300;
    r.terms[0] = -1.0 * goal_dist;
    r.terms[1] = 1.0 * (goal_dist < 2 * goal_th) + 1.0 * (goal_dist < goal_th);
    r.terms[2] = -1.0 * act_mag;
    r.terms[3] = -1.0 * drop;
    r.sparse = -goal_dist;
    r.solved = goal_dist < goal_th;
    r.done = drop;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    // _setup's init_qpos[:-7] *= 0 and init_qpos[0] = -1.5 (open hand, palm up).
    for (std::size_t i = 0; i + 7 < qpos.size(); ++i) qpos[i] *= 0;
    qpos[0] = -1.5;
    if (!p_.random) return;
    double draw[3];
    for (double& x : draw) x = rng().uniform(-0.030, 0.030);
    double* goal = site_pos(goal_);
    for (int k = 0; k < 3; ++k) goal[k] = object_init_pos_[static_cast<std::size_t>(k)] + draw[k];
    double* size = geom_size(m()->ngeom - 1);
    for (int k = 0; k < 3; ++k) size[k] = rng().uniform(0.020, 0.030);
    std::copy(size, size + 3, site_size_.data() + 3 * goal_);
    // Upstream's sync_sims then runs mj_forward on the same sim; Robot.reset's mj_resetData follows, so it
    // leaves nothing behind.
  }

 private:
  const ObjHoldParams p_;
  const int object_, goal_;
  std::array<double, 3> object_init_pos_{};
  std::vector<double> site_size_;
};

const std::vector<std::pair<std::string, double>> kWeights = {{"goal_dist", 100.0}, {"bonus", 4.0}, {"penalty", 10}};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_hold.xml";

bool register_all() {
  register_task("myoHandObjHoldFixed-v0", {{kModel, 10, kWeights}, make_task<ObjHoldEnv>(ObjHoldParams{})});
  register_task("myoHandObjHoldRandom-v0",
                {{kModel, 10, kWeights}, make_task<ObjHoldEnv>(ObjHoldParams{.random = true})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
