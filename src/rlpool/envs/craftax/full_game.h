// Full Craftax's game functions, one per function of craftax 1.6.1's
// craftax/game_logic.py and renderer.py, each in the file named beside it
// (world generation is full_state.h's generate_world, full_worldgen.cc; the
// small shared rules of util/game_logic_utils.py are full_utils.h). The step
// (full_logic.cc: craftax_step) calls them in craftax's order and threads the
// jax keys as craftax does; each takes the key craftax passes it and draws
// from it exactly as craftax does. All work in place on the state.
#pragma once

#include <cstdint>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_state.h"

namespace rlpool::craftax::full {

constexpr int kSymbolicObsSize = 8268;  // 9 * 11 * 83 + 51

// game_logic.py craftax_step(rng, state, action, params, static_params)
// (full_logic.cc): the next state and the step's reward (float32, as craftax
// computes it). The caller checks the action's range.
State craftax_step(Key rng, const State& state, std::int32_t action, const Params& params, float* reward);

// game_logic.py is_game_over(state, params, static_params) (full_logic.cc).
bool is_game_over(const State& state, const Params& params);

// game_logic.py do_action(rng, state, action, static_params), with
// add_items_from_chest and the plant helpers (full_actions.cc).
void do_action(Key rng, State& state, std::int32_t action);

// game_logic.py do_crafting(state, action) (full_actions.cc).
void do_crafting(State& state, std::int32_t action);

// game_logic.py place_block(state, action, static_params) (full_actions.cc).
void place_block(State& state, std::int32_t action);

// game_logic.py update_mobs(rng, state, params, static_params) (full_mobs.cc).
void update_mobs(Key rng, State& state, const Params& params);

// game_logic.py spawn_mobs(state, rng, params, static_params) (full_spawn.cc).
void spawn_mobs(State& state, Key rng, const Params& params);

// renderer.py render_craftax_symbolic(state) (full_obs.cc): kSymbolicObsSize floats.
void render_symbolic(const State& state, float* obs);

}  // namespace rlpool::craftax::full
