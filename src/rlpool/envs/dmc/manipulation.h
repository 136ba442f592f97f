// What dm_control 1.0.50's planar manipulator and stacker domains share: the
// arm (8 joints, 5 touch sensors), its random collision-free posture and the
// Physics helpers of both suite files (bounded_joint_pos, joint_vel,
// body_2d_pose, site_distance).
#pragma once

#include <array>
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc::manipulation {

constexpr double kPi = 3.14159265358979323846;
// _CLOSE: distance (m) below which a thing is considered close.
constexpr double kClose = 0.01;
constexpr int kArmJoints = 8;
inline constexpr std::array<const char*, kArmJoints> kArmJointNames = {
    "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "finger", "fingertip", "thumb", "thumbtip"};

// The arm's joints (qpos and qvel addresses; the arm has hinges only).
struct Arm {
  std::array<int, kArmJoints> joint{};
  int finger_qpos = 0;
  int thumb_qpos = 0;

  template <typename IdOf>
  explicit Arm(const mjModel* m, IdOf id_of) {
    for (int i = 0; i < kArmJoints; ++i) joint[i] = id_of(mjOBJ_JOINT, kArmJointNames[i]);
    finger_qpos = m->jnt_qposadr[id_of(mjOBJ_JOINT, "finger")];
    thumb_qpos = m->jnt_qposadr[id_of(mjOBJ_JOINT, "thumb")];
  }

  // Arm angles uniform in their range ([-pi, pi] where unlimited; numpy's
  // uniform(lower_limits, upper_limits) draws them in joint order), then the
  // hand symmetrised (finger = thumb).
  void randomize(const mjModel* m, mjData* d, Rng& rng) const {
    for (int j : joint) {
      const bool limited = m->jnt_limited[j] != 0;
      const double lo = limited ? m->jnt_range[2 * j] : -kPi;
      const double hi = limited ? m->jnt_range[2 * j + 1] : kPi;
      d->qpos[m->jnt_qposadr[j]] = rng.uniform(lo, hi);
    }
    d->qpos[finger_qpos] = d->qpos[thumb_qpos];
  }

  // obs['arm_pos'] (8, 2): (sin, cos) of each angle; obs['arm_vel'] (8,).
  void write(const mjModel* m, const mjData* d, ObsWriter& w) const {
    w.next();
    for (int j : joint) {
      const double q = d->qpos[m->jnt_qposadr[j]];
      w.put(std::sin(q)).put(std::cos(q));
    }
    w.next();
    for (int j : joint) w.put(d->qvel[m->jnt_dofadr[j]]);
  }
};

// body_2d_pose: xpos x, z and, with orientation, xquat qw, qy.
inline void put_body_2d_pose(const mjData* d, int body, ObsWriter& w, bool orientation = true) {
  w.put(d->xpos[3 * body]).put(d->xpos[3 * body + 2]);
  if (orientation) w.put(d->xquat[4 * body]).put(d->xquat[4 * body + 2]);
}

// site_distance: Euclidean distance of two sites.
inline double site_distance(const mjData* d, int site1, int site2) {
  const double* a = d->site_xpos + 3 * site1;
  const double* b = d->site_xpos + 3 * site2;
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

}  // namespace rlpool::dmc::manipulation
