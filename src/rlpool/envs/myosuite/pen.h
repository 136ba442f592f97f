// What the pen-twirling tasks (pen.cc) and the SAR reorientation tasks
// (reorient_sar.cc) share: myosuite 2.11.6's pen_v0.py (envs/myo/myobase/
// pen_v0.py: PenTwirlFixedEnvV0._setup's init_qpos, get_obs_dict,
// get_reward_dict and weighted_reward_keys), which reorient_sar_v0.py's
// ProprioceptiveEnvV0 repeats with the object's and the target's ends taken
// from geoms instead of sites, and vector_math.calculate_cosine.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {

// pen_v0's weighted_reward_keys.
std::vector<std::pair<std::string, double>> pen_weights();

class PenTwirlBase : public MyoEnv {
 protected:
  using Vec3 = std::array<double, 3>;

  // The object's and the target's axis ends: sites (pen_v0) or geoms (reorient_sar_v0), by name.
  struct AxisEnds {
    mjtObj type = mjOBJ_SITE;
    const char* obj_top = "";
    const char* obj_bottom = "";
    const char* tar_top = "";
    const char* tar_bottom = "";
  };

  // The ids _setup looks up (the bodies "target" and "Object", the sites "eps_ball" and "S_grasp", the ends)
  // and the axes' lengths as the model has them (np.linalg.norm of the ends' model positions).
  PenTwirlBase(const Setup& setup, const TaskBase& base, const AxisEnds& ends);

  // get_obs_dict's entries but the actuators': the hand's qpos (qpos[:-6]), the object body's position, its six
  // velocities * dt, the object's and the target's unit axes, the object's offset from eps_ball and the axes'
  // difference.
  void observe_pen(std::vector<double>& obs) const;
  // get_reward_dict: pos_align, rot_align, act_reg, drop and bonus, sparse, solved and done.
  void pen_rewards(Rewards& r) const;
  // _setup's init_qpos[:-6] *= 0 and init_qpos[0] = -1.5 (open hand, palm up).
  static void open_hand(std::vector<double>& qpos);
  // A geom's id by name; std::invalid_argument naming the file if absent.
  int geom(const std::string& name) const;

  const int target_, object_, eps_ball_;
  const int obj_t_, obj_b_, tar_t_, tar_b_;

 private:
  int end_id(mjtObj type, const char* name) const;
  // The ends' model positions (site_pos or geom_pos) and positions in the data (site_xpos or geom_xpos).
  const double* model_pos() const;
  const double* data_pos() const;
  // np.linalg.norm(model position of a - model position of b).
  double length(int a, int b) const;
  // (xpos[top] - xpos[bottom]) / length.
  Vec3 axis(int top, int bottom, double length) const;
  // body_xpos[Object] - site_xpos[eps_ball].
  Vec3 err_pos() const;

  const mjtObj ends_type_;
  const double pen_length_, tar_length_;
};

}  // namespace rlpool::myosuite
