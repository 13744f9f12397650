# aporia-hallucination: the response JSONL reader and TF-IDF (engines/embedgeo/ResponseSet.cpp, TfIdf.cpp).
paperlab_fuzz_target(responses EXT .jsonl
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/embedgeo/ResponseSet.cpp ${PROJECT_SOURCE_DIR}/engines/embedgeo/TfIdf.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_embedgeo nlohmann_json::nlohmann_json
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
