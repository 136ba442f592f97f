// Craftax-Classic's game functions, one per function of craftax 1.6.1's
// craftax_classic (world_gen.py, game_logic.py, renderer.py), each in the file
// named beside it. The step (classic_logic.cc: craftax_step) calls them in
// craftax's order and threads the jax keys as craftax does; each takes the
// key craftax passes it and draws from it exactly as craftax does.
#pragma once

#include <cstdint>

#include "_core/env/jax_random.h"
#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {

using jax_random::Key;

// world_gen.py generate_world(rng, params, static_params) (classic_worldgen.cc):
// the initial state of an episode.
State generate_world(Key rng, const Params& params);

// game_logic.py craftax_step(rng, state, action, params, static_params)
// (classic_logic.cc): the next state and the step's reward (float32, as
// craftax computes it). The caller checks the action's range.
State craftax_step(Key rng, const State& state, std::int32_t action, const Params& params, float* reward);

// game_logic.py is_game_over(state, params, static_params) (classic_logic.cc).
bool is_game_over(const State& state, const Params& params);

// game_logic.py update_mobs / spawn_mobs (classic_mobs.cc): in place.
void update_mobs(Key rng, State& state, const Params& params);
void spawn_mobs(State& state, Key rng, const Params& params);

// game_logic.py calculate_light_level(timestep, params) (classic_logic.cc).
float calculate_light_level(std::int32_t timestep, const Params& params);

// renderer.py render_craftax_symbolic(state) (classic_obs.cc): kSymbolicObsSize floats.
void render_symbolic(const State& state, float* obs);

// envs/common.py compute_score's "score" (classic_obs.cc).
float compute_score(const State& state, bool done);

}  // namespace rlpool::craftax::classic
