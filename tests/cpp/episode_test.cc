// Episode rules (src/rlpool/_core/episode.h) on a scripted fake env, one turn
// at a time, without a pool: time-limit truncation, each autoreset mode,
// SameStep's copies of the final obs and info, Disabled refusing steps, and a
// reset that continues the game keeping its elapsed steps.
#include "_core/engine/episode.h"

#include <memory>
#include <stdexcept>

#include "check.h"

using namespace rlpool;

namespace {

// Observation: {games started, steps into the current game}; info "lives":
// 100 + steps ever taken; reward: 10 + action. Action 99 throws. Two-phase:
// step() is advance() then emit().
class FakeEnv final : public Env {
 public:
  int terminate_at = 0;        // a game terminates after this many steps (0: never)
  int truncate_at = 0;         // the env itself truncates a game after this many steps (0: never)
  bool continue_game = false;  // a reset goes on with the same game, unless the time limit ended it
  float step_discount = 0.5f;  // written by steps if the spec has a discount
  int resets = 0, steps = 0;   // steps: advances, whether by step() or advance()
  int step_calls = 0, emit_calls = 0;
  bool last_time_limit_hit = false;

  void reset(Rng& /*rng*/, const Output& out) override {
    ++resets;
    last_time_limit_hit = out.time_limit_hit;
    *out.reward = -1.0;  // scribbles: the engine must overwrite them
    *out.terminated = true;
    if (continue_game && !out.time_limit_hit) {
      *out.continues_game = true;
    } else {
      ++games_;
      game_steps_ = 0;
    }
    write(out);
  }
  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    ++step_calls;
    work(action);
    results(out);
  }
  bool two_phase() const override { return true; }
  void advance(const Action& action, Rng& /*rng*/) override { work(action); }
  void emit(const Output& out) override {
    ++emit_calls;
    results(out);
  }

 private:
  void work(const Action& action) {
    if (action.discrete() == 99) throw std::runtime_error("fake env fails on action 99");
    ++steps;
    ++game_steps_;
    last_action_ = action.discrete();
  }
  void results(const Output& out) const {
    *out.reward = 10.0 + static_cast<double>(last_action_);
    *out.terminated = terminate_at > 0 && game_steps_ >= terminate_at;
    if (truncate_at > 0 && game_steps_ >= truncate_at) *out.truncated = true;
    if (out.discount != nullptr) *out.discount = step_discount;
    write(out);
  }
  void write(const Output& out) const {
    out.obs_as<double>()[0] = games_;
    out.obs_as<double>()[1] = game_steps_;
    *out.info_as<std::int32_t>(0) = 100 + steps;
  }
  int games_ = 0;
  int game_steps_ = 0;
  std::int64_t last_action_ = 0;
};

constexpr int kRow = 1;     // not row 0, so that a row mix-up shows
constexpr int kEnvId = 7;

// One env, its episode state and a two-row batch block to play turns into.
struct Harness {
  explicit Harness(AutoresetMode mode, int max_episode_steps = 0, bool has_discount = false)
      : rules{max_episode_steps, mode} {
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", DType::kFloat64, {2}, {}, {}});
    spec.info.push_back(ArraySpec{"lives", DType::kInt32, {}, {}, {}});
    spec.action = ArraySpec{"action", DType::kInt64, {}, {0}, {100}};
    spec.has_discount = has_discount;
    layout = std::make_shared<Layout>(spec, mode);
    block = std::make_unique<Block>(layout, 2);
  }

  // One turn with `action`; emit_only as for a two-phase env in async mode.
  void turn(std::int64_t action = 0, bool emit_only = false) {
    step_or_reset(env, rng, state, rules, Action{&action}, emit_only, *block, kRow, kEnvId);
  }
  void reset() {
    state.reset_requested = true;
    turn();
  }

