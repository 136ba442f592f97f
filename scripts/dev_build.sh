#!/usr/bin/env bash
# Incremental developer build without pip: compiles the extension into
# build/dev and links it into src/rlpool, so `PYTHONPATH=src pytest` runs
# against this checkout. (Users and CI install with pip; see README.)
# BUILD_DIR=build/x builds elsewhere (e.g. sanitizer builds, see
# scripts/sanitize.sh); LINK_INTO= (empty) leaves src/rlpool alone.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${BUILD_DIR:-build/dev}"
link_into="${LINK_INTO-src/rlpool}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > /dev/null
ninja -C "$build_dir"
if [[ -n "$link_into" ]]; then
  ln -sf "$PWD/$build_dir"/_rlpool_core*.so "$link_into"/
  # The XLA FFI handlers, where CMake built them (cmake/rlpool_xla.cmake).
  for f in "$PWD/$build_dir"/_rlpool_xla_ffi.so "$PWD/$build_dir"/_rlpool_xla_ffi.jaxlib; do
    if [[ -e "$f" ]]; then ln -sf "$f" "$link_into"/; fi
  done
fi
