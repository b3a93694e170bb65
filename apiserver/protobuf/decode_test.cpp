#include "apiserver/protobuf/decode.h"

#include "apiserver/protobuf/test_writer.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::protobuf {
namespace {

using testing::envelope;
using testing::Writer;

// Order-sensitive: the serialised forms must match, so member order is checked too.
void expect_json(const json::Value& actual, std::string_view expected) {
  EXPECT_EQ(json::serialize(actual), json::serialize(json::parse(expected)));
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "no error";
}

Writer time_of(std::int64_t seconds, std::int64_t nanos = 0) {
  Writer w;
  w.int64(1, seconds);
  if (nanos) w.int64(2, nanos);
  return w;
}
Writer int_or_string(std::int32_t v) { return Writer().int64(1, 0).int64(2, v).str(3, ""); }
Writer int_or_string(std::string_view s) { return Writer().int64(1, 1).int64(2, 0).str(3, s); }
Writer quantity(std::string_view s) { return Writer().str(1, s); }
Writer named(std::string_view name) { return Writer().str(1, name); }  // ObjectMeta / LocalObjectReference

TEST(ProtobufDecode, ObjectMetaEveryFieldInGoOrder) {
  const auto meta = Writer()
                        .str(1, "demo")
                        .str(2, "demo-")
                        .str(3, "default")
                        .str(4, "/api/v1/namespaces/default/configmaps/demo")
                        .str(5, "0b1c2d3e-0000-4000-8000-000000000001")
                        .str(6, "42")
                        .int64(7, 3)
                        .msg(8, time_of(1735787045, 999999999))  // nanos are dropped, as Go does
                        .msg(9, time_of(1735787105))
                        .int64(10, 30)
                        .entry(11, "app", "web")
                        .entry(11, "tier", "fe")
                        .entry(12, "note", "hi")
                        .msg(13, Writer()
                                     .str(1, "Deployment")
                                     .str(3, "web")
                                     .str(4, "u-2")
                                     .str(5, "apps/v1")
                                     .boolean(6, true)
                                     .boolean(7, false))
                        .str(14, "example.com/cleanup")
                        .msg(17, Writer()
                                     .str(1, "kubectl")
                                     .str(2, "Update")
                                     .str(3, "v1")
                                     .msg(4, time_of(1735787045))
                                     .str(6, "FieldsV1")
                                     .msg(7, Writer().str(1, R"({"f:data":{".":{},"f:k":{}}})"))
                                     .str(8, ""));
  // Wire order differs from Go struct order on purpose.
  const auto body = envelope("v1", "ConfigMap",
                             Writer()
                                 .entry(3, "bin", std::string("\x00\x01\xff", 3))
                                 .entry(2, "k", "v")
                                 .boolean(4, false)
                                 .msg(1, meta));
  expect_json(decode(body), R"({
    "kind": "ConfigMap", "apiVersion": "v1",
    "metadata": {
      "name": "demo", "generateName": "demo-", "namespace": "default",
      "selfLink": "/api/v1/namespaces/default/configmaps/demo",
      "uid": "0b1c2d3e-0000-4000-8000-000000000001", "resourceVersion": "42", "generation": 3,
      "creationTimestamp": "2025-01-02T03:04:05Z", "deletionTimestamp": "2025-01-02T03:05:05Z",
      "deletionGracePeriodSeconds": 30,
      "labels": {"app": "web", "tier": "fe"}, "annotations": {"note": "hi"},
      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "u-2",
                           "controller": true, "blockOwnerDeletion": false}],
      "finalizers": ["example.com/cleanup"],
      "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                         "time": "2025-01-02T03:04:05Z", "fieldsType": "FieldsV1",
                         "fieldsV1": {"f:data": {".": {}, "f:k": {}}}}]
    },
    "immutable": false,
    "data": {"k": "v"},
    "binaryData": {"bin": "AAH/"}
  })");
}

