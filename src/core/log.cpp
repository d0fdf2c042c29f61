#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "core/context.hpp"

namespace bfs {

std::shared_ptr<spdlog::logger> make_logger(const std::string& name, const std::string& file_path) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  sinks.back()->set_pattern("[%H:%M:%S] %^%l%$ %v");
  if (!file_path.empty()) {
    sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(file_path, false));
    sinks.back()->set_pattern("[%Y-%m-%d %H:%M:%S.%e] %l %v");
  }
  auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::info);
  logger->flush_on(spdlog::level::info);
  return logger;
}

void log_error_to_file_only(spdlog::logger& log, const std::string& message) {
  const spdlog::details::log_msg record(log.name(), spdlog::level::err, message);
  for (const auto& sink : log.sinks())
    if (std::dynamic_pointer_cast<spdlog::sinks::basic_file_sink_mt>(sink)) {
      sink->log(record);
      sink->flush();
    }
}

}  // namespace bfs
