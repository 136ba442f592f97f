// Python bindings: the thin layer between a Python call and the engine.
//
// It checks and converts actions into the pool's action slots, releases the GIL
// while the engine works, and hands back numpy arrays that view batch blocks.
// Each block's arrays are made once and reused: a block whose arrays nobody but
// this cache references is free to be written again, so results Python still
// holds are never overwritten and a steady loop allocates nothing.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "_core/engine/pool.h"
#include "xla/xla_bridge.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rlpool {
namespace {

nb::dlpack::dtype to_dlpack(DType dtype) {
  switch (dtype) {
    case DType::kBool: return nb::dtype<bool>();
    case DType::kInt8: return nb::dtype<std::int8_t>();
    case DType::kUInt8: return nb::dtype<std::uint8_t>();
    case DType::kInt32: return nb::dtype<std::int32_t>();
    case DType::kInt64: return nb::dtype<std::int64_t>();
    case DType::kFloat32: return nb::dtype<float>();
    case DType::kFloat64: return nb::dtype<double>();
  }
  return nb::dtype<std::uint8_t>();
}

std::string describe_dtype(nb::dlpack::dtype d) {
  switch (static_cast<nb::dlpack::dtype_code>(d.code)) {
    case nb::dlpack::dtype_code::Int: return "int" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::UInt: return "uint" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Float: return "float" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Bool: return "bool";
    // numpy's names: complex128 holds two float64s.
    case nb::dlpack::dtype_code::Complex: return "complex" + std::to_string(d.bits);
    case nb::dlpack::dtype_code::Bfloat: return "bfloat" + std::to_string(d.bits);
    default: return "dtype code " + std::to_string(d.code) + " with " + std::to_string(d.bits) + " bits";
  }
}

std::string shape_str(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  return s + ")";
}

nb::dict array_spec_dict(const ArraySpec& a) {
  nb::dict d;
  d["name"] = a.name;
  d["dtype"] = dtype_name(a.dtype);
  d["shape"] = nb::tuple(nb::cast(a.shape));
  d["low"] = nb::cast(a.low);
  d["high"] = nb::cast(a.high);
  return d;
}

// Interpreter exit while another thread is inside the engine (issue 23, item
// 4). Python 3.11-3.13 end a daemon thread that asks for the GIL once the
// interpreter is finalizing with pthread_exit(); its forced unwind runs through
// this thread's C++ frames, and a noexcept one (gil_scoped_release's
// destructor) turns it into std::terminate: exit code 134. So after exit has
// begun no thread but the exiting one asks for the GIL from here: an atexit
// callback (run before finalization, with the GIL held) closes the gate and
// lets the threads already past it take the GIL; from then on a thread that
// would take the GIL back parks until the process ends (what Python 3.14 does
// to such threads itself). Two uncontended atomic operations per call.
namespace exit_gate {
std::atomic<int> passing{0};       // threads between pass() and passed()
std::atomic<bool> closed{false};
std::thread::id exiting_thread;    // written before `closed` is set
std::atomic<bool> parked{false};   // some thread parked: its frames hold references
// Other Python threads (daemons) were alive at exit: Python ends them without
// unwinding their frames, so whatever pools those frames hold are never freed.
std::atomic<bool> others_alive{false};
std::mutex mu;
std::condition_variable cv;

[[noreturn]] void park() {
  parked.store(true, std::memory_order_relaxed);
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Before taking the GIL; parks instead once exit has begun.
void pass() {
  passing.fetch_add(1, std::memory_order_seq_cst);
  if (closed.load(std::memory_order_seq_cst) && std::this_thread::get_id() != exiting_thread) {
    passing.fetch_sub(1, std::memory_order_seq_cst);
    { std::lock_guard<std::mutex> lock(mu); }
    cv.notify_all();
    park();
  }
}

// After the GIL was taken.
void passed() {
  if (passing.fetch_sub(1, std::memory_order_seq_cst) == 1 && closed.load(std::memory_order_seq_cst)) {
    { std::lock_guard<std::mutex> lock(mu); }
    cv.notify_all();
  }
}

// The atexit callback (GIL held): close, then wait for the threads passing.
void close() {
  exiting_thread = std::this_thread::get_id();
  closed.store(true, std::memory_order_seq_cst);
  // atexit runs after the non-daemon threads were joined: any other thread is a daemon.
  if (nb::cast<int>(nb::module_::import_("threading").attr("active_count")()) > 1) {
    others_alive.store(true, std::memory_order_relaxed);
  }
  if (passing.load(std::memory_order_seq_cst) == 0) return;
  PyThreadState* state = PyEval_SaveThread();
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [] { return passing.load(std::memory_order_seq_cst) == 0; });
  }
  PyEval_RestoreThread(state);
}

// Py_AtExit (after finalization, before nanobind's own leak report, which is
// registered earlier and so runs later): a parked thread's frames, or those of
// a daemon thread Python stopped between two engine calls, still hold their
// pools, which are not leaks to report.
void quiet_leaks() {
  if (parked.load(std::memory_order_relaxed) || others_alive.load(std::memory_order_relaxed)) {
    nb::set_leak_warnings(false);
  }
}
}  // namespace exit_gate

// nb::gil_scoped_release, through the exit gate on the way back.
class ReleasedGil {
 public:
  ReleasedGil() : state_(PyEval_SaveThread()) {}
  ~ReleasedGil() {
    exit_gate::pass();
    PyEval_RestoreThread(state_);
    exit_gate::passed();
  }
  ReleasedGil(const ReleasedGil&) = delete;
  ReleasedGil& operator=(const ReleasedGil&) = delete;

 private:
  PyThreadState* state_;
};

// nb::gil_scoped_acquire, through the exit gate.
class AcquiredGil {
 public:
  AcquiredGil() {
    exit_gate::pass();
    state_ = PyGILState_Ensure();
    exit_gate::passed();
  }
  ~AcquiredGil() { PyGILState_Release(state_); }
  AcquiredGil(const AcquiredGil&) = delete;
  AcquiredGil& operator=(const AcquiredGil&) = delete;

 private:
  PyGILState_STATE state_;
};

using Array = nb::ndarray<nb::ro, nb::device::cpu>;

class PyPool;

// Pools an XLA handle may name: address -> serial. A handle whose pair is not
// here (its pool closed or freed, or bytes that were never a handle) is refused.
std::mutex xla_registry_mu;
std::unordered_map<const PyPool*, std::uint64_t> xla_registry;
std::uint64_t xla_next_serial = 1;  // xla_registry_mu held
// True while this thread runs an XLA call.
thread_local bool in_xla_call = false;
// What interrupted this thread's XLA call (the exception's repr): XLA carries
// an error message, not a Python exception.
thread_local std::string xla_interrupted_by;
// Python's main thread, the one whose waits see Ctrl-C (signal handlers run
// there only); set at import.
unsigned long main_thread_ident = 0;

