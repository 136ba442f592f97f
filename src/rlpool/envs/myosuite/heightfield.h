// The quad's terrain of MyoSuite's chase-tag challenge: myosuite 2.11.6's
// ChaseTagField (envs/heightfields.py, classes HeightField and ChaseTagField:
// cart2map, flatten_agent_patch, _populate_patches, _fill_patch and the patch
// types), written into an env's own copy of the model's heightfield.
//
// The field (nrow x ncol heights, 12 m square) is cut into 3 x 3 patches of
// int(nrow / 3) rows and columns; the last row and column, outside every
// patch, keep the model's heights. A sample draws, patch after patch in row
// order, choice(3) for its type (drawn again while it would be a third hilly
// patch) and then the patch's own draws: flat none; rough patch^2 uniforms
// in [-1, 1) and its scale; hilly its scale and one uniform (below 0.5 the
// patch is turned 90 degrees). Then one uniform: below 0.2, integers(0, 3)
// twice pick a patch that gets the MyoSuite relief (myo_relief.npy, in the
// wheel's envs/myo/assets) scaled by one more uniform. Heights are the
// model's float32.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool::myosuite {

struct FieldRanges {
  std::array<double, 2> rough{};
  std::array<double, 2> hills{};
  std::array<double, 2> relief{};
};

class ChaseTagField {
 public:
  // `relief_file`: myo_relief.npy (uint8, patch x patch); std::invalid_argument if unreadable or of
  // another shape.
  ChaseTagField(int nrow, int ncol, FieldRanges ranges, const std::string& relief_file);

  // ChaseTagField.sample: every patch drawn anew into `heights` (nrow * ncol, row-major).
  void sample(Rng& rng, double* heights) const;
  // flatten_agent_patch: the patch holding the point (x, y) set flat.
  void flatten_patch_at(double x, double y, double* heights) const;

 private:
  enum class Patch { kFlat, kHilly, kRough, kRelief };
  // _fill_patch: patch (i, j) drawn as `type`, then written (as float32) into `heights`.
  void fill(int i, int j, Patch type, Rng& rng, double* heights) const;
  void put(int i, int j, const std::vector<double>& data, double* heights) const;

  const int nrow_, ncol_, patch_;
  const FieldRanges ranges_;
  std::vector<double> hills_;   // the hills' unscaled heights, flipped (patch^2)
  std::shared_ptr<const std::vector<double>> relief_;  // normalized, upside down (patch^2)
};

}  // namespace rlpool::myosuite
