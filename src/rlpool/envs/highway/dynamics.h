// BicycleVehicle of the highway family: a dynamical bicycle model with tire friction and slipping (the
// lane-keeping scenario's vehicle, and ContinuousAction's with dynamical=True), integrated by RK4, with its
// linear-parameter-varying lateral state-space matrices.
//
// Follows highway_env/vehicle/dynamics.py (highway-env 1.12.1), class BicycleVehicle and rk4 (the plotting
// demo `simulate`/`plot` is not ported). Python's column vectors are flat std::arrays here: the state is
// [x, y, heading, speed, lateral_speed, yaw_rate].
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <numbers>
#include <optional>

#include "envs/highway/vehicle.h"

namespace rlpool::highway {

using BicycleState = std::array<double, 6>;
template <std::size_t R, std::size_t C>
using Matrix = std::array<std::array<double, C>, R>;

// One fourth-order Runge-Kutta step of dstate/dt = func(t, state).
BicycleState rk4(const std::function<BicycleState(double, const BicycleState&)>& func, const BicycleState& state,
                 double dt = 0.01, double t = 0);

// Python's (A0, phi, B) of the lateral dynamics dx = (A0 + theta^T phi) x + B u, x = [lateral speed, yaw rate].
struct LateralLpvStructure {
  Matrix<2, 2> A0;
  std::array<Matrix<2, 2>, 2> phi;
  Matrix<2, 1> B;
};
// The same for x = [position y, yaw psi, lateral speed v, yaw rate r] (linearised around psi = 0).
struct FullLateralLpvStructure {
  Matrix<4, 4> A0;
  std::array<Matrix<4, 4>, 2> phi;
  Matrix<4, 1> B;
};

class BicycleVehicle : public Vehicle {
 public:
  static constexpr double MASS = 1;                        // [kg]
  static constexpr double LENGTH_A = Vehicle::LENGTH / 2;  // [m]
  static constexpr double LENGTH_B = Vehicle::LENGTH / 2;  // [m]
  static constexpr double INERTIA_Z =
      1.0 / 12 * MASS * (Vehicle::LENGTH * Vehicle::LENGTH + Vehicle::WIDTH * Vehicle::WIDTH);  // [kg.m2]
  static constexpr double FRICTION_FRONT = 15.0 * MASS;  // [N]
  static constexpr double FRICTION_REAR = 15.0 * MASS;   // [N]
  static constexpr double MAX_ANGULAR_SPEED = 2 * std::numbers::pi;  // [rad/s]

  BicycleVehicle(Road* road, const Vec2& position, double heading = 0, double speed = 0);
  // Vehicle.create_from for cls=BicycleVehicle.
  static std::shared_ptr<BicycleVehicle> create_from(const Vehicle& vehicle);
  std::shared_ptr<Vehicle> clone() const override;
  unsigned kinds() const override { return KIND_VEHICLE | KIND_BICYCLE; }

  // [x, y, heading, speed, lateral_speed, yaw_rate].
  BicycleState state() const;
  BicycleState derivative() const;
  // Rajamani (2011), chapter 2: the state derivative (uses the stored action).
  BicycleState derivative_func(double time, const BicycleState& state) const;
  // Linearized lateral dynamics (updates A_lat, B_lat as Python does).
  BicycleState derivative_linear();
  void step(double dt) override;
  void clip_actions() override;
  LateralLpvStructure lateral_lpv_structure() const;
  // (A, B) of the lateral dynamics; sets theta = [FRICTION_FRONT, FRICTION_REAR].
  std::pair<Matrix<2, 2>, Matrix<2, 1>> lateral_lpv_dynamics();
  FullLateralLpvStructure full_lateral_lpv_structure() const;
  // (A, B) of the full lateral dynamics; sets theta.
  std::pair<Matrix<4, 4>, Matrix<4, 1>> full_lateral_lpv_dynamics();

  double lateral_speed = 0;
  double yaw_rate = 0;
  std::optional<std::array<double, 2>> theta;  // None until lateral_lpv_dynamics runs (it does in __init__)
  Matrix<2, 2> A_lat{};
  Matrix<2, 1> B_lat{};
};

}  // namespace rlpool::highway
