# lavid-distillation: the signature JSON / questions .txt reader and the feature CSV reader
# (engines/distill/LavidInputs.cpp only).
paperlab_fuzz_target(lavidsignatures EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/distill/LavidInputs.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_distill
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
paperlab_fuzz_target(lavidfeatures EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/distill/LavidInputs.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_distill
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
