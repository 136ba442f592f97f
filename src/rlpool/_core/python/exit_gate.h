// The exit gate: how a thread that is inside the engine takes the GIL back
// while the interpreter exits.
//
// Python 3.11-3.13 end a daemon thread that asks for the GIL once the
// interpreter is finalizing with pthread_exit(); its forced unwind runs through
// this thread's C++ frames, and a noexcept one (gil_scoped_release's
// destructor) turns it into std::terminate: exit code 134. So after exit has
// begun no thread but the exiting one asks for the GIL from here: an atexit
// callback (run before finalization, with the GIL held) closes the gate and
// lets the threads already past it take the GIL; from then on a thread that
// would take the GIL back parks until the process ends (what Python 3.14 does
// to such threads itself). Two uncontended atomic operations per call.
//
// ReleasedGil and AcquiredGil are nanobind's gil_scoped_release and
// gil_scoped_acquire through the gate; every GIL crossing of the binding uses
// them.
#pragma once

#include <nanobind/nanobind.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rlpool::binding {
namespace exit_gate {

inline std::atomic<int> passing{0};     // threads between pass() and passed()
inline std::atomic<bool> closed{false};
inline std::thread::id exiting_thread;  // written before `closed` is set
inline std::mutex mu;
inline std::condition_variable cv;

// Parks this thread until the process ends.
[[noreturn]] void park();

// Before taking the GIL; parks instead once exit has begun.
inline void pass() {
  passing.fetch_add(1, std::memory_order_seq_cst);
  if (closed.load(std::memory_order_seq_cst) && std::this_thread::get_id() != exiting_thread) {
    passing.fetch_sub(1, std::memory_order_seq_cst);
    { std::lock_guard<std::mutex> lock(mu); }
    cv.notify_all();
    park();
  }
}

// After the GIL was taken.
inline void passed() {
  if (passing.fetch_sub(1, std::memory_order_seq_cst) == 1 && closed.load(std::memory_order_seq_cst)) {
    { std::lock_guard<std::mutex> lock(mu); }
    cv.notify_all();
  }
}

// The atexit callback (GIL held): close, then wait for the threads passing.
void close();

// Py_AtExit (after finalization, before nanobind's own leak report, which is
// registered earlier and so runs later): a parked thread's frames, or those of
// a daemon thread Python stopped between two engine calls, still hold their
// pools, which are not leaks to report.
void quiet_leaks();

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

}  // namespace rlpool::binding
