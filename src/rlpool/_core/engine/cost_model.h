// The cost model: whether a batch of env tasks is worth handing to the worker
// threads or is cheaper to run on the calling thread, and how many queued tasks
// a thread takes at a time.
//
// Waking a sleeping worker costs several microseconds, more than a whole batch
// of small envs (a CartPole step is well under 1 us), so the pool decides from
// measured costs, not assumed ones. It feeds in measurements (sampled task
// times, wall times of threaded batches); the decisions below are plain
// functions of those and of their arguments. No clocks or threads in here, so
// that the decisions can be unit tested (tests/cpp/cost_model_test.cc).
//
// Thread use: workers record task costs and read chunk_size() while the caller
// decides, so the task cost estimate is a relaxed atomic (a stale value only
// costs speed). Everything about threaded sync batches is the caller's alone.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rlpool {

class CostModel {
 public:
  // A batch estimated to cost less than this runs on the calling thread.
  static constexpr double kInlineBudgetNs = 30000.0;
  // One step task in this many is timed, to keep the estimate fresh (two
  // clock reads, about 50 ns: a cost cheap envs notice when paid often).
  static constexpr std::uint32_t kSampleEvery = 32;
  // Cheap tasks are taken from the queue in chunks of about this much work...
  static constexpr double kChunkNs = 5000.0;
  // ...and at most this many.
  static constexpr std::size_t kMaxChunk = 64;
  // How often a sync pool that found threads slower tries them again.
  static constexpr std::uint64_t kRemeasureEvery = 64;
  // A run of tasks on one thread (an inline batch, a queue chunk) still going
  // after this long was sized on a stale estimate (cheap steps before, costly
  // now): the pool returns its unstarted tasks to the queue for all threads and
  // records the run with record_overrun(). Far above what a run is sized to
  // cost (kInlineBudgetNs, kChunkNs), so only a misjudged run is cut.
  static constexpr double kOverrunNs = 2'000'000.0;
  // A run is checked for an overrun after its first task and then after every
  // this many: a stale estimate shows at once, a run of cheap tasks pays for
  // one clock read in this many, and a task that turns costly mid-run is
  // noticed within this many of its kind.
  static constexpr std::size_t kOverrunCheckEvery = 4;

  // `workers`: worker threads. `sync`: sync mode, where the caller is one of
  // the threads stepping envs (in async mode it only helps with quick work).
  CostModel(int workers, bool sync) : workers_(workers), sync_(sync) {}

  // Numbers `tasks` tasks about to run on one thread, consecutively from the
  // returned one (one atomic add per run, not per task); task number k is
  // timed (then record_task) when sampled(k) and it is a step.
  std::uint32_t number_tasks(std::size_t tasks) {
    return samples_.fetch_add(static_cast<std::uint32_t>(tasks), std::memory_order_relaxed);
  }
  static bool sampled(std::uint32_t task_number) { return task_number % kSampleEvery == 0; }
  // A timed step task took `ns`.
  void record_task(double ns);
  // A run cut as too long (kOverrunNs): `tasks` tasks took `ns` in all. A
  // sample like a timed task's, so that one overrun is enough to stop the
  // estimate calling such tasks cheap.
  void record_overrun(double ns, std::size_t tasks) { record_task(ns / static_cast<double>(tasks)); }
  // A sync batch of `tasks` steps run by the threads took `ns` of wall time.
  void record_threaded_batch(double ns, std::size_t tasks);

  // Estimated cost of one step task; 0 until one has been timed.
  double task_ns() const { return task_ns_.load(std::memory_order_relaxed); }
  // `tasks` steps are known to cost less than a hand-off to a worker.
  bool cheap(std::size_t tasks) const {
    const double ns = task_ns();
    // Unknown cost (nothing timed yet): assume a hand-off pays.
    return ns > 0.0 && ns * static_cast<double>(tasks) < kInlineBudgetNs;
  }
  // `tasks` queued tasks are worth waking the workers for.
  bool wake_workers(std::size_t tasks) const { return workers_ > 0 && !cheap(tasks); }
  // A waiting caller takes queued tasks itself. In async mode only quick
  // ones: a long task there would hold back results the workers finish.
  bool caller_helps() const { return sync_ || workers_ == 0 || cheap(1); }

  // Sync step batch of `tasks`: share it with the workers (else run it inline).
  // Non-const: counts the batches that stay inline, to re-measure now and then.
  bool threads_pay(std::size_t tasks);
  // Sync reset batch of `tasks`: resets cost something else than steps (an
  // Atari reset loads a ROM) and are not timed, so share any batch of two or more.
  bool share_resets(std::size_t tasks) const { return workers_ > 0 && tasks > 1; }

  // How many tasks a thread takes per visit to a queue holding `queued`.
  std::size_t chunk_size(std::size_t queued) const;

 private:
  // From the options, never from the pool's thread list: workers call
  // chunk_size() while the pool's constructor is still starting threads (a
  // data race TSan reported when it read workers_.size()).
  const int workers_;
  const bool sync_;
  std::atomic<double> task_ns_{0.0};       // moving average of timed step tasks
  std::atomic<std::uint32_t> samples_{0};  // tasks numbered, for number_tasks()
  double threaded_ns_ = 0.0;               // moving average wall time per env of threaded sync batches
  std::uint64_t slower_batches_ = 0;       // sync step batches that found threads slower
};

}  // namespace rlpool
