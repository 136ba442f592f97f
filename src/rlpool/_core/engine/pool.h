// The pool: num_envs environments, the worker threads that step them, and the
// batch blocks their results land in. This file is the threads and the data
// path; what a reset or step means is in episode.h, and whether a batch is
// worth the threads in cost_model.h.
//
// Data path: Python call -> the binding (_core/python) writes actions into
// per-env action slots -> Pool dispatches env ids to a worker thread, or runs
// them on the caller when the batch is too cheap for a hand-off (run_task) ->
// step_or_reset (episode.cc) has the env (env.h) write straight into its row
// of a batch Block (batch_buffer.h): row = env id in sync mode; in async mode
// the next free row of the block being filled, in completion order (a
// two-phase env writes there directly; others write a staging row that is
// copied) -> the caller waits until the block is full and the binding hands
// it to Python as numpy views of its fields.
//
// Every public method is called from one Python thread at a time (the bindings
// enforce it); workers touch an env only between dispatch and completion.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>  // getpid, for the message of a pool used in a forked child

#include "_core/engine/autoreset.h"
#include "_core/engine/batch_buffer.h"
#include "_core/engine/cost_model.h"
#include "_core/engine/episode.h"
#include "_core/env/env.h"

namespace rlpool {

// Bumped in the child at every fork (pthread_atfork, registered in pool.cc):
// a pool compares it with the value it was made under, which costs a load
// where asking getpid() on every call would cost a system call.
inline std::atomic<std::uint64_t> fork_generation{0};

struct PoolOptions {
  std::string env_type;
  Config config;
  int num_envs = 1;
  int batch_size = 1;
  int num_threads = 1;
  int thread_affinity_offset = -1;
  std::vector<std::uint64_t> seeds;  // one per env
  int max_episode_steps = 0;         // 0: no time limit
  AutoresetMode autoreset_mode = AutoresetMode::kNextStep;
};

// Thrown out of a wait when the interrupt check (Ctrl-C) says so.
struct Interrupted {};

class Pool {
 public:
  explicit Pool(PoolOptions options);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  const EnvSpec& spec() const { return spec_; }
  const std::shared_ptr<const Layout>& layout() const { return layout_; }
  const PoolOptions& options() const { return options_; }
  int num_envs() const { return options_.num_envs; }
  int batch_size() const { return options_.batch_size; }
  bool is_sync() const { return options_.batch_size == options_.num_envs; }
  bool closed() const { return closed_.load(std::memory_order_acquire); }
  // True in a child process forked from the one that made the pool: the
  // worker threads do not exist there, and the mutexes and condition variables
  // still record the parent's waiters (destroying them would block forever).
  bool forked() const { return fork_generation.load(std::memory_order_relaxed) != born_generation_; }
  pid_t owner_pid() const { return owner_pid_; }
  int in_flight() const { return in_flight_; }
  // True while this thread runs one of this pool's envs (a worker, or the
  // caller helping): env code that calls back into its own pool (a Python
  // env's objmode block) must be refused, since closing would join the thread
  // itself and any other call would race the call that is running it.
  bool in_env_code() const;

  // Per-env action storage: int64 for discrete actions, action_dim doubles else.
  void* action_slot(int env_id) { return actions_.data() + static_cast<std::size_t>(env_id) * action_stride_; }

  // Throws std::invalid_argument naming the problem if these envs cannot be
  // stepped now (out of range, repeated, in flight, never reset, or finished
  // with autoreset disabled). With `reset`, only range/repeat/in-flight apply.
  void check_env_ids(const std::vector<int>& env_ids, bool reset) const;

  // Sync mode: step every env (actions already in the action slots) into `out`,
  // row i = env i. Runs inline on the caller when the batch is cheap.
  void step_all(Block& out);
  // Sync mode: step only `env_ids` into their rows of `out` (other rows untouched).
  void step_into(const std::vector<int>& env_ids, Block& out) { run_sync(env_ids, out, /*resets=*/false); }
  // Whether a step of a never-reset env resets it instead of being refused.
  bool first_step_resets() const { return first_step_resets_; }
  void set_first_step_resets(bool on) { first_step_resets_ = on; }
  // Resets `env_ids` into their rows of `out` (other rows untouched).
  void reset_into(const std::vector<int>& env_ids, Block& out);

