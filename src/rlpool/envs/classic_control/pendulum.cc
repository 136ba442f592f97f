// Pendulum, matching gymnasium 1.4 PendulumEnv.
//
// The action is taken as gymnasium's float32 action space would hold it, so
// after np.clip `u` is a float32 scalar and numpy 2 computes `3.0 * u` and
// `0.001 * (u**2)` in float32 (NEP 50); the rest is float64.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"

namespace rlpool::classic_control {
namespace {

constexpr double kMaxSpeed = 8;
constexpr double kMaxTorque = 2.0;
constexpr double kDt = 0.05;
constexpr double kM = 1.0;
constexpr double kL = 1.0;
constexpr double kPi = std::numbers::pi;
constexpr int kScreenDim = 500;

// numpy's scalar `x ** 2` calls libm pow()/powf(), which can differ from x * x
// in the last bit; the volatile exponent stops the compiler turning it into x * x.
volatile double two = 2.0;  // read-only
double np_square(double x) { return std::pow(x, two); }
float np_square(float x) { return std::pow(x, static_cast<float>(two)); }

// numpy float64 `a % b` (Python semantics: result has the sign of b).
double np_mod(double a, double b) {
  double mod = std::fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

double angle_normalize(double x) { return np_mod(x + kPi, 2 * kPi) - kPi; }

class Pendulum final : public Env {
 public:
  explicit Pendulum(const Config& config) : g_(config.get_finite("g")), images_(config.get_string("_images")) {}

  void reset(Rng& rng, const Output& out) override {
    const double th = rng.uniform(-kPi, kPi);
    const double thdot = rng.uniform(-1.0, 1.0);
    state_ = {th, thdot};
    last_u_.reset();
    write_obs(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const auto [th, thdot] = state_;
    const float u = std::min(std::max(f32(action.continuous()[0]), f32(-kMaxTorque)), f32(kMaxTorque));

    const double costs = np_square(angle_normalize(th)) + 0.1 * np_square(thdot) +
                         static_cast<double>(f32(0.001) * np_square(u));
    double newthdot = thdot + (3 * g_ / (2 * kL) * std::sin(th) +
                               static_cast<double>(f32(3.0 / (kM * (kL * kL))) * u)) * kDt;
    newthdot = std::min(std::max(newthdot, -kMaxSpeed), kMaxSpeed);
    const double newth = th + newthdot * kDt;
    state_ = {newth, newthdot};
    last_u_ = u;

    *out.reward = -costs;
    *out.terminated = false;
    write_obs(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_finite_state(bytes, state_); }

  // gymnasium's PendulumEnv.render, primitive for primitive (draw.h). The
  // torque arrow is gymnasium's clockwise.png (read from the installed
  // gymnasium, see draw::load), scaled, flipped and blitted as pygame and SDL do it.
  void render(const Frame& frame) override {
    constexpr double kScale = kScreenDim / (2.2 * 2);
    constexpr int kOffset = kScreenDim / 2;
    constexpr double kRodLength = 1 * kScale, kRodWidth = 0.2 * kScale;
    const std::uint32_t rod_color = draw::rgb(204, 77, 77);
    draw::Image img(kScreenDim, kScreenDim);
    img.fill(draw::rgb(255, 255, 255));
    std::vector<int> ints;
    const draw::Rotation rotate(state_[0] + kPi / 2);
    draw::Point rod[4] = {{0, -kRodWidth / 2}, {0, kRodWidth / 2}, {kRodLength, kRodWidth / 2},
                          {kRodLength, -kRodWidth / 2}};
    for (auto& p : rod) {
      const draw::Point q = rotate(p.x, p.y);
      p = {q.x + kOffset, q.y + kOffset};
    }
    draw::gfx_polygon(img, rod, 4, rod_color, ints);
    draw::gfx_disc(img, kOffset, kOffset, static_cast<int>(kRodWidth / 2), rod_color);
    const draw::Point end = rotate(kRodLength, 0);
    draw::gfx_disc(img, static_cast<int>(end.x + kOffset), static_cast<int>(end.y + kOffset),
                   static_cast<int>(kRodWidth / 2), rod_color);
    if (last_u_) draw_arrow(img, *last_u_, f32(kScale), kOffset);
    draw::gfx_disc(img, kOffset, kOffset, static_cast<int>(0.05 * kScale), draw::rgb(0, 0, 0));
    img.write_flipped_rgb(frame.rgb);
  }

 private:
  // smoothscale(img, (scale * |u| / 2,) * 2) (numpy: float32 arithmetic,
  // the size truncated), flipped left-right for u > 0 and upside down, then
  // blitted centred on the pivot.
  void draw_arrow(draw::Image& img, float u, float scale, int offset) const {
    const draw::Pixels& arrow = draw::load(images_, kArrow);
    std::vector<std::uint8_t> alpha(arrow.argb.size());  // the image is black: its alpha is all there is
    for (std::size_t i = 0; i < alpha.size(); ++i) alpha[i] = static_cast<std::uint8_t>(arrow.argb[i] >> 24);
    const int size = static_cast<int>(scale * std::abs(u) / 2);
    if (size <= 0) return;
    const std::vector<std::uint8_t> scaled = draw::smoothscale_shrink(alpha.data(), arrow.width, arrow.height, size, size);
    const int left = offset - size / 2, top = offset - size / 2;
    const bool mirror = u > 0;
    for (int y = 0; y < size; ++y) {
      const std::uint8_t* row = scaled.data() + static_cast<std::size_t>(size - 1 - y) * size;
      for (int x = 0; x < size; ++x) {
        draw::blit_alpha(img, left + x, top + y, draw::rgb(0, 0, 0), row[mirror ? size - 1 - x : x]);
      }
    }
  }

  void write_obs(const Output& out) const {
    auto* obs = out.obs_as<float>();
    obs[0] = static_cast<float>(std::cos(state_[0]));
    obs[1] = static_cast<float>(std::sin(state_[0]));
    obs[2] = static_cast<float>(state_[1]);
  }

  static constexpr draw::Sprite kArrow{"envs/classic_control/assets/clockwise.png"};
  double g_;
  std::string images_;  // the _images option: where draw::load finds kArrow
  std::array<double, 2> state_{};  // th, thdot (gymnasium's layout)
  std::optional<float> last_u_;    // the torque of the last step, for the arrow (none after reset)
};

EnvSpec make_spec(const Config& config) {
  config.get_finite("g");  // so that make_spec refuses it too
  return EnvSpec{
      .obs = {ArraySpec{
          .name = "obs", .dtype = DType::kFloat32, .shape = {3}, .low = {-1.0, -1.0, -kMaxSpeed}, .high = {1.0, 1.0, kMaxSpeed}}},
      .action = ArraySpec{
          .name = "action", .dtype = DType::kFloat32, .shape = {1}, .low = {-kMaxTorque}, .high = {kMaxTorque}},
      .info = {},
      .render_width = kScreenDim,
      .render_height = kScreenDim,
      .render_fps = 30,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Pendulum",
    .options = {{"g", 10.0, "Acceleration of gravity."},
                {"_images", std::string(), "gymnasium's images, decoded (set by rlpool.images)"}},
    .spec = make_spec,
    .create = make_env<Pendulum>(),
});

}  // namespace rlpool::classic_control
