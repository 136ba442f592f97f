// MyoSuite's die-reorientation challenge: myosuite 2.11.6's ReorientEnvV0
// (envs/myo/myochallenge/reorient_v0.py) and its registered ids
// (envs/myo/myochallenge/__init__.py: myoChallengeDieReorientDemo-v0, P1-v0
// and P2-v0; their myoSarc/myoFati variants follow).
//
// The hand turns a die to the pose of a target die. The observation is the
// hand's joints but the last (qpos[:-7], as myosuite's hand_qpos_noMD5), the
// hand's velocities * dt, the die's and the target's positions, the position
// error (less the offset between the two at load), both orientations as
// Euler angles (quat_math.mat2euler of the sites' frames), their difference
// and the muscles' activations; the reward terms are pos_dist, rot_dist,
// bonus, act_reg and penalty (a drop: the position error beyond drop_th),
// which also ends the episode.
// A reset draws, in order: the target's position offset (uniform, 3), its
// Euler angles (uniform, 3; the body's quaternion is quat_math.euler2quat of
// them), the die's geoms' frictions (uniform, 3 per geom in geom order), the
// die's mass (uniform) and one size change (uniform), each even where its
// range is one value; the size change resizes the target and the die and
// moves the die's face geoms from where they stand (so repeated resets move
// them as myosuite's formula does).
// myosuite's reset hands reset_qpos to BaseV0.reset by position, where it is
// fatigue_reset: the myoFati variants' fatigue state is never reset (it goes
// on from _setup's step(zeros) and from episode to episode), and so here.
// The observation's entries that relocate.cc shares (die_reorient.h) are
// defined here.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/die_reorient.h"
#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/quat_math.h"

