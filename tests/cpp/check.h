// A tiny test harness for the C++ unit tests (built and run by
// tests/cpp/test_cpp_units.py): CHECK / CHECK_EQ report the failing expression
// with its values and go on; main() returns check::report(), nonzero on failure.
#pragma once

#include <iostream>
#include <type_traits>

namespace check {

inline int& failures() {
  static int n = 0;
  return n;
}
inline const char*& current_test() {
  static const char* name = "";
  return name;
}

inline void fail(const char* what, const char* file, int line) {
  ++failures();
  std::cerr << file << ":" << line << ": in " << current_test() << ": " << what << " failed";
}

template <class T>
void print(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    std::cerr << static_cast<long long>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    std::cerr << (v ? "true" : "false");
  } else {
    std::cerr << v;
  }
}

template <class A, class B>
void expect_eq(const A& a, const B& b, const char* expr, const char* file, int line) {
  if (a == b) return;
  fail(expr, file, line);
  std::cerr << ": ";
  print(a);
  std::cerr << " vs ";
  print(b);
  std::cerr << "\n";
}

inline int report() {
  if (failures() == 0) {
    std::cout << "all checks passed\n";
    return 0;
  }
  std::cerr << failures() << " check(s) failed\n";
  return 1;
}

}  // namespace check

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      ::check::fail("CHECK(" #cond ")", __FILE__, __LINE__);     \
      std::cerr << "\n";                                         \
    }                                                            \
  } while (0)
#define CHECK_EQ(a, b) ::check::expect_eq((a), (b), "CHECK_EQ(" #a ", " #b ")", __FILE__, __LINE__)
// Runs one test function with its name attached to any failure.
#define RUN(test)                        \
  do {                                   \
    ::check::current_test() = #test;     \
    test();                              \
  } while (0)
