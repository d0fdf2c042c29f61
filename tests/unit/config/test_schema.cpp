#include <array>
#include <boost/test/unit_test.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"

using namespace bfs;

namespace {

/// An enum-valued method key (KeyVisitor's enum overload); the table's order, not the declaration's, is the order of
/// its names in messages and `banditfs keys`.
enum class Shape { Square, Round, Oval };
constexpr std::array<std::pair<Shape, std::string_view>, 3> enum_table(Shape) {
  return {{{Shape::Round, "round"}, {Shape::Square, "square"}, {Shape::Oval, "oval"}}};
}

/// A method with keys of its own and no estimator, beside a stand-in for the bandit (the real registry lives in
/// src/methods/, above config: these tests check the schema's side of the catalog).
struct DemoParams final : MethodParams {
  int neighbours = 2;
  double share = 0.5;
  std::string mode = "full";
  bool standardize = true;
  Shape shape = Shape::Round;
  void visit(KeyVisitor& v) override {
    v("neighbours", neighbours, keyspec::range(1, 100, "neighbours"));
    v("share", share, keyspec::above(0, 1, "share"));
    v("mode", mode, keyspec::one_of({"full", "fast"}, "mode"));
    v("standardize", standardize, keyspec::text("standardize"));
    v("shape", shape, keyspec::text("shape"));
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<DemoParams>(*this); }
};

MethodCatalog test_catalog() {
  MethodDescription bandit{"bandit", {"reward", "bandit", "tuning"}, {}, true};
  MethodDescription demo{"demo", {}, [] { return std::make_unique<DemoParams>(); }, false};
  return {bandit, demo};
}

JobConfig parse_job(const std::string& text, const std::string& origin,
                    const std::vector<std::string>& overrides = {}) {
  return bfs::parse_job(test_catalog(), text, origin, overrides);
}

/// The ConfigError message of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse_job(text, "job.toml", overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_CASE(only_the_chosen_estimators_keys_are_valid) {
  const auto message = error_of("[estimator]\nname = \"lasso\"\nn_estimators = 10\n");
  BOOST_TEST(contains(message, "estimator.n_estimators"));
  BOOST_TEST(error_of("[estimator]\nname = \"gbm\"\nmax_leaves = 50\n").empty());
}

BOOST_AUTO_TEST_CASE(cross_field_rules_are_checked) {
  BOOST_TEST(contains(error_of("[data]\nsource = \"hdf5\"\n"), "data.path"));
  BOOST_TEST(contains(error_of("[data]\nsource = \"csv\"\npath = \"x.csv\"\n"), "data.target"));
  BOOST_TEST(
      contains(error_of("[estimator]\nname = \"mlp\"\nhidden = [16, 0]\n"), "estimator.hidden = 0 is out of range"));
  BOOST_TEST(contains(error_of("[estimator]\nname = \"mlp\"\nhidden = [16, 2.5]\n"), "estimator.hidden"));
}

BOOST_AUTO_TEST_CASE(a_syntax_error_names_the_line) {
  BOOST_TEST(contains(error_of("[bandit\n"), "job.toml:1"));
}

