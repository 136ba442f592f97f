// Micro-benchmark of the Atari resize (resize.h) on recorded frames; driven by
// benchmarks/resize_bench.py, which records the frames and compiles this file.
//
// Input file: int32 count, then `count` records of a 210 x 160 gray frame and
// 210 row-dirty flags (the rows that differ from the previous record's frame).
// Each pass resizes every record into a 4-slot ring as the env does (the first
// record of a pass with every row dirty); prints the median ns per call over
// the passes (after the first) and a hash of the first pass's outputs, so that
// variants can be compared.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "resize.h"

// The Resizer is rlpool::Resizer (_core/gfx/resize.h); a baseline from before that move has it in
// rlpool::atari (envs/atari/resize.h). Whichever the header defines is found here.
namespace rlpool::atari {}
namespace bench {
using namespace rlpool;         // NOLINT
using namespace rlpool::atari;  // NOLINT
}  // namespace bench

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s FRAMES_FILE DST_H DST_W PASSES\n", argv[0]);
    return 2;
  }
  constexpr int kH = 210, kW = 160, kFrame = kH * kW, kRecord = kFrame + kH;
  std::ifstream in(argv[1], std::ios::binary);
  std::int32_t count = 0;
  in.read(reinterpret_cast<char*>(&count), sizeof count);
  std::vector<std::uint8_t> data(static_cast<std::size_t>(count) * kRecord);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!in || count < 1) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const int dst_h = std::atoi(argv[2]), dst_w = std::atoi(argv[3]), passes = std::atoi(argv[4]);
  bench::Resizer resizer(kH, kW, dst_h, dst_w, 1, bench::Resizer::Method::kArea);
  const std::size_t out_bytes = static_cast<std::size_t>(dst_h) * dst_w;
  std::vector<std::uint8_t> ring(4 * out_bytes);
  std::vector<double> per_call;
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over every output of the first pass
  // As in the env: the pooled frame is updated in place (its changed rows only)
  // just before the resize, so the resize finds it in cache. Only run() is timed.
  std::vector<std::uint8_t> pooled(kFrame), dirty(kH);
  for (int p = 0; p < passes; ++p) {
    std::chrono::steady_clock::duration spent{};
    for (int i = 0; i < count; ++i) {
      const std::uint8_t* rec = data.data() + static_cast<std::size_t>(i) * kRecord;
      std::memcpy(dirty.data(), rec + kFrame, kH);
      for (int r = 0; r < kH; ++r) {
        if (i == 0 || dirty[r]) std::memcpy(pooled.data() + r * kW, rec + r * kW, kW);
      }
      std::uint8_t* dst = ring.data() + static_cast<std::size_t>(i % 4) * out_bytes;
      const auto t0 = std::chrono::steady_clock::now();
      resizer.run(pooled.data(), dst, i == 0 ? nullptr : dirty.data());
      spent += std::chrono::steady_clock::now() - t0;
      if (p == 0) {
        for (std::size_t j = 0; j < out_bytes; ++j) hash = (hash ^ dst[j]) * 1099511628211ull;
      }
    }
    if (p > 0) per_call.push_back(std::chrono::duration<double, std::nano>(spent).count() / count);
  }
  std::sort(per_call.begin(), per_call.end());
  const double median = per_call.empty() ? 0.0 : per_call[per_call.size() / 2];
  std::printf("%.1f %016llx\n", median, static_cast<unsigned long long>(hash));
  return 0;
}