TEST(ProtobufDecode, EmptyTimeIsNullAndEmptyMessagesStay) {
  // What kubectl sends for `create namespace x`: every ObjectMeta scalar written as zero.
  const auto meta = Writer().str(1, "x").str(2, "").str(3, "").str(4, "").str(5, "").str(6, "").int64(7, 0).msg(
      8, Writer());
  expect_json(decode(envelope("v1", "Namespace", Writer().msg(1, meta).msg(2, Writer()).msg(3, Writer().str(1, "")))),
              R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"x","creationTimestamp":null},
                  "spec":{},"status":{}})");
}

TEST(ProtobufDecode, ZeroScalarsAreDroppedUnlessThePointerOrRequiredFieldKeepsThem) {
  const auto port = Writer()
                        .str(1, "")                     // name: omitempty -> dropped
                        .str(2, "TCP")
                        .int64(3, 0)                    // port: `json:"port"` -> kept
                        .msg(4, int_or_string(0))       // targetPort: present struct -> kept
                        .int64(5, 0);                   // nodePort: omitempty -> dropped
  const auto spec = Writer()
                        .msg(1, port)
                        .str(3, "")                     // clusterIP dropped
                        .str(4, "ClusterIP")
                        .int64(12, 0)                   // healthCheckNodePort dropped
                        .boolean(13, false)             // publishNotReadyAddresses dropped
                        .str(17, "")                    // ipFamilyPolicy: *string -> kept
                        .boolean(20, false);            // allocateLoadBalancerNodePorts: *bool -> kept
  expect_json(decode(envelope("v1", "Service", Writer().msg(1, named("s")).msg(2, spec))),
              R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s"},
                  "spec":{"ports":[{"protocol":"TCP","port":0,"targetPort":0}],"type":"ClusterIP",
                          "ipFamilyPolicy":"","allocateLoadBalancerNodePorts":false}})");

  const auto dspec = Writer()
                         .int64(1, 0)                   // replicas: *int32 -> kept
                         .int64(5, 0)                   // minReadySeconds dropped
                         .int64(6, 10)
                         .boolean(7, false)             // paused dropped
                         .msg(4, Writer().str(1, "RollingUpdate").msg(2, Writer()
                                                                               .msg(1, int_or_string("25%"))
                                                                               .msg(2, int_or_string(2))))
                         .int64(9, 600);
  expect_json(decode(envelope("apps/v1", "Deployment", Writer().msg(2, dspec))),
              R"({"kind":"Deployment","apiVersion":"apps/v1",
                  "spec":{"replicas":0,
                          "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":2}},
                          "revisionHistoryLimit":10,"progressDeadlineSeconds":600}})");

  // autoscaling/v1 ScaleSpec.replicas is a plain omitempty int32; ScaleStatus.replicas is required.
  expect_json(decode(envelope("autoscaling/v1", "Scale",
                              Writer().msg(2, Writer().int64(1, 0)).msg(3, Writer().int64(1, 0).str(2, "")))),
              R"({"kind":"Scale","apiVersion":"autoscaling/v1","spec":{},"status":{"replicas":0}})");
}

