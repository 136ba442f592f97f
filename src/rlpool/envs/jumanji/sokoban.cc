// Jumanji's Sokoban (jumanji 1.1.2, Sokoban-v0) in C++: an agent pushes
// four boxes onto four targets in a 10 x 10 level. Follows
// jumanji/environments/routing/sokoban/:
// - generator.py: HuggingFaceDeepMindGenerator (l.66-139: the first
//   int(proportion_of_files * N) levels of a Boxoban file; __call__: key,
//   idx_key = split(key); idx = randint(idx_key, (), 0, count)), ToyGenerator
//   (l.142-210, the same draw over its two levels), SimpleSolveGenerator
//   (l.213-253: its one level, the State's key the generator's key),
//   Generator.get_agent_coordinates (l.58-74: the first AGENT square, row by
//   row), convert_level_to_array (l.256-283).
// - env.py Sokoban.reset (l.170-194: generator_key, _ = split(key)), step
//   (l.196-252: detect_noop_action, move_agent unless the action is a no-op,
//   step_count + 1; done when the level is complete or step_count >=
//   time_limit, both a termination), detect_noop_action and
//   update_box_push_action (l.412-499: a move off the grid or into a wall is a
//   no-op, as is pushing a box off the grid, into a wall or into another box),
//   move_agent (l.501-535: reads the variable grid as it was before the
//   agent's square is emptied), _state_to_observation (l.289-304: grid
//   [..., 0] the variable grid, [..., 1] the fixed one), _get_extras
//   (l.306-324), observation_spec (l.254-276), grid_combine (l.326-362).
// - reward.py DenseReward (l.91-120) and count_targets (l.43-61): the integer
//   terms SINGLE_BOX_BONUS * (boxes on targets after - before) +
//   LEVEL_COMPLETE_BONUS * complete, then + STEP_BONUS (-0.1) in float32, as
//   XLA computes it. constants.py (l.15-35): MOVES, the codes 0 empty, 1 wall,
//   2 target, 3 agent, 4 box.
// Levels: rlpool ships none. The registration's prepare hook
// (sokoban_data.py) hands the env a level file as the hidden option
// _levels_file, in the Boxoban file's format (a .npy of uint8 (N, 10, 10, 2):
// [..., 0] fixed grid, [..., 1] variable grid): the Boxoban dataset the user
// supplies, or the toy / simple-solve levels read from jumanji's
// generator.py. The file is read and checked here (shape, dtype, codes 0..4,
// one agent per level) when an env is made; envs reading the same file share
// one copy. Where the Boxoban dataset is nowhere to be found, the hook's error
// comes as _levels_missing and making an env raises it (a spec needs no
// levels). The option level_index (EnvPool's sokoban_level_index) >= 0 plays
// that level of the set at every reset instead of jumanji's draw (the keys
// are split as jumanji's).
//
// Render: BoxViewer (viewer.py l.29-171) draws grid_combine's code of each
// square (0 floor, 1 wall, 2 target, 3 agent, 4 box, 5 agent on a target,
// 6 box on a target) as jumanji's 16 x 16 image of that name, row 0 at the
// top; here each image, decoded by sokoban_data.py into the hidden option
// _images' folder, is scaled 3x (nearest) into a 48-pixel square of a
// 480 x 480 frame.
//
// State bytes (after the env's key): fixed_grid (100 uint8, row by row),
// variable_grid (100 uint8), agent_location (row, col int32), step_count
// (int32), the State's key (two uint32).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "_core/gfx/images.h"
#include "_core/io/npy_file.h"
#include "envs/jumanji/jumanji_env.h"

