// Jumanji's RubiksCube (jumanji 1.1.2, RubiksCube-v0 and
// RubiksCube-partly-scrambled-v0) in C++: a cube_size^3 Rubik's Cube,
// scrambled at reset; each step turns one layer. Follows
// jumanji/environments/logic/rubiks_cube/:
// - generator.py Generator.__call__ (l.46-59): key, scramble_key =
//   split(key); ScramblingGenerator (l.62-101): the scramble is
//   randint(scramble_key, (num_scrambles_on_reset,), 0, 6 * (cube_size // 2)
//   * 3) flat moves applied in turn to a solved cube (utils.py
//   scramble_solved_cube, l.503-523; make_solved_cube, l.43-54).
// - utils.py flatten_action (l.446-485): face * 3 * (cube_size // 2) +
//   depth * 3 + amount; generate_all_moves (l.388-402) and do_rotation
//   (l.77-115): at depth 0 the face itself turns (rot90 by -amount), and the
//   4 * cube_size stickers of the ring around it (generate_<face>_move,
//   l.118-385: each face's adjacent faces, rows and columns) roll by
//   cube_size * amount, with amounts clockwise = 1, anticlockwise = -1, half
//   turn = 2 (constants.py CubeMovementAmount).
// - env.py RubiksCube.reset (l.122-136) and step (l.138-174): reward.py
//   SparseRewardFn (1 when solved: utils.py is_solved, l.57-68, every face
//   one colour); done = step_count >= time_limit or solved, a termination.
// - env.py observation_spec (l.177-204): cube (int8, 6 x n x n, 0..5) and
//   step_count (int32, 0..time_limit); action_spec (l.207-218): [face,
//   depth, amount] with (6, cube_size // 2, 3) values.
// RubiksCube-partly-scrambled-v0 is jumanji's registration of the same env
// with num_scrambles_on_reset=7 and time_limit=20 (jumanji/__init__.py).
// - render: viewer.py RubiksCubeViewer._draw (l.125-152) shows the six faces
//   as images in constants.py DEFAULT_STICKER_COLORS (white, green, red,
//   blue, orange, yellow for the sticker values 0..5) with black grid lines;
//   here they are laid out as the unfolded cube's net, on black: up above
//   front, then left, front, right, back in a row, down below front, each
//   face's n x n stickers as the observation holds them (row 0 on top).
//
// State bytes (after the env's key): cube (6 * n * n int8, faces up, front,
// right, back, left, down), step_count (int32), the State's key (two uint32).
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kFaces = 6;
constexpr int kAmounts = 3;
constexpr std::array<int, kAmounts> kAmountValue = {1, -1, 2};  // clockwise, anticlockwise, half turn
enum Face : int { kUp = 0, kFront = 1, kRight = 2, kBack = 3, kLeft = 4, kDown = 5 };

// The picture: the net, 4 faces wide and 3 high, cell_size pixels a sticker
// (at most 480 pixels wide where stickers of 2 pixels allow it); where each
// face sits (face row, face column), and the stickers' colours.
constexpr std::array<std::array<int, 2>, kFaces> kNetSlot = {{{0, 1}, {1, 1}, {1, 2}, {1, 3}, {1, 0}, {2, 1}}};
constexpr std::array<Rgb, kFaces> kStickerColours = {
    {{255, 255, 255}, {0, 128, 0}, {255, 0, 0}, {0, 0, 255}, {255, 165, 0}, {255, 255, 0}}};

int cell_size(std::int64_t n) { return static_cast<int>(std::clamp<std::int64_t>(480 / (4 * n), 2, 40)); }

class RubiksCube final : public JumanjiEnv {
 public:
  explicit RubiksCube(const Config& config)
      : n_(static_cast<int>(config.get_int("cube_size"))),
        scrambles_(static_cast<std::size_t>(config.get_int("num_scrambles_on_reset"))),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        cube_(static_cast<std::size_t>(kFaces * n_ * n_)),
        face_scratch_(static_cast<std::size_t>(n_ * n_)),
        ring_(static_cast<std::size_t>(4 * n_)),
        ring_values_(static_cast<std::size_t>(4 * n_)) {}

