// The environment interface: what one env declares and what it implements.
//
// An env is a plain C++ class deriving from `Env`, plus one `register_env_type`
// call that says which options it takes and which arrays it writes. The engine
// owns episode bookkeeping -- elapsed steps, time-limit truncation, autoreset
// (episode.h), seeding (pool.h) -- so an env only implements the dynamics.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "_core/env/rng.h"

namespace rlpool {

enum class DType : std::uint8_t { kBool, kInt8, kUInt8, kInt32, kInt64, kFloat32, kFloat64, kInt16 };

std::size_t dtype_size(DType dtype);
const char* dtype_name(DType dtype);

// One array an env writes per step (an observation or an info entry), or its
// action. `shape` is the per-env shape; bounds are empty (unbounded), one value
// (broadcast) or one value per element.
struct ArraySpec {
  // Members a designated initializer may leave out have default initializers (no
  // -Wmissing-field-initializers for them).
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<std::int64_t> shape = {};
  std::vector<double> low = {};
  std::vector<double> high = {};

  std::int64_t num_elements() const {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
  std::size_t num_bytes() const { return static_cast<std::size_t>(num_elements()) * dtype_size(dtype); }
};

// How the observation entries are handed to Python: one array (exactly one
// entry), a dict keyed by entry name, or a tuple in entry order. Every API face
// reads this one field; nothing is inferred from entry names or counts. A dict's
// entry named "outer.inner" is entry `inner` of a nested dict `outer` (one level:
// gymnasium-robotics' {"achieved_goal": {"kettle": ...}}); the outer keys come in
// the order of their first entry, a nested dict's keys in entry order.
enum class ObsKind : std::uint8_t { kArray, kDict, kTuple };
const char* obs_kind_name(ObsKind kind);

// What an env of a given configuration looks like from outside.
struct EnvSpec {
  std::vector<ArraySpec> obs = {};
  ObsKind obs_kind = ObsKind::kArray;
  // Discrete actions: dtype kInt64, shape {}, low {0}, high {n - 1}.
  // Continuous actions: dtype kFloat32 or kFloat64, the dtype of the action
  // space Python shows (gymnasium's tasks: float32; dm_control's: float64);
  // the engine takes either from Python and hands the env float64 values
  // (Action::continuous) whatever the dtype. Shape {dim}, low/high per element.
  ArraySpec action = {};
  // Env-specific info entries (the engine adds env_id and elapsed_step itself).
  // An entry whose name starts with '_' is hidden: rlpool's own faces leave it
  // out, while an API layer may show it under a key of its own (the Python Pool's
  // info_keys).
  std::vector<ArraySpec> info = {};
  // The env writes a discount of its own (Output::discount), for dm_env's
  // TimeStep: e.g. Atari's zero_discount_on_life_loss. Without it the
  // discount is 0 on termination and 1 otherwise.
  bool has_discount = false;
  // Rendering (render_mode="rgb_array"/"human", Env::render): the frame size
  // the env draws at by itself, 0 x 0 where it does not render. An env with
  // render_any_size draws at any requested size (MuJoCo's renderer); for the
  // others the engine draws at this size and resizes (_core/gfx/resize.h).
  int render_width = 0;
  int render_height = 0;
  bool render_any_size = false;
  double render_fps = 30.0;  // gymnasium's metadata["render_fps"]: frames per second of a video
  // The views a caller may pick besides the default (-1): camera ids
  // 0..render_cameras-1 (MuJoCo's fixed cameras); 0 for one-view envs.
  int render_cameras = 0;
  // Several agents in one env (0: one agent, today's shapes). With num_agents
  // = A > 0, reward, terminated and truncated are per agent: each row holds A
  // of them (Output::reward/terminated/truncated point at A values), and the
  // env declares its per-agent observation entries with the agent axis first
  // ({A, ...}). The episode is over when every agent is terminated or
  // truncated; an agent that finishes earlier keeps its flag set, gets reward
  // 0 and has its action ignored for the rest of the episode (the env's duty).
  // The engine's time limit truncates every agent.
  int num_agents = 0;
  // A game where one agent moves per step: the action is that agent's (shape
  // {} for a discrete one), and the env writes an int32 info entry
  // "current_player" (the agent to move) and a bool
  // info entry "legal_action_mask" of shape {num_actions}.
  bool turn_based = false;

