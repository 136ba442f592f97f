// What MyoSuite's leg challenges (chasetag.cc, soccer.cc) share: myosuite
// 2.11.6's utils/quat_math.py quat2euler (quat2mat, then mat2euler) and
// euler2quat in numpy's order of operations, and
// _randomize_position_orientation of myochallenge/chasetag_v0.py and
// soccer_v0.py. atan2 is the C library's; numpy's (SIMD) arctan2 differs from
// it in the last bit for some arguments.
#pragma once

#include <array>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool::myosuite {

// quat_math.quat2euler of (w, x, y, z).
std::array<double, 3> quat2euler(const double* q);
// quat_math.euler2quat: (w, x, y, z).
std::array<double, 4> euler2quat(const std::array<double, 3>& euler);
// np.dot(a, b) of two 2-vectors as OpenBLAS's ddot sums them (a fused multiply-add chain).
double blas_dot2(const double* a, const double* b);

// _randomize_position_orientation: qpos[0:2] two uniforms in [-5, 5), the heading one uniform in
// [0, 2 pi) written as the root quaternion's yaw, qvel[0:2] along it with |qvel[0:2]|.
void randomize_position_orientation(Rng& rng, std::vector<double>& qpos, std::vector<double>& qvel);

}  // namespace rlpool::myosuite
