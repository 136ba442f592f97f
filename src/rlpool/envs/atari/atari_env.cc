// Atari 2600 games on the Arcade Learning Environment (ALE 0.12.1, built from
// the ale-py sdist by family.cmake), with EnvPool's options and defaults and
// the preprocessing of gymnasium's AtariPreprocessing + FrameStackObservation:
// frame skip, max-pool of the last two frames, grayscale or RGB, INTER_AREA
// (or INTER_LINEAR) resize, channel-first frame stack.
//
// One step: frame_skip ALE frames with the chosen action. The frame before the
// last is kept, the last one is max-ed with it into the pooling buffer, the
// result is resized into the newest slot of the env's frame ring, and the ring
// is copied oldest-first into the observation row.
//
// A step that ends the game (or, with episodic_life, loses a life) stops its
// frame skip there, and its newest frame is what gymnasium's AtariPreprocessing
// (terminal_on_life_loss=episodic_life) returns, whose pooling buffers keep
// what the last step left in them: the max of the previous step's frame and
// this step's frame before the last when the end came on the last frame, else
// the previous step's frame again. With envpool_frame_skip, EnvPool's: a lost
// life does not stop the skip, and an early end shows the final screen when it
// came on the frame before the last, else the previous step's frame.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/resize.h"
#include "ale/ale_interface.hpp"
#include "ale/emucore/MD5.hxx"
#include "envs/atari/state_check.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RLPOOL_ATARI_X86 1
#endif

