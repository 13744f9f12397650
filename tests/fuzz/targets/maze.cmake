# ASCII maze reader of the bottleneck-keypoints panel (engines/keypoints/Maze.cpp only).
paperlab_fuzz_target(maze EXT .maze
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/keypoints/Maze.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_keypoints_engine)
