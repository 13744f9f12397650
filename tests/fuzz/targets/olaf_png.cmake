# PNG frame reader of the olaf-world panel (engines/gridworld/PngReader.cpp only; zlib).
find_package(ZLIB REQUIRED)
paperlab_fuzz_target(olaf_png EXT .png
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/gridworld/PngReader.cpp
  FUZZ_LIBS paperlab_core ZLIB::ZLIB INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_gridworld ZLIB::ZLIB)
