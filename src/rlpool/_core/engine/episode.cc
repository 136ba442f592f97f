// step_or_reset (episode.h): one env's turn -- a reset or a step -- into its
// row of a batch block, with the engine's episode rules applied around it.
#include "_core/engine/episode.h"

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
  double& reward = block.at<double>(lay.reward(), row);
  bool& terminated = block.at<bool>(lay.terminated(), row);
  bool& truncated = block.at<bool>(lay.truncated(), row);
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

  if (state.resets_next()) {
    reset_env(Output{obs, info, &reward, &terminated, discount});
    reward = 0.0;
    terminated = truncated = false;
    state.started = true;
    state.needs_reset = state.finished = state.reset_requested = false;
  } else {
    reward = 0.0;
    terminated = false;
    bool env_truncated = false;
    Output out{obs, info, &reward, &terminated, discount};
    out.truncated = &env_truncated;
    if (emit_only) {
      env.emit(out);
    } else {
      env.step(action, rng, out);
    }
    ++state.elapsed;
    truncated = env_truncated || time_limit_hit();
    if (terminated || truncated) {
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
          double unused_reward = 0.0;
          bool unused_terminated = false;
          float unused_discount = 1.0f;
          reset_env(Output{obs, info, &unused_reward, &unused_terminated,
                           discount != nullptr ? &unused_discount : nullptr});
          break;
        }
      }
    }
  }
  block.at<std::int32_t>(lay.elapsed_step(), row) = state.elapsed;
}

}  // namespace rlpool