BOOST_AUTO_TEST_CASE(a_method_takes_only_its_own_keys_and_sections) {
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nneighbours = 7\nmode = \"fast\"\n", "job.toml");
  const auto* params = job.method.params.as<DemoParams>();
  BOOST_REQUIRE(params != nullptr);
  BOOST_TEST(params->neighbours == 7);
  BOOST_TEST(params->mode == "fast");
  BOOST_TEST(params->share == 0.5);
  // A copy of the job owns a copy of the parameters.
  const JobConfig copy = job;
  BOOST_TEST(copy.method.params.as<DemoParams>() != params);
  BOOST_TEST(copy.method.params.as<DemoParams>()->neighbours == 7);

  BOOST_TEST(
      contains(error_of("[method]\nname = \"nope\"\n"), "method.name = \"nope\" is not one of \"bandit\", \"demo\""));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\n[bandit]\niterations = 5\n"),
                      "section [bandit] belongs to method \"bandit\", but method.name = \"demo\""));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\n[estimator]\nname = \"lasso\"\n"),
                      "section [estimator] is not used by method \"demo\""));
  BOOST_TEST(
      contains(error_of("[method]\nname = \"demo\"\nneighbours = 0\n"), "method.neighbours = 0 is out of range"));
  BOOST_TEST(
      contains(error_of("[method]\nname = \"demo\"\nmode = \"slow\"\n"), "method.mode = \"slow\" is not one of"));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\nbogus = 1\n"), "unknown key 'method.bogus'"));
  // The bandit takes no [method] keys besides its name; another method's key is unknown to it.
  BOOST_TEST(contains(error_of("[method]\nneighbours = 3\n"), "unknown key 'method.neighbours'"));
  BOOST_TEST(contains(error_of("", {"method.name=demo", "method.share=2.0"}), "method.share = 2 is out of range"));
}

BOOST_AUTO_TEST_CASE(a_methods_dump_holds_its_keys_and_only_its_sections) {
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nneighbours = 4\n", "job.toml");
  const std::string text = dump_job(job);
  BOOST_TEST(contains(text, "neighbours = 4"));
  BOOST_TEST(contains(text, "mode = 'full'"));
  BOOST_TEST(!contains(text, "[bandit]"));
  BOOST_TEST(!contains(text, "[reward]"));
  BOOST_TEST(!contains(text, "[estimator]"));
  BOOST_TEST(dump_job(parse_job(text, "dump")) == text);
}

BOOST_AUTO_TEST_CASE(keys_lists_each_methods_keys_and_sections) {
  const std::string keys = describe_keys(test_catalog());
  BOOST_TEST(contains(keys, "[method] name = \"demo\"  (no [estimator])"));
  BOOST_TEST(contains(keys, "method.neighbours  [1, 100]"));
  BOOST_TEST(contains(keys, "[method] name = \"bandit\"  (its sections: [reward] [bandit] [tuning])"));
}

BOOST_AUTO_TEST_CASE(a_methods_enum_key_is_parsed_once_dumped_and_described_by_name) {
  BOOST_TEST(
      (parse_job("[method]\nname = \"demo\"\n", "job.toml").method.params.as<DemoParams>()->shape == Shape::Round));
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nshape = \"oval\"\n", "job.toml");
  BOOST_TEST((job.method.params.as<DemoParams>()->shape == Shape::Oval));
  const std::string text = dump_job(job);
  BOOST_TEST(contains(text, "shape = 'oval'"));
  BOOST_TEST(dump_job(parse_job(text, "dump")) == text);
  BOOST_TEST(
      contains(dump_job(parse_job("", "job.toml", {"method.name=demo", "method.shape=square"})), "shape = 'square'"));
  BOOST_TEST(error_of("[method]\nname = \"demo\"\nshape = \"cube\"\n") ==
             "job.toml: method.shape = \"cube\" is not one of \"round\", \"square\", \"oval\"");
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\nshape = 3\n"), "method.shape = 3: expected a string"));
  BOOST_TEST(contains(error_of("", {"method.name=demo", "method.shape=cube"}),
                      "--set method.shape = \"cube\" is not one of \"round\", \"square\", \"oval\""));
  BOOST_TEST(contains(describe_keys(test_catalog()),
                      "method.shape  (\"round\", \"square\", \"oval\")  default \"round\"  shape\n"));
}

