// The cost model's estimates (cost_model.h): moving averages of sampled task
// times and of threaded batches' wall times.
#include "_core/engine/cost_model.h"

#include <algorithm>

namespace rlpool {

namespace {
// Exponential moving average; the first sample sets it outright.
double moving_average(double old, double sample) { return old == 0.0 ? sample : 0.75 * old + 0.25 * sample; }
}  // namespace

void CostModel::record_task(double ns) {
  // Load then store, not a CAS loop: two workers recording at once may lose
  // one sample, which an estimate can afford.
  task_ns_.store(moving_average(task_ns_.load(std::memory_order_relaxed), ns), std::memory_order_relaxed);
}

void CostModel::record_threaded_batch(double ns, std::size_t tasks) {
  threaded_ns_ = moving_average(threaded_ns_, ns / static_cast<double>(tasks));
}

bool CostModel::threads_pay(std::size_t tasks) {
  if (workers_ == 0 || cheap(tasks)) return false;
  // Measured, not assumed: where threaded batches have been slower per env
  // than stepping inline (small envs, busy or few cores), stay inline, and
  // re-measure now and then.
  const bool threads_slower = threaded_ns_ > 0.0 && threaded_ns_ >= task_ns();
  return !(threads_slower && ++slower_batches_ % kRemeasureEvery != 0);
}

std::size_t CostModel::chunk_size(std::size_t queued) const {
  // Take about kChunkNs of work per queue visit, and leave a share for the
  // other threads taking work: the workers and the caller.
  const double ns = task_ns();
  const auto by_cost = ns > 0.0 ? static_cast<std::size_t>(kChunkNs / ns) : 1;
  const auto takers = static_cast<std::size_t>(workers_ + 1);
  const auto share = queued / takers + 1;
  return std::clamp<std::size_t>(std::min(by_cost, share), 1, kMaxChunk);
}

}  // namespace rlpool