  double obs_at(int i) { return reinterpret_cast<double*>(block->row(0, kRow))[i]; }
  double final_obs_at(int i) { return reinterpret_cast<double*>(block->row(layout->final_obs(0), kRow))[i]; }
  double reward() { return block->at<double>(layout->reward(), kRow); }
  bool terminated() { return block->at<bool>(layout->terminated(), kRow); }
  bool truncated() { return block->at<bool>(layout->truncated(), kRow); }
  int elapsed_step() { return block->at<std::int32_t>(layout->elapsed_step(), kRow); }
  int env_id() { return block->at<std::int32_t>(layout->env_id(), kRow); }
  int lives() { return block->at<std::int32_t>(layout->info(0), kRow); }
  int final_lives() { return block->at<std::int32_t>(layout->final_info(0), kRow); }
  int final_elapsed_step() { return block->at<std::int32_t>(layout->final_elapsed_step(), kRow); }
  float discount() { return block->at<float>(layout->discount(), kRow); }

  EpisodeRules rules;
  std::shared_ptr<Layout> layout;
  std::unique_ptr<Block> block;
  FakeEnv env;
  Rng rng;
  EpisodeState state;
};

void never_reset_refuses_steps() {
  EpisodeState s;
  CHECK_EQ(step_refusal(s), StepRefusal::kNeverReset);
  // The pool refuses the step unless it lets a first step reset (EnvPool mode); then the turn is a reset.
  CHECK(s.resets_next());
}

void first_turn_of_a_never_reset_env_is_a_reset() {
  Harness h(AutoresetMode::kNextStep);
  h.turn(/*action=*/5);
  CHECK_EQ(h.env.resets, 1);
  CHECK_EQ(h.env.steps, 0);
  CHECK_EQ(h.reward(), 0.0);
  CHECK_EQ(h.elapsed_step(), 0);
  CHECK(h.state.started);
  h.turn(/*action=*/5);
  CHECK_EQ(h.env.steps, 1);
  CHECK_EQ(h.elapsed_step(), 1);
}

void requested_reset_starts_an_episode() {
  Harness h(AutoresetMode::kNextStep, 0, /*has_discount=*/true);
  h.reset();
  CHECK_EQ(h.env.resets, 1);
  CHECK(h.state.started);
  CHECK(!h.state.reset_requested);
  CHECK_EQ(step_refusal(h.state), StepRefusal::kNone);
  CHECK_EQ(h.env_id(), kEnvId);
  CHECK_EQ(h.elapsed_step(), 0);
  CHECK_EQ(h.reward(), 0.0);  // whatever the env wrote
  CHECK(!h.terminated());
  CHECK(!h.truncated());
  CHECK_EQ(h.discount(), 1.0f);
  CHECK_EQ(h.obs_at(0), 1.0);
  CHECK(h.block->at<std::int32_t>(h.layout->env_id(), 0) == 0);  // the other row untouched
}

void steps_count_elapsed() {
  Harness h(AutoresetMode::kNextStep);
  h.reset();
  for (int i = 1; i <= 3; ++i) {
    h.turn(/*action=*/i);
    CHECK_EQ(h.elapsed_step(), i);
    CHECK_EQ(h.state.elapsed, i);
    CHECK_EQ(h.reward(), 10.0 + i);
    CHECK(!h.terminated());
    CHECK(!h.truncated());
  }
  CHECK_EQ(h.env.steps, 3);
  CHECK_EQ(h.env.resets, 1);
}

void time_limit_truncates_then_next_step_resets() {
  Harness h(AutoresetMode::kNextStep, /*max_episode_steps=*/3);
  h.reset();
  h.turn();
  h.turn();
  CHECK(!h.truncated());
  h.turn();
  CHECK(h.truncated());
  CHECK(!h.terminated());
  CHECK_EQ(h.elapsed_step(), 3);
  CHECK(h.state.needs_reset);
  CHECK(h.state.resets_next());
  CHECK_EQ(h.env.resets, 1);  // NextStep: not yet
  h.turn(/*action=*/5);       // this step is a reset instead
  CHECK_EQ(h.env.resets, 2);
  CHECK_EQ(h.env.steps, 3);
  CHECK(h.env.last_time_limit_hit);
  CHECK_EQ(h.elapsed_step(), 0);
  CHECK(!h.truncated());
  CHECK_EQ(h.reward(), 0.0);
  CHECK(!h.state.needs_reset);
}

void no_time_limit_when_zero() {
  Harness h(AutoresetMode::kNextStep, /*max_episode_steps=*/0);
  h.reset();
  for (int i = 0; i < 1000; ++i) h.turn();
  CHECK(!h.truncated());
  CHECK_EQ(h.elapsed_step(), 1000);
}

