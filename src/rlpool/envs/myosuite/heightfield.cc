// ChaseTagField (heightfield.h): myosuite 2.11.6's envs/heightfields.py,
// HeightField.cart2map and ChaseTagField (flatten_agent_patch,
// _compute_patch_data, _populate_patches, _fill_patch, sample,
// _compute_rough_terrain, _compute_relief_terrain, _compute_hilly_terrain).
#include "envs/myosuite/heightfield.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>

#include "_core/io/npy_file.h"

namespace rlpool::myosuite {
namespace {

constexpr int kPatchesPerSide = 3;
constexpr double kRealLength = 12.0, kRealWidth = 12.0;

void refuse_relief(const std::string& path, const std::string& why) {
  throw std::invalid_argument("the chase-tag relief '" + path + "': " + why);
}

// _compute_relief_terrain's data before its scale: (relief - min) / (max - min) (uint8 differences divided
// as float64), upside down (np.flipud).
std::shared_ptr<const std::vector<double>> read_relief(const std::string& path) {
  const NpyBytes npy = read_npy(path, {"|u1"}, refuse_relief);
  if (npy.shape.size() != 2) refuse_relief(path, "expected a 2-d array, got shape " + shape_text(npy.shape));
  const auto rows = static_cast<std::size_t>(npy.shape[0]), cols = static_cast<std::size_t>(npy.shape[1]);
  const auto [lo, hi] = std::minmax_element(npy.data.begin(), npy.data.end());
  const auto range = static_cast<std::uint8_t>(*hi - *lo);
  auto out = std::make_shared<std::vector<double>>(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const auto v = static_cast<std::uint8_t>(npy.data[r * cols + c] - *lo);
      (*out)[(rows - 1 - r) * cols + c] = static_cast<double>(v) / static_cast<double>(range);
    }
  }
  return out;
}

}  // namespace

ChaseTagField::ChaseTagField(int nrow, int ncol, FieldRanges ranges, const std::string& relief_file)
    : nrow_(nrow), ncol_(ncol), patch_(nrow / kPatchesPerSide), ranges_(ranges) {
  if (patch_ < 1 || ncol < kPatchesPerSide * patch_) {
    throw std::invalid_argument("the chase-tag heightfield (" + std::to_string(nrow) + " x " + std::to_string(ncol) +
                                ") is too small for 3 x 3 patches");
  }
  // _compute_hilly_terrain: sin(linspace(0, 10 pi, patch^2) + pi / 2) - 1, normalized to [0, 1], flipped
  // over both axes (the flat order reversed).
  const int n = patch_ * patch_;
  const double stop = 10 * std::numbers::pi, step = stop / (n - 1);
  std::vector<double> data(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double x = i == n - 1 ? stop : i * step + 0.0;
    data[static_cast<std::size_t>(i)] = std::sin(x + std::numbers::pi / 2) - 1;
  }
  const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
  const double min = *lo, range = *hi - *lo;
  hills_.resize(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) hills_[data.size() - 1 - i] = (data[i] - min) / range;
  relief_ = shared_copy<std::vector<double>>(relief_file, read_relief);
  if (relief_->size() != static_cast<std::size_t>(n)) {
    refuse_relief(relief_file, "expected " + std::to_string(patch_) + " x " + std::to_string(patch_) + " values");
  }
}

void ChaseTagField::fill(int i, int j, Patch type, Rng& rng, double* heights) const {
  const int p = patch_;
  std::vector<double> data(static_cast<std::size_t>(p * p), 0.0);
  if (type == Patch::kRough) {
    for (double& h : data) h = rng.uniform(-1.0, 1.0);
    const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
    const double min = *lo, range = *hi - *lo;
    const double scalar = rng.uniform(ranges_.rough[0], ranges_.rough[1]);
    for (double& h : data) h = (h - min) / range * scalar - 0.02;
  } else if (type == Patch::kHilly) {
    const double scalar = rng.uniform(ranges_.hills[0], ranges_.hills[1]);
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = hills_[k] * scalar;
    if (rng.uniform() < 0.5) {
      // np.rot90: out[r][c] = in[c][p - 1 - r].
      const std::vector<double> in = data;
      for (int r = 0; r < p; ++r) {
        for (int c = 0; c < p; ++c) {
          data[static_cast<std::size_t>(r * p + c)] = in[static_cast<std::size_t>(c * p + p - 1 - r)];
        }
      }
    }
  } else if (type == Patch::kRelief) {
    const double scalar = rng.uniform(ranges_.relief[0], ranges_.relief[1]);
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = (*relief_)[k] * scalar;
  }
  put(i, j, data, heights);
}

void ChaseTagField::put(int i, int j, const std::vector<double>& data, double* heights) const {
  const int p = patch_;
  for (int r = 0; r < p; ++r) {
    for (int c = 0; c < p; ++c) {
      heights[(i * p + r) * ncol_ + j * p + c] = static_cast<float>(data[static_cast<std::size_t>(r * p + c)]);
    }
  }
}

void ChaseTagField::sample(Rng& rng, double* heights) const {
  // TerrainTypes in order: FLAT, HILLY, ROUGH; at most two hilly patches.
  constexpr Patch kTypes[3] = {Patch::kFlat, Patch::kHilly, Patch::kRough};
  int hilly = 0;
  for (int i = 0; i < kPatchesPerSide; ++i) {
    for (int j = 0; j < kPatchesPerSide; ++j) {
      Patch type = kTypes[rng.integer(3)];
      while (type == Patch::kHilly && hilly >= 2) type = kTypes[rng.integer(3)];
      if (type == Patch::kHilly) ++hilly;
      fill(i, j, type, rng, heights);
    }
  }
  if (rng.uniform() < 0.2) {
    const int i = static_cast<int>(rng.integer(kPatchesPerSide));
    const int j = static_cast<int>(rng.integer(kPatchesPerSide));
    fill(i, j, Patch::kRelief, rng, heights);
  }
}

void ChaseTagField::flatten_patch_at(double x, double y, double* heights) const {
  // cart2map: int16(x / (length / nrow) + nrow / 2), clipped to [0, nrow - 2]; the same for y.
  const auto index = [](double v, double delta, int size) {
    const double cell_value = std::clamp(v / delta + size / 2.0, -32768.0, 32767.0);
    const auto cell = static_cast<int>(static_cast<std::int16_t>(cell_value));
    return std::clamp(cell, 0, size - 2);
  };
  const int i = index(x, kRealLength / nrow_, nrow_) / patch_;
  const int j = index(y, kRealWidth / ncol_, ncol_) / patch_;
  put(i, j, std::vector<double>(static_cast<std::size_t>(patch_ * patch_), 0.0), heights);
}

}  // namespace rlpool::myosuite
