// Field validation (Strict, Warn, Ignore), built-in validation errors with their causes, and
// the size limits: request bodies over 3 MiB and objects over their type's limits.
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";

}  // namespace

DIFF_CASE(validation, FieldValidationStrictWarnIgnore) {
  const std::string unknown = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME","labels":{"a":"b"}},"spec":{"x":1},"data":{"k":"v"}})";
  auto named = [&](const std::string& n) { return std::regex_replace(unknown, std::regex("NAME"), n); };
  Compare warning;
  warning.headers = {"Warning"};
  s.send("Strict refuses an unknown field", {.method = "POST", .path = kCms + "?fieldValidation=Strict", .body = named("strict")}, warning);
  s.send("Warn stores and warns", {.method = "POST", .path = kCms + "?fieldValidation=Warn", .body = named("warn")}, warning);
  s.send("Ignore stores silently", {.method = "POST", .path = kCms + "?fieldValidation=Ignore", .body = named("ignore")}, warning);
  s.send("the default is Warn", {.method = "POST", .path = kCms, .body = named("default")}, warning);
  s.send("a bad fieldValidation value", {.method = "POST", .path = kCms + "?fieldValidation=Loose", .body = named("bad")}, warning);
  s.send("Strict refuses a duplicate field",
         {.method = "POST", .path = kCms + "?fieldValidation=Strict",
          .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup"},"data":{"k":"v"}})"},
         warning);
  s.send("Strict on a merge patch", {.method = "PATCH", .path = kCms + "/warn?fieldValidation=Strict", .body = R"({"spec":{"y":2}})",
                                     .content_type = "application/merge-patch+json"},
         warning);
  s.send("a wrong type", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"},"data":{"k":1}})"});
}

DIFF_CASE(validation, BuiltInTypesReportEveryFieldError) {
  s.send("configmap key", {.method = "POST", .path = kCms,
                           .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"k"},"data":{"a b":"1","ok":"2"}})"});
  s.send("deployment", {.method = "POST", .path = "/apis/apps/v1/namespaces/{ns}/deployments",
                        .body = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"bad"},
                                   "spec":{"replicas":-1,"selector":{"matchLabels":{"app":"x"}},
                                   "template":{"metadata":{"labels":{"app":"y"}},"spec":{"containers":[]}}}})"});
  s.send("service", {.method = "POST", .path = "/api/v1/namespaces/{ns}/services",
                     .body = R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"svc"},"spec":{"ports":[{"port":70000}]}})"});
  s.send("secret type change", {.method = "POST", .path = "/api/v1/namespaces/{ns}/secrets",
                                .body = R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"tls"},"type":"kubernetes.io/tls","data":{}})"});
  s.send("label value too long", {.method = "POST", .path = kCms,
                                  .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"l","labels":{"a":")" +
                                          std::string(64, 'x') + R"("}}})"});
  s.send("namespace name", {.method = "POST", .path = "/api/v1/namespaces",
                            .body = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"UPPER"}})"});
}

DIFF_CASE(validation, SizeLimits) {
  // A request body over kube-apiserver's 3 MiB limit.
  std::string huge = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"k":")" + std::string(3 * 1024 * 1024 + 100, 'x') + "\"}}";
  s.send("a 3 MiB request body", {.method = "POST", .path = kCms, .body = huge});
  // A ConfigMap over its 1 MiB data limit (a body well under 3 MiB).
  std::string big = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":")" + std::string(1024 * 1024 + 100, 'x') + "\"}}";
  s.send("a ConfigMap over 1 MiB", {.method = "POST", .path = kCms, .body = big});
  std::string secret = R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"big"},"stringData":{"k":")" + std::string(1024 * 1024 + 100, 'x') + "\"}}";
  s.send("a Secret over 1 MiB", {.method = "POST", .path = "/api/v1/namespaces/{ns}/secrets", .body = secret});
  std::string annotations = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ann","annotations":{"a":")" + std::string(300 * 1024, 'x') + "\"}}}";
  s.send("annotations over 256 KiB", {.method = "POST", .path = kCms, .body = annotations});
  // A 1.75 MiB object of a type without a limit of its own: under the body limit, over etcd's
  // request limit (1.5 MiB), which kube-apiserver passes on. (Over 2 MiB its etcd client refuses
  // it with a message that counts the protobuf encoding's bytes.)
  std::string pod_template = R"({"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"big"},"template":{"spec":{"containers":[{"name":"c","image":"i","args":[")" +
                             std::string(1792 * 1024, 'x') + R"("]}]}}})";
  s.send("an object over etcd's 1.5 MiB", {.method = "POST", .path = "/api/v1/namespaces/{ns}/podtemplates", .body = pod_template});
}

