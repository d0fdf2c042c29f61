// Fuzz harness: the TOML job reader with --set overrides (config/schema.hpp parse_job), docs/fuzzing.md.
// Input: TOML text, optionally followed by a line "--set" and then one override "section.key=value" per line (at
// most 16). A job that parses must survive the canonical round trip: dump_job, parsed again, dumps to the same text
// and validates — a dump that does not parse back (or changes) is a finding, as the checkpoint hash relies on it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace bfs;

/// A method with keys of every type a KeyVisitor takes, beside a stand-in for the bandit (the real registry is in
/// src/methods/, above config/; as tests/unit/config/test_schema.cpp's test_catalog).
struct DemoParams final : MethodParams {
  int neighbours = 2;
  std::int64_t budget = 1000;
  double share = 0.5;
  std::string mode = "full";
  bool standardize = true;
  std::vector<double> weights = {1.0, 2.0};
  void visit(KeyVisitor& v) override {
    v("neighbours", neighbours, keyspec::range(1, 100, "neighbours"));
    v("budget", budget, keyspec::range(0, 1e15, "budget"));
    v("share", share, keyspec::above(0, 1, "share"));
    v("mode", mode, keyspec::one_of({"full", "fast"}, "mode"));
    v("standardize", standardize, keyspec::text("standardize"));
    v("weights", weights, keyspec::range(-1e6, 1e6, "weights"));
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<DemoParams>(*this); }
};

const MethodCatalog& catalog() {
  static const MethodCatalog methods = [] {
    MethodDescription bandit{"bandit", {"reward", "bandit", "tuning"}, {}, true};
    MethodDescription demo{"demo", {"extra"}, [] { return std::make_unique<DemoParams>(); }, false};
    MethodDescription plain{"plain", {}, {}, true};
    return MethodCatalog{bandit, demo, plain};
  }();
  return methods;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> parts =
      bfs::fuzz::split_parts(std::string_view(reinterpret_cast<const char*>(data), size), "--set");
  const std::string& toml_text = parts[0];
  std::vector<std::string> overrides;
  for (std::size_t k = 1; k < parts.size(); ++k) {
    for (std::string_view line : bfs::fuzz::split_lines(parts[k])) {
      if (overrides.size() < 16 && !line.empty()) overrides.emplace_back(line);
    }
  }
  bfs::fuzz::run_one([&] {
    const bfs::JobConfig job = bfs::parse_job(catalog(), toml_text, "fuzz.toml", overrides);
    const std::string dumped = bfs::dump_job(job);
    bfs::JobConfig again;
    try {
      again = bfs::parse_job(catalog(), dumped, "dump.toml");
    } catch (const bfs::Error& e) {
      bfs::fuzz::finding("the canonical dump of a parsed job does not parse back",
                         (std::string(e.what()) + "\n--- dump ---\n" + dumped).c_str());
    }
    const std::string dumped_again = bfs::dump_job(again);
    if (dumped_again != dumped) {
      bfs::fuzz::finding("the canonical dump changes on a round trip",
                         ("--- first ---\n" + dumped + "--- second ---\n" + dumped_again).c_str());
    }
  });
  return 0;
}
