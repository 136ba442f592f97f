// Wave Function Collapse as minigrid 3.2.0's WFC envs run it (envs/wfc/wfclogic,
// itself after ikarth's wfc_2019f): overlapping patterns cut from a pattern
// image (with its rotations and reflections), their overlap adjacencies, and
// the solver with minigrid's location and choice heuristics and its one-level
// backtracking. Written for rlpool from minigrid's behaviour; no code reused.
//
// Quirks of minigrid's that are kept, since they shape the levels:
//   - patterns are ordered by minigrid's hash of their tiles (numpy's
//     RandomState(0) vectors, reproduced with std::mt19937), which is the order
//     the "lexical" choice takes;
//   - a pattern's weight is the number of the image's transforms it occurs in,
//     not how often it occurs;
//   - the input is always read wrapped (input_periodic has no effect);
//   - the solver's x axis is the output's first (row) axis while adjacency
//     offsets are (column, row) offsets: the output is the transpose of a plain
//     WFC of the image (the same distribution when all 8 transforms are used);
//   - the preferences that break ties (uniform in [0, 0.1) per cell) are drawn
//     once per level and shared by all its attempts;
//   - a contradiction in the propagation that starts a step (after a
//     backtrack) ends the attempt even with backtracking.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool::minigrid::wfc {

enum class Location : std::uint8_t { kLexical, kSpiral, kEntropy, kAntiEntropy, kSimple, kRandom };
enum class Choice : std::uint8_t { kLexical, kRarest, kWeighted, kRandom };

// minigrid's WFCConfig (pattern_path aside: the image comes decoded).
struct Params {
  int tile_size = 1;
  int pattern_width = 2;
  int rotations = 8;
  bool output_periodic = false;
  bool input_periodic = false;
  Location location = Location::kEntropy;
  Choice choice = Choice::kWeighted;
  bool backtracking = false;
};

// The ranges rlpool takes (std::invalid_argument otherwise).
void check(const Params& params);
// The names minigrid's config takes; anything else is a std::invalid_argument.
Location location_from_name(const std::string& name);
Choice choice_from_name(const std::string& name);

// An RGB image, row-major, 3 bytes a pixel.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
};

// The patterns of one image and parameters, and their adjacency: built once,
// shared by every env with the same input (model()), read-only afterwards.
class Model {
 public:
  Model(const Image& image, const Params& params);

  int num_patterns() const { return static_cast<int>(weights_.size()); }
  // One level of rows x cols cells (walls[i * cols + j], 1 = wall: the tile's
  // red channel is 0, as minigrid reads the image), from up to `attempts`
  // solver runs; false if every run contradicted itself.
  bool generate(int rows, int cols, Rng& rng, int attempts, std::vector<std::uint8_t>& walls) const;

 private:
  struct Wave;
  bool solve(Wave& wave, const std::vector<double>& prefs, Rng& rng) const;
  bool propagate(Wave& wave) const;
  bool revise(Wave& wave, int cell) const;
  int neighbour(const Wave& wave, int cell, int direction) const;
  void push_neighbours(Wave& wave, int cell) const;

  Params params_;
  int words_ = 0;                          // 64-bit words of a pattern set
  std::vector<int> weights_;               // per pattern
  std::vector<std::uint8_t> pattern_wall_; // per pattern: its anchor tile is a wall
  // adj_[(d * n + q) * words_ ...]: the patterns that may lie at offset d of q.
  std::vector<std::uint64_t> adj_;
  std::vector<std::uint8_t> has_adj_;      // per (d, q): adj_ row not empty
};

// The model of `image` and `params`, built once per distinct input in the
// process (envs of a pool share it).
std::shared_ptr<const Model> model(const Image& image, const Params& params);

}  // namespace rlpool::minigrid::wfc
