// The run track's heightfield: myosuite 2.11.6's TrackField
// (envs/heightfields.py, lines 308-422: sample, _clear_terrain, _fill_terrain
// and the three patch makers) for RunTrack (run_track.cc).
//
// The field is nrow x ncol heights, rows along the track. "flat" leaves it
// zero; "random" draws one terrain type (stairs, hills or rough; one integer
// in [0, 3)) and fills patch after patch of nrow // n rows (n: the
// difficulties' count; the last patch stays flat) with it, patch i at
// difficulty i of the reversed difficulties; "random_mixed" draws the type of
// each of 24 patches. Stairs and hills draw nothing; a rough patch draws its
// length * ncol noise values uniform in [-1, 1) and then its height scale,
// uniform in [0, difficulty). myosuite draws that noise from numpy's global
// np.random (heightfields.py line 417), the scale from the env's np_random;
// here both come from the env's generator, in that order.
#pragma once

#include <string>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool::myosuite {

// heightfields.py's TrackTypes.
enum class TrackType { kFlat = 0, kHilly = 1, kRough = 2, kStairs = 3, kMixed = 4 };

struct TrackSpec {
  std::string reset_type;  // "flat", "random" or "random_mixed"
  // The registered difficulties, in registration order (TrackField reverses them).
  std::vector<double> rough, hills, stairs;
};

// TrackField.sample: clears `heights` (nrow * ncol, row-major) and fills it;
// each height is float32, as hfield_data keeps it. Returns the track's type.
TrackType sample_track(const TrackSpec& spec, int nrow, int ncol, Rng& rng, std::vector<double>& heights);

}  // namespace rlpool::myosuite
