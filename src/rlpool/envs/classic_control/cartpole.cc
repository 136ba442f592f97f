// CartPole, matching gymnasium 1.4 CartPoleEnv (Barto, Sutton & Anderson).
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"

namespace rlpool::classic_control {
namespace {

constexpr double kGravity = 9.8;
constexpr double kMassCart = 1.0;
constexpr double kMassPole = 0.1;
constexpr double kTotalMass = kMassPole + kMassCart;
constexpr double kLength = 0.5;  // half the pole's length
constexpr double kPoleMassLength = kMassPole * kLength;
constexpr double kForceMag = 10.0;
constexpr double kTau = 0.02;
// Same expression as gymnasium so the double is bitwise the same.
constexpr double kThetaThreshold = 12 * 2 * std::numbers::pi / 360;
constexpr double kXThreshold = 2.4;
constexpr int kScreenW = 600, kScreenH = 400;

class CartPole final : public Env {
 public:
  explicit CartPole(const Config& config) : sutton_barto_reward_(config.get_bool("sutton_barto_reward")) {}

  void reset(Rng& rng, const Output& out) override {
    for (auto& v : state_) v = rng.uniform(-0.05, 0.05);
    write_obs(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    auto& [x, x_dot, theta, theta_dot] = state_;
    const double force = action.discrete() == 1 ? kForceMag : -kForceMag;
    const double costheta = std::cos(theta);
    const double sintheta = std::sin(theta);
    // Operation order follows gymnasium's numpy code term by term.
    const double temp = (force + kPoleMassLength * (theta_dot * theta_dot) * sintheta) / kTotalMass;
    const double thetaacc = (kGravity * sintheta - costheta * temp) /
                            (kLength * (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    const double xacc = temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
    // gymnasium's default kinematics_integrator is "euler" (not semi-implicit).
    x = x + kTau * x_dot;
    x_dot = x_dot + kTau * xacc;
    theta = theta + kTau * theta_dot;
    theta_dot = theta_dot + kTau * thetaacc;

    const bool terminated =
        x < -kXThreshold || x > kXThreshold || theta < -kThetaThreshold || theta > kThetaThreshold;
    // The engine resets after termination, so only the first terminal step's reward is needed.
    if (sutton_barto_reward_) {
      *out.reward = terminated ? -1.0 : 0.0;
    } else {
      *out.reward = 1.0;
    }
    *out.terminated = terminated;
    write_obs(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_finite_state(bytes, state_); }

  // gymnasium's CartPoleEnv.render, primitive for primitive (draw.h).
  void render(const Frame& frame) override {
    constexpr double kScale = kScreenW / (kXThreshold * 2);
    constexpr double kPoleWidth = 10.0, kPoleLen = kScale * (2 * kLength);
    constexpr double kCartWidth = 50.0, kCartHeight = 30.0;
    constexpr double kAxleOffset = kCartHeight / 4.0;
    constexpr double kCartY = 100;  // top of the cart
    draw::Image img(kScreenW, kScreenH);
    img.fill(draw::rgb(255, 255, 255));
    std::vector<int> ints;
    const double cartx = state_[0] * kScale + kScreenW / 2.0;
    const double l = -kCartWidth / 2, r = kCartWidth / 2, t = kCartHeight / 2, b = -kCartHeight / 2;
    const draw::Point cart[4] = {{l + cartx, b + kCartY}, {l + cartx, t + kCartY}, {r + cartx, t + kCartY},
                                 {r + cartx, b + kCartY}};
    draw::gfx_polygon(img, cart, 4, draw::rgb(0, 0, 0), ints);
    const double pl = -kPoleWidth / 2, pr = kPoleWidth / 2, pt = kPoleLen - kPoleWidth / 2, pb = -kPoleWidth / 2;
    const draw::Rotation rotate(-state_[2]);
    draw::Point pole[4] = {{pl, pb}, {pl, pt}, {pr, pt}, {pr, pb}};
    for (auto& p : pole) {
      const draw::Point q = rotate(p.x, p.y);
      p = {q.x + cartx, q.y + kCartY + kAxleOffset};
    }
    draw::gfx_polygon(img, pole, 4, draw::rgb(202, 152, 101), ints);
    draw::gfx_disc(img, static_cast<int>(cartx), static_cast<int>(kCartY + kAxleOffset), static_cast<int>(kPoleWidth / 2),
                   draw::rgb(129, 132, 203));
    draw::hline(img, 0, kScreenW, static_cast<int>(kCartY), draw::rgb(0, 0, 0));
    img.write_flipped_rgb(frame.rgb);
  }

 private:
  void write_obs(const Output& out) const {
    auto* obs = out.obs_as<float>();
    for (int i = 0; i < 4; ++i) obs[i] = static_cast<float>(state_[i]);
  }

  bool sutton_barto_reward_;
  std::array<double, 4> state_{};  // x, x_dot, theta, theta_dot (gymnasium's layout)
};

EnvSpec make_spec(const Config& /*config*/) {
  const double inf = std::numeric_limits<double>::infinity();
  // gymnasium's Box keeps +-inf; the finite bounds are float32-rounded.
  const std::vector<double> high = {f32(kXThreshold * 2), inf, f32(kThetaThreshold * 2), inf};
  const std::vector<double> low = {-high[0], -inf, -high[2], -inf};
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {4}, .low = low, .high = high}},
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {1}},
      .info = {},
      .render_width = kScreenW,
      .render_height = kScreenH,
      .render_fps = 50,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "CartPole",
    .options = {{"sutton_barto_reward", false,
                 "If true, reward 0 per non-terminal step and -1 on termination (Sutton & Barto)."}},
    .spec = make_spec,
    .create = make_env<CartPole>(),
});

}  // namespace rlpool::classic_control
