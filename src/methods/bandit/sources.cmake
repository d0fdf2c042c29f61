set(BANDITFS_METHOD_SOURCES bandit_method.cpp bandit_result.cpp messages.cpp protocol.cpp)
