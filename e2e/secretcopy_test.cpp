// The example controller (docs/architecture.md) as users run it, on both backends: a Secret
// labelled as a source is copied into the namespaces its selector picks, follows its source,
// reaches a namespace labelled later, leaves a namespace that stops matching, never overwrites
// a Secret that is not a copy, and its copies go with it.
#include "testing/controller_fixture.h"
#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kSetup = R"(apiVersion: v1
kind: Namespace
metadata: {name: certs}
---
apiVersion: v1
kind: Namespace
metadata: {name: web-a, labels: {team: web}}
---
apiVersion: v1
kind: Namespace
metadata: {name: web-b, labels: {team: web}}
---
apiVersion: v1
kind: Namespace
metadata: {name: db}
---
apiVersion: v1
kind: Secret
metadata: {name: shared-tls, namespace: web-b}
type: kubernetes.io/tls
stringData: {tls.crt: theirs, tls.key: theirs}
---
apiVersion: v1
kind: Secret
metadata:
  name: shared-tls
  namespace: certs
  labels: {secretcopy.capstan.dev/source: "true"}
  annotations: {secretcopy.capstan.dev/namespace-selector: team=web}
type: kubernetes.io/tls
stringData: {tls.crt: cert-1, tls.key: key-1}
)";

class SecretCopyE2E : public ControllerFixture {
 protected:
  SecretCopyE2E() : ControllerFixture({"secretcopy", false, "secrets,namespaces,events"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=secretcopy"}; }

  // The decoded tls.crt of shared-tls in `ns` ("" when there is none).
  std::string cert(const std::string& ns) {
    std::string b64 = get({"get", "secret", "shared-tls", "-n", ns, "--ignore-not-found", "-o", "jsonpath={.data.tls\\.crt}"});
    return meta::base64_decode(b64).value_or("(not base64: " + b64 + ")");
  }
};

TEST_P(SecretCopyE2E, CopiesFollowTheSourceIntoSelectedNamespacesOnly) {
  kubectl_->ok({"apply", "-f", "-"}, kSetup);
  ASSERT_TRUE(eventually([&] { return cert("web-a") == "cert-1"; }, 30s)) << manager_->logs();
  EXPECT_EQ(get({"get", "secret", "shared-tls", "-n", "web-a", "-o", "jsonpath={.type} {.metadata.annotations.secretcopy\\.capstan\\.dev/source}"}),
            "kubernetes.io/tls certs/shared-tls");
  EXPECT_EQ(cert("db"), "") << "db is not selected";
  // web-b holds a Secret of its own by that name: left alone, and the source's owner is told.
  EXPECT_TRUE(eventually([&] {
    return get({"get", "events", "-n", "certs", "--field-selector", "reason=NotCopied", "-o", "name"}) != "";
  }, 30s));
  EXPECT_EQ(cert("web-b"), "theirs");

  // The source changes: the copy follows. A copy deleted by hand comes back.
  kubectl_->ok({"patch", "secret", "shared-tls", "-n", "certs", "--type=merge", "-p", R"({"stringData":{"tls.crt":"cert-2"}})"});
  EXPECT_TRUE(eventually([&] { return cert("web-a") == "cert-2"; }, 30s));
  kubectl_->ok({"delete", "secret", "shared-tls", "-n", "web-a"});
  EXPECT_TRUE(eventually([&] { return cert("web-a") == "cert-2"; }, 30s));

  // A namespace labelled later gets a copy; one that stops matching loses it.
  kubectl_->ok({"label", "namespace", "db", "team=web"});
  EXPECT_TRUE(eventually([&] { return cert("db") == "cert-2"; }, 30s));
  kubectl_->ok({"label", "namespace", "web-a", "team-"});
  EXPECT_TRUE(eventually([&] { return cert("web-a") == ""; }, 30s));

  // The source goes: so do its copies, and only they.
  kubectl_->ok({"delete", "secret", "shared-tls", "-n", "certs"});
  EXPECT_TRUE(eventually([&] { return cert("db") == ""; }, 30s));
  EXPECT_EQ(cert("web-b"), "theirs");
}

CAPSTAN_E2E_BACKENDS(SecretCopyE2E);

}  // namespace
}  // namespace capstan::e2e
