// ViZDoom scenarios on the real ViZDoom engine, with EnvPool's task ids and
// options. Each env owns one vizdoom::DoomGame (ViZDoom's C++ controller,
// compiled from the vizdoom sdist by family.cmake), which starts one engine
// process (the installed wheel's `vizdoom` executable) at the env's first
// reset and ends it at the pool's close() (or when the env is destroyed); the
// engine runs in a private temporary folder (its _vizdoom.ini and _vizdoom/),
// removed with it (or, after a Python process that died without closing its
// pools, by the next process's first ViZDoom env). The controller blocks on the
// engine's message queue in the worker thread that steps the env; Python's
// GIL is not involved.
//
// One step: the action (one value per available button) is held for
// frame_skip tics (DoomGame::makeAction(action, frame_skip)); the reward is
// DoomGame's reward over those tics; the last screen buffer is resized (like
// OpenCV's INTER_AREA, or INTER_LINEAR) into the newest slot of the frame
// stack, channel-first. info holds the cfg's game variables by name.
//
// Without Boost at build time (RLPOOL_VIZDOOM_MISSING) only the registration
// is compiled: making a task raises an error that says what to install.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "env.h"

#if !defined(RLPOOL_VIZDOOM_MISSING)
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ViZDoom.h"
#include "resize.h"
#endif

namespace rlpool::vizdoom_env {
namespace {

constexpr int kMaxStack = 64;
constexpr int kMaxFrameSkip = 1000;
constexpr int kMaxImageSide = 1024;

std::vector<Option> options() {
  return {
      {"cfg_path", std::string(), "The scenario's .cfg (filled in from the installed vizdoom package)."},
      {"wad_path", std::string(), "The scenario's .wad (filled in; empty: the one the .cfg names)."},
      {"vzd_path", std::string(), "The ViZDoom engine executable (filled in from the installed vizdoom package)."},
      {"iwad_path", std::string(), "The base game WAD (filled in: the vizdoom package's freedoom2.wad)."},
      {"map_id", std::string("map01"), "Map to play (EnvPool's default, map01)."},
      {"game_args", std::string(), "Extra engine arguments (DoomGame::addGameArgs)."},
      {"img_height", std::int64_t{84}, "Observation height."},
      {"img_width", std::int64_t{84}, "Observation width."},
      {"stack_num", std::int64_t{4}, "Frames stacked in an observation."},
      {"frame_skip", std::int64_t{4}, "Engine tics per step (the action is held)."},
      {"episodic_life", false, "The player's death ends the episode; the next reset respawns in the same game."},
      {"use_combined_action", false, "EnvPool's discrete combined actions (not supported yet: must be False)."},
      {"force_speed", false, "EnvPool's always-run option (not supported yet: must be False)."},
      {"use_inter_area_resize", true, "Resize like OpenCV INTER_AREA (else INTER_LINEAR)."},
      {"lmp_save_dir", std::string(), "If set, each episode is recorded as a Doom demo (.lmp) in this folder."},
  };
}

#if defined(RLPOOL_VIZDOOM_MISSING)

[[noreturn]] void missing() {
  throw std::runtime_error(
      "this rlpool was built without ViZDoom's controller library, which needs Boost at build time: install "
      "Boost (Debian/Ubuntu: apt-get install libboost-dev libboost-filesystem-dev libboost-thread-dev "
      "libboost-system-dev libboost-chrono-dev) and rebuild rlpool");
}

static const bool kRegistered = register_env_type({
    .name = "Vizdoom",
    .options = options(),
    .spec = [](const Config&) -> EnvSpec { missing(); },
    .create = [](const Config&) -> std::unique_ptr<Env> { missing(); },
});

#else

using atari::Resizer;

struct Options {
  std::string cfg_path, wad_path, vzd_path, iwad_path, map_id, game_args, lmp_save_dir;
  std::int64_t img_height, img_width, stack_num, frame_skip;
  bool episodic_life, use_inter_area_resize;

