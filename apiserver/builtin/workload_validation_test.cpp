#include "apiserver/builtin/workload_validation.h"
#include "apiserver/builtin/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::builtin {
namespace {

using testing::create_errors;
using testing::Errors;
using testing::update_errors;

const char* kPod = "{containers: [{name: app, image: nginx}]}";

std::string deployment(const std::string& spec_extra, const std::string& selector, const std::string& labels) {
  return "metadata: {name: web}\nspec:\n" + spec_extra + (selector.empty() ? "" : "  selector: " + selector + "\n") +
         "  template:\n    metadata: {labels: " + labels + "}\n    spec: " + kPod + "\n";
}

TEST(WorkloadValidation, DeploymentSelectorMustMatchTemplateLabels) {
  EXPECT_EQ(create_errors("deployments.apps", deployment("", "{matchLabels: {app: web}}", "{app: api, tier: x}")),
            Errors{"spec.template.metadata.labels: Invalid value: {\"app\":\"api\",\"tier\":\"x\"}: "
                   "`selector` does not match template `labels`"});
  EXPECT_EQ(create_errors("deployments.apps", deployment("", "{matchLabels: {app: web}}", "{app: web, tier: x}")), Errors{});
  // No selector: required, and nothing matches the template.
  EXPECT_EQ(create_errors("deployments.apps", deployment("", "", "{app: web}")),
            (Errors{"spec.selector: Required value",
                    "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not "
                    "match template `labels`"}));
  EXPECT_EQ(create_errors("deployments.apps", deployment("", "{}", "{app: web}")),
            Errors{"spec.selector: Invalid value: {}: empty selector is invalid for deployment"});
}

TEST(WorkloadValidation, BadSelectorExpressionsAreReportedThenTheSelectorRejected) {
  EXPECT_EQ(create_errors("deployments.apps",
                          deployment("", "{matchExpressions: [{key: app, operator: Near, values: [web]}]}", "{app: web}")),
            (Errors{"spec.selector.matchExpressions[0].operator: Invalid value: \"Near\": not a valid selector operator",
                    "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Near\",\"values\":[\"web\"]}]}: "
                    "invalid label selector"}));
  EXPECT_EQ(create_errors("replicasets.apps", deployment("", "{matchExpressions: [{key: app, operator: In}]}", "{app: web}")),
            (Errors{"spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
                    "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\"}]}: invalid label selector"}));
}

TEST(WorkloadValidation, CountsAreNonNegative) {
  EXPECT_EQ(create_errors("deployments.apps", deployment("  replicas: -1\n  minReadySeconds: -2\n", "{matchLabels: {app: web}}",
                                                         "{app: web}")),
            (Errors{"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                    "spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0"}));
  EXPECT_EQ(create_errors("deployments.apps", deployment("  minReadySeconds: 600\n", "{matchLabels: {app: web}}", "{app: web}")),
            Errors{"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"});
  EXPECT_EQ(create_errors("statefulsets.apps", deployment("  replicas: -3\n", "{matchLabels: {app: web}}", "{app: web}")),
            Errors{"spec.replicas: Invalid value: -3: must be greater than or equal to 0"});
}

TEST(WorkloadValidation, DeploymentStrategy) {
  EXPECT_EQ(create_errors("deployments.apps", deployment("  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}\n",
                                                         "{matchLabels: {app: web}}", "{app: web}")),
            Errors{"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"});
  EXPECT_EQ(create_errors("deployments.apps", deployment("  strategy: {type: BlueGreen}\n", "{matchLabels: {app: web}}", "{app: web}")),
            Errors{"spec.strategy: Unsupported value: {\"Type\":\"BlueGreen\",\"RollingUpdate\":null}: supported values: \"Recreate\", "
                   "\"RollingUpdate\""});
}

TEST(WorkloadValidation, SelectorsAreImmutable) {
  auto before = deployment("", "{matchLabels: {app: web}}", "{app: web, v: a}");
  auto after = deployment("", "{matchLabels: {app: web, v: a}}", "{app: web, v: a}");
  for (auto gr : {"deployments.apps", "replicasets.apps", "daemonsets.apps"})
    EXPECT_EQ(update_errors(gr, before, after),
              Errors{"spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"v\":\"a\"}}: field is immutable"})
        << gr;
  // StatefulSets allow only some spec fields to change.
  EXPECT_EQ(update_errors("statefulsets.apps", before, after),
            Errors{"spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
                   "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"});
  auto scaled = deployment("  replicas: 5\n", "{matchLabels: {app: web}}", "{app: web, v: b}");
  EXPECT_EQ(update_errors("statefulsets.apps", before, scaled), Errors{});
}

TEST(WorkloadValidation, DaemonSetWithoutSelectorMatchesNothing) {
  EXPECT_EQ(create_errors("daemonsets.apps", deployment("", "", "{app: web}")),
            Errors{"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match "
                   "template `labels`"});
}

}  // namespace
}  // namespace capstan::apiserver::builtin
