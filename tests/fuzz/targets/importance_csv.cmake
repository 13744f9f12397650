# gemq-moe-quant: the importance-table reader and the allocator over what it accepts
# (engines/gemq/ImportanceTable.cpp, Allocation.cpp, Mckp.cpp).
paperlab_fuzz_target(importance_csv EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/gemq/ImportanceTable.cpp ${PROJECT_SOURCE_DIR}/engines/gemq/Allocation.cpp
    ${PROJECT_SOURCE_DIR}/engines/gemq/Mckp.cpp
  FUZZ_LIBS paperlab_core PkgConfig::CLP REPLAY_LIBS paperlab_gemq
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
