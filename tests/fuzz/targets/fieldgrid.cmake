# convimg panels (repa-physics): the field reader (engines/convimg/FieldReader.cpp), CSV grids and
# .npy fields; the input's first byte selects the format (0x93, the .npy magic: npy; else CSV).
paperlab_fuzz_target(fieldgrid EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/convimg/FieldReader.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_convimg)
