# Atari: the Arcade Learning Environment (ALE), compiled here from the ale-py
# source distribution on PyPI as a static C++ library (no Python bindings, no
# SDL). None of ALE's code lives in this repository.
#
#   configure time: fetch ale_py-<version>.tar.gz with pip (by name and version),
#                   check its sha256, unpack it under the build dir
#                   (cmake/rlpool_fetch_sdist.cmake);
#   build time:     ExternalProject builds ALE's C++ library once (its own stamps
#                   keep later builds incremental) and _rlpool_core links it.
#
# ROMs are not built in: they come from the installed ale-py wheel at run time
# (registration.py).

include(ExternalProject)
include(rlpool_fetch_sdist)

set(RLPOOL_ALE_VERSION "0.12.1")
set(RLPOOL_ALE_SHA256 "c503d574c5983e1063b451201ccb779d935919c0f6bf116fb0f4f8aa4c86d249")
rlpool_fetch_sdist(ale-py "${RLPOOL_ALE_VERSION}" "ale_py-${RLPOOL_ALE_VERSION}.tar.gz" "${RLPOOL_ALE_SHA256}"
                   _ale_tarball)
rlpool_unpack_sdist("${_ale_tarball}" "${RLPOOL_ALE_SHA256}" "${CMAKE_BINARY_DIR}/_deps/ale-src"
                    "src/ale/ale_interface.hpp" _ale_src)

# Three edits to ALE's source, each applied once and checked (the build stops
# if ALE's code is no longer what the edit expects). ALE reports malformed
# state by throwing a C string (atari_env.cc turns those into a ValueError).
set(_ale_patched "")
function(rlpool_patch_ale relpath old new)  # new: one argument (it may hold semicolons)
  set(path "${_ale_src}/src/ale/emucore/${relpath}")
  file(READ "${path}" text)
  string(FIND "${text}" "${new}" done)
  if(done EQUAL -1)
    string(FIND "${text}" "${old}" at)
    string(FIND "${text}" "${old}" last REVERSE)
    if(at EQUAL -1 OR NOT at EQUAL last)  # missing, or not the one place
      message(FATAL_ERROR "rlpool: ALE's ${relpath} is not as expected; update the patch in src/rlpool/envs/atari/family.cmake")
    endif()
    string(REPLACE "${old}" "${new}" text "${text}")
    file(WRITE "${path}" "${text}")
  endif()
  set(_ale_patched ${_ale_patched} "${path}" PARENT_SCOPE)
endfunction()

# Deserializer::getString sizes a string from the length field in the bytes
# before it reads them: a state blob whose length says 2**31 - 1 made it
# allocate 2 GiB. Bounded by the bytes left.
string(CONCAT _new
  "  int len = getInt();\n"
  "  // rlpool: bounded by the bytes left, so a bad length cannot allocate.\n"
  "  const std::streampos here = myStream.tellg();\n"
  "  myStream.seekg(0, std::ios::end);\n"
  "  const std::streamoff left = myStream.tellg() - here;\n"
  "  myStream.seekg(here);\n"
  "  if(len < 0 || here < 0 || static_cast<std::streamoff>(len) > left)\n"
  "    throw \"Deserializer: string length beyond the end of the data\";\n"
  "  std::string str;\n")
rlpool_patch_ale(Deserializer.cxx "  int len = getInt();\n  std::string str;\n" "${_new}")

# TIA::load restores the frame's clocks but not where the frame pointer is,
# nor whether a frame is under way (a game stuck in a loop leaves one open):
# a state loaded into a console mid-frame made the next update draw a whole
# frame on from the old pointer, past the end of its buffer. Snapshots are
# taken between frames, so the next update starts a new one.
string(CONCAT _new
  "    enableBits(true);\n"
  "    // rlpool: the frame pointer is not in the state; start a new frame.\n"
  "    myPartialFrameFlag = false;\n")
rlpool_patch_ale(TIA.cxx "    enableBits(true);\n" "${_new}")

