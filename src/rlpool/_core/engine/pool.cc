// The pool's threads and data path (pool.h): construction and close, env id
// checks, sync and async dispatch to the workers or the caller, the waits for
// a full block, the worker loop, each env task, render and state calls.
#include "_core/engine/pool.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <typeinfo>

#include "_core/gfx/resize.h"

namespace rlpool {

namespace {
constexpr std::chrono::milliseconds kInterruptPoll{50};

// In sync mode the caller works too, so it needs one worker fewer.
int worker_count(const PoolOptions& o) { return o.batch_size == o.num_envs ? o.num_threads - 1 : o.num_threads; }

// The pool whose env this thread is stepping or resetting now (run_tasks).
thread_local const Pool* running_pool = nullptr;

// Marks the thread as running `pool`'s env code for its lifetime.
class RunningEnvCode {
 public:
  explicit RunningEnvCode(const Pool* pool) : previous_(running_pool) { running_pool = pool; }
  ~RunningEnvCode() { running_pool = previous_; }
  RunningEnvCode(const RunningEnvCode&) = delete;
  RunningEnvCode& operator=(const RunningEnvCode&) = delete;

 private:
  const Pool* previous_;
};

double now_ns() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}
// A clock cheap enough to read after every task (about 4 ns where
// steady_clock takes about 25), with the resolution of a kernel tick (1-4 ms):
// enough to notice a run of tasks that goes on for milliseconds.
std::int64_t coarse_now_ns() {
#ifdef CLOCK_MONOTONIC_COARSE
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
#else
  return static_cast<std::int64_t>(now_ns());
#endif
}

// A run whose coarse clock advanced by more than this has really taken longer
// than CostModel::kOverrunNs (a tick may pass just after it started).
const std::int64_t kOverrunCoarseNs = [] {
  std::int64_t resolution = 0;
#ifdef CLOCK_MONOTONIC_COARSE
  timespec ts;
  if (clock_getres(CLOCK_MONOTONIC_COARSE, &ts) == 0) {
    resolution = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  }
#endif
  return static_cast<std::int64_t>(CostModel::kOverrunNs) + resolution;
}();
}  // namespace

namespace {
const bool kForkNoted = [] {
  pthread_atfork(nullptr, nullptr, [] { fork_generation.fetch_add(1, std::memory_order_relaxed); });
  return true;
}();
}  // namespace

Pool::Pool(PoolOptions options)
    : options_(std::move(options)),
      rules_{options_.max_episode_steps, options_.autoreset_mode},
      cost_(worker_count(options_), is_sync()) {
  const EnvType& type = find_env_type(options_.env_type);
  spec_ = type.spec(options_.config);
  if (spec_.obs.empty() || spec_.obs.size() > kMaxObsEntries || spec_.info.size() > kMaxInfoEntries) {
    throw std::logic_error("env type '" + options_.env_type + "' declares " + std::to_string(spec_.obs.size()) +
                           " obs and " + std::to_string(spec_.info.size()) + " info entries; at most " +
                           std::to_string(kMaxObsEntries) + " and " + std::to_string(kMaxInfoEntries));
  }
  if (spec_.obs_kind == ObsKind::kArray && spec_.obs.size() != 1) {
    throw std::logic_error("env type '" + options_.env_type + "' has an array observation with " +
                           std::to_string(spec_.obs.size()) + " entries; declare obs_kind dict or tuple");
  }
  check_obs_names(spec_, options_.env_type);
  layout_ = std::make_shared<Layout>(spec_, options_.autoreset_mode);

  const int n = options_.num_envs;
  check_agents(spec_, options_.env_type);
  action_stride_ = (spec_.discrete_action() ? sizeof(std::int64_t) : sizeof(double)) *
                   static_cast<std::size_t>(spec_.action.num_elements());
  actions_.resize(action_stride_ * static_cast<std::size_t>(n));
  envs_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) all_ids_.push_back(i);
  for (int i = 0; i < n; ++i) {
    auto& e = envs_[static_cast<std::size_t>(i)];
    e.env = type.create_at ? type.create_at(options_.config, i) : type.create(options_.config);
    e.rng.seed_with(options_.seeds[static_cast<std::size_t>(i)]);
  }

  if (!is_sync()) {
    staging_ = std::make_unique<Block>(layout_, n);
    // Completed-but-unreceived results never span more than this many blocks.
    const int bs = options_.batch_size;
    ring_.resize(static_cast<std::size_t>((n + bs - 1) / bs + 1));
  } else {
    ring_.resize(1);
  }

  const int workers = worker_count(options_);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (int w = 0; w < workers; ++w) {
    workers_.emplace_back([this, w] { worker_loop(w); });
    if (options_.thread_affinity_offset >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(static_cast<unsigned>(options_.thread_affinity_offset + w) % cores, &set);
      pthread_setaffinity_np(workers_.back().native_handle(), sizeof(set), &set);
    }
  }
}