  explicit Options(const Config& c)
      : cfg_path(c.get_string("cfg_path")),
        wad_path(c.get_string("wad_path")),
        vzd_path(c.get_string("vzd_path")),
        iwad_path(c.get_string("iwad_path")),
        map_id(c.get_string("map_id")),
        game_args(c.get_string("game_args")),
        lmp_save_dir(c.get_string("lmp_save_dir")),
        img_height(c.get_int_in("img_height", 1, kMaxImageSide)),
        img_width(c.get_int_in("img_width", 1, kMaxImageSide)),
        stack_num(c.get_int_in("stack_num", 1, kMaxStack)),
        frame_skip(c.get_int_in("frame_skip", 1, kMaxFrameSkip)),
        episodic_life(c.get_bool("episodic_life")),
        use_inter_area_resize(c.get_bool("use_inter_area_resize")) {
    if (c.get_bool("use_combined_action")) {
      throw std::invalid_argument("use_combined_action=True is not supported by rlpool's ViZDoom tasks yet");
    }
    if (c.get_bool("force_speed")) {
      throw std::invalid_argument("force_speed=True is not supported by rlpool's ViZDoom tasks yet");
    }
    // The engine runs in a folder of its own: relative paths are the caller's.
    for (std::string* path : {&cfg_path, &wad_path, &vzd_path, &iwad_path, &lmp_save_dir}) {
      if (!path->empty()) *path = std::filesystem::absolute(*path).string();
    }
    check_file("cfg_path", cfg_path, "the scenario's .cfg file");
    if (!wad_path.empty()) check_file("wad_path", wad_path, "the scenario's .wad file");
    check_file("vzd_path", vzd_path, "the ViZDoom engine; install vizdoom: pip install 'rlpool[vizdoom]'");
    check_file("iwad_path", iwad_path, "the base game WAD; install vizdoom: pip install 'rlpool[vizdoom]'");
    if (!lmp_save_dir.empty()) {
      std::error_code ec;
      if (!std::filesystem::is_directory(lmp_save_dir, ec)) {
        throw std::invalid_argument("lmp_save_dir '" + lmp_save_dir + "' is not a folder");
      }
    }
  }

  static void check_file(const char* name, const std::string& path, const char* what) {
    std::error_code ec;
    if (path.empty()) throw std::invalid_argument(std::string(name) + " is empty: it must name " + what);
    if (!std::filesystem::is_regular_file(path, ec)) {
      throw std::invalid_argument(std::string(name) + " '" + path + "' is not a file (" + what + ")");
    }
  }
};

// A DoomGame configured from the options, engine not started. ViZDoom's own
// errors (a bad cfg, ...) come out as std::invalid_argument naming the cfg.
std::unique_ptr<vizdoom::DoomGame> configured_game(const Options& o, const std::filesystem::path& workdir = {}) {
  auto game = std::make_unique<vizdoom::DoomGame>();
  try {
    if (!game->loadConfig(o.cfg_path)) {
      throw std::invalid_argument("cfg_path '" + o.cfg_path + "': ViZDoom could not load this config");
    }
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::invalid_argument("cfg_path '" + o.cfg_path + "': " + e.what());
  }
  game->setViZDoomPath(o.vzd_path);
  game->setDoomGamePath(o.iwad_path);
  if (!o.wad_path.empty()) game->setDoomScenarioPath(o.wad_path);
  if (!o.map_id.empty()) game->setDoomMap(o.map_id);
  if (!o.game_args.empty()) game->addGameArgs(o.game_args);
  game->setWindowVisible(false);
  game->setMode(vizdoom::PLAYER);
  // The engine's settings file; the engine is also started in its folder.
  if (!workdir.empty()) game->setDoomConfigPath((workdir / "_vizdoom.ini").string());
  return game;
}

// How a screen buffer is laid out: planar (CRCGCB, CBCGCR: one plane per
// channel) or interleaved (cn values per pixel; gray is cn = 1).
struct ScreenLayout {
  int height, width, channels;
  bool planar;
};

ScreenLayout screen_layout(vizdoom::DoomGame& game) {
  const auto format = game.getScreenFormat();
  const bool planar = format == vizdoom::CRCGCB || format == vizdoom::CBCGCR;
  return ScreenLayout{game.getScreenHeight(), game.getScreenWidth(), game.getScreenChannels(), planar};
}

std::vector<ArraySpec> info_entries(vizdoom::DoomGame& game) {
  std::vector<ArraySpec> info;
  for (auto v : game.getAvailableGameVariables()) {
    info.push_back(ArraySpec{.name = vizdoom::gameVariableToString(v), .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}});
  }
  return info;
}

EnvSpec make_spec(const Config& config) {
  const Options o(config);
  auto game = configured_game(o);
  const auto layout = screen_layout(*game);
  const auto buttons = static_cast<std::int64_t>(game->getAvailableButtonsSize());
  if (buttons == 0) throw std::invalid_argument("cfg_path '" + o.cfg_path + "' makes no button available");
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs",
                        .dtype = DType::kUInt8,
                        .shape = {layout.channels * o.stack_num, o.img_height, o.img_width},
                        .low = {0},
                        .high = {255}}},
      // One value per available button, as DoomGame::makeAction takes them
      // (binary buttons: non-zero is pressed; delta buttons: the amount).
      .action = ArraySpec{.name = "action", .dtype = DType::kFloat64, .shape = {buttons}, .low = {}, .high = {}},
      .info = info_entries(*game),
      // render(): the engine's screen at its own resolution, as vizdoom's
      // gymnasium env shows it (35 frames a second: vizdoom's DEFAULT_TICRATE).
      .render_width = layout.width,
      .render_height = layout.height,
      .render_fps = 35.0,
  };
}

