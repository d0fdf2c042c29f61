set(BANDITFS_METHOD_SOURCES detail/knn.cpp detail/forward_search.cpp nanne.cpp first.cpp first_checkpoint.cpp first_method.cpp)
