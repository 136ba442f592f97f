// Full Craftax's state as bytes and back (full_state.cc): craftax 1.6.1's
// EnvState (craftax/craftax/craftax_state.py) as the concatenation of
// jax.tree_util.tree_leaves(state), each leaf raw little-endian, bools one
// byte, in leaf order (full_state.h's field order). In Python:
// b"".join(np.asarray(l).tobytes() for l in jax.tree_util.tree_leaves(state)).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "envs/craftax/full_state.h"

namespace rlpool::craftax::full {

// The size of a saved state in bytes (273,276).
std::size_t saved_state_size();

// The state's leaves as bytes.
std::string save_state(const State& state);

// A state from its bytes; every field is checked against what craftax's own
// states hold, and a bad one throws std::invalid_argument naming it.
State load_state(std::string_view bytes);

}  // namespace rlpool::craftax::full
