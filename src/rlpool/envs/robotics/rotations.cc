// Rotation conversions (rotations.h), following gymnasium_robotics 1.4.2's
// utils/rotations.py line by line.
#include "envs/robotics/rotations.h"

#include <cmath>
#include <limits>

namespace rlpool::robotics {
namespace {
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kEps4 = kEps * 4.0;
}  // namespace

void mat2euler(const double* m, double* euler) {
  // m[3 * row + column]
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  if (cy > kEps4) {
    euler[2] = -std::atan2(m[1], m[0]);
    euler[1] = -std::atan2(-m[2], cy);
    euler[0] = -std::atan2(m[5], m[8]);
  } else {
    euler[2] = -std::atan2(-m[3], m[4]);
    euler[1] = -std::atan2(-m[2], cy);
    euler[0] = 0.0;
  }
}

void quat2mat(const double* q, double* m) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  // np.sum(quat * quat, axis=-1): pairwise over 4 entries is ((a + b) + c) + d.
  const double nq = w * w + x * x + y * y + z * z;
  if (!(nq > kEps)) {
    for (int i = 0; i < 9; ++i) m[i] = i % 4 == 0 ? 1.0 : 0.0;
    return;
  }
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  m[0] = 1.0 - (yY + zZ);
  m[1] = xY - wZ;
  m[2] = xZ + wY;
  m[3] = xY + wZ;
  m[4] = 1.0 - (xX + zZ);
  m[5] = yZ - wX;
  m[6] = xZ - wY;
  m[7] = yZ + wX;
  m[8] = 1.0 - (xX + yY);
}

void quat2euler(const double* quat, double* euler) {
  double m[9];
  quat2mat(quat, m);
  mat2euler(m, euler);
}

void euler2quat(const double* euler, double* quat) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  quat[0] = cj * cc + sj * ss;
  quat[3] = cj * sc - sj * cs;
  quat[2] = -(cj * ss + sj * cc);
  quat[1] = cj * cs - sj * sc;
}

void quat_mul(const double* q0, const double* q1, double* out) {
  const double w0 = q0[0], x0 = q0[1], y0 = q0[2], z0 = q0[3];
  const double w1 = q1[0], x1 = q1[1], y1 = q1[2], z1 = q1[3];
  const double w = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1;
  const double x = w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1;
  const double y = w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1;
  const double z = w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1;
  out[0] = w;
  out[1] = x;
  out[2] = y;
  out[3] = z;
}

void quat_conjugate(const double* q, double* out) {
  out[0] = q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = -q[3];
}

}  // namespace rlpool::robotics
