# equivariant-covariance: the clouds.csv / PLY / tensors.csv readers (engines/equicov/CloudReader.cpp
# with the Kelvin-Mandel and feature code they use), without the models.
paperlab_fuzz_target(clouds EXT .csv
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/equicov/CloudReader.cpp ${PROJECT_SOURCE_DIR}/engines/equicov/Features.cpp
               ${PROJECT_SOURCE_DIR}/engines/equicov/KelvinMandel.cpp
  FUZZ_LIBS paperlab_core REPLAY_LIBS paperlab_equicov
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
