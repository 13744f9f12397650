# .npy clip reader of the olaf-world panel (engines/gridworld/ClipReader.cpp).
find_package(ZLIB REQUIRED)
paperlab_fuzz_target(olaf_clips EXT .npy
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/gridworld/ClipReader.cpp ${PROJECT_SOURCE_DIR}/engines/gridworld/PngReader.cpp
    ${PROJECT_SOURCE_DIR}/engines/gridworld/ClipSet.cpp
  FUZZ_LIBS paperlab_core ZLIB::ZLIB INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_gridworld ZLIB::ZLIB)
