// Procgen: one env is one game of procgen 0.10.7's own libenv.so (a libenv of
// one game, stepped in the worker's thread: num_threads = 0), opened with
// dlopen from the procgen-mirror wheel the build unpacked (family.cmake).
//
// Seeding: libenv's rand_seed (from which procgen draws every level seed) is
// the top 31 bits of the env's first generator word after the engine seeded
// it: `Rng(seed).next() >> 33`. A reset that finds the generator re-seeded
// makes a new libenv with the new rand_seed; any other reset goes on with the
// same libenv, as procgen's own episodes do.
//
// Episodes: libenv starts the next level inside the step that ends one (its
// observation is already the new level's first frame, as in procgen and
// EnvPool). So a reset after such a step only hands out that frame again; a
// reset of an unfinished episode (the engine's time limit, a user reset)
// steps libenv with action -1, procgen's forced reset.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "_core/env/fd.h"
#include "envs/procgen/libenv_api.h"

#ifndef RLPOOL_PROCGEN_ROOT
#define RLPOOL_PROCGEN_ROOT ""
#endif

namespace rlpool::procgen {
namespace {

constexpr int kRes = 64;
constexpr std::size_t kFrameBytes = static_cast<std::size_t>(kRes) * kRes * 3;
// procgen's render_mode="rgb_array" frame: libenv's render_human info entry "rgb".
constexpr int kRenderRes = 512;
constexpr std::size_t kRenderBytes = static_cast<std::size_t>(kRenderRes) * kRenderRes * 3;
constexpr int kNumActions = 15;  // procgen's get_combos()
constexpr int kMaxStateBytes = 1 << 20;  // procgen's MAX_STATE_SIZE
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

struct GameInfo {
  const char* name;
  bool extreme, memory;
  std::int32_t exploration_seed;  // 0: no exploration mode (procgen's EXPLORATION_LEVEL_SEEDS)
};

// Which distribution modes each game accepts (procgen's Game::parse_options
// and env.py); hard and easy are every game's.
constexpr std::array<GameInfo, 16> kGames = {{
    {"bigfish", false, false, 0},
    {"bossfight", false, false, 0},
    {"caveflyer", false, true, 1259048185},
    {"chaser", true, false, 0},
    {"climber", false, false, 1561126160},
    {"coinrun", false, false, 1949448038},
    {"dodgeball", true, true, 0},
    {"fruitbot", false, false, 0},
    {"heist", false, true, 876640971},
    {"jumper", false, true, 1434825276},
    {"leaper", true, false, 1318677581},
    {"maze", false, true, 158988835},
    {"miner", false, true, 0},
    {"ninja", false, false, 1123500215},
    {"plunder", false, false, 0},
    {"starpilot", true, false, 0},
}};

const GameInfo& find_game(const std::string& name) {
  for (const auto& g : kGames) {
    if (name == g.name) return g;
  }
  throw std::invalid_argument("unknown Procgen game '" + name + "'");
}

// The libenv options of one env, checked here: libenv ends the process on a
// value it does not take.
struct Settings {
  std::string game;
  std::int32_t distribution_mode;  // procgen's DistributionMode: 0 easy, 1 hard, 2 extreme, 10 memory
  std::int32_t num_levels, start_level;
  bool use_sequential_levels, use_backgrounds, restrict_themes, use_monochrome_assets, center_agent,
      use_generated_assets, paint_vel_info;
  // Only a pool made with a render_mode has libenv draw the 512 x 512 frame
  // (render_human): it costs more than the game's own 64 x 64 one.
  bool render;
  std::int64_t timeout;
  std::string root;

