// The rotation helpers of quat_math.h: myosuite 2.11.6's utils/quat_math.py
// (mulQuat, negQuat, quat2Vel, euler2quat, mat2euler, mat2quat, quat2euler,
// quat2mat, quat2euler_intrinsic, intrinsic_euler2quat) for one rotation at a
// time, each expression in numpy's order of operations.
#include "envs/myosuite/quat_math.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {

std::array<double, 4> euler2quat(const std::array<double, 3>& euler) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk;
  const double sc = si * ck, ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs};
}

std::array<double, 9> quat2mat(const double* quat) {
  const double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  const double squares[4] = {w * w, x * x, y * y, z * z};
  const double nq = numpy_sum(squares, 4);
  if (!(nq > std::numeric_limits<double>::epsilon())) return {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  return {1.0 - (yY + zZ), xY - wZ,         xZ + wY,  //
          xY + wZ,         1.0 - (xX + zZ), yZ - wX,  //
          xZ - wY,         yZ + wX,         1.0 - (xX + yY)};
}

std::array<double, 3> mat2euler(const double* mat) {
  const double cy = std::sqrt(mat[8] * mat[8] + mat[5] * mat[5]);
  const bool condition = cy > std::numeric_limits<double>::epsilon() * 4.0;
  return {condition ? -std::atan2(mat[5], mat[8]) : 0.0, -std::atan2(-mat[2], cy),
          condition ? -std::atan2(mat[1], mat[0]) : -std::atan2(-mat[3], mat[4])};
}

std::array<double, 3> quat2euler(const double* quat) { return mat2euler(quat2mat(quat).data()); }

std::array<double, 4> mat2quat(const double* mat) {
  const double xx = mat[0], xy = mat[1], xz = mat[2], yx = mat[3], yy = mat[4], yz = mat[5], zx = mat[6],
               zy = mat[7], zz = mat[8];
  const double trace = xx + yy + zz;
  std::array<double, 4> q{};
  if (trace >= xx && trace >= yy && trace >= zz) {
    const double s = std::sqrt(1.0 + trace) * 2.0;
    q = {0.25 * s, (zy - yz) / s, (xz - zx) / s, (yx - xy) / s};
  } else if (xx >= yy && xx >= zz) {
    const double s = std::sqrt(1.0 + xx - yy - zz) * 2.0;
    q = {(zy - yz) / s, 0.25 * s, (xy + yx) / s, (xz + zx) / s};
  } else if (yy >= zz) {
    const double s = std::sqrt(1.0 + yy - xx - zz) * 2.0;
    q = {(xz - zx) / s, (xy + yx) / s, 0.25 * s, (yz + zy) / s};
  } else {
    const double s = std::sqrt(1.0 + zz - xx - yy) * 2.0;
    q = {(yx - xy) / s, (xz + zx) / s, (yz + zy) / s, 0.25 * s};
  }
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double sign = q[0] < 0 ? -1.0 : 1.0;
  for (double& v : q) v = sign * v / norm;
  return q;
}

double quat_diff_angle(const double* current, const double* target) {
  const double* a = current;
  const double b[4] = {target[0], -target[1], -target[2], -target[3]};
  const double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  const double axis[3] = {a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  const double squares[3] = {axis[0] * axis[0], axis[1] * axis[1], axis[2] * axis[2]};
  const double sin_a_2 = std::sqrt(numpy_sum(squares, 3));
  return std::abs(2.0 * std::atan2(sin_a_2, w));
}

std::array<double, 3> quat2euler_intrinsic(const double* quat) {
  const double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  const double roll = std::atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
  const double sinp = 2 * (w * y - z * x);
  const double pitch = std::abs(sinp) >= 1 ? std::copysign(std::numbers::pi / 2, sinp) : std::asin(sinp);
  const double yaw = std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  return {roll, pitch, yaw};
}

std::array<double, 4> intrinsic_euler2quat(const std::array<double, 3>& euler) {
  const double hr = euler[0] * 0.5, hp = euler[1] * 0.5, hy = euler[2] * 0.5;
  const double sr = std::sin(hr), cr = std::cos(hr), sp = std::sin(hp), cp = std::cos(hp);
  const double sy = std::sin(hy), cy = std::cos(hy);
  return {cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
          cr * cp * sy - sr * sp * cy};
}

}  // namespace rlpool::myosuite
