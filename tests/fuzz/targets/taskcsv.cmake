# continual-forgetting: the `task,y,x1..xd` CSV reader (engines/smallnets/TaskData.cpp only).
paperlab_fuzz_target(taskcsv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/smallnets/TaskData.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_smallnets)
