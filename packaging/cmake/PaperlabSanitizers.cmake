# Sanitizer and fuzzing instrumentation for the whole tree (issue #10, "Quality gates").
#   -DPAPERLAB_SANITIZE=address   AddressSanitizer + UndefinedBehaviorSanitizer (preset "asan")
#   -DPAPERLAB_SANITIZE=thread    ThreadSanitizer (preset "tsan")
#   -DPAPERLAB_FUZZ=ON            clang only: every target with -fsanitize=fuzzer-no-link,address,
#                                 tests/fuzz builds the libFuzzer targets (preset "fuzz")
# Flags are global (add_compile_options/add_link_options) so every library, plugin and test is
# instrumented the same way; Qt, VTK and the other Debian libraries are not (see
# tests/sanitizers/ for the suppressions that this makes necessary).
set(PAPERLAB_SANITIZE "" CACHE STRING "Sanitizer build: empty, address (ASan+UBSan) or thread (TSan)")
set_property(CACHE PAPERLAB_SANITIZE PROPERTY STRINGS "" address thread)
option(PAPERLAB_FUZZ "Build the libFuzzer targets in tests/fuzz (clang)" OFF)

set(_pl_san_common -fno-omit-frame-pointer -g1)
if(PAPERLAB_SANITIZE STREQUAL "address")
  # vptr is off: Qt's and VTK's type info comes from uninstrumented shared libraries and the
  # check reports false "downcast of address with wrong dynamic type" across them.
  set(_pl_san -fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined)
  add_compile_options(${_pl_san} ${_pl_san_common})
  add_link_options(${_pl_san})
  message(STATUS "Paperlab: AddressSanitizer + UBSan build")
elseif(PAPERLAB_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread ${_pl_san_common})
  add_link_options(-fsanitize=thread)
  message(STATUS "Paperlab: ThreadSanitizer build")
elseif(NOT PAPERLAB_SANITIZE STREQUAL "")
  message(FATAL_ERROR "PAPERLAB_SANITIZE must be empty, 'address' or 'thread' (got '${PAPERLAB_SANITIZE}')")
endif()

if(PAPERLAB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PAPERLAB_FUZZ needs clang (use the 'fuzz' preset)")
  endif()
  if(NOT PAPERLAB_SANITIZE STREQUAL "")
    message(FATAL_ERROR "PAPERLAB_FUZZ brings its own AddressSanitizer; leave PAPERLAB_SANITIZE empty")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr
                      -fno-sanitize-recover=undefined ${_pl_san_common})
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "Paperlab: libFuzzer build (tests/fuzz)")
endif()
