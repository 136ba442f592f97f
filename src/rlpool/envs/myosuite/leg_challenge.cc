// The leg challenges' shared helpers (leg_challenge.h): myosuite 2.11.6's
// utils/quat_math.py (quat2mat, mat2euler, euler2quat) and
// myochallenge/chasetag_v0.py _randomize_position_orientation.
#include "envs/myosuite/leg_challenge.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "envs/myosuite/myo_env.h"
#include "envs/myosuite/walk.h"

namespace rlpool::myosuite {

std::array<double, 3> quat2euler(const double* q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double squares[4] = {w * w, x * x, y * y, z * z};
  const double nq = numpy_sum(squares, 4);
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  double m[3][3] = {{1.0 - (yY + zZ), xY - wZ, xZ + wY},
                    {xY + wZ, 1.0 - (xX + zZ), yZ - wX},
                    {xZ - wY, yZ + wX, 1.0 - (xX + yY)}};
  if (!(nq > std::numeric_limits<double>::epsilon())) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) m[i][j] = i == j ? 1.0 : 0.0;
    }
  }
  const double cy = std::sqrt(m[2][2] * m[2][2] + m[1][2] * m[1][2]);
  const bool condition = cy > std::numeric_limits<double>::epsilon() * 4.0;
  return {condition ? -std::atan2(m[1][2], m[2][2]) : 0.0, -std::atan2(-m[0][2], cy),
          condition ? -std::atan2(m[0][1], m[0][0]) : -std::atan2(-m[1][0], m[1][1])};
}

std::array<double, 4> euler2quat(const std::array<double, 3>& euler) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs};
}

double blas_dot2(const double* a, const double* b) { return std::fma(a[1], b[1], std::fma(a[0], b[0], 0.0)); }

void randomize_position_orientation(Rng& rng, std::vector<double>& qpos, std::vector<double>& qvel) {
  qpos[0] = rng.uniform(-5.0, 5.0);
  qpos[1] = rng.uniform(-5.0, 5.0);
  const double orientation = rng.uniform(0.0, 2 * std::numbers::pi);
  std::array<double, 3> euler = quat2euler(qpos.data() + 3);
  euler[2] = orientation;
  const std::array<double, 4> quat = euler2quat(euler);
  for (int k = 0; k < 4; ++k) qpos[static_cast<std::size_t>(3 + k)] = quat[static_cast<std::size_t>(k)];
  const double speed = blas_norm(qvel.data(), 2);
  qvel[0] = std::cos(orientation) * speed;
  qvel[1] = std::sin(orientation) * speed;
}

}  // namespace rlpool::myosuite
