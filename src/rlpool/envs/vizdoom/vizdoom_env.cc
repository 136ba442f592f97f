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
// One step: the action (one value per available button, or with
// use_combined_action the index of one of EnvPool's button combinations) is
// held for frame_skip tics (DoomGame::makeAction(action, frame_skip)); the
// reward is DoomGame's reward over those tics, or with use_reward_config
// EnvPool's reward from the changes of game variables; the last screen buffer
// is resized (like OpenCV's INTER_AREA, or INTER_LINEAR) into the newest slot
// of the frame stack, channel-first. info holds the cfg's game variables and
// EnvPool's by name (with envpool_info: EnvPool's, as EnvPool reports them).
//
// Without Boost at build time (RLPOOL_VIZDOOM_MISSING) only the registration
// is compiled: making a task raises an error that says what to install.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_core/env/env.h"

#if !defined(RLPOOL_VIZDOOM_MISSING)
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ViZDoom.h"
#include "_core/gfx/resize.h"
#endif

namespace rlpool::vizdoom_env {
namespace {

constexpr int kMaxStack = 64;
constexpr int kMaxFrameSkip = 1000;
constexpr int kMaxImageSide = 1024;
constexpr std::int64_t kMaxCombinedActions = 1 << 24;  // a larger product of choices is a mistake, not a policy

// EnvPool 1.2.5's ViZDoom defaults (envpool/vizdoom/vizdoom_env.h), in the
// text form registration.py writes its dict options in: "NAME:pos:neg ...".
constexpr const char* kDefaultRewardConfig =
    "AMMO0:0.0002:-0.0001 AMMO1:0.0002:-0.0001 AMMO2:0.0002:-0.0001 AMMO3:0.001:-0.0005 AMMO4:0.001:-0.0005 "
    "AMMO5:0.001:-0.0005 AMMO6:0.002:-0.001 AMMO7:0.002:-0.001 ARMOR:0.005:-0.001 DAMAGECOUNT:0.003:-0.003 "
    "DEATHCOUNT:-0.75:0.75 FRAGCOUNT:1:-1.5 HEALTH:0.005:-0.003 HITCOUNT:0.01:-0.01 KILLCOUNT:1:0 "
    "WEAPON0:0.02:-0.01 WEAPON1:0.02:-0.01 WEAPON2:0.02:-0.01 WEAPON3:0.1:-0.05 WEAPON4:0.1:-0.05 "
    "WEAPON5:0.1:-0.05 WEAPON6:0.2:-0.1 WEAPON7:0.2:-0.1";
constexpr const char* kDefaultWeaponRewardConfig = "0:0.0002 1:0.0002 2:0.0002 3:0.001 4:0.001 5:0.001 6:0.002 7:0.002";

// The game variables EnvPool adds to every cfg's and reports in info, in its order.
constexpr std::array<const char*, 16> kEnvpoolInfo = {
    "AMMO2", "AMMO3", "AMMO4", "AMMO5", "AMMO6", "AMMO7", "ARMOR", "DAMAGECOUNT", "DEATHCOUNT",
    "FRAGCOUNT", "HEALTH", "HITCOUNT", "KILLCOUNT", "SELECTED_WEAPON", "SELECTED_WEAPON_AMMO", "USER2"};

std::vector<Option> options() {
  return {
      {"cfg_path", std::string(),
       "The scenario's .cfg (filled in from the installed vizdoom package; D1-D4: from envpool-assets, fetched)."},
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
      {"use_combined_action", false, "EnvPool's discrete actions: each one a combination of the cfg's buttons."},
      {"force_speed", false, "With use_combined_action: SPEED (where available) is held in every action, as EnvPool's."},
      {"delta_button_config", std::string(),
       "With use_combined_action: {delta button: (n, min, max)}, n evenly spaced values per delta button "
       "(EnvPool's; default none: delta buttons stay 0). A dict, or its text 'NAME:n:min:max ...'."},
      {"use_reward_config", false,
       "The reward is EnvPool's, from game-variable changes (reward_config, selected_weapon_reward_config), "
       "instead of DoomGame's."},
      {"reward_config", std::string(kDefaultRewardConfig),
       "With use_reward_config: {game variable: (pos, neg)}, the reward per unit of increase and of decrease "
       "(EnvPool's defaults). A dict, or its text 'NAME:pos:neg ...'."},
      {"selected_weapon_reward_config", std::string(kDefaultWeaponRewardConfig),
       "With use_reward_config: {weapon slot 0-7: reward per step} while it is held with ammo (EnvPool's "
       "defaults). A dict, or its text 'slot:reward ...'."},
      {"weapon_duration", std::int64_t{5}, "With use_reward_config: steps a weapon is held before it earns its reward."},
      {"envpool_info", false,
       "info holds EnvPool's 16 game variables as EnvPool reports them (rlpool.compat.envpool sets it)."},
      {"use_inter_area_resize", true, "Resize like OpenCV INTER_AREA (else INTER_LINEAR)."},
      {"lmp_save_dir", std::string(), "If set, each episode is recorded as a Doom demo (.lmp) in this folder."},
  };
}

#if defined(RLPOOL_VIZDOOM_MISSING)

constexpr const char* kMissing =
    "this rlpool was built without ViZDoom's controller library, which needs Boost at build time: install "
    "Boost (Debian/Ubuntu: apt-get install libboost-dev libboost-filesystem-dev libboost-thread-dev "
    "libboost-system-dev libboost-chrono-dev) and rebuild rlpool";

[[noreturn]] void missing() { throw std::runtime_error(kMissing); }

static const bool kRegistered = register_env_type({
    .name = "Vizdoom",
    .options = options(),
    .spec = [](const Config&) -> EnvSpec { missing(); },
    .create = [](const Config&) -> std::unique_ptr<Env> { missing(); },
    .unavailable = kMissing,
});

#else

// "TOKEN:TOKEN ..." (the text form of EnvPool's dict options) as lists of
// tokens, each entry with `fields` of them; errors name the option.
std::vector<std::vector<std::string>> parse_entries(const std::string& option, const std::string& text,
                                                    std::size_t fields) {
  std::vector<std::vector<std::string>> entries;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    std::vector<std::string> entry;
    std::size_t start = 0;
    for (std::size_t colon; (colon = word.find(':', start)) != std::string::npos; start = colon + 1) {
      entry.push_back(word.substr(start, colon - start));
    }
    entry.push_back(word.substr(start));
    if (entry.size() != fields) {
      throw std::invalid_argument(option + ": entry '" + word + "' must have " + std::to_string(fields) +
                                  " ':'-separated fields");
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

double parse_number(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) {
    throw std::invalid_argument(option + ": '" + text + "' is not a finite number");
  }
  return v;
}

// EnvPool keeps its option values as float32 and computes with them widened.
double as_f32(double v) { return static_cast<double>(static_cast<float>(v)); }

struct Options {
  std::string cfg_path, wad_path, vzd_path, iwad_path, map_id, game_args, lmp_save_dir;
  std::int64_t img_height, img_width, stack_num, frame_skip, weapon_duration;
  bool episodic_life, use_inter_area_resize, use_combined_action, force_speed, use_reward_config, envpool_info;
  std::string delta_button_config, reward_config, selected_weapon_reward_config;

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
        weapon_duration(c.get_int_in("weapon_duration", 0, INT32_MAX)),
        episodic_life(c.get_bool("episodic_life")),
        use_inter_area_resize(c.get_bool("use_inter_area_resize")),
        use_combined_action(c.get_bool("use_combined_action")),
        force_speed(c.get_bool("force_speed")),
        use_reward_config(c.get_bool("use_reward_config")),
        envpool_info(c.get_bool("envpool_info")),
        delta_button_config(c.get_string("delta_button_config")),
        reward_config(c.get_string("reward_config")),
        selected_weapon_reward_config(c.get_string("selected_weapon_reward_config")) {
    // The engine runs in a folder of its own: relative paths are the caller's.
    for (std::string* path : {&cfg_path, &wad_path, &vzd_path, &iwad_path, &lmp_save_dir}) {
      if (!path->empty()) *path = std::filesystem::absolute(*path).string();
    }
    check_file("cfg_path", cfg_path, "the scenario's .cfg file");
    if (!wad_path.empty()) check_file("wad_path", wad_path, "the scenario's .wad file");
    check_file("vzd_path", vzd_path,
               "the ViZDoom engine; install vizdoom: pip install 'vizdoom==1.3.2' (rlpool's vizdoom extra: "
               "pip install '.[vizdoom]' in an rlpool checkout)");
    check_file("iwad_path", iwad_path,
               "the base game WAD; install vizdoom: pip install 'vizdoom==1.3.2' (rlpool's vizdoom extra: "
               "pip install '.[vizdoom]' in an rlpool checkout)");
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

// A game variable's name, as ViZDoom's cfg and Python enum spell it
// (vizdoom::gameVariableToString says "UNKNOWN" for the four handled here).
std::string variable_name(vizdoom::GameVariable v) {
  switch (v) {
    case vizdoom::HITCOUNT: return "HITCOUNT";
    case vizdoom::HITS_TAKEN: return "HITS_TAKEN";
    case vizdoom::DAMAGECOUNT: return "DAMAGECOUNT";
    case vizdoom::DAMAGE_TAKEN: return "DAMAGE_TAKEN";
    default: return vizdoom::gameVariableToString(v);
  }
}

// ViZDoom's game variable of a name ("HEALTH"), or nullopt.
std::optional<vizdoom::GameVariable> find_game_variable(const std::string& name) {
  for (int v = 0; v <= static_cast<int>(vizdoom::USER60); ++v) {
    const auto gv = static_cast<vizdoom::GameVariable>(v);
    if (variable_name(gv) == name) return gv;
  }
  return std::nullopt;
}

vizdoom::GameVariable game_variable(const char* name) {
  auto gv = find_game_variable(name);
  if (!gv) throw std::logic_error(std::string("ViZDoom has no game variable ") + name);
  return *gv;
}

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
  // EnvPool's game variables join the cfg's (after them): its reward and info read them.
  for (const char* name : kEnvpoolInfo) game->addAvailableGameVariable(game_variable(name));
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

constexpr int kButtonCount = static_cast<int>(vizdoom::BUTTON_COUNT);

// ViZDoom's button of a name ("MOVE_LEFT"), or -1.
int find_button(const std::string& name) {
  for (int b = 0; b < kButtonCount; ++b) {
    if (vizdoom::buttonToString(static_cast<vizdoom::Button>(b)) == name) return b;
  }
  return -1;
}

// EnvPool's delta_button_config: per delta button, (count, min, max), in float32 as EnvPool keeps them.
struct DeltaRange {
  int count = 0;
  float low = 0, high = 0;
};
using DeltaConfig = std::array<DeltaRange, vizdoom::BUTTON_COUNT>;

DeltaConfig parse_delta_config(const std::string& text) {
  const std::string option = "delta_button_config";
  DeltaConfig config{};
  for (const auto& e : parse_entries(option, text, 4)) {
    const int b = find_button(e[0]);
    if (b < 0 || !vizdoom::isDeltaButton(static_cast<vizdoom::Button>(b))) {
      throw std::invalid_argument(option + ": '" + e[0] + "' is not a ViZDoom delta button (*_DELTA)");
    }
    const double count = parse_number(option, e[1]);
    if (count != std::floor(count) || std::fabs(count) > INT32_MAX) {
      throw std::invalid_argument(option + ": the count of " + e[0] + " must be an int, got '" + e[1] + "'");
    }
    config[static_cast<std::size_t>(b)] = DeltaRange{static_cast<int>(count), static_cast<float>(parse_number(option, e[2])),
                                                     static_cast<float>(parse_number(option, e[3]))};
  }
  return config;
}

// EnvPool's discrete action set: every combination of one choice per group of
// buttons, groups in ViZDoom's button order, the first varying slowest. A
// binary button is off or on (with force_speed SPEED is always on); each
// pair of opposites (MOVE_RIGHT/MOVE_LEFT, MOVE_BACKWARD/MOVE_FORWARD,
// TURN_RIGHT/TURN_LEFT, LOOK_UP/LOOK_DOWN, MOVE_UP/MOVE_DOWN, SELECT_NEXT/PREV_
// WEAPON, SELECT_NEXT/PREV_ITEM) available together is neither or one; the
// SELECT_WEAPONn buttons are none or one; a delta button takes its count of
// evenly spaced values when delta_button_config gives it one (else stays 0).
// As EnvPool's, a configured delta button the cfg lacks still multiplies the
// actions (they repeat), so that action indices stay EnvPool's.
std::vector<std::vector<double>> combined_actions(const std::vector<vizdoom::Button>& buttons, bool force_speed,
                                                  const DeltaConfig& delta) {
  using Press = std::pair<std::size_t, double>;  // (position in the action vector, value)
  using Group = std::vector<std::vector<Press>>;  // its choices
  std::array<int, vizdoom::BUTTON_COUNT> at;
  at.fill(-1);
  for (std::size_t i = 0; i < buttons.size(); ++i) at[static_cast<std::size_t>(buttons[i])] = static_cast<int>(i);
  auto pos = [&](int b) { return static_cast<std::size_t>(at[static_cast<std::size_t>(b)]); };
  auto has = [&](int b) { return at[static_cast<std::size_t>(b)] >= 0; };
  std::vector<Group> groups;
  for (int b = 0; b < kButtonCount;) {
    const bool pair_start = b == vizdoom::MOVE_RIGHT || b == vizdoom::MOVE_BACKWARD || b == vizdoom::TURN_RIGHT ||
                            b == vizdoom::LOOK_UP || b == vizdoom::MOVE_UP || b == vizdoom::SELECT_NEXT_WEAPON ||
                            b == vizdoom::SELECT_NEXT_ITEM;
    if (vizdoom::isDeltaButton(static_cast<vizdoom::Button>(b))) {
      const DeltaRange& d = delta[static_cast<std::size_t>(b)];
      if (d.count > 1) {
        Group g;
        // float steps, accumulated, as EnvPool computes the values
        const float step = (d.high - d.low) / static_cast<float>(d.count - 1);
        float value = d.low;
        for (int i = 0; i < d.count; ++i, value += step) {
          g.push_back(has(b) ? std::vector<Press>{{pos(b), value}} : std::vector<Press>{});
        }
        groups.push_back(std::move(g));
      }
      ++b;
    } else if (b == vizdoom::SELECT_WEAPON1) {  // SELECT_WEAPON1..9, SELECT_WEAPON0
      Group g{{}};
      for (int w = vizdoom::SELECT_WEAPON1; w <= vizdoom::SELECT_WEAPON0; ++w) {
        if (has(w)) g.push_back({{pos(w), 1.0}});
      }
      groups.push_back(std::move(g));
      b = vizdoom::SELECT_WEAPON0 + 1;
    } else if (pair_start && has(b) && has(b + 1)) {
      groups.push_back(Group{{}, {{pos(b), 1.0}}, {{pos(b + 1), 1.0}}});
      b += 2;
    } else {
      if (has(b)) {
        if (b == vizdoom::SPEED && force_speed) {
          groups.push_back(Group{{{pos(b), 1.0}}});
        } else {
          groups.push_back(Group{{}, {{pos(b), 1.0}}});
        }
      }
      ++b;
    }
  }
  std::int64_t total = 1;
  for (const auto& g : groups) {
    total *= static_cast<std::int64_t>(g.size());
    if (total > kMaxCombinedActions) {
      throw std::invalid_argument("use_combined_action: more than " + std::to_string(kMaxCombinedActions) +
                                  " button combinations (see delta_button_config)");
    }
  }
  std::vector<std::vector<double>> actions(static_cast<std::size_t>(total), std::vector<double>(buttons.size(), 0.0));
  for (std::int64_t index = 0; index < total; ++index) {
    std::int64_t rest = index;
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {  // the last group varies fastest
      const auto n = static_cast<std::int64_t>(g->size());
      for (const auto& [i, value] : (*g)[static_cast<std::size_t>(rest % n)]) {
        actions[static_cast<std::size_t>(index)][i] = value;
      }
      rest /= n;
    }
  }
  return actions;
}

// EnvPool's reward from game-variable changes, with its bookkeeping: per
// variable, pos per unit of increase and neg per unit of decrease (as
// reward_config gives them, float32); DAMAGECOUNT counts at most 200 and
// HITCOUNT at most 5 a step; a negative HEALTH (ViZDoom reports one for a dead
// player) counts as the last one; HITCOUNT, DAMAGECOUNT and DEATHCOUNT count
// from the episode's start (ViZDoom may carry them over). A weapon held
// weapon_duration steps, with ammo, earns its selected_weapon_reward_config
// every step. Sums in float32, as EnvPool's.
class RewardShaper {
 public:
  RewardShaper(const Options& o, const std::vector<vizdoom::GameVariable>& variables)
      : variables_(variables),
        pos_(variables.size(), 0.0),
        neg_(variables.size(), 0.0),
        base_(variables.size(), 0.0),
        duration_(o.weapon_duration) {
    for (const auto& e : parse_entries("reward_config", o.reward_config, 3)) {
      const auto gv = find_game_variable(e[0]);
      if (!gv) throw std::invalid_argument("reward_config: '" + e[0] + "' is not a ViZDoom game variable");
      const double pos = as_f32(parse_number("reward_config", e[1]));
      const double neg = as_f32(parse_number("reward_config", e[2]));
      // As EnvPool's, a variable neither the cfg nor EnvPool makes available is not read.
      const auto it = std::find(variables_.begin(), variables_.end(), *gv);
      if (it == variables_.end()) continue;
      pos_[static_cast<std::size_t>(it - variables_.begin())] = pos;
      neg_[static_cast<std::size_t>(it - variables_.begin())] = neg;
    }
    const std::string option = "selected_weapon_reward_config";
    for (const auto& e : parse_entries(option, o.selected_weapon_reward_config, 2)) {
      const double slot = parse_number(option, e[0]);
      if (slot != std::floor(slot) || slot < 0 || slot > 7) {
        throw std::invalid_argument(option + ": weapon slot '" + e[0] + "' must be an int in [0, 7]");
      }
      weapon_[static_cast<std::size_t>(slot)] = as_f32(parse_number(option, e[1]));
    }
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      const auto v = variables_[i];
      if (v == vizdoom::HITCOUNT || v == vizdoom::DAMAGECOUNT || v == vizdoom::DEATHCOUNT) counters_.push_back(i);
    }
  }

  // A new episode (or a respawn): every change counts from here.
  float reset(const std::vector<double>& raw) {
    load(raw, true);
    std::vector<double> last = raw;
    for (auto i : counters_) last[i] = 0.0;
    selected_ = -1;
    held_ = 0;
    return shaped(last);
  }

  float step(const std::vector<double>& raw) {
    std::vector<double> last = values_;
    load(raw, false);
    return shaped(last);
  }

  // The variables as EnvPool reports them (counters from the episode's start, HEALTH kept non-negative).
  const std::vector<double>& values() const { return values_; }

 private:
  void load(const std::vector<double>& raw, bool first) {
    values_ = raw;
    for (auto i : counters_) {
      if (first) base_[i] = raw[i];
      values_[i] -= base_[i];
    }
  }

  float shaped(std::vector<double>& last) {
    float reward = 0.0F;
    int weapon = -1;
    int ammo = 0;
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      double& now = values_[i];
      double delta = now - last[i];
      switch (variables_[i]) {
        case vizdoom::DAMAGECOUNT: delta = std::min(delta, 200.0); break;
        case vizdoom::HITCOUNT: delta = std::min(delta, 5.0); break;
        case vizdoom::SELECTED_WEAPON: weapon = static_cast<int>(now); break;
        case vizdoom::SELECTED_WEAPON_AMMO: ammo = static_cast<int>(now); break;
        case vizdoom::HEALTH:
          if (last[i] < 0 && now < 0) {
            last[i] = now = 100;
          } else if (now < 0) {
            now = last[i];
          } else if (last[i] < 0) {
            last[i] = now;
          }
          delta = now - last[i];
          break;
        default: break;
      }
      if (delta >= 0) {
        reward += static_cast<float>(delta * pos_[i]);
      } else {
        reward -= static_cast<float>(delta * neg_[i]);
      }
    }
    if (weapon == selected_) {
      ++held_;
    } else {
      selected_ = weapon;
      held_ = 1;
    }
    if (weapon >= 0 && weapon < static_cast<int>(weapon_.size()) && held_ >= duration_ && ammo > 0) {
      reward = static_cast<float>(static_cast<double>(reward) + weapon_[static_cast<std::size_t>(weapon)]);
    }
    return reward;
  }

  std::vector<vizdoom::GameVariable> variables_;
  std::vector<double> pos_, neg_, base_, values_;
  std::array<double, 10> weapon_{};
  std::vector<std::size_t> counters_;  // HITCOUNT, DAMAGECOUNT, DEATHCOUNT
  std::int64_t duration_;
  int selected_ = -1;
  std::int64_t held_ = 0;
};

std::vector<ArraySpec> info_entries(vizdoom::DoomGame& game, const Options& o) {
  std::vector<ArraySpec> info;
  auto entry = [](std::string name) {
    return ArraySpec{.name = std::move(name), .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}};
  };
  if (o.envpool_info) {
    for (const char* name : kEnvpoolInfo) info.push_back(entry(name));
    return info;
  }
  for (auto v : game.getAvailableGameVariables()) info.push_back(entry(variable_name(v)));
  return info;
}

// The action spec: one value per button, or the index of a combined action.
ArraySpec action_entry(vizdoom::DoomGame& game, const Options& o) {
  if (o.use_combined_action) {
    const auto n = static_cast<double>(
        combined_actions(game.getAvailableButtons(), o.force_speed, parse_delta_config(o.delta_button_config)).size());
    return ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {n - 1}};
  }
  const auto buttons = static_cast<std::int64_t>(game.getAvailableButtonsSize());
  // One value per available button, as DoomGame::makeAction takes them
  // (binary buttons: non-zero is pressed; delta buttons: the amount).
  return ArraySpec{.name = "action", .dtype = DType::kFloat64, .shape = {buttons}, .low = {}, .high = {}};
}

EnvSpec make_spec(const Config& config) {
  const Options o(config);
  auto game = configured_game(o);
  const auto layout = screen_layout(*game);
  if (game->getAvailableButtonsSize() == 0) {
    throw std::invalid_argument("cfg_path '" + o.cfg_path + "' makes no button available");
  }
  // The reward and delta options are checked here, so that a bad one fails at make() (before any engine starts).
  const RewardShaper check(o, game->getAvailableGameVariables());
  (void)check;
  (void)parse_delta_config(o.delta_button_config);
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs",
                        .dtype = DType::kUInt8,
                        .shape = {layout.channels * o.stack_num, o.img_height, o.img_width},
                        .low = {0},
                        .high = {255}}},
      .action = action_entry(*game, o),
      .info = info_entries(*game, o),
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
        combined_(o_.use_combined_action ? combined_actions(game_->getAvailableButtons(), o_.force_speed,
                                                            parse_delta_config(o_.delta_button_config))
                                         : std::vector<std::vector<double>>{}),
        frame_size_(static_cast<std::size_t>(layout_.channels * o_.img_height * o_.img_width)),
        frames_(frame_size_ * static_cast<std::size_t>(o_.stack_num)) {
    const auto method = o_.use_inter_area_resize ? Resizer::Method::kArea : Resizer::Method::kLinear;
    const int cn = layout_.planar ? 1 : layout_.channels;
    resizer_ = std::make_unique<Resizer>(layout_.height, layout_.width, static_cast<int>(o_.img_height),
                                         static_cast<int>(o_.img_width), cn, method);
    if (o_.use_reward_config || o_.envpool_info) {
      shaper_ = std::make_unique<RewardShaper>(o_, variables_);
      for (const char* name : kEnvpoolInfo) {
        const auto it = std::find(variables_.begin(), variables_.end(), game_variable(name));
        envpool_info_.push_back(static_cast<std::size_t>(it - variables_.begin()));
      }
    }
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
    if (shaper_) {
      if (auto state = game_->getState()) shaper_->reset(state->gameVariables);
    }
    push_screen();
    for (std::int64_t i = 0; i + 1 < o_.stack_num; ++i) {
      std::copy_n(newest(), frame_size_, frames_.begin() + static_cast<std::ptrdiff_t>(i * frame_size_));
    }
    write(out);
    *out.reward = 0.0;
    *out.terminated = false;
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    if (o_.use_combined_action) {
      const std::int64_t i = action.discrete();
      if (i < 0 || i >= static_cast<std::int64_t>(combined_.size())) {
        throw std::out_of_range("action " + std::to_string(i) + " is not in [0, " + std::to_string(combined_.size()) +
                                ")");
      }
      action_ = combined_[static_cast<std::size_t>(i)];
    } else {
      std::copy_n(action.continuous(), action_.size(), action_.begin());
    }
    const bool lives_before = !game_->isPlayerDead();
    double reward = guarded("step", [&] {
      return game_->makeAction(action_, static_cast<unsigned int>(o_.frame_skip));
    });
    const bool finished = game_->isEpisodeFinished();
    if (shaper_) {
      // A finished episode has no state: as EnvPool's, its last step earns 0 and info keeps the last values.
      auto state = game_->getState();
      const float shaped = state ? shaper_->step(state->gameVariables) : 0.0F;
      if (o_.use_reward_config) reward = shaped;
    }
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
    if (o_.envpool_info) {
      const auto& values = shaper_->values();
      for (std::size_t i = 0; i < envpool_info_.size(); ++i) out.put_info(i, values[envpool_info_[i]]);
      return;
    }
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
  std::vector<std::vector<double>> combined_;  // use_combined_action: the button vector of each action
  std::unique_ptr<RewardShaper> shaper_;       // use_reward_config or envpool_info
  std::vector<std::size_t> envpool_info_;      // envpool_info: where EnvPool's info variables are in variables_
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

// Held around each engine's fork (see family.cmake): one spawn at a time.
std::mutex& rlpool_vizdoom_spawn_mutex() {
  static std::mutex mu;
  return mu;
}
#endif
