# care-recsets: the CARE CSV reader (engines/streams/RecStream.cpp with the streamed CSV splitter).
paperlab_fuzz_target(care_csv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/streams/RecStream.cpp ${PROJECT_SOURCE_DIR}/engines/streams/StreamCsv.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_streams)
