# bimetric-ann: the .fvecs and .npy vector readers and the four-file check
# (engines/search/VectorFiles.cpp).
paperlab_fuzz_target(bimetric_vectors EXT .fvecs
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/search/VectorFiles.cpp
  FUZZ_LIBS paperlab_core REPLAY_LIBS paperlab_search
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
