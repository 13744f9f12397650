# Arms / theta* CSV reader of the fair-linear-bandits panel (engines/bandits/NumericCsv.cpp only).
paperlab_fuzz_target(arms_csv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/bandits/NumericCsv.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_bandits)