# CartridgeE0::load restores the numbers of the three switchable 1 KiB
# slices but leaves the old ones mapped (its siblings call bank() after
# loading): a state loaded into an env whose slices differ ran the wrong code.
string(CONCAT _new
  "      myCurrentSlice[i] = (uint16_t) in.getInt();\n"
  "    // rlpool: map the slices just loaded.\n"
  "    segmentZero(myCurrentSlice[0]);\n"
  "    segmentOne(myCurrentSlice[1]);\n"
  "    segmentTwo(myCurrentSlice[2]);\n")
rlpool_patch_ale(CartE0.cxx "      myCurrentSlice[i] = (uint16_t) in.getInt();\n" "${_new}")

# zlib is ALE's one dependency (it reads gzip'ed ROMs and writes PNGs with it):
# headers and library from the system (Debian/Ubuntu: zlib1g-dev).
find_package(ZLIB)
if(NOT ZLIB_FOUND)
  message(FATAL_ERROR "rlpool: the Atari envs need zlib's headers and library to build ALE. "
                      "Install them (Debian/Ubuntu: apt-get install zlib1g-dev) and rebuild.")
endif()

set(_ale_build "${CMAKE_BINARY_DIR}/_deps/ale-build")
set(_ale_lib "${_ale_build}/src/ale/${CMAKE_STATIC_LIBRARY_PREFIX}ale${CMAKE_STATIC_LIBRARY_SUFFIX}")
# ALE's CMake turns on link-time optimisation for its objects; slim LTO objects
# in a static library would redo ALE's whole optimisation at every link of the
# extension, so the per-config property switches it off (it overrides theirs;
# a partially linked LTO build of ALE measured no faster here).
# Hidden visibility: ALE's functions call each other directly instead of
# through the extension's PLT (the emulator's memory accessors run millions of
# times a second), and the extension does not export ALE's symbols.
# The toolchain file (empty without one) is passed on so that ALE's own
# vcpkg discovery (it looks at $VCPKG_ROOT) stays out of it.
set(_ale_tool_args -DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE})
# Sanitizer builds instrument ALE too: its loaders and the TIA's frame writes
# are what a crafted state reaches.
set(_ale_cxx_flags -fno-semantic-interposition)
if(RLPOOL_SANITIZE)
  string(APPEND _ale_cxx_flags " -fsanitize=${RLPOOL_SANITIZE} -fno-omit-frame-pointer -g")
endif()
if(CMAKE_MAKE_PROGRAM)
  list(APPEND _ale_tool_args -DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM})
endif()
ExternalProject_Add(rlpool_ale_build
  SOURCE_DIR "${_ale_src}"
  BINARY_DIR "${_ale_build}"
  CMAKE_ARGS
    ${_ale_tool_args}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DCMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE=OFF
    -DCMAKE_CXX_VISIBILITY_PRESET=hidden
    -DCMAKE_VISIBILITY_INLINES_HIDDEN=ON
    "-DCMAKE_CXX_FLAGS=${_ale_cxx_flags}"
    -DBUILD_CPP_LIB=ON
    -DBUILD_PYTHON_LIB=OFF
    -DBUILD_VECTOR_LIB=OFF
    -DBUILD_VECTOR_XLA_LIB=OFF
    -DSDL_SUPPORT=OFF
    -DZLIB_INCLUDE_DIR=${ZLIB_INCLUDE_DIRS}
    -DZLIB_LIBRARY=${ZLIB_LIBRARIES}
  BUILD_COMMAND ${CMAKE_COMMAND} --build . --target ale-lib
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS "${_ale_lib}"
  # Keep ALE's compiler chatter out of our build log unless it fails.
  LOG_CONFIGURE ON
  LOG_BUILD ON
  LOG_OUTPUT_ON_FAILURE ON)

# A patched file is newer than ALE's build stamp in a build dir made before the patch.
ExternalProject_Add_StepDependencies(rlpool_ale_build build ${_ale_patched})

add_dependencies(_rlpool_core rlpool_ale_build)
# version.hpp is generated in ALE's build tree.
target_include_directories(_rlpool_core SYSTEM PRIVATE "${_ale_src}/src" "${_ale_build}/src/ale")
target_link_libraries(_rlpool_core PRIVATE "${_ale_lib}" ZLIB::ZLIB)

# The family's env sources, compiled into the module.
file(GLOB _atari_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.cc")
target_sources(_rlpool_core PRIVATE ${_atari_sources})
