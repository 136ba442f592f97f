// The engine's side of the XLA bridge (xla/xla_bridge.h): env.xla()'s FFI
// handlers, a library of their own, call these functions with the bytes of a
// pool's handle (its address and a serial, checked against the registry of
// live pools), XLA's buffers, and no GIL. xla_send checks actions as step()
// does and fills the action slots; xla_recv copies a batch's fields into
// XLA's output buffers, narrowed to 32 bits where jax wants them. Errors come
// back as messages, not exceptions: XLA carries no Python exception.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "_core/python/interrupt.h"
#include "_core/python/pool_binding.h"

namespace rlpool::binding {

namespace {

// Pools an XLA handle may name: address -> serial. A handle whose pair is not
// here (its pool closed or freed, or bytes that were never a handle) is refused.
std::mutex xla_registry_mu;
std::unordered_map<const PyPool*, std::uint64_t> xla_registry;
std::uint64_t xla_next_serial = 1;  // xla_registry_mu held

// The XLA code of an engine dtype: RlpoolXlaDType follows DType's order.
int xla_code(DType d) { return static_cast<int>(d); }

// Whether engine dtype `from` may be written as XLA dtype `to` (the same, or 64 -> 32 bits).
bool narrows_to(DType from, int to) {
  if (to == xla_code(from)) return true;
  return (from == DType::kFloat64 && to == kRlpoolXlaFloat32) || (from == DType::kInt64 && to == kRlpoolXlaInt32);
}

void copy_out(const Field& field, const std::byte* src, int rows, const RlpoolXlaBuffer& out) {
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

}  // namespace

void PyPool::xla_register() {
  std::lock_guard<std::mutex> lock(xla_registry_mu);
  serial_ = xla_next_serial++;
  xla_registry[this] = serial_;
}

void PyPool::xla_unregister() {
  std::lock_guard<std::mutex> lock(xla_registry_mu);
  xla_registry.erase(this);
}

nb::bytes PyPool::xla_handle() const {
  std::uint8_t h[RLPOOL_XLA_HANDLE_BYTES];
  const auto address = reinterpret_cast<std::uintptr_t>(this);
  const std::uint64_t a = address;
  std::memcpy(h, &a, 8);
  std::memcpy(h + 8, &serial_, 8);
  return nb::bytes(reinterpret_cast<const char*>(h), sizeof(h));
}

std::pair<PyPool*, std::unique_lock<std::mutex>> PyPool::from_handle(const std::uint8_t* h, std::size_t n) {
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

void PyPool::xla_send(const RlpoolXlaBuffer& action, const RlpoolXlaBuffer& env_id) {
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
  const std::int64_t dim = spec.num_elements();  // a multi-agent env's: one per agent
  if (action.elements != dim * n) {
    throw std::invalid_argument("actions must have " + std::to_string(dim * n) + " elements (" + std::to_string(n) +
                                " envs), got " + std::to_string(action.elements));
  }
  if (pool_->spec().discrete_action()) {
    const auto high = static_cast<std::int64_t>(spec.high.at(0));
    scratch_int_.resize(static_cast<std::size_t>(n * dim));
    for (std::int64_t k = 0; k < n * dim; ++k) {
      const std::int64_t v = action.dtype == kRlpoolXlaInt32 ? static_cast<const std::int32_t*>(action.data)[k]
                           : action.dtype == kRlpoolXlaInt64 ? static_cast<const std::int64_t*>(action.data)[k]
                              : throw std::invalid_argument("discrete actions must be int32 or int64");
      if (v < 0 || v > high) {
        throw std::invalid_argument("action " + std::to_string(v) + " for env " + std::to_string(ids[k / dim]) +
                                    " is out of range [0, " + std::to_string(high) + "]");
      }
      scratch_int_[static_cast<std::size_t>(k)] = v;
    }
    for (int i = 0; i < n; ++i) {
      std::memcpy(pool_->action_slot(ids[i]), scratch_int_.data() + i * dim, dim * sizeof(std::int64_t));
    }
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

std::shared_ptr<Block> PyPool::take_xla_block() {
  if (xla_free_.empty()) return std::make_shared<Block>(pool_->layout(), pool_->batch_size());
  std::shared_ptr<Block> b = std::move(xla_free_.back());
  xla_free_.pop_back();
  return b;
}

void PyPool::xla_recv(const RlpoolXlaBuffer* outs, std::size_t n_outs) {
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

namespace {

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

}  // namespace

const RlpoolXlaBridge xla_bridge{RLPOOL_XLA_BRIDGE_VERSION, &bridge_send, &bridge_recv};

}  // namespace rlpool::binding
