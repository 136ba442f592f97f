// BicycleVehicle of the highway family (see dynamics.h). Follows highway_env/vehicle/dynamics.py
// (highway-env 1.12.1). numpy's small matrix products are rounded as numpy/OpenBLAS does (fused
// multiply-adds, see objects.h).
#include "envs/highway/dynamics.h"

#include <cmath>

#include "envs/highway/road.h"

namespace rlpool::highway {

BicycleState rk4(const std::function<BicycleState(double, const BicycleState&)>& func, const BicycleState& state,
                 double dt, double t) {
  auto add_scaled = [](const BicycleState& s, const BicycleState& f, double k) {
    BicycleState out;
    for (std::size_t i = 0; i < 6; ++i) out[i] = s[i] + f[i] * k;
    return out;
  };
  const BicycleState f1 = func(t, state);
  const BicycleState f2 = func(t + dt / 2, add_scaled(state, f1, dt / 2));
  const BicycleState f3 = func(t + dt / 2, add_scaled(state, f2, dt / 2));
  const BicycleState f4 = func(t + dt, add_scaled(state, f3, dt));
  BicycleState out;
  for (std::size_t i = 0; i < 6; ++i) out[i] = state[i] + (dt / 6) * (f1[i] + 2 * f2[i] + 2 * f3[i] + f4[i]);
  return out;
}

BicycleVehicle::BicycleVehicle(Road* road, const Vec2& position, double heading, double speed)
    : Vehicle(road, position, heading, speed) {
  std::tie(A_lat, B_lat) = lateral_lpv_dynamics();
}

std::shared_ptr<BicycleVehicle> BicycleVehicle::create_from(const Vehicle& vehicle) {
  auto v = std::make_shared<BicycleVehicle>(vehicle.road, vehicle.position, vehicle.heading, vehicle.speed);
  v->color = vehicle.color;
  return v;
}

std::shared_ptr<Vehicle> BicycleVehicle::clone() const { return std::make_shared<BicycleVehicle>(*this); }

BicycleState BicycleVehicle::state() const {
  return {position[0], position[1], heading, speed, lateral_speed, yaw_rate};
}

BicycleState BicycleVehicle::derivative() const { return derivative_func(0, state()); }

BicycleState BicycleVehicle::derivative_func(double, const BicycleState& s) const {
  const double heading_ = s[2], speed_ = s[3], lateral_speed_ = s[4], yaw_rate_ = s[5];
  const double delta_f = action.steering;
  const double delta_r = 0;
  const double theta_vf = std::atan2(lateral_speed_ + LENGTH_A * yaw_rate_, speed_);  // (2.27)
  const double theta_vr = std::atan2(lateral_speed_ - LENGTH_B * yaw_rate_, speed_);  // (2.28)
  double f_yf = 2 * FRICTION_FRONT * (delta_f - theta_vf);                             // (2.25)
  double f_yr = 2 * FRICTION_REAR * (delta_r - theta_vr);                              // (2.26)
  if (std::abs(speed_) < 1) {  // Low speed dynamics: damping of lateral speed and yaw rate
    f_yf = -MASS * lateral_speed_ - INERTIA_Z / LENGTH_A * yaw_rate_;
    f_yr = -MASS * lateral_speed_ + INERTIA_Z / LENGTH_A * yaw_rate_;
  }
  const double d_lateral_speed = 1 / MASS * (f_yf + f_yr) - yaw_rate_ * speed_;             // (2.21)
  const double d_yaw_rate = 1 / INERTIA_Z * (LENGTH_A * f_yf - LENGTH_B * f_yr);            // (2.22)
  const double c = std::cos(heading_), sn = std::sin(heading_);
  const Vec2 v = matvec({{{c, -sn}, {sn, c}}}, {speed_, lateral_speed_});
  return {v[0], v[1], yaw_rate_, action.acceleration, d_lateral_speed, d_yaw_rate};
}

BicycleState BicycleVehicle::derivative_linear() {
  std::tie(A_lat, B_lat) = lateral_lpv_dynamics();
  const Vec2 dx_a = matvec({{{A_lat[0][0], A_lat[0][1]}, {A_lat[1][0], A_lat[1][1]}}}, {lateral_speed, yaw_rate});
  const double u = action.steering;
  const Vec2 dx{dx_a[0] + B_lat[0][0] * u, dx_a[1] + B_lat[1][0] * u};
  const double c = std::cos(heading), sn = std::sin(heading);
  const Vec2 v = matvec({{{c, -sn}, {sn, c}}}, {speed, lateral_speed});
  return {v[0], v[1], yaw_rate, action.acceleration, dx[0], dx[1]};
}

void BicycleVehicle::step(double dt) {
  clip_actions();
  const BicycleState new_state =
      rk4([this](double t, const BicycleState& s) { return derivative_func(t, s); }, state(), dt);
  position = {new_state[0], new_state[1]};
  heading = new_state[2];
  speed = new_state[3];
  lateral_speed = new_state[4];
  yaw_rate = new_state[5];
  on_state_update();
}

void BicycleVehicle::clip_actions() {
  Vehicle::clip_actions();
  // Required because of the linearisation
  action.steering = constrain(action.steering, -std::numbers::pi / 2, std::numbers::pi / 2);
  yaw_rate = constrain(yaw_rate, -MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED);
}

LateralLpvStructure BicycleVehicle::lateral_lpv_structure() const {
  LateralLpvStructure out{};
  out.B = {{{2 * FRICTION_FRONT / MASS}, {FRICTION_FRONT * LENGTH_A / INERTIA_Z}}};
  const double speed_body_x = speed;
  out.A0 = {{{0, -speed_body_x}, {0, 0}}};
  if (std::abs(speed_body_x) < 1) {
    out.B[0][0] *= 0;
    out.B[1][0] *= 0;
    return out;  // phi: zeros
  }
  out.phi[0] = {{{-2 / (MASS * speed_body_x), -2 * LENGTH_A / (MASS * speed_body_x)},
                 {-2 * LENGTH_A / (INERTIA_Z * speed_body_x), -2 * LENGTH_A * LENGTH_A / (INERTIA_Z * speed_body_x)}}};
  out.phi[1] = {{{-2 / (MASS * speed_body_x), 2 * LENGTH_B / (MASS * speed_body_x)},
                 {2 * LENGTH_B / (INERTIA_Z * speed_body_x), -2 * LENGTH_B * LENGTH_B / (INERTIA_Z * speed_body_x)}}};
  return out;
}

namespace {
// A0 + np.tensordot(theta, phi, axes=[0, 0]) for two parameters (numpy's gemv rounding).
template <std::size_t N>
Matrix<N, N> lpv_matrix(const Matrix<N, N>& A0, const std::array<double, 2>& theta,
                        const std::array<Matrix<N, N>, 2>& phi) {
  Matrix<N, N> A;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) A[i][j] = A0[i][j] + std::fma(theta[0], phi[0][i][j], theta[1] * phi[1][i][j]);
  return A;
}
}  // namespace

