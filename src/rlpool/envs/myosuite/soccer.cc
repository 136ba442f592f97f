// MyoSuite's soccer challenge: myosuite 2.11.6's SoccerEnvV0 with its
// GoalKeeper (envs/myo/myochallenge/soccer_v0.py), registered in
// envs/myo/myochallenge/__init__.py as myoChallengeSoccerP1-v0 and -P2-v0 on
// the leg model envs/myo/assets/leg_soccer/myolegs_soccer.xml (its
// heightfield 10 below the floor, as WalkEnvV0._setup leaves it).
//
// The observation is the 46 listed joints' qpos and qvel * dt, the four foot
// touch sensors, the torso's orientation, the ball's position, the root
// joint's qpos (7) and qvel (6), the actuators' lengths, velocities and
// forces (clipped, forces / 1000) and the activations. Reward terms:
// goal_scored, time_cost (the time), act_reg (mean squared activation), pain
// (the joint-limit forces of 12 joints, |clipped to 1000| / 1000, averaged);
// sparse and done: a goal, 10 s, or the pelvis below 0.2.
//
// A reset draws, in order: P2's start (keyframe 0 plus a uniform in
// [-0.02, 0.02) on each listed joint, one in [-1, 0) on the root's x and one
// in [-1, 1) on its y; P1: keyframe 0, no draws); the model is reset and
// observed; then the goalkeeper is reset: a new noise process (pink_noise.h,
// 2 x 6 normals twice, scaled by the previous episode's block speed), its
// policy (one uniform: block_ball, random, stationary), its y (one uniform in
// [-3.3, 3.3)) and its block speed (one uniform). Each step first moves the
// goalkeeper along y (random: the next noise sample, a new 10-sample buffer
// drawn every 10 steps), then the model. Before the first reset the previous
// block speed is the middle of random_vel_range (myosuite's comes from its
// construction draw). No draw uses numpy's global generator.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/leg_challenge.h"
#include "envs/myosuite/pink_noise.h"
#include "envs/myosuite/quat_math.h"
#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {
namespace {

enum Keeper { kBlockBall = 0, kRandom = 1, kStationary = 2 };

constexpr double kGoalX = 50.0, kYMin = -3.3, kYMax = 3.3, kZMin = 0.0, kZMax = 2.2;

constexpr std::array<const char*, 46> kMyoJoints = {
    "Abs_r3", "Abs_t1", "Abs_t2", "L1_L2_AR", "L1_L2_FE", "L1_L2_LB", "L2_L3_AR", "L2_L3_FE", "L2_L3_LB",
    "L3_L4_AR", "L3_L4_FE", "L3_L4_LB", "L4_L5_AR", "L4_L5_FE", "L4_L5_LB", "ankle_angle_l", "ankle_angle_r",
    "axial_rotation", "flex_extension", "hip_adduction_l", "hip_adduction_r", "hip_flexion_l", "hip_flexion_r",
    "hip_rotation_l", "hip_rotation_r", "knee_angle_l", "knee_angle_l_beta_rotation1",
    "knee_angle_l_beta_translation1", "knee_angle_l_beta_translation2", "knee_angle_l_rotation2",
    "knee_angle_l_rotation3", "knee_angle_l_translation1", "knee_angle_l_translation2", "knee_angle_r",
    "knee_angle_r_beta_rotation1", "knee_angle_r_beta_translation1", "knee_angle_r_beta_translation2",
    "knee_angle_r_rotation2", "knee_angle_r_rotation3", "knee_angle_r_translation1", "knee_angle_r_translation2",
    "lat_bending", "mtp_angle_l", "mtp_angle_r", "subtalar_angle_l", "subtalar_angle_r"};

constexpr std::array<const char*, 12> kOverextension = {
    "hip_adduction_l", "hip_adduction_r", "hip_flexion_l", "hip_flexion_r", "hip_rotation_l", "hip_rotation_r",
    "knee_angle_l", "knee_angle_l_rotation2", "knee_angle_l_rotation3", "mtp_angle_l", "ankle_angle_l",
    "subtalar_angle_l"};

struct SoccerParams {
  bool random_reset = false;  // reset_type "random" (else keyframe 0)
  std::array<double, 3> probabilities{0.1, 0.45, 0.45};
  std::array<double, 2> random_vel_range{1.0, 5.0};
  double rnd_pos_noise = 1.0;
  double rnd_joint_noise = 0.02;
  double max_time = 10.0;
};

class SoccerEnv : public OpponentEnv {
 public:
  SoccerEnv(const Setup& setup, const TaskBase& base, SoccerParams params)
      : OpponentEnv(setup, base, {"goal_scored", "time_cost", "act_reg", "pain"}, "goalkeeper"),
        p_(params),
        noise_(2, 10, 2.0) {
    const mjModel* mm = m();
    if (mm->nkey < 1) throw std::invalid_argument("'" + setup_.xml_file + "' has no keyframe 0");
    for (std::size_t k = 0; k < kMyoJoints.size(); ++k) {
      const int j = joint(kMyoJoints[k]);
      qadr_[k] = mm->jnt_qposadr[j];
      dadr_[k] = mm->jnt_dofadr[j];
    }
    for (const char* name : kOverextension) limit_dof_.push_back(mm->jnt_dofadr[joint(name)]);
    const int root = joint("root");
    if (mm->jnt_type[root] != mjJNT_FREE) throw std::invalid_argument("'" + setup_.xml_file + "': 'root' is not free");
    root_qadr_ = mm->jnt_qposadr[root];
    root_dadr_ = mm->jnt_dofadr[root];
    torso_ = body("torso");
    pelvis_ = body("pelvis");
    ball_ = body("soccer_ball");
    grf_ = foot_touch_sensors(mm, setup_.xml_file);
    own_terrain_pos(m(), geom_pos_, terrain_geom_id(mm, setup_.xml_file), -10.0);
    keeper_[1] = (p_.random_vel_range[0] + p_.random_vel_range[1]) / 2;
    keep(&keeper_);
    keep(noise_.buffer());
    keep(noise_.position());
  }

