# rlpool's XLA FFI handlers (src/rlpool/xla/ffi_handlers.cc, used by env.xla()).
#
# They compile against the FFI headers of jaxlib (jax.ffi.include_dir()), so
# they are built here only when the build's own Python can import jax: a
# developer build (scripts/dev_build.sh in a venv with jax) or
# `pip install --no-build-isolation .`. pip's usual isolated build has no jax,
# builds nothing here, and rlpool/xla/_build.py compiles the same source on the
# first xla() call instead (cached in ~/.cache/rlpool/xla). The jaxlib version
# used is written next to the library: at run time it is used only with that
# jaxlib. RLPOOL_XLA=OFF skips it.
option(RLPOOL_XLA "Build the XLA FFI handlers when the build's Python has jax" ON)
if(RLPOOL_XLA)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c "import jax.ffi, jaxlib; print(jax.ffi.include_dir()); print(jaxlib.__version__)"
    OUTPUT_VARIABLE rlpool_jax_info OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE rlpool_jax_rc ERROR_QUIET)
  if(rlpool_jax_rc EQUAL 0)
    string(REPLACE "\n" ";" rlpool_jax_info "${rlpool_jax_info}")
    list(GET rlpool_jax_info 0 RLPOOL_JAX_INCLUDE)
    list(GET rlpool_jax_info 1 RLPOOL_JAXLIB_VERSION)
    message(STATUS "rlpool: XLA FFI handlers against jaxlib ${RLPOOL_JAXLIB_VERSION} (${RLPOOL_JAX_INCLUDE})")
    add_library(_rlpool_xla_ffi MODULE src/rlpool/xla/ffi_handlers.cc)
    set_target_properties(_rlpool_xla_ffi PROPERTIES PREFIX "" SUFFIX ".so" CXX_VISIBILITY_PRESET hidden)
    target_include_directories(_rlpool_xla_ffi SYSTEM PRIVATE "${RLPOOL_JAX_INCLUDE}")
    target_include_directories(_rlpool_xla_ffi PRIVATE src/rlpool)  # "xla/xla_bridge.h"
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/_rlpool_xla_ffi.jaxlib" "${RLPOOL_JAXLIB_VERSION}\n")
    install(TARGETS _rlpool_xla_ffi LIBRARY DESTINATION rlpool)
    install(FILES "${CMAKE_CURRENT_BINARY_DIR}/_rlpool_xla_ffi.jaxlib" DESTINATION rlpool)
  else()
    message(STATUS "rlpool: no jax in the build's Python; XLA FFI handlers compile on first use")
  endif()
endif()
