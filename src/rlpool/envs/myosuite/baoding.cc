// MyoSuite's Baoding-balls challenge: myosuite 2.11.6's BaodingEnvV1
// (envs/myo/myochallenge/baoding_v1.py) and its registered ids
// (envs/myo/myochallenge/__init__.py: myoChallengeBaodingP1-v1 and
// myoChallengeBaodingP2-v1; their myoSarc/myoFati variants follow).
//
// Two balls follow targets circling the palm: before each step the target
// sites move to the goal trajectory's next angle (sign * 2 pi t dt / period
// from each ball's starting angle, on an ellipse of radii x_radius, y_radius
// around the palm's centre), so the observation after a reset still shows
// the targets of the step before it. The observation is the hand's joints,
// each ball's position and velocity * dt, the targets' positions, the target
// errors and the muscles' activations; the reward terms are pos_dist_1,
// pos_dist_2 (-|error|) and act_reg; done when a ball falls below drop_th.
// A reset draws, in order: for task_choice "random", the task (a choice over
// HOLD, BAODING_CW, BAODING_CCW: one integer(3)) and ball 1's starting angle
// (uniform(0, 2 pi)); x_radius, y_radius and the period (one uniform each,
// even where a range is one value); then, where the id has the ranges, the
// two balls' masses, their frictions (three uniforms per ball, ball 1's first)
// and sizes (one uniform per ball, written to all three size entries).
// Before the first reset the targets stand where MujocoEnv._setup's
// step(zeros) puts them: angle 0 of the trajectory on radii drawn in _setup
// from the construction seed, here the middles of the ranges (P1's are
// single values, so exact). Past the trajectory's 1000 entries (where
// myosuite raises IndexError) the same formula goes on.
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

struct BaodingParams {
  std::array<double, 2> goal_time_period{5, 5};
  std::array<double, 2> goal_xrange{0.025, 0.025};
  std::array<double, 2> goal_yrange{0.028, 0.028};
  bool random_task = false;  // task_choice "random" (else the fixed BAODING_CCW)
  bool mass_range = false, size_range = false, friction_change = false;
  std::array<double, 2> obj_mass_range{};
  std::array<double, 2> obj_size_range{};
  std::array<double, 3> obj_friction_change{};
  double drop_th = 1.25;
  double proximity_th = 0.015;
};

// The task state a saved state holds, as indices into task_.
enum Slot { kTask, kBall1Angle, kXRadius, kYRadius, kPeriod, kCounter, kNearFlag, kSlots };
// Task: HOLD, BAODING_CW, BAODING_CCW, as myosuite's enum values.
constexpr int kBaodingCcw = 2;
constexpr double kCenterX = -0.0125, kCenterY = -0.07;

class BaodingEnv : public MyoEnv {
 public:
  BaodingEnv(const Setup& setup, const TaskBase& base, BaodingParams params)
      : MyoEnv(setup, base, {"pos_dist_1", "pos_dist_2", "act_reg"}), p_(params) {
    mjModel* mm = m();
    object1_bid_ = body("ball1");
    object2_bid_ = body("ball2");
    object1_sid_ = site("ball1_site");
    object2_sid_ = site("ball2_site");
    object1_gid_ = geom("ball1");
    object2_gid_ = geom("ball2");
    target1_sid_ = site("target1_site");
    target2_sid_ = site("target2_site");
    if (mm->nq < 14 || mm->nv < 12) throw std::invalid_argument(setup.id + ": the model lacks the balls' free joints");
    // _setup shows the target sites (group 2); the balls' colours and frictions change per env.
    site_group_.assign(mm->site_group, mm->site_group + mm->nsite);
    site_group_[static_cast<std::size_t>(target1_sid_)] = 2;
    site_group_[static_cast<std::size_t>(target2_sid_)] = 2;
    mm->site_group = site_group_.data();
    geom_rgba_.assign(mm->geom_rgba, mm->geom_rgba + 4 * mm->ngeom);
    mm->geom_rgba = geom_rgba_.data();
    geom_friction_.assign(mm->geom_friction, mm->geom_friction + 3 * mm->ngeom);
    mm->geom_friction = geom_friction_.data();
    for (std::size_t k = 0; k < 3; ++k) friction1_[k] = geom_friction_[3 * static_cast<std::size_t>(object1_gid_) + k];
    task_.assign(kSlots, 0.0);
    task_[kTask] = kBaodingCcw;
    task_[kBall1Angle] = 1.0 * M_PI / 4.0;
    task_[kXRadius] = (p_.goal_xrange[0] + p_.goal_xrange[1]) / 2.0;
    task_[kYRadius] = (p_.goal_yrange[0] + p_.goal_yrange[1]) / 2.0;
    task_[kPeriod] = 6;
    // _setup's step(zeros): the targets at the trajectory's first angle.
    move_targets();
    keep(&task_);
    keep(&geom_friction_);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    move_targets();
    task_[kCounter] += 1;
    MyoEnv::step(action, rng, out);
    task_[kNearFlag] = near_ ? 1.0 : 0.0;
    colour_balls();
  }

