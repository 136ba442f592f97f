// Pictures gymnasium draws from its package's PNG files (the toy text envs'
// sprites): loading them from rlpool.images' cache, pygame.transform's
// nearest-neighbour scale, flip and smoothscale shrink, and SDL2's per-pixel
// alpha blit onto a surface of surface.h, each with the originals' arithmetic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlpool::draw {

// pygame.transform.smoothscale's shrink filter (the SSE2 one pygame uses on
// x86-64) for one 8-bit channel of a w x h image to dw x dh (dw <= w,
// dh <= h): X first, then Y; 14-bit fixed-point weights, whole source pixels
// summed in 16 bits, the pixel on a boundary split between two outputs.
inline std::vector<std::uint8_t> smoothscale_shrink(const std::uint8_t* src, int w, int h, int dw, int dh) {
  std::vector<std::uint8_t> half(static_cast<std::size_t>(dw) * h);
  const int xspace = 0x4000 * w / dw;
  const std::uint32_t xrecip = static_cast<std::uint16_t>(0x40000000 / xspace);
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* in = src + static_cast<std::size_t>(y) * w;
    std::uint8_t* out = half.data() + static_cast<std::size_t>(y) * dw;
    std::uint32_t acc = 0;
    int xcounter = xspace, j = 0;
    for (int x = 0; x < w && j < dw; ++x) {
      if (xcounter > 0x4000) {
        acc = (acc + in[x]) & 0xffffu;
        xcounter -= 0x4000;
      } else {
        const int xfrac = 0x4000 - xcounter;
        const std::uint32_t v = static_cast<std::uint32_t>(in[x]) << 2;
        const std::uint32_t d = (((v * static_cast<std::uint32_t>(xcounter)) >> 16) + acc) & 0xffffu;
        out[j++] = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * xrecip) >> 16, 255));
        acc = (v * static_cast<std::uint32_t>(xfrac)) >> 16;
        xcounter = xspace - xfrac;
      }
    }
  }
  std::vector<std::uint8_t> out(static_cast<std::size_t>(dw) * dh);
  const int yspace = 0x4000 * h / dh;
  const std::uint32_t yrecip = static_cast<std::uint16_t>(0x40000000 / yspace);
  std::vector<std::uint32_t> acc(static_cast<std::size_t>(dw), 0);
  int ycounter = yspace, j = 0;
  for (int y = 0; y < h && j < dh; ++y) {
    const std::uint8_t* in = half.data() + static_cast<std::size_t>(y) * dw;
    if (ycounter > 0x4000) {
      for (int x = 0; x < dw; ++x) acc[x] = (acc[x] + in[x]) & 0xffffu;
      ycounter -= 0x4000;
    } else {
      const int yfrac = 0x4000 - ycounter;
      std::uint8_t* row = out.data() + static_cast<std::size_t>(j++) * dw;
      for (int x = 0; x < dw; ++x) {
        const std::uint32_t v = static_cast<std::uint32_t>(in[x]) << 2;
        const std::uint32_t d = (((v * static_cast<std::uint32_t>(ycounter)) >> 16) + acc[x]) & 0xffffu;
        row[x] = static_cast<std::uint8_t>(std::min<std::uint32_t>((d * yrecip) >> 16, 255));
        acc[x] = (v * static_cast<std::uint32_t>(yfrac)) >> 16;
      }
      ycounter = yspace - yfrac;
    }
  }
  return out;
}

// SDL2's per-pixel alpha blit of one ARGB pixel (colour `color`, alpha a)
// onto an XRGB surface: red and blue blended together in one word, green in
// another, d + ((s - d) * a >> 8) in unsigned 32-bit arithmetic.
template <class S>
void blit_alpha(S& s, int x, int y, std::uint32_t color, std::uint32_t a) {
  if (a == 0 || x < 0 || x >= s.width()) return;
  std::uint32_t* r = s.row(y);
  if (r == nullptr) return;
  std::uint32_t& p = r[x];
  if (a == 255) {
    p = color & 0x00ffffffu;
    return;
  }
  const std::uint32_t s1 = color & 0xff00ffu, d1 = p & 0xff00ffu;
  const std::uint32_t rb = (d1 + (((s1 - d1) * a) >> 8)) & 0xff00ffu;
  const std::uint32_t s2 = color & 0xff00u, d2 = p & 0xff00u;
  const std::uint32_t g = (d2 + (((s2 - d2) * a) >> 8)) & 0xff00u;
  p = rb | g;
}

