// CliffWalking, matching gymnasium 1.4 CliffWalkingEnv (Sutton & Barto,
// example 6.6), including its slippery variant (CliffWalkingSlippery-v1).
#include <algorithm>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"
#include "envs/toy_text/sprites.h"
#include "envs/toy_text/toy_text.h"

namespace rlpool::toy_text {
namespace {

constexpr std::int64_t kRows = 4;
constexpr std::int64_t kCols = 12;
constexpr std::int64_t kStates = kRows * kCols;
constexpr std::int64_t kStart = 3 * kCols;     // [3, 0]
constexpr std::int64_t kGoal = kStates - 1;    // [3, 11]
// UP, RIGHT, DOWN, LEFT as (row, col) deltas: gymnasium's POSITION_MAPPING.
constexpr std::int64_t kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};

bool is_cliff(std::int64_t row, std::int64_t col) { return row == kRows - 1 && col >= 1 && col <= kCols - 2; }

constexpr int kCell = 64;  // gymnasium's cell_size, the size its images are drawn for (no scaling)

EnvSpec make_spec(const Config& /*config*/) {
  return EnvSpec{
      .obs = {discrete("obs", kStates)},
      .action = discrete("action", 4),
      .info = {prob_info()},
      .render_width = kCols * kCell,
      .render_height = kRows * kCell,
      .render_fps = 4,
  };
}

class CliffWalking final : public Env {
 public:
  explicit CliffWalking(const Config& config)
      : slippery_(config.get_bool("is_slippery")),
        prob_(info_index(make_spec(config).info, "prob")),
        images_(config.get_string("_images")) {}

  void reset(Rng& /*rng*/, const Output& out) override {
    s_ = kStart;
    write(out, 1.0);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    const std::int64_t a = action.discrete();
    std::int64_t move = a;
    double p = 1.0;
    if (slippery_) {
      // gymnasium: (a - 1) % 4, a, (a + 1) % 4, each with probability 1 / 3.
      const std::int64_t moves[3] = {(a + 3) % 4, a, (a + 1) % 4};
      p = 1.0 / 3.0;
      const double probs[3] = {p, p, p};
      move = moves[categorical(probs, 3, rng.uniform())];
    }
    const std::int64_t row = std::clamp(s_ / kCols + kDelta[move][0], std::int64_t{0}, kRows - 1);
    const std::int64_t col = std::clamp(s_ % kCols + kDelta[move][1], std::int64_t{0}, kCols - 1);
    if (is_cliff(row, col)) {  // back to the start, not an episode end
      s_ = kStart;
      *out.reward = -100.0;
    } else {
      s_ = row * kCols + col;
      *out.reward = -1.0;
      *out.terminated = s_ == kGoal;
    }
    write(out, p);
  }

  std::string get_state() const override { return pod_state(s_); }
  void set_state(std::string_view bytes) override { s_ = load_index_state(bytes, kStates); }

  // gymnasium's CliffWalkingEnv._render_gui: its images (sprites.h) blitted cell by cell.
  void render(const Frame& frame) override {
    // References into draw::load's cache: no copy per frame.
    const auto image = [&](const draw::Sprite& sprite) -> const draw::Pixels& { return draw::load(images_, sprite); };
    const draw::Pixels& ground = image(sprites::kCliffGround);
    const draw::Pixels& left = image(sprites::kCliffLeft);
    const draw::Pixels& right = image(sprites::kCliffRight);
    const draw::Pixels* const mid[2] = {&image(sprites::kCliffMidA), &image(sprites::kCliffMidB)};
    const draw::Pixels& letter_s = image(sprites::kCliffLetterS);
    const draw::Pixels& letter_g = image(sprites::kCliffLetterG);
    const draw::Pixels& flag = image(sprites::kCliffFlag);
    const draw::Pixels& agent = image(sprites::kCliffAgent);
    constexpr int kLetter = 8, kFlagX = 28, kFlagY = 16, kAgent = 20;  // gymnasium's offsets in a cell
    draw::Image img(kCols * kCell, kRows * kCell);
    for (std::int64_t s = 0; s < kStates; ++s) {
      const std::int64_t row = s / kCols, col = s % kCols;
      const int x = static_cast<int>(col) * kCell, y = static_cast<int>(row) * kCell;
      draw::blit(img, ground, x, y);
      if (is_cliff(row, col)) {
        draw::blit(img, col == 1 ? left : col == kCols - 2 ? right : *mid[col % 2], x, y);
      }
      if (s == kStart) draw::blit(img, letter_s, x + kLetter, y + kLetter);
      if (s == kGoal) {
        draw::blit(img, letter_g, x + kLetter, y + kLetter);
        draw::blit(img, flag, x + kFlagX, y + kFlagY);
      }
      if (s == s_) draw::blit(img, agent, x + kAgent, y + kAgent);
    }
    img.write_rgb(frame.rgb);
  }

 private:
  void write(const Output& out, double p) const {
    *out.obs_as<std::int64_t>() = s_;
    *out.info_as<double>(prob_) = p;
  }

  bool slippery_;
  std::size_t prob_;  // info entry
  std::int64_t s_ = kStart;  // gymnasium's env.unwrapped.s
  std::string images_;  // the _images option: where draw::load finds gymnasium's images
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "CliffWalking",
    .options = {{"is_slippery", false, "move in the intended direction or either side, each with probability 1/3"},
                {"_images", std::string(), "gymnasium's images, decoded (set by rlpool.images)"},},
    .spec = make_spec,
    .create = make_env<CliffWalking>(),
});

}  // namespace rlpool::toy_text