// One pixel of a screen buffer as RGB: where each channel sits in a pixel of
// an interleaved format (planar and gray formats are handled apart).
struct ChannelOffsets {
  int r, g, b;
};

ChannelOffsets channel_offsets(vizdoom::ScreenFormat format) {
  switch (format) {
    case vizdoom::RGB24:
    case vizdoom::RGBA32: return {0, 1, 2};
    case vizdoom::ARGB32: return {1, 2, 3};
    case vizdoom::BGR24:
    case vizdoom::BGRA32: return {2, 1, 0};
    case vizdoom::ABGR32: return {3, 2, 1};
    default: return {0, 0, 0};  // one channel: gray (DOOM_256_COLORS8's palette indices shown as gray)
  }
}

// ViZDoom reports failures (engine crashed, not running, ...) with exceptions
// of its own; they reach Python as a RuntimeError that says it was ViZDoom.
template <class F>
auto guarded(const char* what, F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("ViZDoom ") + what + " failed: " + e.what());
  }
}

// The folders of processes that died without removing theirs (SIGKILL, or an
// exit that never destroyed the pool): rlpool-vizdoom-<pid>-* whose pid is gone.
void remove_stale_folders(const std::filesystem::path& tmp) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    const std::string prefix = "rlpool-vizdoom-";
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }
}

// A private temporary folder, removed with its owner.
class TempDir {
 public:
  TempDir() {
    const auto tmp = std::filesystem::temp_directory_path();
    static const bool cleaned = (remove_stale_folders(tmp), true);
    (void)cleaned;
    std::string pattern = (tmp / ("rlpool-vizdoom-" + std::to_string(getpid()) + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot make a temporary folder for a ViZDoom engine: " +
                               std::string(std::strerror(errno)));
    }
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { remove(); }
  void remove() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class VizdoomEnv : public Env {
 public:
  explicit VizdoomEnv(const Config& config)
      : o_(config),
        game_(configured_game(o_, workdir_.path())),
        layout_(screen_layout(*game_)),
        variables_(game_->getAvailableGameVariables()),
        action_(game_->getAvailableButtonsSize()),
        frame_size_(static_cast<std::size_t>(layout_.channels * o_.img_height * o_.img_width)),
        frames_(frame_size_ * static_cast<std::size_t>(o_.stack_num)) {
    const auto method = o_.use_inter_area_resize ? Resizer::Method::kArea : Resizer::Method::kLinear;
    const int cn = layout_.planar ? 1 : layout_.channels;
    resizer_ = std::make_unique<Resizer>(layout_.height, layout_.width, static_cast<int>(o_.img_height),
                                         static_cast<int>(o_.img_width), cn, method);
  }

  ~VizdoomEnv() override { close(); }

  // Ends the engine process (DoomGame::close waits for it to exit) and removes its folder.
  void close() override {
    try {
      game_->close();
    } catch (...) {  // the engine is gone either way: close() ends its process
    }
    workdir_.remove();
  }

  void reset(Rng& rng, const Output& out) override {
    guarded("reset", [&] {
      // episodic_life: a death ended the last episode but not the game, so
      // the player respawns and the game (and its time limit) goes on.
      if (o_.episodic_life && started_ && !game_->isEpisodeFinished() && game_->isPlayerDead()) {
        game_->respawnPlayer();
        *out.continues_game = true;
      } else {
        const auto seed = static_cast<unsigned int>(rng.next() >> 32);
        game_->setSeed(seed);
        if (!started_) {
          game_->init();
          started_ = true;
        }
        game_->newEpisode(demo_path(seed));
      }
      return 0;
    });
    push_screen();
    for (std::int64_t i = 0; i + 1 < o_.stack_num; ++i) {
      std::copy_n(newest(), frame_size_, frames_.begin() + static_cast<std::ptrdiff_t>(i * frame_size_));
    }
    write(out);
    *out.reward = 0.0;
    *out.terminated = false;
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double* a = action.continuous();
    std::copy_n(a, action_.size(), action_.begin());
    const bool lives_before = !game_->isPlayerDead();
    const double reward = guarded("step", [&] {
      return game_->makeAction(action_, static_cast<unsigned int>(o_.frame_skip));
    });
    const bool finished = game_->isEpisodeFinished();
    const bool died = o_.episodic_life && lives_before && game_->isPlayerDead();
    // Shift the stack one frame: the oldest drops out.
    std::copy(frames_.begin() + static_cast<std::ptrdiff_t>(frame_size_), frames_.end(), frames_.begin());
    push_screen();
    write(out);
    *out.reward = reward;
    *out.terminated = finished || died;
  }

 private:
  std::string demo_path(unsigned int seed) {
    if (o_.lmp_save_dir.empty()) return "";
    ++episodes_;
    return (std::filesystem::path(o_.lmp_save_dir) /
            ("vizdoom_" + std::to_string(seed) + "_" + std::to_string(episodes_) + ".lmp"))
        .string();
  }

  std::uint8_t* newest() {
    return frames_.data() + frame_size_ * static_cast<std::size_t>(o_.stack_num - 1);
  }

  // The current screen, resized, into the newest slot. A finished episode has
  // no state: the slot then keeps the last screen (the final observation
  // repeats it).
  void push_screen() {
    auto state = game_->getState();
    if (!state || !state->screenBuffer) {
      if (o_.stack_num > 1) {
        std::copy_n(newest() - frame_size_, frame_size_, newest());
      }
      return;
    }
    last_screen_ = state->screenBuffer;  // shared with the engine's state: no copy
    const std::uint8_t* src = state->screenBuffer->data();
    if (layout_.planar) {
      const std::size_t plane = static_cast<std::size_t>(layout_.height) * static_cast<std::size_t>(layout_.width);
      const std::size_t out_plane = static_cast<std::size_t>(o_.img_height * o_.img_width);
      for (int c = 0; c < layout_.channels; ++c) {
        resizer_->run(src + plane * static_cast<std::size_t>(c), newest() + out_plane * static_cast<std::size_t>(c));
      }
    } else {
      resizer_->run(src, newest());
    }
  }

  // The last screen the engine showed (the one before a finished episode's
  // end, where vizdoom's gymnasium env shows black), as RGB.
  void render(const Frame& frame) override {
    const std::size_t n = static_cast<std::size_t>(layout_.height) * static_cast<std::size_t>(layout_.width);
    std::uint8_t* out = frame.rgb;
    if (!last_screen_) {
      std::fill_n(out, 3 * n, std::uint8_t{0});
      return;
    }
    const std::uint8_t* src = last_screen_->data();
    if (layout_.planar) {
      const bool bgr = game_->getScreenFormat() == vizdoom::CBCGCR;
      const std::uint8_t* r = src + (bgr ? 2 : 0) * n;
      const std::uint8_t* g = src + n;
      const std::uint8_t* b = src + (bgr ? 0 : 2) * n;
      for (std::size_t i = 0; i < n; ++i) {
        out[3 * i] = r[i];
        out[3 * i + 1] = g[i];
        out[3 * i + 2] = b[i];
      }
      return;
    }
    const int cn = layout_.channels;
    const ChannelOffsets at = channel_offsets(game_->getScreenFormat());
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t* px = src + static_cast<std::size_t>(cn) * i;
      out[3 * i] = px[at.r];
      out[3 * i + 1] = px[at.g];
      out[3 * i + 2] = px[at.b];
    }
  }

  void write(const Output& out) {
    std::copy(frames_.begin(), frames_.end(), out.obs_as<std::uint8_t>());
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      out.put_info(i, game_->getGameVariable(variables_[i]));
    }
  }