// An image gymnasium draws from a PNG file of its package, named by its
// path there (e.g. "envs/toy_text/img/tile_ice.png"). Nothing of it is in
// rlpool's sources: at make time rlpool.images decodes gymnasium's files into
// a cache folder, the env's `_images` option, which load() reads.
struct Sprite {
  const char* file;
};

// An ARGB picture (0xAARRGGBB, row-major): a loaded sprite, or one scaled from it.
struct Pixels {
  int width = 0, height = 0;
  std::vector<std::uint32_t> argb;
};

// `sprite` from `folder` (rlpool.images' format: "RLPIMG01", width and
// height as little-endian uint32, then the pixels as little-endian uint32),
// read once per process. std::runtime_error names a missing or bad file.
inline const Pixels& load(const std::string& folder, const Sprite& sprite) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<const Pixels>> cache;
  if (folder.empty()) {
    throw std::runtime_error(std::string("no image folder to draw ") + sprite.file +
                             " from (the env's _images option, which rlpool.make sets)");
  }
  const std::string path = folder + "/" + sprite.file + ".argb";
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[path];
  if (!slot) {
    const auto fail = [&](const std::string& why) {
      cache.erase(path);
      throw std::runtime_error("cannot read image " + path + ": " + why);
    };
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("no such file");
    char magic[8] = {};
    std::uint32_t size[2] = {};
    in.read(magic, sizeof(magic));
    in.read(reinterpret_cast<char*>(size), sizeof(size));  // little-endian, as on every target
    if (!in || std::memcmp(magic, "RLPIMG01", 8) != 0) fail("not an rlpool image file");
    if (size[0] == 0 || size[1] == 0 || size[0] > 16384 || size[1] > 16384) fail("bad size");
    in.seekg(0, std::ios::end);
    const auto file_size = static_cast<std::uint64_t>(in.tellg());
    if (file_size != 16 + 4 * std::uint64_t{size[0]} * size[1]) fail("its size does not match its header");
    in.seekg(16);
    auto p = std::make_unique<Pixels>();
    p->width = static_cast<int>(size[0]);
    p->height = static_cast<int>(size[1]);
    p->argb.resize(static_cast<std::size_t>(size[0]) * size[1]);
    in.read(reinterpret_cast<char*>(p->argb.data()), static_cast<std::streamsize>(p->argb.size() * 4));
    if (!in) fail("truncated");
    slot = std::move(p);
  }
  return *slot;
}

// pygame.transform.scale: SDL's nearest-neighbour stretch, 16.16 fixed-point
// steps starting half a step in.
inline Pixels scale_nearest(const Pixels& src, int w, int h) {
  Pixels out{w, h, std::vector<std::uint32_t>(static_cast<std::size_t>(w) * h)};
  const std::uint32_t incx = (static_cast<std::uint32_t>(src.width) << 16) / static_cast<std::uint32_t>(w);
  const std::uint32_t incy = (static_cast<std::uint32_t>(src.height) << 16) / static_cast<std::uint32_t>(h);
  std::uint32_t posy = incy / 2;
  for (int y = 0; y < h; ++y, posy += incy) {
    const std::uint32_t* row = src.argb.data() + static_cast<std::size_t>(posy >> 16) * src.width;
    std::uint32_t posx = incx / 2;
    for (int x = 0; x < w; ++x, posx += incx) out.argb[static_cast<std::size_t>(y) * w + x] = row[posx >> 16];
  }
  return out;
}

// pygame.transform.flip: mirrored left-right and/or upside down.
inline Pixels flip(const Pixels& src, bool horizontal, bool vertical) {
  Pixels out{src.width, src.height, std::vector<std::uint32_t>(src.argb.size())};
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      const int sx = horizontal ? src.width - 1 - x : x, sy = vertical ? src.height - 1 - y : y;
      out.argb[static_cast<std::size_t>(y) * src.width + x] = src.argb[static_cast<std::size_t>(sy) * src.width + sx];
    }
  }
  return out;
}

// Surface.blit of an ARGB picture with its per-pixel alpha, top left at (x, y).
template <class S>
void blit(S& s, const Pixels& p, int x, int y) {
  for (int j = 0; j < p.height; ++j) {
    const std::uint32_t* row = p.argb.data() + static_cast<std::size_t>(j) * p.width;
    for (int i = 0; i < p.width; ++i) blit_alpha(s, x + i, y + j, row[i], row[i] >> 24);
  }
}

}  // namespace rlpool::draw
