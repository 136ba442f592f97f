// Pool's calls as Python makes them (pool_binding.h): the checks that refuse a
// call before it changes anything, the GIL released while the engine works,
// and the batch blocks Python's results view (results.cc), reused once nobody
// but their cache holds them.
#include "_core/python/pool_binding.h"

#include <unistd.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "_core/python/exit_gate.h"
#include "_core/python/interrupt.h"

namespace rlpool::binding {

PyPool::PyPool(const std::string& env_type, const std::map<std::string, OptionValue>& config, int num_envs,
               int batch_size, int num_threads, int thread_affinity_offset, const std::vector<std::uint64_t>& seeds,
               int max_episode_steps, const std::string& autoreset_mode) {
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
  make_result_keys();
  default_info_keys();
  xla_register();
}

PyPool::~PyPool() {
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

nb::tuple PyPool::step(nb::handle actions, nb::handle env_id) {
  Guard g(this);
  refuse_xla_pending("step()");
  nb::object action = nb::borrow(actions), ids = nb::borrow(env_id);
  if (!dict_action_key_.empty() && PyDict_Check(actions.ptr())) {
    std::tie(action, ids) = unpack_dict_action(actions, env_id);
  }
  if (pool_->is_sync() && ids.is_none()) return step_all_now(action);
  if (pool_->is_sync() && subset_steps_) return step_subset(action, ids);
  send_impl(action, ids, false, /*then_recv=*/true);
  return recv_impl();
}

void PyPool::send(nb::handle actions, nb::handle env_id) {
  Guard g(this);
  refuse_xla_pending("send()");
  if (!dict_action_key_.empty() && PyDict_Check(actions.ptr())) {
    auto [action, ids] = unpack_dict_action(actions, env_id);
    send_impl(action, ids, false, /*then_recv=*/false);
    return;
  }
  send_impl(actions, env_id, false, /*then_recv=*/false);
}

nb::tuple PyPool::recv() {
  Guard g(this);
  return recv_impl();
}

void PyPool::async_reset() {
  Guard g(this);
  refuse_xla_pending("async_reset()");
  std::vector<int> ids = all_ids_;
  pool_->check_env_ids(ids, true);
  const ReleasedGil release;
  pool_->send(ids, true);
}

nb::tuple PyPool::reset(nb::handle env_id, const std::vector<int>& seed_ids, const std::vector<std::uint64_t>& seeds) {
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

void PyPool::seed(nb::handle env_id, const std::vector<std::uint64_t>& seeds) {
  Guard g(this);
  std::vector<int> ids = env_id.is_none() ? all_ids_ : to_ids(env_id);
  if (ids.size() != seeds.size()) throw nb::value_error("need one seed per env_id");
  pool_->check_env_ids(ids, true);
  for (std::size_t i = 0; i < ids.size(); ++i) pool_->seed(ids[i], seeds[i]);
}

nb::bytes PyPool::get_state(int env_id) {
  Guard g(this);
  pool_->check_env_ids({env_id}, true);
  std::string s = pool_->get_state(env_id);
  return nb::bytes(s.data(), s.size());
}

nb::object PyPool::render(const std::vector<int>& env_ids, int width, int height, int camera_id) {
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

void PyPool::set_state(int env_id, nb::bytes state) {
  Guard g(this);
  pool_->check_env_ids({env_id}, true);
  // Released: a Procgen state from another process is first loaded by a checker process. The caller's
  // reference keeps `state`'s bytes alive.
  const ReleasedGil release;
  pool_->set_state(env_id, std::string_view(state.c_str(), state.size()));
}

void PyPool::close() {
  if (pool_->forked()) return;  // nothing to stop here; see ~PyPool
  refuse_from_env_code("close()");
  std::unique_lock<std::mutex> lock(api_mu_, std::try_to_lock);
  if (!lock.owns_lock()) throw std::runtime_error("close() called while another thread is using the pool");
  if (pool_->closed()) return;
  xla_unregister();
  const ReleasedGil release;
  pool_->close();
}

nb::list PyPool::fields() const {
  nb::list out;
  for (const auto& f : pool_->layout()->fields) {
    out.append(nb::make_tuple(f.name, dtype_name(f.dtype), nb::tuple(nb::cast(f.shape))));
  }
  return out;
}

void PyPool::refuse_from_env_code(const std::string& call) const {
  if (pool_->in_env_code()) {
    throw std::runtime_error(call + " on a pool from inside one of its own envs' reset() or step() is not allowed: "
                             "it runs on the pool's own thread (close() would wait for itself)");
  }
}

nb::tuple PyPool::step_all_now(nb::handle actions) {
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

void PyPool::check_can_recv_after(std::size_t sending, const char* call) const {
  const int bs = pool_->batch_size();
  const int would_be = pool_->in_flight() + static_cast<int>(sending);
  if (would_be < bs) {
    throw std::logic_error(std::string(call) + " needs at least batch_size=" + std::to_string(bs) +
                           " envs in flight to receive a batch, but only " + std::to_string(would_be) +
                           " would be: send() more envs first");
  }
}

void PyPool::send_impl(nb::handle actions, nb::handle env_id, bool reset, bool then_recv) {
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

nb::tuple PyPool::recv_impl() {
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

Entry& PyPool::acquire() {
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

}  // namespace rlpool::binding