TEST(ProtobufDecode, PodSpecWithInlinedVolumeSourcesProbesAndSelectors) {
  const auto container =
      Writer()
          .str(1, "app")
          .str(2, "nginx:1.27")
          .str(4, "--port=80")
          .str(4, "-v")
          .msg(6, Writer().int64(2, 0).int64(3, 80).str(4, "TCP"))
          .msg(7, Writer().str(1, "MODE").str(2, "prod"))
          .msg(7, Writer().str(1, "TOKEN").msg(3, Writer().msg(4, Writer()
                                                                    .msg(1, named("creds"))
                                                                    .str(2, "token")
                                                                    .boolean(3, true))))
          .msg(7, Writer().str(1, "POD").msg(3, Writer().msg(1, Writer().str(1, "v1").str(2, "metadata.name"))))
          .msg(8, Writer()
                      .entry(1, "cpu", quantity("500m"))
                      .entry(2, "memory", quantity("64Mi"))
                      .entry(2, "ephemeral-storage", Writer()))  // an empty Quantity is "0"
          .msg(9, Writer().str(1, "cfg").boolean(2, true).str(3, "/etc/app"))
          .msg(10, Writer()
                       .msg(1, Writer().msg(2, Writer()
                                                   .str(1, "/healthz")
                                                   .msg(2, int_or_string("http"))
                                                   .msg(5, Writer().str(1, "X-Probe").str(2, ""))))
                       .int64(2, 5)
                       .int64(4, 0))
          .msg(11, Writer().msg(1, Writer().msg(3, Writer().msg(1, int_or_string(8080)))))
          .msg(15, Writer().boolean(2, false).int64(4, 1000).msg(1, Writer().str(2, "ALL")));
  const auto spec =
      Writer()
          .msg(1, Writer().str(1, "cfg").msg(2, Writer().msg(19, Writer()
                                                                   .msg(1, named("app-config"))
                                                                   .msg(2, Writer().str(1, "a").str(2, "a.txt"))
                                                                   .int64(3, 420))))
          .msg(1, Writer().str(1, "scratch").msg(2, Writer().msg(2, Writer().str(1, "Memory"))))
          .msg(1, Writer().str(1, "data").msg(2, Writer().msg(10, Writer().str(1, "data-pvc"))))
          .msg(2, container)
          .str(3, "Always")
          .int64(4, 1ll << 40)
          .msg(14, Writer()
                       .str(4, std::string("\xe8\x07\xd0\x0f", 4))  // packed supplementalGroups: 1000, 2000
                       .int64(4, 3000)                              // ... and one unpacked
                       .int64(2, 0))                                // runAsUser: *int64 -> kept
          .msg(18, Writer().msg(1, Writer().msg(1, Writer().msg(1, Writer().msg(1, Writer()
                                                                                         .str(1, "zone")
                                                                                         .str(2, "In")
                                                                                         .str(3, "a")
                                                                                         .str(3, "b"))))))
          .msg(22, Writer().str(1, "dedicated").str(2, "Exists").str(4, "NoSchedule"))
          .int64(25, -5)  // negative int32: a 10-byte varint
          .msg(33, Writer()
                       .int64(1, 1)
                       .str(2, "zone")
                       .str(3, "DoNotSchedule")
                       .msg(4, Writer().entry(1, "app", "web")));
  const auto pod = Writer().msg(1, named("web-0")).msg(2, spec);
  expect_json(decode(envelope("v1", "Pod", pod)), R"({
    "kind": "Pod", "apiVersion": "v1", "metadata": {"name": "web-0"},
    "spec": {
      "volumes": [
        {"name": "cfg", "configMap": {"name": "app-config", "items": [{"key": "a", "path": "a.txt"}],
                                      "defaultMode": 420}},
        {"name": "scratch", "emptyDir": {"medium": "Memory"}},
        {"name": "data", "persistentVolumeClaim": {"claimName": "data-pvc"}}
      ],
      "containers": [{
        "name": "app", "image": "nginx:1.27", "args": ["--port=80", "-v"],
        "ports": [{"containerPort": 80, "protocol": "TCP"}],
        "env": [
          {"name": "MODE", "value": "prod"},
          {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "token", "optional": true}}},
          {"name": "POD", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}
        ],
        "resources": {"limits": {"cpu": "500m"}, "requests": {"memory": "64Mi", "ephemeral-storage": "0"}},
        "volumeMounts": [{"name": "cfg", "readOnly": true, "mountPath": "/etc/app"}],
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http",
                                      "httpHeaders": [{"name": "X-Probe", "value": ""}]},
                          "initialDelaySeconds": 5},
        "readinessProbe": {"tcpSocket": {"port": 8080}},
        "securityContext": {"capabilities": {"drop": ["ALL"]}, "privileged": false, "runAsUser": 1000}
      }],
      "restartPolicy": "Always",
      "terminationGracePeriodSeconds": 1099511627776,
      "securityContext": {"runAsUser": 0, "supplementalGroups": [1000, 2000, 3000]},
      "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]}]}}},
      "tolerations": [{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"}],
      "priority": -5,
      "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                     "labelSelector": {"matchLabels": {"app": "web"}}}]
    }
  })");
}

