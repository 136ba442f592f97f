// MyoSuite's reaching task class (reach.cc): its parameters and the call that
// registers an id with it, for the files that register more reaching ids
// (arm_reach.cc).
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace rlpool::myosuite {

struct ReachParams {
  // target_reach_range: (tip site, low xyz, high xyz), in order.
  std::vector<std::pair<std::string, std::array<std::array<double, 3>, 2>>> target_reach_range;
  double far_th = 0.35;
};

// Registers `id` as a ReachEnvV0 on `model` (relative to the wheel's
// myosuite/ folder) with reach.cc's reward weights.
bool register_reach(const std::string& id, const char* model, int frame_skip, ReachParams params);

}  // namespace rlpool::myosuite
