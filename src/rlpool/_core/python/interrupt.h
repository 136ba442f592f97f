// The interrupt check of a pool's waits (Pool::set_interrupt_check), and the
// state of an XLA call on this thread that it reads.
//
// Python's signal handlers run (PyErr_CheckSignals), and one that raised
// (KeyboardInterrupt, or e.g. pytest-timeout's) ends the wait with the
// exception set. An XLA call on the main thread (where jax runs a CPU
// computation it was called for) is checked too, but the exception cannot
// pass through XLA: it is noted for the call's error message, and a
// KeyboardInterrupt is raised again (PyErr_SetInterruptEx) once Python runs.
// XLA's own threads never take the GIL here.
#pragma once

#include <string>

namespace rlpool::binding {

// True while this thread runs an XLA call (xla_bridge.cc).
extern thread_local bool in_xla_call;
// What interrupted this thread's XLA call (the exception's repr): XLA carries
// an error message, not a Python exception.
extern thread_local std::string xla_interrupted_by;
// Python's main thread, the one whose waits see Ctrl-C (signal handlers run
// there only); set at import.
extern unsigned long main_thread_ident;

// Whether the wait should end (see above); true leaves the exception set,
// except in an XLA call.
bool interrupt_requested();

}  // namespace rlpool::binding