  // Queue envs to step (or reset); returns at once.
  void send(const std::vector<int>& env_ids, bool reset);
  // Waits for the next batch_size results (helping with queued work while it
  // waits), returns the full block and puts `replacement` in its place.
  std::shared_ptr<Block> recv(std::shared_ptr<Block> replacement);
  // Blocks the pool writes async results into; the bindings fill these once.
  std::size_t ring_size() const { return ring_.size(); }
  void set_ring_block(std::size_t i, std::shared_ptr<Block> block);

  // Draws `env_ids` (each reset at least once, none in flight) into `rgb`, one
  // height x width x 3 frame after another, at EnvSpec's render size or, for an
  // env with render_any_size, at any size (others are resized: _core/gfx/resize.h).
  // Runs on the calling thread; the bindings release the GIL around it.
  void render(const std::vector<int>& env_ids, int width, int height, int camera_id, std::uint8_t* rgb);

  void seed(int env_id, std::uint64_t seed) { envs_[static_cast<std::size_t>(env_id)].rng.seed_with(seed); }
  std::string get_state(int env_id) const;
  void set_state(int env_id, std::string_view state);

  void close();
  // Called every few tens of ms while the caller waits; returning true
  // abandons the wait with Interrupted (async: results stay pending; sync:
  // unstarted envs are not stepped).
  void set_interrupt_check(std::function<bool()> check) { interrupt_check_ = std::move(check); }
  // Raises the first exception an env threw in a worker since the last call.
  void rethrow_task_error();

 private:
  struct EnvSlot {
    std::unique_ptr<Env> env;
    Rng rng;
    EpisodeState episode;
    bool in_flight = false;   // dispatched and not yet returned to Python
    Block* target = nullptr;  // sync mode: write straight into this block
  };

  void dispatch(const std::vector<int>& env_ids, Block* target, bool run_inline);
  void run_sync(const std::vector<int>& env_ids, Block& out, bool resets);
  // Runs one env's reset or step, timed for the cost model if `sample`. Sync
  // (the env writes into its target block): returns that block, whose
  // `filled` the caller counts; async: counts its own row, returns nullptr.
  Block* run_task(int env_id, bool sample);
  // Runs tasks ids[0..n) on this thread, unless the run overruns
  // (CostModel::kOverrunNs): then the unstarted ones go back to the queue for
  // all threads. Returns how many ran.
  std::size_t run_tasks(const int* ids, std::size_t n);
  void wait_filled(Block& block, int rows, bool interruptible);
  std::size_t chunk_size() const;
  std::size_t pop_chunk(int* ids, std::size_t max);  // queue_mu_ held
  std::size_t try_pop(int* ids);
  void worker_loop(int index);
  void notify_done();

  PoolOptions options_;
  EpisodeRules rules_;
  EnvSpec spec_;
  std::shared_ptr<const Layout> layout_;
  std::vector<EnvSlot> envs_;
  std::vector<int> all_ids_;
  mutable std::vector<bool> seen_scratch_;
  bool first_step_resets_ = false;
  std::vector<std::uint8_t> render_scratch_;  // a frame at the env's own size, before resizing
  std::vector<std::byte> actions_;
  std::size_t action_stride_ = 0;
  std::unique_ptr<Block> staging_;  // async: one row per env
  std::vector<std::shared_ptr<Block>> ring_;
  std::uint64_t received_blocks_ = 0;
  std::atomic<std::uint64_t> completed_{0};
  int in_flight_ = 0;
  pid_t owner_pid_ = getpid();
  std::uint64_t born_generation_ = fork_generation.load(std::memory_order_relaxed);
  std::atomic<bool> closed_{false};  // read by Python's `closed` while another thread may close

  std::mutex queue_mu_;
  std::condition_variable queue_cv_;
  std::deque<int> queue_;
  std::atomic<int> queued_{0};
  bool stop_ = false;

  std::mutex done_mu_;
  std::condition_variable done_cv_;

  CostModel cost_;  // fed task and batch timings by run_task and run_sync

  std::mutex error_mu_;
  std::string task_error_;
  bool task_error_oom_ = false;  // task_error_ is a std::bad_alloc's
  std::atomic<bool> has_task_error_{false};

  std::function<bool()> interrupt_check_;
  std::vector<std::thread> workers_;
};

}  // namespace rlpool
