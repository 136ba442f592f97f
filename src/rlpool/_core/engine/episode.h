// Episode semantics: the engine's side of an env's reset or step. An env
// implements only the dynamics; here are elapsed steps, the time limit
// (truncation), autoreset, the SameStep copies of the final obs and info, and
// when an env may be stepped at all.
//
// Plain data and one function, with no threads or pool in sight: the pool
// calls step_or_reset() on whichever thread runs the env, and
// tests/cpp/episode_test.cc calls it on a fake env.
#pragma once

#include "_core/engine/autoreset.h"
#include "_core/engine/batch_buffer.h"
#include "_core/env/env.h"

namespace rlpool {

// The most obs and info entries a spec may declare (Pool checks): a task with
// a value per achievement or per reward term (Craftax's 67 achievements) has
// many info entries.
constexpr std::size_t kMaxObsEntries = 16;
constexpr std::size_t kMaxInfoEntries = 128;

struct EpisodeRules {
  int max_episode_steps = 0;  // 0: no time limit
  AutoresetMode autoreset = AutoresetMode::kNextStep;
};

// Where one env stands in its episode.
struct EpisodeState {
  int elapsed = 0;               // steps into the episode (kept across a reset that continues the game)
  bool started = false;          // reset at least once
  bool needs_reset = false;      // NextStep: the episode ended, the next turn is a reset
  bool finished = false;         // Disabled: the episode ended, only a reset may follow
  bool reset_requested = false;  // the caller asked for a reset: the next turn is one

  // The env's next turn is a reset, not a step (a never-reset env is only stepped where the pool lets a
  // first step reset it).
  bool resets_next() const { return reset_requested || needs_reset || !started; }
  // After Env::set_state(): a running episode that may be stepped.
  void restored() {
    started = true;
    needs_reset = finished = false;
  }
};

enum class StepRefusal { kNone, kNeverReset, kFinished };
// Why an env in this state may not be stepped (kNone: it may). A reset is always allowed.
inline StepRefusal step_refusal(const EpisodeState& s) {
  if (!s.started) return StepRefusal::kNeverReset;
  if (s.finished) return StepRefusal::kFinished;
  return StepRefusal::kNone;
}

// One turn of env `env_id`, written into row `row` of `block`: a reset if one
// is requested or due, else a step with `action`; then the time limit and
// autoreset rules. `emit_only`: a two-phase env whose advance() the caller has
// already run, so the step only emits (ignored for a reset). Writes the row's
// env_id first, so that the row names its env even if the env throws.
void step_or_reset(Env& env, Rng& rng, EpisodeState& state, const EpisodeRules& rules, const Action& action,
                   bool emit_only, Block& block, int row, int env_id);

}  // namespace rlpool
