// What gymnasium's MountainCarEnv and Continuous_MountainCarEnv share: the
// track's bounds, the observation space, and render() (the same picture),
// primitive for primitive (draw.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"

namespace rlpool::classic_control::mountain_car {

constexpr int kScreenW = 600, kScreenH = 400;
constexpr double kRenderFps = 30;
constexpr double kMinPosition = -1.2;
constexpr double kMaxPosition = 0.6;
constexpr double kMaxSpeed = 0.07;

// Both envs' spec: gymnasium's observation box (float32 bounds) with `action`; a bad goal_velocity is
// refused here too.
inline EnvSpec make_spec(const Config& config, ArraySpec action) {
  config.get_finite("goal_velocity");
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs",
                        .dtype = DType::kFloat32,
                        .shape = {2},
                        .low = {f32(kMinPosition), f32(-kMaxSpeed)},
                        .high = {f32(kMaxPosition), f32(kMaxSpeed)}}},
      .action = std::move(action),
      .info = {},
      .render_width = kScreenW,
      .render_height = kScreenH,
      .render_fps = kRenderFps,
  };
}

// gymnasium's _height, in U's arithmetic.
template <class U>
U height(U x) {
  return std::sin(static_cast<U>(3) * x) * static_cast<U>(0.45) + static_cast<U>(0.55);
}

// T is how numpy holds the position: double, or float where gymnasium keeps
// the state as float32 (the continuous env after a step); numpy then does the
// arithmetic with it in float32 (NEP 50), Python floats rounded to float32.
template <class T>
void render(const Frame& frame, T pos, double min_position, double max_position, double goal_position) {
  const double world_width = max_position - min_position;
  const double scale = kScreenW / world_width;
  constexpr double kCarWidth = 40, kCarHeight = 20, kClearance = 10;
  draw::Image img(kScreenW, kScreenH);
  img.fill(draw::rgb(255, 255, 255));
  std::vector<int> ints;

  // The track: np.linspace(min, max, 100) (i * step + start, the last point
  // exactly max), handed to aalines as float32.
  constexpr int kPoints = 100;
  float xs[kPoints], ys[kPoints];
  const double step = world_width / (kPoints - 1);
  for (int i = 0; i < kPoints; ++i) {
    const double x = i == kPoints - 1 ? max_position : i * step + min_position;
    xs[i] = static_cast<float>((x - min_position) * scale);
    ys[i] = static_cast<float>(height(x) * scale);
  }
  draw::pg_aalines(img, draw::rgb(0, 0, 0), xs, ys, kPoints);

  const T along = static_cast<T>(pos - static_cast<T>(min_position)) * static_cast<T>(scale);
  const T lift = height<T>(pos) * static_cast<T>(scale);
  const draw::Rotation rotate(std::cos(static_cast<double>(static_cast<T>(3 * pos))));
  const auto place = [&](double x, double y) {
    const draw::Point c = rotate(x, y);
    return draw::Point{static_cast<double>(static_cast<T>(c.x) + along),
                       static_cast<double>(static_cast<T>(c.y + kClearance) + lift)};
  };
  const double l = -kCarWidth / 2, r = kCarWidth / 2, t = kCarHeight, b = 0;
  const draw::Point car[4] = {place(l, b), place(l, t), place(r, t), place(r, b)};
  draw::gfx_polygon(img, car, 4, draw::rgb(0, 0, 0), ints);
  for (const double wx : {kCarWidth / 4, -kCarWidth / 4}) {
    const draw::Point w = place(wx, 0);
    draw::gfx_disc(img, static_cast<int>(w.x), static_cast<int>(w.y), static_cast<int>(kCarHeight / 2.5),
                   draw::rgb(128, 128, 128));
  }

  const int flagx = static_cast<int>((goal_position - min_position) * scale);
  const int flagy1 = static_cast<int>(height(goal_position) * scale);
  const int flagy2 = flagy1 + 50;
  draw::vline(img, flagx, flagy1, flagy2, draw::rgb(0, 0, 0));
  const std::int16_t fx[3] = {static_cast<std::int16_t>(flagx), static_cast<std::int16_t>(flagx),
                              static_cast<std::int16_t>(flagx + 25)};
  const std::int16_t fy[3] = {static_cast<std::int16_t>(flagy2), static_cast<std::int16_t>(flagy2 - 10),
                              static_cast<std::int16_t>(flagy2 - 5)};
  draw::gfx_polygon(img, fx, fy, 3, draw::rgb(204, 204, 0), ints);
  img.write_flipped_rgb(frame.rgb);
}

}  // namespace rlpool::classic_control::mountain_car
