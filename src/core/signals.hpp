#pragma once
// Process-wide signal dispositions every command sets first, before it writes anything.

namespace bfs {

/// Ignores SIGXFSZ. Past a file-size limit (`ulimit -f`) the kernel's default action kills the process, leaving
/// temporaries behind; ignored, the write fails with EFBIG instead and every writer's error path runs (a message
/// naming the file, exit 1, temporaries removed, the previous result intact).
void ignore_file_size_signal();

}  // namespace bfs