  explicit Settings(const Config& c)
      : game(c.get_string("_game")),
        num_levels(static_cast<std::int32_t>(c.get_int_in("num_levels", 0, kInt32Max))),
        start_level(static_cast<std::int32_t>(c.get_int_in("start_level", 0, kInt32Max))),
        use_sequential_levels(c.get_bool("use_sequential_levels")),
        use_backgrounds(c.get_bool("use_backgrounds")),
        restrict_themes(c.get_bool("restrict_themes")),
        use_monochrome_assets(c.get_bool("use_monochrome_assets")),
        center_agent(c.get_bool("center_agent")),
        use_generated_assets(c.get_bool("use_generated_assets")),
        paint_vel_info(c.get_bool("paint_vel_info")),
        render(c.has("_render") && c.get_bool("_render")),
        timeout(c.get_int_in("_timeout", 1, kInt32Max)),
        root(c.get_string("_library_root")) {
    const GameInfo& g = find_game(game);
    const std::string& mode = c.get_string("distribution_mode");
    if (mode == "easy") {
      distribution_mode = 0;
    } else if (mode == "hard") {
      distribution_mode = 1;
    } else if (mode == "extreme" && g.extreme) {
      distribution_mode = 2;
    } else if (mode == "memory" && g.memory) {
      distribution_mode = 10;
    } else if (mode == "exploration" && g.exploration_seed != 0) {
      // As procgen's env.py: hard mode on the one level procgen picked for it.
      if (num_levels != 0 || start_level != 0) {
        throw std::invalid_argument("distribution_mode 'exploration' sets num_levels and start_level itself; got "
                                    "num_levels=" + std::to_string(num_levels) +
                                    ", start_level=" + std::to_string(start_level));
      }
      distribution_mode = 1;
      num_levels = 1;
      start_level = g.exploration_seed;
    } else {
      std::string valid = "'easy', 'hard'";
      if (g.extreme) valid += ", 'extreme'";
      if (g.memory) valid += ", 'memory'";
      if (g.exploration_seed != 0) valid += ", 'exploration'";
      throw std::invalid_argument("option 'distribution_mode' of " + game + " must be one of " + valid + ", got '" +
                                  mode + "'");
    }
    if (static_cast<std::int64_t>(start_level) + num_levels > kInt32Max) {
      throw std::invalid_argument("start_level + num_levels must be at most 2**31 - 1, got " +
                                  std::to_string(start_level) + " + " + std::to_string(num_levels));
    }
  }
};

// libenv.so's functions, resolved once per library root.
struct Api {
  libenv::MakeFn make;
  libenv::GetTensorTypesFn get_tensortypes;
  libenv::SetBuffersFn set_buffers;
  libenv::ActFn act;
  libenv::ObserveFn observe;
  libenv::CloseFn close;
  libenv::GetStateFn get_state;
  libenv::SetStateFn set_state;
  std::string resource_root;
};

std::mutex& api_mutex() {
  static std::mutex m;
  return m;
}

// The library under `root`; loaded on first use, kept for the process (its
// images and Qt state are process-wide). Every caller must hold api_mutex().
const Api& load_api(const std::string& root) {
  static std::vector<std::pair<std::string, std::unique_ptr<Api>>> loaded;
  for (const auto& [r, api] : loaded) {
    if (r == root) return *api;
  }
  if (root.empty()) {
    throw std::runtime_error(
        "Procgen tasks need procgen's game library (libenv.so from the procgen-mirror==0.10.7 wheel), which "
        "rlpool fetches with pip when it is built; this build has none (it was built offline, or not on Linux "
        "x86-64). Rebuild rlpool with network access, or put that wheel in the download cache "
        "(~/.cache/rlpool) and rebuild, or point $RLPOOL_PROCGEN_ROOT at an unpacked copy of it.");
  }
  const std::string path = root + "/procgen/data/prebuilt/libenv.so";
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    throw std::runtime_error("could not load Procgen's game library " + path + " (from the procgen-mirror==0.10.7 "
                             "wheel; rebuild rlpool to fetch it again, or set $RLPOOL_PROCGEN_ROOT): " +
                             (why != nullptr ? why : "unknown error"));
  }
  auto api = std::make_unique<Api>();
  libenv::VersionFn version = nullptr;
  libenv::resolve(lib, "libenv_version", version);
  if (version() != libenv::kVersion) {
    throw std::runtime_error(path + " implements libenv version " + std::to_string(version()) + ", rlpool speaks " +
                             std::to_string(libenv::kVersion));
  }
  libenv::resolve(lib, "libenv_make", api->make);
  libenv::resolve(lib, "libenv_get_tensortypes", api->get_tensortypes);
  libenv::resolve(lib, "libenv_set_buffers", api->set_buffers);
  libenv::resolve(lib, "libenv_observe", api->observe);
  libenv::resolve(lib, "libenv_act", api->act);
  libenv::resolve(lib, "libenv_close", api->close);
  libenv::resolve(lib, "get_state", api->get_state);
  libenv::resolve(lib, "set_state", api->set_state);
  api->resource_root = root + "/procgen/data/assets/";
  loaded.emplace_back(root, std::move(api));
  return *loaded.back().second;
}

// Name/value options in libenv's encoding; the values live here as long as the
// list (libenv copies what it keeps during libenv_make).
class OptionList {
 public:
  void add(const char* name, const std::string& value) { push(name, libenv::kDtypeUInt8, value); }
  void add(const char* name, std::int32_t value) {
    std::string bytes(sizeof value, '\0');
    std::memcpy(bytes.data(), &value, sizeof value);
    push(name, libenv::kDtypeInt32, std::move(bytes));
  }
  void add_bool(const char* name, bool value) { push(name, libenv::kDtypeUInt8, std::string(1, value ? 1 : 0)); }

