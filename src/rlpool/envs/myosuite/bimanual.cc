// MyoSuite's bimanual hand-over challenge: myosuite 2.11.6's BimanualEnvV1
// (envs/myo/myochallenge/bimanual_v0.py: _setup, get_obs_dict,
// get_reward_dict, _get_done, step, reset; IdInfo, get_touching_objects and
// body_id_to_label at the file's end) and its id myoChallengeBimanual-v0
// (envs/myo/myochallenge/__init__.py), with its myoSarc and myoFati variants.
//
// The model is myoarm_bionic_bimanual.xml as it is: a muscle arm (63 muscles)
// and a bionic (MPL) arm of 17 position actuators. step gives the non-muscle
// actuators the middle of their control range plus a * half of it (cast to
// float32, as myosuite stores it in the action's array) before the base's
// muscle mapping.
//
// Reset, in myosuite's order: random(3) for the start pillar, random(3) for
// the goal pillar (each center + shifts * (2 u - 1), moving the pillar bodies),
// the box's mass, its friction (3), and from the second reset on its scale (3:
// the box geom's size; the first reset after construction skips it, as
// myosuite's ignore_first_scale does). BaseV0.reset then puts the arm at the
// model's third keyframe, and after it the box's position becomes the start
// pillar's plus 0.1 in z without a forward: the reset's observation shows the
// box where the keyframe has it, and the first step starts from the moved
// box. _setup's centring of the box's visual mesh (a geom without contacts)
// changes no simulated number and is not done here.
//
// The reward terms are rwd_dict's in its order; the goal-contact count grows
// at every step whose contacts include the goal pillar, and done reads the
// solved flag of the step before (myosuite's self.rwd_dict), which a reset
// does not clear.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/numpy_exp.h"

namespace rlpool::myosuite {
namespace {

using Vec3 = std::array<double, 3>;

struct BimanualParams {
  Vec3 obj_scale_change{};     // relative change of the box's size on each axis
  double obj_mass_change = 0;  // +- on the box's mass
  Vec3 obj_friction_change{};  // +- on the box's friction
};

constexpr Vec3 kStartCenter = {-0.4, -0.25, 1.05};
constexpr Vec3 kGoalCenter = {0.4, -0.25, 1.05};
constexpr Vec3 kStartShifts = {0.055, 0.055, 0.0};
constexpr Vec3 kGoalShifts = {0.098, 0.098, 0.0};
constexpr double kProximityTh = 0.17;
constexpr double kPillarHeight = 1.09;
constexpr double kTargetZ = 0.2;
constexpr double kGoalContact = 10;  // TARGET_GOAL_TOUCH
constexpr double kMaxTime = 10.0;
constexpr int kResetKey = 2;  // init_qpos: key_qpos[2]

// ObjLabels, the order of the touching_body vector.
enum Label { kMyo = 0, kProsth = 1, kStart = 2, kGoal = 3, kEnvLabel = 4 };

class BimanualEnv : public MyoEnv {
 public:
  BimanualEnv(const Setup& setup, const TaskBase& base, BimanualParams params)
      : MyoEnv(setup, base,
               {"reach_dist", "act", "fin_open", "fin_dis", "lift_bonus", "lift_height", "pass_err", "goal_dist"}),
        p_(params) {
    mjModel* mm = m();
    if (mm->nkey <= kResetKey) throw std::invalid_argument("'" + setup.xml_file + "' has no third keyframe");
    obj_bid_ = body("manip_object");
    start_bid_ = body("start");
    goal_bid_ = body("goal");
    if (mm->body_geomnum[obj_bid_] < 2) throw std::invalid_argument(setup.id + ": the object has no box geom");
    obj_gid_ = mm->body_geomadr[obj_bid_] + 1;
    obj_sid_ = site("touch_site");
    palm_sid_ = site("S_grasp");
    for (const char* name : {"THtip", "IFtip", "MFtip", "RFtip", "LFtip"}) fin_sids_.push_back(site(name));
    rpalm1_sid_ = site("prosthesis/palm_thumb");
    rpalm2_sid_ = site("prosthesis/palm_pinky");
    elbow_adr_ = mm->jnt_qposadr[joint("elbow_flexion")];
    // IdInfo: body ranges (by id) and joints of the muscle arm, the bionic arm and the object.
    int myo_lo = mm->nbody, myo_hi = -1, prosth_lo = mm->nbody, prosth_hi = -1;
    for (int b = 0; b < mm->nbody; ++b) {
      const std::string name = mm->names + mm->name_bodyadr[b];
      if (name.starts_with("prosthesis/")) {
        prosth_lo = std::min(prosth_lo, b);
        prosth_hi = std::max(prosth_hi, b);
      }
      if (!name.starts_with("prosthesis") && name != "start" && name != "goal" && name != "manip_object") {
        myo_lo = std::min(myo_lo, b);
        myo_hi = std::max(myo_hi, b);
      }
    }
    if (myo_hi < 0 || prosth_hi < 0) throw std::invalid_argument(setup.id + ": not the bimanual model");
    myo_range_ = {myo_lo, myo_hi};
    prosth_range_ = {prosth_lo, prosth_hi};
    const int obj_jnt = joint("manip_object/freejoint");
    if (mm->jnt_type[obj_jnt] != mjJNT_FREE) throw std::invalid_argument(setup.id + ": the object's joint is not free");
    for (int j = 0; j < mm->njnt; ++j) {
      const std::string name = mm->names + mm->name_jntadr[j];
      if (name.starts_with("prosthesis")) {
        prosth_qpos_.push_back(mm->jnt_qposadr[j]);
        prosth_dofs_.push_back(mm->jnt_dofadr[j]);
      } else if (j != obj_jnt) {
        myo_qpos_.push_back(mm->jnt_qposadr[j]);
        myo_dofs_.push_back(mm->jnt_dofadr[j]);
      }
    }
    obj_qposadr_ = mm->jnt_qposadr[obj_jnt];
    obj_dofadr_ = mm->jnt_dofadr[obj_jnt];
    for (int i = 0; i < mm->nu; ++i) robotic_.push_back(mm->actuator_dyntype[i] != mjDYN_MUSCLE);
    processed_.resize(static_cast<std::size_t>(mm->nu));
    // _setup's task randomization ranges, from the model's own values.
    obj_mass0_ = mm->body_mass[obj_bid_];
    for (int k = 0; k < 3; ++k) {
      obj_friction0_[static_cast<std::size_t>(k)] = mm->geom_friction[3 * obj_gid_ + k];
      obj_size0_[static_cast<std::size_t>(k)] = mm->geom_size[3 * obj_gid_ + k];
    }
    // The model fields a reset writes besides the base's: this env's own copies, saved with its state.
    body_pos_.assign(mm->body_pos, mm->body_pos + 3 * mm->nbody);
    geom_friction_.assign(mm->geom_friction, mm->geom_friction + 3 * mm->ngeom);
    mm->body_pos = body_pos_.data();
    mm->geom_friction = geom_friction_.data();
    // _setup: the pillars at their centers.
    std::copy(kStartCenter.begin(), kStartCenter.end(), body_pos_.begin() + 3 * start_bid_);
    std::copy(kGoalCenter.begin(), kGoalCenter.end(), body_pos_.begin() + 3 * goal_bid_);
    keep(&body_pos_);
    keep(&geom_friction_);
    keep(&task_);
  }

