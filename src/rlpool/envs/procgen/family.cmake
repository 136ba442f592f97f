# Procgen: the 16 games of procgen 0.10.7, run by the game library its wheels
# ship (procgen/data/prebuilt/libenv.so, gym3's libenv C API; it links no
# Python and finds its bundled Qt through its RPATH), with the game assets
# from the same wheel. procgen publishes no source distribution; the
# repackaged wheel procgen-mirror==0.10.7 is fetched by name, version and file
# tag, without its dependencies (its Python part pins numpy<2 and gym<1 and is
# never installed or imported), checked and unpacked in the download cache
# (cmake/rlpool_fetch_sdist.cmake). One wheel serves every Python version.
#
# The extension does not link libenv.so: procgen_env.cc opens it with dlopen
# when a Procgen task is first made, from the unpacked folder whose path is
# compiled in here (RLPOOL_PROCGEN_ROOT; $RLPOOL_PROCGEN_ROOT overrides it at
# run time). Without the wheel (offline build) that path is empty: the build
# succeeds and making a Procgen task raises an error that says why.
include(rlpool_fetch_sdist)

set(RLPOOL_PROCGEN_VERSION "0.10.7")
set(RLPOOL_PROCGEN_WHEEL "procgen_mirror-${RLPOOL_PROCGEN_VERSION}-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl")
set(RLPOOL_PROCGEN_SHA256 "992aff14a0bc39c5fd594b68c3243c06e01b1a94f47ff261e60cc316c01660a7")

set(_procgen_root "")
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  rlpool_fetch_wheel(procgen-mirror "${RLPOOL_PROCGEN_VERSION}" "${RLPOOL_PROCGEN_WHEEL}" "${RLPOOL_PROCGEN_SHA256}"
                     3.11 manylinux2014_x86_64 _procgen_wheel)
  rlpool_unpack_wheel("${_procgen_wheel}" "${RLPOOL_PROCGEN_SHA256}"
                      "${RLPOOL_DOWNLOAD_CACHE}/procgen_mirror-${RLPOOL_PROCGEN_VERSION}"
                      "procgen/data/prebuilt/libenv.so" _procgen_root)
else()
  message(STATUS "rlpool: Procgen's prebuilt library exists for Linux x86-64 only; Procgen tasks are unavailable")
endif()
if(_procgen_root)
  message(STATUS "rlpool Procgen envs: libenv.so from ${_procgen_root}, opened at run time")
else()
  message(WARNING "rlpool: built without the procgen-mirror wheel; making a Procgen task will raise an error")
endif()
# On the one source that reads it, so that a changed path recompiles only that file.
set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/procgen_env.cc" PROPERTIES
                            COMPILE_DEFINITIONS "RLPOOL_PROCGEN_ROOT=\"${_procgen_root}\"")
target_link_libraries(_rlpool_core PRIVATE ${CMAKE_DL_LIBS})

# The state checker (checker/main.cc): a program of its own, run on a state blob
# that another process wrote before procgen's loader sees it here. It sits
# beside the extension module, where procgen_env.cc looks for it.
add_executable(_rlpool_procgen_check "${CMAKE_CURRENT_LIST_DIR}/checker/main.cc")
target_link_libraries(_rlpool_procgen_check PRIVATE ${CMAKE_DL_LIBS})
target_include_directories(_rlpool_procgen_check PRIVATE "${RLPOOL_INCLUDE_ROOT}")
set_target_properties(_rlpool_procgen_check PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
install(TARGETS _rlpool_procgen_check RUNTIME DESTINATION rlpool)

# The family's env sources, compiled into the module.
file(GLOB _procgen_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.cc")
target_sources(_rlpool_core PRIVATE ${_procgen_sources})
