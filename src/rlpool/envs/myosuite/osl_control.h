// The Open Source Leg's impedance controller and the sample gait cycle of
// MyoSuite's run track: myosuite 2.11.6's MyoOSLController, State and
// StateMachine (envs/myo/assets/leg/myoosl_control.py, lines 9-356) with the
// default parameters of initDefaults (one set; the n_sets copies are equal),
// and the table envs/myo/assets/leg/sample_gait_cycle.csv that RunTrack's
// _setup loads (np.loadtxt, one header row).
//
// The machine cycles early stance -> late stance -> early swing -> late swing
// -> early stance. update() moves it one state on when any threshold of the
// current state is crossed (strictly above or below); each state holds a
// stiffness, a damping and a target angle per joint, and a joint's torque is
// K (target - angle) - B velocity, clipped to the joint's peak torque.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace rlpool::myosuite {

// MyoOSLController's states, in the order the machine cycles through them.
enum class OslState { kEarlyStance = 0, kLateStance = 1, kEarlySwing = 2, kLateSwing = 3 };

// get_osl_sens: the prosthesis's joints and the vertical load on its foot.
struct OslSensors {
  double knee_angle = 0.0;
  double knee_vel = 0.0;
  double ankle_angle = 0.0;
  double ankle_vel = 0.0;
  double load = 0.0;
};

class OslController {
 public:
  // initDefaults(body_mass): the thresholds on the load are fractions of body_mass * 9.81.
  explicit OslController(double body_mass);

  // reset(init_state) (the machine runs from RunTrack's _setup on).
  void reset(OslState state) { state_ = state; }
  OslState state() const { return state_; }
  // update(sens_data): at most one transition.
  void update(const OslSensors& s);
  // get_osl_torque after update(s): {knee, ankle}.
  std::array<double, 2> torques(const OslSensors& s) const;

 private:
  enum class Sensor { kLoad, kKneeAngle, kKneeVel, kAnkleAngle };
  struct Threshold {
    Sensor sensor;
    double value;
    bool above;
  };
  struct Gains {
    double stiffness, damping, target;
  };
  struct StateParams {
    Gains knee, ankle;
    std::vector<Threshold> thresholds;
  };
  std::array<StateParams, 4> params_;
  OslState state_ = OslState::kEarlyStance;
};

// sample_gait_cycle.csv: the header's column names and the rows of numbers.
struct GaitCycle {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};
// Reads the table; std::invalid_argument naming the file if it is missing or
// not a header followed by rows of as many numbers.
GaitCycle read_gait_cycle(const std::string& path);

}  // namespace rlpool::myosuite