void next_step_after_termination() {
  Harness h(AutoresetMode::kNextStep, /*max_episode_steps=*/10);
  h.env.terminate_at = 2;
  h.reset();
  h.turn();
  h.turn();
  CHECK(h.terminated());
  CHECK(!h.truncated());
  CHECK_EQ(h.elapsed_step(), 2);
  CHECK_EQ(h.obs_at(1), 2.0);  // the final observation, in the row itself
  CHECK(h.state.needs_reset);
  h.turn();
  CHECK_EQ(h.env.resets, 2);
  CHECK(!h.env.last_time_limit_hit);
  CHECK_EQ(h.elapsed_step(), 0);
  CHECK(!h.terminated());
  h.turn();
  CHECK_EQ(h.elapsed_step(), 1);
}

void same_step_resets_in_place_and_keeps_the_final_obs() {
  Harness h(AutoresetMode::kSameStep, /*max_episode_steps=*/10, /*has_discount=*/true);
  h.env.terminate_at = 2;
  h.env.step_discount = 0.25f;
  h.reset();
  h.turn(/*action=*/1);
  CHECK_EQ(h.final_elapsed_step(), 0);  // not an ending step: final fields untouched
  CHECK_EQ(h.final_obs_at(1), 0.0);
  h.turn(/*action=*/4);
  CHECK_EQ(h.env.resets, 2);  // in the same turn
  // The finished episode's last obs and info...
  CHECK_EQ(h.final_obs_at(0), 1.0);
  CHECK_EQ(h.final_obs_at(1), 2.0);
  CHECK_EQ(h.final_lives(), 102);
  CHECK_EQ(h.final_elapsed_step(), 2);
  // ...the new episode's first obs...
  CHECK_EQ(h.obs_at(0), 2.0);
  CHECK_EQ(h.obs_at(1), 0.0);
  CHECK_EQ(h.elapsed_step(), 0);
  // ...and the final step's reward, flags and discount, not the reset's.
  CHECK_EQ(h.reward(), 14.0);
  CHECK(h.terminated());
  CHECK(!h.truncated());
  CHECK_EQ(h.discount(), 0.25f);
  CHECK(!h.state.resets_next());
  h.turn();  // a plain step of the new episode
  CHECK_EQ(h.env.resets, 2);
  CHECK_EQ(h.elapsed_step(), 1);
  CHECK(!h.terminated());
}

void same_step_on_time_limit() {
  Harness h(AutoresetMode::kSameStep, /*max_episode_steps=*/2);
  h.reset();
  h.turn();
  h.turn();
  CHECK(h.truncated());
  CHECK_EQ(h.env.resets, 2);
  CHECK(h.env.last_time_limit_hit);
  CHECK_EQ(h.final_elapsed_step(), 2);
  CHECK_EQ(h.elapsed_step(), 0);
}

void disabled_finishes_and_refuses_steps_until_reset() {
  Harness h(AutoresetMode::kDisabled, /*max_episode_steps=*/10);
  h.env.terminate_at = 1;
  h.reset();
  h.turn();
  CHECK(h.terminated());
  CHECK(h.state.finished);
  CHECK(!h.state.resets_next());
  CHECK_EQ(h.env.resets, 1);  // no reset of its own
  CHECK_EQ(h.elapsed_step(), 1);
  CHECK_EQ(step_refusal(h.state), StepRefusal::kFinished);
  h.reset();
  CHECK_EQ(h.env.resets, 2);
  CHECK(!h.state.finished);
  CHECK_EQ(step_refusal(h.state), StepRefusal::kNone);
  CHECK_EQ(h.elapsed_step(), 0);
}

void disabled_finishes_on_time_limit() {
  Harness h(AutoresetMode::kDisabled, /*max_episode_steps=*/1);
  h.reset();
  h.turn();
  CHECK(h.truncated());
  CHECK_EQ(step_refusal(h.state), StepRefusal::kFinished);
  h.reset();
  CHECK(h.env.last_time_limit_hit);
}

