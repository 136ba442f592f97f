// Rendering helpers the engine and envs share: resizing an RGB frame.
#pragma once

#include <cstdint>

namespace rlpool {

// Bilinear resize of an RGB uint8 frame (row-major, 3 channels), with pixel
// centres aligned as OpenCV's INTER_LINEAR aligns them; when both sizes are
// equal it is a copy. Used where a caller asks for a render size other than
// the one an env draws at.
void resize_rgb(const std::uint8_t* src, int src_width, int src_height, std::uint8_t* dst, int dst_width,
                int dst_height);

}  // namespace rlpool