TEST(ProtobufDecode, MicroTimeKeepsMicroseconds) {
  const auto spec = Writer()
                        .str(1, "")  // holderIdentity: *string -> kept
                        .int64(2, 15)
                        .msg(3, time_of(1735787045, 123456789))
                        .msg(4, Writer());
  expect_json(decode(envelope("coordination.k8s.io/v1", "Lease", Writer().msg(1, named("leader")).msg(2, spec))),
              R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{"name":"leader"},
                  "spec":{"holderIdentity":"","leaseDurationSeconds":15,
                          "acquireTime":"2025-01-02T03:04:05.123456Z","renewTime":null}})");
}

TEST(ProtobufDecode, TimesBeforeTheEpochAndOutOfRange) {
  const auto at = [](std::int64_t seconds) {
    return decode(envelope("v1", "ConfigMap", Writer().msg(1, Writer().msg(8, time_of(seconds)))));
  };
  EXPECT_EQ(json::serialize(at(0).at("metadata")), R"({"creationTimestamp":"1970-01-01T00:00:00Z"})");
  EXPECT_EQ(json::serialize(at(-86400).at("metadata")), R"({"creationTimestamp":"1969-12-31T00:00:00Z"})");
  EXPECT_EQ(error_of([&] { at(253402300799); }),
            "protobuf: time of 253402300799 seconds since the epoch in k8s.io.apimachinery.pkg.apis.meta.v1.Time "
            "is outside the supported range (at metadata.creationTimestamp)");
}

TEST(ProtobufDecode, SecretBytesAreBase64AndStringDataIsText) {
  const auto body = envelope("v1", "Secret",
                             Writer()
                                 .msg(1, named("creds"))
                                 .entry(2, "user", "admin")
                                 .entry(2, "empty", "")
                                 .msg(2, Writer().str(1, "novalue"))  // entry without a value
                                 .entry(4, "note", "plain")
                                 .str(3, "Opaque")
                                 .boolean(5, true));
  expect_json(decode(body), R"({"kind":"Secret","apiVersion":"v1","metadata":{"name":"creds"},"immutable":true,
                               "data":{"user":"YWRtaW4=","empty":"","novalue":""},
                               "stringData":{"note":"plain"},"type":"Opaque"})");
}

TEST(ProtobufDecode, RawExtensionEmbedsJsonOrANestedProtobufObject) {
  const auto json_raw = Writer().msg(1, named("rev-1")).msg(2, Writer().str(1, R"({"spec":{"x":1}})")).int64(3, 0);
  expect_json(decode(envelope("apps/v1", "ControllerRevision", json_raw)),
              R"({"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"rev-1"},
                  "data":{"spec":{"x":1}},"revision":0})");

  const auto nested = envelope("v1", "ConfigMap", Writer().msg(1, named("inner")).entry(2, "a", "b"));
  const auto pb_raw = Writer().msg(2, Writer().str(1, nested)).int64(3, 2);
  expect_json(decode(envelope("apps/v1", "ControllerRevision", pb_raw)),
              R"({"kind":"ControllerRevision","apiVersion":"apps/v1",
                  "data":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"inner"},"data":{"a":"b"}},
                  "revision":2})");

  expect_json(decode(envelope("apps/v1", "ControllerRevision", Writer().msg(2, Writer()))),
              R"({"kind":"ControllerRevision","apiVersion":"apps/v1","data":null})");

  EXPECT_NE(error_of([] {
              decode(envelope("apps/v1", "ControllerRevision", Writer().msg(2, Writer().str(1, "{not json"))));
            }).find("the raw bytes of k8s.io.apimachinery.pkg.runtime.RawExtension at offset"),
            std::string::npos);
}

