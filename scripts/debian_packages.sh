#!/usr/bin/env bash
# Installs the Debian packages that rlpool's optional parts and its tests need beyond pip (as root, or
# through sudo; apt-get only): .ci/run calls it, and a developer may too. Each package and what it enables:
#   libboost-dev libboost-{filesystem,thread,system,chrono}-dev
#       Boost, for ViZDoom's controller library, compiled into rlpool at build time (without it the ViZDoom
#       tasks raise an error naming these packages; rebuild rlpool after installing them).
#   libosmesa6
#       Mesa's off-screen OpenGL: rendering MuJoCo and DeepMind Control frames (render_mode, from_pixels),
#       rlpool's and the references' (gymnasium's, dm_control's) in the tests.
#   libqt5gui5
#       Qt 5's GUI runtime, which EnvPool's Procgen links: the peer of the Procgen comparisons (rlpool's own
#       Procgen uses the Qt that procgen's wheel bundles).
# Without them the tests that need one skip, naming the package (in CI, where CI=true, they fail instead).
set -euo pipefail
command -v apt-get > /dev/null || { echo "debian_packages.sh: no apt-get here; install the equivalents" >&2; exit 1; }
needed=()
[[ -e /usr/include/boost/interprocess/ipc/message_queue.hpp ]] ||
  needed+=(libboost-dev libboost-filesystem-dev libboost-thread-dev libboost-system-dev libboost-chrono-dev)
for package in libqt5gui5 libosmesa6; do
  dpkg -s "$package" > /dev/null 2>&1 || needed+=("$package")
done
if (( ${#needed[@]} )); then
  sudo=$([[ $(id -u) == 0 ]] || echo sudo)
  $sudo apt-get update -q > /dev/null
  $sudo apt-get install -y -q --no-install-recommends "${needed[@]}" > /dev/null
  echo "debian_packages.sh: installed ${needed[*]}"
fi