Pool::~Pool() { close(); }

bool Pool::in_env_code() const { return running_pool == this; }

void Pool::close() {
  if (forked()) return;  // see forked(): nothing here can be stopped or joined
  if (closed_.exchange(true, std::memory_order_acq_rel)) return;
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    stop_ = true;
  }
  queue_cv_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
  for (auto& slot : envs_) {
    if (slot.env) slot.env->close();
  }
}

void Pool::set_ring_block(std::size_t i, std::shared_ptr<Block> block) {
  block->filled.store(0, std::memory_order_relaxed);
  block->owned_by_pool = true;
  ring_[i] = std::move(block);
}

void Pool::check_env_ids(const std::vector<int>& env_ids, bool reset) const {
  // Reused between calls: no allocation on the step path.
  std::vector<bool>& seen = seen_scratch_;
  seen.assign(static_cast<std::size_t>(num_envs()), false);
  for (int id : env_ids) {
    if (id < 0 || id >= num_envs()) {
      throw std::out_of_range("env_id " + std::to_string(id) + " is out of range [0, " + std::to_string(num_envs()) +
                              ")");
    }
    const auto& e = envs_[static_cast<std::size_t>(id)];
    if (seen[static_cast<std::size_t>(id)]) {
      throw std::invalid_argument("env_id " + std::to_string(id) + " appears more than once in one call");
    }
    seen[static_cast<std::size_t>(id)] = true;
    if (e.in_flight) {
      throw std::invalid_argument("env_id " + std::to_string(id) +
                                  " is already in flight: recv() its result before sending it again");
    }
    if (reset) continue;
    switch (step_refusal(e.episode)) {
      case StepRefusal::kNone:
        break;
      case StepRefusal::kNeverReset:
        if (first_step_resets_) break;  // its turn is a reset (EpisodeState::resets_next)
        throw std::invalid_argument("env_id " + std::to_string(id) + " has not been reset: call reset() first");
      case StepRefusal::kFinished:
        throw std::invalid_argument("env_id " + std::to_string(id) +
                                    " finished its episode and autoreset_mode is Disabled: reset it with "
                                    "reset(options={'reset_mask': mask}) before stepping it again");
    }
  }
}

void Pool::run_sync(const std::vector<int>& env_ids, Block& out, bool resets) {
  out.filled.store(0, std::memory_order_relaxed);
  // Reset batches are kept out of the estimate (they cost something else).
  const bool threaded = resets ? cost_.share_resets(env_ids.size()) : cost_.threads_pay(env_ids.size());
  const double start = threaded ? now_ns() : 0.0;
  dispatch(env_ids, &out, /*run_inline=*/!threaded);
  try {
    wait_filled(out, static_cast<int>(env_ids.size()), /*interruptible=*/true);
  } catch (const Interrupted&) {
    // Drop what has not started (those envs keep their state), let what runs
    // finish, so nothing writes into `out` once we return.
    int dropped = 0;
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      for (int id : queue_) {
        envs_[static_cast<std::size_t>(id)].episode.reset_requested = false;
        ++dropped;
      }
      queue_.clear();
      queued_.store(0, std::memory_order_relaxed);
    }
    wait_filled(out, static_cast<int>(env_ids.size()) - dropped, /*interruptible=*/false);
    for (int id : env_ids) envs_[static_cast<std::size_t>(id)].in_flight = false;
    in_flight_ -= static_cast<int>(env_ids.size());
    throw;
  }
  if (threaded && !resets) cost_.record_threaded_batch(now_ns() - start, env_ids.size());
  for (int id : env_ids) envs_[static_cast<std::size_t>(id)].in_flight = false;
  in_flight_ -= static_cast<int>(env_ids.size());
  rethrow_task_error();
}

void Pool::step_all(Block& out) { run_sync(all_ids_, out, /*resets=*/false); }

void Pool::reset_into(const std::vector<int>& env_ids, Block& out) {
  for (int id : env_ids) envs_[static_cast<std::size_t>(id)].episode.reset_requested = true;
  run_sync(env_ids, out, /*resets=*/true);
}