  bool discrete_action() const { return action.dtype == DType::kInt64; }
  // How many agents a row's reward and flags hold (1 for a single-agent env).
  int agents_per_row() const { return num_agents > 0 ? num_agents : 1; }
};

// Throws std::invalid_argument, naming `env_type` and the entry, where a dict
// observation's entry names cannot key its dict: each is "name" or
// "outer.inner" (one level of nesting, no empty part), none repeats, and no
// name is both a plain entry and a nested dict.
void check_obs_names(const EnvSpec& spec, const std::string& env_type);

// Throws std::logic_error, naming `env_type`, where a spec breaks the
// multi-agent rules (EnvSpec::num_agents, turn_based): 0..kMaxAgents agents;
// a turn-based game has agents, a scalar action and the info entries
// current_player (int32) and legal_action_mask (bool, one per action); a
// simultaneous multi-agent env's action has the agent axis first.
inline constexpr int kMaxAgents = 256;
void check_agents(const EnvSpec& spec, const std::string& env_type);

// Positions of info entries, looked up by name in EnvSpec::info once, when an
// env is built: the spec alone says which entries there are and in what
// order, so no env writes info at a literal position that has to match a name
// list elsewhere. info_index is for an entry every configuration has (a
// missing one is a bug in the env type: std::logic_error); find_info for one
// that some configurations lack (e.g. v5 only): std::nullopt where absent.
std::size_t info_index(const std::vector<ArraySpec>& info, std::string_view name);
std::optional<std::size_t> find_info(const std::vector<ArraySpec>& info, std::string_view name);

// numpy's np.float32(x): x rounded to the nearest float32, for envs that
// follow gymnasium's float32 arithmetic (it widens back to double exactly).
inline float f32(double x) { return static_cast<float>(x); }

using OptionValue = std::variant<bool, std::int64_t, double, std::string>;

struct Option {
  std::string name;
  OptionValue default_value;
  std::string doc;
  // A float option that may be +-inf (a range's end, where inf means no bound;
  // a time limit, where it means none): Python lets inf through only to these
  // (its checks of option values refuse NaN always, inf elsewhere), and the
  // env reads them with Config::get_bound.
  bool may_be_inf = false;
};

// Option::may_be_inf, as a declaration spells it: {"healthy_z_max", inf, "...", kMayBeInf}.
inline constexpr bool kMayBeInf = true;

// Option values after Python validated and typed them.
class Config {
 public:
  Config() = default;
  explicit Config(std::map<std::string, OptionValue> values) : values_(std::move(values)) {}

  bool get_bool(const std::string& name) const { return get<bool>(name); }
  std::int64_t get_int(const std::string& name) const { return get<std::int64_t>(name); }
  double get_double(const std::string& name) const { return get<double>(name); }
  const std::string& get_string(const std::string& name) const { return get<std::string>(name); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  // Options that have a valid range: the value, else std::invalid_argument
  // (a ValueError in Python) naming the option, the range and the value.
  // Float options must also be finite: get_finite refuses only NaN and inf.
  std::int64_t get_int_in(const std::string& name, std::int64_t low, std::int64_t high) const;
  double get_double_in(const std::string& name, double low, double high) const;
  double get_finite(const std::string& name) const;
  // A bound (a range's end) may be +-inf, meaning no bound, but not NaN.
  double get_bound(const std::string& name) const;

 private:
  template <class T>
  const T& get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw std::invalid_argument("missing option '" + name + "'");
    if (auto* v = std::get_if<T>(&it->second)) return *v;
    throw std::invalid_argument("option '" + name + "' has the wrong type");
  }
  std::map<std::string, OptionValue> values_;
};

// A std::bad_alloc that says what could not be allocated: whatever catches
// it as bad_alloc (nanobind: MemoryError) keeps both the kind and the text.
class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// The action for one env, stored by the engine in its per-env action buffer.
// A discrete action may have a shape (one integer per agent: discrete(i)).
struct Action {
  const void* data;
  std::int64_t discrete(std::size_t i = 0) const { return static_cast<const std::int64_t*>(data)[i]; }
  const double* continuous() const { return static_cast<const double*>(data); }
};

// Where one env writes one step's results: its row of each batch array.
// A multi-agent env (EnvSpec::num_agents) writes one reward, terminated and
// truncated per agent at reward[i], terminated[i], truncated[i].
struct Output {
  void* const* obs;   // one pointer per EnvSpec::obs entry
  void* const* info;  // one pointer per EnvSpec::info entry
  double* reward;
  bool* terminated;
  // EnvSpec::has_discount only (else nullptr): preset to 1 by the engine.
  float* discount = nullptr;
  // reset() only. In: the episode that ended was cut by the time limit. Out
  // (preset false): this reset goes on with the same game, as Atari's
  // episodic_life does after a lost life, so the engine keeps counting
  // elapsed steps towards the time limit instead of restarting at 0.
  bool time_limit_hit = false;
  bool* continues_game = nullptr;
  // step() only (preset false): the env ends the episode by a limit of its own
  // (truncation, not termination), e.g. Minigrid's per-episode max_steps. The
  // engine's time limit truncates as well, whichever comes first.
  bool* truncated = nullptr;

