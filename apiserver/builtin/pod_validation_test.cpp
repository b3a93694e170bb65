#include "apiserver/builtin/pod_validation.h"
#include "apiserver/builtin/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::builtin {
namespace {

using testing::create_errors;
using testing::Errors;
using testing::kLabelMsg;


// A workload of `kind` whose pod template spec is `pod_spec` (flow-style YAML).
std::string workload(const std::string& pod_spec) {
  return "metadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
         "    spec: " + pod_spec + "\n";
}

TEST(PodValidation, APodNeedsContainers) {
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec: {containers: []}"), Errors{"spec.containers: Required value"});
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec: {}"), Errors{"spec.containers: Required value"});
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec: {containers: [{name: app, image: nginx}]}"), Errors{});
}

TEST(PodValidation, EveryWorkloadTemplateButStatefulSetsNeedsContainers) {
  for (auto gr : {"deployments.apps", "replicasets.apps", "daemonsets.apps"})
    EXPECT_EQ(create_errors(gr, workload("{containers: []}")), Errors{"spec.template.spec.containers: Required value"}) << gr;
  EXPECT_EQ(create_errors("jobs.batch", workload("{restartPolicy: Never, containers: []}")),
            Errors{"spec.template.spec.containers: Required value"});
  // ValidateStatefulSetSpec checks the template's labels and annotations, not its pod spec.
  EXPECT_EQ(create_errors("statefulsets.apps", workload("{containers: []}")), Errors{});
}

TEST(PodValidation, ContainerNamesImagesAndDuplicates) {
  EXPECT_EQ(create_errors("deployments.apps",
                          workload("{containers: [{name: C_1, image: nginx}, {name: side}, {name: side, image: busybox}, {image: x}]}")),
            (Errors{"spec.template.spec.containers[0].name: Invalid value: \"C_1\": " + kLabelMsg,
                    "spec.template.spec.containers[1].image: Required value",
                    "spec.template.spec.containers[2].name: Duplicate value: \"side\"",
                    "spec.template.spec.containers[3].name: Required value"}));
  // Init containers may not reuse a container's name.
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec: {containers: [{name: a, image: x}], initContainers: [{name: a, image: y}]}"),
            Errors{"spec.initContainers[0].name: Duplicate value: \"a\""});
}

TEST(PodValidation, ContainerPorts) {
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: x\n    ports:\n"
                                  "    - {containerPort: 0}\n    - {containerPort: 70000, name: http}\n"
                                  "    - {containerPort: 80, name: http, protocol: HTTP}\n    - {containerPort: 81, name: \"8080\"}"),
            (Errors{"spec.containers[0].ports[0].containerPort: Required value",
                    "spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                    "spec.containers[0].ports[2].name: Duplicate value: \"http\"",
                    "spec.containers[0].ports[2].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                    "spec.containers[0].ports[3].name: Invalid value: \"8080\": must contain at least one letter (a-z)"}));
}

TEST(PodValidation, PoliciesAndServiceAccount) {
  EXPECT_EQ(create_errors("pods", "metadata: {name: p}\nspec: {restartPolicy: Sometimes, dnsPolicy: Any, serviceAccountName: Bad_SA, "
                                  "containers: [{name: a, image: x, imagePullPolicy: Maybe}]}"),
            (Errors{"spec.containers[0].imagePullPolicy: Unsupported value: \"Maybe\": supported values: \"Always\", "
                    "\"IfNotPresent\", \"Never\"",
                    "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                    "spec.dnsPolicy: Unsupported value: \"Any\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", "
                    "\"Default\", \"None\"",
                    "spec.serviceAccountName: Invalid value: \"Bad_SA\": a lowercase RFC 1123 subdomain must consist of lower case "
                    "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
                    "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}));
}

TEST(PodValidation, LongRunningWorkloadsRestartAlways) {
  EXPECT_EQ(create_errors("deployments.apps", workload("{restartPolicy: Never, activeDeadlineSeconds: 5, containers: [{name: a, image: x}]}")),
            (Errors{"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
                    "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"}));
  EXPECT_EQ(create_errors("jobs.batch", workload("{containers: [{name: a, image: x}]}")),
            Errors{"spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""});
}

TEST(PodValidation, TemplateLabelsAreReportedAtTheTemplatePath) {
  EXPECT_EQ(create_errors("daemonsets.apps",
                          "metadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n"
                          "    metadata: {labels: {app: d, \"x y\": z}}\n    spec: {containers: [{name: a, image: x}]}"),
            Errors{"spec.template.labels: Invalid value: \"x y\": name part must consist of alphanumeric characters, '-', '_' "
                   "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                   "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
}

}  // namespace
}  // namespace capstan::apiserver::builtin
