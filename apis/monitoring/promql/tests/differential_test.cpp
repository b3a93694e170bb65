// Differential test: our parser against Debian's `promtool check rules` (Prometheus 2.42) on the
// hand-written corpus (testdata/corpus.txt) plus the generated cases. Every case goes into one
// rule file as its own group ("c<i>", one recording rule), promtool checks the file once, and its
// "could not parse expression" lines are mapped back to the cases. The accept/reject decisions
// must agree for every case; how many error messages are identical is printed as a figure.
#include "apis/monitoring/promql/promql.h"
#include "apis/monitoring/promql/tests/generator.h"
#include "testing/process.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace capstan::promql {
namespace {

// The corpus: one expression per line; `#` lines and blank lines are skipped; a line
// `json: "..."` holds an expression that needs escapes (newlines, leading spaces, `#`).
std::vector<std::string> read_corpus(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("json: ", 0) == 0) {
      out.push_back(std::string(json::parse(line.substr(6), "corpus line").as_string()));
      continue;
    }
    out.push_back(line);
  }
  return out;
}

bool have_promtool() { return e2e::run({"sh", "-c", "command -v promtool"}).code == 0; }

// promtool's verdict per case: "" when accepted, else the parse error it printed.
std::vector<std::string> promtool_verdicts(const std::vector<std::string>& cases) {
  std::string file = "groups:\n";
  for (std::size_t i = 0; i < cases.size(); ++i)
    file += "- name: c" + std::to_string(i) + "\n  rules:\n  - record: r\n    expr: " + json::serialize(json::Value(cases[i])) + "\n";
  e2e::TempDir dir("promql-diff");
  std::string path = dir.file("rules.yaml");
  std::ofstream(path) << file;
  auto r = e2e::run({"promtool", "check", "rules", path}, {}, {}, std::chrono::seconds(60));
  std::vector<std::string> verdicts(cases.size());
  static const std::regex kLine(R"re(group "c(\d+)", rule 1, "r": could not parse expression: (.*)$)re");
  std::istringstream lines(r.out + "\n" + r.err);
  std::string line;
  std::size_t failures = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, kLine)) continue;
    verdicts[std::stoul(m[1])] = m[2];
    ++failures;
  }
  EXPECT_EQ(r.code == 0, failures == 0) << "promtool output not understood:\n" << r.out << r.err;
  return verdicts;
}

TEST(PromQLDifferential, AgreesWithPromtoolOnEveryCase) {
  if (!have_promtool()) GTEST_SKIP() << "promtool is not installed (scripts/deps.sh installs Debian's prometheus)";
  auto cases = read_corpus(std::string(CAPSTAN_PROMQL_TESTDATA) + "/corpus.txt");
  std::size_t hand_written = cases.size();
  for (auto& c : testing::generated_cases()) cases.push_back(std::move(c));
  auto theirs = promtool_verdicts(cases);

  std::size_t valid = 0, invalid = 0, agree = 0, identical = 0;
  std::map<std::string, std::size_t> differing;  // a sample of message differences, for the log
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string ours = check(cases[i]);
    bool ours_ok = ours.empty(), theirs_ok = theirs[i].empty();
    (theirs_ok ? valid : invalid)++;
    if (ours_ok == theirs_ok) {
      ++agree;
      if (!theirs_ok && ours == theirs[i]) ++identical;
      else if (!theirs_ok && differing.size() < 40) differing[cases[i]] = i;
    }
    EXPECT_EQ(ours_ok, theirs_ok) << "case " << i << ": " << cases[i] << "\n  ours:     " << (ours_ok ? "accepted" : ours)
                                  << "\n  promtool: " << (theirs_ok ? "accepted" : theirs[i]);
  }
  for (const auto& [expr, i] : differing)
    std::cout << "[promql] message differs: " << expr << "\n    ours:     " << check(expr) << "\n    promtool: " << theirs[i] << "\n";
  std::cout << "[promql] " << cases.size() << " cases (" << hand_written << " hand-written), " << valid << " valid, " << invalid
            << " invalid, agree " << agree << ", messages identical " << identical << " of " << invalid << "\n";
  EXPECT_GE(cases.size(), 500u);
  EXPECT_GT(valid, 100u);
  EXPECT_GT(invalid, 100u);
}

}  // namespace
}  // namespace capstan::promql
