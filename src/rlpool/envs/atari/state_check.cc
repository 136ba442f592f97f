// See state_check.h. Each section below follows one device's load() in ALE
// 0.12.1's emucore (System, M6502Low/High, M6532, TIA with its null sound,
// the cartridge types) and says which of its fields the emulator later uses
// as an index, a loop bound or a shift.
#include "envs/atari/state_check.h"

#include <limits>
#include <utility>
#include <stdexcept>
#include <string>

namespace rlpool::atari {
namespace {

constexpr std::int32_t kTrue = static_cast<std::int32_t>(0xfab1fab2u);  // Serializer's booleans
constexpr std::int32_t kFalse = static_cast<std::int32_t>(0xbad1bad2u);
constexpr std::int32_t kScanline = 228;                                 // TIA colour clocks per line
constexpr std::int32_t kVisibleWidth = 160;
constexpr std::int32_t kAny = std::numeric_limits<std::int32_t>::min();  // an entry of any value
constexpr std::int32_t kAll = std::numeric_limits<std::int32_t>::max();
// Clocks the TIA adds to or subtracts from others in int arithmetic: genuine
// ones stay within a few frames' clocks of zero (or at INT_MAX, "none").
constexpr std::int32_t kClockBound = 1 << 30;
constexpr std::int32_t kMaxFrames = kAll - (1 << 24);  // room for 16 million more frames before int overflow

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("not a valid Atari env state: " + what);
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : b_(bytes) {}

  std::size_t left() const { return b_.size() - at_; }

  std::int32_t i32(const char* what) {
    if (left() < 4) bad(std::string("it ends before the ") + what);
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b_[at_ + i]);
    at_ += 4;
    return static_cast<std::int32_t>(v);
  }

  std::int32_t in(const char* what, std::int32_t lo, std::int32_t hi) {
    const std::int32_t v = i32(what);
    if (v < lo || v > hi) {
      bad(std::string(what) + " is " + std::to_string(v) + " (valid: " + std::to_string(lo) + " to " +
          std::to_string(hi) + ")");
    }
    return v;
  }

  bool boolean(const char* what) {
    const std::int32_t v = i32(what);
    if (v != kTrue && v != kFalse) bad(std::string(what) + " is not a boolean");
    return v == kTrue;
  }

  std::string_view str(const char* what) {
    const std::int32_t n = i32(what);
    if (n < 0 || static_cast<std::size_t>(n) > left()) bad(std::string("the length of the ") + what + " is wrong");
    const std::string_view s = b_.substr(at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return s;
  }

  void name(const char* expected) {
    if (str("device name") != expected) bad(std::string("the ") + expected + " section is missing");
  }

  void skip(std::size_t n, const char* what) {
    if (left() < n) bad(std::string("it ends inside the ") + what);
    at_ += n;
  }

 private:
  std::string_view b_;
  std::size_t at_ = 0;
};

// The walk of one snapshot; with `expected` (the game's genuine layout) it
// also holds every learned quantity to it.
struct Walk {
  Reader& r;
  std::vector<std::int32_t>& counts;
  const std::vector<std::int32_t>* want;

  // An array's length: the genuine snapshot's (ALE writes that many entries
  // into a fixed buffer), or while learning, one the bytes left can hold.
  std::int32_t length(const char* what) {
    const std::int32_t n = r.i32(what);
    if (want != nullptr) {
      const std::size_t k = counts.size();
      if (k >= want->size() || n != (*want)[k]) {
        bad(std::string("the ") + what + " has " + std::to_string(n) + " entries" +
            (k < want->size() ? ", not " + std::to_string((*want)[k]) : std::string()));
      }
    } else if (n < 0 || static_cast<std::size_t>(n) > r.left() / 4) {
      bad(std::string("the length of the ") + what + " is wrong");
    }
    counts.push_back(n);
    return n;
  }

  // An array of ints, each within [lo, hi].
  void array(const char* what, std::int32_t lo, std::int32_t hi) {
    for (std::int32_t i = length(what); i > 0; --i) r.in(what, lo, hi);
  }

