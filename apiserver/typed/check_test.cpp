// The typed check of built-in kinds against the protobuf schema tables, worded as each of
// kube-apiserver's decoders words it.
#include "apiserver/patch/list_types.h"
#include "apiserver/typed/check.h"
#include "apiserver/typed/report.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::typed {
namespace {

json::Value parse(std::string_view s) { return json::parse(s); }

struct Result {
  json::Value obj;
  std::vector<Issue> issues;
};

Result run(std::string_view api_version, std::string_view kind, std::string_view body, Options o = {}) {
  Result r{parse(body), {}};
  const auto* m = kind_message(api_version, kind);
  EXPECT_NE(m, nullptr) << kind;
  r.issues = check(r.obj, *m, o);
  return r;
}

const char* kDeployment = R"({"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","bogusTop":1,"labels":{"app":"web"}},
  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"app","image":"nginx"},{"name":"side","image":"busybox","bogus":1}]}}}})";

TEST(TypedCheck, UnknownFieldsAtSeveralDepthsArePrunedAndReportedAsTheStrictDecoderPrintsThem) {
  auto r = run("apps/v1", "Deployment", kDeployment);
  EXPECT_EQ(go_json_error(r.issues), std::nullopt);
  EXPECT_EQ(unknown_fields(r.issues),
            (std::vector<std::string>{"metadata.bogusTop", "spec.template.spec.containers[1].bogus"}));
  EXPECT_EQ(json::find(r.obj, {"metadata", "bogusTop"}), nullptr);
  const auto& side = json::get_array(r.obj, {"spec", "template", "spec", "containers"})->at(1);
  EXPECT_EQ(json::serialize(side), R"({"name":"side","image":"busybox"})");
  EXPECT_EQ(json::get_string(r.obj, {"metadata", "name"}), "web") << "known fields stay";
}

TEST(TypedCheck, WithoutPruningTheObjectIsUntouched) {
  Options o;
  o.prune = false;
  auto r = run("apps/v1", "Deployment", kDeployment, o);
  EXPECT_EQ(unknown_fields(r.issues).size(), 2u);
  EXPECT_NE(json::find(r.obj, {"metadata", "bogusTop"}), nullptr);
}

TEST(TypedCheck, MapKeysAndInlinedFieldsInPaths) {
  // Volume inlines VolumeSource; ConfigMapVolumeSource inlines LocalObjectReference (name).
  auto r = run("v1", "Pod", R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{
    "containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}],
    "volumes":[{"name":"v","configMap":{"name":"cm","nope":true}}]}})");
  EXPECT_EQ(unknown_fields(r.issues), (std::vector<std::string>{"spec.volumes[0].configMap.nope"}));
  EXPECT_EQ(go_json_error(r.issues), std::nullopt);
}

TEST(TypedCheck, TypeErrorsUseEncodingJsonWording) {
  auto err = [](std::string_view body) {
    auto r = run("apps/v1", "Deployment", body);
    return go_json_error(r.issues).value_or("<none>");
  };
  EXPECT_EQ(err(R"({"spec":{"replicas":"x"}})"),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32");
  EXPECT_EQ(err(R"({"spec":{"replicas":1.5}})"),
            "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32");
  EXPECT_EQ(err(R"({"spec":{"replicas":3000000000}})"),
            "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32");
  EXPECT_EQ(err(R"({"spec":{"template":{"metadata":{"labels":{"app":true}}}}})"),
            "json: cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.labels of type string");
  EXPECT_EQ(err(R"({"spec":{"strategy":"Recreate"}})"),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.strategy of type v1.DeploymentStrategy");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":{"name":"x"}}}}})"),
            "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":["x"]}}}})"),
            "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container");
  EXPECT_EQ(err(R"({"spec":{"paused":"yes"}})"),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool");
  EXPECT_EQ(err(R"({"metadata":{"labels":["a"]}})"),
            "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","ports":[{"containerPort":"80"}]}]}}}})"),
            "json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":"1"}}]}}}})"),
            "json: cannot unmarshal string into Go struct field ResourceRequirements.spec.template.spec.containers.resources.limits of type v1.ResourceList");
  EXPECT_EQ(err(R"({"spec":{"replicas":null,"paused":null}})"), "<none>") << "null leaves the zero value";
}

TEST(TypedCheck, AnAbortingCustomUnmarshalerWinsOverAnEarlierSavedError) {
  auto r = run("apps/v1", "Deployment",
               R"({"spec":{"replicas":"x","strategy":{"rollingUpdate":{"maxSurge":true}}}})");
  EXPECT_EQ(go_json_error(r.issues),
            "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge "
            "of type int32");
}

