// Which API server an end-to-end test runs against. Every e2e test is parameterised by it:
//
//   class KubectlE2E : public KubectlFixture { ... };      // a TestWithParam<Backend>
//   TEST_P(KubectlE2E, ...) { ... }
//   CAPSTAN_E2E_BACKENDS(KubectlE2E);
//
// gives KubectlE2E.X/embedded and KubectlE2E.X/kube. $CAPSTAN_E2E_BACKEND (embedded, kube or
// both; default both) narrows the set for local work; `make test` runs both.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace capstan::e2e {

enum class Backend {
  Embedded,  // `capstan apiserver`
  Kube,      // etcd + kube-apiserver (+ kube-controller-manager's GC, namespace and service-account loops)
};

std::string to_string(Backend b);
// The backends $CAPSTAN_E2E_BACKEND selects (both by default); an unknown value throws.
std::vector<Backend> selected_backends();
// gtest's parameter name: "embedded" / "kube".
std::string backend_param_name(const ::testing::TestParamInfo<Backend>& info);

}  // namespace capstan::e2e

// Instantiates a TestWithParam<Backend> fixture for every selected backend. A fixture none
// of whose backends is selected is not an error.
#define CAPSTAN_E2E_BACKENDS(Fixture)                                                                             \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Fixture);                                                         \
  INSTANTIATE_TEST_SUITE_P(, Fixture, ::testing::ValuesIn(::capstan::e2e::selected_backends()),                 \
                           ::capstan::e2e::backend_param_name)
