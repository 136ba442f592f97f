#!/usr/bin/env bash
# Incremental developer build without pip: compiles the extension into
# build/dev and links it into src/rlpool, so `PYTHONPATH=src pytest` runs
# against this checkout. (Users and CI install with pip; see README.)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > /dev/null
ninja -C build/dev
ln -sf "$PWD"/build/dev/_rlpool_core*.so src/rlpool/