TEST(TypedCheck, IntOrStringQuantityAndTimeAcceptTheirForms) {
  auto r = run("apps/v1", "Deployment", R"({"metadata":{"creationTimestamp":null},"spec":{
    "strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
    "template":{"metadata":{"creationTimestamp":"2024-05-01T10:00:00Z"},"spec":{"containers":[{"name":"c",
      "resources":{"limits":{"cpu":"500m","memory":"1Gi","x":2,"y":0.5,"z":"1e3","w":"+1.5E-2"}}}]}}}})");
  EXPECT_EQ(go_json_error(r.issues), std::nullopt);
  EXPECT_TRUE(unknown_fields(r.issues).empty());
}

TEST(TypedCheck, IntOrStringQuantityAndTimeRefuseOtherForms) {
  auto err = [](std::string_view body) {
    auto r = run("apps/v1", "Deployment", body);
    return go_json_error(r.issues).value_or("<none>");
  };
  EXPECT_EQ(err(R"({"spec":{"strategy":{"rollingUpdate":{"maxSurge":1.5}}}})"),
            "json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge "
            "of type int32");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"lots"}}}]}}}})"),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1Q"}}}]}}}})"),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1Mm"}}}]}}}})"),
            "unable to parse quantity's suffix");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":true}}}]}}}})"),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(err(R"({"metadata":{"creationTimestamp":5}})"),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string");
  EXPECT_EQ(err(R"({"metadata":{"creationTimestamp":"2024-05-01"}})"),
            "parsing time \"2024-05-01\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"T\"");
}

TEST(TypedCheck, BytesAreBase64) {
  auto r = run("v1", "Secret", R"({"data":{"a":"aGVsbG8=","b":"not base64!"}})");
  EXPECT_EQ(go_json_error(r.issues), "illegal base64 data at input byte 3");
  auto cm = run("v1", "ConfigMap", R"({"data":{"flag":true}})");
  EXPECT_EQ(go_json_error(cm.issues), "json: cannot unmarshal bool into Go struct field ConfigMap.data of type string");
}

TEST(TypedCheck, TypeMetaAndEmbeddedKinds) {
  // A StatefulSet's volumeClaimTemplates are PersistentVolumeClaims: apiVersion/kind are theirs.
  auto r = run("apps/v1", "StatefulSet", R"({"apiVersion":"apps/v1","kind":"StatefulSet","spec":{
    "volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"d"},
      "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}],
    "template":{"apiVersion":"v1"}}})");
  EXPECT_EQ(unknown_fields(r.issues), (std::vector<std::string>{"spec.template.apiVersion"}));
}

TEST(TypedCheck, KindsWithoutATableHaveTheirMetadataChecked) {
  json::Value obj = parse(R"({"apiVersion":"x/v1","kind":"Thing","metadata":{"labels":{"a":1},"zz":1},"spec":{"any":1}})");
  auto issues = check_metadata(obj, "Thing");
  EXPECT_EQ(go_json_error(issues), "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string");
  EXPECT_EQ(unknown_fields(issues), (std::vector<std::string>{"metadata.zz"}));
  EXPECT_EQ(json::serialize(obj), R"({"apiVersion":"x/v1","kind":"Thing","metadata":{"labels":{"a":1}},"spec":{"any":1}})");
  json::Value bad = parse(R"({"metadata":"x"})");
  EXPECT_EQ(go_json_error(check_metadata(bad, "Thing")),
            "json: cannot unmarshal string into Go struct field Thing.metadata of type v1.ObjectMeta");
}

TEST(TypedCheck, OrdersForEachDecoder) {
  const char* body = R"({"spec":{"zeta":1,"alpha":2,"paused":true,"replicas":1}})";
  Options sorted;
  sorted.order = Options::Order::Sorted;
  EXPECT_EQ(unknown_fields(run("apps/v1", "Deployment", body, sorted).issues),
            (std::vector<std::string>{"spec.alpha", "spec.zeta"}));
  EXPECT_EQ(unknown_fields(run("apps/v1", "Deployment", body).issues), (std::vector<std::string>{"spec.zeta", "spec.alpha"}));
}

