# .npz archives (libzip + the .npy reader), shared by the hidden-state and embedding panels.
paperlab_fuzz_target(npz EXT .npz FUZZ_LIBS paperlab_core REPLAY_LIBS paperlab_core)
