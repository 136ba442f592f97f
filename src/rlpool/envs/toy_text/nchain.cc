// NChain, as gym (<= 0.21) defined NChainEnv (Strens 2000, section 6.1):
// action 0 moves forward along the chain (reward `large` when already at its
// end, where it stays), action 1 returns to the start with reward `small`;
// with probability `slip` the action is flipped. The episode never
// terminates; gym cut it at 1000 steps.

#include "env.h"
#include "toy_text.h"

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
          return EnvSpec{.obs = {discrete("obs", Params(config).n)}, .action = discrete("action", 2), .info = {}};
        },
    .create = make_env<NChain>(),
});

}  // namespace rlpool::toy_text
