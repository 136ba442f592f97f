// MyoSuite's table-tennis challenge: myosuite 2.11.6's TableTennisEnvV0
// (envs/myo/myochallenge/tabletennis_v0.py: get_obs_dict, get_reward_dict,
// _get_done, reset, cal_ball_qvel, step; get_ball_contact_labels and
// evaluate_pingpong_trajectory at the file's end) and its ids P0, P1 and P2
// (envs/myo/myochallenge/__init__.py).
//
// The model is myoarm_tabletennis.xml as _preprocess_spec edits it (leg joints
// gone, only the ball's and paddle's sensors, a mirrored left arm), written at
// unpack time by model_edits.py's write_table_tennis. Non-muscle actuators take
// the middle of their control range plus a * half of it (cast to float32, as
// myosuite stores it in the action's array) before the base's muscle mapping.
//
// Each observation records which labels (paddle, own half, opponent half,
// ground, net, anything else) the ball touches; evaluate_pingpong_trajectory
// reads that record from its start and stops at the first decisive event, so
// it is kept here as the state of that scan (a fixed-size part of the saved
// state). A rally is solved once the ball reaches the opponent's half after the
// paddle; with every registered id's rally_count of 1 the ball is never
// relaunched. Reset draws, in myosuite's order: the paddle's mass, the ball's
// friction (3), the ball's position (3), then v_z and the ball's velocity (3).
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/numpy_exp.h"

namespace rlpool::myosuite {
namespace {

using Vec3 = std::array<double, 3>;
struct Box {
  Vec3 low, high;
};

struct TableTennisParams {
  std::optional<Box> ball_xyz_range;
  bool ball_qvel = false;
  std::optional<Box> ball_friction_range;
  std::optional<std::array<double, 2>> paddle_mass_range;
};

// PingpongContactLabels, in the order of the touching_info vector.
enum Label { kPaddle = 0, kOwn = 1, kOpponent = 2, kGround = 3, kNet = 4, kEnv = 5 };
// ContactTrajIssue, plus kNone (a rally that reached the opponent after the paddle: solved) and kPending
// (nothing decisive yet: evaluate_pingpong_trajectory gives MISS).
enum Issue { kOwnHalf = 0, kMiss = 1, kNoPaddle = 2, kDoubleTouch = 3, kNone = 4, kPending = 5 };

constexpr double kMaxTime = 3.0;
// R.from_euler('xyz', [-0.3, 1.57, 0]).as_quat()[[3, 0, 1, 2]] (scipy 1.17).
constexpr std::array<double, 4> kInitPaddleQuat = {0.6994450614237633, -0.10571078187807806, 0.6988882962338909,
                                                   0.10562663504969944};

class TableTennisEnv : public MyoEnv {
 public:
  TableTennisEnv(const Setup& setup, const TaskBase& base, TableTennisParams params)
      : MyoEnv(setup, base, {"reach_dist", "palm_dist", "paddle_quat", "torso_up", "act_reg"}), p_(std::move(params)) {
    mjModel* mm = m();
    paddle_sid_ = site("paddle");
    paddle_bid_ = body("paddle");
    ball_sid_ = site("pingpong");
    ball_bid_ = body("pingpong");
    pelvis_sid_ = site("pelvis");
    grasp_sid_ = site("S_grasp");
    ball_gid_ = geom("pingpong");
    own_gid_ = geom("coll_own_half");
    paddle_gid_ = geom("pad");
    opponent_gid_ = geom("coll_opponent_half");
    ground_gid_ = geom("ground");
    net_gid_ = geom("coll_net");
    ball_vel_adr_ = sensor_adr("pingpong_vel_sensor");
    paddle_vel_adr_ = sensor_adr("paddle_vel_sensor");
    torso_adr_ = mm->jnt_qposadr[joint("flex_extension")];
    ball_dofadr_ = mm->body_dofadr[ball_bid_];
    ball_posadr_ = mm->jnt_qposadr[joint("pingpong_freejoint")];
    if (mm->nkey < 1) throw std::invalid_argument("'" + setup.xml_file + "' has no keyframe");
    // IdInfo: the body's joints (not the ball's or the paddle's): one qpos address each, and their dofs.
    for (int j = 0; j < mm->njnt; ++j) {
      const std::string name = mm->names + mm->name_jntadr[j];
      if (name.starts_with("ping")) continue;
      if (name != "paddle_freejoint") body_qpos_.push_back(mm->jnt_qposadr[j]);
      if (name != "paddle_freejoint") body_dofs_.push_back(mm->jnt_dofadr[j]);
    }
    for (int i = 0; i < mm->nu; ++i) robotic_.push_back(mm->actuator_dyntype[i] != mjDYN_MUSCLE);
    // The model fields the resets write: this env's own copies, saved with its state.
    body_pos_.assign(mm->body_pos, mm->body_pos + 3 * mm->nbody);
    geom_friction_.assign(mm->geom_friction, mm->geom_friction + 3 * mm->ngeom);
    mm->body_pos = body_pos_.data();
    mm->geom_friction = geom_friction_.data();
    keep(&body_pos_);
    keep(&geom_friction_);
    keep(&scan_);
    // _setup: init_qvel carries the ball's start velocity (a reset with ball_qvel replaces it).
    init_qvel_.assign(static_cast<std::size_t>(mm->nv), 0.0);
    init_qvel_[static_cast<std::size_t>(ball_dofadr_)] = 5.6;
    init_qvel_[static_cast<std::size_t>(ball_dofadr_ + 1)] = 1.6;
    init_qvel_[static_cast<std::size_t>(ball_dofadr_ + 2)] = 0.1;
    keep(&init_qvel_);
    actions_.resize(static_cast<std::size_t>(mm->nu));
  }