void Pool::send(const std::vector<int>& env_ids, bool reset) {
  if (reset) {
    for (int id : env_ids) envs_[static_cast<std::size_t>(id)].episode.reset_requested = true;
  }
  // Sync mode writes straight into the one ring block, row = env id.
  dispatch(env_ids, is_sync() ? ring_[0].get() : nullptr, /*run_inline=*/false);
}

std::shared_ptr<Block> Pool::recv(std::shared_ptr<Block> replacement) {
  const int bs = batch_size();
  if (in_flight_ < bs) {
    throw std::logic_error("recv() needs at least batch_size=" + std::to_string(bs) +
                           " envs in flight, but only " + std::to_string(in_flight_) +
                           " are: send() actions first");
  }
  const std::size_t pos = received_blocks_ % ring_.size();
  Block& block = *ring_[pos];
  wait_filled(block, bs, /*interruptible=*/true);  // on Ctrl-C the batch stays queued
  std::shared_ptr<Block> full = std::move(ring_[pos]);
  full->owned_by_pool = false;
  set_ring_block(pos, std::move(replacement));
  ++received_blocks_;
  in_flight_ -= bs;
  for (int r = 0; r < bs; ++r) envs_[static_cast<std::size_t>(full->at<std::int32_t>(layout_->env_id(), r))].in_flight = false;
  return full;
}

void Pool::dispatch(const std::vector<int>& env_ids, Block* target, bool run_inline) {
  for (int id : env_ids) {
    auto& e = envs_[static_cast<std::size_t>(id)];
    e.in_flight = true;
    e.target = target;
  }
  in_flight_ += static_cast<int>(env_ids.size());
  if (run_inline) {
    // What overruns goes back to the queue, and the caller's wait shares it out.
    run_tasks(env_ids.data(), env_ids.size());
    return;
  }
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queue_.insert(queue_.end(), env_ids.begin(), env_ids.end());
    queued_.fetch_add(static_cast<int>(env_ids.size()), std::memory_order_relaxed);
  }
  // Cheap work waits for the caller to do it in recv(); worth-it work wakes workers.
  if (cost_.wake_workers(env_ids.size())) queue_cv_.notify_all();
}

std::size_t Pool::chunk_size() const {
  // Workers call this while the constructor may still be starting threads:
  // the cost model counts them from the options, never from workers_.
  return cost_.chunk_size(static_cast<std::size_t>(queued_.load(std::memory_order_relaxed)));
}

std::size_t Pool::pop_chunk(int* ids, std::size_t max) {
  std::size_t n = 0;
  while (n < max && !queue_.empty()) {
    ids[n++] = queue_.front();
    queue_.pop_front();
  }
  queued_.fetch_sub(static_cast<int>(n), std::memory_order_relaxed);
  return n;
}

std::size_t Pool::try_pop(int* ids) {
  if (queued_.load(std::memory_order_relaxed) == 0) return 0;
  const std::size_t max = chunk_size();
  std::lock_guard<std::mutex> lock(queue_mu_);
  return pop_chunk(ids, max);
}

void Pool::wait_filled(Block& block, int rows, bool interruptible) {
  // While this thread helps with queued work it looks for Ctrl-C as often as
  // while it sleeps, so that a long sync batch stops after the tasks running.
  // Read the clock only once there is something to wait for: the inline path
  // (block already full) pays nothing.
  std::chrono::steady_clock::time_point next_check{};
  while (block.filled.load(std::memory_order_acquire) < rows) {
    if (next_check == std::chrono::steady_clock::time_point{}) {
      next_check = std::chrono::steady_clock::now() + kInterruptPoll;
    }
    int ids[CostModel::kMaxChunk];
    // Sync mode: the caller is one of the num_threads threads. Async mode:
    // only quick work (see CostModel::caller_helps).
    const bool help = cost_.caller_helps();
    if (const std::size_t n = help ? try_pop(ids) : 0; n > 0) {
      run_tasks(ids, n);
      // The cost estimate may have just learnt that the rest is worth sharing.
      const int left = queued_.load(std::memory_order_relaxed);
      if (left > 0 && cost_.wake_workers(static_cast<std::size_t>(left))) queue_cv_.notify_all();
      if (interruptible && interrupt_check_ && std::chrono::steady_clock::now() >= next_check) {
        next_check = std::chrono::steady_clock::now() + kInterruptPoll;
        if (interrupt_check_()) throw Interrupted();
      }
      continue;
    }
    // Only this thread queues work, so whatever is left is queued for or
    // running on a worker: sleep until a completion wakes us.
    if (!help) queue_cv_.notify_all();
    std::unique_lock<std::mutex> lock(done_mu_);
    const auto full = [&] { return block.filled.load(std::memory_order_acquire) >= rows; };
    // Wake now and then to let Python deliver Ctrl-C during a long wait.
    while (!done_cv_.wait_for(lock, kInterruptPoll, full)) {
      if (!interruptible || !interrupt_check_) continue;
      lock.unlock();
      const bool interrupted = interrupt_check_();
      lock.lock();
      if (interrupted) throw Interrupted();
    }
  }
}