namespace rlpool::atari {
namespace {

// Most games draw 210 rows; some draw more (Adventure, AirRaid, Carnival,
// JourneyEscape, KeystoneKapers, KingKong, Klax, LaserGates, MrDo, Pacman,
// Pooyan, SirLancelot, SpaceWar: 214 to 250). The env uses each game's own
// height, as ALE reports it and gymnasium's AtariPreprocessing resizes it;
// crop_210 keeps only the top 210 rows, as EnvPool 1.2.5 does.
constexpr int kRawHeight = 210;
constexpr int kRawWidth = 160;
constexpr std::size_t kRamSize = 128;
constexpr int kMaxStack = 64;
constexpr int kMaxFrameSkip = 1000;
constexpr int kMaxImageSide = 1024;
constexpr std::uintmax_t kMaxRomBytes = 16u << 20;

// Quiet ALE's per-env banner and info lines once for the process.
const bool kLoggerQuiet = [] {
  ale::Logger::setMode(ale::Logger::Error);
  return true;
}();

// What a ROM file is, as ALE's own checks see it: read once at spec time so
// that a bad path or unsupported ROM is a clear error instead of ALE's exit().
struct RomInfo {
  std::unique_ptr<ale::RomSettings> settings;
};

RomInfo inspect_rom(const std::string& path) {
  if (path.empty()) {
    throw std::invalid_argument(
        "rom_path is empty: the Atari ROMs come from the ale-py package; install it (pip install ale-py==0.12.1)");
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument("rom_path '" + path + "' is not a file (is ale-py installed, or ALE_ROMS_DIR right?)");
  }
  // The largest 2600 cartridges ALE knows are well under 1 MiB: anything far
  // bigger is not a ROM, and reading it whole could take gigabytes.
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw std::invalid_argument("cannot read rom_path '" + path + "': " + ec.message());
  if (size > kMaxRomBytes) {
    throw std::invalid_argument("rom_path '" + path + "' has " + std::to_string(size) +
                                " bytes, more than any Atari ROM (at most " + std::to_string(kMaxRomBytes) + ")");
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> rom((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw std::invalid_argument("cannot read rom_path '" + path + "'");
  const std::string md5 = ale::stella::MD5(rom.data(), static_cast<std::uint32_t>(rom.size()));
  std::unique_ptr<ale::RomSettings> settings(ale::buildRomRLWrapper(path, md5));
  if (!settings || md5 != settings->md5()) {
    throw std::invalid_argument("rom_path '" + path + "' is not a ROM that ALE supports (unknown MD5 " + md5 + ")");
  }
  return RomInfo{std::move(settings)};
}

struct Options {
  std::string rom_path;
  int stack_num, frame_skip, noop_max, img_height, img_width, mode, difficulty;
  bool zero_discount_on_life_loss, episodic_life, reward_clip, use_fire_reset, gray_scale, full_action_space,
      use_inter_area_resize, crop_210, envpool_frame_skip;
  double repeat_action_probability;

  explicit Options(const Config& c)
      : rom_path(c.get_string("rom_path")),
        stack_num(static_cast<int>(c.get_int_in("stack_num", 1, kMaxStack))),
        frame_skip(static_cast<int>(c.get_int_in("frame_skip", 1, kMaxFrameSkip))),
        noop_max(static_cast<int>(c.get_int_in("noop_max", 0, 100000))),
        img_height(static_cast<int>(c.get_int_in("img_height", 1, kMaxImageSide))),
        img_width(static_cast<int>(c.get_int_in("img_width", 1, kMaxImageSide))),
        mode(static_cast<int>(c.get_int_in("mode", -1, 1 << 20))),
        difficulty(static_cast<int>(c.get_int_in("difficulty", -1, 1 << 20))),
        zero_discount_on_life_loss(c.get_bool("zero_discount_on_life_loss")),
        episodic_life(c.get_bool("episodic_life")),
        reward_clip(c.get_bool("reward_clip")),
        use_fire_reset(c.get_bool("use_fire_reset")),
        gray_scale(c.get_bool("gray_scale")),
        full_action_space(c.get_bool("full_action_space")),
        use_inter_area_resize(c.get_bool("use_inter_area_resize")),
        crop_210(c.get_bool("crop_210")),
        envpool_frame_skip(c.get_bool("envpool_frame_skip")),
        repeat_action_probability(c.get_double_in("repeat_action_probability", 0.0, 1.0)) {}

  int channels() const { return gray_scale ? 1 : 3; }
};

ale::ActionVect action_set(ale::RomSettings& settings, bool full) {
  return full ? settings.getAllActions() : settings.getMinimalActionSet();
}

// The ROM's modes/difficulties must contain the requested ones (-1: the ROM's default).
void check_mode(ale::RomSettings& settings, const Options& o) {
  auto list = [](const auto& v) {
    std::string s;
    for (auto m : v) s += (s.empty() ? "" : ", ") + std::to_string(m);
    return s;
  };
  if (o.mode >= 0) {
    const auto modes = settings.getAvailableModes();
    if (std::find(modes.begin(), modes.end(), static_cast<ale::game_mode_t>(o.mode)) == modes.end()) {
      throw std::invalid_argument("mode " + std::to_string(o.mode) + " is not available for this game; available: " +
                                  list(modes) + " (or -1 for the default)");
    }
  }
  if (o.difficulty >= 0) {
    const auto diffs = settings.getAvailableDifficulties();
    if (std::find(diffs.begin(), diffs.end(), static_cast<ale::difficulty_t>(o.difficulty)) == diffs.end()) {
      throw std::invalid_argument("difficulty " + std::to_string(o.difficulty) +
                                  " is not available for this game; available: " + list(diffs) +
                                  " (or -1 for the default)");
    }
  }
}

// The same for every game and configuration, so the env reads its positions
// here rather than from a whole spec (which inspects the ROM).
std::vector<ArraySpec> info_entries() {
  return {
      ArraySpec{.name = "lives", .dtype = DType::kInt32, .shape = {}, .low = {}, .high = {}},
      // EnvPool's dtypes, so that scripts written for EnvPool see the same info.
      ArraySpec{.name = "reward", .dtype = DType::kFloat32, .shape = {}, .low = {}, .high = {}},
      ArraySpec{.name = "terminated", .dtype = DType::kInt32, .shape = {}, .low = {}, .high = {}},
      ArraySpec{
          .name = "ram", .dtype = DType::kUInt8, .shape = {static_cast<std::int64_t>(kRamSize)}, .low = {}, .high = {}},
  };
}

EnvSpec make_spec(const Config& config) {
  const Options o(config);
  RomInfo rom = inspect_rom(o.rom_path);
  check_mode(*rom.settings, o);
  const auto actions = action_set(*rom.settings, o.full_action_space);
  const std::int64_t c = o.channels();
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs",
                        .dtype = DType::kUInt8,
                        .shape = {c * o.stack_num, o.img_height, o.img_width},
                        .low = {0},
                        .high = {255}}},
      .action = ArraySpec{.name = "action",
                          .dtype = DType::kInt64,
                          .shape = {},
                          .low = {0},
                          .high = {static_cast<double>(actions.size()) - 1}},
      .info = info_entries(),
      // dm_env's discount is 0 on a lost life, as EnvPool's (the episode goes on).
      .has_discount = o.zero_discount_on_life_loss,
      // ALE's RGB screen, 160 x 210 as EnvPool renders it (render() explains taller games).
      .render_width = kRawWidth,
      .render_height = kRawHeight,
      .render_any_size = true,
  };
}

// Whether the AVX2 kernels (the frame pooling below, the resize) may run: the
// CPU has AVX2 and RLPOOL_ATARI_SIMD is not "portable" (which forces the
// SSE2/scalar kernels, for tests). Results are identical.
bool use_avx2() {
  static const bool ok = [] {
    const char* forced = std::getenv("RLPOOL_ATARI_SIMD");
    if (forced != nullptr && std::string(forced) == "portable") return false;
    return cpu_has_avx2();
  }();
  return ok;
}

#if defined(RLPOOL_ATARI_X86)
// dst[i] = max(gray[a[i]], gray[b[i]]) over all 256 palette values, 32 pixels
// at a time: the 256-entry table as sixteen 16-entry vpshufb lookups (luts[j][l]
// and luts[j][16 + l] = gray[16 * j + l], one copy per 128-bit lane). Most games
// draw only even values (the TIA ignores bit 0), but some do not (AirRaid), so
// no bit is dropped. For lookup j, x - 16j lands in 0..15 (then +0x70 keeps
// bit 7 clear and the low nibble) or in 16..255 (then +0x70 saturates at or past
// 0x80 and vpshufb gives 0).
__attribute__((target("avx2"))) void pool_gray_avx2(const std::uint8_t* a, const std::uint8_t* b,
                                                     const std::uint8_t (*luts)[32], std::uint8_t* dst, int n) {
  __m256i table[16];
  for (int j = 0; j < 16; ++j) table[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(luts[j]));
  const __m256i bias = _mm256_set1_epi8(0x70);
  auto lookup = [&](__m256i x) __attribute__((target("avx2"))) {
    __m256i r = _mm256_setzero_si256();
    for (int j = 0; j < 16; ++j) {
      const __m256i idx = _mm256_adds_epu8(_mm256_sub_epi8(x, _mm256_set1_epi8(static_cast<char>(16 * j))), bias);
      r = _mm256_or_si256(r, _mm256_shuffle_epi8(table[j], idx));
    }
    return r;
  };
  int i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i xa = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i xb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_max_epu8(lookup(xa), lookup(xb)));
  }
  for (; i < n; ++i) dst[i] = std::max(luts[a[i] >> 4][a[i] & 15], luts[b[i] >> 4][b[i] & 15]);
}
#endif

