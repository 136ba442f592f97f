// Acrobot, matching gymnasium 1.4 AcrobotEnv (book dynamics, no torque noise,
// one RK4 step over dt on the [s, torque] augmented state).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"

namespace rlpool::classic_control {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDt = 0.2;
constexpr double kL1 = 1.0;   // link lengths
constexpr double kL2 = 1.0;
constexpr double kM1 = 1.0;   // link masses
constexpr double kM2 = 1.0;
constexpr double kLc1 = 0.5;  // centres of mass
constexpr double kLc2 = 0.5;
constexpr double kI1 = 1.0;   // moments of inertia
constexpr double kI2 = 1.0;
constexpr double kG = 9.8;
constexpr double kMaxVel1 = 4 * kPi;
constexpr double kMaxVel2 = 9 * kPi;
constexpr std::array<double, 3> kTorques = {-1.0, 0.0, 1.0};

constexpr int kScreenDim = 500;

using State = std::array<double, 4>;  // theta1, theta2, dtheta1, dtheta2

// numpy's float64 scalar `x ** 2` calls libm pow(), which can differ from x * x
// in the last bit; the volatile exponent stops the compiler turning it into x * x.
volatile double two = 2.0;  // read-only
double np_square(double x) { return std::pow(x, two); }

// gymnasium's _dsdt; the torque's derivative (always 0) is left out.
State dsdt(const State& s, double a) {
  const auto [theta1, theta2, dtheta1, dtheta2] = s;
  const double d1 =
      kM1 * (kLc1 * kLc1) + kM2 * (kL1 * kL1 + kLc2 * kLc2 + 2 * kL1 * kLc2 * std::cos(theta2)) + kI1 + kI2;
  const double d2 = kM2 * (kLc2 * kLc2 + kL1 * kLc2 * std::cos(theta2)) + kI2;
  const double phi2 = kM2 * kLc2 * kG * std::cos(theta1 + theta2 - kPi / 2.0);
  const double phi1 = -kM2 * kL1 * kLc2 * np_square(dtheta2) * std::sin(theta2) -
                      2 * kM2 * kL1 * kLc2 * dtheta2 * dtheta1 * std::sin(theta2) +
                      (kM1 * kLc1 + kM2 * kL1) * kG * std::cos(theta1 - kPi / 2) + phi2;
  const double ddtheta2 =
      (a + d2 / d1 * phi1 - kM2 * kL1 * kLc2 * np_square(dtheta1) * std::sin(theta2) - phi2) /
      (kM2 * (kLc2 * kLc2) + kI2 - np_square(d2) / d1);
  const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  return {dtheta1, dtheta2, ddtheta1, ddtheta2};
}

// y + h * k, elementwise as numpy does it.
State axpy(const State& y, double h, const State& k) {
  State r;
  for (int i = 0; i < 4; ++i) r[i] = y[i] + h * k[i];
  return r;
}

// gymnasium's rk4 for t = [0, dt]. The torque rides along unchanged (a + h * 0.0 == a).
State rk4(const State& y0, double a) {
  const double dt = kDt - 0;
  const double dt2 = dt / 2.0;
  const State k1 = dsdt(y0, a);
  const State k2 = dsdt(axpy(y0, dt2, k1), a);
  const State k3 = dsdt(axpy(y0, dt2, k2), a);
  const State k4 = dsdt(axpy(y0, dt, k3), a);
  State y1;
  for (int i = 0; i < 4; ++i) y1[i] = y0[i] + dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  return y1;
}

double wrap(double x, double m, double big_m) {
  const double diff = big_m - m;
  while (x > big_m) x = x - diff;
  while (x < m) x = x + diff;
  return x;
}

// Python's min(max(x, m), M).
double bound(double x, double m, double big_m) { return std::min(std::max(x, m), big_m); }

class Acrobot final : public Env {
 public:
  explicit Acrobot(const Config& /*config*/) {}

