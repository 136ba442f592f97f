// Pixel observations (from_pixels=True): the env's own observation replaced
// by the frames it renders, drawn on the worker thread that steps it.
//
// An env type whose options include `from_pixels` (pixel_options) gets this
// from register_env_type: with from_pixels set, its spec's observation is one
// uint8 array (3 * frame_stack, height, width), channel first, the newest
// frame last, and each env is wrapped in a PixelObservation. The size is the
// pool's render_width x render_height (84 x 84 unless given), the view its
// render_camera_id. The inner env still writes its state observation (into a
// scratch buffer), so rewards, info and termination are unchanged.
#pragma once

#include "_core/env/env.h"

namespace rlpool {

// from_pixels and frame_stack, for a family's options.
std::vector<Option> pixel_options();

// `type` with from_pixels handled as above (the identity for a type without it).
EnvType with_pixel_observations(EnvType type);

}  // namespace rlpool