void Pool::notify_done() {
  { std::lock_guard<std::mutex> lock(done_mu_); }
  done_cv_.notify_all();
}

void Pool::worker_loop(int /*index*/) {
  int ids[CostModel::kMaxChunk];
  for (;;) {
    std::size_t n;
    {
      const std::size_t max = chunk_size();
      std::unique_lock<std::mutex> lock(queue_mu_);
      queue_cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      n = pop_chunk(ids, max);
    }
    run_tasks(ids, n);
  }
}

std::size_t Pool::run_tasks(const int* ids, std::size_t n) {
  // Per run, not per task: marking the thread as in env code, numbering the
  // tasks for the cost model's samples, and counting sync rows into their
  // block (one atomic add each; cheap envs notice them when paid per task).
  const RunningEnvCode running(this);
  const std::uint32_t first_number = cost_.number_tasks(n);
  Block* counting = nullptr;  // the sync block whose rows `uncounted` are
  int uncounted = 0;
  const auto count_rows = [&] {
    if (uncounted == 0) return;
    // Once `filled` counts the last row the caller may hand the block to
    // Python, which may free it: nothing here reads a block after its increment.
    const int rows = counting->rows();
    if (counting->filled.fetch_add(uncounted, std::memory_order_acq_rel) + uncounted == rows) notify_done();
    uncounted = 0;
  };
  // The clock is read after the first task (a stale estimate shows there) and
  // then after every kOverrunCheckEvery-th: a few ns each, which cheap envs
  // notice when paid per task.
  const std::int64_t start = coarse_now_ns();
  for (std::size_t i = 0; i < n; ++i) {
    if (Block* const target = run_task(ids[i], CostModel::sampled(first_number + static_cast<std::uint32_t>(i)))) {
      if (target != counting) {
        count_rows();
        counting = target;
      }
      ++uncounted;
    }
    if (i + 1 == n || i % CostModel::kOverrunCheckEvery != 0) continue;
    const std::int64_t took = coarse_now_ns() - start;
    if (took <= kOverrunCoarseNs) continue;
    count_rows();
    // Sized on a stale estimate: learn the real cost, and give the tasks not
    // started to every thread (front of the queue: they were due first).
    cost_.record_overrun(static_cast<double>(took), i + 1);
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      queue_.insert(queue_.begin(), ids + i + 1, ids + n);
      queued_.fetch_add(static_cast<int>(n - i - 1), std::memory_order_relaxed);
    }
    queue_cv_.notify_all();
    return i + 1;
  }
  count_rows();
  return n;
}