// The interrupt check of a pool's waits: Python's signal handlers run
// (PyErr_CheckSignals), and one that raised (KeyboardInterrupt, or e.g.
// pytest-timeout's) ends the wait with the exception set. An XLA call on the
// main thread (where jax runs a CPU computation it was called for) is checked
// too, but the exception cannot pass through XLA: it is noted for the call's
// error message, and a KeyboardInterrupt is raised again (PyErr_SetInterruptEx)
// once Python runs. XLA's own threads never take the GIL here.
// The exception set on this thread (a new reference), which is then cleared.
PyObject* raised_exception() {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return value;
#endif
}

bool interrupt_requested() {
  if (in_xla_call && PyThread_get_thread_ident() != main_thread_ident) return false;
  const AcquiredGil gil;
  if (PyErr_CheckSignals() == 0) return false;
  if (in_xla_call) {
    const bool keyboard = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt) != 0;
    const nb::object error = nb::steal(raised_exception());
    xla_interrupted_by = "interrupted";
    if (error.is_valid()) xla_interrupted_by += " by " + nb::cast<std::string>(nb::repr(error));
    PyErr_Clear();
    if (keyboard) PyErr_SetInterruptEx(SIGINT);
  }
  return true;
}

// A block and the numpy arrays that view it, made once.
struct Entry {
  std::shared_ptr<Block> block;
  std::vector<nb::object> arrays;  // one per layout field
  nb::object reward32;              // EnvPool mode: the rewards as float32, made on first use
  float* reward32_data = nullptr;

  bool free() const {
    if (block->owned_by_pool) return false;
    for (const auto& a : arrays) {
      if (Py_REFCNT(a.ptr()) != 1) return false;
    }
    return !reward32.is_valid() || Py_REFCNT(reward32.ptr()) == 1;
  }
};

class PyPool {
 public:
  PyPool(const std::string& env_type, const std::map<std::string, OptionValue>& config, int num_envs, int batch_size,
         int num_threads, int thread_affinity_offset, const std::vector<std::uint64_t>& seeds, int max_episode_steps,
         const std::string& autoreset_mode) {
    if (num_envs < 1) throw nb::value_error("num_envs must be >= 1");
    if (batch_size < 1 || batch_size > num_envs) {
      throw nb::value_error(("batch_size must be in [1, num_envs=" + std::to_string(num_envs) + "], got " +
                             std::to_string(batch_size)).c_str());
    }
    if (num_threads < 1) throw nb::value_error("num_threads must be >= 1");
    if (seeds.size() != static_cast<std::size_t>(num_envs)) throw nb::value_error("need one seed per env");
    if (max_episode_steps < 0) throw nb::value_error("max_episode_steps must be >= 0");
    PoolOptions o;
    o.env_type = env_type;
    o.config = Config(config);
    o.num_envs = num_envs;
    o.batch_size = batch_size;
    o.num_threads = num_threads;
    o.thread_affinity_offset = thread_affinity_offset;
    o.seeds = seeds;
    o.max_episode_steps = max_episode_steps;
    o.autoreset_mode = parse_autoreset_mode(autoreset_mode);  // ValueError if unknown
    pool_ = std::make_unique<Pool>(std::move(o));
    for (int i = 0; i < num_envs; ++i) all_ids_.push_back(i);
    pool_->set_interrupt_check(interrupt_requested);
    for (std::size_t i = 0; i < pool_->ring_size(); ++i) pool_->set_ring_block(i, acquire().block);
    std::lock_guard<std::mutex> lock(xla_registry_mu);
    serial_ = xla_next_serial++;
    xla_registry[this] = serial_;
  }

  ~PyPool() {
    xla_unregister();
    if (pool_ && pool_->forked()) {
      // In a forked child the pool cannot be torn down: its threads are gone
      // and destroying its condition variables would wait forever for the
      // parent's waiters. It is left to the process's exit on purpose.
      static_cast<void>(pool_.release());
      return;
    }
    if (pool_) {
      const ReleasedGil release;
      // An XLA call that found this pool before it left the registry holds api_mu_: wait for it.
      std::lock_guard<std::mutex> lock(api_mu_);
      pool_->close();
    }
  }

  nb::tuple step(nb::handle actions, nb::handle env_id) {
    Guard g(this);
    refuse_xla_pending("step()");
    if (envpool_mode_ && PyDict_Check(actions.ptr())) {
      auto [action, ids] = unpack_dict_action(actions, env_id);
      return envpool_step(action, ids);
    }
    if (envpool_mode_ && !env_id.is_none()) return envpool_step(actions, env_id);
    if (env_id.is_none() && pool_->is_sync()) return step_all_now(actions);
    send_impl(actions, env_id, false, /*then_recv=*/true);
    return recv_impl();
  }

  void send(nb::handle actions, nb::handle env_id) {
    Guard g(this);
    refuse_xla_pending("send()");
    if (envpool_mode_ && PyDict_Check(actions.ptr())) {
      auto [action, ids] = unpack_dict_action(actions, env_id);
      send_impl(action, ids, false, /*then_recv=*/false);
      return;
    }
    send_impl(actions, env_id, false, /*then_recv=*/false);
  }

  nb::tuple recv() {
    Guard g(this);
    return recv_impl();
  }

  void async_reset() {
    Guard g(this);
    refuse_xla_pending("async_reset()");
    std::vector<int> ids = all_ids_;
    pool_->check_env_ids(ids, true);
    const ReleasedGil release;
    pool_->send(ids, true);
  }

  // Sync mode: reset `env_id` (None: all) and return (obs, info) for all envs;
  // rows of envs not reset repeat their last results. Async mode: send resets
  // and return the next batch, as EnvPool does.
  nb::tuple reset(nb::handle env_id, const std::vector<int>& seed_ids, const std::vector<std::uint64_t>& seeds) {
    Guard g(this);
    refuse_xla_pending("reset()");
    std::vector<int> ids = env_id.is_none() ? all_ids_ : to_ids(env_id);
    pool_->check_env_ids(ids, true);
    if (!pool_->is_sync()) check_can_recv_after(ids.size(), "reset()");
    if (seed_ids.size() != seeds.size()) throw nb::value_error("need one seed per seeded env id");
    std::vector<bool> resetting(static_cast<std::size_t>(pool_->num_envs()), false);
    for (int id : ids) resetting[static_cast<std::size_t>(id)] = true;
    for (int id : seed_ids) {
      if (id < 0 || id >= pool_->num_envs() || !resetting[static_cast<std::size_t>(id)]) {
        throw nb::value_error(("env " + std::to_string(id) + " is seeded but not reset").c_str());
      }
    }
    // Only once every check passed: a refused reset changes nothing, its seeds included.
    for (std::size_t k = 0; k < seeds.size(); ++k) pool_->seed(seed_ids[k], seeds[k]);
    if (!pool_->is_sync()) {
      {
        const ReleasedGil release;
        pool_->send(ids, true);
      }
      nb::tuple r = recv_impl();
      return nb::make_tuple(r[0], r[4]);
    }
    Entry& e = acquire();
    if (ids.size() != static_cast<std::size_t>(pool_->num_envs()) && last_) {
      e.block->copy_rows_from(*last_);
    }
    try {
      const ReleasedGil release;
      pool_->reset_into(ids, *e.block);
    } catch (const Interrupted&) {
      throw nb::python_error();
    }
    last_ = e.block;
    nb::tuple r = result(e, false);
    return nb::make_tuple(r[0], r[4]);
  }

