# convimg (visual persuasion, in progress): the choice-log reader (engines/convimg/BradleyTerry.cpp).
paperlab_fuzz_target(choicelog EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/convimg/BradleyTerry.cpp
  FUZZ_LIBS paperlab_core INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_convimg)
