// resize_rgb (resize.h): a rendered frame, bilinear in float, to the size a
// caller asked for.
#include "_core/gfx/resize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace rlpool {

namespace {
// For each output coordinate: the two source taps and the weight of the second.
struct Taps {
  std::vector<int> lo, hi;
  std::vector<float> w;
};

Taps taps(int src, int dst) {
  Taps t;
  t.lo.resize(static_cast<std::size_t>(dst));
  t.hi.resize(static_cast<std::size_t>(dst));
  t.w.resize(static_cast<std::size_t>(dst));
  const double scale = static_cast<double>(src) / dst;
  for (int i = 0; i < dst; ++i) {
    double x = (i + 0.5) * scale - 0.5;
    x = std::clamp(x, 0.0, static_cast<double>(src - 1));
    const int lo = static_cast<int>(std::floor(x));
    const auto k = static_cast<std::size_t>(i);
    t.lo[k] = lo;
    t.hi[k] = std::min(lo + 1, src - 1);
    t.w[k] = static_cast<float>(x - lo);
  }
  return t;
}
}  // namespace

void resize_rgb(const std::uint8_t* src, int src_width, int src_height, std::uint8_t* dst, int dst_width,
                int dst_height) {
  if (src_width == dst_width && src_height == dst_height) {
    std::memcpy(dst, src, static_cast<std::size_t>(src_width) * src_height * 3);
    return;
  }
  const Taps xs = taps(src_width, dst_width);
  const Taps ys = taps(src_height, dst_height);
  const auto row = [&](int y) { return src + static_cast<std::size_t>(y) * src_width * 3; };
  for (int y = 0; y < dst_height; ++y) {
    const auto ky = static_cast<std::size_t>(y);
    const std::uint8_t* a = row(ys.lo[ky]);
    const std::uint8_t* b = row(ys.hi[ky]);
    const float wy = ys.w[ky];
    std::uint8_t* out = dst + ky * static_cast<std::size_t>(dst_width) * 3;
    for (int x = 0; x < dst_width; ++x) {
      const auto kx = static_cast<std::size_t>(x);
      const int x0 = xs.lo[kx] * 3, x1 = xs.hi[kx] * 3;
      const float wx = xs.w[kx];
      for (int c = 0; c < 3; ++c) {
        const float top = a[x0 + c] + wx * (a[x1 + c] - a[x0 + c]);
        const float bottom = b[x0 + c] + wx * (b[x1 + c] - b[x0 + c]);
        out[kx * 3 + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(std::lround(top + wy * (bottom - top)));
      }
    }
  }
}

}  // namespace rlpool