class AtariEnv final : public Env {
 public:
  explicit AtariEnv(const Config& config)
      : o_(config),
        md5_(inspect_rom(o_.rom_path).settings->md5()),
        frame_bytes_(static_cast<std::size_t>(o_.channels()) * o_.img_height * o_.img_width),
        resizer_(make_resizer(kRawHeight)),
        pooled_(raw_size() * static_cast<std::size_t>(o_.channels())),
        kept_rgb_(o_.gray_scale ? 0 : pooled_.size()),
        ring_(frame_bytes_ * static_cast<std::size_t>(o_.stack_num)),
        info_(info_entries()) {}

  void reset(Rng& rng, const Output& out) override {
    // The power-on console on the first reset and whenever the engine re-seeded
    // this env (gymnasium's reset(seed=...) reloads the ROM); otherwise a new
    // episode continues the same console, as gymnasium's reset() does. The
    // engine touches the Rng only to re-seed it, so a changed stream means that.
    if (!ale_ || !same_stream(rng, rng_after_reset_)) load(rng);
    bool new_game = true;
    // episodic_life, as EnvPool: after a lost life the game plays on (and the
    // time limit keeps counting), unless the time limit ended the episode.
    if (o_.episodic_life && life_lost_ && !ale_->game_over(false) && !out.time_limit_hit) {
      new_game = false;
      if (out.continues_game != nullptr) *out.continues_game = true;
    } else {
      ale_->reset_game();
    }
    life_lost_ = false;
    int noops = o_.noop_max > 0 ? static_cast<int>(rng.integer(static_cast<std::uint64_t>(o_.noop_max))) + 1 : 0;
    if (fire_reset_) noops = std::max(noops - 1, 0);  // EnvPool: the FIRE takes the last no-op's place
    for (int i = 0; i < noops; ++i) {
      ale_->act(ale::PLAYER_A_NOOP);
      if (ale_->game_over(false)) {
        ale_->reset_game();
        new_game = true;
      }
    }
    if (fire_reset_) ale_->act(ale::PLAYER_A_FIRE);
    convert(pooled_.data());
    push_frame(new_game);
    lives_ = ale_->lives();
    write(out, 0.0, false);
    rng_after_reset_ = rng;
  }

  // Two phases (see Env::two_phase): in async mode the engine picks the output
  // row after advance(), so emit() writes the frame stack straight into the
  // batch that Python receives.
  bool two_phase() const override { return true; }

  void step(const Action& action, Rng& rng, const Output& out) override {
    advance(action, rng);
    emit(out);
  }

