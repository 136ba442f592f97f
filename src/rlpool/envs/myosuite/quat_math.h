// Rotation helpers of myosuite 2.11.6's utils/quat_math.py as the MyoSuite
// tasks call them: euler2quat, quat2mat, mat2euler, quat2euler, mat2quat,
// quatDiff2Vel's angle, quat2euler_intrinsic and intrinsic_euler2quat, each
// for one rotation with numpy's arithmetic in its order (sums of squares as
// np.sum adds them, sin, cos, atan2 and asin from the C library, whose last
// bit can differ from numpy's SIMD loops for some arguments). Quaternions are
// (w, x, y, z); matrices are row-major 3x3.
#pragma once

#include <array>

namespace rlpool::myosuite {

// euler2quat of (x, y, z) Euler angles (the file's static axes convention).
std::array<double, 4> euler2quat(const std::array<double, 3>& euler);
// quat2mat: the rotation matrix of a quaternion (the identity where its squared norm is not above eps).
std::array<double, 9> quat2mat(const double* quat);
// mat2euler: the Euler angles of a rotation matrix.
std::array<double, 3> mat2euler(const double* mat);
// quat2euler: mat2euler(quat2mat(quat)).
std::array<double, 3> quat2euler(const double* quat);
// mat2quat: the unit quaternion with w >= 0 whose matrix `mat` is. myosuite takes the largest eigenvector of a
// 4x4 matrix (np.linalg.eigh); here the same rotation comes in closed form, from the largest of the diagonal's
// combinations, so the last bits can differ from numpy's.
std::array<double, 4> mat2quat(const double* mat);
// |quatDiff2Vel(target, current, 1)[0]|: the angle of current * negQuat(target) (mulQuat, then quat2Vel's
// 2 atan2(|axis|, w)).
double quat_diff_angle(const double* current, const double* target);
// quat2euler_intrinsic: roll, pitch and yaw of a quaternion.
std::array<double, 3> quat2euler_intrinsic(const double* quat);
// intrinsic_euler2quat of (roll, pitch, yaw).
std::array<double, 4> intrinsic_euler2quat(const std::array<double, 3>& euler);

}  // namespace rlpool::myosuite