  // The request the state checker (checker/main.cc) reads: the options, then `blob`.
  std::string request(std::string_view blob) const {
    std::string out;
    auto u32 = [&out](std::size_t v) {
      const auto x = static_cast<std::uint32_t>(v);
      out.append(reinterpret_cast<const char*>(&x), sizeof x);
    };
    u32(names_.size());
    for (std::size_t i = 0; i < names_.size(); ++i) {
      u32(names_[i].size());
      out += names_[i];
      u32(static_cast<std::uint32_t>(dtypes_[i]));
      u32(data_[i].size());
      out += data_[i];
    }
    u32(blob.size());
    out += blob;
    return out;
  }

  libenv::Options view() {
    items_.clear();
    for (std::size_t i = 0; i < names_.size(); ++i) {
      libenv::Option o{};
      std::strncpy(o.name, names_[i].c_str(), libenv::kMaxNameLen - 1);
      o.dtype = dtypes_[i];
      o.count = static_cast<int>(data_[i].size());
      o.data = data_[i].data();
      items_.push_back(o);
    }
    return libenv::Options{items_.data(), static_cast<int>(items_.size())};
  }

 private:
  void push(const char* name, int dtype, std::string bytes) {
    names_.emplace_back(name);
    dtypes_.push_back(dtype);
    data_.push_back(std::move(bytes));
  }
  std::vector<std::string> names_;
  std::vector<int> dtypes_;
  std::vector<std::string> data_;
  std::vector<libenv::Option> items_;
};

// FNV-1a, 64 bits: the checksum of a state blob (a truncated or damaged blob is
// refused by it at once).
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// A random key drawn once per process: a blob whose tag (fnv1a from this key)
// matches was written by this process's get_state and goes straight to
// procgen. Any other blob (another process's, or crafted) is first loaded by
// the checker program, since procgen's loader ends the process on bytes it
// cannot take. Not a cryptographic MAC: it tells this process's own states
// from others; forging a tag needs the key, which never leaves the process.
std::uint64_t process_key() {
  static const std::uint64_t key = [] {
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }();
  return key;
}

// The checker program (checker/main.cc), installed beside the extension module
// (the real file's folder: the dev build links the module into src/rlpool);
// $RLPOOL_PROCGEN_CHECKER names another.
std::string checker_path() {
  if (const char* given = std::getenv("RLPOOL_PROCGEN_CHECKER"); given != nullptr && *given != '\0') return given;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&checker_path), &info) == 0 || info.dli_fname == nullptr) return {};
  char resolved[PATH_MAX];
  if (realpath(info.dli_fname, resolved) == nullptr) return {};
  std::string path(resolved);
  path.erase(path.rfind('/') + 1);
  return path + "_rlpool_procgen_check";
}

// Blobs from other processes that the checker passed, by their keyed hash: the
// same state restored again (a search from a loaded state) is not checked again.
class CheckedBlobs {
 public:
  bool contains(std::uint64_t h) {
    std::lock_guard<std::mutex> lock(mu_);
    for (std::uint64_t x : recent_) {
      if (x == h) return true;
    }
    return false;
  }
  void add(std::uint64_t h) {
    std::lock_guard<std::mutex> lock(mu_);
    recent_[next_++ % recent_.size()] = h;
  }

 private:
  std::mutex mu_;
  std::array<std::uint64_t, 16> recent_{};
  std::size_t next_ = 0;
};
CheckedBlobs checked_blobs;

