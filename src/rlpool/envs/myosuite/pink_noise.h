// Colored (power-law) Gaussian noise as the `pink-noise-rl` package 2.0.1
// makes it (pink/colorednoise.py powerlaw_psd_gaussian, pink/cnrl.py
// ColoredNoiseProcess), which MyoSuite's challenge opponents move by.
//
// powerlaw_psd_gaussian draws the real parts of a half spectrum (one normal
// per frequency and row, in C order, each scaled by f^(-beta/2)), then the
// imaginary parts, and takes numpy.fft.irfft of it divided by the expected
// deviation. irfft here is this file's own mixed-radix FFT; numpy's is
// pocketfft, so the series agree with numpy's to a few units in the last
// place, not bit for bit.
#pragma once

#include <complex>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool::myosuite {

// numpy.fft.irfft(half, n) (norm "backward"): the n real values whose
// spectrum's first n / 2 + 1 entries are `half`; the imaginary parts of the
// zero-frequency entry and, for even n, of the last one are ignored.
void irfft(const std::complex<double>* half, int n, double* out);

// ColoredNoiseProcess(beta, size=(rows, steps), scale, rng): a buffer of
// `rows` series `steps` long, read one column per sample and drawn anew (from
// the generator it is given) once used up. Its numbers (the buffer, the read
// position and the scale) are plain vectors a task saves with its state.
class ColoredNoise {
 public:
  ColoredNoise(int rows, int steps, double beta);

  // A new process: its scale and a new buffer drawn (ColoredNoiseProcess.__init__).
  void start(Rng& rng, double scale);
  // ColoredNoiseProcess.sample(): scale * the next column (rows values), refilled first when used up.
  void sample(Rng& rng, double* out);

  int rows() const { return rows_; }
  // The saved numbers: the buffer (rows x steps, C order) and {read position, scale}.
  std::vector<double>* buffer() { return &buffer_; }
  std::vector<double>* position() { return &position_; }

 private:
  void refill(Rng& rng);

  const int rows_, steps_;
  std::vector<double> s_scale_;  // f^(-beta/2) per frequency, below the cutoff held at its value
  double sigma_ = 1.0;
  std::vector<double> buffer_, position_;
  std::vector<std::complex<double>> half_;
};

}  // namespace rlpool::myosuite
