// The drawing shortcuts CarRacing's frame relies on, against the plain way:
// anti-aliased lines drawn band by band (each band walks only its rows) equal
// the same lines drawn on the whole surface at once, spans filled with AVX2
// stores cover exactly their pixels, and smoothscale's X pass on AVX2 equals
// pygame's SSE2 filter, bit for bit.
#include <cstdint>
#include <random>
#include <vector>

#include "_core/gfx/draw.h"
#include "check.h"
#include "envs/box2d/car_racing_render.h"

namespace {

// A surface of which only rows [lo, hi) can be drawn, as CarRacing's Canvas
// draws in bands; the pixels live in one whole image.
struct Banded {
  int w, h, lo = 0, hi = 0;
  std::vector<std::uint32_t> px;
  int width() const { return w; }
  int height() const { return h; }
  std::uint32_t* row(int y) { return y >= lo && y < hi ? px.data() + static_cast<std::size_t>(y) * w : nullptr; }
  void band_rows(int& from, int& to) const {
    from = lo;
    to = hi - 1;
  }
};

void banded_aalines_equal_whole_ones() {
  constexpr int W = 1000, H = 800;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> coord(-300, 1300);
  std::uniform_int_distribution<int> colour(0, 0xffffff);
  for (int trial = 0; trial < 60; ++trial) {
    // Lines of every slope, 45 degrees and nearly flat or steep among them,
    // many leaving the surface; drawn over a background so that blending shows.
    std::vector<std::array<int, 5>> lines;
    for (int i = 0; i < 40; ++i) {
      int x1 = coord(rng), y1 = coord(rng), x2 = coord(rng), y2 = coord(rng);
      if (i % 8 == 0) y2 = y1 + (x2 - x1);                // 45 degrees
      if (i % 8 == 1) y2 = y1 + (rng() % 5) - 2;          // nearly horizontal
      if (i % 8 == 2) x2 = x1 + static_cast<int>(rng() % 5) - 2;  // nearly vertical
      lines.push_back({x1, y1, x2, y2, colour(rng)});
    }
    const auto draw_all = [&](auto& surface) {
      for (const auto& l : lines) {
        rlpool::draw::gfx_aaline(surface, static_cast<std::int16_t>(l[0]), static_cast<std::int16_t>(l[1]),
                                 static_cast<std::int16_t>(l[2]), static_cast<std::int16_t>(l[3]),
                                 static_cast<std::uint32_t>(l[4]));
      }
    };
    rlpool::draw::Image whole(W, H);
    whole.fill(0x336699);
    draw_all(whole);
    Banded banded{W, H};
    banded.px.assign(static_cast<std::size_t>(W) * H, 0x336699);
    const int band = 1 + trial % 37;  // odd sizes too
    for (banded.lo = 0; banded.lo < H; banded.lo += band) {
      banded.hi = std::min(banded.lo + band, H);
      draw_all(banded);
    }
    int differ = 0;
    for (int y = 0; y < H; ++y) {
      const std::uint32_t* a = whole.row(y);
      for (int x = 0; x < W; ++x) differ += a[x] != banded.px[static_cast<std::size_t>(y) * W + x];
    }
    CHECK_EQ(differ, 0);
  }
}

void fill_pixels_fills_exactly_its_span() {
  // Every length around the 32-pixel switch to AVX2 stores and the 8-pixel
  // step, at every alignment: the span and nothing around it.
  for (int offset = 0; offset < 8; ++offset) {
    for (int n = 0; n < 80; ++n) {
      std::vector<std::uint32_t> row(100, 7u);
      rlpool::draw::fill_pixels(row.data() + offset, n, 0xabcdefu);
      int wrong = 0;
      for (int i = 0; i < 100; ++i) wrong += row[i] != (i >= offset && i < offset + n ? 0xabcdefu : 7u);
      CHECK_EQ(wrong, 0);
    }
  }
}

void avx2_x_pass_equals_sse2() {
#if !defined(__SSE2__)
  std::cerr << "not an x86-64 build: no SSE2 or AVX2 X pass to compare\n";
#else
  namespace cr = rlpool::box2d::car_render;
  if (!rlpool::draw::has_avx2()) {
    std::cerr << "no AVX2 on this CPU: the AVX2 X pass is not run here\n";
    return;
  }
  constexpr int W = cr::kWindowW;
  std::mt19937 rng(3);
  for (int rows : {1, 2, 7, 32}) {
    // Random pixels, and runs of a few colours as the frame has (the 16-bit
    // sums must not overflow either way: at most 11 pixels of 255 a column).
    std::vector<std::uint32_t> band(static_cast<std::size_t>(W) * rows + 4);
    for (std::size_t i = 0; i < band.size(); ++i) {
      band[i] = rows == 32 ? (i / 37 % 2 ? 0xffffffu : 0x00ff00u) ^ static_cast<std::uint32_t>(rng() & 0x0f0f0f)
                           : static_cast<std::uint32_t>(rng());
    }
    std::vector<std::uint8_t> a(static_cast<std::size_t>(rows) * 96 * 3), b(a.size());
    cr::shrink_x_sse2(band.data(), rows, a.data());
    cr::shrink_x_avx2(band.data(), rows, b.data());
    CHECK(a == b);
  }
#endif
}

}  // namespace

int main() {
  RUN(banded_aalines_equal_whole_ones);
  RUN(fill_pixels_fills_exactly_its_span);
  RUN(avx2_x_pass_equals_sse2);
  return check::report();
}
