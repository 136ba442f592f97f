// Autoreset mode names (src/rlpool/_core/autoreset.h): each name parses to its
// mode, anything else is refused with the names listed.
#include "_core/engine/autoreset.h"

#include <stdexcept>
#include <string>

#include "check.h"

using namespace rlpool;

namespace {

void names_parse_to_their_modes() {
  CHECK_EQ(parse_autoreset_mode("NextStep"), AutoresetMode::kNextStep);
  CHECK_EQ(parse_autoreset_mode("SameStep"), AutoresetMode::kSameStep);
  CHECK_EQ(parse_autoreset_mode("Disabled"), AutoresetMode::kDisabled);
  for (const char* name : kAutoresetModeNames) {
    CHECK_EQ(std::string(kAutoresetModeNames[static_cast<int>(parse_autoreset_mode(name))]), std::string(name));
  }
}

void unknown_name_is_refused() {
  for (const char* bad : {"", "nextstep", "NEXT_STEP", "NextStep "}) {
    std::string message;
    try {
      parse_autoreset_mode(bad);
    } catch (const std::invalid_argument& e) {
      message = e.what();
    }
    CHECK_EQ(message, "autoreset_mode must be NextStep, SameStep or Disabled, got " + std::string(bad));
  }
}

}  // namespace

int main() {
  RUN(names_parse_to_their_modes);
  RUN(unknown_name_is_refused);
  return check::report();
}