namespace rlpool::myosuite {

ObjectErrors object_errors(const mjData* d, int object_sid, int goal_sid, const std::array<double, 3>& offset) {
  ObjectErrors e;
  for (int k = 0; k < 3; ++k) {
    const auto i = static_cast<std::size_t>(k);
    e.pos_err[i] = d->site_xpos[3 * goal_sid + k] - d->site_xpos[3 * object_sid + k] - offset[i];
  }
  e.obj_rot = mat2euler(d->site_xmat + 9 * object_sid);
  e.goal_rot = mat2euler(d->site_xmat + 9 * goal_sid);
  for (std::size_t k = 0; k < 3; ++k) e.rot_err[k] = e.goal_rot[k] - e.obj_rot[k];
  return e;
}

void observe_object_errors(const mjModel* m, const mjData* d, double dt, int object_sid, int goal_sid,
                           const ObjectErrors& e, std::vector<double>& obs) {
  obs.insert(obs.end(), d->qpos, d->qpos + m->nq - 7);
  for (int i = 0; i < m->nv - 6; ++i) obs.push_back(d->qvel[i] * dt);
  obs.insert(obs.end(), d->site_xpos + 3 * object_sid, d->site_xpos + 3 * object_sid + 3);
  obs.insert(obs.end(), d->site_xpos + 3 * goal_sid, d->site_xpos + 3 * goal_sid + 3);
  for (const std::array<double, 3>* v : {&e.pos_err, &e.obj_rot, &e.goal_rot, &e.rot_err}) {
    obs.insert(obs.end(), v->begin(), v->end());
  }
}

namespace {

struct ReorientParams {
  std::array<double, 2> goal_pos{0.0, 0.0};
  std::array<double, 2> goal_rot{0.785, 0.785};
  double obj_size_change = 0;
  std::array<double, 2> obj_mass_range{0.108, 0.108};
  std::array<double, 3> obj_friction_change{0, 0, 0};
  double pos_th = 0.025;
  double rot_th = 0.262;
  double drop_th = 0.200;
};

class ReorientEnv : public MyoEnv {
 public:
  ReorientEnv(const Setup& setup, const TaskBase& base, ReorientParams params)
      : MyoEnv(setup, base, {"pos_dist", "rot_dist", "bonus", "act_reg", "penalty"}), p_(params) {
    keep_fatigue_across_resets();
    mjModel* mm = m();
    const mjData* dd = d();
    object_sid_ = site("object_o");
    goal_sid_ = site("target_o");
    indicator_sid_ = site("target_ball");
    goal_bid_ = body("target");
    object_bid_ = body("Object");
    target_gid_ = api().name2id(mm, mjOBJ_GEOM, "target_dice");
    if (target_gid_ < 0) throw std::invalid_argument("'" + setup.xml_file + "' has no geom named 'target_dice'");
    gid0_ = mm->body_geomadr[object_bid_];
    gidn_ = gid0_ + mm->body_geomnum[object_bid_];
    if (gidn_ - gid0_ < 3 || mm->nq < 7 || mm->nv < 6) throw std::invalid_argument(setup.id + ": not the die model");
    // _setup, at the model's initial state (the constructor's mj_forward).
    for (int k = 0; k < 3; ++k) {
      goal_init_pos_[static_cast<std::size_t>(k)] = dd->site_xpos[3 * goal_sid_ + k];
      goal_obj_offset_[static_cast<std::size_t>(k)] = dd->site_xpos[3 * goal_sid_ + k] - dd->site_xpos[3 * object_sid_ + k];
    }
    const double* size = mm->geom_size;
    target_default_size_.assign(size + 3 * target_gid_, size + 3 * target_gid_ + 3);
    object_default_size_.assign(size + 3 * gid0_, size + 3 * gidn_);
    object_default_pos_.assign(mm->geom_pos + 3 * gid0_, mm->geom_pos + 3 * gidn_);
    friction_default_.assign(mm->geom_friction + 3 * gid0_, mm->geom_friction + 3 * gidn_);
    // The model fields a reset writes besides the base's: this env's own copies.
    body_pos_.assign(mm->body_pos, mm->body_pos + 3 * mm->nbody);
    body_quat_.assign(mm->body_quat, mm->body_quat + 4 * mm->nbody);
    geom_pos_.assign(mm->geom_pos, mm->geom_pos + 3 * mm->ngeom);
    geom_friction_.assign(mm->geom_friction, mm->geom_friction + 3 * mm->ngeom);
    site_rgba_.assign(mm->site_rgba, mm->site_rgba + 4 * mm->nsite);
    mm->body_pos = body_pos_.data();
    mm->body_quat = body_quat_.data();
    mm->geom_pos = geom_pos_.data();
    mm->geom_friction = geom_friction_.data();
    mm->site_rgba = site_rgba_.data();
    const auto indicator = static_cast<std::size_t>(4 * indicator_sid_);
    default_rgba_ = {site_rgba_[indicator], site_rgba_[indicator + 1]};
    solved_shown_.assign(1, -1.0);  // the indicator as the model has it until a step sets it
    keep(&body_pos_);
    keep(&body_quat_);
    keep(&geom_pos_);
    keep(&geom_friction_);
    keep(&solved_shown_);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    MyoEnv::step(action, rng, out);
    solved_shown_[0] = solved_ ? 1.0 : 0.0;
    show_indicator();
  }

 protected:
  void restore_model() override { show_indicator(); }

  // get_reward_dict's success indicator: the target ball green when solved, else red.
  void show_indicator() {
    float* rgba = site_rgba_.data() + 4 * indicator_sid_;
    if (solved_shown_[0] < 0) {
      rgba[0] = default_rgba_[0];
      rgba[1] = default_rgba_[1];
      return;
    }
    rgba[0] = solved_shown_[0] > 0 ? 0.0f : 2.0f;
    rgba[1] = solved_shown_[0] > 0 ? 2.0f : 0.0f;
  }

  // obs_dict's pos_err (less the offset at load), the rotations and rot_err.
  ObjectErrors errors() const { return object_errors(d(), object_sid_, goal_sid_, goal_obj_offset_); }

