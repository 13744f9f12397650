# inslen-hallucination / sae-domain-ood: the caption-archive validation and the SAE archive reader
# (engines/hiddenstate/InsLenCaption.cpp, SaeInputs.cpp) on .npz bytes, and the texts table.
paperlab_fuzz_target(hiddenstate_npz EXT .npz
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/hiddenstate/InsLenCaption.cpp ${PROJECT_SOURCE_DIR}/engines/hiddenstate/SaeInputs.cpp
  FUZZ_LIBS paperlab_core REPLAY_LIBS paperlab_hiddenstate
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
paperlab_fuzz_target(saetexts EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/hiddenstate/SaeInputs.cpp
  FUZZ_LIBS paperlab_core REPLAY_LIBS paperlab_hiddenstate
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
