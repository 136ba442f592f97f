// Wave Function Collapse for MiniGrid-WFC-* (see wfc.h for what is kept of minigrid's).
#include "envs/minigrid/wfc.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace rlpool::minigrid::wfc {
namespace {

constexpr int kMaxPatterns = 4096;  // beyond this the adjacency table alone takes seconds to build
// minigrid's direction offsets, (dx, dy): dx along the solver's first axis (the output's rows), and in
// the adjacency test the column offset of the second pattern.
constexpr std::array<std::array<int, 2>, 4> kDirs = {{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};

// numpy's RandomState(0).randint(1 - 2**63, 2**63, n, dtype=int64): minigrid's hash vector of length n
// (legacy seeding is MT19937's init_genrand; a 64-bit draw is two 32-bit outputs, high word first,
// redrawn when it is 2**64 - 1, the one value outside the range).
std::vector<std::uint64_t> hash_vector(int n) {
  std::mt19937 mt(0);
  std::vector<std::uint64_t> v;
  while (static_cast<int>(v.size()) < n) {
    const std::uint64_t hi = mt();
    const std::uint64_t lo = mt();
    const std::uint64_t draw = (hi << 32) | lo;
    if (draw == std::numeric_limits<std::uint64_t>::max()) continue;
    v.push_back((std::uint64_t{1} << 63) + 1 + draw);  // low (1 - 2**63) + draw, wrapping as int64 does
  }
  return v;
}

// A grid of tile codes, h rows of w.
struct Codes {
  int h = 0;
  int w = 0;
  std::vector<std::uint64_t> v;
  std::uint64_t at(int r, int c) const { return v[static_cast<std::size_t>(r) * w + c]; }
};

Codes flip_lr(const Codes& g) {  // numpy's fliplr
  Codes out{g.h, g.w, std::vector<std::uint64_t>(g.v.size())};
  for (int r = 0; r < g.h; ++r) {
    for (int c = 0; c < g.w; ++c) out.v[static_cast<std::size_t>(r) * g.w + c] = g.at(r, g.w - 1 - c);
  }
  return out;
}

Codes rotate_cw(const Codes& g) {  // numpy's rot90(axes=(1, 0)): clockwise, w rows of h
  Codes out{g.w, g.h, std::vector<std::uint64_t>(g.v.size())};
  for (int r = 0; r < out.h; ++r) {
    for (int c = 0; c < out.w; ++c) out.v[static_cast<std::size_t>(r) * out.w + c] = g.at(g.h - 1 - c, r);
  }
  return out;
}

struct PatternEntry {
  std::vector<std::uint64_t> tiles;  // k x k tile codes, row-major
  int weight = 0;
};

}  // namespace

Location location_from_name(const std::string& name) {
  if (name == "lexical") return Location::kLexical;
  if (name == "spiral") return Location::kSpiral;
  if (name == "entropy") return Location::kEntropy;
  if (name == "anti-entropy") return Location::kAntiEntropy;
  if (name == "simple") return Location::kSimple;
  if (name == "random") return Location::kRandom;
  throw std::invalid_argument("option 'loc_heuristic' must be one of 'lexical', 'spiral', 'entropy', "
                              "'anti-entropy', 'simple', 'random' (minigrid's WFCConfig), got '" + name + "'");
}

Choice choice_from_name(const std::string& name) {
  if (name == "lexical") return Choice::kLexical;
  if (name == "rarest") return Choice::kRarest;
  if (name == "weighted") return Choice::kWeighted;
  if (name == "random") return Choice::kRandom;
  throw std::invalid_argument("option 'choice_heuristic' must be one of 'lexical', 'rarest', 'weighted', "
                              "'random' (minigrid's WFCConfig), got '" + name + "'");
}

void check(const Params& params) {
  if (params.tile_size != 1) {
    // minigrid's WFCEnv reads one cell per pixel of the solved image, which is tile_size times the level's
    // size: any other tile size fails there (an index error), so there is nothing to match.
    throw std::invalid_argument("option 'tile_size' must be 1 (minigrid's WFCEnv fails for any other), got " +
                                std::to_string(params.tile_size));
  }
  if (params.pattern_width < 1 || params.pattern_width > 8) {
    throw std::invalid_argument("option 'pattern_width' must be in [1, 8], got " +
                                std::to_string(params.pattern_width));
  }
  if (params.rotations < 1 || params.rotations > 8) {
    throw std::invalid_argument("option 'rotations' must be in [1, 8] (the identity, then reflections and "
                                "rotations in turn), got " + std::to_string(params.rotations));
  }
}

Model::Model(const Image& image, const Params& params) : params_(params) {
  check(params);
  if (image.width < 1 || image.height < 1 ||
      image.rgb.size() != static_cast<std::size_t>(image.width) * image.height * 3) {
    throw std::invalid_argument("minigrid WFC: the pattern image is empty or malformed");
  }
  const int k = params.pattern_width;
  const std::vector<std::uint64_t> v3 = hash_vector(3);
  const std::vector<std::uint64_t> vk = hash_vector(k * k);

  // Tiles: one pixel each; a tile's code is minigrid's hash of its RGB values.
  Codes grid{image.height, image.width, {}};
  std::unordered_map<std::uint64_t, std::uint8_t> red_of;
  for (std::size_t p = 0; p < image.rgb.size(); p += 3) {
    const std::uint64_t code = image.rgb[p] * v3[0] + image.rgb[p + 1] * v3[1] + image.rgb[p + 2] * v3[2];
    grid.v.push_back(code);
    red_of.emplace(code, image.rgb[p]);
  }

  // Patterns of each transform, keyed (and so ordered, as numpy's unique orders them) by their signed hash.
  std::map<std::int64_t, PatternEntry> patterns;
  for (int t = 0; t < params.rotations; ++t) {
    if (t > 0) grid = (t % 2 == 1) ? flip_lr(grid) : rotate_cw(grid);
    std::map<std::int64_t, std::vector<std::uint64_t>> seen;
    for (int r = 0; r < grid.h; ++r) {
      for (int c = 0; c < grid.w; ++c) {
        std::vector<std::uint64_t> tiles(static_cast<std::size_t>(k * k));
        std::uint64_t hash = 0;
        for (int i = 0; i < k; ++i) {
          for (int j = 0; j < k; ++j) {
            const std::uint64_t code = grid.at((r + i) % grid.h, (c + j) % grid.w);  // read wrapped
            tiles[static_cast<std::size_t>(i * k + j)] = code;
            hash += code * vk[static_cast<std::size_t>(i * k + j)];
          }
        }
        seen.emplace(static_cast<std::int64_t>(hash), std::move(tiles));
      }
    }
    for (auto& [hash, tiles] : seen) {
      PatternEntry& e = patterns[hash];
      if (e.tiles.empty()) e.tiles = std::move(tiles);
      e.weight += 1;  // once per transform it occurs in (minigrid counts unique patterns per transform)
    }
    if (static_cast<int>(patterns.size()) > kMaxPatterns) {
      throw std::invalid_argument("minigrid WFC: the pattern image has more than " + std::to_string(kMaxPatterns) +
                                  " distinct patterns of width " + std::to_string(k) +
                                  "; use a smaller image or pattern_width");
    }
  }

  const int n = static_cast<int>(patterns.size());
  std::vector<const std::vector<std::uint64_t>*> tiles;
  for (const auto& [hash, e] : patterns) {
    tiles.push_back(&e.tiles);
    weights_.push_back(e.weight);
    pattern_wall_.push_back(red_of.at(e.tiles[0]) == 0 ? 1 : 0);  // minigrid: a wall where red is 0
  }
  words_ = (n + 63) / 64;
  adj_.assign(static_cast<std::size_t>(4 * n * words_), 0);
  has_adj_.assign(static_cast<std::size_t>(4 * n), 0);
  for (int d = 0; d < 4; ++d) {
    const int dx = kDirs[static_cast<std::size_t>(d)][0];
    const int dy = kDirs[static_cast<std::size_t>(d)][1];
    for (int p = 0; p < n; ++p) {
      const auto& a = *tiles[static_cast<std::size_t>(p)];
      for (int q = 0; q < n; ++q) {
        const auto& b = *tiles[static_cast<std::size_t>(q)];
        // q placed (dx columns, dy rows) from p agrees with p where they overlap.
        bool ok = true;
        for (int r = std::max(0, dy); ok && r < std::min(k, k + dy); ++r) {
          for (int c = std::max(0, dx); c < std::min(k, k + dx); ++c) {
            if (a[static_cast<std::size_t>(r * k + c)] != b[static_cast<std::size_t>((r - dy) * k + (c - dx))]) {
              ok = false;
              break;
            }
          }
        }
        if (ok) {
          adj_[static_cast<std::size_t>((d * n + p) * words_ + q / 64)] |= std::uint64_t{1} << (q % 64);
          has_adj_[static_cast<std::size_t>(d * n + p)] = 1;
        }
      }
    }
  }
}

// The wave: per cell the set of patterns still possible, their count, and the cells whose sets must be
// checked against their neighbours' (the propagation's work list).
struct Model::Wave {
  int rows = 0;
  int cols = 0;
  std::vector<std::uint64_t> bits;
  std::vector<int> count;
  std::vector<int> todo;
  std::vector<std::uint8_t> queued;