void continued_game_keeps_elapsed_towards_the_time_limit() {
  // An Atari-style lost life: the reset continues the game, so the time limit
  // counts from the game's start, not the life's.
  Harness h(AutoresetMode::kNextStep, /*max_episode_steps=*/5);
  h.env.terminate_at = 2;
  h.reset();
  h.env.continue_game = true;
  h.turn();
  h.turn();
  CHECK(h.terminated());
  h.turn();  // the reset: continues
  CHECK_EQ(h.env.resets, 2);
  CHECK_EQ(h.elapsed_step(), 2);
  h.env.terminate_at = 0;
  h.turn();
  h.turn();
  CHECK(!h.truncated());
  CHECK_EQ(h.elapsed_step(), 4);
  h.turn();
  CHECK(h.truncated());
  CHECK_EQ(h.elapsed_step(), 5);
  h.turn();  // the time limit ended the game: a new one, from 0
  CHECK(h.env.last_time_limit_hit);
  CHECK_EQ(h.elapsed_step(), 0);
}

void continued_game_in_same_step() {
  Harness h(AutoresetMode::kSameStep, /*max_episode_steps=*/100);
  h.env.terminate_at = 2;
  h.reset();
  h.env.continue_game = true;
  h.turn();
  h.turn();
  CHECK(h.terminated());
  CHECK_EQ(h.env.resets, 2);
  CHECK_EQ(h.final_elapsed_step(), 2);
  CHECK_EQ(h.elapsed_step(), 2);  // kept through the in-place reset
  h.env.terminate_at = 0;
  h.turn();
  CHECK_EQ(h.elapsed_step(), 3);
}

void emit_only_for_two_phase_steps() {
  Harness h(AutoresetMode::kNextStep);
  h.reset();
  std::int64_t action = 3;
  h.env.advance(Action{&action}, h.rng);  // the pool runs advance() before picking the row
  h.turn(/*action=*/0, /*emit_only=*/true);
  CHECK_EQ(h.env.steps, 1);
  CHECK_EQ(h.env.step_calls, 0);
  CHECK_EQ(h.env.emit_calls, 1);
  CHECK_EQ(h.reward(), 13.0);
  CHECK_EQ(h.elapsed_step(), 1);
}

void row_names_its_env_even_if_the_env_throws() {
  Harness h(AutoresetMode::kNextStep);
  h.reset();
  h.block->at<std::int32_t>(h.layout->env_id(), kRow) = -1;
  bool threw = false;
  try {
    h.turn(/*action=*/99);
  } catch (const std::runtime_error&) {
    threw = true;
  }
  CHECK(threw);
  CHECK_EQ(h.env_id(), kEnvId);
  CHECK_EQ(h.state.elapsed, 0);
}

void env_truncation_ends_the_episode() {
  Harness h(AutoresetMode::kNextStep, /*max_episode_steps=*/10);
  h.env.truncate_at = 3;
  h.reset();
  h.turn();
  h.turn();
  CHECK(!h.truncated());
  h.turn();
  CHECK(h.truncated());
  CHECK(!h.terminated());
  CHECK_EQ(h.elapsed_step(), 3);
  h.turn();  // NextStep: the reset
  CHECK_EQ(h.env.resets, 2);
  CHECK(!h.truncated());
  CHECK_EQ(h.elapsed_step(), 0);
}

void restored_state_may_be_stepped() {
  EpisodeState s;
  s.finished = true;
  s.needs_reset = true;
  s.restored();
  CHECK(s.started);
  CHECK(!s.resets_next());
  CHECK_EQ(step_refusal(s), StepRefusal::kNone);
}

}  // namespace

int main() {
  RUN(never_reset_refuses_steps);
  RUN(first_turn_of_a_never_reset_env_is_a_reset);
  RUN(requested_reset_starts_an_episode);
  RUN(steps_count_elapsed);
  RUN(time_limit_truncates_then_next_step_resets);
  RUN(no_time_limit_when_zero);
  RUN(next_step_after_termination);
  RUN(same_step_resets_in_place_and_keeps_the_final_obs);
  RUN(same_step_on_time_limit);
  RUN(disabled_finishes_and_refuses_steps_until_reset);
  RUN(disabled_finishes_on_time_limit);
  RUN(continued_game_keeps_elapsed_towards_the_time_limit);
  RUN(continued_game_in_same_step);
  RUN(emit_only_for_two_phase_steps);
  RUN(row_names_its_env_even_if_the_env_throws);
  RUN(env_truncation_ends_the_episode);
  RUN(restored_state_may_be_stepped);
  return check::report();
}
