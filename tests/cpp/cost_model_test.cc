// The cost model's decisions (src/rlpool/_core/cost_model.h) from given
// measurements: no clocks or threads, so every outcome is exact.
#include "_core/engine/cost_model.h"

#include "check.h"

using rlpool::CostModel;

namespace {

constexpr bool kAsync = false;
constexpr bool kSync = true;

void unknown_cost_hands_off() {
  // Nothing timed yet: a hand-off is assumed to pay, however small the batch.
  CostModel m(/*workers=*/2, kSync);
  CHECK_EQ(m.task_ns(), 0.0);
  CHECK(!m.cheap(1));
  CHECK(m.threads_pay(1));
  CHECK(m.wake_workers(1));
  CHECK_EQ(m.chunk_size(1000), 1u);
}

void no_workers_never_hand_off() {
  // num_threads=1 in sync mode: the caller is the only thread.
  CostModel m(/*workers=*/0, kSync);
  CHECK(!m.threads_pay(1000));
  CHECK(!m.wake_workers(1000));
  CHECK(!m.share_resets(1000));
  CHECK(m.caller_helps());
  CostModel a(/*workers=*/0, kAsync);
  CHECK(a.caller_helps());  // async with no workers: someone has to step them
}

void first_sample_sets_then_moving_average() {
  CostModel m(1, kSync);
  m.record_task(1000.0);
  CHECK_EQ(m.task_ns(), 1000.0);
  m.record_task(2000.0);
  CHECK_EQ(m.task_ns(), 1250.0);  // 0.75 old + 0.25 new
}

void cheap_below_the_inline_budget() {
  CostModel m(1, kSync);
  m.record_task(1000.0);
  CHECK_EQ(CostModel::kInlineBudgetNs, 30000.0);
  CHECK(m.cheap(29));   // 29 us: inline
  CHECK(!m.cheap(30));  // 30 us: not below the budget
  CHECK(m.threads_pay(30));
  CHECK(!m.threads_pay(29));
  CHECK(!m.wake_workers(29));
  CHECK(m.wake_workers(30));
}

void one_task_in_k_is_timed() {
  CostModel m(1, kSync);
  // Runs of 1, 5 and 58 tasks: numbers run on across runs, and the very
  // first task is timed, so the estimate starts at once.
  std::uint32_t next = 0;
  int timed = 0;
  for (std::size_t run : {1, 5, 58}) {
    const std::uint32_t first = m.number_tasks(run);
    CHECK_EQ(first, next);
    next += static_cast<std::uint32_t>(run);
    for (std::uint32_t k = first; k < next; ++k) timed += CostModel::sampled(k);
  }
  CHECK(CostModel::sampled(0));
  CHECK_EQ(timed, 64 / static_cast<int>(CostModel::kSampleEvery));
}

void async_caller_helps_only_with_quick_work() {
  CostModel m(/*workers=*/2, kAsync);
  CHECK(!m.caller_helps());  // cost unknown
  m.record_task(100000.0);
  CHECK(!m.caller_helps());  // 100 us tasks would hold back finished results
  CostModel q(/*workers=*/2, kAsync);
  q.record_task(1000.0);
  CHECK(q.caller_helps());
  CostModel s(/*workers=*/2, kSync);
  s.record_task(100000.0);
  CHECK(s.caller_helps());  // sync: the caller is one of the threads
}

void threads_slower_stays_inline_and_remeasures() {
  CostModel m(/*workers=*/1, kSync);
  m.record_task(100.0);
  const std::size_t tasks = 400;  // 40 us: not cheap
  CHECK(m.threads_pay(tasks));    // no threaded batch measured yet
  m.record_threaded_batch(400.0 * 50.0, tasks);
  CHECK(m.threads_pay(tasks));  // 50 ns per env threaded vs 100 inline: threads pay
  m.record_threaded_batch(400.0 * 2000.0, tasks);  // average now 537.5 ns per env
  // Threads measured slower: inline, except every kRemeasureEvery-th batch.
  for (std::uint64_t i = 1; i <= 2 * CostModel::kRemeasureEvery; ++i) {
    CHECK_EQ(m.threads_pay(tasks), i % CostModel::kRemeasureEvery == 0);
  }
}

void resets_shared_when_two_or_more() {
  CostModel m(/*workers=*/1, kSync);
  m.record_task(1.0);  // steps cheap; resets are judged apart
  CHECK(!m.share_resets(1));
  CHECK(m.share_resets(2));
}

void chunk_by_cost_and_share() {
  CostModel m(/*workers=*/3, kAsync);  // 4 threads take work: 3 workers and the caller
  m.record_task(100.0);                 // 5000 ns / 100 ns = 50 per chunk
  CHECK_EQ(m.chunk_size(1000), 50u);
  CHECK_EQ(m.chunk_size(40), 11u);  // a share: 40 / 4 + 1
  CHECK_EQ(m.chunk_size(0), 1u);
  CostModel tiny(3, kAsync);
  tiny.record_task(10.0);  // 500 per chunk by cost, capped
  CHECK_EQ(tiny.chunk_size(100000), CostModel::kMaxChunk);
  CostModel slow(3, kAsync);
  slow.record_task(20000.0);  // one task is more than a chunk's worth
  CHECK_EQ(slow.chunk_size(100000), 1u);
}

void an_overrun_ends_a_stale_cheap_estimate() {
  // 3000 cheap steps, then a run of 100 ms tasks is cut after its first one.
  CostModel s(/*workers=*/1, kSync);
  CostModel a(/*workers=*/2, kAsync);
  for (int i = 0; i < 3000 / static_cast<int>(CostModel::kSampleEvery); ++i) {
    s.record_task(100.0);
    a.record_task(100.0);
  }
  CHECK(s.cheap(16) && !s.threads_pay(16) && a.caller_helps());
  s.record_overrun(100e6, 1);
  a.record_overrun(100e6, 1);
  CHECK(!s.cheap(2));
  CHECK(s.threads_pay(16));
  CHECK(s.wake_workers(1));
  CHECK_EQ(s.chunk_size(16), 1u);
  CHECK(!a.caller_helps());  // async: the caller leaves such tasks to the workers
  CHECK(CostModel::kOverrunNs > 10 * CostModel::kInlineBudgetNs);
}

}  // namespace

int main() {
  RUN(unknown_cost_hands_off);
  RUN(no_workers_never_hand_off);
  RUN(first_sample_sets_then_moving_average);
  RUN(cheap_below_the_inline_budget);
  RUN(one_task_in_k_is_timed);
  RUN(async_caller_helps_only_with_quick_work);
  RUN(threads_slower_stays_inline_and_remeasures);
  RUN(resets_shared_when_two_or_more);
  RUN(chunk_by_cost_and_share);
  RUN(an_overrun_ends_a_stale_cheap_estimate);
  return check::report();
}
