// The exit gate's slow paths (exit_gate.h): parking a thread that comes back
// after exit began, closing the gate at exit, and quieting nanobind's leak
// report for the pools such threads still hold.
#include "_core/python/exit_gate.h"

#include <chrono>

namespace nb = nanobind;

namespace rlpool::binding::exit_gate {

namespace {
std::atomic<bool> parked{false};  // some thread parked: its frames hold references
// Other Python threads (daemons) were alive at exit: Python ends them without
// unwinding their frames, so whatever pools those frames hold are never freed.
std::atomic<bool> others_alive{false};
}  // namespace

void park() {
  parked.store(true, std::memory_order_relaxed);
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

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

void quiet_leaks() {
  if (parked.load(std::memory_order_relaxed) || others_alive.load(std::memory_order_relaxed)) {
    nb::set_leak_warnings(false);
  }
}

}  // namespace rlpool::binding::exit_gate
