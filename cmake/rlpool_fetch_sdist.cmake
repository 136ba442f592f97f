# rlpool_fetch_sdist(): a third-party source distribution from PyPI, fetched by
# name and pinned version with pip, checked against its pinned sha256 and kept
# in RLPOOL_DOWNLOAD_CACHE (default: the user cache dir, ~/.cache/rlpool), so
# that a fresh build dir does not fetch it again; a cached file is used only if
# its checksum matches. Families that compile a simulator from its sdist (ALE,
# Box2D) call this from their family.cmake; none of that code lives here.
#
#   rlpool_fetch_sdist(<package> <version> <file name> <sha256> <out var>)
#       sets <out var> to the verified tarball's path in the cache.
#   rlpool_unpack_sdist(<tarball> <sha256> <dest root> <must-exist path> <out var>)
#       unpacks it once per checksum under <dest root>; sets <out var> to the
#       unpacked top folder (the tarball name without .tar.gz).
#   rlpool_patch_text(<text var> <old> <new> <what>)
#       replaces <old> with <new> in the variable's text (a source file read
#       for a checked patch); a text without <old> is a FATAL_ERROR naming <what>.

if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{XDG_CACHE_HOME}/rlpool")
elseif(DEFINED ENV{HOME} AND NOT "$ENV{HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{HOME}/.cache/rlpool")
else()
  set(_rlpool_default_cache "${CMAKE_BINARY_DIR}/_deps/downloads")
endif()
set(RLPOOL_DOWNLOAD_CACHE "${_rlpool_default_cache}" CACHE PATH
    "Where fetched source distributions (ale-py, box2d-py) are kept between builds")

# Returns in out_var whether `file` exists and has checksum `sha256`.
function(_rlpool_sdist_ok file sha256 out_var)
  set(ok FALSE)
  if(EXISTS "${file}")
    file(SHA256 "${file}" actual)
    if(actual STREQUAL sha256)
      set(ok TRUE)
    endif()
  endif()
  set(${out_var} ${ok} PARENT_SCOPE)
endfunction()

# Which pip: the interpreter's own (`python -m pip`). Under pip's build
# isolation (pip install .) the interpreter's site-packages are hidden from
# this process, so ask the interpreter outside it where pip lives and run that
# directory (pip supports `python <dir>/pip`; it then imports itself from
# there). Last resort: a pip program on PATH. Empty if there is none.
function(_rlpool_find_pip out_var)
  execute_process(COMMAND "${Python_EXECUTABLE}" -c "import pip"
                  RESULT_VARIABLE has_pip OUTPUT_QUIET ERROR_QUIET)
  if(has_pip EQUAL 0)
    set(${out_var} "${Python_EXECUTABLE}" -m pip PARENT_SCOPE)
    return()
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH --unset=PYTHONNOUSERSITE --unset=PYTHONHOME
            "${Python_EXECUTABLE}" -c "import os, pip; print(os.path.dirname(pip.__file__))"
    RESULT_VARIABLE pip_rc OUTPUT_VARIABLE pip_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(pip_rc EQUAL 0 AND EXISTS "${pip_dir}/__main__.py")
    set(${out_var} "${Python_EXECUTABLE}" "${pip_dir}" PARENT_SCOPE)
    return()
  endif()
  find_program(_rlpool_pip_program NAMES pip3 pip)
  if(_rlpool_pip_program)
    set(${out_var} "${_rlpool_pip_program}" PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

function(rlpool_fetch_sdist package version file_name sha256 out_var)
  set(tarball "${RLPOOL_DOWNLOAD_CACHE}/${file_name}")
  _rlpool_sdist_ok("${tarball}" "${sha256}" cached)
  if(NOT cached)
    # pip downloads into a fresh folder; only a verified file enters the cache.
    set(fetch_dir "${CMAKE_BINARY_DIR}/_deps/${package}-fetch")
    file(REMOVE_RECURSE "${fetch_dir}")
    file(MAKE_DIRECTORY "${fetch_dir}")
    message(STATUS "rlpool: fetching ${package}==${version} source distribution with pip")
    _rlpool_find_pip(pip)
    if(NOT pip)
      message(FATAL_ERROR "rlpool: no pip found to fetch ${file_name}; put that file (sha256 "
                          "${sha256}) in ${RLPOOL_DOWNLOAD_CACHE}/ and rebuild.")
    endif()
    # --no-binary <package> (not :all:) so that pip does not try to build its
    # build tools (cmake, ...) from source just to read the sdist's metadata.
    execute_process(
      COMMAND ${pip} download --no-deps --no-build-isolation
              --no-binary ${package} "${package}==${version}" -d "${fetch_dir}"
      RESULT_VARIABLE pip_rc
      OUTPUT_VARIABLE pip_out
      ERROR_VARIABLE pip_out)
    set(fetched "${fetch_dir}/${file_name}")
    if(NOT pip_rc EQUAL 0 OR NOT EXISTS "${fetched}")
      message(FATAL_ERROR
        "rlpool: could not fetch ${file_name} with\n"
        "  ${pip} download --no-deps --no-build-isolation --no-binary ${package} ${package}==${version}\n"
        "(exit ${pip_rc}):\n${pip_out}\n"
        "Without network access, put the file in ${RLPOOL_DOWNLOAD_CACHE}/ "
        "(or set -DRLPOOL_DOWNLOAD_CACHE=<dir holding it>).")
    endif()
    _rlpool_sdist_ok("${fetched}" "${sha256}" fetched_ok)
    if(NOT fetched_ok)
      file(SHA256 "${fetched}" actual)
      message(FATAL_ERROR "rlpool: ${file_name} has sha256 ${actual}, expected ${sha256}; refusing to build it.")
    endif()
    file(MAKE_DIRECTORY "${RLPOOL_DOWNLOAD_CACHE}")
    file(COPY "${fetched}" DESTINATION "${RLPOOL_DOWNLOAD_CACHE}")
    file(REMOVE_RECURSE "${fetch_dir}")
  endif()
  set(${out_var} "${tarball}" PARENT_SCOPE)
endfunction()

function(rlpool_unpack_sdist tarball sha256 dest_root must_exist out_var)
  get_filename_component(top "${tarball}" NAME)
  string(REGEX REPLACE "\\.tar\\.gz$" "" top "${top}")
  set(stamp "${dest_root}/unpacked-${sha256}")
  if(NOT EXISTS "${stamp}")
    file(REMOVE_RECURSE "${dest_root}")
    file(MAKE_DIRECTORY "${dest_root}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dest_root}")
    if(NOT EXISTS "${dest_root}/${top}/${must_exist}")
      message(FATAL_ERROR "rlpool: ${tarball} does not hold ${top}/${must_exist}")
    endif()
    file(TOUCH "${stamp}")
  endif()
  set(${out_var} "${dest_root}/${top}" PARENT_SCOPE)
endfunction()

function(rlpool_patch_text text_var old new what)
  string(FIND "${${text_var}}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "rlpool: ${what} is not as expected; update the patch in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  string(REPLACE "${old}" "${new}" patched "${${text_var}}")
  set(${text_var} "${patched}" PARENT_SCOPE)
endfunction()
