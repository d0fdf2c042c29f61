set(BANDITFS_METHOD_SOURCES
    bandit_method.cpp bandit_params.cpp bandit_result.cpp messages.cpp protocol.cpp
    beta_posterior.cpp policy.cpp stopping.cpp
    bandit_source.cpp split.cpp reward.cpp model_rewards.cpp arm_evaluation.cpp coordinator_state.cpp
    round_driver.cpp bandit_checkpoint.cpp local_runner.cpp partitioning.cpp tuning.cpp period_prefetcher.cpp
    run_result_h5_write.cpp run_result_h5_read.cpp)
