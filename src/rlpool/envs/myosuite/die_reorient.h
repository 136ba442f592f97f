// What the die-reorientation (die_reorient.cc) and relocation (relocate.cc)
// challenges share: myosuite 2.11.6's ReorientEnvV0.get_obs_dict
// (envs/myo/myochallenge/reorient_v0.py), which RelocateEnvV0.get_obs_dict
// (envs/myo/myochallenge/relocate_v0.py) repeats without the offset between
// the goal and the object at load.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <vector>

namespace rlpool::myosuite {

// obs_dict's pos_err (goal site - object site - offset), obj_rot and goal_rot (quat_math.mat2euler of the
// sites' frames) and rot_err (goal_rot - obj_rot).
struct ObjectErrors {
  std::array<double, 3> pos_err{}, obj_rot{}, goal_rot{}, rot_err{};
};
ObjectErrors object_errors(const mjData* d, int object_sid, int goal_sid, const std::array<double, 3>& offset);

// obs_dict's entries but act: hand_qpos (qpos[:-7]), hand_qvel (qvel[:-6] * dt), obj_pos and goal_pos (the
// sites' positions), pos_err, obj_rot, goal_rot and rot_err.
void observe_object_errors(const mjModel* m, const mjData* d, double dt, int object_sid, int goal_sid,
                           const ObjectErrors& e, std::vector<double>& obs);

}  // namespace rlpool::myosuite
