# Atari: the Arcade Learning Environment (ALE), compiled here from the ale-py
# source distribution on PyPI as a static C++ library (no Python bindings, no
# SDL). None of ALE's code lives in this repository.
#
#   configure time: fetch ale_py-<version>.tar.gz with pip (by name and version),
#                   check its sha256, unpack it under the build dir;
#   build time:     ExternalProject builds ALE's C++ library once (its own stamps
#                   keep later builds incremental) and _rlpool_core links it.
#
# The tarball is cached in RLPOOL_DOWNLOAD_CACHE (default: the user cache dir,
# ~/.cache/rlpool) so that a fresh build dir does not fetch it again; a cached
# file is used only if its checksum matches. ROMs are not built in: they come
# from the installed ale-py wheel at run time (registration.py).

include(ExternalProject)

set(RLPOOL_ALE_VERSION "0.12.1")
set(RLPOOL_ALE_SHA256 "c503d574c5983e1063b451201ccb779d935919c0f6bf116fb0f4f8aa4c86d249")
set(_ale_tarball_name "ale_py-${RLPOOL_ALE_VERSION}.tar.gz")

if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{XDG_CACHE_HOME}/rlpool")
elseif(DEFINED ENV{HOME} AND NOT "$ENV{HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{HOME}/.cache/rlpool")
else()
  set(_rlpool_default_cache "${CMAKE_BINARY_DIR}/_deps/downloads")
endif()
set(RLPOOL_DOWNLOAD_CACHE "${_rlpool_default_cache}" CACHE PATH
    "Where fetched source distributions (ale-py) are kept between builds")

set(_ale_tarball "${RLPOOL_DOWNLOAD_CACHE}/${_ale_tarball_name}")

# Returns in out_var whether `file` exists and has the pinned checksum.
function(_rlpool_ale_tarball_ok file out_var)
  set(ok FALSE)
  if(EXISTS "${file}")
    file(SHA256 "${file}" actual)
    if(actual STREQUAL RLPOOL_ALE_SHA256)
      set(ok TRUE)
    endif()
  endif()
  set(${out_var} ${ok} PARENT_SCOPE)
endfunction()

