// NumbaEnv: an env whose reset, step and (optionally) render are Python
// functions that numba compiled into C-callable functions
// (rlpool/python_env.py).
//
// A task's config carries the function addresses (`_reset_fn`, `_step_fn`,
// `_render_fn`, 0 where the task does not render) and a compact text
// description of its arrays and frame size (`_spec`), so one C++ type serves
// every Python-written task and the engine does not change.
// Each call gets one array of pointers (the slots below): the env's own state
// buffer, its params, its Rng, the action and its rows of the Output. The
// compiled code views them as numpy arrays of exactly the declared shapes with
// every index bounds-checked, so it writes nowhere else. It returns 1 on
// success; on a Python exception it stores the message through the error slot
// (with the GIL held, from the compiled code) and returns 0, and this env
// turns that into a std::runtime_error, which the engine hands to Python.
// render gets a copy of the state (what it writes there is discarded) and a
// zeroed frame of the declared size, so a frame depends on the state alone.
#include <Python.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

#include "_core/env/env.h"

namespace rlpool::python_env {
namespace {

// Argument slots; rlpool/python_env.py indexes them with the same numbers.
enum Slot : std::size_t {
  kParamsF64,    // double[num float params]
  kParamsI64,    // int64[num int/bool params]
  kRng,          // Rng* of this env
  kRngApi,       // kRngFunctions below
  kErrorFn,      // capture_python_error
  kErrorCtx,     // std::string* the message goes to
  kAction,       // int64 (discrete) or double[dim]
  kReward,       // double*
  kTerminated,   // bool*
  kFrame,        // uint8[height][width][3] (render only)
  kFirstArray,   // state fields, then obs entries, then info entries
};

using Entry = std::int32_t (*)(void* const* args);

// The random numbers compiled code may draw: this env's engine Rng, so a
// Python env's streams are the engine's (per env, seeded as every env is).
std::uint64_t rng_next(void* rng) { return static_cast<Rng*>(rng)->next(); }
double rng_uniform(void* rng) { return static_cast<Rng*>(rng)->uniform(); }
double rng_normal(void* rng) { return static_cast<Rng*>(rng)->normal(); }
std::uint64_t rng_integer(void* rng, std::uint64_t n) { return static_cast<Rng*>(rng)->integer(n); }
void* const kRngFunctions[] = {reinterpret_cast<void*>(&rng_next), reinterpret_cast<void*>(&rng_uniform),
                               reinterpret_cast<void*>(&rng_normal), reinterpret_cast<void*>(&rng_integer)};

// Called by compiled code with the GIL held and a Python exception set:
// moves "Type: message" into the std::string at `ctx` and clears the error.
void capture_python_error(void* ctx) {
  auto& out = *static_cast<std::string*>(ctx);
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* value = PyErr_GetRaisedException();
#else
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
#endif
  if (value == nullptr) {
    out = "an exception";
    return;
  }
  out = Py_TYPE(value)->tp_name;
  if (PyObject* text = PyObject_Str(value)) {
    if (const char* utf8 = PyUnicode_AsUTF8(text); utf8 != nullptr && *utf8 != '\0') out += std::string(": ") + utf8;
    Py_DECREF(text);
  }
  PyErr_Clear();
  Py_DECREF(value);
}

// Keeps a Python thread state for the life of a pool's worker thread once it
// has run a Python-written env. numba's objmode blocks (and guarded_call) take
// the GIL with PyGILState_Ensure; on a thread without a thread state of its
// own each of them makes a temporary one that PyGILState_Release deletes at
// the end of the block, and with it the exception the block raised, before
// guarded_call could read its text (the caller saw only "raised an
// exception"). With this state in place the exception stays set between the
// two. The state goes with the thread; at interpreter exit (finalization
// begun) it is left to the process, since taking the GIL then would end the
// thread inside this destructor.
class WorkerThreadState {
 public:
  void ensure() {
    if (saved_ != nullptr || PyGILState_GetThisThreadState() != nullptr) return;  // e.g. the caller's thread
    gil_ = PyGILState_Ensure();
    saved_ = PyEval_SaveThread();
  }
  ~WorkerThreadState() {
    if (saved_ == nullptr || finalizing()) return;
    PyEval_RestoreThread(saved_);
    PyGILState_Release(gil_);
  }

