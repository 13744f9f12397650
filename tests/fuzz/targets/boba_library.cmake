# Library CSV reader of the boba-screening panel (ScreenLibrary, Fingerprints, NumericCsv; the
# stand-in generator in the same file needs only core).
paperlab_fuzz_target(boba_library EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/bandits/ScreenLibrary.cpp ${PROJECT_SOURCE_DIR}/engines/bandits/Fingerprints.cpp
               ${PROJECT_SOURCE_DIR}/engines/bandits/NumericCsv.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_bandits)
