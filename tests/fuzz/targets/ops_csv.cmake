# resettable-sketches: the `t,op,key,delta` reader (engines/streams/StreamOps.cpp, the streamed CSV
# splitter, key ids through libsodium's SipHash) and the exact sketch.
paperlab_fuzz_target(ops_csv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/streams/StreamOps.cpp ${PROJECT_SOURCE_DIR}/engines/streams/StreamCsv.cpp
               ${PROJECT_SOURCE_DIR}/engines/streams/KeyedHash.cpp ${PROJECT_SOURCE_DIR}/engines/streams/Sketches.cpp
               ${PROJECT_SOURCE_DIR}/engines/streams/SamplingSketch.cpp
  FUZZ_LIBS paperlab_core sodium INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_streams)
