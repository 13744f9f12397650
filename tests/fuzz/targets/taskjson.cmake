# embodied-act: the task JSON reader (engines/simloop/TaskFile.cpp) with the plant checks it calls
# (PidTask.cpp: Routh–Hurwitz), not the integrators.
paperlab_fuzz_target(taskjson EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/simloop/TaskFile.cpp ${PROJECT_SOURCE_DIR}/engines/simloop/PidTask.cpp
    ${PROJECT_SOURCE_DIR}/engines/simloop/Task.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json Eigen3::Eigen REPLAY_LIBS paperlab_simloop
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
