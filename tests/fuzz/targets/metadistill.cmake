# metadistill-bbo: the teacher-trajectory JSON reader (engines/search/TeacherTrajectories.cpp, which
# also needs the BBOB name list of BbobFunctions.cpp).
paperlab_fuzz_target(teachertrajectories EXT .json
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/search/TeacherTrajectories.cpp
               ${PROJECT_SOURCE_DIR}/engines/search/BbobFunctions.cpp
  FUZZ_LIBS paperlab_core nlohmann_json::nlohmann_json REPLAY_LIBS paperlab_search
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
