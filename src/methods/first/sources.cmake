set(BANDITFS_METHOD_SOURCES detail/knn.cpp nanne.cpp first.cpp first_method.cpp)