  void seed(nb::handle env_id, const std::vector<std::uint64_t>& seeds) {
    Guard g(this);
    std::vector<int> ids = env_id.is_none() ? all_ids_ : to_ids(env_id);
    if (ids.size() != seeds.size()) throw nb::value_error("need one seed per env_id");
    pool_->check_env_ids(ids, true);
    for (std::size_t i = 0; i < ids.size(); ++i) pool_->seed(ids[i], seeds[i]);
  }

  nb::bytes get_state(int env_id) {
    Guard g(this);
    pool_->check_env_ids({env_id}, true);
    std::string s = pool_->get_state(env_id);
    return nb::bytes(s.data(), s.size());
  }

  // Frames of `env_ids` as a new (len, height, width, 3) uint8 array.
  nb::object render(const std::vector<int>& env_ids, int width, int height, int camera_id) {
    Guard g(this);
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
      throw nb::value_error(("render size must be in [1, 16384], got " + std::to_string(width) + "x" +
                             std::to_string(height)).c_str());
    }
    const nb::module_ np = nb::module_::import_("numpy");
    nb::object frames = np.attr("empty")(nb::make_tuple(env_ids.size(), height, width, 3), "uint8");
    auto view = nb::cast<nb::ndarray<std::uint8_t, nb::c_contig, nb::device::cpu>>(frames);
    {
      const ReleasedGil release;
      pool_->render(env_ids, width, height, camera_id, view.data());
    }
    return frames;
  }

  void set_state(int env_id, nb::bytes state) {
    Guard g(this);
    pool_->check_env_ids({env_id}, true);
    // Released: a Procgen state from another process is first loaded by a checker process. The caller's
    // reference keeps `state`'s bytes alive.
    const ReleasedGil release;
    pool_->set_state(env_id, std::string_view(state.c_str(), state.size()));
  }

  void close() {
    if (pool_->forked()) return;  // nothing to stop here; see ~PyPool
    refuse_from_env_code("close()");
    std::unique_lock<std::mutex> lock(api_mu_, std::try_to_lock);
    if (!lock.owns_lock()) throw std::runtime_error("close() called while another thread is using the pool");
    if (pool_->closed()) return;
    xla_unregister();
    const ReleasedGil release;
    pool_->close();
  }

  // The bytes of this pool's XLA handle: its address and serial.
  nb::bytes xla_handle() const {
    std::uint8_t h[RLPOOL_XLA_HANDLE_BYTES];
    const auto address = reinterpret_cast<std::uintptr_t>(this);
    const std::uint64_t a = address;
    std::memcpy(h, &a, 8);
    std::memcpy(h + 8, &serial_, 8);
    return nb::bytes(reinterpret_cast<const char*>(h), sizeof(h));
  }

  // Every field of a batch in the engine's layout order: (name, dtype, per-env shape).
  nb::list fields() const {
    nb::list out;
    for (const auto& f : pool_->layout()->fields) {
      out.append(nb::make_tuple(f.name, dtype_name(f.dtype), nb::tuple(nb::cast(f.shape))));
    }
    return out;
  }

  // The pool a handle names, with its API lock held; throws if there is none.
  static std::pair<PyPool*, std::unique_lock<std::mutex>> from_handle(const std::uint8_t* h, std::size_t n) {
    if (n != RLPOOL_XLA_HANDLE_BYTES) {
      throw std::invalid_argument("the handle must be the " + std::to_string(RLPOOL_XLA_HANDLE_BYTES) +
                                  " bytes xla() returned, got " + std::to_string(n));
    }
    std::uint64_t address = 0, serial = 0;
    std::memcpy(&address, h, 8);
    std::memcpy(&serial, h + 8, 8);
    std::lock_guard<std::mutex> lock(xla_registry_mu);
    const auto it = xla_registry.find(reinterpret_cast<const PyPool*>(static_cast<std::uintptr_t>(address)));
    if (it == xla_registry.end() || it->second != serial) {
      throw std::invalid_argument("the handle names no live pool: its env was closed (or it is not a handle "
                                  "from xla())");
    }
    PyPool* p = const_cast<PyPool*>(it->first);
    std::unique_lock<std::mutex> api(p->api_mu_, std::try_to_lock);
    if (!api.owns_lock()) throw std::runtime_error("the pool is being used by another thread");
    if (p->pool_->forked()) throw std::runtime_error("this pool was made in the process this one forked from");
    if (p->pool_->closed()) throw std::runtime_error("the pool is closed");
    return {p, std::move(api)};
  }

  // XLA send: the actions of `env_id`'s envs, checked as step() checks them.
  void xla_send(const RlpoolXlaBuffer& action, const RlpoolXlaBuffer& env_id) {
    const int n = static_cast<int>(env_id.elements);
    std::vector<int>& ids = xla_ids_;  // reused: no allocation per step
    ids.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const std::int64_t v = env_id.dtype == kRlpoolXlaInt32 ? static_cast<const std::int32_t*>(env_id.data)[i]
                           : env_id.dtype == kRlpoolXlaInt64 ? static_cast<const std::int64_t*>(env_id.data)[i]
                                                             : throw std::invalid_argument("env_id must be int32");
      if (v < 0 || v >= pool_->num_envs()) {
        throw std::out_of_range("env_id " + std::to_string(v) + " is out of range [0, " +
                                std::to_string(pool_->num_envs()) + ")");
      }
      ids[static_cast<std::size_t>(i)] = static_cast<int>(v);
    }
    if (pool_->is_sync() && n != pool_->num_envs()) {
      throw std::invalid_argument("sync mode (batch_size == num_envs) steps all " + std::to_string(pool_->num_envs()) +
                                  " envs at once, got " + std::to_string(n) + " env ids");
    }
    if (xla_pending_) throw std::logic_error("send twice in sync mode: recv the previous batch first");
    pool_->check_env_ids(ids, false);
    const ArraySpec& spec = pool_->spec().action;
    const std::int64_t dim = pool_->spec().discrete_action() ? 1 : spec.num_elements();
    if (action.elements != dim * n) {
      throw std::invalid_argument("actions must have " + std::to_string(dim * n) + " elements (" + std::to_string(n) +
                                  " envs), got " + std::to_string(action.elements));
    }
    if (pool_->spec().discrete_action()) {
      const auto high = static_cast<std::int64_t>(spec.high.at(0));
      scratch_int_.resize(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        const std::int64_t v = action.dtype == kRlpoolXlaInt32 ? static_cast<const std::int32_t*>(action.data)[i]
                             : action.dtype == kRlpoolXlaInt64 ? static_cast<const std::int64_t*>(action.data)[i]
                                : throw std::invalid_argument("discrete actions must be int32 or int64");
        if (v < 0 || v > high) {
          throw std::invalid_argument("action " + std::to_string(v) + " for env " + std::to_string(ids[i]) +
                                      " is out of range [0, " + std::to_string(high) + "]");
        }
        scratch_int_[static_cast<std::size_t>(i)] = v;
      }
      for (int i = 0; i < n; ++i) *static_cast<std::int64_t*>(pool_->action_slot(ids[i])) = scratch_int_[i];
    } else {
      if (action.dtype != kRlpoolXlaFloat32 && action.dtype != kRlpoolXlaFloat64) {
        throw std::invalid_argument("continuous actions must be float32 or float64");
      }
      scratch_float_.resize(static_cast<std::size_t>(n * dim));
      for (std::int64_t k = 0; k < n * dim; ++k) {
        const double v = action.dtype == kRlpoolXlaFloat32 ? static_cast<const float*>(action.data)[k]
                                                           : static_cast<const double*>(action.data)[k];
        if (!std::isfinite(v)) {
          throw std::invalid_argument("action for env " + std::to_string(ids[k / dim]) + " is not finite (" +
                                      std::to_string(v) + ")");
        }
        scratch_float_[static_cast<std::size_t>(k)] = v;
      }
      for (int i = 0; i < n; ++i) {
        std::memcpy(pool_->action_slot(ids[i]), scratch_float_.data() + i * dim, dim * sizeof(double));
      }
    }
    if (pool_->is_sync()) {
      // Sync mode steps here, as step() does (the engine's inline path for cheap batches); recv copies it out.
      std::shared_ptr<Block> block = take_xla_block();
      pool_->step_all(*block);
      xla_pending_ = std::move(block);
      return;
    }
    pool_->send(ids, false);
  }

  // A block only XLA calls use: from xla_free_, or new (the first few calls).
  std::shared_ptr<Block> take_xla_block() {
    if (xla_free_.empty()) return std::make_shared<Block>(pool_->layout(), pool_->batch_size());
    std::shared_ptr<Block> b = std::move(xla_free_.back());
    xla_free_.pop_back();
    return b;
  }

  // XLA recv: the next batch, every layout field copied (and narrowed where jax
  // wants 32 bits) into the output buffers. Blocks the pool hands back are kept
  // for XLA alone (xla_free_) unless Python's cache knows them.
  void xla_recv(const RlpoolXlaBuffer* outs, std::size_t n_outs) {
    const Layout& lay = *pool_->layout();
    if (n_outs != lay.fields.size()) {
      throw std::invalid_argument("recv needs " + std::to_string(lay.fields.size()) + " outputs, got " +
                                  std::to_string(n_outs));
    }
    const int rows = pool_->batch_size();
    for (std::size_t f = 0; f < n_outs; ++f) {
      const Field& field = lay.fields[f];
      const auto elements = static_cast<std::int64_t>(field.row_bytes / dtype_size(field.dtype)) * rows;
      if (outs[f].elements != elements || !narrows_to(field.dtype, outs[f].dtype)) {
        throw std::invalid_argument("recv output " + std::to_string(f) + " (" + field.name +
                                    ") has the wrong size or dtype");
      }
    }
    std::shared_ptr<Block> full = std::exchange(xla_pending_, nullptr);
    if (!full) {
      if (pool_->in_flight() < rows) {
        throw std::logic_error("recv needs at least batch_size=" + std::to_string(rows) +
                               " envs in flight, but only " + std::to_string(pool_->in_flight()) +
                               " are: send actions first");
      }
      full = pool_->recv(take_xla_block());
    }
    std::shared_ptr<Block> done = full;
    if (pool_->is_sync()) done = std::exchange(last_, full);  // partial resets read the latest rows
    const bool python_knows = done && std::any_of(cache_.begin(), cache_.end(), [&](const Entry& e) {
      return e.block == done;
    });
    if (done && !python_knows && done != last_) xla_free_.push_back(done);
    pool_->rethrow_task_error();
    for (std::size_t f = 0; f < n_outs; ++f) copy_out(lay.fields[f], full->field(f), rows, outs[f]);
  }

 private:
  static int xla_code(DType d) { return static_cast<int>(d); }  // RlpoolXlaDType follows DType's order

  // Whether engine dtype `from` may be written as XLA dtype `to` (the same, or 64 -> 32 bits).
  static bool narrows_to(DType from, int to) {
    if (to == xla_code(from)) return true;
    return (from == DType::kFloat64 && to == kRlpoolXlaFloat32) || (from == DType::kInt64 && to == kRlpoolXlaInt32);
  }

  static void copy_out(const Field& field, const std::byte* src, int rows, const RlpoolXlaBuffer& out) {
    const std::size_t bytes = field.row_bytes * static_cast<std::size_t>(rows);
    if (out.dtype == xla_code(field.dtype)) {
      std::memcpy(out.data, src, bytes);
    } else if (field.dtype == DType::kFloat64) {
      const auto* s = reinterpret_cast<const double*>(src);
      auto* d = static_cast<float*>(out.data);
      for (std::int64_t i = 0; i < out.elements; ++i) d[i] = static_cast<float>(s[i]);
    } else {
      const auto* s = reinterpret_cast<const std::int64_t*>(src);
      auto* d = static_cast<std::int32_t*>(out.data);
      for (std::int64_t i = 0; i < out.elements; ++i) d[i] = static_cast<std::int32_t>(s[i]);
    }
  }

  void refuse_xla_pending(const char* call) const {
    if (xla_pending_) {
      throw std::logic_error(std::string(call) + ": an XLA send stepped the envs and its batch has not been "
                             "received: call recv() (or the XLA recv) first");
    }
  }

  void xla_unregister() {
    std::lock_guard<std::mutex> lock(xla_registry_mu);
    xla_registry.erase(this);
  }

 public:

  bool closed() const { return pool_->closed(); }
  int num_envs() const { return pool_->num_envs(); }
  int batch_size() const { return pool_->batch_size(); }
  int num_threads() const { return pool_->options().num_threads; }
  int max_episode_steps() const { return pool_->options().max_episode_steps; }
  bool export_discount() const { return export_discount_; }
  bool envpool_mode() const { return envpool_mode_; }
  void set_envpool_mode(bool on) {
    envpool_mode_ = on;
    pool_->set_first_step_resets(on);
  }
  void set_export_discount(bool on) { export_discount_ = on; }

 private:
  // An env's own reset()/step() (a Python env reaching its pool from an
  // objmode block) runs on a thread the pool owns, maybe the caller's own
  // while it holds api_mu_: refused before any lock is tried.
  void refuse_from_env_code(const std::string& call) const {
    if (pool_->in_env_code()) {
      throw std::runtime_error(call + " on a pool from inside one of its own envs' reset() or step() is not allowed: "
                               "it runs on the pool's own thread (close() would wait for itself)");
    }
  }

  // One Python thread at a time: a second concurrent caller gets an error, not a race.
  struct Guard {
    explicit Guard(PyPool* p) {
      if (p->pool_->forked()) {
        throw std::runtime_error(
            "this pool was made in process " + std::to_string(p->pool_->owner_pid()) +
            " and the current process (" + std::to_string(getpid()) +
            ") is a fork of it: its worker threads do not exist here. Make a new env in this process "
            "(or use multiprocessing's 'spawn' or 'forkserver' start method)");
      }
      p->refuse_from_env_code("this call");
      lock = std::unique_lock<std::mutex>(p->api_mu_, std::try_to_lock);
      if (!lock.owns_lock()) throw std::runtime_error("the pool is being used by another thread");
      if (p->pool_->closed()) throw std::runtime_error("the pool is closed");
    }
    std::unique_lock<std::mutex> lock;
  };


  static Array as_array(nb::handle h) {
    Array arr;
    if (nb::try_cast(h, arr, false)) return arr;
    // Looked up per call (a rare path): a function-static nb::object would be
    // released after the interpreter has finalized and abort the process.
    const nb::module_ np = nb::module_::import_("numpy");
    nb::object converted = np.attr("asarray")(h);
    if (nb::try_cast(converted, arr, false)) return arr;
    // Non-native byte order converts losslessly; anything else is refused by name.
    nb::object dtype = converted.attr("dtype");
    const auto order = nb::cast<std::string>(dtype.attr("byteorder"));
    if (order != "=" && order != "|") {
      converted = converted.attr("astype")(dtype.attr("newbyteorder")("="));
      if (nb::try_cast(converted, arr, false)) return arr;
    }
    // Strides that are no whole number of items (a field of a structured
    // array) have no DLPack form; a contiguous copy reads the same values.
    if (nb::cast<std::string>(dtype.attr("kind")) != "V" && dtype.attr("fields").is_none()) {
      converted = np.attr("ascontiguousarray")(converted);
      if (nb::try_cast(converted, arr, false)) return arr;
    }
    throw nb::type_error(("expected a numeric array, got dtype " + nb::cast<std::string>(nb::str(dtype))).c_str());
  }

  static std::vector<int> to_ids(nb::handle h) {
    if (PyLong_Check(h.ptr())) {
      throw nb::type_error("env_id must be a sequence or array of ints, not a single int");
    }
    Array arr = as_array(h);
    const auto code = static_cast<nb::dlpack::dtype_code>(arr.dtype().code);
    if ((code != nb::dlpack::dtype_code::Int && code != nb::dlpack::dtype_code::UInt) || arr.ndim() != 1) {
      throw nb::type_error(("env_id must be a 1-D array of integers, got " + describe_dtype(arr.dtype()) + " with " +
                            std::to_string(arr.ndim()) + " dimensions").c_str());
    }
    std::vector<int> ids(arr.shape(0));
    const auto* base = static_cast<const std::byte*>(arr.data());
    const std::size_t item = arr.itemsize();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::byte* p = base + static_cast<std::int64_t>(i) * arr.stride(0) * static_cast<std::int64_t>(item);
      const std::int64_t v = read_int(p, arr.dtype());
      if (v < 0 || v > std::numeric_limits<int>::max()) {
        throw nb::index_error(("env_id " + int_str(p, arr.dtype()) + " is out of range").c_str());
      }
      ids[i] = static_cast<int>(v);
    }
    return ids;
  }

  // The exact value, for messages (read_int clamps huge unsigned values).
  static std::string int_str(const std::byte* p, nb::dlpack::dtype d) {
    if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt) && d.bits == 64) {
      return std::to_string(*reinterpret_cast<const std::uint64_t*>(p));
    }
    return std::to_string(read_int(p, d));
  }

  static std::int64_t read_int(const std::byte* p, nb::dlpack::dtype d) {
    const bool is_signed = d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int);
    switch (d.bits) {
      case 8: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int8_t*>(p))
                               : static_cast<std::int64_t>(*reinterpret_cast<const std::uint8_t*>(p));
      case 16: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int16_t*>(p))
                                : static_cast<std::int64_t>(*reinterpret_cast<const std::uint16_t*>(p));
      case 32: return is_signed ? static_cast<std::int64_t>(*reinterpret_cast<const std::int32_t*>(p))
                                : static_cast<std::int64_t>(*reinterpret_cast<const std::uint32_t*>(p));
      default: {
        if (is_signed) return *reinterpret_cast<const std::int64_t*>(p);
        const std::uint64_t u = *reinterpret_cast<const std::uint64_t*>(p);
        return u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                   ? std::numeric_limits<std::int64_t>::max()
                   : static_cast<std::int64_t>(u);
      }
    }
  }

  // Checks `actions` against the action spec and copies them into the action
  // slots of `ids` (row i of actions -> env ids[i]). Nothing is written unless
  // every row is valid.
  void write_actions(nb::handle actions, const std::vector<int>& ids) {
    const ArraySpec& spec = pool_->spec().action;
    Array arr = as_array(actions);
    const std::size_t n = ids.size();
    std::vector<std::int64_t> expected{static_cast<std::int64_t>(n)};
    expected.insert(expected.end(), spec.shape.begin(), spec.shape.end());
    bool shape_ok = arr.ndim() == expected.size();
    for (std::size_t i = 0; shape_ok && i < expected.size(); ++i) {
      shape_ok = static_cast<std::int64_t>(arr.shape(i)) == expected[i];
    }
    if (!shape_ok) {
      std::vector<std::int64_t> got;
      for (std::size_t i = 0; i < arr.ndim(); ++i) got.push_back(static_cast<std::int64_t>(arr.shape(i)));
      throw nb::value_error(("actions must have shape " + shape_str(expected) + ", got " + shape_str(got)).c_str());
    }
    const auto d = arr.dtype();
    const auto code = static_cast<nb::dlpack::dtype_code>(d.code);
    const auto* base = static_cast<const std::byte*>(arr.data());
    const auto item = static_cast<std::int64_t>(arr.itemsize());
    if (pool_->spec().discrete_action()) {
      const bool is_float = code == nb::dlpack::dtype_code::Float && (d.bits == 32 || d.bits == 64);
      // EnvPool mode casts float actions to int as EnvPool does (toward zero); rlpool's own API refuses them.
      if (code != nb::dlpack::dtype_code::Int && code != nb::dlpack::dtype_code::UInt && !(envpool_mode_ && is_float)) {
        throw nb::type_error(("discrete actions must be integers, got dtype " + describe_dtype(d)).c_str());
      }
      const auto high = static_cast<std::int64_t>(spec.high.at(0));
      scratch_int_.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::byte* p = base + static_cast<std::int64_t>(i) * arr.stride(0) * item;
        if (is_float) {
          const double f = d.bits == 32 ? static_cast<double>(*reinterpret_cast<const float*>(p))
                                        : *reinterpret_cast<const double*>(p);
          if (!(f > -1.0 && f < static_cast<double>(high) + 1.0)) {  // NaN fails too
            throw nb::value_error(("action " + std::to_string(f) + " for env " + std::to_string(ids[i]) +
                                   " is out of range [0, " + std::to_string(high) + "]").c_str());
          }
          scratch_int_[i] = static_cast<std::int64_t>(f);
          continue;
        }
        const std::int64_t v = read_int(p, d);
        if (v < 0 || v > high) {
          throw nb::value_error(("action " + int_str(p, d) + " for env " + std::to_string(ids[i]) +
                                 " is out of range [0, " + std::to_string(high) + "]")
                                    .c_str());
        }
        scratch_int_[i] = v;
      }
      for (std::size_t i = 0; i < n; ++i) *static_cast<std::int64_t*>(pool_->action_slot(ids[i])) = scratch_int_[i];
      return;
    }
    if (code != nb::dlpack::dtype_code::Float || (d.bits != 32 && d.bits != 64)) {
      throw nb::type_error(("continuous actions must be float32 or float64, got dtype " + describe_dtype(d)).c_str());
    }
    const std::size_t dim = static_cast<std::size_t>(spec.num_elements());
    scratch_float_.resize(n * dim);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < dim; ++j) {
        // Flat index j over the trailing dims, honouring strides.
        std::int64_t offset = static_cast<std::int64_t>(i) * arr.stride(0);
        std::size_t rest = j;
        for (std::size_t k = arr.ndim(); k-- > 1;) {
          offset += static_cast<std::int64_t>(rest % arr.shape(k)) * arr.stride(k);
          rest /= arr.shape(k);
        }
        const std::byte* p = base + offset * item;
        const double v = d.bits == 32 ? static_cast<double>(*reinterpret_cast<const float*>(p))
                                      : *reinterpret_cast<const double*>(p);
        if (!std::isfinite(v)) {
          throw nb::value_error(("action for env " + std::to_string(ids[i]) + " is not finite (" +
                                 std::to_string(v) + ")")
                                    .c_str());
        }
        scratch_float_[i * dim + j] = v;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(pool_->action_slot(ids[i]), scratch_float_.data() + i * dim, dim * sizeof(double));
    }
  }

  // EnvPool's dict action {"env_id", "players.env_id" (or "players": {"env_id"}), "action"} -> (action, env_id);
  // an explicit `env_id` wins over the dict's.
  static std::pair<nb::object, nb::object> unpack_dict_action(nb::handle actions, nb::handle env_id) {
    nb::dict flat;
    for (auto [key, value] : nb::borrow<nb::dict>(actions)) {
      if (PyDict_Check(value.ptr())) {
        for (auto [k, v] : nb::borrow<nb::dict>(value)) flat[nb::str("{}.{}").format(key, k)] = v;
      } else {
        flat[key] = value;
      }
    }
    bool ok = flat.contains("action");
    for (auto [key, value] : flat) {
      const auto k = nb::cast<std::string>(nb::str(key));
      ok = ok && (k == "action" || k == "env_id" || k == "players.env_id");
    }
    if (!ok) {
      nb::list keys = nb::list(flat.attr("keys")());
      keys.sort();
      throw nb::value_error(("a dict action needs the key 'action' (and may have 'env_id', 'players.env_id'), got " +
                             nb::cast<std::string>(nb::repr(keys))).c_str());
    }
    nb::object ids = env_id.is_none() && flat.contains("env_id") ? nb::object(flat["env_id"]) : nb::borrow(env_id);
    return {nb::object(flat["action"]), ids};
  }

  // EnvPool mode with env ids: async, send + recv; sync, step only those envs and return their rows, in
  // the order of `env_id` (EnvPool's answer).
  nb::tuple envpool_step(nb::handle actions, nb::handle env_id) {
    if (env_id.is_none() || !pool_->is_sync()) {
      if (env_id.is_none() && pool_->is_sync()) return step_all_now(actions);
      send_impl(actions, env_id, false, /*then_recv=*/true);
      return recv_impl();
    }
    const std::vector<int> ids = to_ids(env_id);
    nb::tuple full = step_sync_ids(actions, ids);
    if (ids == all_ids_) return full;
    nb::object index = nb::module_::import_("numpy").attr("array")(nb::cast(ids), "int64");
    return nb::borrow<nb::tuple>(pick_rows(full, index));
  }

  // The rows `index` of every array in a (nested) result.
  static nb::object pick_rows(nb::handle value, nb::handle index) {
    if (PyDict_Check(value.ptr())) {
      nb::dict out;
      for (auto [k, v] : nb::borrow<nb::dict>(value)) out[k] = pick_rows(v, index);
      return out;
    }
    if (PyTuple_Check(value.ptr())) {
      nb::list out;
      for (nb::handle v : nb::borrow<nb::tuple>(value)) out.append(pick_rows(v, index));
      return nb::tuple(out);
    }
    return value[index];
  }

  nb::tuple step_all_now(nb::handle actions) {
    pool_->check_env_ids(all_ids_, false);
    write_actions(actions, all_ids_);
    Entry& e = acquire();
    try {
      const ReleasedGil release;
      pool_->step_all(*e.block);
    } catch (const Interrupted&) {
      throw nb::python_error();
    }
    last_ = e.block;
    return result(e, true);
  }

  // EnvPool mode, sync: step only `ids`; the result has every env's row (the others repeat their latest
  // results, as a partial reset's do).
  nb::tuple step_sync_ids(nb::handle actions, const std::vector<int>& ids) {
    pool_->check_env_ids(ids, false);
    write_actions(actions, ids);
    Entry& e = acquire();
    if (ids.size() != static_cast<std::size_t>(pool_->num_envs()) && last_) e.block->copy_rows_from(*last_);
    try {
      const ReleasedGil release;
      pool_->step_into(ids, *e.block);
    } catch (const Interrupted&) {
      throw nb::python_error();
    }
    last_ = e.block;
    return result(e, true);
  }

  // step() and async reset() are send + recv: refuse up front what recv() would
  // refuse, so that a rejected call queues nothing.
  void check_can_recv_after(std::size_t sending, const char* call) const {
    const int bs = pool_->batch_size();
    const int would_be = pool_->in_flight() + static_cast<int>(sending);
    if (would_be < bs) {
      throw std::logic_error(std::string(call) + " needs at least batch_size=" + std::to_string(bs) +
                             " envs in flight to receive a batch, but only " + std::to_string(would_be) +
                             " would be: send() more envs first");
    }
  }

  void send_impl(nb::handle actions, nb::handle env_id, bool reset, bool then_recv) {
    std::vector<int> ids = env_id.is_none() ? all_ids_ : to_ids(env_id);
    if (env_id.is_none() && pool_->in_flight() > 0) {
      throw nb::value_error("env_id is required while some envs are in flight (async mode)");
    }
    if (pool_->is_sync() && ids.size() != static_cast<std::size_t>(pool_->num_envs())) {
      throw nb::value_error(("sync mode (batch_size == num_envs) steps all " + std::to_string(pool_->num_envs()) +
                             " envs at once, got " + std::to_string(ids.size()) +
                             " env ids; use batch_size < num_envs for async mode")
                                .c_str());
    }
    pool_->check_env_ids(ids, reset);
    if (then_recv) check_can_recv_after(ids.size(), "step()");
    if (!reset) write_actions(actions, ids);
    const ReleasedGil release;
    pool_->send(ids, reset);
  }

  nb::tuple recv_impl() {
    if (xla_pending_) {  // sync: a batch an XLA send stepped
      last_ = std::exchange(xla_pending_, nullptr);
      cache_.push_back(make_entry(last_));
      return result(cache_.back(), true);
    }
    Entry& replacement = acquire();
    replacement.block->owned_by_pool = true;  // reserve it before we scan again
    std::shared_ptr<Block> full;
    try {
      const ReleasedGil release;
      full = pool_->recv(replacement.block);
    } catch (const Interrupted&) {
      replacement.block->owned_by_pool = false;
      throw nb::python_error();
    } catch (...) {
      replacement.block->owned_by_pool = false;
      throw;
    }
    // Sync mode: a partial reset repeats the latest results for the other rows.
    if (pool_->is_sync()) last_ = full;
    pool_->rethrow_task_error();
    for (auto& e : cache_) {
      if (e.block == full) return result(e, true);
    }
    // A block XLA calls put in the ring: it gets arrays now.
    cache_.push_back(make_entry(full));
    return result(cache_.back(), true);
  }

  // A free block with its arrays, from the cache or newly made.
  Entry& acquire() {
    for (std::size_t k = 0; k < cache_.size(); ++k) {
      const std::size_t i = (next_ + k) % cache_.size();
      if (cache_[i].free() && cache_[i].block != last_) {
        next_ = i + 1;
        return cache_[i];
      }
    }
    // All busy (Python holds them): forget the oldest one Python holds, so the
    // scan stays short; its arrays keep its memory alive for as long as needed.
    const std::size_t limit = pool_->ring_size() + 4;
    if (cache_.size() >= limit) {
      for (std::size_t i = 0; i < cache_.size(); ++i) {
        if (!cache_[i].block->owned_by_pool && cache_[i].block != last_) {
          cache_.erase(cache_.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
      }
    }
    cache_.push_back(make_entry(std::make_shared<Block>(pool_->layout(), pool_->batch_size())));
    next_ = 0;
    return cache_.back();
  }

  Entry make_entry(std::shared_ptr<Block> block) {
    Entry e;
    e.block = std::move(block);
    nb::object owner = nb::cast(e.block);
    const Layout& lay = *pool_->layout();
    for (std::size_t f = 0; f < lay.fields.size(); ++f) {
      const Field& field = lay.fields[f];
      std::vector<std::size_t> shape{static_cast<std::size_t>(e.block->rows())};
      for (auto d : field.shape) shape.push_back(static_cast<std::size_t>(d));
      nb::ndarray<nb::numpy> arr(e.block->field(f), shape.size(), shape.data(), owner, nullptr,
                                 to_dlpack(field.dtype));
      e.arrays.push_back(arr.cast());
    }
    return e;
  }

  nb::object obs_of(const Entry& e, std::size_t first) const {
    const Layout& lay = *pool_->layout();
    switch (pool_->spec().obs_kind) {
      case ObsKind::kArray: return e.arrays[first];
      case ObsKind::kTuple: {
        nb::list items;
        for (std::size_t i = 0; i < lay.num_obs; ++i) items.append(e.arrays[first + i]);
        return nb::tuple(items);
      }
      case ObsKind::kDict: break;
    }
    nb::dict d;
    for (std::size_t i = 0; i < lay.num_obs; ++i) d[lay.fields[first + i].name.c_str()] = e.arrays[first + i];
    return d;
  }

  nb::tuple result(Entry& e, bool with_final) const {
    const Layout& lay = *pool_->layout();
    if (envpool_mode_) return envpool_result(e, with_final);
    nb::dict info;
    info["env_id"] = e.arrays[lay.env_id()];
    info["elapsed_step"] = e.arrays[lay.elapsed_step()];
    for (std::size_t i = 0; i < lay.num_info; ++i) info[lay.fields[lay.info(i)].name.c_str()] = e.arrays[lay.info(i)];
    add_private_entries(e, info, with_final);
    return nb::make_tuple(obs_of(e, 0), e.arrays[lay.reward()], e.arrays[lay.terminated()],
                          e.arrays[lay.truncated()], info);
  }

  // The entries the Python faces take out of info: SameStep's final rows, the env's own discount.
  void add_private_entries(const Entry& e, nb::dict& info, bool with_final) const {
    const Layout& lay = *pool_->layout();
    if (with_final && lay.has_final()) {
      nb::dict final_info;
      final_info["elapsed_step"] = e.arrays[lay.final_elapsed_step()];
      for (std::size_t i = 0; i < lay.num_info; ++i) {
        final_info[lay.fields[lay.final_info(i)].name.c_str()] = e.arrays[lay.final_info(i)];
      }
      info["_rlpool_final"] = nb::make_tuple(obs_of(e, lay.final_obs(0)), final_info);
    }
    // Only the dm adapter asks for it: gymnasium-style info stays as EnvPool's.
    if (export_discount_ && lay.has_discount()) info["_rlpool_discount"] = e.arrays[lay.discount()];
  }

  // EnvPool 1.x's layout: float32 rewards; info = env_id, players {env_id}, the task's entries, elapsed_step.
  nb::tuple envpool_result(Entry& e, bool with_final) const {
    const Layout& lay = *pool_->layout();
    const int rows = e.block->rows();
    if (!e.reward32.is_valid()) {
      e.reward32 = nb::module_::import_("numpy").attr("empty")(rows, "float32");
      e.reward32_data = nb::cast<nb::ndarray<float, nb::device::cpu>>(e.reward32).data();
    }
    for (int r = 0; r < rows; ++r) e.reward32_data[r] = static_cast<float>(e.block->at<double>(lay.reward(), r));
    if (keys_.empty()) {  // the dict keys as Python strings, made once: this runs on every step
      for (const char* k : {"env_id", "players", "elapsed_step"}) keys_.push_back(nb::str(k));
      for (std::size_t i = 0; i < lay.num_info; ++i) keys_.push_back(nb::str(lay.fields[lay.info(i)].name.c_str()));
    }
    nb::dict info;
    nb::object env_id = e.arrays[lay.env_id()];
    info[keys_[0]] = env_id;
    nb::dict players;
    players[keys_[0]] = env_id;
    info[keys_[1]] = players;
    for (std::size_t i = 0; i < lay.num_info; ++i) info[keys_[3 + i]] = e.arrays[lay.info(i)];
    info[keys_[2]] = e.arrays[lay.elapsed_step()];
    add_private_entries(e, info, with_final);
    return nb::make_tuple(obs_of(e, 0), e.reward32, e.arrays[lay.terminated()], e.arrays[lay.truncated()], info);
  }

  std::unique_ptr<Pool> pool_;
  std::vector<int> all_ids_;
  std::vector<Entry> cache_;
  std::size_t next_ = 0;
  std::shared_ptr<Block> last_;  // sync: the latest full result, for partial resets
  bool export_discount_ = false;  // results carry info["_rlpool_discount"] (envs with their own discount)
  bool envpool_mode_ = false;     // rlpool.compat.envpool: EnvPool's result layout and leniencies
  mutable std::vector<nb::object> keys_;  // EnvPool mode's info keys: env_id, players, elapsed_step, the task's
  std::mutex api_mu_;
  std::vector<std::int64_t> scratch_int_;
  std::vector<double> scratch_float_;
  std::uint64_t serial_ = 0;  // this pool's entry in xla_registry
  std::vector<std::shared_ptr<Block>> xla_free_;  // blocks XLA calls may give the ring
  std::shared_ptr<Block> xla_pending_;  // sync: the batch an XLA send stepped, until its recv
  std::vector<int> xla_ids_;
};

// The bridge's functions: find the pool, run the call, turn any exception into the message.
template <class F>
int xla_call(const std::uint8_t* handle, std::size_t handle_bytes, char* err, std::size_t err_size, F&& f) {
  in_xla_call = true;
  std::string message;
  try {
    auto [pool, lock] = PyPool::from_handle(handle, handle_bytes);
    f(*pool);
  } catch (const std::exception& e) {
    message = e.what();
  } catch (const Interrupted&) {
    message = std::exchange(xla_interrupted_by, std::string());
  } catch (...) {
    message = "unknown error";
  }
  in_xla_call = false;
  if (message.empty()) return 0;
  if (err_size > 0) {
    const std::size_t n = std::min(message.size(), err_size - 1);
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
  }
  return 1;
}

int bridge_send(const std::uint8_t* handle, std::size_t handle_bytes, const RlpoolXlaBuffer* action,
                const RlpoolXlaBuffer* env_id, char* err, std::size_t err_size) {
  return xla_call(handle, handle_bytes, err, err_size, [&](PyPool& p) { p.xla_send(*action, *env_id); });
}

int bridge_recv(const std::uint8_t* handle, std::size_t handle_bytes, const RlpoolXlaBuffer* outs, std::size_t n_outs,
                char* err, std::size_t err_size) {
  return xla_call(handle, handle_bytes, err, err_size, [&](PyPool& p) { p.xla_recv(outs, n_outs); });
}

const RlpoolXlaBridge xla_bridge{RLPOOL_XLA_BRIDGE_VERSION, &bridge_send, &bridge_recv};

nb::dict env_spec(const std::string& env_type, const std::map<std::string, OptionValue>& config) {
  const EnvType& type = find_env_type(env_type);
  if (!type.unavailable.empty()) throw std::runtime_error(type.unavailable);
  const EnvSpec s = type.spec(Config(config));
  nb::list obs, info;
  for (const auto& a : s.obs) obs.append(array_spec_dict(a));
  for (const auto& a : s.info) info.append(array_spec_dict(a));
  nb::dict d;
  d["obs"] = obs;
  d["obs_kind"] = obs_kind_name(s.obs_kind);
  d["has_discount"] = s.has_discount;
  d["action"] = array_spec_dict(s.action);
  d["info"] = info;
  d["render_width"] = s.render_width;
  d["render_height"] = s.render_height;
  d["render_any_size"] = s.render_any_size;
  d["render_fps"] = s.render_fps;
  d["render_cameras"] = s.render_cameras;
  return d;
}

nb::list env_types() {
  nb::list out;
  for (const auto& name : env_type_names()) {
    const EnvType& t = find_env_type(name);
    nb::list options;
    for (const auto& o : t.options) options.append(nb::make_tuple(o.name, o.default_value, o.doc));
    out.append(nb::make_tuple(name, options, t.unavailable));
  }
  return out;
}

}  // namespace
}  // namespace rlpool