namespace rlpool::jumanji {

namespace {

constexpr int kGrid = 10;  // GRID_SIZE
constexpr int kCells = kGrid * kGrid;
constexpr int kBoxes = 4;  // N_BOXES
constexpr std::uint8_t kWall = 1, kTarget = 2, kAgent = 3, kBox = 4;
constexpr int kMoves[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // up, right, down, left
constexpr int kCell = 48;  // pixels a square: jumanji's 16-pixel images, 3x
constexpr int kMaxTimeLimit = 1'000'000'000;

// BoxViewer's images, in the order of grid_combine's codes.
constexpr std::array<draw::Sprite, 7> kImages = {{{"floor"},
                                                  {"wall"},
                                                  {"box_target"},
                                                  {"agent"},
                                                  {"box"},
                                                  {"agent_on_target"},
                                                  {"box_on_target"}}};

// A level set as the file holds it: per level 100 squares of (fixed, variable).
struct Levels {
  std::int64_t count = 0;
  std::vector<std::uint8_t> squares;   // count * kCells * 2
  std::vector<std::int32_t> agent_at;  // per level, the agent's square (row * 10 + col)
};

[[noreturn]] void bad_file(const std::string& path, const std::string& why) {
  throw std::invalid_argument("Sokoban's level file " + path + " " + why +
                              " (expected a .npy of uint8 with shape (N, 10, 10, 2), N >= 1: [..., 0] the fixed "
                              "grid, [..., 1] the variable grid, codes 0..4, one agent (3) in each variable grid)");
}

// The levels of a .npy file: uint8, shape (N, 10, 10, 2), N >= 1, codes 0..4, one agent in each.
std::shared_ptr<const Levels> read_levels(const std::string& path) {
  NpyBytes npy = read_npy(path, {"|u1", "<u1", ">u1", "u1"}, bad_file);
  if (npy.shape.size() != 4 || npy.shape[1] != kGrid || npy.shape[2] != kGrid || npy.shape[3] != 2) {
    bad_file(path, "has shape " + shape_text(npy.shape));
  }
  auto levels = std::make_shared<Levels>();
  levels->count = npy.shape[0];
  if (levels->count < 1) bad_file(path, "holds no level");
  levels->squares = std::move(npy.data);
  levels->agent_at.resize(static_cast<std::size_t>(levels->count));
  for (std::int64_t n = 0; n < levels->count; ++n) {
    const std::uint8_t* level = levels->squares.data() + static_cast<std::size_t>(n) * kCells * 2;
    int agents = 0;
    for (int i = 0; i < kCells; ++i) {
      for (int layer = 0; layer < 2; ++layer) {
        if (level[i * 2 + layer] > kBox) {
          bad_file(path, "holds the code " + std::to_string(level[i * 2 + layer]) + " in level " + std::to_string(n) +
                             " (row " + std::to_string(i / kGrid) + ", column " + std::to_string(i % kGrid) + ")");
        }
      }
      if (level[i * 2 + 1] == kAgent && agents++ == 0) levels->agent_at[static_cast<std::size_t>(n)] = i;
    }
    if (agents != 1) bad_file(path, "has " + std::to_string(agents) + " agents in level " + std::to_string(n));
  }
  return levels;
}

enum class Generator { kHuggingFace, kToy, kSimpleSolve };

Generator generator_of(const Config& config) {
  const std::string& name = config.get_string("generator");
  if (name == "huggingface") return Generator::kHuggingFace;
  if (name == "toy") return Generator::kToy;
  if (name == "simple_solve") return Generator::kSimpleSolve;
  throw std::invalid_argument("generator must be \"huggingface\", \"toy\" or \"simple_solve\", got \"" + name + "\"");
}

const std::string& levels_file(const Config& config) {
  if (const std::string& missing = config.get_string("_levels_missing"); !missing.empty()) {
    throw std::invalid_argument(missing);
  }
  const std::string& path = config.get_string("_levels_file");
  if (path.empty()) {
    throw std::invalid_argument("JumanjiSokoban needs the path of its level file (_levels_file, which the "
                                "registration of Sokoban-v0 sets)");
  }
  return path;
}

bool inside(int row, int col) { return row >= 0 && row < kGrid && col >= 0 && col < kGrid; }

class Sokoban final : public JumanjiEnv {
 public:
  Sokoban(const Config& config, std::size_t prop_at, std::size_t solved_at)
      : generator_(generator_of(config)),
        levels_(shared_copy(levels_file(config), read_levels)),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        level_index_(config.get_int("level_index")),
        images_(config.get_string("_images")),
        prop_at_(prop_at),
        solved_at_(solved_at) {
    count_ = levels_->count;
    if (generator_ == Generator::kHuggingFace) {
      // int(proportion_of_files * dataset.shape[0]), in float64 as Python computes it.
      count_ = static_cast<std::int64_t>(config.get_double("proportion_of_files") * static_cast<double>(count_));
      if (count_ < 1) {
        throw std::invalid_argument("proportion_of_files " + std::to_string(config.get_double("proportion_of_files")) +
                                    " keeps no level of the " + std::to_string(levels_->count) + " in " +
                                    levels_file(config));
      }
    } else if (generator_ == Generator::kSimpleSolve) {
      count_ = 1;
    }
    if (level_index_ >= count_) {
      throw std::invalid_argument("level_index " + std::to_string(level_index_) + " is past the level set's " +
                                  std::to_string(count_) + " levels (expected -1 or 0.." +
                                  std::to_string(count_ - 1) + ")");
    }
  }

 protected:
  void new_episode(Key key) override {
    const Key generator_key = jax_random::split2(key).first;
    std::int64_t index = 0;
    if (generator_ == Generator::kSimpleSolve) {
      state_key_ = generator_key;
    } else {
      const auto [next, index_key] = jax_random::split2(generator_key);
      state_key_ = next;
      index = jax_random::randint1(index_key, 0, count_);
    }
    if (level_index_ >= 0) index = level_index_;
    const std::uint8_t* level = levels_->squares.data() + static_cast<std::size_t>(index) * kCells * 2;
    for (int i = 0; i < kCells; ++i) {
      fixed_[static_cast<std::size_t>(i)] = level[i * 2];
      variable_[static_cast<std::size_t>(i)] = level[i * 2 + 1];
    }
    const std::int32_t agent = levels_->agent_at[static_cast<std::size_t>(index)];
    agent_row_ = agent / kGrid;
    agent_col_ = agent % kGrid;
    step_count_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto a = static_cast<std::size_t>(action.discrete());
    const int dr = kMoves[a][0], dc = kMoves[a][1];
    const int to_row = agent_row_ + dr, to_col = agent_col_ + dc;
    const int box_row = to_row + dr, box_col = to_col + dc;
    const int before = boxes_on_targets();
    bool noop = !inside(to_row, to_col) || fixed_[at(to_row, to_col)] == kWall;
    const bool push = !noop && variable_[at(to_row, to_col)] == kBox;
    if (push) {
      noop = !inside(box_row, box_col) || variable_[at(box_row, box_col)] == kBox ||
             fixed_[at(box_row, box_col)] == kWall;
    }
    if (!noop) {
      variable_[at(agent_row_, agent_col_)] = 0;
      variable_[at(to_row, to_col)] = kAgent;
      if (push) variable_[at(box_row, box_col)] = kBox;
      agent_row_ = to_row;
      agent_col_ = to_col;
    }
    ++step_count_;
    const int after = boxes_on_targets();
    const bool complete = after == kBoxes;
    const std::int32_t bonus = (after - before) + (complete ? 10 : 0);
    rewards[0] = static_cast<double>(static_cast<float>(bonus) + -0.1f);
    return {.terminated = complete || step_count_ >= time_limit_};
  }

  void observe(const Output& out) const override {
    auto* grid = out.obs_as<std::uint8_t>(0);
    for (int i = 0; i < kCells; ++i) {
      grid[i * 2] = variable_[static_cast<std::size_t>(i)];
      grid[i * 2 + 1] = fixed_[static_cast<std::size_t>(i)];
    }
    *out.obs_as<std::int32_t>(1) = step_count_;
    const int on_targets = boxes_on_targets();
    *out.info_as<float>(prop_at_) = static_cast<float>(on_targets) / static_cast<float>(kBoxes);
    *out.info_as<bool>(solved_at_) = on_targets == kBoxes;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, fixed_);
    append_values(bytes, variable_);
    for (std::int32_t v : {agent_row_, agent_col_, step_count_}) append(bytes, v);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "Sokoban");
    std::array<std::uint8_t, kCells> fixed{};
    std::array<std::uint8_t, kCells> variable{};
    reader.read(fixed.data(), fixed.size(), "fixed_grid");
    reader.read(variable.data(), variable.size(), "variable_grid");
    const auto row = reader.read<std::int32_t>("agent_location.row");
    const auto col = reader.read<std::int32_t>("agent_location.col");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const Key key = read_key(reader);
    reader.done();
    check_all(fixed, 0, kBox, "fixed_grid");
    check_all(variable, 0, kBox, "variable_grid");
    check_range(row, 0, kGrid - 1, "agent_location.row");
    check_range(col, 0, kGrid - 1, "agent_location.col");
    check_range(step_count, 0, time_limit_, "step_count");
    if (variable[static_cast<std::size_t>(row * kGrid + col)] != kAgent) {
      throw std::invalid_argument("state's variable_grid has no agent at agent_location (" + std::to_string(row) +
                                  ", " + std::to_string(col) + ")");
    }
    fixed_ = fixed;
    variable_ = variable;
    agent_row_ = row;
    agent_col_ = col;
    step_count_ = step_count;
    state_key_ = key;
  }

