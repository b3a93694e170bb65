// Differential test: our kustomize build against the real kustomize (`kubectl kustomize`, which
// embeds kustomize v5) on a corpus of kustomization trees: the hand-written trees under
// testdata/kustomize/ and trees generated from seeds (bases, overlays, components, generators,
// renames and the references that must follow them). For every tree the objects must be equal
// after sorting, or both builds must fail.
#include "controllers/gitops/manifests.h"
#include "runtime/json/yaml.h"
#include "testing/kustomize_trees.h"
#include "testing/process.h"
#include "testing/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace capstan::gitops {
namespace {

using Files = std::map<std::string, std::string>;
namespace fs = std::filesystem;

bool have_kubectl() { return e2e::run({"sh", "-c", "command -v kubectl"}).code == 0; }

std::string id(const json::Value& o) {
  return std::string(json::get_string(o, {"apiVersion"})) + " " + std::string(json::get_string(o, {"kind"})) + " " +
         std::string(json::get_string(o, {"metadata", "namespace"})) + "/" + std::string(json::get_string(o, {"metadata", "name"}));
}

std::map<std::string, json::Value> by_id(std::vector<json::Value> objects) {
  std::map<std::string, json::Value> out;
  for (auto& o : objects) out.emplace(id(o), std::move(o));
  return out;
}

// ---- running both ----

Files read_tree(const fs::path& root) {
  Files files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = e2e::read_file(e.path().string());
  return files;
}

struct Verdict {
  bool ok = false;
  std::string error;
  std::map<std::string, json::Value> objects;
};

Verdict theirs(const std::string& dir) {
  auto r = e2e::run({"kubectl", "kustomize", dir}, {}, {}, std::chrono::seconds(60));
  Verdict v;
  v.ok = r.code == 0;
  if (!v.ok) {
    v.error = r.err;
    return v;
  }
  std::vector<json::Value> docs;
  for (auto& d : json::from_yaml_documents(r.out, "kubectl kustomize " + dir))
    if (!d.is_null()) docs.push_back(std::move(d));
  v.objects = by_id(std::move(docs));
  return v;
}

Verdict ours(const Files& files) {
  Verdict v;
  try {
    v.objects = by_id(build_manifests(files, {}));
    v.ok = true;
  } catch (const BuildError& e) {
    v.error = e.what();
  }
  return v;
}

// "" when they agree, else what differs.
std::string compare(const Verdict& a, const Verdict& b) {
  if (!a.ok || !b.ok) {
    if (a.ok == b.ok) return "";
    return a.ok ? "kustomize failed, we built:\n  " + b.error : "we failed: " + a.error;
  }
  std::string out;
  for (const auto& [key, o] : b.objects) {
    auto it = a.objects.find(key);
    if (it == a.objects.end()) out += "  only kustomize has " + key + "\n";
    else if (it->second != o) out += "  " + key + " differs:\n    ours:      " + json::serialize(it->second) + "\n    kustomize: " + json::serialize(o) + "\n";
  }
  for (const auto& [key, o] : a.objects)
    if (!b.objects.contains(key)) out += "  only we have " + key + "\n";
  return out;
}

TEST(KustomizeDifferential, BuildsAsKustomizeDoes) {
  if (!have_kubectl()) GTEST_SKIP() << "kubectl is not installed (scripts/deps.sh installs Debian's kubectl, which embeds kustomize v5)";
  std::size_t trees = 0, built = 0, failed_both = 0, objects = 0;

  // Hand-written trees: each holds a `tree/` (the kustomization) and, when the tree uses a field
  // we refuse, `refused.txt` with the start of our error.
  for (const auto& e : fs::directory_iterator(fs::path(CAPSTAN_KUSTOMIZE_TESTDATA))) {
    if (!e.is_directory()) continue;
    ++trees;
    const fs::path tree = e.path() / "tree";
    auto files = read_tree(tree);
    auto a = ours(files);
    if (fs::exists(e.path() / "refused.txt")) {
      std::string expected = e2e::read_file((e.path() / "refused.txt").string());
      while (!expected.empty() && expected.back() == '\n') expected.pop_back();
      EXPECT_FALSE(a.ok) << e.path().filename() << ": we built a tree with a field we refuse";
      EXPECT_NE(a.error.find(expected), std::string::npos) << e.path().filename() << ": " << a.error;
      EXPECT_TRUE(theirs(tree.string()).ok) << e.path().filename() << ": kustomize refuses it too";
      continue;
    }
    auto b = theirs(tree.string());
    std::string diff = compare(a, b);
    EXPECT_EQ(diff, "") << e.path().filename() << ":\n" << diff;
    if (!diff.empty()) continue;
    (a.ok ? built : failed_both)++;
    objects += a.objects.size();
  }

  for (unsigned seed = 1; seed <= 120; ++seed) {
    ++trees;
    Files files = e2e::kustomize_tree(seed);
    e2e::TempDir dir("kustomize-diff");
    for (const auto& [path, text] : files) dir.write(path, text);
    auto a = ours(files);
    auto b = theirs(dir.path().string());
    std::string diff = compare(a, b);
    EXPECT_EQ(diff, "") << "seed " << seed << ":\n" << diff;
    if (!diff.empty()) {
      for (const auto& [path, text] : files) std::cout << "---- " << path << "\n" << text << "\n";
      continue;
    }
    if (!a.ok) std::cout << "[kustomize] seed " << seed << " refused by both:\n  ours:      " << a.error << "\n  kustomize: " << b.error;
    (a.ok ? built : failed_both)++;
    objects += a.objects.size();
  }
  std::cout << "[kustomize] " << trees << " trees, " << built << " built alike (" << objects << " objects), " << failed_both
            << " refused by both\n";
  EXPECT_GE(trees, 100u);
  EXPECT_GT(built, 90u);
}

}  // namespace
}  // namespace capstan::gitops