  void advance(const Action& action, Rng& /*rng*/) override {
    const ale::Action a = actions_[static_cast<std::size_t>(action.discrete())];
    std::int64_t reward = 0;
    const int k = o_.frame_skip;
    // gymnasium's terminal_on_life_loss stops the skip at a lost life; EnvPool's episodic_life does not.
    const bool stop_on_life_loss = o_.episodic_life && !o_.envpool_frame_skip;
    bool over = false, stopped = false;
    int i = 0;
    for (; i < k; ++i) {
      reward += ale_->act(a);
      over = ale_->game_over(false);
      stopped = over || (stop_on_life_loss && ale_->lives() < lives_);
      if (stopped) break;
      if (i == k - 2) keep_screen();
    }
    // The newest frame: the pool of frames k-1 and k; the screen (frame_skip 1, or EnvPool's when the game ended
    // on the frame before the last); gymnasium's pool of the previous frame and frame k-1 (its skip stopped on
    // the last frame); or the previous frame again (any other early end).
    const bool on_last = k >= 2 && i == k - 1;
    if (stopped && !o_.envpool_frame_skip) {
      if (on_last) {
        push_frame(false, pool_with_previous());
      } else {
        repeat_frame();
      }
    } else if ((!stopped && k >= 2) || on_last) {
      push_frame(false, pool());
    } else if (!stopped || k == 1 || i == k - 2) {
      convert(pooled_.data());
      push_frame(false);
    } else {
      repeat_frame();
    }
    const int lives = ale_->lives();
    const bool lost = lives < lives_;
    bool terminated = over;
    // EnvPool does not end an episode on the loss of a last life that leaves the game running; gymnasium does.
    if (o_.episodic_life && lost && (lives > 0 || !o_.envpool_frame_skip)) {
      terminated = true;
      life_lost_ = !over;
    }
    lives_ = lives;
    step_ = StepResult{reward, over, terminated, lost};
  }

  void emit(const Output& out) override {
    *out.terminated = step_.terminated;
    const std::int64_t reward = step_.reward;
    write(out, static_cast<double>(reward), step_.game_over);
    *out.reward = o_.reward_clip ? static_cast<double>((reward > 0) - (reward < 0)) : static_cast<double>(reward);
    if (out.discount != nullptr && step_.life_lost) *out.discount = 0.0f;
  }

  // State: a header (format, the ROM's MD5, sizes, lives and flags), the frame
  // stack and the unresized newest frame (a step that ends the game early
  // shows it again), then ALE's serialized state (console, RAM, its generator).
  std::string get_state() const override {
    if (!ale_) throw std::logic_error("reset the env before taking its state");
    ale::ALEState st = ale_->cloneState(/*include_rng=*/true);
    const std::string emu = st.serialize();
    StateHeader h{};
    std::memcpy(h.magic, kStateMagic, sizeof(h.magic));
    std::memcpy(h.md5, md5_.data(), std::min(md5_.size(), sizeof(h.md5)));
    std::string frames(reinterpret_cast<const char*>(ring_.data()), ring_.size());
    frames.append(reinterpret_cast<const char*>(pooled_.data()), pooled_.size());
    h.ring_bytes = frames.size();
    h.emu_bytes = emu.size();
    h.head = head_;
    h.lives = lives_;
    h.life_lost = life_lost_;
    h.checksum = checksum(h, frames, emu);
    std::string out(reinterpret_cast<const char*>(&h), sizeof(h));
    out += frames;
    out += emu;
    return out;
  }

  // ALE's getScreenRGB. Asked for 160 columns and no more rows than the
  // game's screen has, the frame is its top rows, bitwise (at the default
  // 160 x 210, EnvPool's crop of the taller games); any other size is the
  // whole screen resized.
  void render(const Frame& frame) override {
    if (!ale_) throw std::logic_error("reset the env before rendering it");
    std::vector<unsigned char> rgb;
    ale_->getScreenRGB(rgb);
    const int screen_h = static_cast<int>(ale_->getScreen().height());
    if (frame.width == kRawWidth && frame.height <= screen_h) {
      std::memcpy(frame.rgb, rgb.data(), static_cast<std::size_t>(frame.height) * kRawWidth * 3);
    } else {
      resize_rgb(rgb.data(), kRawWidth, screen_h, frame.rgb, frame.width, frame.height);
    }
  }

  void set_state(std::string_view bytes) override {
    StateHeader h{};
    if (bytes.size() < sizeof(h)) throw std::invalid_argument("not an Atari env state: too short");
    std::memcpy(&h, bytes.data(), sizeof(h));
    if (std::memcmp(h.magic, kStateMagic, sizeof(h.magic)) != 0) {
      throw std::invalid_argument("not an Atari env state (or one of another format version)");
    }
    if (std::string_view(h.md5, sizeof(h.md5)) != std::string_view(md5_).substr(0, sizeof(h.md5))) {
      throw std::invalid_argument("this state belongs to another game");
    }
    if (ale_) {
      restore(h, bytes);
      return;
    }
    Rng unused(0);
    load(unused);  // the console, and the frame sizes of this game's screen
    try {
      restore(h, bytes);
    } catch (...) {
      ale_.reset();  // a refused state leaves a never-reset env as it was
      throw;
    }
  }

 private:
  // Version 3: with the unresized newest frame.
  static constexpr char kStateMagic[8] = {'r', 'l', 'p', 'A', 't', 'a', 'r', '3'};
  struct StateHeader {
    char magic[8];
    char md5[32];
    std::uint64_t ring_bytes, emu_bytes;  // ring_bytes: the frame stack and the unresized newest frame
    std::uint64_t checksum;  // of the other fields and the bytes after the header
    std::int32_t head, lives;
    std::uint8_t life_lost;
  };