TEST(ProtobufDecode, IntOrStringAndQuantityForms) {
  const auto spec = Writer()
                        .msg(1, int_or_string("50%"))
                        .msg(2, Writer().entry(1, "app", "web"))
                        .msg(3, int_or_string(-1));
  expect_json(decode(envelope("policy/v1", "PodDisruptionBudget", Writer().msg(2, spec))),
              R"({"kind":"PodDisruptionBudget","apiVersion":"policy/v1",
                  "spec":{"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}},"maxUnavailable":-1}})");
  EXPECT_EQ(error_of([] {
              decode(envelope("policy/v1", "PodDisruptionBudget",
                              Writer().msg(2, Writer().msg(1, Writer().int64(1, 2)))));
            }),
            "protobuf: IntOrString has invalid type 2 (0 is int, 1 is string) (at spec.minAvailable)");

  const auto quota = Writer().msg(2, Writer()
                                         .entry(1, "cpu", quantity("2"))
                                         .entry(1, "memory", quantity("4Gi"))
                                         .str(2, "NotBestEffort"));
  expect_json(decode(envelope("v1", "ResourceQuota", quota)),
              R"({"kind":"ResourceQuota","apiVersion":"v1",
                  "spec":{"hard":{"cpu":"2","memory":"4Gi"},"scopes":["NotBestEffort"]}})");
}

TEST(ProtobufDecode, ExtraValuesAreStringArrays) {
  const auto spec = Writer()
                        .msg(1, Writer().str(2, "get").str(5, "pods"))
                        .str(3, "alice")
                        .str(4, "devs")
                        .entry(5, "scopes", Writer().str(1, "a").str(1, "b"))
                        .entry(5, "none", Writer());
  expect_json(decode(envelope("authorization.k8s.io/v1", "SubjectAccessReview", Writer().msg(2, spec))),
              R"({"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1",
                  "spec":{"resourceAttributes":{"verb":"get","resource":"pods"},"user":"alice","groups":["devs"],
                          "extra":{"scopes":["a","b"],"none":null}}})");
}

TEST(ProtobufDecode, RepeatedOccurrencesFollowProtobufMergeRules) {
  // A repeated singular scalar: last one wins (a later zero removes the value); a repeated message
  // field merges into the first.
  const auto body = envelope("v1", "ConfigMap",
                             Writer()
                                 .msg(1, Writer().str(1, "first").str(3, "ns"))
                                 .msg(1, Writer().str(1, "second").str(3, ""))
                                 .msg(1, Writer().entry(11, "a", "1")));
  expect_json(decode(body), R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"second","labels":{"a":"1"}}})");
}

TEST(ProtobufDecode, InvalidUtf8IsReplacedAsGoDoes) {
  const auto body = envelope("v1", "ConfigMap", Writer().entry(2, "k", "a\xff" "b\xe2\x82" "c\xe2\x82\xac"));
  // "\xe2\x82" is an incomplete sequence: like Go, each of its bytes becomes one U+FFFD.
  EXPECT_EQ(json::serialize(decode(body).at("data")),
            "{\"k\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c\xe2\x82\xac\"}");
}

TEST(ProtobufDecode, DeleteOptionsUnderAnyKnownGroupVersion) {
  const auto opts = Writer().int64(1, 0).msg(2, Writer().str(1, "uid-1")).str(4, "Foreground").str(5, "All");
  const char* expected = R"({"kind":"DeleteOptions","apiVersion":"%s","gracePeriodSeconds":0,
                             "preconditions":{"uid":"uid-1"},"propagationPolicy":"Foreground","dryRun":["All"]})";
  for (std::string gv : {"v1", "apps/v1", "meta.k8s.io/v1", "batch/v1"}) {
    std::string want(expected);
    want.replace(want.find("%s"), 2, gv);
    expect_json(decode(envelope(gv, "DeleteOptions", opts)), want);
  }
  EXPECT_TRUE(is_supported("v1", "DeleteOptions"));
  EXPECT_FALSE(is_supported("example.com/v1", "DeleteOptions"));
}