  void bools(const char* what) {
    for (std::int32_t i = length(what); i > 0; --i) r.boolean(what);
  }
};


// The cartridge's section after its name. A bank (or slice) number becomes
// an offset into the ROM image, unmasked: it must name one of the ROM's.
void cartridge(std::string_view type, Walk& w) {
  Reader& r = w.r;
  const auto banked = [&](std::int32_t banks) { r.in("cartridge bank", 0, banks - 1); };
  if (type == "Cartridge2K" || type == "Cartridge4K" || type == "CartridgeFE") {
    return;  // no state
  }
  if (type == "CartridgeF8" || type == "CartridgeUA") return banked(2);
  if (type == "CartridgeF6") return banked(4);
  if (type == "CartridgeF4") return banked(8);
  if (type == "Cartridge3F" || type == "CartridgeMB") {
    r.in("cartridge bank", 0, 0xFFFF);  // reduced modulo the ROM's banks, or masked, by ALE
    return;
  }
  const auto ram_banked = [&](std::int32_t banks) {
    banked(banks);
    w.array("cartridge RAM", kAny, kAll);
  };
  if (type == "CartridgeF8SC") return ram_banked(2);
  if (type == "CartridgeF6SC") return ram_banked(4);
  if (type == "CartridgeF4SC") return ram_banked(8);
  if (type == "CartridgeFASC") return ram_banked(3);
  if (type == "CartridgeCV") return w.array("cartridge RAM", kAny, kAll);
  if (type == "CartridgeE0") return w.array("cartridge slices", 0, 7);  // 1 KiB slices of an 8 KiB ROM
  if (type == "CartridgeE7") {
    w.array("cartridge slices", 0, 7);  // 2 KiB slices of a 16 KiB ROM
    r.in("cartridge RAM bank", 0, 3);
    w.array("cartridge RAM", kAny, kAll);
    return;
  }
  if (type == "CartridgeDPC") {
    banked(2);
    w.array("DPC tops", kAny, kAll);
    w.array("DPC bottoms", kAny, kAll);
    w.array("DPC counters", 0, 0x07FF);  // the display ROM is read at 2047 - counter
    w.array("DPC flags", kAny, kAll);
    w.bools("DPC music modes");
    r.i32("DPC random number");
    r.i32("DPC system cycles");
    r.i32("DPC fractional clocks");
    return;
  }
  // AR (Supercharger), MC, 0840, 4A50, 3E: their loaders restore offsets
  // and RAM layouts that are not checked here.
  bad("restoring a " + std::string(type) + " cartridge's state is not supported");
}

}  // namespace

StateCheck::StateCheck(std::string_view with_rng, std::string_view without_rng) {
  layout_ = walk(with_rng, nullptr, 0);
  const Layout plain = walk(without_rng, nullptr, 0);
  // Without the generator the tail is the game's fields and one boolean.
  if (plain.tail < 4 || plain.md5 != layout_.md5 || plain.counts != layout_.counts) {
    throw std::logic_error("rlpool: ALE's snapshot layout is not the one state_check.cc was written for");
  }
  game_bytes_ = plain.tail - 4;
  check(with_rng);  // the walk and the learned sizes agree with ALE's own output
  check(without_rng);
}

void StateCheck::check(std::string_view snapshot) const { walk(snapshot, &layout_, game_bytes_); }