// [TVS]: data.knockoffs and the §6.1 designs as data.dgp values.
BOOST_AUTO_TEST_CASE(data_knockoffs_and_the_paper_003_designs_parse) {
  const JobConfig job = parse_job("[data]\nknockoffs = \"gaussian\"\ndgp = \"forest\"\n", "job.toml");
  BOOST_TEST(name_of(job.data.knockoffs) == "gaussian");
  BOOST_TEST(name_of(job.data.dgp) == "forest");
  BOOST_TEST(name_of(parse_job("[data]\ndgp = \"friedman1-corr\"\n", "job.toml").data.dgp) == "friedman1-corr");
  BOOST_TEST(name_of(parse_job("", "job.toml").data.knockoffs) == "none");
  BOOST_TEST(contains(dump_job(job), "knockoffs = 'gaussian'"));
  BOOST_TEST(name_of(parse_job(dump_job(job), "dump").data.knockoffs) == "gaussian");
  BOOST_TEST(name_of(parse_job("", "job.toml", {"data.knockoffs=gaussian"}).data.knockoffs) == "gaussian");
  BOOST_TEST(contains(error_of("[data]\nknockoffs = \"sdp\"\n"),
                      "data.knockoffs = \"sdp\" is not one of \"none\", \"gaussian\""));
  BOOST_TEST(contains(error_of("[data]\nknockoffs = true\n"), "data.knockoffs"));
  // A method of bandit logs has no (X, y) columns to copy.
  MethodCatalog catalog = test_catalog();
  catalog.push_back({"logs", {}, {}, false, true});
  try {
    bfs::parse_job(catalog, "[method]\nname = \"logs\"\n[data]\nknockoffs = \"gaussian\"\n", "job.toml", {});
    BOOST_ERROR("no error");
  } catch (const ConfigError& e) {
    BOOST_TEST(contains(e.what(), "data.knockoffs = \"gaussian\" does not apply to method.name = \"logs\""));
  }
}