TEST(ProtobufDecode, UnknownFieldsAreSkippedAndReported) {
  const auto body = envelope("v1", "ConfigMap",
                             Writer()
                                 .msg(1, Writer().str(1, "demo").str(15, "legacy-cluster-name"))
                                 .varint(99, 7)
                                 .entry(2, "k", "v"));
  const auto r = decode_with_report(body);
  expect_json(r.object, R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"demo"},"data":{"k":"v"}})");
  ASSERT_EQ(r.unknown_fields.size(), 2u);
  EXPECT_EQ(r.unknown_fields[0],
            "metadata: unknown field 15 (length-delimited) of message k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_EQ(r.unknown_fields[1], ".: unknown field 99 (varint) of message k8s.io.api.core.v1.ConfigMap");

  DecodeOptions strict;
  strict.reject_unknown_fields = true;
  const auto err = error_of([&] { decode_with_report(body, strict); });
  EXPECT_EQ(err.rfind("protobuf: unknown field 15 (length-delimited) of message "
                      "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta at offset ", 0),
            0u)
      << err;
  EXPECT_NE(err.find("(at metadata)"), std::string::npos) << err;
}

// --- Errors ------------------------------------------------------------------------------------------

TEST(ProtobufDecodeErrors, MissingMagic) {
  EXPECT_EQ(error_of([] { decode(""); }),
            "protobuf: body does not start with the Kubernetes protobuf magic \"k8s\\x00\" (body is empty)");
  EXPECT_EQ(error_of([] { decode(R"({"kind":"ConfigMap"})"); }),
            "protobuf: body does not start with the Kubernetes protobuf magic \"k8s\\x00\" (first bytes: 7b 22 6b 69)");
  EXPECT_EQ(error_of([] { decode(std::string("k8s", 3)); }),
            "protobuf: body does not start with the Kubernetes protobuf magic \"k8s\\x00\" (first bytes: 6b 38 73)");
}

TEST(ProtobufDecodeErrors, TruncatedBodiesAlwaysFailCleanly) {
  const auto raw = Writer()
                       .msg(1, named("web"))
                       .msg(2, Writer().int64(1, 3).msg(3, Writer().msg(2, Writer().msg(2, Writer().str(1, "c")))));
  const auto body = envelope("apps/v1", "Deployment", raw);
  ASSERT_NO_THROW(decode(body));
  ASSERT_LT(raw.data().size(), 128u);  // so the raw field's header is 2 bytes
  const auto raw_at = body.find(raw.data());
  // Every cut before the end of the raw field fails, except right after the typeMeta field (a
  // body without raw is an empty object).
  for (std::size_t n = 4; n < raw_at + raw.data().size(); ++n) {
    if (n == raw_at - 2) continue;
    const auto err = error_of([&] { decode(body.substr(0, n)); });
    EXPECT_EQ(err.rfind("protobuf: ", 0), 0u) << "prefix of " << n << " bytes: " << err;
  }
  // The envelope's raw field cut short.
  const auto cut = body.substr(0, body.size() - 10);
  EXPECT_NE(error_of([&] { decode(cut); }).find("protobuf: truncated message at offset "), std::string::npos);

  // A nested message whose length runs past its parent.
  const std::string bad = "\x0a\x10\x0a\x04" "demo";  // metadata claims 16 bytes, 6 follow
  const auto inner = envelope("v1", "ConfigMap", Writer().raw(bad));
  const auto at = inner.find(bad) + 2;
  EXPECT_EQ(error_of([&] { decode(inner); }),
            "protobuf: truncated message at offset " + std::to_string(at) +
                ": length-delimited field needs 16 bytes, only 6 remain in message k8s.io.api.core.v1.ConfigMap");
}

TEST(ProtobufDecodeErrors, UnknownKind) {
  EXPECT_EQ(error_of([] { decode(envelope("apps/v1", "Frobnicator", Writer())); }),
            "protobuf: unknown kind \"Frobnicator\" in apiVersion \"apps/v1\": no protobuf schema for it");
  EXPECT_EQ(error_of([] { decode(envelope("v2", "ConfigMap", Writer())); }),
            "protobuf: unknown kind \"ConfigMap\" in apiVersion \"v2\": no protobuf schema for it");
  EXPECT_EQ(error_of([] { decode(envelope("v1", "", Writer())); }),
            "protobuf: the envelope has no kind (apiVersion \"v1\")");
}