 protected:
  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    for (const int a : qadr_) obs.push_back(dd->qpos[a]);
    for (const int a : dadr_) obs.push_back(dd->qvel[a] * dt());
    for (const int adr : grf_) obs.push_back(dd->sensordata[adr]);
    obs.insert(obs.end(), dd->xquat + 4 * torso_, dd->xquat + 4 * torso_ + 4);
    obs.insert(obs.end(), dd->xpos + 3 * ball_, dd->xpos + 3 * ball_ + 3);
    obs.insert(obs.end(), dd->qpos + root_qadr_, dd->qpos + root_qadr_ + 7);
    obs.insert(obs.end(), dd->qvel + root_dadr_, dd->qvel + root_dadr_ + 6);
    put_actuator_state(mm, dd, obs);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjData* dd = d();
    const double act_mag = mean_square_act(m(), dd, squares_);
    const double* ball = dd->xpos + 3 * ball_;
    const bool goal = ball[0] >= kGoalX && kYMin <= ball[1] && ball[1] <= kYMax && kZMin <= ball[2] && ball[2] <= kZMax;
    const bool timeout = dd->time >= p_.max_time;
    const bool fallen = dd->xpos[3 * pelvis_ + 2] < 0.2;
    const bool done = goal || timeout || fallen;
    r.terms[0] = goal ? 1.0 : 0.0;
    r.terms[1] = dd->time;
    r.terms[2] = act_mag;
    r.terms[3] = joint_limit_pain(m(), dd, limit_dof_, joint_force_);
    r.sparse = done ? 1.0 : 0.0;
    r.solved = goal;
    r.done = done;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override {
    const mjModel* mm = m();
    qpos.assign(mm->key_qpos, mm->key_qpos + mm->nq);
    qvel.assign(mm->key_qvel, mm->key_qvel + mm->nv);
    if (!p_.random_reset) return;
    // _get_randomized_initial_state.
    const double jn = std::abs(p_.rnd_joint_noise), pn = std::abs(p_.rnd_pos_noise);
    for (const int a : qadr_) qpos[static_cast<std::size_t>(a)] += rng().uniform(-jn, jn);
    qpos[static_cast<std::size_t>(root_qadr_)] += rng().uniform(-pn, 0.0);
    qpos[static_cast<std::size_t>(root_qadr_ + 1)] += rng().uniform(-pn, pn);
  }