_rlpool_ale_tarball_ok("${_ale_tarball}" _ale_cached)
if(NOT _ale_cached)
  # pip downloads into a fresh folder; only a verified file enters the cache.
  set(_ale_fetch_dir "${CMAKE_BINARY_DIR}/_deps/ale-fetch")
  file(REMOVE_RECURSE "${_ale_fetch_dir}")
  file(MAKE_DIRECTORY "${_ale_fetch_dir}")
  message(STATUS "rlpool: fetching ale-py==${RLPOOL_ALE_VERSION} source distribution with pip")
  # Which pip: the interpreter's own (`python -m pip`). Under pip's build
  # isolation (pip install .) the interpreter's site-packages are hidden from
  # this process, so ask the interpreter outside it where pip lives and run
  # that directory (pip supports `python <dir>/pip`; it then imports itself from
  # there). Last resort: a pip program on PATH.
  execute_process(COMMAND "${Python_EXECUTABLE}" -c "import pip"
                  RESULT_VARIABLE _ale_has_pip OUTPUT_QUIET ERROR_QUIET)
  if(_ale_has_pip EQUAL 0)
    set(_ale_pip "${Python_EXECUTABLE}" -m pip)
  else()
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH --unset=PYTHONNOUSERSITE --unset=PYTHONHOME
              "${Python_EXECUTABLE}" -c "import os, pip; print(os.path.dirname(pip.__file__))"
      RESULT_VARIABLE _ale_pip_rc OUTPUT_VARIABLE _ale_pip_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_ale_pip_rc EQUAL 0 AND EXISTS "${_ale_pip_dir}/__main__.py")
      set(_ale_pip "${Python_EXECUTABLE}" "${_ale_pip_dir}")
    else()
      find_program(_ale_pip_program NAMES pip3 pip)
      if(NOT _ale_pip_program)
        message(FATAL_ERROR "rlpool: no pip found to fetch ${_ale_tarball_name}; put that file (sha256 "
                            "${RLPOOL_ALE_SHA256}) in ${RLPOOL_DOWNLOAD_CACHE}/ and rebuild.")
      endif()
      set(_ale_pip "${_ale_pip_program}")
    endif()
  endif()
  # --no-binary ale-py (not :all:) so that pip does not try to build its
  # build tools (cmake, ...) from source just to read the sdist's metadata.
  execute_process(
    COMMAND ${_ale_pip} download --no-deps --no-build-isolation
            --no-binary ale-py "ale-py==${RLPOOL_ALE_VERSION}" -d "${_ale_fetch_dir}"
    RESULT_VARIABLE _ale_pip_rc
    OUTPUT_VARIABLE _ale_pip_out
    ERROR_VARIABLE _ale_pip_out)
  set(_ale_fetched "${_ale_fetch_dir}/${_ale_tarball_name}")
  if(NOT _ale_pip_rc EQUAL 0 OR NOT EXISTS "${_ale_fetched}")
    message(FATAL_ERROR
      "rlpool: could not fetch ${_ale_tarball_name} with\n"
      "  ${_ale_pip} download --no-deps --no-build-isolation --no-binary ale-py "
      "ale-py==${RLPOOL_ALE_VERSION}\n"
      "(exit ${_ale_pip_rc}):\n${_ale_pip_out}\n"
      "Without network access, put the file in ${RLPOOL_DOWNLOAD_CACHE}/ "
      "(or set -DRLPOOL_DOWNLOAD_CACHE=<dir holding it>).")
  endif()
  _rlpool_ale_tarball_ok("${_ale_fetched}" _ale_fetched_ok)
  if(NOT _ale_fetched_ok)
    file(SHA256 "${_ale_fetched}" _ale_actual)
    message(FATAL_ERROR "rlpool: ${_ale_tarball_name} has sha256 ${_ale_actual}, "
                        "expected ${RLPOOL_ALE_SHA256}; refusing to build it.")
  endif()
  file(MAKE_DIRECTORY "${RLPOOL_DOWNLOAD_CACHE}")
  file(COPY "${_ale_fetched}" DESTINATION "${RLPOOL_DOWNLOAD_CACHE}")
  file(REMOVE_RECURSE "${_ale_fetch_dir}")
endif()

# Unpack once per checksum; the stamp makes reconfigures skip it.
set(_ale_src_root "${CMAKE_BINARY_DIR}/_deps/ale-src")
set(_ale_src "${_ale_src_root}/ale_py-${RLPOOL_ALE_VERSION}")
set(_ale_stamp "${_ale_src_root}/unpacked-${RLPOOL_ALE_SHA256}")
if(NOT EXISTS "${_ale_stamp}")
  file(REMOVE_RECURSE "${_ale_src_root}")
  file(MAKE_DIRECTORY "${_ale_src_root}")
  file(ARCHIVE_EXTRACT INPUT "${_ale_tarball}" DESTINATION "${_ale_src_root}")
  if(NOT EXISTS "${_ale_src}/src/ale/ale_interface.hpp")
    message(FATAL_ERROR "rlpool: ${_ale_tarball} does not hold ale_py-${RLPOOL_ALE_VERSION}/src/ale")
  endif()
  file(TOUCH "${_ale_stamp}")
endif()

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
    -DCMAKE_CXX_FLAGS=-fno-semantic-interposition
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

add_dependencies(_rlpool_core rlpool_ale_build)
# version.hpp is generated in ALE's build tree.
target_include_directories(_rlpool_core SYSTEM PRIVATE "${_ale_src}/src" "${_ale_build}/src/ale")
target_link_libraries(_rlpool_core PRIVATE "${_ale_lib}" ZLIB::ZLIB)