std::pair<Matrix<2, 2>, Matrix<2, 1>> BicycleVehicle::lateral_lpv_dynamics() {
  const LateralLpvStructure s = lateral_lpv_structure();
  theta = std::array<double, 2>{FRICTION_FRONT, FRICTION_REAR};
  return {lpv_matrix<2>(s.A0, *theta, s.phi), s.B};
}

FullLateralLpvStructure BicycleVehicle::full_lateral_lpv_structure() const {
  const LateralLpvStructure lat = lateral_lpv_structure();
  FullLateralLpvStructure out{};
  const double speed_body_x = speed;
  out.A0[0] = {0, speed_body_x, 1, 0};
  out.A0[1] = {0, 0, 0, 1};
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j) out.A0[2 + i][2 + j] = lat.A0[i][j];
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 2; ++j) out.phi[k][2 + i][2 + j] = lat.phi[k][i][j];
  out.B[2][0] = lat.B[0][0];
  out.B[3][0] = lat.B[1][0];
  return out;
}

std::pair<Matrix<4, 4>, Matrix<4, 1>> BicycleVehicle::full_lateral_lpv_dynamics() {
  const FullLateralLpvStructure s = full_lateral_lpv_structure();
  theta = std::array<double, 2>{FRICTION_FRONT, FRICTION_REAR};
  return {lpv_matrix<4>(s.A0, *theta, s.phi), s.B};
}

}  // namespace rlpool::highway