  // TableTennisEnvV0.step: the robotic actuators' normalized actions to their control range.
  void step(const Action& action, Rng& rng, const Output& out) override {
    const mjModel* mm = m();
    const double* a = action.continuous();
    for (int i = 0; i < mm->nu; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const double x = static_cast<double>(static_cast<float>(a[i]));
      if (!robotic_[k]) {
        actions_[k] = x;
        continue;
      }
      const double lo = mm->actuator_ctrlrange[2 * i], hi = mm->actuator_ctrlrange[2 * i + 1];
      actions_[k] = static_cast<double>(static_cast<float>((lo + hi) / 2.0 + x * (hi - lo) / 2.0));
    }
    MyoEnv::step(Action{actions_.data()}, rng, out);
  }

 protected:
  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const auto put3 = [&obs](const double* v) { obs.insert(obs.end(), v, v + 3); };
    put3(dd->site_xpos + 3 * pelvis_sid_);
    for (const int adr : body_qpos_) obs.push_back(dd->qpos[adr]);
    for (const int adr : body_dofs_) obs.push_back(dd->qvel[adr]);
    put3(dd->site_xpos + 3 * ball_sid_);
    put3(dd->sensordata + ball_vel_adr_);
    put3(dd->site_xpos + 3 * paddle_sid_);
    put3(dd->sensordata + paddle_vel_adr_);
    obs.insert(obs.end(), dd->xquat + 4 * paddle_bid_, dd->xquat + 4 * paddle_bid_ + 4);
    for (int k = 0; k < 3; ++k) obs.push_back(dd->site_xpos[3 * paddle_sid_ + k] - dd->site_xpos[3 * ball_sid_ + k]);
    // The labels the ball touches now: recorded (contact_trajectory) and counted once each.
    std::array<bool, 6> touching{};
    for (int i = 0; i < dd->ncon; ++i) {
      const mjContact& c = dd->contact[i];
      if (mm->geom_bodyid[c.geom[0]] == ball_bid_) {
        touching[static_cast<std::size_t>(label(c.geom[1]))] = true;
      } else if (mm->geom_bodyid[c.geom[1]] == ball_bid_) {
        touching[static_cast<std::size_t>(label(c.geom[0]))] = true;
      }
    }
    scan(touching);
    for (const bool t : touching) obs.push_back(t ? 1.0 : 0.0);
    touching_paddle_ = touching[kPaddle];
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    std::array<double, 3> reach_err{}, palm_err{};
    for (int k = 0; k < 3; ++k) {
      const auto i = static_cast<std::size_t>(k);
      reach_err[i] = dd->site_xpos[3 * paddle_sid_ + k] - dd->site_xpos[3 * ball_sid_ + k];
      palm_err[i] = dd->site_xpos[3 * grasp_sid_ + k] - dd->site_xpos[3 * paddle_sid_ + k];
    }
    const double reach_dist = std::abs(numpy_norm(reach_err.data(), 3));
    const double palm_dist = std::abs(numpy_norm(palm_err.data(), 3));
    const double act_mag = mm->na != 0 ? numpy_norm(dd->act, mm->na) / mm->na : 0.0;
    std::array<double, 4> quat_err{};
    for (std::size_t k = 0; k < 4; ++k) quat_err[k] = dd->xquat[4 * paddle_bid_ + static_cast<int>(k)] - kInitPaddleQuat[k];
    const double paddle_quat_err = numpy_norm(quat_err.data(), 4);
    const double torso_err = std::abs(dd->qpos[torso_adr_]);
    const Issue issue = result();
    const bool solved = issue == kNone;
    r.terms[0] = numpy_exp(-1.0 * reach_dist);
    r.terms[1] = numpy_exp(-5.0 * palm_dist);
    r.terms[2] = numpy_exp(-5 * paddle_quat_err);
    r.terms[3] = numpy_exp(-5 * torso_err);
    r.terms[4] = -1.0 * act_mag;
    r.sparse = touching_paddle_ ? 1.0 : 0.0;
    r.solved = solved;
    // _get_done with the ball's height.
    const double z = dd->site_xpos[3 * ball_sid_ + 2];
    r.done = dd->time > kMaxTime || z < 0.3 || solved || issue == kOwnHalf || issue == kNoPaddle || issue == kDoubleTouch;
    // A ball below 0.3 before the time is up sets obs_dict["time"] (the info's time) to MAX_TIME.
    if (!(dd->time > kMaxTime) && z < 0.3) r.time = kMaxTime;
    // A solved rally counts; rally_count 1 ends the episode there (no relaunch).
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const mjModel* mm = m();
    scan_.assign(kScanSize, 0.0);
    scan_[kResult] = kPending;
    // init_qpos: the model's first keyframe.
    qpos.assign(mm->key_qpos, mm->key_qpos + mm->nq);
    Rng& g = rng();
    if (p_.paddle_mass_range) set_body_mass(paddle_bid_, g.uniform((*p_.paddle_mass_range)[0], (*p_.paddle_mass_range)[1]));
    if (p_.ball_friction_range) {
      double* f = geom_friction_.data() + 3 * ball_gid_;
      for (std::size_t k = 0; k < 3; ++k) f[k] = g.uniform(p_.ball_friction_range->low[k], p_.ball_friction_range->high[k]);
    }
    Vec3 ball_pos{};
    for (int k = 0; k < 3; ++k) ball_pos[static_cast<std::size_t>(k)] = qpos[static_cast<std::size_t>(ball_posadr_ + k)];
    if (p_.ball_xyz_range) {
      for (std::size_t k = 0; k < 3; ++k) ball_pos[k] = g.uniform(p_.ball_xyz_range->low[k], p_.ball_xyz_range->high[k]);
      for (int k = 0; k < 3; ++k) {
        body_pos_[static_cast<std::size_t>(3 * ball_bid_ + k)] = ball_pos[static_cast<std::size_t>(k)];
        qpos[static_cast<std::size_t>(ball_posadr_ + k)] = ball_pos[static_cast<std::size_t>(k)];
      }
    }
    if (p_.ball_qvel) {
      // cal_ball_qvel: velocities that land the ball on the model's half of the table.
      const Vec3 upper = {1.35, 0.70, 0.785}, lower = {0.5, -0.60, 0.785};
      const double v_z = g.uniform(-0.1, 0.1);
      const double a = -0.5 * 9.81, b = v_z, c = ball_pos[2] - upper[2];
      const double discriminant = std::pow(b, 2.0) - 4 * a * c;
      if (discriminant < 0) throw std::logic_error(setup_.id + ": no real flight time for the ball's start");
      const double t = (-b - std::pow(discriminant, 0.5)) / (2 * a);
      const Vec3 low = {(lower[0] - ball_pos[0]) / t, (lower[1] - ball_pos[1]) / t, v_z};
      const Vec3 high = {(upper[0] - ball_pos[0]) / t, (upper[1] - ball_pos[1]) / t, v_z};
      for (std::size_t k = 0; k < 3; ++k) init_qvel_[static_cast<std::size_t>(ball_dofadr_) + k] = g.uniform(low[k], high[k]);
    }
    qvel = init_qvel_;
  }