namespace {

enum class Colour { Red, Blue };
constexpr std::array<std::pair<Colour, std::string_view>, 2> enum_table(Colour) {
  return {{{Colour::Red, "red"}, {Colour::Blue, "blue"}}};
}

/// A method with a section of its own besides [method], as the bandit has [reward], [bandit] and [tuning]: the schema
/// reads, dumps, describes and checks it through visit_section, dumps_section and validate.
struct SectionedParams final : MethodParams {
  int depth = 3;
  bool depth_given = false;
  bool on = false;
  std::optional<Colour> colour;
  std::vector<int> grid = {1, 2};
  std::vector<std::vector<std::string>> bundles;
  void visit(KeyVisitor& /*v*/) override {}
  void visit_section(std::string_view section, KeyVisitor& v) override {
    if (section != "extra") return;
    v("depth", depth, keyspec::range(1, 10, "depth"));
    v("on", on, keyspec::text("on"));
    v("colour", colour, keyspec::text("colour"));
    v("grid", grid, keyspec::range(0, 5, "grid"));
    v("bundles", bundles, keyspec::text("bundles"));
    if (v.given("depth")) depth_given = true;
  }
  bool dumps_section(std::string_view /*section*/) const override { return on; }
  void validate(const JobConfig& /*job*/) const override {
    if (on && depth == 1) throw ConfigError("extra.depth = 1 needs extra.on = false");
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<SectionedParams>(*this); }
};

MethodCatalog sectioned_catalog() {
  MethodCatalog catalog = test_catalog();
  catalog.push_back({"sectioned", {"extra"}, [] { return std::make_unique<SectionedParams>(); }, false});
  return catalog;
}

std::string sectioned_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    bfs::parse_job(sectioned_catalog(), "[method]\nname = \"sectioned\"\n" + text, "job.toml", overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_methods_own_section_is_read_dumped_described_and_checked) {
  const std::string head = "[method]\nname = \"sectioned\"\n";
  const JobConfig job = bfs::parse_job(
      sectioned_catalog(), head + "[extra]\non = true\ncolour = \"blue\"\ngrid = [0, 5]\nbundles = [[\"a\", \"b\"]]\n",
      "job.toml", {"extra.depth=3"});
  const auto* params = job.method.params.as<SectionedParams>();
  BOOST_REQUIRE(params != nullptr);
  BOOST_TEST(params->on);
  BOOST_TEST(params->depth_given);  // --set counts as given, with its default value
  BOOST_TEST((params->colour == Colour::Blue));
  BOOST_TEST((params->grid == std::vector<int>{0, 5}));
  BOOST_TEST(params->bundles.size() == 1u);
  const std::string text = dump_job(job);
  BOOST_TEST(
      contains(text, "[extra]\nbundles = [ [ 'a', 'b' ] ]\ncolour = 'blue'\ndepth = 3\ngrid = [ 0, 5 ]\non = true\n"));
  BOOST_TEST(dump_job(bfs::parse_job(sectioned_catalog(), text, "dump")) == text);
  // Left out of the dump when the parameters say so; an unset optional enum is left out of the section.
  const JobConfig off = bfs::parse_job(sectioned_catalog(), head, "job.toml");
  BOOST_TEST(!off.method.params.as<SectionedParams>()->depth_given);
  BOOST_TEST(!off.method.params.as<SectionedParams>()->colour.has_value());
  BOOST_TEST(!contains(dump_job(off), "[extra]"));

  BOOST_TEST(
      sectioned_error("[extra]\nbogus = 1\n") ==
      "job.toml: unknown key 'extra.bogus' (valid keys in [extra]: \"bundles\", \"colour\", \"depth\", \"grid\", "
      "\"on\")");
  BOOST_TEST(sectioned_error("[extra]\ndepth = 11\n") ==
             "job.toml: extra.depth = 11 is out of range: must be in [1, 10]");
  BOOST_TEST(sectioned_error("[extra]\ngrid = [6]\n") == "job.toml: extra.grid = 6 is out of range: must be in [0, 5]");
  BOOST_TEST(sectioned_error("[extra]\ncolour = \"green\"\n") ==
             "job.toml: extra.colour = \"green\" is not one of \"red\", \"blue\"");
  BOOST_TEST(contains(sectioned_error("[extra]\nbundles = [\"a\"]\n"), "extra.bundles"));
  BOOST_TEST(sectioned_error("", {"extra.depth=0"}) == "--set extra.depth = 0 is out of range: must be in [1, 10]");
  BOOST_TEST(sectioned_error("[extra]\non = true\ndepth = 1\n") == "extra.depth = 1 needs extra.on = false");
  try {
    bfs::parse_job(sectioned_catalog(), "[method]\nname = \"demo\"\n[extra]\ndepth = 2\n", "job.toml");
    BOOST_ERROR("no error");
  } catch (const ConfigError& e) {
    BOOST_TEST(contains(e.what(), "section [extra] belongs to method \"sectioned\", but method.name = \"demo\""));
  }

  const std::string keys = describe_keys(sectioned_catalog());
  BOOST_TEST(contains(keys,
                      "[method] name = \"sectioned\"  (no [estimator])  (its sections: [extra])\n[extra]\n"
                      "  extra.depth  [1, 10]  default 3  depth\n  extra.on  default false  on\n"
                      "  extra.colour  (\"red\", \"blue\")  default unset  colour\n"
                      "  extra.grid  [0, 5]  default [ 1, 2 ]  grid\n  extra.bundles  default []  bundles\n"));
}

BOOST_AUTO_TEST_CASE(the_tasks_an_estimator_fits_are_a_column_of_the_list) {
  for (const auto& [name, text] : enum_table(EstimatorName{})) {
    const EstimatorTasks tasks = estimator_tasks(name);
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST((tasks.regression || tasks.binary));
      if (tasks.regression)
        BOOST_CHECK_NO_THROW(check_estimator_task(name, Task::Regression));
      else
        BOOST_CHECK_THROW(check_estimator_task(name, Task::Regression), ConfigError);
      if (tasks.binary)
        BOOST_CHECK_NO_THROW(check_estimator_task(name, Task::Binary));
      else
        BOOST_CHECK_THROW(check_estimator_task(name, Task::Binary), ConfigError);
    }
  }
  BOOST_TEST(error_of("[estimator]\nname = \"svm\"\n") ==
             "estimator.name = \"svm\" needs data.task = \"binary\" (it is a classifier; got \"regression\")");
  BOOST_TEST(error_of("[estimator]\nname = \"bart\"\n[data]\ntask = \"binary\"\n") ==
             "estimator.name = \"bart\" needs data.task = \"regression\" (the sampler is for continuous targets; got "
             "\"binary\")");
}

