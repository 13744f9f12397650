# protovar-distillation: the IDX reader with pairing and the PNG decoder (libpng's simplified API)
# (engines/distill/ProtovarInputs.cpp only).
find_package(PNG REQUIRED)
paperlab_fuzz_target(protovaridx EXT .idx3-ubyte
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/distill/ProtovarInputs.cpp
  FUZZ_LIBS paperlab_core PNG::PNG REPLAY_LIBS paperlab_distill
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
paperlab_fuzz_target(protovarpng EXT .png
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/distill/ProtovarInputs.cpp
  FUZZ_LIBS paperlab_core PNG::PNG REPLAY_LIBS paperlab_distill
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