 private:
  static bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing() != 0;
#else
    return _Py_IsFinalizing() != 0;
#endif
  }
  PyThreadState* saved_ = nullptr;
  PyGILState_STATE gil_{};
};
thread_local WorkerThreadState worker_thread_state;

// A task's description, parsed from its `_spec` option.
struct Program {
  std::string task;
  Entry reset = nullptr;
  Entry step = nullptr;
  Entry render = nullptr;  // null: the task does not render (spec.render_width/height 0)
  EnvSpec spec;
  std::size_t state_bytes = 0;
  std::vector<std::size_t> state_offsets;  // one per state field, 8-byte aligned
  struct Param {
    std::string name;
    char kind;  // 'f' float64, 'i' int64, 'b' bool (as int64)
  };
  std::vector<Param> params;
};

DType parse_dtype(const std::string& name) {
  for (DType d : {DType::kBool, DType::kUInt8, DType::kInt32, DType::kInt64, DType::kFloat32, DType::kFloat64}) {
    if (name == dtype_name(d)) return d;
  }
  throw std::invalid_argument("unknown dtype '" + name + "'");
}

double parse_double(const std::string& token) {
  // strtod reads what Python's float.hex() and repr() write, inf included.
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0') throw std::invalid_argument("bad number '" + token + "'");
  return v;
}

template <class T>
T read(std::istringstream& in, const char* what) {
  T v;
  if (!(in >> v)) throw std::invalid_argument(std::string("expected ") + what);
  return v;
}

// `<name> <dtype> <ndim> <dims...> <nlow> <lows...> <nhigh> <highs...>`
ArraySpec parse_array(std::istringstream& in) {
  ArraySpec a;
  a.name = read<std::string>(in, "a name");
  a.dtype = parse_dtype(read<std::string>(in, "a dtype"));
  const auto ndim = read<std::int64_t>(in, "ndim");
  if (ndim < 0 || ndim > 8) throw std::invalid_argument("ndim out of range");
  for (std::int64_t i = 0; i < ndim; ++i) {
    const auto d = read<std::int64_t>(in, "a dimension");
    if (d < 1 || d > (1 << 24)) throw std::invalid_argument("dimension out of range");
    a.shape.push_back(d);
  }
  if (a.num_elements() > (1 << 24)) throw std::invalid_argument("array too large");
  for (auto* bounds : {&a.low, &a.high}) {
    const auto n = read<std::int64_t>(in, "a bound count");
    if (n != 0 && n != 1 && n != a.num_elements()) throw std::invalid_argument("bad bound count");
    for (std::int64_t i = 0; i < n; ++i) bounds->push_back(parse_double(read<std::string>(in, "a bound")));
  }
  return a;
}

// The compiled render's address; 0 (none) for a task without render, or a config without the option.
std::int64_t render_fn(const Config& config) {
  return config.has("_render_fn") ? config.get_int("_render_fn") : 0;
}

Program parse_program(const Config& config) {
  Program p;
  p.reset = reinterpret_cast<Entry>(static_cast<std::uintptr_t>(config.get_int("_reset_fn")));
  p.step = reinterpret_cast<Entry>(static_cast<std::uintptr_t>(config.get_int("_step_fn")));
  p.render = reinterpret_cast<Entry>(static_cast<std::uintptr_t>(render_fn(config)));
  const std::string& text = config.get_string("_spec");
  if (p.reset == nullptr || p.step == nullptr || text.empty()) {
    throw std::invalid_argument("NumbaEnv tasks are registered by rlpool.python_env, which compiles their functions");
  }
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  bool has_action = false;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty()) continue;
    std::istringstream in(line);
    const auto key = read<std::string>(in, "a key");
    try {
      if (key == "task") {
        p.task = read<std::string>(in, "a task id");
      } else if (key == "state") {  // <offset> <bytes>
        const auto offset = read<std::int64_t>(in, "an offset");
        const auto bytes = read<std::int64_t>(in, "a size");
        if (offset < 0 || offset % 8 != 0 || bytes < 1 || offset + bytes > (1 << 28)) {
          throw std::invalid_argument("bad state field");
        }
        p.state_offsets.push_back(static_cast<std::size_t>(offset));
        p.state_bytes = std::max(p.state_bytes, static_cast<std::size_t>(offset + bytes));
      } else if (key == "obs") {
        p.spec.obs.push_back(parse_array(in));
      } else if (key == "info") {
        p.spec.info.push_back(parse_array(in));
      } else if (key == "action") {
        p.spec.action = parse_array(in);
        has_action = true;
      } else if (key == "kind") {
        const auto kind = read<std::string>(in, "array, dict or tuple");
        if (kind == "array") {
          p.spec.obs_kind = ObsKind::kArray;
        } else if (kind == "dict") {
          p.spec.obs_kind = ObsKind::kDict;
        } else if (kind == "tuple") {
          p.spec.obs_kind = ObsKind::kTuple;
        } else {
          throw std::invalid_argument("obs kind must be array, dict or tuple");
        }
      } else if (key == "render") {  // <width> <height> <fps>
        const auto width = read<std::int64_t>(in, "a frame width");
        const auto height = read<std::int64_t>(in, "a frame height");
        const double fps = parse_double(read<std::string>(in, "frames per second"));
        if (width < 1 || width > 16384 || height < 1 || height > 16384) {
          throw std::invalid_argument("frame size out of range");
        }
        if (!std::isfinite(fps) || fps <= 0) throw std::invalid_argument("render fps must be positive");
        p.spec.render_width = static_cast<int>(width);
        p.spec.render_height = static_cast<int>(height);
        p.spec.render_fps = fps;
      } else if (key == "param") {
        auto name = read<std::string>(in, "a name");
        const auto kind = read<char>(in, "a kind");
        if (kind != 'f' && kind != 'i' && kind != 'b') throw std::invalid_argument("param kind must be f, i or b");
        p.params.push_back({std::move(name), kind});
      } else {
        throw std::invalid_argument("unknown key '" + key + "'");
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("NumbaEnv _spec line " + std::to_string(number) + ": " + e.what());
    }
  }
  const ArraySpec& a = p.spec.action;
  const bool discrete = a.dtype == DType::kInt64 && a.shape.empty() && a.low.size() == 1 && a.low[0] == 0 &&
                        a.high.size() == 1 && a.high[0] >= 0;
  const bool continuous = (a.dtype == DType::kFloat32 || a.dtype == DType::kFloat64) && a.shape.size() == 1;
  if (!has_action || !(discrete || continuous)) {
    throw std::invalid_argument("NumbaEnv _spec needs a discrete (int64, low 0) or 1-D float32/float64 action");
  }
  if ((p.render != nullptr) != (p.spec.render_width > 0)) {
    throw std::invalid_argument("NumbaEnv _spec: a render line goes with a _render_fn, and only with one");
  }
  if (p.spec.obs.empty() || p.spec.obs.size() > 16 || p.spec.info.size() > 16 || p.state_offsets.size() > 64) {
    throw std::invalid_argument("NumbaEnv _spec needs 1..16 obs entries, <= 16 info entries, <= 64 state fields");
  }
  return p;
}