NB_MODULE(_rlpool_core, m) {
  using rlpool::PyPool;
  m.doc() = "rlpool's C++ engine: a pool of environments stepped by worker threads.";
  nb::module_::import_("atexit").attr("register")(nb::cpp_function([] { rlpool::exit_gate::close(); }));
  Py_AtExit(rlpool::exit_gate::quiet_leaks);
  rlpool::main_thread_ident = nb::cast<unsigned long>(nb::module_::import_("threading").attr("main_thread")().attr("ident"));
  {
    nb::list modes;
    for (const char* name : rlpool::kAutoresetModeNames) modes.append(name);
    m.attr("AUTORESET_MODES") = nb::tuple(modes);
  }
  nb::class_<rlpool::Block>(m, "_Block");
  m.def("env_spec", &rlpool::env_spec, "env_type"_a, "config"_a,
        "The arrays an env type writes and its action, for a configuration.");
  m.def("_xla_bridge_address", [] { return reinterpret_cast<std::uintptr_t>(&rlpool::xla_bridge); },
        "Address of the RlpoolXlaBridge the XLA FFI handlers call (rlpool/xla/xla_bridge.h).");
  m.def("env_types", &rlpool::env_types, "Registered C++ env types: (name, options as (name, default, doc), why this build cannot make it or '').");
  nb::class_<PyPool>(m, "Pool")
      .def(nb::init<const std::string&, const std::map<std::string, rlpool::OptionValue>&, int, int, int, int,
                    const std::vector<std::uint64_t>&, int, const std::string&>(),
           "env_type"_a, "config"_a, "num_envs"_a, "batch_size"_a, "num_threads"_a, "thread_affinity_offset"_a,
           "seeds"_a, "max_episode_steps"_a, "autoreset_mode"_a)
      // "action", EnvPool's name: the EnvPool layer hands this method out as its own step().
      .def("step", &PyPool::step, "action"_a, "env_id"_a = nb::none())
      .def("send", &PyPool::send, "action"_a, "env_id"_a = nb::none())
      .def("recv", &PyPool::recv)
      .def("reset", &PyPool::reset, "env_id"_a = nb::none(), "seed_ids"_a = std::vector<int>{},
           "seeds"_a = std::vector<std::uint64_t>{})
      .def("async_reset", &PyPool::async_reset)
      .def("seed", &PyPool::seed, "env_id"_a, "seeds"_a)
      .def("get_state", &PyPool::get_state, "env_id"_a)
      .def("set_state", &PyPool::set_state, "env_id"_a, "state"_a)
      .def("render", &PyPool::render, "env_ids"_a, "width"_a, "height"_a, "camera_id"_a,
           "Frames of env_ids as a new (len(env_ids), height, width, 3) uint8 array.")
      .def("close", &PyPool::close)
      .def("xla_handle", &PyPool::xla_handle, "The bytes of this pool's XLA handle (see rlpool.xla).")
      .def("fields", &PyPool::fields, "A batch's fields in layout order: (name, dtype, per-env shape).")
      .def_prop_ro("closed", &PyPool::closed)
      .def_prop_ro("num_envs", &PyPool::num_envs)
      .def_prop_ro("batch_size", &PyPool::batch_size)
      .def_prop_ro("num_threads", &PyPool::num_threads)
      .def_prop_ro("max_episode_steps", &PyPool::max_episode_steps)
      .def_prop_rw("export_discount", &PyPool::export_discount, &PyPool::set_export_discount,
                   "Put the env's own discount (if it has one) in info['_rlpool_discount'] (for dm_env).")
      .def_prop_rw("envpool_mode", &PyPool::envpool_mode, &PyPool::set_envpool_mode,
                   "EnvPool 1.x's behaviour (rlpool.compat.envpool): float32 rewards, EnvPool's info layout, "
                   "a first step without reset resets, float actions for a discrete space are cast, and a sync "
                   "pool may step a subset of its envs (the result still has every env's row).");
}