 protected:
  void restore_model() override { colour_balls(); }

  int geom(const char* name) const {
    const int id = api().name2id(m(), mjOBJ_GEOM, name);
    if (id < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no geom named '" + name + "'");
    return id;
  }

  // step: the target sites at goal[counter] (create_goal_trajectory's angle plus each ball's start).
  void move_targets() {
    const int sign = task_[kTask] == 0 ? 0 : task_[kTask] == 1 ? -1 : 1;
    const double t = task_[kCounter];
    const double angle = static_cast<double>(sign * 2) * M_PI * (t * dt() / task_[kPeriod]);
    const double angle1 = angle + task_[kBall1Angle];
    const double angle2 = angle + (task_[kBall1Angle] - M_PI);
    double* target1 = site_pos(target1_sid_);
    double* target2 = site_pos(target2_sid_);
    target1[0] = task_[kXRadius] * std::cos(angle1) + kCenterX;
    target1[1] = task_[kYRadius] * std::sin(angle1) + kCenterY;
    target2[0] = task_[kXRadius] * std::cos(angle2) + kCenterX;
    target2[1] = task_[kYRadius] * std::sin(angle2) + kCenterY;
  }

  // get_reward_dict's success indicator (ball 2 follows ball 1's distance, as myosuite's does).
  void colour_balls() {
    const bool near = task_[kNearFlag] != 0.0;
    float* rgba1 = geom_rgba_.data() + 4 * object1_gid_;
    float* rgba2 = geom_rgba_.data() + 4 * object2_gid_;
    rgba1[0] = near ? 1.0f : 0.5f;
    rgba1[1] = near ? 1.0f : 0.5f;
    rgba2[0] = near ? 0.9f : 0.5f;
    rgba2[1] = near ? 0.7f : 0.5f;
  }

  void errors(double* err1, double* err2) const {
    const mjData* dd = d();
    for (int k = 0; k < 3; ++k) {
      err1[k] = dd->site_xpos[3 * target1_sid_ + k] - dd->site_xpos[3 * object1_sid_ + k];
      err2[k] = dd->site_xpos[3 * target2_sid_ + k] - dd->site_xpos[3 * object2_sid_ + k];
    }
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    const int nq = mm->nq, nv = mm->nv;
    obs.insert(obs.end(), dd->qpos, dd->qpos + nq - 14);
    const auto put_site = [&](int s) { obs.insert(obs.end(), dd->site_xpos + 3 * s, dd->site_xpos + 3 * s + 3); };
    put_site(object1_sid_);
    for (int i = nv - 12; i < nv - 9; ++i) obs.push_back(dd->qvel[i] * dt());
    put_site(object2_sid_);
    for (int i = nv - 6; i < nv - 3; ++i) obs.push_back(dd->qvel[i] * dt());
    put_site(target1_sid_);
    put_site(target2_sid_);
    double err1[3], err2[3];
    errors(err1, err2);
    obs.insert(obs.end(), err1, err1 + 3);
    obs.insert(obs.end(), err2, err2 + 3);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    double err1[3], err2[3];
    errors(err1, err2);
    const double target1_dist = numpy_norm(err1, 3);
    const double target2_dist = numpy_norm(err2, 3);
    const double target_dist = target1_dist + target2_dist;
    double act_mag = mm->na > 0 ? numpy_norm(dd->act, mm->na) : 0.0;
    if (mm->na != 0) act_mag = act_mag / mm->na;
    const bool is_fall = dd->site_xpos[3 * object1_sid_ + 2] < p_.drop_th || dd->site_xpos[3 * object2_sid_ + 2] < p_.drop_th;
    r.terms[0] = -1.0 * target1_dist;
    r.terms[1] = -1.0 * target2_dist;
    r.terms[2] = -1.0 * act_mag;
    r.sparse = -target_dist;
    r.solved = target1_dist < p_.proximity_th && target2_dist < p_.proximity_th && !is_fall;
    r.done = is_fall;
    near_ = target1_dist < p_.proximity_th;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    Rng& g = rng();
    if (p_.random_task) {
      task_[kTask] = static_cast<double>(g.integer(3));
      task_[kBall1Angle] = g.uniform(0.0, 2 * M_PI);
    }
    task_[kCounter] = 0;
    task_[kXRadius] = g.uniform(p_.goal_xrange[0], p_.goal_xrange[1]);
    task_[kYRadius] = g.uniform(p_.goal_yrange[0], p_.goal_yrange[1]);
    task_[kPeriod] = g.uniform(p_.goal_time_period[0], p_.goal_time_period[1]);
    if (p_.mass_range) {
      set_body_mass(object1_bid_, g.uniform(p_.obj_mass_range[0], p_.obj_mass_range[1]));
      set_body_mass(object2_bid_, g.uniform(p_.obj_mass_range[0], p_.obj_mass_range[1]));
    }
    if (p_.friction_change) {
      for (const int gid : {object1_gid_, object2_gid_}) {
        for (std::size_t k = 0; k < 3; ++k) {
          const double lo = friction1_[k] - p_.obj_friction_change[k], hi = friction1_[k] + p_.obj_friction_change[k];
          geom_friction_[3 * static_cast<std::size_t>(gid) + k] = g.uniform(lo, hi);
        }
      }
    }
    if (p_.size_range) {
      for (const int gid : {object1_gid_, object2_gid_}) {
        const double size = g.uniform(p_.obj_size_range[0], p_.obj_size_range[1]);
        double* s = geom_size(gid);
        s[0] = s[1] = s[2] = size;
      }
    }
    // _setup's init_qpos: the hand fully open (its joints times 0), palm up; the balls as the model has them.
    const std::size_t hand = qpos.size() - 14;
    for (std::size_t i = 0; i < hand; ++i) qpos[i] *= 0.0;
    qpos[0] = -1.57;
  }

 private:
  const BaodingParams p_;
  int object1_bid_ = -1, object2_bid_ = -1, object1_sid_ = -1, object2_sid_ = -1;
  int object1_gid_ = -1, object2_gid_ = -1, target1_sid_ = -1, target2_sid_ = -1;
  std::array<double, 3> friction1_{};  // ball 1's friction in the model: the centre of the drawn range
  std::vector<double> task_, geom_friction_;
  std::vector<int> site_group_;
  std::vector<float> geom_rgba_;
  bool near_ = false;  // the last reward's ball-1 indicator, shown once a step ends
};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_baoding.xml";

bool register_all() {
  const std::vector<std::pair<std::string, double>> weights = {{"pos_dist_1", 5.0}, {"pos_dist_2", 5.0}};
  register_task("myoChallengeBaodingP1-v1",
                {{kModel, 10, weights},
                 make_task<BaodingEnv>(BaodingParams{
                     .goal_time_period = {5, 5}, .goal_xrange = {0.025, 0.025}, .goal_yrange = {0.028, 0.028}})});
  register_task("myoChallengeBaodingP2-v1",
                {{kModel, 10, weights},
                 make_task<BaodingEnv>(BaodingParams{.goal_time_period = {4, 6},
                                                     .goal_xrange = {0.020, 0.030},
                                                     .goal_yrange = {0.022, 0.032},
                                                     .random_task = true,
                                                     .mass_range = true,
                                                     .size_range = true,
                                                     .friction_change = true,
                                                     .obj_mass_range = {0.030, 0.300},
                                                     .obj_size_range = {0.018, 0.024},
                                                     .obj_friction_change = {0.2, 0.001, 0.00002}})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
