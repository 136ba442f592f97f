// Colored Gaussian noise (pink_noise.h): pink-noise-rl 2.0.1's
// pink/colorednoise.py powerlaw_psd_gaussian and pink/cnrl.py
// ColoredNoiseProcess (reset, sample), with numpy.fft.rfftfreq and irfft.
#include "envs/myosuite/pink_noise.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

using Complex = std::complex<double>;

Complex mul(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

int smallest_factor(int n) {
  for (int p = 2; p * p <= n; ++p) {
    if (n % p == 0) return p;
  }
  return n;
}

// The length-n transform with exponent sign +1 of in[0], in[stride], ... into out[0..n), by decimation in
// time over n's smallest factor; tw[j] = exp(2 pi i j / total) for the top-level length `total`.
void transform(const Complex* in, int stride, Complex* out, int n, int total, const std::vector<Complex>& tw,
               std::vector<Complex>& scratch) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const int p = smallest_factor(n), m = n / p, step = total / n;
  for (int q = 0; q < p; ++q) transform(in + q * stride, stride * p, out + q * m, m, total, tw, scratch);
  scratch.assign(out, out + n);
  for (int k = 0; k < m; ++k) {
    for (int s = 0; s < p; ++s) {
      const int j = k + s * m;
      Complex acc = scratch[static_cast<std::size_t>(k)];
      for (int q = 1; q < p; ++q) {
        const auto e = static_cast<std::size_t>((static_cast<long>(q) * j % n) * step);
        acc += mul(scratch[static_cast<std::size_t>(q * m + k)], tw[e]);
      }
      out[j] = acc;
    }
  }
}

}  // namespace

void irfft(const Complex* half, int n, double* out) {
  if (n < 1) throw std::invalid_argument("irfft: the length must be positive");
  const auto un = static_cast<std::size_t>(n);
  std::vector<Complex> full(un), spectrum(un), tw(un), scratch;
  full[0] = {half[0].real(), 0.0};
  for (int k = 1; k <= (n - 1) / 2; ++k) {
    full[static_cast<std::size_t>(k)] = half[k];
    full[static_cast<std::size_t>(n - k)] = std::conj(half[k]);
  }
  if (n % 2 == 0 && n > 1) full[un / 2] = {half[n / 2].real(), 0.0};
  for (int j = 0; j < n; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / n;
    tw[static_cast<std::size_t>(j)] = {std::cos(angle), std::sin(angle)};
  }
  transform(full.data(), 1, spectrum.data(), n, n, tw, scratch);
  const double fct = 1.0 / n;
  for (int t = 0; t < n; ++t) out[t] = spectrum[static_cast<std::size_t>(t)].real() * fct;
}

ColoredNoise::ColoredNoise(int rows, int steps, double beta)
    : rows_(rows), steps_(steps), buffer_(static_cast<std::size_t>(rows * steps)), position_{0.0, 1.0} {
  if (rows < 1 || steps < 2) throw std::invalid_argument("colored noise needs a row and two steps");
  // rfftfreq(steps): k * (1 / steps); the cutoff max(0, 1 / steps); the powers below it held at its value.
  const int nf = steps / 2 + 1;
  const double val = 1.0 / steps, fmin = 1.0 / steps;
  s_scale_.resize(static_cast<std::size_t>(nf));
  for (int k = 0; k < nf; ++k) s_scale_[static_cast<std::size_t>(k)] = k * val;
  std::size_t ix = 0;
  for (const double f : s_scale_) ix += f < fmin ? 1 : 0;
  if (ix > 0 && ix < s_scale_.size()) std::fill_n(s_scale_.begin(), ix, s_scale_[ix]);
  // s_scale ** (-beta / 2): numpy takes the reciprocal for an exponent of -1.
  const double exponent = -beta / 2.0;
  for (double& s : s_scale_) s = exponent == -1.0 ? 1.0 / s : std::pow(s, exponent);
  std::vector<double> w2(s_scale_.begin() + 1, s_scale_.end());
  w2.back() *= (1 + steps % 2) / 2.0;
  for (double& w : w2) w *= w;
  sigma_ = 2 * std::sqrt(numpy_sum(w2.data(), static_cast<int>(w2.size()))) / steps;
  half_.resize(static_cast<std::size_t>(rows * nf));
}

void ColoredNoise::refill(Rng& rng) {
  const int nf = steps_ / 2 + 1;
  std::vector<double> sr(half_.size()), si(half_.size());
  for (auto* part : {&sr, &si}) {
    // normal(scale=s_scale, size=(rows, nf)): loc 0 plus scale times a normal, in C order.
    for (std::size_t i = 0; i < part->size(); ++i) (*part)[i] = 0.0 + s_scale_[i % s_scale_.size()] * rng.normal();
  }
  const double sqrt2 = std::sqrt(2.0);
  for (int r = 0; r < rows_; ++r) {
    const auto row = static_cast<std::size_t>(r * nf);
    if (steps_ % 2 == 0) {
      si[row + static_cast<std::size_t>(nf - 1)] = 0.0;
      sr[row + static_cast<std::size_t>(nf - 1)] *= sqrt2;
    }
    si[row] = 0.0;
    sr[row] *= sqrt2;
  }
  for (std::size_t i = 0; i < half_.size(); ++i) half_[i] = {sr[i], si[i]};
  for (int r = 0; r < rows_; ++r) {
    double* y = buffer_.data() + static_cast<std::size_t>(r * steps_);
    irfft(half_.data() + static_cast<std::size_t>(r * nf), steps_, y);
    for (int t = 0; t < steps_; ++t) y[t] /= sigma_;
  }
  position_[0] = 0.0;
}

void ColoredNoise::start(Rng& rng, double scale) {
  position_[1] = scale;
  refill(rng);
}

void ColoredNoise::sample(Rng& rng, double* out) {
  if (position_[0] >= steps_) refill(rng);
  const auto t = static_cast<std::size_t>(position_[0]);
  for (int r = 0; r < rows_; ++r) out[r] = position_[1] * buffer_[static_cast<std::size_t>(r * steps_) + t];
  position_[0] += 1.0;
}

}  // namespace rlpool::myosuite