BOOST_AUTO_TEST_CASE(positive_label_is_a_number_or_a_text_and_its_dump_reads_back) {
  const std::string binary = "[data]\ntask = \"binary\"\n";
  const JobConfig number = parse_job(binary + "positive_label = 2\n", "job.toml");
  BOOST_TEST((number.data.positive_label == ClassLabel{2.0}));
  BOOST_TEST(contains(dump_job(number), "positive_label = 2.0"));
  BOOST_TEST((parse_job(dump_job(number), "dump").data.positive_label == ClassLabel{2.0}));
  const JobConfig text = parse_job(binary + "positive_label = \"up\"\n", "job.toml");
  BOOST_TEST((text.data.positive_label == ClassLabel{std::string("up")}));
  BOOST_TEST(contains(dump_job(text), "positive_label = 'up'"));
  BOOST_TEST(dump_job(parse_job(dump_job(text), "dump")) == dump_job(text));
  // --set: a bare word is a text, a number a number.
  BOOST_TEST(
      (parse_job(binary, "job.toml", {"data.positive_label=up"}).data.positive_label == ClassLabel{std::string("up")}));
  BOOST_TEST((parse_job(binary, "job.toml", {"data.positive_label=-1"}).data.positive_label == ClassLabel{-1.0}));
  BOOST_TEST(contains(error_of(binary + "positive_label = true\n"),
                      "job.toml: data.positive_label = true: expected a number or a string"));
  BOOST_TEST(contains(error_of("[data]\npositive_label = \"up\"\n"), "data.positive_label is only used with"));
}

BOOST_AUTO_TEST_CASE(the_table_keys_parse_and_are_bounded) {
  const JobConfig job = parse_job(
      "[data]\nexclude = [\"date\"]\nna_values = [\"-999\"]\nmissing = \"impute\"\ncategorical = [\"g\"]\n"
      "min_level_count = 3\nmax_levels = 5\n",
      "job.toml");
  BOOST_TEST(job.data.exclude == std::vector<std::string>({"date"}), boost::test_tools::per_element());
  BOOST_TEST(job.data.na_values == std::vector<std::string>({"-999"}), boost::test_tools::per_element());
  BOOST_TEST(name_of(job.data.missing) == "impute");
  BOOST_TEST(job.data.min_level_count == 3);
  BOOST_TEST(job.data.max_levels == 5);
  BOOST_TEST(name_of(parse_job("", "job.toml").data.missing) == "native");
  BOOST_TEST(contains(error_of("[data]\nmissing = \"drop\"\n"), "data.missing = \"drop\" is not one of"));
  BOOST_TEST(contains(error_of("[data]\nmin_level_count = 0\n"), "data.min_level_count = 0 is out of range"));
  BOOST_TEST(contains(error_of("[data]\nmax_levels = 1\n"), "data.max_levels = 1 is out of range"));
  // The empty cell is one of the default tokens, and the list reads back from the dump.
  const JobConfig defaults = parse_job("", "job.toml");
  BOOST_TEST(defaults.data.na_values.front().empty());
  BOOST_TEST(parse_job(dump_job(defaults), "dump").data.na_values == defaults.data.na_values,
             boost::test_tools::per_element());
}