  std::uint64_t* cell(int c, int words) { return bits.data() + static_cast<std::size_t>(c) * words; }
  void push(int c) {
    if (!queued[static_cast<std::size_t>(c)]) {
      queued[static_cast<std::size_t>(c)] = 1;
      todo.push_back(c);
    }
  }
};

bool Model::revise(Wave& w, int c) const {
  const int n = num_patterns();
  std::uint64_t* mine = w.cell(c, words_);
  bool changed = false;
  for (int d = 0; d < 4; ++d) {
    const int next = neighbour(w, c, d);
    const std::uint64_t* theirs = next < 0 ? nullptr : w.cell(next, words_);
    for (int word = 0; word < words_; ++word) {
      std::uint64_t bits = mine[word];
      while (bits != 0) {
        const int q = word * 64 + __builtin_ctzll(bits);
        bits &= bits - 1;
        bool supported;
        if (theirs == nullptr) {
          supported = has_adj_[static_cast<std::size_t>(d * n + q)] != 0;  // outside: anything may be there
        } else {
          const std::uint64_t* row = adj_.data() + static_cast<std::size_t>((d * n + q) * words_);
          supported = false;
          for (int x = 0; x < words_ && !supported; ++x) supported = (row[x] & theirs[x]) != 0;
        }
        if (!supported) {
          mine[word] &= ~(std::uint64_t{1} << (q % 64));
          --w.count[static_cast<std::size_t>(c)];
          changed = true;
        }
      }
    }
  }
  if (changed) push_neighbours(w, c);
  return w.count[static_cast<std::size_t>(c)] > 0;
}

// The cell next to c in direction d (kDirs), wrapped when the output is
// periodic; -1 past the edge otherwise.
int Model::neighbour(const Wave& w, int c, int d) const {
  int ni = c / w.cols + kDirs[static_cast<std::size_t>(d)][0];
  int nj = c % w.cols + kDirs[static_cast<std::size_t>(d)][1];
  if (ni < 0 || nj < 0 || ni >= w.rows || nj >= w.cols) {
    if (!params_.output_periodic) return -1;
    ni = (ni + w.rows) % w.rows;
    nj = (nj + w.cols) % w.cols;
  }
  return ni * w.cols + nj;
}

void Model::push_neighbours(Wave& w, int c) const {
  for (int d = 0; d < 4; ++d) {
    if (const int n = neighbour(w, c, d); n >= 0) w.push(n);
  }
}

// Every set made consistent with its neighbours' (the fixed point minigrid's whole-wave sweeps reach);
// false on a contradiction (a cell with no pattern left).
bool Model::propagate(Wave& w) const {
  while (!w.todo.empty()) {
    const int c = w.todo.back();
    w.todo.pop_back();
    w.queued[static_cast<std::size_t>(c)] = 0;
    if (!revise(w, c)) {
      for (int x : w.todo) w.queued[static_cast<std::size_t>(x)] = 0;
      w.todo.clear();
      return false;
    }
  }
  return true;
}

bool Model::solve(Wave& w, const std::vector<double>& prefs, Rng& rng) const {
  const int n = num_patterns();
  const int cells = w.rows * w.cols;
  auto touch = [&](int c) {  // c changed: it and its neighbours are checked again
    w.push(c);
    push_neighbours(w, c);
  };
  Wave saved;
  // A level takes at most one step a cell, plus one per backtrack (each removes a pattern somewhere).
  const long max_steps = static_cast<long>(cells) * (n + 1) + 16;
  for (long step = 0; step < max_steps; ++step) {
    if (std::all_of(w.count.begin(), w.count.end(), [](int x) { return x == 1; })) return true;
    if (params_.backtracking) saved = w;
    if (!propagate(w)) return false;  // outside minigrid's retry: fatal even with backtracking

    // Where: the location heuristic over the unresolved cells (numpy's argmin/argmax: the first best;
    // none unresolved: cell 0).
    int best = -1;
    double best_key = 0.0;
    for (int c = 0; c < cells; ++c) {
      const int cnt = w.count[static_cast<std::size_t>(c)];
      if (cnt <= 1) continue;
      double key = 0.0;
      switch (params_.location) {
        case Location::kLexical: key = 1.0; break;
        case Location::kSimple: key = cnt; break;
        case Location::kEntropy:
        case Location::kAntiEntropy: key = prefs[static_cast<std::size_t>(c)] + cnt; break;
        case Location::kRandom:
        case Location::kSpiral: key = prefs[static_cast<std::size_t>(c)]; break;
      }
      const bool better = params_.location == Location::kAntiEntropy ? key > best_key : key < best_key;
      if (best < 0 || better) {
        best = c;
        best_key = key;
      }
    }
    const int c = best < 0 ? 0 : best;

    // Which pattern.
    const std::uint64_t* set = w.cell(c, words_);
    auto possible = [&](int p) { return ((set[p / 64] >> (p % 64)) & 1) != 0; };
    int pattern = -1;
    switch (params_.choice) {
      case Choice::kLexical:
        for (int p = 0; p < n && pattern < 0; ++p) {
          if (possible(p)) pattern = p;
        }
        break;
      case Choice::kWeighted:
      case Choice::kRandom: {
        std::uint64_t total = 0;
        for (int p = 0; p < n; ++p) {
          if (possible(p)) total += params_.choice == Choice::kWeighted ? weights_[static_cast<std::size_t>(p)] : 1;
        }
        std::uint64_t r = rng.integer(total);
        for (int p = 0; p < n; ++p) {
          if (!possible(p)) continue;
          const std::uint64_t wgt = params_.choice == Choice::kWeighted ? weights_[static_cast<std::size_t>(p)] : 1;
          if (r < wgt) {
            pattern = p;
            break;
          }
          r -= wgt;
        }
        break;
      }
      case Choice::kRarest: {
        // minigrid's "rarest": uniform among the patterns possible in the most cells of the whole wave,
        // whether or not this cell allows them.
        std::vector<int> sums(static_cast<std::size_t>(n), 0);
        for (int x = 0; x < cells; ++x) {
          const std::uint64_t* s = w.cell(x, words_);
          for (int word = 0; word < words_; ++word) {
            for (std::uint64_t b = s[word]; b != 0; b &= b - 1) ++sums[static_cast<std::size_t>(word * 64 + __builtin_ctzll(b))];
          }
        }
        const int top = *std::max_element(sums.begin(), sums.end());
        std::vector<int> ties;
        for (int p = 0; p < n; ++p) {
          if (sums[static_cast<std::size_t>(p)] == top) ties.push_back(p);
        }
        pattern = ties[static_cast<std::size_t>(rng.integer(ties.size()))];
        break;
      }
    }

    std::uint64_t* mine = w.cell(c, words_);
    std::fill(mine, mine + words_, 0);
    mine[pattern / 64] = std::uint64_t{1} << (pattern % 64);
    w.count[static_cast<std::size_t>(c)] = 1;
    touch(c);
    if (propagate(w)) continue;
    if (!params_.backtracking) return false;
    // minigrid's backtrack: the wave before this step, without the pattern that failed here.
    w = saved;
    std::uint64_t* back = w.cell(c, words_);
    if ((back[pattern / 64] >> (pattern % 64)) & 1) {
      back[pattern / 64] &= ~(std::uint64_t{1} << (pattern % 64));
      --w.count[static_cast<std::size_t>(c)];
    }
    touch(c);
  }
  return false;
}

bool Model::generate(int rows, int cols, Rng& rng, int attempts, std::vector<std::uint8_t>& walls) const {
  const int cells = rows * cols;
  const int n = num_patterns();
  // minigrid's per-cell preferences, drawn once for all attempts.
  std::vector<double> prefs(static_cast<std::size_t>(cells));
  for (auto& p : prefs) p = rng.uniform() * 0.1;
  if (params_.location == Location::kSpiral) {
    // minigrid's spiral order overwrites the preferences along a spiral from the centre, numpy-indexed
    // (negative coordinates wrap, others outside are skipped), until it has written `cells` times.
    long fill = 0;
    int x = rows / 2;
    int y = cols / 2;
    auto put = [&](int px, int py) {
      if (px < -rows || px >= rows || py < -cols || py >= cols) return;
      if (px < 0) px += rows;
      if (py < 0) py += cols;
      prefs[static_cast<std::size_t>(px) * cols + py] = static_cast<double>(fill) / static_cast<double>(cells);
      ++fill;
    };
    put(x, y);
    for (int len = 1; fill < cells && len <= 4 * (rows + cols) + 8; ++len) {
      const int sign = len % 2 == 0 ? 1 : -1;
      y += sign;  // even: right, then down, then left; odd: left, then up, then right
      if (fill < cells) put(x, y);
      for (int s = 0; s < len && fill < cells; ++s) put(x += sign, y);
      for (int s = 0; s < len && fill < cells; ++s) put(x, y -= sign);
    }
  }

  Wave start;
  start.rows = rows;
  start.cols = cols;
  start.bits.assign(static_cast<std::size_t>(cells) * words_, 0);
  for (int c = 0; c < cells; ++c) {
    std::uint64_t* s = start.cell(c, words_);
    for (int p = 0; p < n; ++p) s[p / 64] |= std::uint64_t{1} << (p % 64);
  }
  start.count.assign(static_cast<std::size_t>(cells), n);
  start.queued.assign(static_cast<std::size_t>(cells), 0);
  for (int c = 0; c < cells; ++c) start.push(c);
  if (!propagate(start)) return false;  // every attempt would start from this contradiction

  for (int attempt = 0; attempt < attempts; ++attempt) {
    Wave w = start;
    if (!solve(w, prefs, rng)) continue;
    walls.assign(static_cast<std::size_t>(cells), 0);
    for (int c = 0; c < cells; ++c) {
      const std::uint64_t* s = w.cell(c, words_);
      int p = 0;
      while (((s[p / 64] >> (p % 64)) & 1) == 0) ++p;
      walls[static_cast<std::size_t>(c)] = pattern_wall_[static_cast<std::size_t>(p)];
    }
    return true;
  }
  return false;
}

std::shared_ptr<const Model> model(const Image& image, const Params& params) {
  // Keyed by the whole input; entries live while some env holds them.
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Model>> cache;
  std::string key(reinterpret_cast<const char*>(image.rgb.data()), image.rgb.size());
  key += std::to_string(image.width) + "x" + std::to_string(image.height) + "/" + std::to_string(params.tile_size) +
         "/" + std::to_string(params.pattern_width) + "/" + std::to_string(params.rotations) + "/" +
         std::to_string(params.output_periodic) + std::to_string(params.input_periodic) + "/" +
         std::to_string(static_cast<int>(params.location)) + std::to_string(static_cast<int>(params.choice)) +
         std::to_string(params.backtracking);
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end();) it = it->second.expired() ? cache.erase(it) : std::next(it);
  auto& slot = cache[key];
  if (auto m = slot.lock()) return m;
  auto m = std::make_shared<const Model>(image, params);
  slot = m;
  return m;
}

}  // namespace rlpool::minigrid::wfc
