// The kustomize build: Capstan's in-process build against the real kustomize (`kubectl kustomize`,
// kustomize v5 inside Debian's kubectl) on the trees of the differential test, and on one large
// tree (2,000 objects in 20 directories, the size of issue 18's GitOps benchmark).
//
// Usage: kustomize_bench [ROUNDS]. Capstan builds each tree ROUNDS times in this process (its
// per-build figure is the mean); kubectl runs once per tree, its time including its start-up,
// which is what a controller that shells out to kustomize pays per build.
#include "controllers/gitops/manifests.h"
#include "testing/kustomize_trees.h"
#include "testing/process.h"
#include "testing/temp_dir.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

namespace {

using namespace capstan;
using Clock = std::chrono::steady_clock;
using Files = std::map<std::string, std::string>;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// 20 directories of 100 objects each (Deployments, Services, ConfigMaps), one generator each,
// all under one kustomization with a namespace, a prefix and common labels.
Files large_tree() {
  Files files;
  std::string root = "namespace: shop\nnamePrefix: big-\ncommonLabels: {app.kubernetes.io/part-of: shop}\nresources:\n";
  for (int d = 0; d < 20; ++d) {
    const std::string dir = "team" + std::to_string(d);
    root += "- " + dir + "\n";
    std::string docs;
    for (int i = 0; i < 33; ++i) {
      const std::string n = "svc" + std::to_string(i);
      docs += "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + n + "}\nspec:\n  selector: {matchLabels: {app: " + n +
              "}}\n  template:\n    metadata: {labels: {app: " + n + "}}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n"
              "        envFrom: [{configMapRef: {name: settings}}]\n";
      docs += "---\napiVersion: v1\nkind: Service\nmetadata: {name: " + n + "}\nspec: {selector: {app: " + n + "}, ports: [{port: 80}]}\n";
      docs += "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + n + "-conf}\ndata: {level: info}\n";
    }
    files[dir + "/objects.yaml"] = docs;
    files[dir + "/kustomization.yaml"] = "resources: [objects.yaml]\nnameSuffix: \"-" + std::to_string(d) +
                                         "\"\nconfigMapGenerator:\n- name: settings\n  literals: [TEAM=" + dir + "]\n";
  }
  files["kustomization.yaml"] = root;
  return files;
}

struct Figures {
  std::size_t objects = 0;
  double ours_ms = 0, theirs_ms = 0;
  bool theirs_ok = true;
  std::string error, theirs_error;
};

Figures measure(const Files& files, int rounds) {
  Figures f;
  auto t = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    try {
      f.objects = gitops::build_manifests(files, {}).size();
    } catch (const gitops::BuildError& e) {
      f.objects = 0;
      f.error = e.what();
    }
  }
  f.ours_ms = ms_since(t) / rounds;
  e2e::TempDir dir("kustomize-bench");
  for (const auto& [path, text] : files) dir.write(path, text);
  t = Clock::now();
  auto r = e2e::run({"kubectl", "kustomize", dir.path().string()}, {}, {}, std::chrono::seconds(120));
  f.theirs_ms = ms_since(t);
  f.theirs_ok = r.code == 0;
  if (!f.theirs_ok) f.theirs_error = r.err;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  if (e2e::run({"sh", "-c", "command -v kubectl"}).code != 0) {
    std::cerr << "kubectl is not installed (scripts/deps.sh installs it)\n";
    return 1;
  }
  Figures corpus;
  std::size_t trees = 0;
  for (unsigned seed = 1; seed <= 120; ++seed) {
    auto f = measure(e2e::kustomize_tree(seed), rounds);
    if (!f.theirs_ok || f.objects == 0) continue;  // the trees both refuse
    ++trees;
    corpus.objects += f.objects;
    corpus.ours_ms += f.ours_ms;
    corpus.theirs_ms += f.theirs_ms;
  }
  auto large = measure(large_tree(), std::max(1, rounds / 5));
  if (large.objects == 0 || !large.theirs_ok) {
    std::cerr << "the large tree did not build: " << large.error << " / kubectl: " << large.theirs_error << "\n";
    return 1;
  }
  std::printf("%-44s %10s %14s %18s %8s\n", "trees", "objects", "capstan ms", "kubectl kustomize", "ratio");
  std::printf("%-44s %10zu %14.2f %18.1f %7.0fx\n", ("differential corpus (" + std::to_string(trees) + " trees, sum)").c_str(), corpus.objects,
              corpus.ours_ms, corpus.theirs_ms, corpus.theirs_ms / corpus.ours_ms);
  std::printf("%-44s %10zu %14.2f %18.1f %7.0fx\n", "one tree of 20 directories", large.objects, large.ours_ms, large.theirs_ms,
              large.theirs_ms / large.ours_ms);
  std::printf("(capstan: mean of %d in-process builds per tree; kubectl: one run per tree, start-up included)\n", rounds);
  return 0;
}