  void observe(std::vector<double>& obs) override {
    observe_object_errors(m(), d(), dt(), object_sid_, goal_sid_, errors(), obs);
    if (m()->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const ObjectErrors e = errors();
    const double pos_dist = std::abs(numpy_norm(e.pos_err.data(), 3));
    const double rot_dist = std::abs(numpy_norm(e.rot_err.data(), 3));
    const double act_mag = mm->na != 0 ? numpy_norm(d()->act, mm->na) / mm->na : 0.0;
    const bool drop = pos_dist > p_.drop_th;
    r.terms[0] = -1.0 * pos_dist;
    r.terms[1] = -1.0 * rot_dist;
    r.terms[2] = 1.0 * (pos_dist < 2 * p_.pos_th) + 1.0 * (pos_dist < p_.pos_th);
    r.terms[3] = -1.0 * act_mag;
    r.terms[4] = -1.0 * drop;
    r.sparse = -rot_dist - 10.0 * pos_dist;
    r.solved = pos_dist < p_.pos_th && rot_dist < p_.rot_th && !drop;
    r.done = drop;
    solved_ = r.solved;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    Rng& g = rng();
    double* goal_pos = body_pos_.data() + 3 * goal_bid_;
    for (std::size_t k = 0; k < 3; ++k) goal_pos[k] = goal_init_pos_[k] + g.uniform(p_.goal_pos[0], p_.goal_pos[1]);
    std::array<double, 3> euler{};
    for (double& e : euler) e = g.uniform(p_.goal_rot[0], p_.goal_rot[1]);
    const std::array<double, 4> quat = euler2quat(euler);
    std::copy(quat.begin(), quat.end(), body_quat_.data() + 4 * goal_bid_);
    for (std::size_t i = 0; i < friction_default_.size(); ++i) {
      const double change = p_.obj_friction_change[i % 3];
      const double nominal = friction_default_[i];
      geom_friction_[3 * static_cast<std::size_t>(gid0_) + i] = g.uniform(nominal - change, nominal + change);
    }
    set_body_mass(object_bid_, g.uniform(p_.obj_mass_range[0], p_.obj_mass_range[1]));
    const double del_size = g.uniform(-p_.obj_size_change, p_.obj_size_change);
    double* target_size = geom_size(target_gid_);
    for (std::size_t k = 0; k < 3; ++k) target_size[k] = target_default_size_[k] + del_size;
    const int n = gidn_ - gid0_;
    for (int i = 0; i < n - 3; ++i) geom_size(gid0_ + i)[1] = object_default_size_[static_cast<std::size_t>(3 * i + 1)] + del_size;
    for (int i = n - 3; i < n; ++i) {
      for (int k = 0; k < 3; ++k) geom_size(gid0_ + i)[k] = object_default_size_[static_cast<std::size_t>(3 * i + k)] + del_size;
    }
    for (int i = 0; i < 3 * n; ++i) {
      double& pos = geom_pos_[static_cast<std::size_t>(3 * gid0_ + i)];
      pos = pos / std::abs(pos + 1e-16) * (std::abs(object_default_pos_[static_cast<std::size_t>(i)]) + del_size);
    }
    // _setup's init_qpos: the hand fully open (its joints times 0), palm up; the die as the model has it.
    const std::size_t hand = qpos.size() - 7;
    for (std::size_t i = 0; i < hand; ++i) qpos[i] *= 0.0;
    qpos[0] = -1.5;
  }

 private:
  const ReorientParams p_;
  int object_sid_ = -1, goal_sid_ = -1, indicator_sid_ = -1, goal_bid_ = -1, object_bid_ = -1;
  int target_gid_ = -1, gid0_ = -1, gidn_ = -1;
  std::array<double, 3> goal_init_pos_{}, goal_obj_offset_{};
  std::vector<double> target_default_size_, object_default_size_, object_default_pos_, friction_default_;
  std::vector<double> body_pos_, body_quat_, geom_pos_, geom_friction_, solved_shown_;
  std::vector<float> site_rgba_;
  std::array<float, 2> default_rgba_{};
  bool solved_ = false;
};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_die.xml";

bool register_all() {
  const std::vector<std::pair<std::string, double>> weights = {
      {"pos_dist", 100.0}, {"rot_dist", 1.0}, {"bonus", 0.0}, {"act_reg", 0.0}, {"penalty", 0.0}};
  const auto add = [&](const std::string& id, ReorientParams params) {
    register_task(id, {{kModel, 5, weights}, make_task<ReorientEnv>(params)});
  };
  add("myoChallengeDieReorientDemo-v0",
      {.goal_pos = {0, 0}, .goal_rot = {-.785, .785}, .pos_th = std::numeric_limits<double>::infinity()});
  add("myoChallengeDieReorientP1-v0", {.goal_pos = {-.010, .010}, .goal_rot = {-1.57, 1.57}});
  add("myoChallengeDieReorientP2-v0", {.goal_pos = {-.020, .020},
                                       .goal_rot = {-3.14, 3.14},
                                       .obj_size_change = 0.007,
                                       .obj_mass_range = {0.050, 0.250},
                                       .obj_friction_change = {0.2, 0.001, 0.00002}});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
