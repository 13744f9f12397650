# fafo-decoding (engines/tinylm): the .safetensors reader, the model builder and the prompt-file
# reader, without the decoding loops.
paperlab_fuzz_target(safetensors EXT .safetensors
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/tinylm/SafeTensors.cpp ${PROJECT_SOURCE_DIR}/engines/tinylm/TinyModel.cpp
               ${PROJECT_SOURCE_DIR}/engines/tinylm/Prompts.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_tinylm
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