 private:
  // set_goalkeeper_pose: x fixed at the goal, y clipped to the goal's width.
  void set_pose(double y, double yaw) { set_opponent_pose(kGoalX, std::clamp(y, kYMin, kYMax), yaw); }

  // GoalKeeper.reset_goalkeeper(rng), after SoccerEnvV0.reset's base reset.
  void reset_opponent() override {
    noise_.start(rng(), keeper_[1]);
    keeper_[2] = 0.0;
    keeper_[3] = 0.0;
    const double u = rng().uniform();
    const auto& pr = p_.probabilities;
    if (u < pr[0]) {
      keeper_[0] = kBlockBall;
    } else if (u < pr[0] + pr[1]) {
      keeper_[0] = kRandom;
    } else if (u < pr[0] + pr[1] + pr[2]) {
      keeper_[0] = kStationary;
    }
    const double y = rng().uniform(kYMin, kYMax);
    set_pose(y, 0.0);
    keeper_[1] = rng().uniform(p_.random_vel_range[0], p_.random_vel_range[1]);
  }

  // update_goalkeeper_state, then move_goalkeeper.
  void update_opponent() override {
    const double speed = keeper_[1];
    std::array<double, 2> vel{0.0, 0.0};
    const auto policy = static_cast<int>(keeper_[0]);
    const double y = d()->mocap_pos[3 * mocap_ + 1];
    if (policy == kRandom) {
      double sample[2];
      noise_.sample(rng(), sample);
      vel = {std::clamp(sample[0], -speed, speed), std::clamp(sample[1], -speed, speed)};
    } else if (policy == kBlockBall) {
      const double target = std::clamp(d()->xpos[3 * ball_ + 1], kYMin, kYMax);
      vel = {std::clamp(target - y, -speed, speed), 0.0};
    }
    keeper_[2] = vel[0];
    keeper_[3] = vel[1];
    set_pose(y + dt() * vel[0], opponent_yaw());
  }

  const SoccerParams p_;
  ColoredNoise noise_;
  // The goalkeeper: policy, block speed, velocity (2).
  std::vector<double> keeper_{kStationary, 3.0, 0.0, 0.0};
  std::vector<double> geom_pos_, squares_, joint_force_;
  std::array<int, 46> qadr_{}, dadr_{};
  std::vector<int> limit_dof_;
  std::array<int, 4> grf_{};
  int root_qadr_ = -1, root_dadr_ = -1, torso_ = -1, pelvis_ = -1, ball_ = -1;
};

constexpr const char* kModel = "envs/myo/assets/leg_soccer/myolegs_soccer.xml";

bool add(const std::string& id, SoccerParams params) {
  const std::vector<std::pair<std::string, double>> weights = {
      {"goal_scored", 1000}, {"time_cost", -0.01}, {"act_reg", -100}, {"pain", -10}};
  return register_task(id, {{kModel, 10, weights}, make_task<SoccerEnv>(params)});
}

const bool kRegistered =
    add("myoChallengeSoccerP1-v0", SoccerParams{.random_reset = false, .probabilities = {0.0, 0.0, 1.0}}) &&
    add("myoChallengeSoccerP2-v0", SoccerParams{.random_reset = true, .probabilities = {0.1, 0.3, 0.6}});

}  // namespace
}  // namespace rlpool::myosuite
