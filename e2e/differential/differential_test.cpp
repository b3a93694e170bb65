// The differential suite: every case of cases_*.cpp sent to the embedded API server and to
// kube-apiserver (each fresh, started for this run), the answers compared after masking what
// legitimately differs. Prints how many comparisons were made and every divergence; fails on
// a divergence that is not on the documented allowlist (allowlist.cpp) and on a case that
// could not run.
#include "e2e/differential/allowlist.h"
#include "e2e/differential/session.h"
#include "testing/cluster.h"

#include <gtest/gtest.h>

#include <iostream>
#include <set>

namespace capstan::e2e::diff {
namespace {

TEST(Differential, TheEmbeddedServerAnswersAsKubeApiserverDoes) {
  auto backends = selected_backends();
  if (backends.size() < 2) GTEST_SKIP() << "the differential suite needs both backends (CAPSTAN_E2E_BACKEND=both)";
  TempDir embedded_dir("diff-embedded"), kube_dir("diff-kube"), work("diff");
  auto embedded = make_cluster(Backend::Embedded, embedded_dir);
  ClusterOptions kube_options;
  kube_options.uncached_resources = {"podtemplates"};  // see watch/AResourceVersionOlderThanTheHistoryIsGone
  auto kube = make_cluster(Backend::Kube, kube_dir, kube_options);
  embedded->start();
  kube->start();
  Target e("embedded", embedded->kubeconfig()), k("kube", kube->kubeconfig());
  Session s(e, k, work);
  s.set_compactor([&] {
    embedded->compact();
    kube->compact();
  });

  const char* only = std::getenv("CAPSTAN_DIFF_CASES");  // a regex over "group/case", for local work
  std::size_t ran = 0;
  for (const auto& c : cases()) {
    std::string id = c.group + "/" + c.name;
    if (only && !std::regex_search(id, std::regex(only))) continue;
    ++ran;
    try {
      s.begin(c.group, c.name);
      c.fn(s);
    } catch (const std::exception& ex) {
      s.fail(ex.what());
    }
  }

  std::size_t compared = 0, diverged = 0, allowed = 0, failed = 0;
  std::set<std::string> reasons;
  std::ostringstream report;
  for (const auto& r : s.results()) {
    if (!r.error.empty()) {
      ++failed;
      report << "CASE FAILED " << r.id << ": " << r.error << "\n";
      continue;
    }
    ++compared;
    if (r.differences.empty()) continue;
    ++diverged;
    if (!r.allowed_because.empty()) {
      ++allowed;
      reasons.insert(r.allowed_because);
      report << "allowlisted " << r.id << " (" << r.allowed_because << ")\n";
    } else {
      report << "DIVERGES " << r.id << " [embedded " << r.embedded_status << ", kube " << r.kube_status << "]\n";
    }
    for (const auto& d : r.differences) report << "    " << d << "\n";
  }
  std::cout << report.str();
  // The answers of every divergence in full, for whoever fixes them ($CAPSTAN_DIFF_REPORT=FILE).
  if (const char* path = std::getenv("CAPSTAN_DIFF_REPORT")) {
    std::ostringstream full;
    for (const auto& r : s.results())
      if (!r.differences.empty())
        full << "==== " << r.id << "\n---- embedded (" << r.embedded_status << ")\n" << r.embedded_body << "\n---- kube (" << r.kube_status
             << ")\n" << r.kube_body << "\n";
    write_file(path, full.str());
  }
  std::cout << "[differential] " << ran << " cases, " << compared << " comparisons, " << diverged << " diverged (" << allowed
            << " allowlisted, " << diverged - allowed << " not), " << failed << " cases failed to run" << std::endl;
  for (const auto& reason : reasons) std::cout << "[differential] allowlisted: " << reason << std::endl;
  EXPECT_EQ(diverged - allowed, 0u) << "divergences from kube-apiserver (listed above): fix the embedded server or allowlist them with a reason";
  EXPECT_EQ(failed, 0u) << "cases that could not run (listed above)";
}

}  // namespace
}  // namespace capstan::e2e::diff
