// Autoreset modes: what the engine does after a step that ends an episode
// (the rules themselves are applied in episode.cc).
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rlpool {

// NextStep: the env's next step is a reset instead (gymnasium's default).
// SameStep: it resets within the ending step; the finished episode's last obs
//   and info go to the final_* fields of the same row.
// Disabled: it stays finished; stepping it is refused until it is reset.
enum class AutoresetMode { kNextStep, kSameStep, kDisabled };

// The modes' names, in enum order: the one place they are spelled (Python
// reads them as _rlpool_core.AUTORESET_MODES).
inline constexpr const char* kAutoresetModeNames[] = {"NextStep", "SameStep", "Disabled"};
static_assert(std::size(kAutoresetModeNames) == static_cast<std::size_t>(AutoresetMode::kDisabled) + 1);

// The mode called `name`; std::invalid_argument (Python: ValueError) listing
// the names if there is none.
inline AutoresetMode parse_autoreset_mode(std::string_view name) {
  std::string known;
  for (std::size_t m = 0; m < std::size(kAutoresetModeNames); ++m) {
    if (name == kAutoresetModeNames[m]) return static_cast<AutoresetMode>(m);
    known += m == 0 ? "" : m + 1 == std::size(kAutoresetModeNames) ? " or " : ", ";
    known += kAutoresetModeNames[m];
  }
  throw std::invalid_argument("autoreset_mode must be " + known + ", got " + std::string(name));
}

}  // namespace rlpool
