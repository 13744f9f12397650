# lif-mmwave: the .seq.json manifest reader and the sequence assembly (engines/lifsnn/SeqManifestReader.cpp,
# SeqData.cpp), without the models.
paperlab_fuzz_target(seqmanifest EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/lifsnn/SeqManifestReader.cpp ${PROJECT_SOURCE_DIR}/engines/lifsnn/SeqData.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_lifsnn
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