  Options o_;
  TempDir workdir_;  // before game_: removed after the engine ended
  std::unique_ptr<vizdoom::DoomGame> game_;
  ScreenLayout layout_;
  std::vector<vizdoom::GameVariable> variables_;
  std::vector<double> action_;
  std::size_t frame_size_;
  std::vector<std::uint8_t> frames_;  // stack_num frames, oldest first
  std::unique_ptr<Resizer> resizer_;
  vizdoom::ImageBufferPtr last_screen_;  // for render()
  bool started_ = false;
  std::uint64_t episodes_ = 0;
};

static const bool kRegistered = register_env_type({
    .name = "Vizdoom",
    .options = options(),
    .spec = make_spec,
    .create = make_env<VizdoomEnv>(),
});

#endif

}  // namespace
}  // namespace rlpool::vizdoom_env

#if !defined(RLPOOL_VIZDOOM_MISSING)
// Runs in the engine's process between fork and exec (see family.cmake): the
// engine gets SIGKILL when the thread that spawned it ends (ViZDoom's launch
// thread, which lives as long as the engine, or the whole Python process when
// it dies, even by SIGKILL), and leaves the terminal's process group, so that
// a Ctrl-C interrupts Python (which then closes its envs) without killing the
// engines of a pool still in use. Only async-signal-safe calls.
extern "C" void rlpool_vizdoom_child_setup(pid_t parent, const char* dir) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  setpgid(0, 0);
  // The engine writes a _vizdoom/ folder into its working folder: the env's own.
  if (dir != nullptr && dir[0] != '\0' && chdir(dir) != 0) _exit(126);
}
#endif