 protected:
  void new_episode(Key key) override {
    const auto [next, scramble_key] = jax_random::split2(key);
    state_key_ = next;
    const std::int64_t moves = static_cast<std::int64_t>(kFaces) * (n_ / 2) * kAmounts;
    const std::vector<std::int32_t> scramble = jax_random::randint(scramble_key, scrambles_, 0, moves);
    for (int f = 0; f < kFaces; ++f) {
      std::fill_n(cube_.begin() + static_cast<std::ptrdiff_t>(f * n_ * n_), n_ * n_, static_cast<std::int8_t>(f));
    }
    for (std::int32_t move : scramble) {
      const int amount = move % kAmounts;
      const int face_and_depth = move / kAmounts;
      rotate(face_and_depth / (n_ / 2), face_and_depth % (n_ / 2), amount);
    }
    step_count_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    rotate(static_cast<int>(action.discrete(0)), static_cast<int>(action.discrete(1)),
           static_cast<int>(action.discrete(2)));
    ++step_count_;
    const bool solved = is_solved();
    rewards[0] = solved ? 1.0 : 0.0;
    return {.terminated = step_count_ >= time_limit_ || solved};
  }

  void observe(const Output& out) const override {
    std::copy(cube_.begin(), cube_.end(), out.obs_as<std::int8_t>(0));
    *out.obs_as<std::int32_t>(1) = step_count_;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, cube_);
    append(bytes, step_count_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "RubiksCube");
    std::vector<std::int8_t> cube = read_values<std::int8_t>(reader, cube_.size(), "cube");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const Key key = read_key(reader);
    reader.done();
    check_all(cube, 0, kFaces - 1, "cube");
    check_range(step_count, 0, time_limit_, "step_count");
    cube_ = std::move(cube);
    step_count_ = step_count;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board net(frame, 3 * n_, 4 * n_);
    canvas.fill(Rgb{0, 0, 0});
    for (int f = 0; f < kFaces; ++f) {
      const auto [face_row, face_col] = kNetSlot[static_cast<std::size_t>(f)];
      for (int r = 0; r < n_; ++r) {
        for (int c = 0; c < n_; ++c) {
          const Rgb colour = kStickerColours[static_cast<std::size_t>(cube_[at(f, r, c)])];
          net.paint(canvas, face_row * n_ + r, face_col * n_ + c, colour, net.cell >= 8 ? 1 : 0);
        }
      }
    }
  }

  struct Sticker {
    int face, row, col;
  };

  std::size_t at(int face, int row, int col) const { return static_cast<std::size_t>((face * n_ + row) * n_ + col); }

  // utils.py generate_<face>_move: the ring of 4 * n stickers around `face` at
  // `depth`, in the order a clockwise turn moves them along.
  void fill_ring(int face, int d) {
    const int n = n_;
    const int far = n - 1 - d;
    // Each side: (adjacent face, row of k, col of k) for k = 0..n-1.
    auto side = [&](int s, int adjacent, auto row_of, auto col_of) {
      for (int k = 0; k < n; ++k) {
        ring_[static_cast<std::size_t>(s * n + k)] = Sticker{adjacent, row_of(k), col_of(k)};
      }
    };
    auto up = [](int k) { return k; };
    auto down = [n](int k) { return n - 1 - k; };  // jnp.flip(jnp.arange(n))
    auto fixed = [](int v) { return [v](int) { return v; }; };
    switch (face) {
      case kUp:
        side(0, kFront, fixed(d), up);
        side(1, kLeft, fixed(d), up);
        side(2, kBack, fixed(d), up);
        side(3, kRight, fixed(d), up);
        break;
      case kFront:
        side(0, kUp, fixed(far), up);
        side(1, kRight, up, fixed(d));
        side(2, kDown, fixed(d), down);
        side(3, kLeft, down, fixed(far));
        break;
      case kRight:
        side(0, kUp, down, fixed(far));
        side(1, kBack, up, fixed(d));
        side(2, kDown, down, fixed(far));
        side(3, kFront, down, fixed(far));
        break;
      case kBack:
        side(0, kUp, fixed(d), down);
        side(1, kLeft, up, fixed(d));
        side(2, kDown, fixed(far), up);
        side(3, kRight, down, fixed(far));
        break;
      case kLeft:
        side(0, kUp, up, fixed(d));
        side(1, kFront, up, fixed(d));
        side(2, kDown, up, fixed(d));
        side(3, kBack, down, fixed(far));
        break;
      default:  // kDown
        side(0, kFront, fixed(far), up);
        side(1, kRight, fixed(far), up);
        side(2, kBack, fixed(far), up);
        side(3, kLeft, fixed(far), up);
        break;
    }
  }

  // utils.py do_rotation for one move.
  void rotate(int face, int depth, int amount_index) {
    const int amount = kAmountValue[static_cast<std::size_t>(amount_index)];
    const int n = n_;
    if (depth == 0) {
      // jnp.rot90(m, k=-amount): k = -1 turns clockwise, 1 anticlockwise, -2 half.
      std::int8_t* m = cube_.data() + at(face, 0, 0);
      std::copy_n(m, n * n, face_scratch_.begin());
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          int si = 0;
          int sj = 0;
          if (amount == 1) {
            si = n - 1 - j;
            sj = i;
          } else if (amount == -1) {
            si = j;
            sj = n - 1 - i;
          } else {
            si = n - 1 - i;
            sj = n - 1 - j;
          }
          m[i * n + j] = face_scratch_[static_cast<std::size_t>(si * n + sj)];
        }
      }
    }
    fill_ring(face, depth);
    const int len = 4 * n;
    for (int k = 0; k < len; ++k) {
      const Sticker& s = ring_[static_cast<std::size_t>(k)];
      ring_values_[static_cast<std::size_t>(k)] = cube_[at(s.face, s.row, s.col)];
    }
    const int shift = ((n * amount) % len + len) % len;  // jnp.roll: out[k] = in[k - shift]
    for (int k = 0; k < len; ++k) {
      const Sticker& s = ring_[static_cast<std::size_t>(k)];
      cube_[at(s.face, s.row, s.col)] = ring_values_[static_cast<std::size_t>((k - shift + len) % len)];
    }
  }

  bool is_solved() const {
    const auto per_face = static_cast<std::ptrdiff_t>(n_ * n_);
    for (int f = 0; f < kFaces; ++f) {
      const auto begin = cube_.begin() + f * per_face;
      const auto [lo, hi] = std::minmax_element(begin, begin + per_face);
      if (*lo != *hi) return false;
    }
    return true;
  }

  int n_;
  std::size_t scrambles_;
  int time_limit_;
  std::vector<std::int8_t> cube_;
  std::vector<std::int8_t> face_scratch_;
  std::vector<Sticker> ring_;
  std::vector<std::int8_t> ring_values_;
  std::int32_t step_count_ = 0;
  Key state_key_{};
};

