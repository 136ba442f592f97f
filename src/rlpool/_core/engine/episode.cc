// step_or_reset (episode.h): one env's turn -- a reset or a step -- into its
// row of a batch block, with the engine's episode rules applied around it.
#include "_core/engine/episode.h"

#include <algorithm>
#include <cstring>

namespace rlpool {

void step_or_reset(Env& env, Rng& rng, EpisodeState& state, const EpisodeRules& rules, const Action& action,
                   bool emit_only, Block& block, int row, int env_id) {
  const Layout& lay = block.layout();
  block.at<std::int32_t>(lay.env_id(), row) = env_id;  // first: recv() finds the env by it, even after a throw
  void* obs[16];  // Pool checks that a spec has at most 16 obs and 16 info entries
  void* info[16];
  for (std::size_t i = 0; i < lay.num_obs; ++i) obs[i] = block.row(i, row);
  for (std::size_t i = 0; i < lay.num_info; ++i) info[i] = block.row(lay.info(i), row);
  // One reward and flag per agent (a single-agent env has one).
  const int agents = lay.agents;
  auto* reward = reinterpret_cast<double*>(block.row(lay.reward(), row));
  auto* terminated = reinterpret_cast<bool*>(block.row(lay.terminated(), row));
  auto* truncated = reinterpret_cast<bool*>(block.row(lay.truncated(), row));
  const auto clear = [&] {
    std::fill_n(reward, agents, 0.0);
    std::fill_n(terminated, agents, false);
    std::fill_n(truncated, agents, false);
  };
  float* discount = lay.has_discount() ? &block.at<float>(lay.discount(), row) : nullptr;
  if (discount != nullptr) *discount = 1.0f;
  const auto time_limit_hit = [&] { return rules.max_episode_steps > 0 && state.elapsed >= rules.max_episode_steps; };
  // A reset: the env may go on with the same game (elapsed steps keep counting).
  const auto reset_env = [&](const Output& out) {
    bool continues = false;
    Output r = out;
    r.time_limit_hit = time_limit_hit();
    r.continues_game = &continues;
    env.reset(rng, r);
    if (!continues) state.elapsed = 0;
  };
  // What a reset writes besides obs and info is dropped: it has no reward or flags.
  constexpr int kMaxAgentsOnStack = 256;
  static_assert(kMaxAgentsOnStack >= kMaxAgents);
  double unused_reward[kMaxAgentsOnStack];
  bool unused_flags[kMaxAgentsOnStack];
  float unused_discount = 1.0f;
  const Output reset_out{obs, info, unused_reward, unused_flags, discount != nullptr ? &unused_discount : nullptr};

  if (state.resets_next()) {
    reset_env(reset_out);
    clear();
    state.started = true;
    state.needs_reset = state.finished = state.reset_requested = false;
  } else {
    clear();
    bool env_truncated[kMaxAgentsOnStack];
    std::fill_n(env_truncated, agents, false);
    Output out{obs, info, reward, terminated, discount};
    out.truncated = env_truncated;
    if (emit_only) {
      env.emit(out);
    } else {
      env.step(action, rng, out);
    }
    ++state.elapsed;
    // The time limit truncates every agent (terminated ones too, as gymnasium's
    // TimeLimit does); the episode is over once every agent is terminated or truncated.
    const bool limit = time_limit_hit();
    bool over = true;
    for (int a = 0; a < agents; ++a) {
      truncated[a] = env_truncated[a] || limit;
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
          reset_env(reset_out);
          break;
        }
      }
    }
  }
  block.at<std::int32_t>(lay.elapsed_step(), row) = state.elapsed;
}

}  // namespace rlpool
