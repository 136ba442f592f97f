// The surface pygame draws on, and the pixel writes every primitive is made of.
//
// pygame's drawing (gfxdraw.h: SDL_gfx's pygame.gfxdraw; pygame_draw.h:
// pygame's draw.c) works on a 32-bit XRGB8888 surface. Every primitive is a
// template on its surface S, which provides
//   int width() const, int height() const;
//   std::uint32_t* row(int y);             // nullptr where y is not drawn
//   void band_rows(int& from, int& to) const;  // the rows row() may give, to skip work
// (Image below; CarRacing's Canvas draws in bands of rows, some flipped).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace rlpool::draw {

// 0x00RRGGBB, as SDL maps a colour into an XRGB8888 surface.
inline std::uint32_t rgb(int r, int g, int b) {
  return (static_cast<std::uint32_t>(r & 0xff) << 16) | (static_cast<std::uint32_t>(g & 0xff) << 8) |
         static_cast<std::uint32_t>(b & 0xff);
}

// A whole surface in memory: pygame.Surface((w, h)).
class Image {
 public:
  Image(int w, int h) : w_(w), h_(h), px_(static_cast<std::size_t>(w) * h, 0) {}
  int width() const { return w_; }
  int height() const { return h_; }
  std::uint32_t* row(int y) { return y >= 0 && y < h_ ? px_.data() + static_cast<std::size_t>(y) * w_ : nullptr; }
  void band_rows(int& from, int& to) const {
    from = 0;
    to = h_ - 1;
  }
  void fill(std::uint32_t color) { std::fill(px_.begin(), px_.end(), color); }
  // surfarray.pixels3d transposed: height x width x 3, top row first.
  void write_rgb(std::uint8_t* rgb) const { write_rows(rgb, false); }
  // pygame.transform.flip(surf, False, True), then surfarray.pixels3d
  // transposed: height x width x 3, the surface's last row first; or only
  // the `w` columns from `x0`.
  void write_flipped_rgb(std::uint8_t* rgb) const { write_rows(rgb, true, 0, w_); }
  void write_flipped_rgb(std::uint8_t* rgb, int x0, int w) const { write_rows(rgb, true, x0, w); }

 private:
  void write_rows(std::uint8_t* rgb, bool flipped, int x0 = 0, int w = -1) const {
    if (w < 0) w = w_;
    for (int k = 0; k < h_; ++k) {
      const int y = flipped ? h_ - 1 - k : k;
      const std::uint32_t* r = px_.data() + static_cast<std::size_t>(y) * w_ + x0;
      for (int x = 0; x < w; ++x) {
        *rgb++ = static_cast<std::uint8_t>(r[x] >> 16);
        *rgb++ = static_cast<std::uint8_t>(r[x] >> 8);
        *rgb++ = static_cast<std::uint8_t>(r[x]);
      }
    }
  }

  int w_, h_;
  std::vector<std::uint32_t> px_;
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Whether the CPU has AVX2: the extension is built for baseline x86-64, and
// its hottest drawing loops (CarRacing's frame) have AVX2 versions beside.
inline bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

namespace detail {
// 32-byte stores where baseline x86-64's std::fill stores 16 bytes at a time.
// CarRacing's frame is mostly such spans: a window of 800k pixels, some twice.
__attribute__((target("avx2"))) inline void fill_avx2(std::uint32_t* p, int n, std::uint32_t color) {
  const __m256i v = _mm256_set1_epi32(static_cast<int>(color));
  int i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + i), v);
  for (; i < n; ++i) p[i] = color;
}
}  // namespace detail
#else
inline bool has_avx2() { return false; }
#endif

// n pixels of one colour from p.
inline void fill_pixels(std::uint32_t* p, int n, std::uint32_t color) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (n >= 32 && has_avx2()) return detail::fill_avx2(p, n, color);
#endif
  std::fill(p, p + n, color);
}

template <class S>
void put(S& s, int x, int y, std::uint32_t color) {
  if (x < 0 || x >= s.width()) return;
  if (std::uint32_t* r = s.row(y)) r[x] = color;
}

// SDL_gfx's pixelColorWeight at full colour alpha: alpha (255 * weight) >> 8,
// blended per channel as d + ((s - d) * a >> 8).
template <class S>
void put_weighted(S& s, int x, int y, std::uint32_t color, std::uint32_t weight) {
  const int a = static_cast<int>((255u * weight) >> 8);
  if (x < 0 || x >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  if (a == 255) {
    p = color;
    return;
  }
  std::uint32_t out = 0;
  for (int shift = 0; shift <= 16; shift += 8) {
    const int d = static_cast<int>((p >> shift) & 0xff);
    const int c = static_cast<int>((color >> shift) & 0xff);
    out |= static_cast<std::uint32_t>((d + (((c - d) * a) >> 8)) & 0xff) << shift;
  }
  p = out;
}

// gfxdraw.hline / SDL_gfx hlineColor (clipped).
template <class S>
void hline(S& s, int x1, int x2, int y, std::uint32_t color) {
  if (x1 > x2) std::swap(x1, x2);
  if (x2 < 0 || x1 >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  x1 = std::max(x1, 0);
  x2 = std::min(x2, s.width() - 1);
  fill_pixels(r + x1, x2 - x1 + 1, color);
}

// gfxdraw.vline / SDL_gfx vlineColor (clipped).
template <class S>
void vline(S& s, int x, int y1, int y2, std::uint32_t color) {
  if (y1 > y2) std::swap(y1, y2);
  y1 = std::max(y1, 0);
  y2 = std::min(y2, s.height() - 1);
  for (int y = y1; y <= y2; ++y) put(s, x, y, color);
}

// Edge i of a polygon (from vertex i - 1, wrapping, to vertex i) with its
// ends ordered so that y1 < y2; false for a horizontal edge, which both
// scanline fills skip.
template <class T>
bool upward_edge(const T* vx, const T* vy, int n, int i, int& x1, int& y1, int& x2, int& y2) {
  const int ip = i == 0 ? n - 1 : i - 1;
  if (vy[ip] == vy[i]) return false;
  const bool up = vy[ip] < vy[i];
  x1 = up ? vx[ip] : vx[i];
  y1 = up ? vy[ip] : vy[i];
  x2 = up ? vx[i] : vx[ip];
  y2 = up ? vy[i] : vy[ip];
  return true;
}

}  // namespace rlpool::draw
