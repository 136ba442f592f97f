// MyoSuite's object-relocation challenge: myosuite 2.11.6's RelocateEnvV0
// (envs/myo/myochallenge/relocate_v0.py) and its registered ids
// (envs/myo/myochallenge/__init__.py: myoChallengeRelocateP1-v0, P2-v0 and
// P2eval-v0; their myoSarc/myoFati variants follow).
//
// The arm carries an object to a target pose. The observation is the arm's
// joints but the last (qpos[:-7], as myosuite's hand_qpos), its velocities
// * dt, the object's and the target's positions, the position error, both
// orientations as Euler angles (quat_math.mat2euler), their difference and
// the muscles' activations; the reward terms are pos_dist, rot_dist and
// act_reg; done when the palm is more than drop_th from the object.
// The initial pose is the model's keyframe 0 (keyframe 1 for the ids that
// move the object), plus qpos_noise_range times each joint's range for the
// arm's joints where the id has one (a fixed offset, not a draw).
// A reset draws, in order: the target's position (uniform, 3) and Euler
// angles (uniform, 3; quat_math.euler2quat), the object's position (uniform,
// 3) where the id moves it; then, where the id reshapes the object, per
// object geom: its type (a choice of five: integer(5)), size (uniform, 3),
// position within that size (uniform, 3), Euler angles (uniform, 3), colour
// (uniform, 4) and friction (uniform, 3), and after the geoms the object's
// mass (uniform). If the reset pose has contacts, myosuite resets again,
// drawing everything anew, and returns the first attempt's observation: so
// does this env (its info is the final state's).
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
namespace {

using Vec3 = std::array<double, 3>;

struct Range3 {
  Vec3 low{}, high{};
};

struct RelocateParams {
  Range3 target_xyz_range{};
  Range3 target_rxryrz_range{};
  bool moves_object = false, reshapes_object = false;
  Range3 obj_xyz_range{};
  Range3 obj_geom_range{};
  std::array<double, 2> obj_mass_range{};
  Range3 obj_friction_range{};
  double qpos_noise_range = 0;  // 0: none
  double pos_th = 0.025;
  double rot_th = 0.262;
  double drop_th = 0.50;
};

// myosuite recurses until a reset has no contact; past this many tries Python would have hit its recursion limit.
constexpr int kMaxResets = 1000;

class RelocateEnv : public MyoEnv {
 public:
  RelocateEnv(const Setup& setup, const TaskBase& base, RelocateParams params)
      : MyoEnv(setup, base, {"pos_dist", "rot_dist", "act_reg"}), p_(params) {
    mjModel* mm = m();
    palm_sid_ = site("S_grasp");
    object_sid_ = site("object_o");
    object_bid_ = body("Object");
    goal_sid_ = site("target_o");
    indicator_sid_ = site("target_ball");
    goal_bid_ = body("target");
    gid0_ = mm->body_geomadr[object_bid_];
    ngeoms_ = mm->body_geomnum[object_bid_];
    const int key = p_.moves_object ? 1 : 0;
    if (mm->nkey <= key || mm->nq < 7 || mm->nv < 6 || mm->njnt != mm->nq) {
      throw std::invalid_argument(setup.id + ": not the relocation model");
    }
    key_qpos_.assign(mm->key_qpos + key * mm->nq, mm->key_qpos + (key + 1) * mm->nq);
    // The model fields a reset writes besides the base's: this env's own copies.
    body_pos_.assign(mm->body_pos, mm->body_pos + 3 * mm->nbody);
    body_quat_.assign(mm->body_quat, mm->body_quat + 4 * mm->nbody);
    geom_pos_.assign(mm->geom_pos, mm->geom_pos + 3 * mm->ngeom);
    geom_quat_.assign(mm->geom_quat, mm->geom_quat + 4 * mm->ngeom);
    geom_aabb_.assign(mm->geom_aabb, mm->geom_aabb + 6 * mm->ngeom);
    geom_rbound_.assign(mm->geom_rbound, mm->geom_rbound + mm->ngeom);
    geom_friction_.assign(mm->geom_friction, mm->geom_friction + 3 * mm->ngeom);
    geom_type_.assign(mm->geom_type, mm->geom_type + mm->ngeom);
    geom_rgba_.assign(mm->geom_rgba, mm->geom_rgba + 4 * mm->ngeom);
    site_rgba_.assign(mm->site_rgba, mm->site_rgba + 4 * mm->nsite);
    site_size_.assign(mm->site_size, mm->site_size + 3 * mm->nsite);
    mm->body_pos = body_pos_.data();
    mm->body_quat = body_quat_.data();
    mm->geom_pos = geom_pos_.data();
    mm->geom_quat = geom_quat_.data();
    mm->geom_aabb = geom_aabb_.data();
    mm->geom_rbound = geom_rbound_.data();
    mm->geom_friction = geom_friction_.data();
    mm->geom_type = geom_type_.data();
    mm->geom_rgba = geom_rgba_.data();
    mm->site_rgba = site_rgba_.data();
    mm->site_size = site_size_.data();
    for (int k = 0; k < 2; ++k) default_rgba_[static_cast<std::size_t>(k)] = site_rgba_[static_cast<std::size_t>(4 * indicator_sid_ + k)];
    for (int k = 0; k < 3; ++k) default_size_[static_cast<std::size_t>(k)] = site_size_[static_cast<std::size_t>(3 * indicator_sid_ + k)];
    // The object's geoms' types and colours (int and float model fields) as numbers a saved state holds.
    object_types_.resize(static_cast<std::size_t>(ngeoms_));
    object_rgba_.resize(static_cast<std::size_t>(4 * ngeoms_));
    for (int i = 0; i < ngeoms_; ++i) {
      object_types_[static_cast<std::size_t>(i)] = geom_type_[static_cast<std::size_t>(gid0_ + i)];
      for (int k = 0; k < 4; ++k) {
        object_rgba_[static_cast<std::size_t>(4 * i + k)] = geom_rgba_[static_cast<std::size_t>(4 * (gid0_ + i) + k)];
      }
    }
    solved_shown_.assign(1, -1.0);  // the indicator as the model has it until a step sets it
    for (std::vector<double>* v : {&body_pos_, &body_quat_, &geom_pos_, &geom_quat_, &geom_aabb_, &geom_rbound_,
                                   &geom_friction_, &object_types_, &object_rgba_, &solved_shown_}) {
      keep(v);
    }
  }

