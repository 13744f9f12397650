# robusttrain panels (dwp-cim-robustness): the IDX reader and image/label pairing
# (engines/robusttrain/LabeledData.cpp with Datasets.cpp only).
paperlab_fuzz_target(idx EXT .idx
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/robusttrain/LabeledData.cpp ${PROJECT_SOURCE_DIR}/engines/robusttrain/Datasets.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_robusttrain)
