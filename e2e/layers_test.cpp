// The include graph of the checkout keeps the layers of docs/architecture.md pointing one way:
//   runtime <- apis <- webhooks <- controllers <- manager, the API server beside (runtime and
//   apis below it, only the manager and tests above), and no product source includes test code.
// A controller never includes another controller (nor another group's webhooks), and a group's
// webhooks never another group's: each plugs in through runtime/plugin alone.
#include "testing/cluster.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace capstan::e2e {
namespace {
namespace fs = std::filesystem;

// Top-level folder -> the top-level folders its product sources may include.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> rules = {
      {"runtime", {"runtime"}},
      {"apis", {"runtime", "apis"}},
      {"webhooks", {"runtime", "apis", "webhooks"}},
      {"controllers", {"runtime", "apis", "webhooks", "controllers"}},
      {"apiserver", {"runtime", "apis", "apiserver"}},
      {"manager", {"runtime", "apis", "webhooks", "controllers", "apiserver", "manager"}},
  };
  return rules;
}

// Tests and their helpers: testing/, *_test.cpp, test_util.h, test_support.cpp, tests/, fuzz/,
// testdata/.
bool is_test_path(const std::string& rel) {
  return rel.find("test") != std::string::npos || rel.find("/fuzz/") != std::string::npos;
}

// "controllers/kafka/plugin.cpp" -> {"controllers", "kafka"}.
std::pair<std::string, std::string> top_and_part(const std::string& rel) {
  auto first = rel.find('/');
  auto second = rel.find('/', first + 1);
  return {rel.substr(0, first), second == std::string::npos ? "" : rel.substr(first + 1, second - first - 1)};
}

TEST(Layers, ProductSourcesIncludeOnlyLowerLayersAndNoTestCode) {
  const fs::path root = source_dir();
  const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<std::string> violations;
  std::size_t checked = 0;
  for (const auto& [top, may] : allowed()) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      const std::string rel = fs::relative(entry.path(), root).string();
      if (is_test_path(rel)) continue;
      ++checked;
      const auto [from_top, from_part] = top_and_part(rel);
      std::ifstream in(entry.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const std::string target = m[1];
        const auto [to_top, to_part] = top_and_part(target);
        if (!fs::exists(root / target)) continue;  // a system header written with quotes
        std::string why;
        if (!may.count(to_top)) why = top + " may not include " + to_top;
        else if (is_test_path(target)) why = "product code includes test code";
        else if ((to_top == "controllers" || to_top == "webhooks") && to_top == from_top && to_part != from_part)
          why = "one " + from_top.substr(0, from_top.size() - 1) + " includes another";
        else if (from_top == "controllers" && to_top == "webhooks" && to_part != from_part)
          why = "a controller serves only its own group's webhooks";
        if (!why.empty()) violations.push_back(rel + ":" + std::to_string(n) + ": " + target + " (" + why + ")");
      }
    }
  }
  EXPECT_GT(checked, 300u) << "the walk found too few sources under " << root;
  std::ostringstream out;
  for (const auto& v : violations) out << v << "\n";
  EXPECT_TRUE(violations.empty()) << out.str();
}

}  // namespace
}  // namespace capstan::e2e