  void reset(Rng& rng, const Output& out) override {
    MyoEnv::reset(rng, out);
    if (retried_ && out.obs != nullptr) {
      float* o = out.obs_as<float>(0);
      for (std::size_t i = 0; i < first_obs_.size(); ++i) o[i] = static_cast<float>(first_obs_[i]);
    }
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    MyoEnv::step(action, rng, out);
    solved_shown_[0] = solved_ ? 1.0 : 0.0;
    show_indicator();
  }

 protected:
  void restore_model() override {
    apply_object_looks();
    show_indicator();
  }

  // get_reward_dict's success indicator: the target ball green and large when solved, else red and small.
  void show_indicator() {
    float* rgba = site_rgba_.data() + 4 * indicator_sid_;
    double* size = site_size_.data() + 3 * indicator_sid_;
    const double shown = solved_shown_[0];
    const std::array<float, 2> solved_rgba{0.0f, 2.0f}, unsolved_rgba{2.0f, 0.0f};
    const std::array<float, 2>& to = shown < 0 ? default_rgba_ : shown > 0 ? solved_rgba : unsolved_rgba;
    rgba[0] = to[0];
    rgba[1] = to[1];
    for (std::size_t k = 0; k < 3; ++k) size[k] = shown < 0 ? default_size_[k] : shown > 0 ? 0.25 : 0.1;
  }

  void apply_object_looks() {
    for (int i = 0; i < ngeoms_; ++i) {
      geom_type_[static_cast<std::size_t>(gid0_ + i)] = static_cast<int>(object_types_[static_cast<std::size_t>(i)]);
      for (int k = 0; k < 4; ++k) {
        const double value = object_rgba_[static_cast<std::size_t>(4 * i + k)];
        geom_rgba_[static_cast<std::size_t>(4 * (gid0_ + i) + k)] = static_cast<float>(value);
      }
    }
  }

  // obs_dict's pos_err, the rotations and rot_err.
  ObjectErrors errors() const { return object_errors(d(), object_sid_, goal_sid_, {0.0, 0.0, 0.0}); }

