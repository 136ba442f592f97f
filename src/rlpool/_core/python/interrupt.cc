// The interrupt check of a pool's waits (interrupt.h).
#include "_core/python/interrupt.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <csignal>

#include "_core/python/exit_gate.h"

namespace nb = nanobind;

namespace rlpool::binding {

thread_local bool in_xla_call = false;
thread_local std::string xla_interrupted_by;
unsigned long main_thread_ident = 0;

namespace {
// The exception set on this thread (a new reference), which is then cleared.
PyObject* raised_exception() {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  Py_XDECREF(type);
  Py_XDECREF(traceback);
  return value;
#endif
}
}  // namespace

bool interrupt_requested() {
  if (in_xla_call && PyThread_get_thread_ident() != main_thread_ident) return false;
  const AcquiredGil gil;
  if (PyErr_CheckSignals() == 0) return false;
  if (in_xla_call) {
    const bool keyboard = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt) != 0;
    const nb::object error = nb::steal(raised_exception());
    xla_interrupted_by = "interrupted";
    if (error.is_valid()) xla_interrupted_by += " by " + nb::cast<std::string>(nb::repr(error));
    PyErr_Clear();
    if (keyboard) PyErr_SetInterruptEx(SIGINT);
  }
  return true;
}

}  // namespace rlpool::binding