 private:
  // The scan of evaluate_pingpong_trajectory over the record so far.
  enum ScanField { kHitPaddle, kBouncedFromPaddle, kBouncedFromTable, kOwnCount, kOwnPhaseDone, kResult, kScanSize };

  Label label(int gid) const {
    if (gid == paddle_gid_) return kPaddle;
    if (gid == own_gid_) return kOwn;
    if (gid == opponent_gid_) return kOpponent;
    if (gid == net_gid_) return kNet;
    if (gid == ground_gid_) return kGround;
    return kEnv;
  }

  Issue result() const {
    const auto r = static_cast<Issue>(static_cast<int>(scan_[kResult]));
    return r == kPending ? kMiss : r;
  }

  // One more entry of contact_trajectory through evaluate_pingpong_trajectory's loop body.
  void scan(const std::array<bool, 6>& s) {
    if (static_cast<int>(scan_[kResult]) != kPending) return;
    const auto decide = [this](Issue issue) { scan_[kResult] = issue; };
    const bool paddle = s[kPaddle];
    if (!paddle && scan_[kHitPaddle] != 0.0) scan_[kBouncedFromPaddle] = 1.0;
    if (paddle && scan_[kBouncedFromPaddle] != 0.0) return decide(kDoubleTouch);
    if (paddle) scan_[kHitPaddle] = 1.0;
    if (s[kOwn]) {
      if (scan_[kBouncedFromTable] == 0.0) {
        scan_[kBouncedFromTable] = 1.0;
        scan_[kOwnCount] = 1.0;
      } else if (scan_[kOwnPhaseDone] == 0.0) {
        scan_[kOwnCount] += 1.0;
        if (scan_[kOwnCount] > 2.0) {
          scan_[kOwnPhaseDone] = 1.0;
          return decide(kOwnHalf);
        }
      } else {
        return decide(kOwnHalf);
      }
    } else if (scan_[kBouncedFromTable] != 0.0) {
      scan_[kOwnPhaseDone] = 1.0;
    }
    if (s[kOpponent]) decide(scan_[kHitPaddle] != 0.0 ? kNone : kNoPaddle);
  }

