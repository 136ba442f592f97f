// Stands in for Python's header when rlpool compiles Box2D.
//
// box2d-py's copy of Box2D (b2Settings.h) includes <Python.h> and reports a
// failed b2Assert with PyErr_SetString before throwing b2AssertException.
// rlpool steps Box2D on worker threads that do not hold the GIL, so the message
// goes to a thread-local note instead (box2d_env.cc), and the env turns the
// exception into a std::runtime_error that the pool hands to Python. Macros,
// not functions: no symbol of this header can clash with the real Python API.
#pragma once

namespace rlpool::box2d {
void note_assert(const char* message);
}  // namespace rlpool::box2d

#define PyExc_AssertionError nullptr
#define PyErr_SetString(type, message) ::rlpool::box2d::note_assert(message)
