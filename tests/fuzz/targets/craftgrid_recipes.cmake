# Recipe-book JSON reader of the deepha-agent panel (engines/gridworld/RecipeBook.cpp only).
paperlab_fuzz_target(craftgrid_recipes EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/gridworld/RecipeBook.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json INCLUDES ${PROJECT_SOURCE_DIR}/engines
  REPLAY_LIBS paperlab_gridworld nlohmann_json::nlohmann_json)
