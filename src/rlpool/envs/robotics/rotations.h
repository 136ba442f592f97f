// Rotation conversions, as gymnasium_robotics 1.4.2's utils/rotations.py
// computes them (same formulas, same order of operations). Quaternions are
// (w, x, y, z); matrices row-major 3 x 3; Euler angles (x, y, z) in radians.
#pragma once

namespace rlpool::robotics {

// rotations.mat2euler.
void mat2euler(const double* mat, double* euler);
// rotations.quat2mat (the identity for a quaternion of norm ~0).
void quat2mat(const double* quat, double* mat);
// rotations.quat2euler: mat2euler(quat2mat(quat)).
void quat2euler(const double* quat, double* euler);
// rotations.euler2quat.
void euler2quat(const double* euler, double* quat);
// rotations.quat_mul: q0 * q1.
void quat_mul(const double* q0, const double* q1, double* out);
// rotations.quat_conjugate.
void quat_conjugate(const double* q, double* out);

}  // namespace rlpool::robotics
