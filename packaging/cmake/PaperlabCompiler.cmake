# Compiler settings shared by every target: warnings, ccache, build commit.
find_program(PAPERLAB_CCACHE ccache)
if(PAPERLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${PAPERLAB_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${PAPERLAB_CCACHE})
endif()

add_library(paperlab_warnings INTERFACE)
target_compile_options(paperlab_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)

execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE PAPERLAB_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT PAPERLAB_GIT_COMMIT)
  set(PAPERLAB_GIT_COMMIT "unknown")
endif()