// Every env of a pool shares one parsed Program (the pool builds them all
// from the same config).
std::shared_ptr<const Program> program_for(const Config& config) {
  static std::mutex mu;
  static std::weak_ptr<const Program> last;
  static std::string last_key;
  const std::string key = std::to_string(config.get_int("_reset_fn")) + "/" +
                          std::to_string(config.get_int("_step_fn")) + "/" +
                          std::to_string(render_fn(config)) + "/" + config.get_string("_spec");
  std::lock_guard<std::mutex> lock(mu);
  if (auto p = last.lock(); p && key == last_key) return p;
  auto p = std::make_shared<const Program>(parse_program(config));
  last = p;
  last_key = key;
  return p;
}

class NumbaEnv final : public Env {
 public:
  explicit NumbaEnv(const Config& config)
      : p_(program_for(config)), state_((p_->state_bytes + 7) / 8, 0), render_state_(state_.size(), 0) {
    for (const auto& param : p_->params) {
      if (param.kind == 'f') {
        params_f64_.push_back(config.get_double(param.name));
      } else {
        params_i64_.push_back(param.kind == 'b' ? std::int64_t{config.get_bool(param.name)}
                                                : config.get_int(param.name));
      }
    }
    // Non-empty so that the slots always hold valid pointers.
    params_f64_.push_back(0.0);
    params_i64_.push_back(0);
    const std::size_t arrays = p_->state_offsets.size() + p_->spec.obs.size() + p_->spec.info.size();
    args_.assign(kFirstArray + arrays, nullptr);
    args_[kParamsF64] = params_f64_.data();
    args_[kParamsI64] = params_i64_.data();
    args_[kRngApi] = const_cast<void**>(kRngFunctions);
    args_[kErrorFn] = reinterpret_cast<void*>(&capture_python_error);
    args_[kErrorCtx] = &error_;
    auto* base = reinterpret_cast<std::byte*>(state_.data());
    for (std::size_t i = 0; i < p_->state_offsets.size(); ++i) args_[kFirstArray + i] = base + p_->state_offsets[i];
    // render's slots: the same, but for the copy of the state it gets.
    render_args_ = args_;
    auto* copy = reinterpret_cast<std::byte*>(render_state_.data());
    for (std::size_t i = 0; i < p_->state_offsets.size(); ++i) {
      render_args_[kFirstArray + i] = copy + p_->state_offsets[i];
    }
  }

