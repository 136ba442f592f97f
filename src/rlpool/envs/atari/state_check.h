// Checks an ALE console snapshot (the bytes of ALEState::serialize()) field
// by field before ALE loads any of it. ALE's loaders trust their input: an
// array's length read from the blob is the bound of a loop that writes into a
// fixed buffer, a bank number becomes an offset into the ROM image, a TIA
// object position an index into a table; a crafted blob with a valid
// checksum would crash the process (or corrupt its heap) at the load or at
// the next step. The walk follows the loaders of the ALE release that
// family.cmake pins (0.12.1): Serializer ints are 4 bytes little-endian,
// strings a length then their bytes, booleans one of two magic ints.
//
// What cannot be named from the blob alone (the game's own fields, which
// have only a size; the array lengths; the display window) is learned from
// genuine snapshots of the same game, so a layout change in a future ALE
// fails at the first env made, not at a user's set_state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rlpool::atari {

class StateCheck {
 public:
  // From two genuine snapshots of this game: one with ALE's generator in
  // it and one without (their difference locates the game's fields).
  StateCheck(std::string_view with_rng, std::string_view without_rng);

  // Throws std::invalid_argument naming the first field that is malformed
  // or out of the range the emulator can be in.
  void check(std::string_view snapshot) const;

 private:
  struct Layout {
    std::string md5, cpu, cart;
    // The env's settings, which a state may not change: a mode the game lacks
    // makes every later reset throw, and the paddles' range bounds them.
    std::int32_t mode = 0, difficulty = 0, paddle_min = 0, paddle_max = 0;
    std::vector<std::int32_t> counts;  // every array's length, in order
    std::int64_t start_offset = 0, stop_offset = 0;  // TIA display window - frame start
    std::size_t tail = 0;  // bytes after the cartridge: the game's fields, then ALE's generator
  };
  static Layout walk(std::string_view snapshot, const Layout* expected, std::size_t game_bytes);

  Layout layout_;
  std::size_t game_bytes_ = 0;
};

}  // namespace rlpool::atari