TEST(ProtobufDecodeErrors, WrongWireType) {
  const auto top = envelope("v1", "ConfigMap", Writer().varint(2, 5));
  const auto at = top.size() - 6;  // the tag, before the envelope's two empty trailing fields
  EXPECT_EQ(error_of([&] { decode(top); }),
            "protobuf: field 2 (data) of message k8s.io.api.core.v1.ConfigMap has wire type 0 (varint), "
            "expected 2 (length-delimited), at offset " + std::to_string(at));

  const auto nested = envelope("apps/v1", "Deployment", Writer().msg(2, Writer().str(1, "3")));
  EXPECT_NE(error_of([&] { decode(nested); })
                .find("field 1 (replicas) of message k8s.io.api.apps.v1.DeploymentSpec has wire type 2 "
                      "(length-delimited), expected 0 (varint), at offset "),
            std::string::npos);
  EXPECT_NE(error_of([&] { decode(nested); }).find("(at spec)"), std::string::npos);

  const auto in_list = envelope("v1", "Pod", Writer().msg(2, Writer().msg(2, Writer().str(1, "a")).msg(
                                                                 2, Writer().str(1, "b").varint(6, 1))));
  EXPECT_NE(error_of([&] { decode(in_list); }).find("(at spec.containers[1])"), std::string::npos);

  const auto envelope_field = std::string("k8s\0", 4) + Writer().varint(1, 1).data();
  EXPECT_EQ(error_of([&] { decode(envelope_field); }),
            "protobuf: field 1 (typeMeta) of message k8s.io.apimachinery.pkg.runtime.Unknown has wire type 0 "
            "(varint), expected 2 (length-delimited), at offset 4");
}

TEST(ProtobufDecodeErrors, UnsupportedEnvelopeEncodings) {
  std::string gz("k8s\0", 4);
  gz += Writer().msg(1, Writer().str(1, "v1").str(2, "ConfigMap")).str(2, "x").str(3, "gzip").data();
  EXPECT_EQ(error_of([&] { decode(gz); }), "protobuf: unsupported contentEncoding \"gzip\" for v1 ConfigMap");
  std::string ct("k8s\0", 4);
  ct += Writer().msg(1, Writer().str(1, "v1").str(2, "ConfigMap")).str(4, "application/json").data();
  EXPECT_EQ(error_of([&] { decode(ct); }),
            "protobuf: unsupported contentType \"application/json\" inside the envelope of v1 ConfigMap");
}

TEST(ProtobufDecodeErrors, NestingDepthIsBounded) {
  std::string body = envelope("v1", "ConfigMap", Writer());
  for (int i = 0; i < 70; ++i) body = envelope("apps/v1", "ControllerRevision", Writer().msg(2, Writer().str(1, body)));
  EXPECT_NE(error_of([&] { decode(body); }).find("messages nested deeper than 64 levels"), std::string::npos);
}

// --- Lookup helpers ----------------------------------------------------------------------------------

TEST(ProtobufDecode, SupportedKindsAndContentTypes) {
  EXPECT_TRUE(is_supported("v1", "ConfigMap"));
  EXPECT_TRUE(is_supported("apps/v1", "Deployment"));
  EXPECT_TRUE(is_supported("authentication.k8s.io/v1", "TokenRequest"));
  EXPECT_FALSE(is_supported("apps/v1", "ConfigMap"));
  EXPECT_FALSE(is_supported("apiextensions.k8s.io/v1", "CustomResourceDefinition"));
  const auto kinds = supported_kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "batch/v1/CronJob"), kinds.end());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "v1/Pod"), kinds.end());

  EXPECT_TRUE(is_protobuf_content_type("application/vnd.kubernetes.protobuf"));
  EXPECT_TRUE(is_protobuf_content_type(" Application/VND.Kubernetes.Protobuf ; charset=utf-8"));
  EXPECT_TRUE(is_protobuf_content_type("application/vnd.kubernetes.protobuf;stream=watch"));
  EXPECT_FALSE(is_protobuf_content_type("application/json"));
  EXPECT_FALSE(is_protobuf_content_type("application/vnd.kubernetes.protobufx"));
}

}  // namespace
}  // namespace capstan::apiserver::protobuf
