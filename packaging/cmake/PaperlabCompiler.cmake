# Compiler settings shared by every target: warnings, ccache, optimisation level, linker, build commit.
# ccache caches compilations that use our precompiled headers only with these sloppiness
# options (a PCH embeds __DATE__/__TIME__ state and its own macro set), and GCC's preprocessor mode
# needs -fpch-preprocess; without them every PCH user (all engines and tests) is uncacheable.
find_program(PAPERLAB_CCACHE ccache)
if(PAPERLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(_ccache ${CMAKE_COMMAND} -E env
      "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime" ${PAPERLAB_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_ccache})
  set(CMAKE_C_COMPILER_LAUNCHER ${_ccache})
  set(PAPERLAB_CCACHE_PCH ON)
endif()

add_library(paperlab_warnings INTERFACE)
target_compile_options(paperlab_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
if(PAPERLAB_CCACHE_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fpch-preprocess>)
endif()

execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE PAPERLAB_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT PAPERLAB_GIT_COMMIT)
  set(PAPERLAB_GIT_COMMIT "unknown")
endif()

# Release builds use -O2, not CMake's -O3: -O3 costs ~15 % more compile time on the Eigen-heavy
# engine files and bought nothing measurable in the benchmarks (issue 16 note). Without
# -ffast-math both levels give bit-identical results (packaging/compare-results.sh checks it).
set(PAPERLAB_RELEASE_OPT "-O2" CACHE STRING "Optimisation flag of Release builds")
foreach(lang C CXX CUDA)
  if(CMAKE_${lang}_FLAGS_RELEASE)
    string(REPLACE "-O3" "${PAPERLAB_RELEASE_OPT}" CMAKE_${lang}_FLAGS_RELEASE "${CMAKE_${lang}_FLAGS_RELEASE}")
  endif()
endforeach()

# Link with mold (Debian package mold) or lld when present: the suite links ~80 executables and
# plugins, and GNU ld spends most of the link time. PAPERLAB_LINKER=default keeps the compiler's.
set(PAPERLAB_LINKER "auto" CACHE STRING "Linker: auto (mold, then lld, then the default), mold, lld or default")
if(PAPERLAB_LINKER STREQUAL "auto")
  find_program(PAPERLAB_MOLD ld.mold)
  find_program(PAPERLAB_LLD ld.lld)
  if(PAPERLAB_MOLD)
    set(PAPERLAB_LINKER_USED mold)
  elseif(PAPERLAB_LLD)
    set(PAPERLAB_LINKER_USED lld)
  endif()
elseif(NOT PAPERLAB_LINKER STREQUAL "default")
  set(PAPERLAB_LINKER_USED ${PAPERLAB_LINKER})
endif()
if(PAPERLAB_LINKER_USED)
  add_link_options(-fuse-ld=${PAPERLAB_LINKER_USED})
  message(STATUS "Paperlab: linking with ${PAPERLAB_LINKER_USED}")
endif()
