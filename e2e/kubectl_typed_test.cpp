// The real kubectl against built-in kinds' field schemas: unknown fields refused, warned about or
// dropped per --validate, wrong JSON types refused with Go's wording, and `kubectl explain` over the
// OpenAPI v3 and v2 documents.
#include "testing/kubectl.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <regex>

namespace capstan::e2e {
namespace {

const char* kBogusDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  bogusTop: 1
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: app, image: "nginx:1.25", bogus: 1}
)";

class KubectlTypedE2E : public KubectlFixture {
 protected:
  KubectlTypedE2E() : KubectlFixture("kubectl-typed") {}
};

TEST_P(KubectlTypedE2E, ApplyWithUnknownFieldsIsRefusedWithTheStrictDecodingError) {
  auto r = k()({"apply", "-f", "-"}, kBogusDeployment);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled "
            "as a Deployment: strict decoding error: unknown field \"metadata.bogusTop\", unknown field "
            "\"spec.template.spec.containers[0].bogus\"\n");
  EXPECT_EQ(k()({"get", "deploy", "web"}).code, 1) << "nothing was stored";
}

TEST_P(KubectlTypedE2E, ValidateFalseStoresTheObjectWithoutTheUnknownFields) {
  auto out = k().ok({"apply", "--validate=false", "-f", "-"}, kBogusDeployment);
  EXPECT_EQ(out, "deployment.apps/web created\n");
  auto obj = json::parse(k().ok({"get", "deploy", "web", "-o", "json"}));
  EXPECT_EQ(json::find(obj, {"metadata", "bogusTop"}), nullptr);
  const auto& c = json::get_array(obj, {"spec", "template", "spec", "containers"})->at(0);
  EXPECT_EQ(json::find(c, {"bogus"}), nullptr);
  EXPECT_EQ(json::get_string(c, {"image"}), "nginx:1.25");
}

TEST_P(KubectlTypedE2E, ValidateWarnPrintsTheUnknownFieldsAndStoresWithoutThem) {
  auto r = k()({"apply", "--validate=warn", "-f", "-"}, kBogusDeployment);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("Warning: unknown field \"metadata.bogusTop\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Warning: unknown field \"spec.template.spec.containers[0].bogus\""), std::string::npos) << r.err;
  auto obj = json::parse(k().ok({"get", "deploy", "web", "-o", "json"}));
  EXPECT_EQ(json::find(obj, {"metadata", "bogusTop"}), nullptr);
}

TEST_P(KubectlTypedE2E, ServerSideApplyWithAnUnknownFieldFailsToCreateTheTypedPatchObject) {
  auto r = k()({"apply", "--server-side", "-f", "-"}, kBogusDeployment);
  EXPECT_EQ(r.code, 1);
  // kube-apiserver walks the applied object's maps in Go's random map order, so the two
  // errors come in either order.
  EXPECT_NE(r.err.find("failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n  .metadata.bogusTop: field not declared in schema"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  .spec.template.spec.containers[name=\"app\"].bogus: field not declared in schema"), std::string::npos)
      << r.err;
  EXPECT_EQ(k()({"get", "deploy", "web"}).code, 1) << "nothing was stored";
}

TEST_P(KubectlTypedE2E, MergePatchesWithWrongTypesAreRefusedWithGoWording) {
  std::string valid = std::regex_replace(std::regex_replace(kBogusDeployment, std::regex("  bogusTop: 1\n"), ""),
                                         std::regex(", bogus: 1"), "");
  k().ok({"apply", "-f", "-"}, valid);
  auto r = k()({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":"x"}})"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(std::regex_search(r.err, std::regex("^The request is invalid: patch: Invalid value: \"\\{.*\\\\\"replicas\\\\\":\\\\\"x\\\\\".*\\}\": "
                                                  "json: cannot unmarshal string into Go struct field DeploymentSpec\\.spec\\.replicas "
                                                  "of type int32\n$")))
      << r.err;
  auto labels = k()({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"template":{"metadata":{"labels":{"app":true}}}}})"});
  EXPECT_EQ(labels.code, 1);
  EXPECT_NE(labels.err.find("json: cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.labels of type string"),
            std::string::npos)
      << labels.err;
  // Nothing was stored: describe still reads the Deployment.
  auto d = k().ok({"describe", "deploy", "web"});
  EXPECT_TRUE(std::regex_search(d, std::regex("Replicas:\\s+1 desired"))) << d;
}

TEST_P(KubectlTypedE2E, ExplainPrintsBuiltInFieldsFromOpenApiV3) {
  auto s = k().ok({"explain", "deploy.spec.strategy"});
  EXPECT_NE(s.find("KIND:       Deployment"), std::string::npos) << s;
  EXPECT_NE(s.find("FIELD: strategy <DeploymentStrategy>"), std::string::npos) << s;
  EXPECT_TRUE(std::regex_search(s, std::regex("rollingUpdate\\s+<RollingUpdateDeployment>"))) << s;
  EXPECT_TRUE(std::regex_search(s, std::regex("\\n  type\\s+<string>"))) << s;
  auto ru = k().ok({"explain", "deploy.spec.strategy.rollingUpdate"});
  EXPECT_TRUE(std::regex_search(ru, std::regex("maxSurge\\s+<IntOrString>"))) << ru;
  auto c = k().ok({"explain", "pods.spec.containers"});
  EXPECT_NE(c.find("FIELD: containers <[]Container>"), std::string::npos) << c;
  EXPECT_TRUE(std::regex_search(c, std::regex("image\\s+<string>"))) << c;
  EXPECT_TRUE(std::regex_search(c, std::regex("ports\\s+<\\[\\]ContainerPort>"))) << c;
  EXPECT_TRUE(std::regex_search(c, std::regex("resources\\s+<ResourceRequirements>"))) << c;
}

TEST_P(KubectlTypedE2E, ExplainPrintsBuiltInFieldsFromOpenApiV2) {
  auto s = k().ok({"explain", "deploy.spec.strategy", "--output=plaintext-openapiv2"});
  EXPECT_NE(s.find("KIND:     Deployment"), std::string::npos) << s;
  EXPECT_TRUE(std::regex_search(s, std::regex("rollingUpdate\\s+<Object>"))) << s;
  EXPECT_TRUE(std::regex_search(s, std::regex("type\\s+<string>"))) << s;
}

CAPSTAN_E2E_BACKENDS(KubectlTypedE2E);

}  // namespace
}  // namespace capstan::e2e