Block* Pool::run_task(int env_id, bool sample) {
  EnvSlot& e = envs_[static_cast<std::size_t>(env_id)];
  const bool is_step = !e.episode.resets_next();
  const bool timed = sample && is_step;  // resets cost something else
  const double start = timed ? now_ns() : 0.0;
  Block* const target = e.target;
  // Async: results take the next free row, so the first envs to finish come
  // back first. A two-phase env takes its row after the work and writes into
  // it (dst set below); the others write a staging row that is then copied over.
  Block* dst = nullptr;
  int row = 0;
  const auto claim_row = [&] {
    const std::uint64_t k = completed_.fetch_add(1, std::memory_order_acq_rel);
    const auto bs = static_cast<std::uint64_t>(batch_size());
    dst = ring_[(k / bs) % ring_.size()].get();
    row = static_cast<int>(k % bs);
  };
  const Action action{action_slot(env_id)};
  try {
    if (target != nullptr) {
      step_or_reset(*e.env, e.rng, e.episode, rules_, action, /*emit_only=*/false, *target, env_id, env_id);
    } else if (is_step && e.env->two_phase()) {
      e.env->advance(action, e.rng);
      claim_row();
      step_or_reset(*e.env, e.rng, e.episode, rules_, action, /*emit_only=*/true, *dst, row, env_id);
    } else {
      step_or_reset(*e.env, e.rng, e.episode, rules_, action, /*emit_only=*/false, *staging_, env_id, env_id);
    }
  } catch (const std::exception& ex) {
    std::lock_guard<std::mutex> lock(error_mu_);
    if (task_error_.empty()) {
      task_error_ = "env " + std::to_string(env_id) + ": " + ex.what();
      // Running out of memory stays what it is (MemoryError), not a generic error.
      task_error_oom_ = dynamic_cast<const std::bad_alloc*>(&ex) != nullptr;
    }
    has_task_error_.store(true, std::memory_order_release);
  }
  if (timed) cost_.record_task(now_ns() - start);

  if (target != nullptr) return target;  // run_tasks counts the row
  if (dst == nullptr) {  // staged (or advance() threw: the batch must still fill)
    claim_row();
    dst->copy_row(row, *staging_, env_id);
  }
  // recv() reads which env a row belongs to from here, even after an error.
  dst->at<std::int32_t>(layout_->env_id(), row) = env_id;
  // Once `filled` counts this row the caller may hand the block to Python,
  // which may free it: nothing here reads a block after its increment.
  if (dst->filled.fetch_add(1, std::memory_order_acq_rel) + 1 == batch_size()) notify_done();
  return nullptr;
}

void Pool::rethrow_task_error() {
  if (!has_task_error_.load(std::memory_order_acquire)) return;
  std::string message;
  bool oom = false;
  {
    std::lock_guard<std::mutex> lock(error_mu_);
    message.swap(task_error_);
    oom = task_error_oom_;
    task_error_oom_ = false;
    has_task_error_.store(false, std::memory_order_relaxed);
  }
  if (oom) throw OutOfMemory(message);
  throw std::runtime_error(message);
}

void Pool::render(const std::vector<int>& env_ids, int width, int height, int camera_id, std::uint8_t* rgb) {
  if (spec_.render_width <= 0 || spec_.render_height <= 0) throw std::invalid_argument("this env does not render");
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("render size must be positive, got " + std::to_string(width) + "x" +
                                std::to_string(height));
  }
  for (int id : env_ids) {
    if (id < 0 || id >= num_envs()) {
      throw std::out_of_range("env_id " + std::to_string(id) + " is out of range [0, " + std::to_string(num_envs()) +
                              ")");
    }
    const auto& e = envs_[static_cast<std::size_t>(id)];
    if (e.in_flight) {
      throw std::invalid_argument("env_id " + std::to_string(id) +
                                  " is in flight (sent, not yet received): render it after recv() returns it");
    }
    if (step_refusal(e.episode) == StepRefusal::kNeverReset) {
      throw std::invalid_argument("env_id " + std::to_string(id) + " has not been reset: call reset() first");
    }
  }
  const bool direct = spec_.render_any_size || (width == spec_.render_width && height == spec_.render_height);
  const std::size_t frame_bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3;
  if (!direct) render_scratch_.resize(static_cast<std::size_t>(spec_.render_width) * spec_.render_height * 3);
  for (std::size_t i = 0; i < env_ids.size(); ++i) {
    std::uint8_t* out = rgb + i * frame_bytes;
    Env& env = *envs_[static_cast<std::size_t>(env_ids[i])].env;
    try {
      if (direct) {
        env.render(Frame{width, height, camera_id, out});
      } else {
        env.render(Frame{spec_.render_width, spec_.render_height, camera_id, render_scratch_.data()});
        resize_rgb(render_scratch_.data(), spec_.render_width, spec_.render_height, out, width, height);
      }
    } catch (const std::runtime_error& ex) {
      // An env's own failure (e.g. a Python-written env's render raising) names the env, as step's do;
      // the std::runtime_error subclasses keep their own Python types.
      if (typeid(ex) != typeid(std::runtime_error)) throw;
      throw std::runtime_error("env " + std::to_string(env_ids[i]) + ": " + ex.what());
    }
  }
}

std::string Pool::get_state(int env_id) const {
  return envs_[static_cast<std::size_t>(env_id)].env->get_state();
}

void Pool::set_state(int env_id, std::string_view state) {
  auto& e = envs_[static_cast<std::size_t>(env_id)];
  e.env->set_state(state);
  e.episode.restored();
}

}  // namespace rlpool