  void reset(Rng& rng, const Output& out) override {
    stepping_ = false;
    MyoEnv::reset(rng, out);
    // After BaseV0.reset: the box onto the start pillar, no forward.
    mjData* dd = d();
    for (int k = 0; k < 3; ++k) task_[kPreMove + static_cast<std::size_t>(k)] = dd->qpos[obj_qposadr_ + k];
    task_[kMovePending] = 1.0;
    move_box();
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    task_[kMovePending] = 0.0;
    stepping_ = true;
    try {
      MyoEnv::step(action, rng, out);
    } catch (...) {
      stepping_ = false;
      throw;
    }
    stepping_ = false;
  }

  void set_state(std::string_view bytes) override {
    // restore_model puts the box back where the reset's forward saw it; the move follows the forward.
    MyoEnv::set_state(bytes);
    if (task_[kMovePending] != 0.0) move_box();
  }

 protected:
  // BimanualEnvV1.step: the robotic actuators' normalized actions to their control range.
  void controls(const double* a) override {
    const mjModel* mm = m();
    for (int i = 0; i < mm->nu; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const double x = static_cast<double>(static_cast<float>(a[i]));
      if (!robotic_[k]) {
        processed_[k] = x;
        continue;
      }
      const double lo = mm->actuator_ctrlrange[2 * i], hi = mm->actuator_ctrlrange[2 * i + 1];
      processed_[k] = static_cast<double>(static_cast<float>((lo + hi) / 2.0 + x * (hi - lo) / 2.0));
    }
    MyoEnv::controls(processed_.data());
  }

