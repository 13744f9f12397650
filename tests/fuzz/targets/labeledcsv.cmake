# robusttrain panels (dwp-cim-robustness): the labelled CSV reader (engines/robusttrain/LabeledData.cpp
# with Datasets.cpp only).
paperlab_fuzz_target(labeledcsv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/robusttrain/LabeledData.cpp ${PROJECT_SOURCE_DIR}/engines/robusttrain/Datasets.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_robusttrain)
