# eefp-early-exit: the .eenn.json manifest reader and the logits validation
# (engines/smallnets/ExitManifest.cpp), without the models.
paperlab_fuzz_target(eennmanifest EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/smallnets/ExitManifest.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_smallnets
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