  void observe(std::vector<double>& obs) override {
    observe_object_errors(m(), d(), dt(), object_sid_, goal_sid_, errors(), obs);
    if (m()->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const ObjectErrors e = errors();
    double reach_err[3];
    for (int k = 0; k < 3; ++k) reach_err[k] = dd->site_xpos[3 * palm_sid_ + k] - dd->site_xpos[3 * object_sid_ + k];
    const double reach_dist = std::abs(numpy_norm(reach_err, 3));
    const double pos_dist = std::abs(numpy_norm(e.pos_err.data(), 3));
    const double rot_dist = std::abs(numpy_norm(e.rot_err.data(), 3));
    const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    const bool drop = reach_dist > p_.drop_th;
    r.terms[0] = -1.0 * pos_dist;
    r.terms[1] = -1.0 * rot_dist;
    r.terms[2] = -1.0 * act_mag;
    r.sparse = -rot_dist - 10.0 * pos_dist;
    r.solved = pos_dist < p_.pos_th && rot_dist < p_.rot_th && !drop;
    r.done = drop;
    solved_ = r.solved;
  }

  // One pass of RelocateEnvV0.reset's draws and model edits.
  void draw_scene() {
    Rng& g = rng();
    double* goal_pos = body_pos_.data() + 3 * goal_bid_;
    for (std::size_t k = 0; k < 3; ++k) goal_pos[k] = g.uniform(p_.target_xyz_range.low[k], p_.target_xyz_range.high[k]);
    std::array<double, 3> euler{};
    for (std::size_t k = 0; k < 3; ++k) euler[k] = g.uniform(p_.target_rxryrz_range.low[k], p_.target_rxryrz_range.high[k]);
    const std::array<double, 4> target_quat = euler2quat(euler);
    std::copy(target_quat.begin(), target_quat.end(), body_quat_.data() + 4 * goal_bid_);
    if (p_.moves_object) {
      double* obj_pos = body_pos_.data() + 3 * object_bid_;
      for (std::size_t k = 0; k < 3; ++k) obj_pos[k] = g.uniform(p_.obj_xyz_range.low[k], p_.obj_xyz_range.high[k]);
    }
    if (!p_.reshapes_object) return;
    const Vec3& high = p_.obj_geom_range.high;
    for (int i = 0; i < ngeoms_; ++i) {
      const int gid = gid0_ + i;
      object_types_[static_cast<std::size_t>(i)] = static_cast<double>(2 + g.integer(5));  // choice([2, 3, 4, 5, 6])
      double* size = geom_size(gid);
      for (std::size_t k = 0; k < 3; ++k) size[k] = g.uniform(p_.obj_geom_range.low[k], high[k]);
      for (std::size_t k = 0; k < 3; ++k) geom_aabb_[6 * static_cast<std::size_t>(gid) + 3 + k] = high[k];
      geom_rbound_[static_cast<std::size_t>(gid)] = 2.0 * std::max(std::max(high[0], high[1]), high[2]);
      double* pos = geom_pos_.data() + 3 * gid;
      for (int k = 0; k < 3; ++k) pos[k] = g.uniform(-1.0 * size[k], size[k]);
      for (double& e : euler) e = g.uniform(-M_PI / 2, M_PI / 2);
      const std::array<double, 4> quat = euler2quat(euler);
      std::copy(quat.begin(), quat.end(), geom_quat_.data() + 4 * gid);
      const double rgba_low[4] = {0.2, 0.2, 0.2, 1}, rgba_high[4] = {0.9, 0.9, 0.9, 1};
      for (int k = 0; k < 4; ++k) {
        // Assigned into myosuite's float32 rgba array.
        object_rgba_[static_cast<std::size_t>(4 * i + k)] = static_cast<float>(g.uniform(rgba_low[k], rgba_high[k]));
      }
      double* friction = geom_friction_.data() + 3 * gid;
      for (std::size_t k = 0; k < 3; ++k) friction[k] = g.uniform(p_.obj_friction_range.low[k], p_.obj_friction_range.high[k]);
    }
    set_body_mass(object_bid_, g.uniform(p_.obj_mass_range[0], p_.obj_mass_range[1]));
    apply_object_looks();
    forward();
  }

  // Robot.reset to (qpos, qvel) and get_obs's sensor2sim, as the base's reset does them after reset_task.
  void robot_reset_now(const std::vector<double>& qpos, const std::vector<double>& qvel) {
    mjModel* mm = m();
    mjData* dd = d();
    const auto& mj = api();
    mj.resetData(mm, dd);
    const int flags = mm->opt.disableflags;
    mm->opt.disableflags = flags | mjDSBL_ACTUATION;
    mj.forward(mm, dd);
    mm->opt.disableflags = flags;
    std::copy(qpos.begin(), qpos.end(), dd->qpos);
    std::copy(qvel.begin(), qvel.end(), dd->qvel);
    forward();
    forward();
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const mjModel* mm = m();
    // _setup's init_qpos (a keyframe), moved by qpos_noise_range of each joint's range but the object's six.
    qpos = key_qpos_;
    if (p_.qpos_noise_range != 0) {
      for (int j = 0; j < mm->nq - 6; ++j) {
        qpos[static_cast<std::size_t>(j)] = key_qpos_[static_cast<std::size_t>(j)] +
                                            p_.qpos_noise_range * (mm->jnt_range[2 * j + 1] - mm->jnt_range[2 * j]);
      }
    }
    retried_ = false;
    for (int attempt = 0;; ++attempt) {
      if (attempt == kMaxResets) {
        throw std::runtime_error(setup_.id + ": no contact-free reset in " + std::to_string(kMaxResets) + " draws");
      }
      draw_scene();
      // BaseV0.reset and, if the pose touches anything, RelocateEnvV0.reset again.
      robot_reset_now(qpos, qvel);
      if (attempt == 0) {
        first_obs_.clear();
        observe(first_obs_);
      }
      if (d()->ncon == 0) break;
      retried_ = true;
    }
  }

 private:
  const RelocateParams p_;
  int palm_sid_ = -1, object_sid_ = -1, object_bid_ = -1, goal_sid_ = -1, indicator_sid_ = -1, goal_bid_ = -1;
  int gid0_ = -1, ngeoms_ = 0;
  std::vector<double> key_qpos_;
  std::vector<double> body_pos_, body_quat_, geom_pos_, geom_quat_, geom_aabb_, geom_rbound_, geom_friction_;
  std::vector<double> object_types_, object_rgba_, solved_shown_;
  std::vector<int> geom_type_;
  std::vector<float> geom_rgba_, site_rgba_;
  std::vector<double> site_size_;
  std::array<float, 2> default_rgba_{};
  std::array<double, 3> default_size_{};
  std::vector<double> first_obs_;
  bool retried_ = false;
  bool solved_ = false;
};

constexpr const char* kModel = "envs/myo/assets/arm/myoarm_relocate.xml";

bool register_all() {
  const std::vector<std::pair<std::string, double>> weights = {{"pos_dist", 100.0}, {"rot_dist", 1.0}};
  const auto add = [&](const std::string& id, RelocateParams params) {
    register_task(id, {{kModel, 5, weights}, make_task<RelocateEnv>(params)});
  };
  const double inf = std::numeric_limits<double>::infinity();
  add("myoChallengeRelocateP1-v0", {.target_xyz_range = {{0.0, -.35, 0.9}, {0.2, -.1, 0.9}},
                                    .target_rxryrz_range = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
                                    .pos_th = 0.1,
                                    .rot_th = inf});
  add("myoChallengeRelocateP2-v0", {.target_xyz_range = {{0.0, -.45, 0.9}, {0.3, -.1, 1.05}},
                                    .target_rxryrz_range = {{-.2, -.2, -.2}, {0.2, 0.2, 0.2}},
                                    .moves_object = true,
                                    .reshapes_object = true,
                                    .obj_xyz_range = {{-0.1, -.35, 1.0}, {0.1, -.15, 1.0}},
                                    .obj_geom_range = {{.015, 0.015, 0.015}, {.025, .025, .025}},
                                    .obj_mass_range = {0.050, 0.200},
                                    .obj_friction_range = {{0.8, 0.004, 0.00008}, {1.2, 0.006, 0.00012}},
                                    .qpos_noise_range = 0.01,
                                    .pos_th = 0.1,
                                    .rot_th = inf});
  add("myoChallengeRelocateP2eval-v0", {.target_xyz_range = {{-.5, -.5, .9}, {0.4, -.1, 1.1}},
                                        .target_rxryrz_range = {{-.3, -.3, -.3}, {.3, .3, .3}},
                                        .moves_object = true,
                                        .reshapes_object = true,
                                        .obj_xyz_range = {{-0.20, -.40, 1.0}, {0.15, -.10, 1.0}},
                                        .obj_geom_range = {{.015, 0.015, 0.015}, {.025, .025, .035}},
                                        .obj_mass_range = {0.050, 0.300},
                                        .obj_friction_range = {{0.8, 0.004, 0.00008}, {1.2, 0.006, 0.00012}},
                                        .qpos_noise_range = 0.015,
                                        .pos_th = 0.1,
                                        .rot_th = inf});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