StateCheck::Layout StateCheck::walk(std::string_view snapshot, const Layout* expected, std::size_t game_bytes) {
  Layout L;
  Reader outer(snapshot);
  const std::int32_t left_paddle = outer.i32("left paddle");
  const std::int32_t right_paddle = outer.i32("right paddle");
  // ALE adds the frames of each step to both counters in int arithmetic.
  const std::int32_t frames = outer.in("frame number", 0, kMaxFrames);
  outer.in("episode frame number", 0, frames);
  L.mode = outer.i32("game mode");
  L.difficulty = outer.i32("game difficulty");
  const std::string_view console = outer.str("console snapshot");
  L.paddle_min = outer.i32("paddle minimum");
  L.paddle_max = outer.i32("paddle maximum");
  if (outer.left() != 0) bad("it has bytes after its end");
  if (expected != nullptr) {
    if (L.mode != expected->mode || L.difficulty != expected->difficulty) {
      bad("it was taken in game mode " + std::to_string(L.mode) + ", difficulty " + std::to_string(L.difficulty) +
          "; this env plays mode " + std::to_string(expected->mode) + ", difficulty " +
          std::to_string(expected->difficulty));
    }
    if (L.paddle_min != expected->paddle_min || L.paddle_max != expected->paddle_max) {
      bad("its paddle range is not this env's");
    }
  }
  // ALE keeps the paddles within their range (their resistance is computed from it).
  for (const auto& [what, v] : {std::pair{"left paddle", left_paddle}, std::pair{"right paddle", right_paddle}}) {
    if (v < L.paddle_min || v > L.paddle_max) {
      bad(std::string(what) + " is " + std::to_string(v) + " (valid: " + std::to_string(L.paddle_min) + " to " +
          std::to_string(L.paddle_max) + ")");
    }
  }

  Reader r(console);
  Walk w{r, L.counts, expected != nullptr ? &expected->counts : nullptr};

  L.md5 = std::string(r.str("ROM checksum"));
  if (expected != nullptr && L.md5 != expected->md5) bad("it was taken with another ROM");
  r.name("System");
  r.i32("system cycles");
  r.str("system generator");  // parsed by ALE as text; a malformed one leaves the generator as it was

  // The 6502's registers are 8 or 16 bits wide, stored masked.
  L.cpu = std::string(r.str("CPU name"));
  if (L.cpu != "M6502Low" && L.cpu != "M6502High") bad("its CPU section is missing");
  if (expected != nullptr && L.cpu != expected->cpu) bad("its CPU is another model");
  for (const char* reg : {"CPU A", "CPU X", "CPU Y", "CPU SP", "CPU IR", "CPU PC"}) r.i32(reg);
  for (const char* flag : {"CPU N", "CPU V", "CPU B", "CPU D", "CPU I", "CPU Z", "CPU C"}) r.boolean(flag);
  r.i32("CPU execution status");
  if (L.cpu == "M6502High") {
    r.i32("CPU distinct accesses");
    r.i32("CPU last address");
  }

  // The RIOT: its interval shifts the timer by 0, 3, 6 or 10 bits (the four
  // timer registers); any other is a shift the C++ leaves undefined.
  r.name("M6532");
  w.array("RIOT RAM", kAny, kAll);
  r.in("RIOT timer", 0, 255);  // an 8-bit register, shifted left by the interval
  const std::int32_t shift = r.i32("RIOT timer interval");
  if (shift != 0 && shift != 3 && shift != 6 && shift != 10) {
    bad("RIOT timer interval is " + std::to_string(shift) + " (valid: 0, 3, 6 or 10)");
  }
  r.i32("RIOT cycles when timer set");
  r.i32("RIOT cycles when interrupt reset");
  r.boolean("RIOT timer read flag");
  r.i32("RIOT DDRA");
  r.i32("RIOT DDRB");

  // The TIA. Its clocks place the frame pointer: the display window is a
  // fixed distance from the frame's start (learned), the frame starts within
  // the current scanline, and a scanline has 228 clocks.
  r.name("TIA");
  const std::int32_t frame = r.in("TIA frame start clock", -(kScanline - 1), 0);
  const std::int32_t start = r.i32("TIA display start clock");
  const std::int32_t stop = r.i32("TIA display stop clock");
  L.start_offset = std::int64_t{start} - frame;  // in 64 bits: a crafted clock must not overflow
  L.stop_offset = std::int64_t{stop} - frame;
  if (expected != nullptr && (L.start_offset != expected->start_offset || L.stop_offset != expected->stop_offset)) {
    bad("its TIA display window is not this game's");
  }
  if (L.start_offset < 0 || L.stop_offset < L.start_offset) bad("its TIA display window is inverted");
  r.in("TIA clock at last update", frame, stop);
  r.in("TIA clocks to the end of the scanline", 0, kScanline);
  r.i32("TIA scanlines in the last frame");
  r.i32("TIA current scanline");
  r.in("TIA VSYNC finish clock", -kClockBound, kAll);
  for (const char* reg : {"TIA enabled objects", "TIA VSYNC", "TIA VBLANK", "TIA NUSIZ0", "TIA NUSIZ1",
                          "TIA COLUP0", "TIA COLUP1", "TIA COLUPF", "TIA COLUBK", "TIA CTRLPF",
                          "TIA playfield priority"}) {
    r.i32(reg);  // stored as 8-bit (colours: 32-bit) values, read masked
  }
  r.boolean("TIA REFP0");
  r.boolean("TIA REFP1");
  for (const char* reg : {"TIA PF", "TIA GRP0", "TIA GRP1", "TIA DGRP0", "TIA DGRP1"}) r.i32(reg);
  for (const char* flag : {"TIA ENAM0", "TIA ENAM1", "TIA ENABL", "TIA DENABL"}) r.boolean(flag);
  // Motion registers index the 16 columns of the HMOVE table.
  for (const char* reg : {"TIA HMP0", "TIA HMP1", "TIA HMM0", "TIA HMM1", "TIA HMBL"}) r.in(reg, 0, 15);
  for (const char* flag : {"TIA VDELP0", "TIA VDELP1", "TIA VDELBL", "TIA RESMP0", "TIA RESMP1"}) r.boolean(flag);
  r.i32("TIA collisions");
  // Positions index the object mask tables, one entry per visible pixel.
  for (const char* pos : {"TIA player 0 position", "TIA player 1 position", "TIA missile 0 position",
                          "TIA missile 1 position", "TIA ball position"}) {
    r.in(pos, 0, kVisibleWidth - 1);
  }
  r.i32("TIA current GRP0");
  r.i32("TIA current GRP1");
  r.in("TIA last HMOVE clock", -kClockBound, kClockBound);
  r.boolean("TIA HMOVE blank flag");
  r.boolean("TIA Cosmic Ark flag");
  r.in("TIA Cosmic Ark counter", 0, 3);
  r.boolean("TIA dump flag");
  r.in("TIA dump disabled cycle", -kClockBound, kClockBound);
  r.name("TIASound");  // ALE's null sound reads its registers and drops them
  for (int i = 0; i < 7; ++i) r.i32("TIA sound registers");

  L.cart = std::string(r.str("cartridge type"));
  if (L.cart.rfind("Cartridge", 0) != 0) bad("its cartridge section is missing");
  if (expected != nullptr && L.cart != expected->cart) bad("it was taken with another cartridge type");
  cartridge(L.cart, w);
  L.tail = r.left();

  if (expected != nullptr) {
    r.skip(game_bytes, "game's own fields");  // counters of score and lives; no sizes or indices
    if (r.boolean("generator flag")) r.str("ALE generator");
    if (r.left() != 0) bad("its console snapshot has bytes after its end");
  }
  return L;
}

}  // namespace rlpool::atari
