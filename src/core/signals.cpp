#include "core/signals.hpp"

#include <csignal>

namespace bfs {

void ignore_file_size_signal() {
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace bfs
