// matplotlib's "hsv" colormap, which jumanji's viewers colour routes, jobs,
// items, agents and graph colours with (plt.get_cmap("hsv", n)), computed
// rather than copied: matplotlib's hsv is MATLAB's hsv(64) -- the hue circle
// at full saturation and value sampled at hues j / 64, sample j placed at
// x = j / 63 -- given as a LinearSegmented colormap whose knots are the
// samples where a channel's slope changes, their x rounded to six decimals.
// Those knots are derived here; an n-entry table then takes entry i at
// x = i / (n - 1) by matplotlib's interpolation (colors.py
// _create_lookup_table), a float x picks entry int(x * n) (colors.py
// Colormap.__call__), and a channel becomes a byte as floor(v * 255 + 0.5).
// tests/envs/jumanji/test_jumanji_render_plots.py checks the tables against
// matplotlib's own.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace hsv_detail {

struct Knot {
  double x, y;
};

// Channel c (0 red, 1 green, 2 blue) of the hue h in [0, 1) at full saturation and value.
inline double hue_channel(double h, int c) {
  const double h6 = h * 6;
  const int sector = static_cast<int>(std::floor(h6)) % 6;
  const double f = h6 - std::floor(h6);
  const double rgb[6][3] = {{1, f, 0}, {1 - f, 1, 0}, {0, 1, f}, {0, 1 - f, 1}, {f, 0, 1}, {1, 0, 1 - f}};
  return rgb[sector][c];
}

// Channel c's knots: the first and last samples and those where its slope changes.
inline std::vector<Knot> knots(int c) {
  constexpr int kSamples = 64;
  std::vector<double> y(kSamples);
  for (int j = 0; j < kSamples; ++j) y[j] = hue_channel(j / 64.0, c);
  std::vector<Knot> out;
  for (int j = 0; j < kSamples; ++j) {
    const bool end = j == 0 || j == kSamples - 1;
    if (end || std::abs((y[j + 1] - y[j]) - (y[j] - y[j - 1])) > 1e-12) {
      out.push_back({std::round(j / 63.0 * 1e6) / 1e6, y[j]});
    }
  }
  return out;
}

inline const std::vector<Knot>& channel_knots(int c) {
  static const std::vector<Knot> table[3] = {knots(0), knots(1), knots(2)};
  return table[c];
}

// Entry i of an n-entry lookup table of one channel.
inline double entry(const std::vector<Knot>& knots, int n, int i) {
  if (n <= 1 || i >= n - 1) return knots.back().y;
  if (i <= 0) return knots.front().y;
  // matplotlib scales the knots and linspace(0, 1, n) by n - 1.
  const double scale = n - 1;
  const double x = scale * (i * (1.0 / scale));
  std::size_t k = 0;
  while (k < knots.size() && knots[k].x * scale < x) ++k;  // searchsorted, side "left"
  const double distance = (x - knots[k - 1].x * scale) / (knots[k].x * scale - knots[k - 1].x * scale);
  return distance * (knots[k].y - knots[k - 1].y) + knots[k - 1].y;
}

inline std::uint8_t byte(double v) { return static_cast<std::uint8_t>(std::floor(v * 255.0 + 0.5)); }

}  // namespace hsv_detail

// plt.get_cmap("hsv", n)(i) for an integer i (clipped to 0..n-1).
inline Rgb hsv_entry(int n, int i) {
  using namespace hsv_detail;
  i = i < 0 ? 0 : (i >= n ? n - 1 : i);
  return Rgb{byte(entry(channel_knots(0), n, i)), byte(entry(channel_knots(1), n, i)),
             byte(entry(channel_knots(2), n, i))};
}

// plt.get_cmap("hsv", n)(x) for a float x in [0, 1]: entry int(x * n), 1 itself the last entry.
inline Rgb hsv_at(int n, double x) { return hsv_entry(n, static_cast<int>(x * n)); }

}  // namespace rlpool::jumanji