  template <class T>
  T* obs_as(std::size_t i = 0) const { return static_cast<T*>(obs[i]); }
  template <class T>
  T* info_as(std::size_t i) const { return static_cast<T*>(info[i]); }
  // A float64 scalar info entry (info_index); one that some configurations
  // lack (find_info) is written only where the spec has it.
  void put_info(std::size_t i, double value) const { *info_as<double>(i) = value; }
  void put_info(std::optional<std::size_t> i, double value) const {
    if (i) put_info(*i, value);
  }
};

// One frame an env draws: `rgb` is height x width x 3 uint8, row-major, top
// row first (what gymnasium's rgb_array is). `camera_id` is the caller's,
// -1 meaning the env's default view; an env with one view ignores it.
struct Frame {
  int width;
  int height;
  int camera_id;
  std::uint8_t* rgb;
};

class Env {
 public:
  virtual ~Env() = default;
  // Start a new episode: write the first observation (and info).
  virtual void reset(Rng& rng, const Output& out) = 0;
  // Advance one step: write observation, reward, terminated (and info).
  virtual void step(const Action& action, Rng& rng, const Output& out) = 0;
  // Optional two-phase step, for envs with large outputs: advance() does the
  // work and keeps the results, emit() writes them. In async mode the engine
  // then picks the output row after advance(), when the env is done, so the
  // results go straight into the batch handed to Python (no staging copy).
  // step() must equal advance() then emit().
  virtual bool two_phase() const { return false; }
  virtual void advance(const Action& /*action*/, Rng& /*rng*/) {}
  virtual void emit(const Output& /*out*/) {}
  // Called once by the pool's close(), after its workers stopped: an env that
  // holds an outside resource (ViZDoom's engine process) ends it here rather
  // than when Python collects the pool. No other call follows it.
  virtual void close() {}
  // Draw the env's current state (EnvSpec::render_width/height says the
  // size; only envs with render_any_size are asked for other sizes).
  // Called between steps, never while the env is stepping, on any thread.
  virtual void render(const Frame& /*frame*/) { throw std::logic_error("this env does not render"); }
  // Snapshot and restore of the dynamic state, as raw bytes. Optional.
  virtual std::string get_state() const { throw std::logic_error("this env does not support get_state"); }
  virtual void set_state(std::string_view /*state*/) { throw std::logic_error("this env does not support set_state"); }
};

// A registered kind of env: its options and how to build its spec and instances.
struct EnvType {
  std::string name;
  std::vector<Option> options = {};
  std::function<EnvSpec(const Config&)> spec;
  std::function<std::unique_ptr<Env>(const Config&)> create;
  // Used instead of `create` where set: for an env type whose envs differ by
  // their place in the pool (a multi-task pool whose env i runs the i-th task
  // of a list), made with the env's index 0..num_envs-1.
  std::function<std::unique_ptr<Env>(const Config&, int env_index)> create_at = {};
  // Non-empty where this build cannot make the env type (a library it needs was
  // missing at build time): the reason, naming what to install. Its tasks stay
  // registered, so that making one raises this instead of "unknown task".
  std::string unavailable = {};
};

// The `create` of an env type whose instances are E(config, args...), so that a
// registration names its class (`.create = make_env<CartPole>()`) instead of
// spelling out a lambda. `args` (e.g. a task version) are copied into it.
template <class E, class... Args>
std::function<std::unique_ptr<Env>(const Config&)> make_env(Args... args) {
  return [args...](const Config& config) -> std::unique_ptr<Env> { return std::make_unique<E>(config, args...); };
}

// Registers at static-initialisation time; returns true so that a file can write
// `static const bool registered = register_env_type({...});`.
bool register_env_type(EnvType type);
const EnvType& find_env_type(const std::string& name);
std::vector<std::string> env_type_names();

// Helper for state snapshots of plain structs.
template <class T>
std::string pod_state(const T& value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
}
template <class T>
void load_pod_state(std::string_view bytes, T& value) {
  if (bytes.size() != sizeof(T)) {
    throw std::invalid_argument("state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                std::to_string(sizeof(T)));
  }
  std::memcpy(&value, bytes.data(), sizeof(T));
}

// A state's numbers must be finite: no step makes a NaN or an infinity, and every later step
// would carry it on. `names(i)` names entry i in the message ("qpos[3]").
template <class Names>
void check_finite_state(const double* values, std::size_t n, Names names) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument("state entry " + names(i) + " is " + std::to_string(values[i]) +
                                  ": a state holds finite numbers");
    }
  }
}

// A state of N float64 numbers (classic control: gymnasium's `state`), refused whole, leaving
// `value` as it was, when its size is wrong or any number is not finite.
template <std::size_t N>
void load_finite_state(std::string_view bytes, std::array<double, N>& value) {
  std::array<double, N> loaded{};
  load_pod_state(bytes, loaded);
  check_finite_state(loaded.data(), N, [](std::size_t i) { return std::to_string(i); });
  value = loaded;
}

}  // namespace rlpool
