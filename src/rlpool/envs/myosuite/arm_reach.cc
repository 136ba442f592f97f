// MyoSuite's arm reaching ids: myosuite 2.11.6's myoArmReachFixed-v0 and
// myoArmReachRandom-v0 (envs/myo/myoedits/__init__.py, the two
// register_env_with_variants calls after edit_fn_arm_reaching), both
// ReachEnvV0 (envs/myo/myobase/reach_v0.py, reach.cc's class) with far_th 1.
//
// Their model is myoarm.xml as edit_fn_arm_reaching changes it (rigid digits,
// the IFtip site on distph2, the IFtip_target site), written at unpack time by
// model_edits.py's write_arm_reaching as simhive/myo_sim/arm/myoarm_reach_edited.xml:
// 20 joints, 32 muscles, observation 78. The ids are registered through
// reach.h's register_reach.
#include <array>

#include "envs/myosuite/reach.h"

namespace rlpool::myosuite {
namespace {

constexpr const char* kArmReach = "simhive/myo_sim/arm/myoarm_reach_edited.xml";

using Point = std::array<double, 3>;
using Span = std::array<Point, 2>;

bool register_arm_reach() {
  // The target around (-0.175, -0.245, 1.405): at it, or within (0.175, 0.175, 0.425) of it (myosuite's sums).
  const Span fixed = {Point{-0.175, -0.245, 1.405}, Point{-0.175, -0.245, 1.405}};
  const Span random = {Point{-0.175 - 0.175, -0.245 - 0.175, 1.405 - 0.425},
                       Point{-0.175 + 0.175, -0.245 + 0.175, 1.405 + 0.425}};
  register_reach("myoArmReachFixed-v0", kArmReach, 10, {{{"IFtip", fixed}}, 1.0});
  register_reach("myoArmReachRandom-v0", kArmReach, 10, {{{"IFtip", random}}, 1.0});
  return true;
}

const bool kRegistered = register_arm_reach();

}  // namespace
}  // namespace rlpool::myosuite