  // set_state's checks past the header's magic and game, then the restore.
  void restore(const StateHeader& h, std::string_view bytes) {
    if (h.ring_bytes != ring_.size() + pooled_.size() || bytes.size() != sizeof(h) + h.ring_bytes + h.emu_bytes ||
        h.head < 0 || h.head >= o_.stack_num) {
      throw std::invalid_argument("this state was taken with other observation options (stack_num, image size or "
                                  "colour) or is truncated");
    }
    // The checksum refuses accidental damage with a message that says so;
    // the field-by-field check below refuses the rest (a crafted blob, or
    // one signed after an edit) before ALE, which trusts every field, reads it.
    const std::string_view ring = bytes.substr(sizeof(h), h.ring_bytes);
    if (checksum(h, ring, bytes.substr(sizeof(h) + h.ring_bytes)) != h.checksum) {
      throw std::invalid_argument("this Atari env state is corrupted (its checksum does not match its bytes)");
    }
    const std::string emu(bytes.substr(sizeof(h) + h.ring_bytes));
    ale::ALEState before = ale_->cloneState(/*include_rng=*/true);
    if (!state_check_) state_check_.emplace(before.serialize(), ale_->cloneState(/*include_rng=*/false).serialize());
    state_check_->check(emu);
    // ALE still reports what it finds wrong by throwing a C string, possibly
    // after restoring part of it: the env goes back to where it was.
    try {
      ale_->restoreState(ale::ALEState(emu));
    } catch (const char* what) {
      ale_->restoreState(before);
      throw std::invalid_argument(std::string("not a valid Atari env state: ") + what);
    } catch (const std::length_error& e) {
      ale_->restoreState(before);
      throw std::invalid_argument(std::string("not a valid Atari env state: ") + e.what());
    }
    std::memcpy(ring_.data(), bytes.data() + sizeof(h), ring_.size());
    std::memcpy(pooled_.data(), bytes.data() + sizeof(h) + ring_.size(), pooled_.size());
    head_ = h.head;
    lives_ = h.lives;
    life_lost_ = h.life_lost != 0;
    have_old_ = false;  // the pooled frame is no longer the kept screens'
  }

