# ASCII map reader of the deepha-agent panel (engines/gridworld/GridMap.cpp only).
paperlab_fuzz_target(craftgrid_map EXT .txt
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/gridworld/GridMap.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_gridworld)
