// NChain, as gym (<= 0.21) defined NChainEnv (Strens 2000, section 6.1):
// action 0 moves forward along the chain (reward `large` when already at its
// end, where it stays), action 1 returns to the start with reward `small`;
// with probability `slip` the action is flipped. The episode never
// terminates; gym cut it at 1000 steps.

#include <algorithm>

#include "_core/env/env.h"
#include "envs/toy_text/toy_text.h"

namespace rlpool::toy_text {
namespace {

// The options, checked; the spec reads them too, so that make_spec refuses bad ones.
struct Params {
  std::int64_t n;
  double slip, small, large;

  explicit Params(const Config& c)
      : n(c.get_int_in("n", 1, std::int64_t{1} << 30)),
        slip(c.get_double_in("slip", 0.0, 1.0)),
        small(c.get_finite("small")),
        large(c.get_finite("large")) {}
};

// The side of one state's square in render(): 64 pixels, less for chains over
// 16 states (the row stays within 1024 pixels), at least 2; chains of more
// than 4096 states have no picture.
int render_cell(std::int64_t n) { return static_cast<int>(std::clamp<std::int64_t>(1024 / n, 2, 64)); }
constexpr std::int64_t kMaxRenderedStates = 4096;

class NChain final : public Env {
 public:
  explicit NChain(const Config& config) : p_(config) {}

  void reset(Rng& /*rng*/, const Output& out) override {
    s_ = 0;
    *out.obs_as<std::int64_t>() = s_;
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    bool backward = action.discrete() == 1;
    if (rng.uniform() < p_.slip) backward = !backward;  // slipped: the other action happens
    if (backward) {
      *out.reward = p_.small;
      s_ = 0;
    } else if (s_ < p_.n - 1) {
      *out.reward = 0.0;
      ++s_;
    } else {
      *out.reward = p_.large;
    }
    *out.obs_as<std::int64_t>() = s_;
  }

  std::string get_state() const override { return pod_state(s_); }
  void set_state(std::string_view bytes) override { s_ = load_index_state(bytes, p_.n); }

  // gym 0.21 drew no picture: the chain as a row of squares (render_cell), light
  // grey with a darker border, the one the agent is on blue.
  void render(const Frame& frame) override {
    const int cell = render_cell(p_.n);
    const std::size_t row_bytes = static_cast<std::size_t>(frame.width) * 3;
    for (int y = 0; y < frame.height; ++y) {
      for (int x = 0; x < frame.width; ++x) {
        const bool border = y == 0 || y == cell - 1 || x % cell == 0 || x % cell == cell - 1;
        const bool agent = x / cell == s_;
        const std::uint8_t rgb[3] = {static_cast<std::uint8_t>(border ? 120 : agent ? 65 : 220),
                                     static_cast<std::uint8_t>(border ? 120 : agent ? 105 : 220),
                                     static_cast<std::uint8_t>(border ? 120 : agent ? 225 : 220)};
        std::copy_n(rgb, 3, frame.rgb + static_cast<std::size_t>(y) * row_bytes + static_cast<std::size_t>(x) * 3);
      }
    }
  }

 private:
  const Params p_;
  std::int64_t s_ = 0;  // position on the chain
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "NChain",
    .options =
        {
            {"n", std::int64_t{5}, "number of states in the chain"},
            {"slip", 0.2, "probability that the action is flipped"},
            {"small", 2.0, "reward of action 1 (back to the start)"},
            {"large", 10.0, "reward of action 0 at the end of the chain"},
        },
    .spec =
        [](const Config& config) {
          const std::int64_t n = Params(config).n;
          const bool drawn = n <= kMaxRenderedStates;
          return EnvSpec{.obs = {discrete("obs", n)},
                         .action = discrete("action", 2),
                         .info = {},
                         .render_width = drawn ? static_cast<int>(n) * render_cell(n) : 0,
                         .render_height = drawn ? render_cell(n) : 0};
        },
    .create = make_env<NChain>(),
});

}  // namespace rlpool::toy_text
