// The run track's heightfield (run_track_terrain.h): myosuite 2.11.6's
// TrackField of envs/heightfields.py (lines 308-422): _fill_terrain and
// _compute_stairs_track, _compute_hilly_track, _compute_rough_track, with
// numpy's formulas (np.linspace, min-max normalization, np.flip).
#include "envs/myosuite/run_track_terrain.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace rlpool::myosuite {
namespace {

struct Field {
  int nrow, ncol;
  std::vector<double>& h;
  void set(int row, int col, double v) const {
    h[static_cast<std::size_t>(row) * static_cast<std::size_t>(ncol) + static_cast<std::size_t>(col)] =
        static_cast<float>(v);
  }
};

double difficulty(const std::vector<double>& reversed, int i, const char* kind) {
  if (i >= static_cast<int>(reversed.size())) {
    throw std::invalid_argument(std::string("run track: too few ") + kind + " difficulties for the patches");
  }
  return reversed[static_cast<std::size_t>(i)];
}

// _compute_stairs_track: three steps up and three down, each int(length / 6) rows.
void stairs(const Field& f, int start, int end, double stair_height) {
  constexpr int num_stairs = 6;
  const int flat = static_cast<int>(static_cast<double>(end - start) / num_stairs);
  double height = 0.0;
  for (int j = 0; j < num_stairs; ++j) {
    for (int r = start + j * flat; r < start + (j + 1) * flat; ++r) {
      for (int c = 0; c < f.ncol; ++c) f.set(r, c, height);
    }
    height = j < num_stairs / 2.0 ? height + stair_height : height - stair_height;
  }
}

// Min-max normalization of `v` in place, as (v - min) / (max - min).
void normalize(std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double min = *lo, range = *hi - *lo;
  for (double& x : v) x = (x - min) / range;
}

// _compute_hilly_track: half a sine period over the patch, normalized, scaled, flipped over both axes.
void hills(const Field& f, int start, int end, double scalar, std::vector<double>& work) {
  const int n = (end - start) * f.ncol;
  const double stop = 1.0 * std::numbers::pi;
  const double step = n > 1 ? stop / (n - 1) : 0.0;
  work.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) work[static_cast<std::size_t>(k)] = std::sin(k == n - 1 ? stop : k * step);
  normalize(work);
  for (int k = 0; k < n; ++k) {
    f.set(start + k / f.ncol, k % f.ncol, work[static_cast<std::size_t>(n - 1 - k)] * scalar);
  }
}

// _compute_rough_track: noise uniform in [-1, 1) (np.random.uniform), then the scale uniform in [0, difficulty).
void rough(const Field& f, int start, int end, double max_scale, Rng& rng, std::vector<double>& work) {
  const int n = (end - start) * f.ncol;
  work.resize(static_cast<std::size_t>(n));
  for (double& x : work) x = rng.uniform(-1.0, 1.0);
  const double scalar = rng.uniform(0.0, max_scale);
  normalize(work);
  for (int k = 0; k < n; ++k) f.set(start + k / f.ncol, k % f.ncol, work[static_cast<std::size_t>(k)] * scalar - 0.0);
}

std::vector<double> reversed(const std::vector<double>& v) { return {v.rbegin(), v.rend()}; }

}  // namespace

TrackType sample_track(const TrackSpec& spec, int nrow, int ncol, Rng& rng, std::vector<double>& heights) {
  heights.assign(static_cast<std::size_t>(nrow) * static_cast<std::size_t>(ncol), 0.0);
  if (spec.reset_type == "flat") return TrackType::kFlat;
  const bool mixed = spec.reset_type == "random_mixed";
  if (!mixed && spec.reset_type != "random") {
    throw std::invalid_argument("run track: terrain '" + spec.reset_type + "' is not flat, random or random_mixed");
  }
  const std::vector<double> rough_d = reversed(spec.rough), hills_d = reversed(spec.hills),
                            stairs_d = reversed(spec.stairs);
  // terrain_fn_list's order: stairs, hills, rough.
  constexpr TrackType kinds[3] = {TrackType::kStairs, TrackType::kHilly, TrackType::kRough};
  TrackType kind = TrackType::kMixed;
  int n_patches = 24;
  if (!mixed) {
    kind = kinds[rng.integer(3)];
    n_patches = static_cast<int>(kind == TrackType::kStairs ? stairs_d.size()
                                 : kind == TrackType::kHilly ? hills_d.size()
                                                             : rough_d.size());
  }
  const int step = n_patches > 0 ? nrow / n_patches : 0;
  if (step <= 0) throw std::invalid_argument("run track: more patches than heightfield rows");
  const int starts = (nrow + step - 1) / step;  // np.arange(0, nrow, step)
  const Field f{nrow, ncol, heights};
  std::vector<double> work;
  for (int i = 0; i + 1 < starts; ++i) {
    const int start = i * step, end = (i + 1) * step;
    const TrackType patch = mixed ? kinds[rng.integer(3)] : kind;
    if (patch == TrackType::kStairs) {
      stairs(f, start, end, difficulty(stairs_d, i, "stairs"));
    } else if (patch == TrackType::kHilly) {
      hills(f, start, end, difficulty(hills_d, i, "hills"), work);
    } else {
      rough(f, start, end, difficulty(rough_d, i, "rough"), rng, work);
    }
  }
  return kind;
}

}  // namespace rlpool::myosuite
