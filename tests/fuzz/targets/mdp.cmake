# behavioral-abstraction, pac-bayes-sac: the JSON MDP reader (engines/mdp/MdpReader.cpp) and the MDP
# model only, not the solvers.
paperlab_fuzz_target(mdp EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/mdp/MdpReader.cpp ${PROJECT_SOURCE_DIR}/engines/mdp/Mdp.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json Eigen3::Eigen REPLAY_LIBS paperlab_mdp
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
