// Perlin and fractal noise as craftax 1.6.1 computes them
// (craftax/craftax_classic/util/noise.py: generate_perlin_noise_2d l.14-46 and
// generate_fractal_noise_2d l.49-76; full Craftax's util/noise.py is the same
// code), reproducing jitted XLA's float32 results on CPU bit for bit.
//
// The arithmetic follows XLA's: the grid is jnp.mgrid's float32 ramp % 1, the
// gradient angles are float32(2 pi) * uniform, cos/sin are glibc's cosf/sinf
// (which XLA CPU matches), the interpolant is ((t*t)*t) * (t*(t*6-15)+10), the
// result is scaled by float32 sqrt(2), and the fractal normalisation
// (n - min) / (max - min) is a multiply by the float32 reciprocal of
// (max - min), as XLA rewrites it. Whether XLA fuses the interpolation's
// multiply-adds depends on the program around it: Classic's 64 x 64 maps and
// full Craftax's six 48 x 48 maps generated together (generate_world's vmap)
// are plain (`fma = false`); one 48 x 48 fractal compiled on its own computes
// n0 = fma(t0, n10, n00 * (1 - t0)) (likewise n1) and
// fma(1 - t1, n0, t1 * n1) (`fma = true`). Arrays are row-major
// (rows = shape[0], the x axis craftax indexes first).
#pragma once

#include <cstddef>

#include "_core/env/jax_random.h"

namespace rlpool::craftax {

struct NoiseShape {
  int rows = 0;  // shape[0]
  int cols = 0;  // shape[1]
  int res0 = 0;  // res[0]: gradient cells along rows; must divide rows
  int res1 = 0;  // res[1]: gradient cells along columns; must divide cols
};

// generate_perlin_noise_2d(rng, shape, res): fills out[rows * cols]. Draws
// `rng, _rng = split(rng)` and uniform(_rng, (res0 + 1, res1 + 1)). Throws
// std::invalid_argument when a resolution is not positive or does not divide
// its side.
void perlin_noise_2d(jax_random::Key rng, const NoiseShape& shape, bool fma, float* out);

// generate_fractal_noise_2d(rng, shape, res, octaves, persistence, lacunarity)
// normalised to [0, 1]: fills out[rows * cols]. Each octave draws
// `rng, _rng = split(rng)` and calls perlin_noise_2d(_rng, ...) at frequency
// lacunarity^octave. With `add` (rows * cols values, or null), out is
// `fractal + add` as XLA computes it when the add shares the normalisation's
// fusion (Classic's `water + proximity` and `mountain + 0.05`): the
// normalisation's multiply and the add fused, fma(n - min, 1 / (max - min), add).
// In fma mode the normalisation is fma(v, sqrt(2), -min) * (1 / (max - min))
// with v the perlin value before its sqrt(2) factor (min and max over the
// plain sqrt(2) * v), as XLA computes the 48 x 48 fractal on its own; the
// `add` form is not checked in that mode. craftax only calls it with
// octaves = 1; more octaves follow noise.py's arithmetic plainly (unchecked
// against XLA's fusion).
void fractal_noise_2d(jax_random::Key rng, const NoiseShape& shape, bool fma, float* out, const float* add = nullptr,
                      int octaves = 1, float persistence = 0.5f, int lacunarity = 2);

}  // namespace rlpool::craftax