  int geom(const std::string& name) const {
    const int id = api().name2id(m(), mjOBJ_GEOM, name.c_str());
    if (id < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no geom named '" + name + "'");
    return id;
  }

  int sensor_adr(const std::string& name) const {
    const int id = api().name2id(m(), mjOBJ_SENSOR, name.c_str());
    if (id < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no sensor named '" + name + "'");
    if (m()->sensor_dim[id] != 3) throw std::invalid_argument("sensor '" + name + "' is not 3-dimensional");
    return m()->sensor_adr[id];
  }

  const TableTennisParams p_;
  int paddle_sid_ = -1, paddle_bid_ = -1, ball_sid_ = -1, ball_bid_ = -1, pelvis_sid_ = -1, grasp_sid_ = -1;
  int ball_gid_ = -1, own_gid_ = -1, paddle_gid_ = -1, opponent_gid_ = -1, ground_gid_ = -1, net_gid_ = -1;
  int ball_vel_adr_ = 0, paddle_vel_adr_ = 0, torso_adr_ = 0, ball_dofadr_ = 0, ball_posadr_ = 0;
  std::vector<int> body_qpos_, body_dofs_;
  std::vector<bool> robotic_;
  std::vector<double> body_pos_, geom_friction_, init_qvel_, actions_;
  std::vector<double> scan_ = std::vector<double>(kScanSize, 0.0);
  bool touching_paddle_ = false;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"reach_dist", 1.0}, {"palm_dist", 1.0}, {"paddle_quat", 2.0}, {"act_reg", 0.5},
    {"torso_up", 2.0},   {"sparse", 100.0},  {"solved", 1000.0},   {"done", -10.0}};

constexpr const char* kModel = "envs/myo/assets/arm/myoarm_tabletennis_edited.mjb";

bool add(const std::string& id, TableTennisParams params) {
  return register_task(id, {{kModel, 5, kWeights}, make_task<TableTennisEnv>(std::move(params))});
}

bool register_all() {
  add("myoChallengeTableTennisP0-v0", {});
  add("myoChallengeTableTennisP1-v0", {.ball_xyz_range = Box{{-1.25, -0.5, 1.4}, {-1.2, -0.45, 1.5}}});
  add("myoChallengeTableTennisP2-v0", {.ball_xyz_range = Box{{-1.25, -0.5, 1.4}, {-0.8, 0.5, 1.5}},
                                       .ball_qvel = true,
                                       .ball_friction_range = Box{{0.9, 0.004, 0.00001}, {1.1, 0.006, 0.00003}},
                                       .paddle_mass_range = std::array<double, 2>{0.1, 0.15}});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