// Runs the checker on `request` (OptionList::request): "" when procgen took the
// blob and stepped it, else what went wrong. Blocks for the checker's run
// (about 2 s: it loads procgen's library and images); the caller has
// released the GIL.
std::string run_checker(const std::string& library, const std::string& request) {
  const std::string program = checker_path();
  if (program.empty() || access(program.c_str(), X_OK) != 0) {
    throw std::runtime_error("rlpool's Procgen state checker " + program + " is missing (reinstall rlpool): a "
                             "Procgen state written by another process cannot be loaded without it");
  }
  int in[2], out[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("Procgen state checker: ") + std::strerror(errno));
  }
  Fd in_parent(in[0]), in_child(in[1]), out_parent(out[0]), out_child(out[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_child.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_child.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, out_child.get(), 2);
  std::string arg0 = program, arg1 = library;
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot run " + program + ": " + std::strerror(spawned));
  in_child.reset();
  out_child.reset();

  // The request goes in (MSG_NOSIGNAL: a checker that died early is no SIGPIPE
  // here), the output comes back until the checker ends or its time is up.
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = send(in_parent.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  in_parent.reset();
  std::string said;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{out_parent.get(), POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buf[4096];
    const ssize_t n = read(out_parent.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the checker ended
    if (said.size() < 4096) said.append(buf, static_cast<std::size_t>(n));
  }
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return "procgen did not finish loading it within 60 s";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
  std::string why = WIFSIGNALED(status) ? "procgen crashed loading or stepping it (signal " +
                                              std::to_string(WTERMSIG(status)) + ")"
                                        : "procgen refused it (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  if (!said.empty()) why += ": " + said.substr(0, 300);
  return why;
}

class ProcgenEnv final : public Env {
 public:
  explicit ProcgenEnv(const Config& config) : s_(config), info_(make_info_spec()) {
    level_seed_at_ = info_index(info_, "level_seed");
    prev_level_seed_at_ = info_index(info_, "prev_level_seed");
    level_complete_at_ = info_index(info_, "prev_level_complete");
    std::lock_guard<std::mutex> lock(api_mutex());
    api_ = &load_api(s_.root);
  }

  ~ProcgenEnv() override { close(); }
  ProcgenEnv(const ProcgenEnv&) = delete;
  ProcgenEnv& operator=(const ProcgenEnv&) = delete;

  void reset(Rng& rng, const Output& out) override {
    if (venv_ == nullptr || !same_stream(rng, rng_after_reset_)) {
      open(static_cast<std::int32_t>(rng.next() >> 33));
    } else if (!at_episode_start_) {
      action_ = -1;  // procgen's forced reset: the next level, from the same level-seed stream
      api_->act(venv_);
    }
    at_episode_start_ = true;
    level_steps_ = 0;
    timed_out_ = false;
    write(out);
    *out.reward = 0.0;
    *out.terminated = false;
    rng_after_reset_ = rng;
  }

  bool two_phase() const override { return true; }

  void advance(const Action& action, Rng& /*rng*/) override {
    action_ = static_cast<std::int32_t>(action.discrete());
    api_->act(venv_);
    ++level_steps_;
    timed_out_ = first_ != 0 && level_complete_ == 0 && level_steps_ >= s_.timeout;
    if (first_ != 0 || level_complete_ != 0) level_steps_ = 0;  // procgen started a new level
    at_episode_start_ = first_ != 0;
  }

  // An episode that procgen ends at its timeout (without completing the level)
  // is not terminated: it is the truncation the engine's time limit, which
  // is at most procgen's timeout, reports in the same step (as EnvPool does).
  void emit(const Output& out) override {
    write(out);
    *out.reward = static_cast<double>(reward_);
    *out.terminated = first_ != 0 && !timed_out_;
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    advance(action, rng);
    emit(out);
  }

  // The 512 x 512 frame of the current state: libenv_observe draws it (act
  // draws only the 64 x 64 observation), so it is drawn only when asked for.
  // observe also rewrites the step's observation, reward and flags, unchanged.
  void render(const Frame& frame) override {
    if (render_frame_.size() != kRenderBytes) throw std::logic_error("this Procgen env was made without a render_mode");
    api_->observe(venv_);
    std::memcpy(frame.rgb, render_frame_.data(), kRenderBytes);
  }

  // [fnv1a of the rest: 8][tag, fnv1a of the body from process_key(): 8]
  // [body: at_episode_start_: 1][level_steps_: 8][game name, NUL][procgen's blob]
  std::string get_state() const override {
    if (venv_ == nullptr) throw std::logic_error("reset the env before get_state");
    std::string blob(kMaxStateBytes, '\0');
    const int n = api_->get_state(venv_, 0, blob.data(), kMaxStateBytes);
    blob.resize(static_cast<std::size_t>(n));
    std::string body(1, at_episode_start_ ? 1 : 0);
    body += pod_state(level_steps_);
    body += s_.game;
    body.push_back('\0');
    body += blob;
    const std::string rest = pod_state(fnv1a(body, process_key())) + body;
    return pod_state(fnv1a(rest)) + rest;
  }

  void set_state(std::string_view state) override {
    const std::string prefix = s_.game + '\0';
    constexpr std::size_t kHead = 1 + sizeof(std::int64_t);
    if (state.size() < 16 + kHead + prefix.size() + 4) throw std::invalid_argument("Procgen state is too short");
    std::uint64_t h = 0, tag = 0;
    std::memcpy(&h, state.data(), sizeof h);
    if (fnv1a(state.substr(8)) != h) throw std::invalid_argument("Procgen state is corrupt (its checksum does not match)");
    std::memcpy(&tag, state.data() + 8, sizeof tag);
    const std::string_view body = state.substr(16);
    if (body.substr(kHead, prefix.size()) != prefix) {
      throw std::invalid_argument("Procgen state is not of " + s_.game);
    }
    std::int64_t level_steps = 0;
    std::memcpy(&level_steps, body.data() + 1, sizeof level_steps);
    if (static_cast<unsigned char>(body[0]) > 1 || level_steps < 0 || level_steps > s_.timeout) {
      throw std::invalid_argument("Procgen state has a step count of " + std::to_string(level_steps) +
                                  " (valid: 0 to the game's timeout, " + std::to_string(s_.timeout) +
                                  ") or a bad episode-start flag");
    }
    std::string blob(body.substr(kHead + prefix.size()));
    check_settings(blob);
    if (tag != fnv1a(body, process_key())) {  // not this process's: procgen's loader may end the process
      const std::uint64_t key = fnv1a(state, ~process_key());
      if (!checked_blobs.contains(key)) {
        const std::string why = run_checker(s_.root + "/procgen/data/prebuilt/libenv.so", options(0).request(blob));
        if (!why.empty()) {
          throw std::invalid_argument("Procgen state refused (written by another process, so first loaded by a "
                                      "process of its own): " + why);
        }
        checked_blobs.add(key);
      }
    }
    if (venv_ == nullptr) open(0);
    api_->set_state(venv_, 0, blob.data(), static_cast<int>(blob.size()));
    at_episode_start_ = body[0] != 0;
    level_steps_ = level_steps;
    timed_out_ = false;
  }

  // procgen's blob starts as Game::serialize writes it: a version, the game's
  // name (length, bytes), then the options below as ints, which its loader
  // takes over: a state taken under other settings (another distribution mode:
  // another task) would change the env's own. Refused instead, by name.
  void check_settings(std::string_view blob) const {
    auto int_at = [&](std::size_t i) {
      std::int32_t v = 0;
      std::memcpy(&v, blob.data() + i, sizeof v);
      return v;
    };
    const std::size_t names_at = 8, options_at = names_at + s_.game.size();
    constexpr std::size_t kOptions = 9;
    if (blob.size() < options_at + 4 * kOptions || int_at(4) != static_cast<std::int32_t>(s_.game.size()) ||
        blob.substr(names_at, s_.game.size()) != s_.game) {
      throw std::invalid_argument("Procgen state does not hold a game of " + s_.game);
    }
    const std::array<std::pair<const char*, std::int32_t>, kOptions> own = {{
        {"paint_vel_info", s_.paint_vel_info},
        {"use_generated_assets", s_.use_generated_assets},
        {"use_monochrome_assets", s_.use_monochrome_assets},
        {"restrict_themes", s_.restrict_themes},
        {"use_backgrounds", s_.use_backgrounds},
        {"center_agent", -1},  // not compared: games whose view never moves turn it off themselves
        {"debug_mode", 0},
        {"distribution_mode", s_.distribution_mode},
        {"use_sequential_levels", s_.use_sequential_levels},
    }};
    for (std::size_t i = 0; i < kOptions; ++i) {
      const std::int32_t taken = int_at(options_at + 4 * i);
      if (own[i].second != -1 && taken != own[i].second) {
        throw std::invalid_argument(std::string("Procgen state was taken with ") + own[i].first + " " +
                                    std::to_string(taken) + "; this env has " + std::to_string(own[i].second) +
                                    " (distribution_mode: 0 easy, 1 hard, 2 extreme, 10 memory)");
      }
    }
  }

  static std::vector<ArraySpec> make_info_spec() {
    // procgen's info entries, in its order.
    return {
        ArraySpec{.name = "prev_level_seed", .dtype = DType::kInt32, .shape = {}, .low = {0}, .high = {2147483647.0}},
        ArraySpec{.name = "prev_level_complete", .dtype = DType::kUInt8, .shape = {}, .low = {0}, .high = {1}},
        ArraySpec{.name = "level_seed", .dtype = DType::kInt32, .shape = {}, .low = {0}, .high = {2147483647.0}},
    };
  }

 private:
  void close() {
    if (venv_ != nullptr) {
      api_->close(venv_);
      venv_ = nullptr;
    }
  }

  // A libenv of this one game, as procgen's ProcgenGym3Env(num=1, ...) makes it.
  void open(std::int32_t rand_seed) {
    close();
    OptionList o = options(rand_seed);
    {
      // libenv_make's first call loads every image, process-wide.
      std::lock_guard<std::mutex> lock(api_mutex());
      venv_ = api_->make(1, o.view());
    }
    if (venv_ == nullptr) throw std::runtime_error("Procgen's libenv_make returned no env");
    bind_buffers();
  }

  OptionList options(std::int32_t rand_seed) const {
    OptionList o;
    o.add_bool("center_agent", s_.center_agent);
    o.add_bool("use_generated_assets", s_.use_generated_assets);
    o.add_bool("use_monochrome_assets", s_.use_monochrome_assets);
    o.add_bool("restrict_themes", s_.restrict_themes);
    o.add_bool("use_backgrounds", s_.use_backgrounds);
    o.add_bool("paint_vel_info", s_.paint_vel_info);
    o.add("distribution_mode", s_.distribution_mode);
    o.add("env_name", s_.game);
    o.add("num_levels", s_.num_levels);
    o.add("start_level", s_.start_level);
    o.add("num_actions", static_cast<std::int32_t>(kNumActions));
    o.add_bool("use_sequential_levels", s_.use_sequential_levels);
    o.add("debug_mode", static_cast<std::int32_t>(0));
    o.add("rand_seed", rand_seed);
    o.add("num_threads", static_cast<std::int32_t>(0));
    o.add_bool("render_human", s_.render);
    o.add("resource_root", api_->resource_root);
    return o;
  }

  // Points libenv at this env's buffers, found by name in its tensor types.
  void bind_buffers() {
    auto types = [&](int space) {
      std::vector<libenv::TensorType> t(static_cast<std::size_t>(api_->get_tensortypes(venv_, space, nullptr)));
      api_->get_tensortypes(venv_, space, t.data());
      return t;
    };
    const auto obs = types(libenv::kSpaceObservation);
    if (obs.size() != 1 || obs[0].dtype != libenv::kDtypeUInt8 || obs[0].ndim != 3 ||
        obs[0].shape[0] * obs[0].shape[1] * obs[0].shape[2] != static_cast<int>(kFrameBytes)) {
      throw std::runtime_error("Procgen's libenv.so has an unexpected observation space");
    }
    const auto info = types(libenv::kSpaceInfo);
    info_ptrs_.assign(info.size(), nullptr);
    spare_.assign(info.size(), 0);
    for (std::size_t i = 0; i < info.size(); ++i) {
      const std::string_view name = info[i].name;
      if (name == "level_seed") {
        info_ptrs_[i] = &level_seed_;
      } else if (name == "prev_level_seed") {
        info_ptrs_[i] = &prev_level_seed_;
      } else if (name == "prev_level_complete") {
        info_ptrs_[i] = &level_complete_;
      } else if (name == "rgb") {  // render_human's frame
        render_frame_.assign(kRenderBytes, 0);
        info_ptrs_[i] = render_frame_.data();
      } else {
        info_ptrs_[i] = &spare_[i];  // an entry this version of procgen does not have (none): not handed out
      }
    }
    ob_ptr_ = frame_.data();
    ac_ptr_ = &action_;
    libenv::Buffers b{&ob_ptr_, &reward_, &first_, info_ptrs_.data(), &ac_ptr_};
    api_->set_buffers(venv_, &b);  // num_threads = 0: resets and renders the first level now
  }

  void write(const Output& out) const {
    std::memcpy(out.obs_as<std::uint8_t>(), frame_.data(), kFrameBytes);
    *out.info_as<std::int32_t>(level_seed_at_) = level_seed_;
    *out.info_as<std::int32_t>(prev_level_seed_at_) = prev_level_seed_;
    *out.info_as<std::uint8_t>(level_complete_at_) = level_complete_;
  }

  Settings s_;
  std::vector<ArraySpec> info_;
  std::size_t level_seed_at_ = 0, prev_level_seed_at_ = 0, level_complete_at_ = 0;
  const Api* api_ = nullptr;
  void* venv_ = nullptr;
  Rng rng_after_reset_;
  bool at_episode_start_ = true;
  std::int64_t level_steps_ = 0;  // procgen's cur_time: steps in the current level
  bool timed_out_ = false;
  // libenv's buffers (it keeps these pointers until libenv_close).
  std::array<std::uint8_t, kFrameBytes> frame_{};
  float reward_ = 0;
  std::uint8_t first_ = 0;
  std::int32_t action_ = 0;
  std::int32_t level_seed_ = 0;
  std::int32_t prev_level_seed_ = 0;
  std::uint8_t level_complete_ = 0;
  std::vector<std::int64_t> spare_;
  std::vector<std::uint8_t> render_frame_;  // "rgb", with render_human only
  std::vector<void*> info_ptrs_;
  void* ob_ptr_ = nullptr;
  void* ac_ptr_ = nullptr;
};

EnvSpec make_spec(const Config& config) {
  const Settings settings(config);  // refuses bad option values before any env is built
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs", .dtype = DType::kUInt8, .shape = {kRes, kRes, 3}, .low = {0}, .high = {255}}},
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {kNumActions - 1}},
      .info = ProcgenEnv::make_info_spec(),
      // procgen's rgb_array frame (15 frames a second, its gym env's metadata).
      .render_width = kRenderRes,
      .render_height = kRenderRes,
      .render_fps = 15.0,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Procgen",
    .options =
        {
            {"num_levels", std::int64_t{0}, "Number of distinct levels (0: unlimited; level seeds in [start_level, "
                                            "start_level + num_levels))."},
            {"start_level", std::int64_t{0}, "Lowest level seed when num_levels > 0."},
            {"distribution_mode", std::string("hard"),
             "Level distribution: 'easy', 'hard', and per game 'extreme', 'memory' or 'exploration'."},
            {"use_sequential_levels", false, "A completed level goes on to the next level seed (seed + 997) "
                                             "without ending the episode."},
            {"use_backgrounds", true, "Draw the game's background images."},
            {"restrict_themes", false, "One theme per game instead of several."},
            {"use_monochrome_assets", false, "Monochrome rectangles instead of sprites."},
            {"center_agent", true, "Keep the view centred on the agent (games with a moving view)."},
            {"use_generated_assets", false, "Procedurally generated sprites instead of the image assets."},
            {"paint_vel_info", false, "Paint the agent's velocity in the top-left corner."},
            {"_game", std::string(""), "procgen's game name (set by the task)."},
            {"_timeout", std::int64_t{1000}, "procgen's timeout of the game in steps (set by the task)."},
            {"_library_root", std::string(RLPOOL_PROCGEN_ROOT),
             "Folder of the unpacked procgen-mirror wheel (set from $RLPOOL_PROCGEN_ROOT or the build)."},
        },
    .spec = make_spec,
    .create = make_env<ProcgenEnv>(),
});

}  // namespace rlpool::procgen