  void restore_model() override {
    if (task_[kMovePending] == 0.0) return;
    mjData* dd = d();
    for (int k = 0; k < 3; ++k) dd->qpos[obj_qposadr_ + k] = task_[kPreMove + static_cast<std::size_t>(k)];
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.push_back(dd->time);
    for (const int adr : myo_qpos_) obs.push_back(dd->qpos[adr]);
    for (const int adr : myo_dofs_) obs.push_back(dd->qvel[adr]);
    for (const int adr : prosth_qpos_) obs.push_back(dd->qpos[adr]);
    for (const int adr : prosth_dofs_) obs.push_back(dd->qvel[adr]);
    obs.insert(obs.end(), dd->qpos + obj_qposadr_, dd->qpos + obj_qposadr_ + 7);
    obs.insert(obs.end(), dd->qvel + obj_dofadr_, dd->qvel + obj_dofadr_ + 6);
    // get_touching_objects as a set of labels: each label present or not.
    std::array<bool, 5> touching{};
    for (int i = 0; i < dd->ncon; ++i) {
      const mjContact& c = dd->contact[i];
      const int b1 = mm->geom_bodyid[c.geom[0]], b2 = mm->geom_bodyid[c.geom[1]];
      if (b1 == obj_bid_) {
        touching[static_cast<std::size_t>(label(b2))] = true;
      } else if (b2 == obj_bid_) {
        touching[static_cast<std::size_t>(label(b1))] = true;
      }
    }
    for (const bool t : touching) obs.push_back(t ? 1.0 : 0.0);
    touching_goal_ = touching[kGoal];
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const double* obj = dd->site_xpos + 3 * obj_sid_;
    const double* palm = dd->site_xpos + 3 * palm_sid_;
    const double* rpalm1 = dd->site_xpos + 3 * rpalm1_sid_;
    const double* rpalm2 = dd->site_xpos + 3 * rpalm2_sid_;
    if (!stepping_) {
      // A reset: reset() takes the box's and the palm's heights of its observation as the lift's origin.
      task_[kInitObjZ] = obj[2];
      task_[kInitPalmZ] = palm[2];
    }
    double reach_err[3], pass_err[3], goal_err[3];
    const double goal[3] = {body_pos_[static_cast<std::size_t>(3 * goal_bid_)],
                            body_pos_[static_cast<std::size_t>(3 * goal_bid_ + 1)], kPillarHeight};
    for (int k = 0; k < 3; ++k) {
      reach_err[k] = palm[k] - obj[k];
      pass_err[k] = (rpalm1[k] + rpalm2[k]) / 2 - obj[k];
      goal_err[k] = obj[k] - goal[k];
    }
    const double reach_dist = std::abs(numpy_norm(reach_err, 3));
    const double pass_dist = std::abs(numpy_norm(pass_err, 3));
    const double lift[2] = {obj[2] - task_[kInitObjZ], palm[2] - task_[kInitPalmZ]};
    const double lift_dist = numpy_norm(lift, 2);
    const double lift_height = 5 * numpy_exp(-10 * ((lift_dist - kTargetZ) * (lift_dist - kTargetZ))) - 5;
    const double act = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    // Python's sum of the five fingertips' distances: from 0, in order.
    double fin_open = 0.0, fin_dis = 0.0;
    for (const int sid : fin_sids_) {
      double to_palm[3], to_obj[3];
      for (int k = 0; k < 3; ++k) {
        to_palm[k] = dd->site_xpos[3 * sid + k] - palm[k];
        to_obj[k] = dd->site_xpos[3 * sid + k] - obj[k];
      }
      fin_open += numpy_norm(to_palm, 3);
      fin_dis += numpy_norm(to_obj, 3);
    }
    const double elbow = dd->qpos[elbow_adr_] - 1.;
    const double elbow_err = 5 * numpy_exp(-10 * (elbow * elbow)) - 5;
    const double goal_dis = std::abs(numpy_norm(goal_err, 3));
    if (stepping_ && touching_goal_) task_[kGoalTouch] += 1.0;
    r.terms[0] = reach_dist + std::log(reach_dist + 1e-6);
    r.terms[1] = act;
    r.terms[2] = numpy_exp(-5 * fin_open);
    r.terms[3] = fin_dis + std::log(fin_dis + 1e-6);
    r.terms[4] = elbow_err;
    r.terms[5] = lift_height;
    r.terms[6] = pass_dist + std::log(pass_dist + 1e-3);
    r.terms[7] = goal_dis;
    r.sparse = 0.0;
    r.solved = goal_dis < kProximityTh && task_[kGoalTouch] >= kGoalContact;
    // _get_done: the time, the box's height (which sets obs_dict["time"] to MAX_TIME), the last step's solved.
    const double z = obj[2];
    if (dd->time > kMaxTime) {
      r.done = true;
    } else if (z < 0.3) {
      r.time = kMaxTime;
      r.done = true;
    } else {
      r.done = task_[kLastSolved] != 0.0;
    }
    if (stepping_) task_[kLastSolved] = r.solved ? 1.0 : 0.0;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const mjModel* mm = m();
    Rng& g = rng();
    double* start = body_pos_.data() + 3 * start_bid_;
    double* goal = body_pos_.data() + 3 * goal_bid_;
    // start_center + start_shifts * (2 * random(3) - 1), then the goal's likewise.
    for (std::size_t k = 0; k < 3; ++k) start[k] = kStartCenter[k] + kStartShifts[k] * (2 * g.uniform() - 1);
    for (std::size_t k = 0; k < 3; ++k) goal[k] = kGoalCenter[k] + kGoalShifts[k] * (2 * g.uniform() - 1);
    task_[kGoalTouch] = 0.0;
    set_body_mass(obj_bid_, g.uniform(obj_mass0_ + -p_.obj_mass_change, obj_mass0_ + p_.obj_mass_change));
    double* friction = geom_friction_.data() + 3 * obj_gid_;
    for (std::size_t k = 0; k < 3; ++k) {
      friction[k] = g.uniform(obj_friction0_[k] - p_.obj_friction_change[k], obj_friction0_[k] + p_.obj_friction_change[k]);
    }
    if (task_[kScaled] != 0.0) {
      double* size = geom_size(obj_gid_);
      for (std::size_t k = 0; k < 3; ++k) {
        const double scale = g.uniform(-p_.obj_scale_change[k], p_.obj_scale_change[k]) + 1;
        size[k] = obj_size0_[k] * scale;
      }
    } else {
      task_[kScaled] = 1.0;
    }
    qpos.assign(mm->key_qpos + kResetKey * mm->nq, mm->key_qpos + (kResetKey + 1) * mm->nq);
    std::fill(qvel.begin(), qvel.end(), 0.0);
  }

