// Perlin and fractal noise of craftax 1.6.1's util/noise.py (see noise.h), in
// XLA's float32 arithmetic. The line references are to
// craftax/craftax_classic/util/noise.py.
#include "envs/craftax/noise.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlpool::craftax {

namespace {

// jnp.mgrid[0 : res : res / n] % 1 along one axis (l.19-21): numpy's float32
// arange (start + i * delta, delta = float32(res / n)), then % 1 in float32.
// Exact whenever n / res is a power of two, as in every craftax map.
std::vector<float> grid_axis(int n, int res) {
  const auto delta = static_cast<float>(static_cast<double>(res) / static_cast<double>(n));
  std::vector<float> g(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) g[static_cast<std::size_t>(i)] = std::fmod(static_cast<float>(i) * delta, 1.0f);
  return g;
}

// The interpolant t^3 (6 t^2 - 15 t + 10), l.10-11, in XLA's operation order.
float interpolant(float t) { return ((t * t) * t) * (t * (t * 6.0f - 15.0f) + 10.0f); }

void check_shape(const NoiseShape& s) {
  if (s.rows <= 0 || s.cols <= 0 || s.res0 <= 0 || s.res1 <= 0 || s.rows % s.res0 != 0 || s.cols % s.res1 != 0) {
    throw std::invalid_argument("craftax noise: shape (" + std::to_string(s.rows) + ", " + std::to_string(s.cols) +
                                ") is not a positive multiple of res (" + std::to_string(s.res0) + ", " +
                                std::to_string(s.res1) + ")");
  }
}

constexpr auto kSqrt2 = static_cast<float>(1.4142135623730951);  // jnp.sqrt(2) in float32

// generate_perlin_noise_2d before its final `jnp.sqrt(2) *` (l.15-46): v[rows * cols].
void perlin_unscaled(jax_random::Key rng, const NoiseShape& shape, bool fma, float* v) {
  check_shape(shape);
  const int d0 = shape.rows / shape.res0;
  const int d1 = shape.cols / shape.res1;
  const std::vector<float> gx = grid_axis(shape.rows, shape.res0);
  const std::vector<float> gy = grid_axis(shape.cols, shape.res1);

  // Gradients (l.23-29): angles = 2 pi * uniform((res0 + 1, res1 + 1)).
  const auto [next, sub] = jax_random::split2(rng);
  static_cast<void>(next);
  const int gc = shape.res1 + 1;
  const std::size_t ng = static_cast<std::size_t>(shape.res0 + 1) * static_cast<std::size_t>(gc);
  std::vector<float> u(ng);
  jax_random::uniform(sub, u.data(), ng);
  constexpr auto kTwoPi = static_cast<float>(2.0 * 3.141592653589793);
  std::vector<float> gcos(ng);
  std::vector<float> gsin(ng);
  for (std::size_t k = 0; k < ng; ++k) {
    const float angle = kTwoPi * u[k];
    gcos[k] = std::cos(angle);
    gsin[k] = std::sin(angle);
  }

  for (int i = 0; i < shape.rows; ++i) {
    const float x = gx[static_cast<std::size_t>(i)];
    const float x1 = x - 1.0f;
    const float t0 = interpolant(x);
    const float s0 = 1.0f - t0;
    const int a = i / d0;
    for (int j = 0; j < shape.cols; ++j) {
      const float y = gy[static_cast<std::size_t>(j)];
      const float y1 = y - 1.0f;
      const int b = j / d1;
      // g00 = gradients[a, b], g10 = [a + 1, b], g01 = [a, b + 1], g11 = [a + 1, b + 1] (l.30-33).
      const auto k00 = static_cast<std::size_t>(a * gc + b);
      const auto k10 = static_cast<std::size_t>((a + 1) * gc + b);
      const std::size_t k01 = k00 + 1;
      const std::size_t k11 = k10 + 1;
      // Ramps (l.36-39): jnp.sum over the pair starts from +0, so a -0 sum is +0.
      const float n00 = 0.0f + x * gcos[k00] + y * gsin[k00];
      const float n10 = 0.0f + x1 * gcos[k10] + y * gsin[k10];
      const float n01 = 0.0f + x * gcos[k01] + y1 * gsin[k01];
      const float n11 = 0.0f + x1 * gcos[k11] + y1 * gsin[k11];
      // Interpolation (l.42-46).
      const float t1 = interpolant(y);
      const float s1 = 1.0f - t1;
      float r = 0.0f;
      if (fma) {
        const float n0 = std::fma(t0, n10, n00 * s0);
        const float n1 = std::fma(t0, n11, n01 * s0);
        r = std::fma(s1, n0, t1 * n1);
      } else {
        const float n0 = n00 * s0 + t0 * n10;
        const float n1 = n01 * s0 + t0 * n11;
        r = s1 * n0 + t1 * n1;
      }
      v[static_cast<std::size_t>(i) * static_cast<std::size_t>(shape.cols) + static_cast<std::size_t>(j)] = r;
    }
  }
}

}  // namespace

void perlin_noise_2d(jax_random::Key rng, const NoiseShape& shape, bool fma, float* out) {
  perlin_unscaled(rng, shape, fma, out);
  const std::size_t n = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols);
  for (std::size_t k = 0; k < n; ++k) out[k] = kSqrt2 * out[k];
}

void fractal_noise_2d(jax_random::Key rng, const NoiseShape& shape, bool fma, float* out, const float* add,
                      int octaves, float persistence, int lacunarity) {
  check_shape(shape);
  if (octaves < 1) throw std::invalid_argument("craftax noise: octaves must be at least 1");
  const std::size_t n = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols);
  // noise = zeros + 1 * perlin (l.60-70): XLA folds the zeros and the 1, so with
  // one octave the noise is the perlin values themselves; v keeps them before
  // the sqrt(2) factor for the fma mode's fused normalisation.
  std::vector<float> v(n);
  std::vector<float> noise(n);
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  perlin_unscaled(sub, shape, fma, v.data());
  for (std::size_t k = 0; k < n; ++k) noise[k] = kSqrt2 * v[k];
  int frequency = lacunarity;
  double amplitude = static_cast<double>(persistence);  // a Python number: weakly typed, applied as float32
  std::vector<float> layer(n);
  for (int o = 1; o < octaves; ++o) {
    const auto [next_o, sub_o] = jax_random::split2(rng);
    rng = next_o;
    const NoiseShape octave{shape.rows, shape.cols, frequency * shape.res0, frequency * shape.res1};
    perlin_noise_2d(sub_o, octave, fma, layer.data());
    const auto amp = static_cast<float>(amplitude);
    for (std::size_t k = 0; k < n; ++k) noise[k] = noise[k] + amp * layer[k];
    frequency *= lacunarity;
    amplitude *= static_cast<double>(persistence);
  }
  // Normalise (l.73): (noise - min) * (1 / (max - min)).
  const auto [lo, hi] = std::minmax_element(noise.begin(), noise.end());
  const float min = *lo;
  const float scale = 1.0f / (*hi - min);
  const bool fused_sqrt2 = fma && octaves == 1;
  for (std::size_t k = 0; k < n; ++k) {
    const float d = fused_sqrt2 ? std::fma(v[k], kSqrt2, -min) : noise[k] - min;
    out[k] = add != nullptr ? std::fma(d, scale, add[k]) : d * scale;
  }
}

}  // namespace rlpool::craftax
