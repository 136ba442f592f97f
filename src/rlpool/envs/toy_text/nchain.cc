// NChain, as gym (<= 0.21) defined NChainEnv (Strens 2000, section 6.1):
// action 0 moves forward along the chain (reward `large` when already at its
// end, where it stays), action 1 returns to the start with reward `small`;
// with probability `slip` the action is flipped. The episode never
// terminates; gym cut it at 1000 steps.
#include <cmath>
#include <memory>

#include "env.h"
#include "toy_text.h"

namespace rlpool::toy_text {
namespace {

double finite_option(const Config& config, const std::string& name) {
  const double v = config.get_double(name);
  if (!std::isfinite(v)) throw std::invalid_argument("NChain option '" + name + "' must be finite");
  return v;
}

double slip_of(const Config& config) {
  const double slip = config.get_double("slip");
  if (!(slip >= 0.0 && slip <= 1.0)) {
    throw std::invalid_argument("NChain slip must be in [0, 1], got " + std::to_string(slip));
  }
  return slip;
}

std::int64_t n_of(const Config& config) { return checked_int(config, "n", 1, std::int64_t{1} << 30); }

class NChain final : public Env {
 public:
  explicit NChain(const Config& config)
      : n_(n_of(config)),
        slip_(slip_of(config)),
        small_(finite_option(config, "small")),
        large_(finite_option(config, "large")) {}

  void reset(Rng& /*rng*/, const Output& out) override {
    s_ = 0;
    *out.obs_as<std::int64_t>() = s_;
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    bool backward = action.discrete() == 1;
    if (rng.uniform() < slip_) backward = !backward;  // slipped: the other action happens
    if (backward) {
      *out.reward = small_;
      s_ = 0;
    } else if (s_ < n_ - 1) {
      *out.reward = 0.0;
      ++s_;
    } else {
      *out.reward = large_;
    }
    *out.obs_as<std::int64_t>() = s_;
  }

  std::string get_state() const override { return pod_state(s_); }
  void set_state(std::string_view bytes) override { s_ = load_index_state(bytes, n_); }

 private:
  std::int64_t n_;
  double slip_;
  double small_;
  double large_;
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
          slip_of(config);  // checked here too, so that make_spec refuses bad options
          finite_option(config, "small");
          finite_option(config, "large");
          return EnvSpec{.obs = {discrete("obs", n_of(config))}, .action = discrete("action", 2), .info = {}};
        },
    .create = [](const Config& config) -> std::unique_ptr<Env> { return std::make_unique<NChain>(config); },
});

}  // namespace rlpool::toy_text
