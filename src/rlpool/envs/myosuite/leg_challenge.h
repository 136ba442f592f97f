// What MyoSuite's leg challenges (chasetag.cc, soccer.cc, run_track.cc)
// share, from myosuite 2.11.6's envs/myo/myochallenge: chasetag_v0.py's
// _randomize_position_orientation, the joint-limit pain term of soccer_v0.py
// (get_jnt_limit_violation) and run_track_v0.py (get_pain), both over
// get_limitfrc, the mean squared activation of their act_reg, the foot touch
// sensors and the actuator entries of their get_obs_dict, and the mocap
// opponent that ChaseTagEnvV0 (ChallengeOpponent) and SoccerEnvV0
// (GoalKeeper) move before each step and reset after the base's reset.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "_core/env/rng.h"
#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {

// np.dot(a, b) of two 2-vectors as OpenBLAS's ddot sums them (a fused multiply-add chain).
double blas_dot2(const double* a, const double* b);

// _randomize_position_orientation: qpos[0:2] two uniforms in [-5, 5), the heading one uniform in
// [0, 2 pi) written as the root quaternion's yaw (quat_math's quat2euler, euler2quat), qvel[0:2] turned to it.
void randomize_position_orientation(Rng& rng, std::vector<double>& qpos, std::vector<double>& qvel);
// qvel[:2] = [cos(heading), sin(heading)] * np.linalg.norm(qvel[:2]).
void turn_planar_velocity(double heading, std::vector<double>& qvel);

// The pain term: the mean over the dofs of min(|joint-limit force|, 1000) / 1000, the force at each dof being
// get_limitfrc's, mj_mulJacTVec of efc_force with every row but the joint limits' zeroed (its row order; rows
// with a zero force skipped, as mj_mulJacTVec does). `joint_force` is scratch.
double joint_limit_pain(const mjModel* m, const mjData* d, const std::vector<int>& dofs,
                        std::vector<double>& joint_force);
// np.mean(np.square(act)) (0 without activations). `squares` is scratch.
double mean_square_act(const mjModel* m, const mjData* d, std::vector<double>& squares);

// The sensordata addresses of the foot touch sensors r_foot, r_toes, l_foot and l_toes.
std::array<int, 4> foot_touch_sensors(const mjModel* m, const std::string& xml_file);
// The geom "terrain"; std::invalid_argument naming the file if absent.
int terrain_geom_id(const mjModel* m, const std::string& xml_file);
// The actuators' lengths, velocities (clipped to [-100, 100]) and forces / 1000 (clipped so).
void put_actuator_state(const mjModel* m, const mjData* d, std::vector<double>& obs);

// A leg challenge with a mocap opponent: reset is the base's (which observes), then reset_opponent and
// mj_forward; step moves the opponent (update_opponent), then runs the base's step.
class OpponentEnv : public MyoEnv {
 public:
  void reset(Rng& pool_rng, const Output& out) override;
  void step(const Action& action, Rng& rng, const Output& out) override;

 protected:
  // `opponent`: the opponent's mocap body.
  OpponentEnv(const Setup& setup, const TaskBase& base, std::vector<std::string> terms, const char* opponent);
  virtual void reset_opponent() = 0;
  virtual void update_opponent() = 0;
  // The opponent's yaw: quat2euler(mocap_quat)[2].
  double opponent_yaw() const;
  // The opponent's x-y position and yaw (its quaternion euler2quat([0, 0, yaw])).
  void set_opponent_pose(double x, double y, double yaw);

  const int mocap_;
};

}  // namespace rlpool::myosuite
