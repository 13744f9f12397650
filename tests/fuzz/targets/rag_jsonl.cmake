# prefetch-rag: the corpus and question JSONL readers, BM25 over what they accept
# (engines/prefetchrag/RagInputs.cpp, Bm25.cpp).
paperlab_fuzz_target(rag_jsonl EXT .jsonl
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/prefetchrag/RagInputs.cpp ${PROJECT_SOURCE_DIR}/engines/prefetchrag/Bm25.cpp
    ${PROJECT_SOURCE_DIR}/engines/prefetchrag/RagWorld.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_prefetchrag nlohmann_json::nlohmann_json
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