  // A 64-bit hash, 8 bytes a step: each step (xor a word, multiply by an odd
  // constant) is invertible, so a change confined to one word always changes
  // the result; other corruptions go unseen with odds of about 2^-64.
  // The header's fields are hashed one by one (its padding bytes carry nothing).
  static std::uint64_t checksum(const StateHeader& h, std::string_view ring, std::string_view emu) {
    std::uint64_t x = 0xcbf29ce484222325ull;
    const auto mix = [&x](std::string_view b) {
      std::size_t i = 0;
      for (; i + 8 <= b.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, b.data() + i, 8);
        x = (x ^ w) * 0x100000001b3ull;
      }
      std::uint64_t w = b.size() - i;  // the tail, and the length it ends
      for (; i < b.size(); ++i) w = (w << 8) | static_cast<std::uint8_t>(b[i]);
      x = (x ^ w) * 0x100000001b3ull;
      x ^= x >> 29;
    };
    const auto field = [&mix](const auto& v) { mix(std::string_view(reinterpret_cast<const char*>(&v), sizeof(v))); };
    field(h.magic);
    field(h.md5);
    field(h.ring_bytes);
    field(h.emu_bytes);
    field(h.head);
    field(h.lives);
    field(h.life_lost);
    mix(ring);
    mix(emu);
    return x;
  }

  // Puts the console in its power-on state (the ROM freshly loaded, as
  // gymnasium's seeded reset leaves it) and seeds ALE's own generator, which
  // draws only the sticky-action repeats. Loading a ROM costs ALE ~0.1 s (it
  // builds colour tables), so later calls restore a snapshot of that state.
  void load(Rng& rng) {
    const auto ale_seed = static_cast<std::uint32_t>(rng.next() >> 33);
    if (ale_) {
      ale_->restoreState(*power_on_);
      ale_->environment->getEnvironmentRNG().seed(ale_seed);
      life_lost_ = false;
      have_old_ = false;
      return;
    }
    auto ale = std::make_unique<ale::ALEInterface>();
    ale->setFloat("repeat_action_probability", static_cast<float>(o_.repeat_action_probability));
    ale->setInt("random_seed", static_cast<int>(ale_seed));
    ale->loadROM(o_.rom_path);
    if (o_.mode >= 0) ale->setMode(static_cast<ale::game_mode_t>(o_.mode));
    if (o_.difficulty >= 0) ale->setDifficulty(static_cast<ale::difficulty_t>(o_.difficulty));
    power_on_ = std::make_unique<ale::ALEState>(ale->cloneState(/*include_rng=*/true));
    actions_ = o_.full_action_space ? ale->getLegalActionSet() : ale->getMinimalActionSet();
    fire_reset_ = o_.use_fire_reset &&
                  std::find(actions_.begin(), actions_.end(), ale::PLAYER_A_FIRE) != actions_.end();
    // Colour lookup tables from ALE's palette, for every screen value.
    std::array<std::uint8_t, 256> index{};
    for (int v = 0; v < 256; ++v) index[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);
    auto& palette = ale->theOSystem->colourPalette();
    // ALE's palette interleaves colour and gray (gray of v at entry v + 1):
    // asked for 255 it would read past the table's end. Screens hold even
    // values; an odd one comes only from a colour register set by a state.
    palette.applyPaletteGrayscale(gray_.data(), index.data(), 255);
    gray_[255] = 0;
    std::array<std::uint8_t, 3 * 256> rgb{};
    palette.applyPaletteRGB(rgb.data(), index.data(), 256);
    for (std::size_t v = 0; v < 256; ++v) {
      for (std::size_t c = 0; c < 3; ++c) rgb_[c][v] = rgb[3 * v + c];
    }
    for (std::size_t j = 0; j < 16; ++j) {
      for (std::size_t l = 0; l < 16; ++l) luts_[j][l] = luts_[j][16 + l] = gray_[16 * j + l];
    }
    // The game's own screen height (known once its ROM is loaded); the
    // buffers above were sized for the usual 210 rows.
    const int screen_h = static_cast<int>(ale->getScreen().height());
    const int h = o_.crop_210 ? std::min(screen_h, kRawHeight) : screen_h;
    if (static_cast<int>(ale->getScreen().width()) != kRawWidth || h <= 0) {
      throw std::runtime_error("ALE reports a " + std::to_string(ale->getScreen().width()) + "x" +
                               std::to_string(screen_h) + " screen; the Atari env expects 160 columns");
    }
    if (h != raw_h_) {
      raw_h_ = h;
      resizer_ = make_resizer(h);
      pooled_.assign(raw_size() * static_cast<std::size_t>(o_.channels()), 0);
      if (!o_.gray_scale) kept_rgb_.assign(pooled_.size(), 0);
      screen_a_.assign(raw_size(), 0);
      screen_b_.assign(raw_size(), 0);
      dirty_a_.assign(static_cast<std::size_t>(h), 0);
      row_dirty_.assign(static_cast<std::size_t>(h), 0);
    }
    ale_ = std::move(ale);
    life_lost_ = false;
  }

  Resizer make_resizer(int raw_h) const {
    return Resizer(raw_h, kRawWidth, o_.img_height, o_.img_width, o_.channels(),
                   o_.use_inter_area_resize ? Resizer::Method::kArea : Resizer::Method::kLinear, use_avx2());
  }
  std::size_t raw_size() const { return static_cast<std::size_t>(raw_h_) * kRawWidth; }

  // Current screen -> dst (gray, or interleaved RGB).
  void convert(std::uint8_t* dst) {
    have_old_ = false;  // pooled_ no longer comes from the kept screens
    if (o_.gray_scale) {
      const std::uint8_t* s = ale_->getScreen().getArray();
      for (std::size_t i = 0, n = raw_size(); i < n; ++i) dst[i] = gray_[s[i]];
    } else {
      convert_rgb(dst);
    }
  }

  void convert_rgb(std::uint8_t* dst) const {
    const std::uint8_t* s = ale_->getScreen().getArray();
    for (std::size_t i = 0, n = raw_size(); i < n; ++i) {
      dst[3 * i] = rgb_[0][s[i]];
      dst[3 * i + 1] = rgb_[1][s[i]];
      dst[3 * i + 2] = rgb_[2][s[i]];
    }
  }

  // The frame before the last of a step: gray keeps its palette indices (the
  // pooling looks both frames up at once), RGB converts it now.
  void keep_screen() {
    if (o_.gray_scale) {
      keep_rows(screen_a_.data(), dirty_a_.data());
    } else {
      convert_rgb(kept_rgb_.data());
    }
  }

  // Updates `kept` to the current screen row by row; flags the rows that changed
  // (all of them when the kept frames do not describe pooled_).
  void keep_rows(std::uint8_t* kept, std::uint8_t* changed) const {
    const std::uint8_t* s = ale_->getScreen().getArray();
    for (int r = 0; r < raw_h_; ++r) {
      const std::size_t off = static_cast<std::size_t>(r) * kRawWidth;
      const bool differs = !have_old_ || std::memcmp(kept + off, s + off, kRawWidth) != 0;
      changed[static_cast<std::size_t>(r)] = differs;
      if (differs) std::memcpy(kept + off, s + off, kRawWidth);
    }
  }

  // pooled_ = max(frame k-1, frame k), converted. Gray frames are kept as
  // palette indices until the next step: a row whose two frames equal the last
  // step's pools to the values pooled_ still holds, so only the other rows are
  // looked up, and the resize recomputes only the output rows they reach.
  // Returns the changed rows' flags (nullptr: every row).
  const std::uint8_t* pool() {
    std::uint8_t* dst = pooled_.data();
    if (!o_.gray_scale) {
      const std::uint8_t* s = ale_->getScreen().getArray();
      const std::uint8_t* kept = kept_rgb_.data();
      for (std::size_t i = 0, n = raw_size(); i < n; ++i) {
        for (int c = 0; c < 3; ++c) dst[3 * i + c] = std::max(kept[3 * i + c], rgb_[c][s[i]]);
      }
      return nullptr;
    }
    const bool incremental = have_old_;
    keep_rows(screen_b_.data(), row_dirty_.data());
    for (int r = 0; r < raw_h_; ++r) row_dirty_[static_cast<std::size_t>(r)] |= dirty_a_[static_cast<std::size_t>(r)];
    const std::uint8_t* a = screen_a_.data();
    const std::uint8_t* b = screen_b_.data();
    // Look up each run of changed rows in one go.
    for (int r = 0; r < raw_h_;) {
      if (!row_dirty_[static_cast<std::size_t>(r)]) {
        ++r;
        continue;
      }
      int end = r + 1;
      while (end < raw_h_ && row_dirty_[static_cast<std::size_t>(end)]) ++end;
      const std::size_t off = static_cast<std::size_t>(r) * kRawWidth;
      const int n = (end - r) * kRawWidth;
      r = end;
#if defined(RLPOOL_ATARI_X86)
      if (avx2_) {
        pool_gray_avx2(a + off, b + off, luts_, dst + off, n);
        continue;
      }
#endif
      for (std::size_t i = off; i < off + static_cast<std::size_t>(n); ++i) dst[i] = std::max(gray_[a[i]], gray_[b[i]]);
    }
    have_old_ = true;
    return incremental ? row_dirty_.data() : nullptr;
  }

  // pooled_ = max(pooled_, frame k-1): gymnasium's frame for a skip stopped on
  // its last frame (its buffers: the previous step's pooled frame, and the
  // frame before this step's last). Returns nullptr: every row may change.
  const std::uint8_t* pool_with_previous() {
    std::uint8_t* dst = pooled_.data();
    if (o_.gray_scale) {
      const std::uint8_t* a = screen_a_.data();
      for (std::size_t i = 0, n = raw_size(); i < n; ++i) dst[i] = std::max(dst[i], gray_[a[i]]);
    } else {
      const std::uint8_t* kept = kept_rgb_.data();
      for (std::size_t i = 0, n = pooled_.size(); i < n; ++i) dst[i] = std::max(dst[i], kept[i]);
    }
    have_old_ = false;
    return nullptr;
  }

  // The newest frame again, into the next ring slot (pooled_ still holds it unresized).
  void repeat_frame() {
    const std::uint8_t* newest = ring_.data() + static_cast<std::size_t>(head_) * frame_bytes_;
    head_ = (head_ + 1) % o_.stack_num;
    std::uint8_t* slot = ring_.data() + static_cast<std::size_t>(head_) * frame_bytes_;
    if (slot != newest) std::memcpy(slot, newest, frame_bytes_);
  }

  // Resize pooled_ into the next ring slot; on a new game fill every slot with it.
  void push_frame(bool fill, const std::uint8_t* row_dirty = nullptr) {
    head_ = (head_ + 1) % o_.stack_num;
    std::uint8_t* slot = ring_.data() + static_cast<std::size_t>(head_) * frame_bytes_;
    resizer_.run(pooled_.data(), slot, row_dirty);
    if (fill) {
      for (int j = 0; j < o_.stack_num; ++j) {
        if (j != head_) std::memcpy(ring_.data() + static_cast<std::size_t>(j) * frame_bytes_, slot, frame_bytes_);
      }
    }
  }

  void write(const Output& out, double reward, bool game_over) {
    // Oldest first: slots head+1 .. stack-1, then 0 .. head.
    auto* obs = out.obs_as<std::uint8_t>();
    const std::size_t older = static_cast<std::size_t>(o_.stack_num - 1 - head_) * frame_bytes_;
    std::memcpy(obs, ring_.data() + static_cast<std::size_t>(head_ + 1) * frame_bytes_, older);
    std::memcpy(obs + older, ring_.data(), static_cast<std::size_t>(head_ + 1) * frame_bytes_);
    *out.info_as<std::int32_t>(info_.lives) = lives_;
    *out.info_as<float>(info_.reward) = static_cast<float>(reward);
    *out.info_as<std::int32_t>(info_.terminated) = game_over ? 1 : 0;
    std::memcpy(out.info_as<std::uint8_t>(info_.ram), ale_->getRAM().array(), kRamSize);
  }

  Options o_;
  std::string md5_;  // the ROM's, to tell states of other games apart
  std::size_t frame_bytes_;
  int raw_h_ = kRawHeight;  // rows of the screen the env reads (set in load())
  Resizer resizer_;
  std::unique_ptr<ale::ALEInterface> ale_;
  std::unique_ptr<ale::ALEState> power_on_;
  std::optional<StateCheck> state_check_;  // this game's snapshot layout, learned at the first set_state
  ale::ActionVect actions_;
  bool fire_reset_ = false;
  std::array<std::uint8_t, 256> gray_{};
  std::array<std::array<std::uint8_t, 256>, 3> rgb_{};
  bool avx2_ = use_avx2();
  alignas(32) std::uint8_t luts_[16][32] = {};  // gray by screen value, as pool_gray_avx2 wants it
  // Palette indices of frames k-1 and k of the last pooled step, updated in place.
  std::vector<std::uint8_t> screen_a_ = std::vector<std::uint8_t>(raw_size());
  std::vector<std::uint8_t> screen_b_ = std::vector<std::uint8_t>(raw_size());
  bool have_old_ = false;  // screen_a_/screen_b_ produced what pooled_ holds
  std::vector<std::uint8_t> dirty_a_ = std::vector<std::uint8_t>(kRawHeight);
  std::vector<std::uint8_t> row_dirty_ = std::vector<std::uint8_t>(kRawHeight);
  std::vector<std::uint8_t> pooled_;  // raw_h_ x 160 (x 3): the max-pooled frame, unresized newest frame
  std::vector<std::uint8_t> kept_rgb_;  // RGB: frame k-1 of the step, converted
  std::vector<std::uint8_t> ring_;    // stack_num resized frames
  int head_ = 0;                      // ring slot of the newest frame
  int lives_ = 0;
  // What advance() found, for emit() to write.
  struct StepResult {
    std::int64_t reward = 0;  // unclipped, summed over the frame skip
    bool game_over = false, terminated = false, life_lost = false;
  } step_;
  bool life_lost_ = false;  // episodic_life: the last episode ended on a lost life
  Rng rng_after_reset_;     // the env's Rng as the last reset left it
  // Positions of the info entries.
  struct Info {
    std::size_t lives, reward, terminated, ram;
    explicit Info(const std::vector<ArraySpec>& info)
        : lives(info_index(info, "lives")),
          reward(info_index(info, "reward")),
          terminated(info_index(info, "terminated")),
          ram(info_index(info, "ram")) {}
  } info_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Atari",
    .options =
        {
            {"rom_path", std::string(), "Path of the game's ROM (filled in from the installed ale-py package)."},
            {"stack_num", std::int64_t{4}, "Frames stacked in an observation."},
            {"frame_skip", std::int64_t{4}, "Emulator frames per step (the action repeats)."},
            {"noop_max", std::int64_t{30}, "At reset, 1..noop_max no-op frames (random); 0 for none."},
            {"zero_discount_on_life_loss", false,
             "dm_env's discount is 0 on a step that loses a life (gymnasium's flags do not change)."},
            {"episodic_life", false,
             "A lost life ends the episode; the next reset plays on with the same game (elapsed_step and the "
             "time limit count per game, as EnvPool's)."},
            {"reward_clip", false, "Reward is the sign of the frame-skip reward (info['reward'] keeps the raw one)."},
            {"use_fire_reset", true, "Press FIRE after the reset no-ops, in games whose action set has FIRE."},
            {"img_height", std::int64_t{84}, "Observation height."},
            {"img_width", std::int64_t{84}, "Observation width."},
            {"gray_scale", true, "Grayscale frames (else RGB: 3 channels per frame)."},
            {"mode", std::int64_t{-1}, "Game mode (-1: the ROM's default)."},
            {"difficulty", std::int64_t{-1}, "Game difficulty (-1: the ROM's default)."},
            {"full_action_space", false, "All 18 actions instead of the game's minimal set."},
            {"repeat_action_probability", 0.0, "Sticky actions: chance per frame to repeat the previous action."},
            {"use_inter_area_resize", true, "Resize like OpenCV INTER_AREA (else INTER_LINEAR)."},
            {"envpool_frame_skip", false,
             "The frame skip as EnvPool's (rlpool.compat.envpool sets it): with episodic_life a lost life does "
             "not stop it, the loss of a last life that leaves the game running does not end the episode, and a "
             "step that ends the game early shows the final screen when it ended on the frame before the last "
             "(else the previous step's frame). Without it, gymnasium's AtariPreprocessing "
             "(terminal_on_life_loss=episodic_life): the skip stops at a lost life too, and such a step's newest "
             "frame is the max of the previous step's and this step's frame before the last where the skip "
             "stopped on its last frame, else the previous step's."},
            {"crop_210", false,
             "Read only the top 210 rows of the screen, as EnvPool 1.2.5 does (rlpool.compat.envpool sets it). "
             "Matters for the games with taller screens (214-250 rows: Adventure, AirRaid, Carnival, "
             "JourneyEscape, KeystoneKapers, KingKong, Klax, LaserGates, MrDo, Pacman, Pooyan, SirLancelot, "
             "SpaceWar); without it the whole screen is resized, as gymnasium's AtariPreprocessing does."},
        },
    .spec = make_spec,
    .create = make_env<AtariEnv>(),
});

}  // namespace rlpool::atari
