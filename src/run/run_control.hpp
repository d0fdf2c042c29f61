#pragma once
// Checkpoint and interruption control of a run, for every method (docs/design.md §7).
#include <functional>
#include <string>

namespace bfs {

/// A checkpoint is written atomically after every `checkpoint_every` rounds and when `stop_requested()` turns true
/// (checked at the end of each round: the run then returns early, interrupted). With `resume`, the run continues
/// from `checkpoint_path` and refuses a checkpoint whose job (the keys that decide its numbers) or data differ. A
/// resumed run's result equals an uninterrupted one.
struct RunControl {
  std::string checkpoint_path;  ///< empty = no checkpoints
  int checkpoint_every = 0;
  bool resume = false;
  std::function<bool()> stop_requested;
};

}  // namespace bfs