  void reset(Rng& rng, const Output& out) override {
    // gymnasium draws float64 and then stores the state as float32.
    for (auto& v : state_) v = f32(rng.uniform(-0.1, 0.1));
    write_obs(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    State ns = rk4(state_, kTorques[action.discrete()]);
    ns[0] = wrap(ns[0], -kPi, kPi);
    ns[1] = wrap(ns[1], -kPi, kPi);
    ns[2] = bound(ns[2], -kMaxVel1, kMaxVel1);
    ns[3] = bound(ns[3], -kMaxVel2, kMaxVel2);
    state_ = ns;

    const bool terminated = -std::cos(ns[0]) - std::cos(ns[1] + ns[0]) > 1.0;
    *out.reward = terminated ? 0.0 : -1.0;
    *out.terminated = terminated;
    write_obs(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_finite_state(bytes, state_); }

  // gymnasium's AcrobotEnv.render, primitive for primitive (draw.h). Its
  // state is float32 after reset (numpy then computes the first link's end
  // and the angles in float32), float64 after a step; a float64 state whose
  // angles are all float32 values is taken for a reset one.
  void render(const Frame& frame) override {
    if (f32(state_[0]) == state_[0] && f32(state_[1]) == state_[1]) {
      draw_links(frame, f32(state_[0]), f32(state_[1]));
    } else {
      draw_links(frame, state_[0], state_[1]);
    }
  }

 private:
  template <class T>
  static void draw_links(const Frame& frame, T s0, T s1) {
    constexpr double kBound = kL1 + kL2 + 0.2;
    constexpr double kScale = kScreenDim / (kBound * 2);
    constexpr double kOffset = kScreenDim / 2.0;
    draw::Image img(kScreenDim, kScreenDim);
    img.fill(draw::rgb(255, 255, 255));
    std::vector<int> ints;
    const T scale = static_cast<T>(kScale);
    const T p1x = static_cast<T>(-kL1) * std::cos(s0) * scale;
    const T p1y = static_cast<T>(kL1) * std::sin(s0) * scale;
    const double xys[2][2] = {{0, 0}, {static_cast<double>(p1y), static_cast<double>(p1x)}};
    const T half_pi = static_cast<T>(kPi / 2);
    const double thetas[2] = {static_cast<double>(s0 - half_pi), static_cast<double>(s0 + s1 - half_pi)};
    const double y_line = 1 * kScale + kOffset;
    draw::pg_line(img, static_cast<int>(-2.2 * kScale + kOffset), static_cast<int>(y_line),
                  static_cast<int>(2.2 * kScale + kOffset), static_cast<int>(y_line), draw::rgb(0, 0, 0));
    for (int k = 0; k < 2; ++k) {
      const double x = xys[k][0] + kOffset, y = xys[k][1] + kOffset;
      const double l = 0, r = (k == 0 ? kL1 : kL2) * kScale, t = 0.1 * kScale, b = -0.1 * kScale;
      const draw::Rotation rotate(thetas[k]);
      draw::Point link[4] = {{l, b}, {l, t}, {r, t}, {r, b}};
      for (auto& p : link) {
        const draw::Point q = rotate(p.x, p.y);
        p = {q.x + x, q.y + y};
      }
      draw::gfx_polygon(img, link, 4, draw::rgb(0, 204, 204), ints);
      draw::gfx_disc(img, static_cast<int>(x), static_cast<int>(y), static_cast<int>(0.1 * kScale),
                     draw::rgb(204, 204, 0));
    }
    img.write_flipped_rgb(frame.rgb);
  }

  void write_obs(const Output& out) const {
    auto* obs = out.obs_as<float>();
    obs[0] = static_cast<float>(std::cos(state_[0]));
    obs[1] = static_cast<float>(std::sin(state_[0]));
    obs[2] = static_cast<float>(std::cos(state_[1]));
    obs[3] = static_cast<float>(std::sin(state_[1]));
    obs[4] = static_cast<float>(state_[2]);
    obs[5] = static_cast<float>(state_[3]);
  }

  State state_{};  // gymnasium's layout
};

EnvSpec make_spec(const Config& /*config*/) {
  const double v1 = f32(kMaxVel1), v2 = f32(kMaxVel2);
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs",
                        .dtype = DType::kFloat32,
                        .shape = {6},
                        .low = {-1.0, -1.0, -1.0, -1.0, -v1, -v2},
                        .high = {1.0, 1.0, 1.0, 1.0, v1, v2}}},
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {2}},
      .info = {},
      .render_width = kScreenDim,
      .render_height = kScreenDim,
      .render_fps = 15,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Acrobot",
    .options = {},
    .spec = make_spec,
    .create = make_env<Acrobot>(),
});

}  // namespace rlpool::classic_control
