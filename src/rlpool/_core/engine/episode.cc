// step_or_reset (episode.h): one env's turn -- a reset or a step -- into its
// row of a batch block, with the engine's episode rules applied around it.
#include "_core/engine/episode.h"

#include <algorithm>
#include <cstring>

namespace rlpool {

namespace {

// Zeroes n values: for one or two agents (nearly every env) without the call
// to memset that std::fill_n makes of an unknown count, a few ns a row.
template <class T>
void zero(T* p, int n) {
  if (n == 1) {
    p[0] = T{};
  } else if (n == 2) {
    p[0] = T{};
    p[1] = T{};
  } else {
    std::fill_n(p, n, T{});
  }
}

bool time_limit_hit(const EpisodeRules& rules, const EpisodeState& state) {
  return rules.max_episode_steps > 0 && state.elapsed >= rules.max_episode_steps;
}

// A reset writing the row's obs and info. What it writes besides is dropped (a
// reset has no reward or flags); the env may go on with the same game, and
// then elapsed steps keep counting. Out of line: its scratch arrays would
// otherwise widen every step's stack frame.
[[gnu::noinline]] void reset_env(Env& env, Rng& rng, EpisodeState& state, const EpisodeRules& rules,
                                 void* const* obs, void* const* info, bool has_discount) {
  constexpr int kMaxAgentsOnStack = 256;
  static_assert(kMaxAgentsOnStack >= kMaxAgents);
  double unused_reward[kMaxAgentsOnStack];
  bool unused_flags[kMaxAgentsOnStack];
  float unused_discount = 1.0f;
  Output out{obs, info, unused_reward, unused_flags, has_discount ? &unused_discount : nullptr};
  bool continues = false;
  out.time_limit_hit = time_limit_hit(rules, state);
  out.continues_game = &continues;
  env.reset(rng, out);
  if (!continues) state.elapsed = 0;
}

}  // namespace

void step_or_reset(Env& env, Rng& rng, EpisodeState& state, const EpisodeRules& rules, const Action& action,
                   bool emit_only, Block& block, int row, int env_id) {
  const Layout& lay = block.layout();
  block.at<std::int32_t>(lay.env_id(), row) = env_id;  // first: recv() finds the env by it, even after a throw
  void* obs[kMaxObsEntries];  // Pool checks the spec's counts against these
  void* info[kMaxInfoEntries];
  for (std::size_t i = 0; i < lay.num_obs; ++i) obs[i] = block.row(i, row);
  for (std::size_t i = 0; i < lay.num_info; ++i) info[i] = block.row(lay.info(i), row);
  // One reward and flag per agent (a single-agent env has one), zero unless
  // a step writes them.
  const int agents = lay.agents;
  auto* reward = reinterpret_cast<double*>(block.row(lay.reward(), row));
  auto* terminated = reinterpret_cast<bool*>(block.row(lay.terminated(), row));
  auto* truncated = reinterpret_cast<bool*>(block.row(lay.truncated(), row));
  zero(reward, agents);
  zero(terminated, agents);
  zero(truncated, agents);
  float* discount = lay.has_discount() ? &block.at<float>(lay.discount(), row) : nullptr;
  if (discount != nullptr) *discount = 1.0f;

  if (state.resets_next()) {
    reset_env(env, rng, state, rules, obs, info, discount != nullptr);
    state.started = true;
    state.needs_reset = state.finished = state.reset_requested = false;
  } else {
    Output out{obs, info, reward, terminated, discount};
    out.truncated = truncated;  // the env's own truncation; the time limit is added below
    if (emit_only) {
      env.emit(out);
    } else {
      env.step(action, rng, out);
    }
    ++state.elapsed;
    // The time limit truncates every agent (terminated ones too, as gymnasium's
    // TimeLimit does); the episode is over once every agent is terminated or truncated.
    const bool limit = time_limit_hit(rules, state);
    bool over = true;
    for (int a = 0; a < agents; ++a) {
      truncated[a] = truncated[a] || limit;
      over = over && (terminated[a] || truncated[a]);
    }
    if (over) {
      switch (rules.autoreset) {
        case AutoresetMode::kNextStep:
          state.needs_reset = true;
          break;
        case AutoresetMode::kDisabled:
          state.finished = true;
          break;
        case AutoresetMode::kSameStep: {
          // Keep the finished episode's last obs and info, then reset in place;
          // reward, flags and discount stay those of the final step.
          for (std::size_t i = 0; i < lay.num_obs; ++i) {
            std::memcpy(block.row(lay.final_obs(i), row), obs[i], lay.fields[i].row_bytes);
          }
          for (std::size_t i = 0; i < lay.num_info; ++i) {
            std::memcpy(block.row(lay.final_info(i), row), info[i], lay.fields[lay.info(i)].row_bytes);
          }
          block.at<std::int32_t>(lay.final_elapsed_step(), row) = state.elapsed;
          // The final step's discount is kept: the reset writes a scratch one.
          reset_env(env, rng, state, rules, obs, info, discount != nullptr);
          break;
        }
      }
    }
  }
  block.at<std::int32_t>(lay.elapsed_step(), row) = state.elapsed;
}

}  // namespace rlpool