  // BoxViewer's picture: each square's image (grid_combine's code) scaled 3x.
  void render(const Frame& frame) override {
    std::array<const draw::Pixels*, kImages.size()> images{};
    for (std::size_t i = 0; i < kImages.size(); ++i) images[i] = &draw::load(images_, kImages[i]);
    for (int y = 0; y < frame.height; ++y) {
      for (int x = 0; x < frame.width; ++x) {
        const int row = std::min(y / kCell, kGrid - 1), col = std::min(x / kCell, kGrid - 1);
        const draw::Pixels& image = *images[static_cast<std::size_t>(combined(row, col))];
        const int sx = std::min((x - col * kCell) * image.width / kCell, image.width - 1);
        const int sy = std::min((y - row * kCell) * image.height / kCell, image.height - 1);
        const std::uint32_t argb = image.argb[static_cast<std::size_t>(sy) * image.width + sx];
        const std::uint32_t alpha = argb >> 24;
        std::uint8_t* p = frame.rgb + (static_cast<std::size_t>(y) * frame.width + x) * 3;
        for (int c = 0; c < 3; ++c) {  // over white, matplotlib's background
          const std::uint32_t v = (argb >> (16 - 8 * c)) & 0xffu;
          p[c] = static_cast<std::uint8_t>((v * alpha + 255u * (255u - alpha) + 127u) / 255u);
        }
      }
    }
  }