// Admission webhook configurations, as charts and operators write them: the defaults filled in,
// and what kube-apiserver refuses in a webhook's name, rules, client config and policies.
DIFF_CASE(validation, WebhookConfigurationsAreDefaultedAndValidated) {
  const std::string vwc = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
  const std::string mwc = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";
  auto config = [](const std::string& kind, const std::string& name, const std::string& webhook) {
    return R"({"apiVersion":"admissionregistration.k8s.io/v1","kind":")" + kind + R"(","metadata":{"name":")" + name +
           R"("},"webhooks":[)" + webhook + "]}";
  };
  const std::string good =
      R"({"name":"good.diff.capstan.dev","clientConfig":{"url":"https://127.0.0.1:1/validate"},"sideEffects":"None",
         "admissionReviewVersions":["v1"],"rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["configmaps"]}]})";
  s.send("defaults of a validating webhook", {.method = "POST", .path = vwc + "?dryRun=All", .body = config("ValidatingWebhookConfiguration", "diff-vwc", good)});
  s.send("defaults of a mutating webhook", {.method = "POST", .path = mwc + "?dryRun=All", .body = config("MutatingWebhookConfiguration", "diff-mwc", good)});
  std::vector<std::pair<std::string, std::string>> bad = {
      {"a two-segment name", R"({"name":"two.segments","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"None","admissionReviewVersions":["v1"]})"},
      {"no sideEffects and no review versions", R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"}})"},
      {"unknown sideEffects, policies and versions",
       R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"Some","admissionReviewVersions":["v2"],
          "failurePolicy":"Sometimes","matchPolicy":"Loose","timeoutSeconds":31})"},
      {"both url and service", R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/","service":{"namespace":"x","name":"y"}},
          "sideEffects":"None","admissionReviewVersions":["v1"]})"},
      {"neither url nor service", R"({"name":"a.b.c","clientConfig":{},"sideEffects":"None","admissionReviewVersions":["v1"]})"},
      {"an http url with a query", R"({"name":"a.b.c","clientConfig":{"url":"http://u:p@127.0.0.1:1/x?y=1#z"},"sideEffects":"None","admissionReviewVersions":["v1"]})"},
      {"a service without name, bad path and port",
       R"({"name":"a.b.c","clientConfig":{"service":{"namespace":"x","path":"nope","port":70000}},"sideEffects":"None","admissionReviewVersions":["v1"]})"},
      {"a service without namespace, with empty path segments",
       R"({"name":"a.b.c","clientConfig":{"service":{"name":"y","path":"/a//B_c/"}},"sideEffects":"None","admissionReviewVersions":["v1","v1"]})"},
      {"wildcards with more",
       R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"None","admissionReviewVersions":["v1"],
          "rules":[{"operations":["*","CREATE"],"apiGroups":["*","apps"],"apiVersions":["*","v1"],"resources":["*","*/*"]},
                   {"operations":["PATCH"],"apiGroups":[],"apiVersions":[],"resources":[],"scope":"Somewhere"},
                   {"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["pods/*","pods/log","*/status","deployments/status","pods",""]}]})"},
      {"duplicate webhook names", R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"None","admissionReviewVersions":["v1"]},
          {"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"None","admissionReviewVersions":["v1"]})"},
  };
  for (const auto& [what, webhook] : bad) {
    s.send("validating: " + what, {.method = "POST", .path = vwc + "?dryRun=All", .body = config("ValidatingWebhookConfiguration", "diff-bad", webhook)});
  }
  s.send("mutating: unknown reinvocationPolicy",
         {.method = "POST", .path = mwc + "?dryRun=All",
          .body = config("MutatingWebhookConfiguration", "diff-bad",
                         R"({"name":"a.b.c","clientConfig":{"url":"https://127.0.0.1:1/"},"sideEffects":"None","admissionReviewVersions":["v1"],"reinvocationPolicy":"Always"})")});
}

}  // namespace capstan::e2e::diff
