// The generated manifests in the repository (config/crd, config/rbac/role.yaml,
// config/webhook/manifests.yaml, charts/capstan/templates/crds and templates/_generated.tpl) are what `capstan manifests` writes
// today: regenerate with `make manifests` when an API changes.
#include "testing/kubectl.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace capstan::e2e {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  if (!fs::exists(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Manifests, GeneratedFilesInTheRepositoryAreUpToDate) {
  TempDir dir("manifests");
  auto r = run({capstan_bin(), "manifests", dir.file("config"), "--chart", dir.file("chart")});
  ASSERT_EQ(r.code, 0) << r.err;
  fs::path src = source_dir();
  struct Tree {
    fs::path generated, committed;
  };
  for (const auto& t : {Tree{dir.file("config") + "/crd", src / "config/crd"}, Tree{dir.file("chart") + "/templates/crds", src / "charts/capstan/templates/crds"}}) {
    auto want = files_under(t.generated);
    auto have = files_under(t.committed);
    EXPECT_EQ(have, want) << "run `make manifests`: the files under " << t.committed << " differ from what capstan generates";
    for (const auto& f : want) {
      EXPECT_EQ(read_file((t.committed / f).string()), read_file((t.generated / f).string())) << f << " is stale: run `make manifests`";
    }
  }
  EXPECT_EQ(read_file((src / "charts/capstan/templates/_generated.tpl").string()), read_file(dir.file("chart") + "/templates/_generated.tpl"))
      << "charts/capstan/templates/_generated.tpl is stale: run `make manifests`";
  for (const auto* f : {"rbac/role.yaml", "webhook/manifests.yaml"}) {
    EXPECT_EQ(read_file((src / "config" / f).string()), read_file(dir.file("config") + "/" + f)) << f << " is stale: run `make manifests`";
  }
  // `capstan crds` prints the same CRDs, but for where a conversion webhook is reached (the
  // kustomize Service and its CA injection there, a release named capstan here).
  auto crds = run({capstan_bin(), "crds"});
  ASSERT_EQ(crds.code, 0);
  std::map<std::string, json::Value> printed;
  for (auto& crd : json::from_yaml_documents(crds.out, "capstan crds")) printed[std::string(meta::name_of(crd))] = std::move(crd);
  auto without_conversion_target = [](json::Value crd) {
    if (auto* cc = json::find(crd, {"spec", "conversion", "webhook"})) cc->as_object().erase("clientConfig");
    crd.as_object()["metadata"].as_object().erase("annotations");
    if (auto* labels = json::find(crd, {"metadata", "labels"})) labels->as_object().erase("capstan.dev/inject-ca");
    return crd;
  };
  for (const auto& f : files_under(dir.file("config") + "/crd/bases")) {
    if (f == "kustomization.yaml") continue;
    json::Value base = json::from_yaml_documents(read_file(dir.file("config") + "/crd/bases/" + f), f).at(0);
    auto it = printed.find(std::string(meta::name_of(base)));
    ASSERT_NE(it, printed.end()) << f << " is not printed by `capstan crds`";
    EXPECT_EQ(without_conversion_target(it->second), without_conversion_target(base)) << f;
  }
}

// config/default moved to another namespace (its `namespace:` edited) takes every reference to
// the manager's namespace along: the one each webhook leaves out, the Secret the CA is injected
// from, and the Service a conversion webhook calls (named with the prefix).
TEST(Manifests, ConfigDefaultFollowsItsNamespace) {
  TempDir dir("kustomize-namespace");
  fs::copy(fs::path(source_dir()) / "config", dir.file("config"), fs::copy_options::recursive);
  const std::string k = dir.file("config/default/kustomization.yaml");
  std::string text = read_file(k);
  ASSERT_NE(text.find("namespace: capstan-system\n"), std::string::npos);
  text.replace(text.find("namespace: capstan-system\n"), 26, "namespace: platform\n");
  std::ofstream(k, std::ios::trunc) << text;
  Kubectl kubectl(dir, dir.file("no-kubeconfig"));
  int selectors = 0, injections = 0, conversions = 0;
  for (const auto& doc : json::from_yaml_documents(kubectl.ok({"kustomize", dir.file("config/default")}), "kustomize")) {
    SCOPED_TRACE(std::string(json::get_string(doc, {"kind"})) + "/" + std::string(meta::name_of(doc)));
    if (const auto* hooks = json::get_array(doc, {"webhooks"}))
      for (const auto& h : *hooks) {
        EXPECT_EQ(json::serialize(*json::find(h, {"namespaceSelector", "matchExpressions"})),
                  R"([{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["platform"]}])");
        ++selectors;
      }
    std::string from(json::get_string(doc, {"metadata", "annotations", "capstan.dev/inject-ca-from-secret"}));
    if (!from.empty()) {
      EXPECT_EQ(from, "platform/capstan-webhook-server-cert");
      ++injections;
    }
    if (const auto* svc = json::find(doc, {"spec", "conversion", "webhook", "clientConfig", "service"})) {
      EXPECT_EQ(json::get_string(*svc, {"name"}), "capstan-webhook-service");
      EXPECT_EQ(json::get_string(*svc, {"namespace"}), "platform");
      ++conversions;
    }
  }
  EXPECT_GT(selectors, 10);
  EXPECT_GT(injections, 4);
  EXPECT_GE(conversions, 1);
}

}  // namespace
}  // namespace capstan::e2e
