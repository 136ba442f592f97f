#!/usr/bin/env bash
# Build the extension with sanitizers and run the tests under them (docs/RELIABILITY.md).
#
#   scripts/sanitize.sh asan  [pytest args]   # AddressSanitizer + UndefinedBehaviorSanitizer
#   scripts/sanitize.sh tsan  [pytest args]   # ThreadSanitizer
#   scripts/sanitize.sh all                   # both, on the whole suite
#
# Each build goes to build/<asan|tsan> (incremental, RelWithDebInfo; src/rlpool is left alone) and
# is loaded through an overlay package build/<mode>/pkg/rlpool: links to the Python sources plus the
# sanitizer build of _rlpool_core. Python is not instrumented, so the sanitizer runtime is
# LD_PRELOADed. Any sanitizer report fails the run; a clean run exits 0. Pytest args replace the
# default selection (the whole suite), e.g. `scripts/sanitize.sh tsan tests/core/test_async.py`.
# Needs cmake, ninja, nanobind and gcc's libasan/libtsan, and no other rlpool installed in the
# environment (an editable install's import hook would shadow the overlay; this is checked).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode="${1:-all}"
shift || true
python=$(python3 -c 'import sys; print(sys.executable)')  # the real interpreter, not a pyenv shim
# libstdc++ is preloaded too: the uninstrumented python has not loaded it when the sanitizer runtime
# starts, and ASan's __cxa_throw interceptor must find the real one ("CHECK failed ... real___cxa_throw").
libstdcxx=$(g++ -print-file-name=libstdc++.so.6)

build() {  # $1: asan|tsan, $2: -fsanitize= list
  # RelWithDebInfo: -O2 -g, and nanobind does not strip the module, so reports carry file:line.
  BUILD_DIR="build/$1" LINK_INTO='' ./scripts/dev_build.sh -DRLPOOL_SANITIZE="$2" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
  local pkg="build/$1/pkg"
  rm -rf "$pkg"
  mkdir -p "$pkg"
  cp -rs "$root/src/rlpool" "$pkg/"
  find "$pkg" -name '__pycache__' -prune -exec rm -rf {} +
  rm -f "$pkg"/rlpool/_rlpool_core*.so
  ln -s "$root/build/$1"/_rlpool_core*.so "$pkg/rlpool/"
  # Hide EnvPool (its comparison tests then skip): its own extension frees operator-new memory with
  # free() at import, which ASan reports (alloc-dealloc-mismatch) before any rlpool code runs.
  # ModuleNotFoundError: what pytest.importorskip skips on (pytest 9 fails on other ImportErrors).
  mkdir -p "$pkg/envpool"
  echo 'raise ModuleNotFoundError("envpool is hidden under the sanitizers (scripts/sanitize.sh)", name="envpool")' > "$pkg/envpool/__init__.py"
  rm -rf "build/$1/logs"
  mkdir -p "build/$1/logs"
}

# Runs pytest in the sanitizer environment given as NAME=VALUE words, after checking that the
# overlay's extension is the one imported. Reports go to build/<mode>/logs (pytest captures stderr,
# and an abort would lose them); any report there fails the run.
run() {  # $1: asan|tsan, then env words, then -- and pytest args
  local name=$1 envs=()
  shift
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local tests=("$@")
  # Default: the whole suite, less the ViZDoom tests (the engine is a third-party executable the pool starts; it inherits LD_PRELOAD
  # and ASan then reports the engine's own alloc-dealloc mismatches and a use-after-free in it) and the
  # tests that cap the address space (RLIMIT_AS leaves no room for ASan's shadow memory).
  [[ ${#tests[@]} -gt 0 ]] || tests=(tests
    -k "not vizdoom and not Vizdoom and not Basic-v1 and not out_of_memory")
  local where
  where=$(env "${envs[@]}" "$python" -c 'import rlpool._rlpool_core as c; print(c.__file__)')
  if [[ "$where" != "$root/build/$name/pkg/"* ]]; then
    echo "rlpool is imported from $where, not build/$name/pkg: uninstall rlpool from this environment" >&2
    return 1
  fi
  # -n 0: one pytest process (not pyproject's two xdist workers), so the sanitizer's reports and memory are one run's.
  echo "== $name: ${tests[*]}"
  local status=0
  env "${envs[@]}" RLPOOL_FUZZ_EXAMPLES="${RLPOOL_FUZZ_EXAMPLES:-200}" \
    "$python" -m pytest -q -p no:cacheprovider -n 0 "${tests[@]}" || status=$?
  if compgen -G "build/$name/logs/*" > /dev/null; then
    cat "build/$name"/logs/*
    echo "sanitizer reports: build/$name/logs" >&2
    return 1
  fi
  echo "no sanitizer reports"
  return $status
}

run_asan() {
  build asan address,undefined
  # detect_leaks=0: CPython does not free its own objects at exit, so LeakSanitizer would report
  #   thousands of interpreter allocations; tests/core/test_leaks.py measures leaks instead.
  # PYTHONMALLOC=malloc: Python objects come from malloc, so ASan also sees accesses past them.
  run asan \
    LD_PRELOAD="$(gcc -print-file-name=libasan.so) $libstdcxx" \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=1:log_path=$root/build/asan/logs/asan" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$root/build/asan/logs/ubsan" \
    PYTHONMALLOC=malloc PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/build/asan/pkg" RLPOOL_SANITIZER=asan \
    -- "$@"
}

run_tsan() {
  build tsan thread
  # No suppressions are needed: only rlpool's code is instrumented, and the GIL, the pool's mutexes
  # and thread start/join are intercepted pthread calls, so TSan sees every happens-before edge.
  # OMP_NUM_THREADS=1 (and the PPO test's torch_threads=1): torch's OpenMP team synchronises inside
  # libgomp, which TSan cannot see, so its threads would be reported as racing.
  run tsan \
    LD_PRELOAD="$(gcc -print-file-name=libtsan.so) $libstdcxx" \
    TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:log_path=$root/build/tsan/logs/tsan" \
    OMP_NUM_THREADS=1 \
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/build/tsan/pkg" RLPOOL_SANITIZER=tsan \
    -- "$@"
}

case "$mode" in
  asan) run_asan "$@" ;;
  tsan) run_tsan "$@" ;;
  all) run_asan "$@" && run_tsan "$@" ;;
  *) echo "usage: $0 asan|tsan|all [pytest args]" >&2; exit 2 ;;
esac
