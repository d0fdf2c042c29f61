#include "methods/bandit/bandit_checkpoint.hpp"

#include <cmath>
#include <mutex>

#include "core/error.hpp"
#include "data/detail/h5_read.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "methods/bandit/run_result_h5.hpp"

namespace bfs {
namespace {

constexpr std::string_view kKind = "bandit checkpoint";

/// The checks a run state needs before its rounds are continued: one trajectory row and period per round, a
/// posterior of positive finite parameters, evaluations of rounds done.
void check_state(const RunResult& s, const detail::Reader& reader) {
  const auto rounds = static_cast<std::size_t>(std::max(0, s.iterations));
  const std::size_t p = s.feature_names.size();
  if (s.iterations < 0 || s.iteration_period.size() != rounds || s.trajectory.size() != rounds * p)
    reader.fail(detail::concat("inconsistent state: ", s.iterations, " rounds, ", s.iteration_period.size(),
                               " iteration periods, ", p == 0 ? 0 : s.trajectory.size() / p, " trajectory rows"));
  for (std::size_t k = 0; k < p; ++k)
    if (!(s.alpha[k] > 0.0 && s.beta[k] > 0.0 && std::isfinite(s.alpha[k]) && std::isfinite(s.beta[k])))
      reader.fail(detail::concat("inconsistent state: the posterior of feature ", k, " is Beta(", s.alpha[k], ", ",
                                 s.beta[k], ")"));
  for (const EvaluationRecord& e : s.evaluations)
    if (e.iteration < 1 || e.iteration > s.iterations)
      reader.fail(detail::concat("inconsistent state: an evaluation of round ", e.iteration, " after ", s.iterations,
                                 " rounds"));
  if (!s.resume.present) reader.fail("no resume state (/resume_stop_key)");
}

}  // namespace

void write_bandit_checkpoint(const std::string& path, const methods::ResumeKey& key, const RunResult& state) {
  // The prefetch thread may be reading the next period (period_prefetcher.hpp): the serial HDF5 library must never
  // be entered by two threads at once.
  const std::lock_guard lock(detail::hdf5_mutex());
  methods::write_checkpoint(path, {kKind, "bandit", key}, [&](hid_t root) { write_run_state_body(root, state); });
}

BanditCheckpoint read_bandit_checkpoint(const std::string& path) {
  const std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  const methods::CheckpointReader reader(path);
  BanditCheckpoint checkpoint;
  checkpoint.key = methods::read_checkpoint_key(reader, kKind, "bandit");
  checkpoint.state = read_run_state(reader);
  check_state(checkpoint.state, reader);
  return checkpoint;
}

}  // namespace bfs