 private:
  static std::size_t at(int row, int col) { return static_cast<std::size_t>(row * kGrid + col); }

  // count_targets: boxes of the variable grid on targets of the fixed one.
  int boxes_on_targets() const {
    int n = 0;
    for (std::size_t i = 0; i < kCells; ++i) n += variable_[i] == kBox && fixed_[i] == kTarget ? 1 : 0;
    return n;
  }

  // grid_combine: 5 an agent on a target, 6 a box on a target, else max(variable, fixed).
  int combined(int row, int col) const {
    const std::uint8_t f = fixed_[at(row, col)], v = variable_[at(row, col)];
    if (f == kTarget && v == kAgent) return 5;
    if (f == kTarget && v == kBox) return 6;
    return std::max(f, v);
  }

  Generator generator_;
  std::shared_ptr<const Levels> levels_;
  std::int64_t count_ = 0;  // the levels drawn from
  int time_limit_;
  std::int64_t level_index_;
  std::string images_;  // the _images option: where draw::load finds jumanji's images
  std::size_t prop_at_;
  std::size_t solved_at_;
  std::array<std::uint8_t, kCells> fixed_{};
  std::array<std::uint8_t, kCells> variable_{};
  std::int32_t agent_row_ = 0;
  std::int32_t agent_col_ = 0;
  std::int32_t step_count_ = 0;
  Key state_key_{};
};

EnvSpec sokoban_spec(const Config& config) {
  generator_of(config);
  const std::string& dataset = config.get_string("dataset_name");
  constexpr std::array<std::string_view, 6> kDatasets = {"unfiltered-train", "unfiltered-valid", "unfiltered-test",
                                                         "medium-train",     "medium-test",      "hard"};
  if (std::find(kDatasets.begin(), kDatasets.end(), dataset) == kDatasets.end()) {
    throw std::invalid_argument("dataset_name must be one of unfiltered-train, unfiltered-valid, unfiltered-test, "
                                "medium-train, medium-test, hard, got \"" + dataset + "\"");
  }
  const double proportion = config.get_double("proportion_of_files");
  if (!(proportion > 0.0 && proportion <= 1.0)) {
    throw std::invalid_argument("proportion_of_files must be in (0, 1], got " + std::to_string(proportion));
  }
  config.get_int_in("level_index", -1, std::int64_t{1} << 40);
  const auto time_limit = config.get_int_in("time_limit", 1, kMaxTimeLimit);
  return EnvSpec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kUInt8, .shape = {kGrid, kGrid, 2}, .low = {0.0},
                        .high = {4.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .low = {0.0},
                        .high = {static_cast<double>(time_limit)}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .low = {0.0}, .high = {3.0}},
      .info = {ArraySpec{.name = "prop_correct_boxes", .dtype = DType::kFloat32},
               ArraySpec{.name = "solved", .dtype = DType::kBool}},
      .render_width = kGrid * kCell,
      .render_height = kGrid * kCell,
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_sokoban(const Config& config) {
  const EnvSpec spec = sokoban_spec(config);  // checks the options
  return std::make_unique<Sokoban>(config, info_index(spec.info, "prop_correct_boxes"),
                                   info_index(spec.info, "solved"));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiSokoban",
    .options =
        {
            {"generator", std::string("huggingface"),
             "Where levels come from: \"huggingface\" (jumanji's default HuggingFaceDeepMindGenerator: DeepMind's "
             "Boxoban levels, which the user supplies), \"toy\" (ToyGenerator's two levels) or \"simple_solve\" "
             "(SimpleSolveGenerator's one)."},
            {"dataset_name", std::string("unfiltered-train"),
             "The Boxoban dataset (HuggingFaceDeepMindGenerator's dataset_name): unfiltered-train, unfiltered-valid, "
             "unfiltered-test, medium-train, medium-test or hard; found in the Hugging Face cache."},
            {"proportion_of_files", 1.0,
             "The share of the Boxoban file's levels played, its first int(p * N) (HuggingFaceDeepMindGenerator's "
             "proportion_of_files), in (0, 1]."},
            {"levels_file", std::string(),
             "A Boxoban level file to play instead of dataset_name's (a .npy of uint8 (N, 10, 10, 2): fixed grid, "
             "variable grid), for generator \"huggingface\"."},
            {"level_index", std::int64_t{-1},
             "-1: a level drawn as jumanji draws it at each reset; k >= 0: always level k of the set."},
            {"time_limit", std::int64_t{120},
             "Steps after which the episode ends (Sokoban's time_limit; jumanji counts it a termination)."},
            {"_levels_file", std::string(), "The level file played (set by the registration)."},
            {"_levels_missing", std::string(),
             "Why there is no level file: the error an env raises when made (set by the registration)."},
            {"_images", std::string(), "jumanji's Sokoban images, decoded (set by the registration)."},
        },
    .spec = sokoban_spec,
    .create = make_sokoban,
});

}  // namespace rlpool::jumanji