TEST(TypedCheck, UnstructuredConverterWording) {
  Options o;
  o.order = Options::Order::Schema;
  auto err = [&](std::string_view body) {
    return converter_error(run("apps/v1", "Deployment", body, o).issues).value_or("<none>");
  };
  EXPECT_EQ(err(R"({"spec":{"replicas":"x"}})"), "unrecognized type: int32");
  EXPECT_EQ(err(R"({"spec":{"replicas":1.5}})"), "cannot convert float64 to int32");
  EXPECT_EQ(err(R"({"spec":{"replicas":3000000000}})"), "<none>") << "the converter wraps out-of-range integers";
  EXPECT_EQ(err(R"({"metadata":{"labels":{"app":1}}})"), "cannot convert int64 to string");
  EXPECT_EQ(err(R"({"metadata":{"labels":{"app":true}}})"), "unrecognized type: string");
  EXPECT_EQ(err(R"({"spec":{"strategy":"x"}})"), "cannot restore struct from: string");
  EXPECT_EQ(err(R"({"spec":{"template":{"spec":{"containers":{}}}}})"), "cannot restore slice from map");
  EXPECT_EQ(err(R"({"metadata":{"labels":"x"}})"), "cannot restore map from string");
  // Struct field order, not document order: metadata comes before spec.
  EXPECT_EQ(err(R"({"spec":{"replicas":"x"},"metadata":{"labels":{"a":true}}})"), "unrecognized type: string");
}

TEST(TypedCheck, StructuredMergeDiffWordingWithListKeys) {
  auto types = patch::builtin_list_types("apps/v1", "Deployment");
  Options o;
  o.order = Options::Order::Sorted;
  o.prune = false;
  o.list_types = types.get();
  auto r = run("apps/v1", "Deployment", R"({"spec":{"template":{"spec":{"containers":[
    {"name":"app","bogus":1,"ports":[{"containerPort":80,"extra":true}]}]}}}})", o);
  EXPECT_EQ(smd_errors(r.issues),
            "errors:\n"
            "  .spec.template.spec.containers[name=\"app\"].bogus: field not declared in schema\n"
            "  .spec.template.spec.containers[name=\"app\"].ports[containerPort=80,protocol=\"TCP\"].extra: field not declared in schema");
  auto one = run("apps/v1", "Deployment", R"({"spec":{"replicas":"x","paused":1.5}})", o);
  EXPECT_EQ(smd_errors(one.issues), "errors:\n"
                                    "  .spec.paused: expected boolean, got &{1.5}\n"
                                    "  .spec.replicas: expected numeric (int or float), got string");
  auto ok = run("apps/v1", "Deployment", R"({"spec":{"replicas":1.5}})", o);
  EXPECT_EQ(smd_errors(ok.issues), std::nullopt) << "structured-merge-diff's numeric accepts floats";
}

TEST(TypedCheck, EventsEndpointSlicesAndWebhookConfigurationsHaveTables) {
  auto event = run("v1", "Event", R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"d"},
    "involvedObject":{"kind":"Pod","namespace":"d","name":"p","uid":"u","apiVersion":"v1","fieldPath":"spec.containers{app}"},
    "reason":"Started","message":"m","source":{"component":"kubelet","host":"n1"},
    "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:01Z","count":2,"type":"Normal",
    "eventTime":null,"reportingComponent":"kubelet","reportingInstance":"n1","nope":1})");
  EXPECT_EQ(go_json_error(event.issues), std::nullopt);
  EXPECT_EQ(unknown_fields(event.issues), (std::vector<std::string>{"nope"}));
  auto ev = run("events.k8s.io/v1", "Event", R"({"eventTime":"2026-01-01T00:00:00.000001Z","series":{"count":2,
    "lastObservedTime":"2026-01-01T00:00:00.000002Z"},"reportingController":"c","reportingInstance":"i","action":"A",
    "reason":"R","regarding":{"kind":"Pod","name":"p"},"note":"n","type":"Normal"})");
  EXPECT_TRUE(ev.issues.empty());
  auto slice = run("discovery.k8s.io/v1", "EndpointSlice", R"({"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"],
    "conditions":{"ready":true,"serving":true,"terminating":false},"nodeName":"n1","zone":"z","hints":{"forZones":[{"name":"z"}]}}],
    "ports":[{"name":"http","protocol":"TCP","port":80}]})");
  EXPECT_TRUE(slice.issues.empty());
  auto vwc = run("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", R"({"webhooks":[{"name":"w.example.com",
    "clientConfig":{"service":{"namespace":"ns","name":"svc","path":"/validate","port":443},"caBundle":"Zm9v"},
    "rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["configmaps"],"scope":"*"}],
    "failurePolicy":"Fail","matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"sideEffects":"None",
    "timeoutSeconds":5,"admissionReviewVersions":["v1"],"matchConditions":[{"name":"a","expression":"true"}]}]})");
  EXPECT_TRUE(vwc.issues.empty());
  auto np = run("networking.k8s.io/v1", "NetworkPolicy", R"({"spec":{"podSelector":{},"policyTypes":["Ingress"],
    "ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}],"ports":[{"port":"http","endPort":90}]}]}})");
  EXPECT_TRUE(np.issues.empty());
}

}  // namespace
}  // namespace capstan::apiserver::typed