 private:
  // task_'s entries: the goal-contact count, the last step's solved, the lift's origin, whether the box's scale
  // is drawn (every reset after the first), and the box's move after a reset (pending until the next step, with
  // the position the reset's forward saw).
  enum TaskField : std::size_t {
    kGoalTouch,
    kLastSolved,
    kInitObjZ,
    kInitPalmZ,
    kScaled,
    kMovePending,
    kPreMove,
    kTaskSize = kPreMove + 3
  };

  Label label(int b) const {
    if (myo_range_[0] <= b && b <= myo_range_[1]) return kMyo;
    if (prosth_range_[0] <= b && b <= prosth_range_[1]) return kProsth;
    if (b == start_bid_) return kStart;
    if (b == goal_bid_) return kGoal;
    return kEnvLabel;
  }

  // reset's qpos[object:object + 3] = start_pos + [0, 0, 0.1].
  void move_box() {
    mjData* dd = d();
    const double lift[3] = {0.0, 0.0, 0.1};
    for (int k = 0; k < 3; ++k) {
      dd->qpos[obj_qposadr_ + k] = body_pos_[static_cast<std::size_t>(3 * start_bid_ + k)] + lift[k];
    }
  }

  const BimanualParams p_;
  int obj_bid_ = -1, start_bid_ = -1, goal_bid_ = -1, obj_gid_ = -1;
  int obj_sid_ = -1, palm_sid_ = -1, rpalm1_sid_ = -1, rpalm2_sid_ = -1, elbow_adr_ = 0;
  int obj_qposadr_ = 0, obj_dofadr_ = 0;
  std::array<int, 2> myo_range_{}, prosth_range_{};
  std::vector<int> fin_sids_, myo_qpos_, myo_dofs_, prosth_qpos_, prosth_dofs_;
  std::vector<bool> robotic_;
  double obj_mass0_ = 0.0;
  Vec3 obj_friction0_{}, obj_size0_{};
  std::vector<double> body_pos_, geom_friction_, processed_;
  std::vector<double> task_ = std::vector<double>(kTaskSize, 0.0);
  bool touching_goal_ = false;
  bool stepping_ = false;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"reach_dist", -.1}, {"act", 0.0}, {"fin_dis", -0.5}, {"pass_err", -1.0}};

const bool kRegistered = register_task(
    "myoChallengeBimanual-v0",
    {{"envs/myo/assets/arm/myoarm_bionic_bimanual.xml", 5, kWeights},
     make_task<BimanualEnv>(BimanualParams{.obj_scale_change = {0.1, 0.05, 0.1},
                                           .obj_mass_change = 0.050,
                                           .obj_friction_change = {0.1, 0.001, 0.00002}})});

}  // namespace
}  // namespace rlpool::myosuite