EnvSpec rubiks_cube_spec(const Config& config) {
  const auto n = config.get_int_in("cube_size", 2, 32);
  config.get_int_in("num_scrambles_on_reset", 0, 1'000'000);
  const auto time_limit = config.get_int_in("time_limit", 1, 1'000'000'000);
  return EnvSpec{
      .obs = {ArraySpec{.name = "cube", .dtype = DType::kInt8, .shape = {kFaces, n, n}, .low = {0.0},
                        .high = {kFaces - 1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .low = {0.0},
                        .high = {static_cast<double>(time_limit)}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {3}, .low = {0.0, 0.0, 0.0},
                          .high = {kFaces - 1.0, static_cast<double>(n / 2 - 1), kAmounts - 1.0}},
      .render_width = static_cast<int>(4 * n) * cell_size(n),
      .render_height = static_cast<int>(3 * n) * cell_size(n),
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_rubiks_cube(const Config& config) {
  rubiks_cube_spec(config);  // checks the options
  return std::make_unique<RubiksCube>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiRubiksCube",
    .options =
        {
            {"cube_size", std::int64_t{3}, "Stickers along a cube's edge (ScramblingGenerator's cube_size), 2..32."},
            {"num_scrambles_on_reset", std::int64_t{100},
             "Random moves that scramble the solved cube at reset (ScramblingGenerator's num_scrambles_on_reset; "
             "RubiksCube-partly-scrambled-v0: 7)."},
            {"time_limit", std::int64_t{200},
             "Steps after which the episode ends (RubiksCube's time_limit, a termination in jumanji; "
             "RubiksCube-partly-scrambled-v0: 20)."},
        },
    .spec = rubiks_cube_spec,
    .create = make_rubiks_cube,
});

}  // namespace rlpool::jumanji
