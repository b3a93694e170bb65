// Durability: every write kubectl saw acknowledged is there after the API server is killed
// with SIGKILL (no shutdown path at all) and started again on the same storage (`capstan
// apiserver --data-dir`, or kube-apiserver over its etcd), and resourceVersions keep growing
// across the restart.
#include "testing/kubectl.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <set>

namespace capstan::e2e {
namespace {

const std::string kList = "/api/v1/namespaces/default/configmaps";

std::int64_t rv_of(const json::Value& obj) {
  return std::stoll(std::string(json::get_string(obj, {"metadata", "resourceVersion"}, "-1")));
}

// name -> object, from a raw LIST.
std::map<std::string, json::Value> by_name(const json::Value& list) {
  std::map<std::string, json::Value> out;
  if (const auto* items = json::get_array(list, {"items"}))
    for (const auto& i : *items) out.emplace(std::string(json::get_string(i, {"metadata", "name"})), i);
  return out;
}

class DurabilityE2E : public ::testing::TestWithParam<Backend> {};

TEST_P(DurabilityE2E, AcknowledgedWritesSurviveSigkillAndResourceVersionsKeepGrowing) {
  TempDir dir("durability-" + to_string(GetParam()));
  ClusterOptions o;
  o.data_dir = dir.file("data");
  auto cluster = make_cluster(GetParam(), dir, o);
  auto& server = *cluster;
  server.start();
  Kubectl k(dir, server.kubeconfig());

  // 40 creates in one kubectl run; each printed line is one acknowledged POST.
  std::string docs;
  for (int i = 0; i < 40; ++i)
    docs += "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-" + std::to_string(i) + ", labels: {batch: b}}\ndata: {i: \"" +
            std::to_string(i) + "\"}\n";
  auto created = k.ok({"create", "-f", "-", "-o", "name"}, docs);
  EXPECT_EQ(std::count(created.begin(), created.end(), '\n'), 40) << created;
  auto labeled = k.ok({"label", "cm", "-l", "batch=b", "gen=2"});
  EXPECT_EQ(std::count(labeled.begin(), labeled.end(), '\n'), 40) << labeled;
  EXPECT_EQ(k.ok({"delete", "cm", "cm-0", "cm-1", "cm-2", "cm-3", "cm-4"}),
            "configmap \"cm-0\" deleted\nconfigmap \"cm-1\" deleted\nconfigmap \"cm-2\" deleted\nconfigmap \"cm-3\" deleted\n"
            "configmap \"cm-4\" deleted\n");
  auto before_list = json::parse(k.ok({"get", "--raw", kList + "?labelSelector=batch%3Db"}));
  auto before = by_name(before_list);
  ASSERT_EQ(before.size(), 35u);
  std::int64_t list_rv = rv_of(before_list);

  // The last acknowledged write, then SIGKILL straight away.
  std::int64_t patched_rv =
      std::stoll(k.ok({"patch", "cm", "cm-5", "--type=merge", "-p", R"({"data":{"i":"changed"}})", "-o", "jsonpath={.metadata.resourceVersion}"}));
  EXPECT_GT(patched_rv, list_rv);
  int old_pid = server.pid();
  server.kill_and_restart();
  EXPECT_NE(server.pid(), old_pid);
  EXPECT_NE(::kill(old_pid, 0), 0) << "the killed server is gone";

  auto after_list = json::parse(k.ok({"get", "--raw", kList + "?labelSelector=batch%3Db"}));
  auto after = by_name(after_list);
  std::set<std::string> before_names, after_names;
  for (const auto& [n, _] : before) before_names.insert(n);
  for (const auto& [n, _] : after) after_names.insert(n);
  EXPECT_EQ(after_names, before_names) << "the deleted ConfigMaps stay deleted, the others are all there";
  for (const auto& [name, obj] : after) {
    EXPECT_EQ(json::get_string(obj, {"metadata", "labels", "gen"}), "2") << name;
    if (name == "cm-5") {
      EXPECT_EQ(json::get_string(obj, {"data", "i"}), "changed");
      EXPECT_EQ(rv_of(obj), patched_rv);
    } else {
      EXPECT_EQ(json::get_string(obj, {"data", "i"}), name.substr(3)) << name;
      EXPECT_EQ(rv_of(obj), rv_of(before.at(name))) << name;
    }
  }
  EXPECT_GE(rv_of(after_list), patched_rv);
  for (auto gone : {"cm-0", "cm-4"}) EXPECT_EQ(k({"get", "cm", gone}).code, 1) << gone;

  // A new write is ordered after every acknowledged one.
  std::int64_t new_rv = std::stoll(k.ok({"create", "cm", "after", "--from-literal=a=b", "-o", "jsonpath={.metadata.resourceVersion}"}));
  EXPECT_GT(new_rv, patched_rv);
  EXPECT_GT(new_rv, rv_of(after_list));
}

CAPSTAN_E2E_BACKENDS(DurabilityE2E);

}  // namespace
}  // namespace capstan::e2e
