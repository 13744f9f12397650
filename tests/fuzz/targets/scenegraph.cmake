# curve-scene-graph: the JSON-lines scene-graph reader (engines/curve/SceneGraphReader.cpp).
# The fuzz build compiles the reader and the scene types only, not the trainer.
paperlab_fuzz_target(scenegraph EXT .jsonl
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/curve/SceneGraphReader.cpp ${PROJECT_SOURCE_DIR}/engines/curve/SceneGraph.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_curve_engine
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
