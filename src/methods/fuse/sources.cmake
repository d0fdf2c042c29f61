set(BANDITFS_METHOD_SOURCES tree.cpp selection.cpp reward.cpp detail/knn_screen.cpp fuse_checkpoint.cpp fuse_method.cpp shadows.cpp searches.cpp)
