// MyoSuite's key-turning task: myosuite 2.11.6's KeyTurnEnvV0
// (envs/myo/myobase/key_turn_v0.py) and its registered ids
// (envs/myo/myobase/__init__.py: myoHandKeyTurnFixed-v0 and
// myoHandKeyTurnRandom-v0, the latter with key_init_range (-pi/2, pi/2) and
// goal_th 2 pi).
//
// The hand starts fully open (init_qpos zero but for the key). The
// observation is the hand's qpos, its qvel * dt, the key's angle and its
// velocity * dt, the index and thumb tips' offsets from the key head and the
// muscles' activations (get_obs_dict); the reward terms are key_turn (the key
// angle), the two tips' approach errors (| |offset| - 0.03 |), act_reg, bonus
// (past pi / 2 and pi) and penalty (an approach error beyond 0.05 each).
// A reset draws, in order: the key's angle (one uniform over key_init_range,
// also for the fixed id's single point), then for the random id the key
// body's position (three uniforms in +-0.01 around the key head's initial
// site position, as upstream writes it into the last body's body_pos).
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

struct KeyTurnParams {
  double goal_th = 3.14;
  std::array<double, 2> key_init_range{0.0, 0.0};
};

class KeyTurnEnv : public MyoEnv {
 public:
  KeyTurnEnv(const Setup& setup, const TaskBase& base, KeyTurnParams params)
      : MyoEnv(setup, base, {"key_turn", "IFtip_approach", "THtip_approach", "act_reg", "bonus", "penalty"}),
        p_(params),
        keyhead_(site("keyhead")),
        if_tip_(site("IFtip")),
        th_tip_(site("THtip")) {
    const mjModel* mm = m();
    if (mm->nq < 1 || mm->nv < 1) throw std::invalid_argument(setup.id + ": the model has no key joint");
    // _setup: the key head's position in the model's initial state.
    const double* head = d()->site_xpos + 3 * keyhead_;
    key_init_pos_ = {head[0], head[1], head[2]};
    // The random id writes body_pos of the last body: this env's own copy, saved with its state.
    body_pos_.assign(mm->body_pos, mm->body_pos + 3 * mm->nbody);
    m()->body_pos = body_pos_.data();
    keep(&body_pos_);
  }

 protected:
  // site_xpos[keyhead] - site_xpos[tip].
  std::array<double, 3> approach(int tip) const {
    const double* x = d()->site_xpos;
    return {x[3 * keyhead_] - x[3 * tip], x[3 * keyhead_ + 1] - x[3 * tip + 1], x[3 * keyhead_ + 2] - x[3 * tip + 2]};
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq - 1);
    for (int i = 0; i < mm->nv - 1; ++i) obs.push_back(dd->qvel[i] * dt());
    obs.push_back(dd->qpos[mm->nq - 1]);
    obs.push_back(dd->qvel[mm->nv - 1] * dt());
    const auto if_app = approach(if_tip_), th_app = approach(th_tip_);
    obs.insert(obs.end(), if_app.begin(), if_app.end());
    obs.insert(obs.end(), th_app.begin(), th_app.end());
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const auto if_app = approach(if_tip_), th_app = approach(th_tip_);
    const double if_dist = std::abs(numpy_norm(if_app.data(), 3) - 0.030);
    const double th_dist = std::abs(numpy_norm(th_app.data(), 3) - 0.030);
    const double key_pos = dd->qpos[mm->nq - 1];
    const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    const double far_th = 0.1;
    r.terms[0] = key_pos;
    r.terms[1] = -1.0 * if_dist;
    r.terms[2] = -1.0 * th_dist;
    r.terms[3] = -1.0 * act_mag;
    r.terms[4] = 1.0 * (key_pos > M_PI / 2) + 1.0 * (key_pos > M_PI);
    r.terms[5] = -1.0 * (if_dist > far_th / 2) - 1.0 * (th_dist > far_th / 2);
    r.sparse = key_pos;
    r.solved = key_pos > p_.goal_th;
    r.done = if_dist > far_th || th_dist > far_th;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    // _setup's init_qpos[:-1] *= 0 (fully open hand), then reset's draws.
    for (std::size_t i = 0; i + 1 < qpos.size(); ++i) qpos[i] *= 0;
    qpos.back() = rng().uniform(p_.key_init_range[0], p_.key_init_range[1]);
    if (p_.key_init_range[0] != p_.key_init_range[1]) {
      double draw[3];
      for (double& x : draw) x = rng().uniform(-0.01, 0.01);
      double* pos = body_pos_.data() + 3 * (m()->nbody - 1);
      for (int k = 0; k < 3; ++k) pos[k] = key_init_pos_[static_cast<std::size_t>(k)] + draw[k];
    }
  }

 private:
  const KeyTurnParams p_;
  const int keyhead_, if_tip_, th_tip_;
  std::array<double, 3> key_init_pos_{};
  std::vector<double> body_pos_;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"key_turn", 1.0}, {"IFtip_approach", 10.0}, {"THtip_approach", 10.0},
    {"act_reg", 1.0},  {"bonus", 4.0},           {"penalty", 25.0}};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_keyturn.xml";

bool register_all() {
  register_task("myoHandKeyTurnFixed-v0", {{kModel, 10, kWeights}, make_task<KeyTurnEnv>(KeyTurnParams{})});
  register_task("myoHandKeyTurnRandom-v0",
                {{kModel, 10, kWeights},
                 make_task<KeyTurnEnv>(KeyTurnParams{.goal_th = 2 * M_PI, .key_init_range = {-M_PI / 2, M_PI / 2}})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