  void reset(Rng& rng, const Output& out) override {
    call(p_->reset, "reset", nullptr, rng, out);
    failed_ = false;
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    if (failed_) {
      throw std::runtime_error(p_->task + ": this env raised an exception in an earlier call and must be reset " +
                               "before it steps again");
    }
    call(p_->step, "step", action.data, rng, out);
  }

  void render(const Frame& frame) override {
    if (p_->render == nullptr) throw std::logic_error("this env does not render");
    if (frame.width != p_->spec.render_width || frame.height != p_->spec.render_height) {
      throw std::logic_error(p_->task + ": asked for a " + std::to_string(frame.width) + "x" +
                             std::to_string(frame.height) + " frame; it draws only at its declared size");
    }
    std::memset(frame.rgb, 0, static_cast<std::size_t>(frame.width) * static_cast<std::size_t>(frame.height) * 3);
    std::copy(state_.begin(), state_.end(), render_state_.begin());
    render_args_[kFrame] = frame.rgb;
    worker_thread_state.ensure();
    const std::int32_t ok = p_->render(render_args_.data());
    render_args_[kFrame] = nullptr;
    if (ok != 1) {
      // The env's own state is untouched (render drew from a copy), so it carries on as before.
      std::string message = p_->task + ": render() raised ";
      message += error_.empty() ? std::string("an exception") : error_;
      error_.clear();
      throw std::runtime_error(message);
    }
  }

  std::string get_state() const override {
    return std::string(reinterpret_cast<const char*>(state_.data()), p_->state_bytes);
  }

  void set_state(std::string_view bytes) override {
    if (bytes.size() != p_->state_bytes) {
      throw std::invalid_argument(p_->task + ": state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                  std::to_string(p_->state_bytes));
    }
    std::memcpy(state_.data(), bytes.data(), bytes.size());
    failed_ = false;
  }

 private:
  void call(Entry fn, const char* name, const void* action, Rng& rng, const Output& out) {
    args_[kRng] = &rng;
    args_[kAction] = const_cast<void*>(action);
    args_[kReward] = out.reward;
    args_[kTerminated] = out.terminated;
    std::size_t slot = kFirstArray + p_->state_offsets.size();
    for (std::size_t i = 0; i < p_->spec.obs.size(); ++i) args_[slot++] = out.obs[i];
    for (std::size_t i = 0; i < p_->spec.info.size(); ++i) args_[slot++] = out.info[i];
    worker_thread_state.ensure();
    if (fn(args_.data()) != 1) {
      failed_ = true;
      std::string message = p_->task + ": " + name + "() raised ";
      message += error_.empty() ? std::string("an exception") : error_;
      error_.clear();
      throw std::runtime_error(message);
    }
  }

  std::shared_ptr<const Program> p_;
  std::vector<std::uint64_t> state_;  // 8-byte aligned state fields
  std::vector<std::uint64_t> render_state_;  // the copy of state_ render draws from
  std::vector<double> params_f64_;
  std::vector<std::int64_t> params_i64_;
  std::vector<void*> args_;
  std::vector<void*> render_args_;  // args_, with the state slots on render_state_ and the frame slot set
  std::string error_;
  bool failed_ = false;  // a call raised: only a reset or set_state may follow
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "NumbaEnv",
    .options = {{"_reset_fn", std::int64_t{0}, "address of the compiled reset (set by rlpool.python_env)"},
                {"_step_fn", std::int64_t{0}, "address of the compiled step (set by rlpool.python_env)"},
                {"_render_fn", std::int64_t{0}, "address of the compiled render, 0: none (set by rlpool.python_env)"},
                {"_spec", std::string(), "arrays, state and params of the task (set by rlpool.python_env)"}},
    .spec = [](const Config& config) { return program_for(config)->spec; },
    .create = make_env<NumbaEnv>(),
});

}  // namespace rlpool::python_env
