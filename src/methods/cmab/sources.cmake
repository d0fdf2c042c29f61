set(BANDITFS_METHOD_SOURCES binning.cpp cell_counts.cpp scores.cpp cmab_checkpoint.cpp cmab_scores.cpp)
