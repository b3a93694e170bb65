#include "apiserver/patch/list_types.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::patch {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

TEST(PatchListTypes, DeploymentPodTemplateLists) {
  auto t = builtin_list_types("apps/v1", "Deployment");
  ListType containers = t->at({"spec", "template", "spec", "containers"});
  EXPECT_EQ(containers.kind, ListKind::Map);
  EXPECT_EQ(containers.keys, (std::vector<std::string>{"name"}));
  EXPECT_EQ(containers.smp, SmpStrategy::Merge);
  EXPECT_EQ(containers.smp_merge_key, "name");

  ListType ports = t->at({"spec", "template", "spec", "containers", "[]", "ports"});
  EXPECT_EQ(ports.kind, ListKind::Map);
  EXPECT_EQ(ports.keys, (std::vector<std::string>{"containerPort", "protocol"}));
  EXPECT_EQ(ports.smp_merge_key, "containerPort");
  ASSERT_TRUE(ports.key_defaults.contains("protocol"));
  EXPECT_EQ(ports.key_defaults.at("protocol").as_string(), "TCP");

  EXPECT_EQ(t->at({"spec", "template", "spec", "initContainers", "[]", "env"}).smp_merge_key, "name");
  EXPECT_EQ(t->at({"spec", "template", "spec", "containers", "[]", "volumeMounts"}).keys, (std::vector<std::string>{"mountPath"}));
  EXPECT_EQ(t->at({"spec", "template", "spec", "containers", "[]", "volumeDevices"}).smp_merge_key, "devicePath");
  EXPECT_EQ(t->at({"spec", "template", "spec", "containers", "[]", "envFrom"}).kind, ListKind::Atomic);
  EXPECT_EQ(t->at({"spec", "template", "spec", "containers", "[]", "envFrom"}).smp, SmpStrategy::Replace);
  EXPECT_EQ(t->at({"spec", "template", "spec", "tolerations"}).kind, ListKind::Atomic);
  EXPECT_EQ(t->at({"spec", "template", "spec", "hostAliases"}).smp_merge_key, "ip");
  ListType volumes = t->at({"spec", "template", "spec", "volumes"});
  EXPECT_EQ(volumes.smp_merge_key, "name");
  EXPECT_TRUE(volumes.retain_keys);
  EXPECT_EQ(t->at({"spec", "template", "spec", "imagePullSecrets"}).keys, (std::vector<std::string>{"name"}));
  EXPECT_EQ(t->map_at({"spec", "template", "spec", "imagePullSecrets", "[]"}), MapKind::Atomic);
  EXPECT_EQ(t->map_at({"spec", "selector"}), MapKind::Atomic);
  EXPECT_EQ(t->map_at({"spec", "template", "metadata", "labels"}), MapKind::Map);
  EXPECT_EQ(t->at({"status", "conditions"}).keys, (std::vector<std::string>{"type"}));
  EXPECT_EQ(t->at({"spec", "template", "spec", "containers", "[]", "command"}).kind, ListKind::Atomic);
}

TEST(PatchListTypes, ObjectMetaEverywhere) {
  for (auto [api_version, kind] : {std::pair{"v1", "ConfigMap"}, std::pair{"apps/v1", "StatefulSet"}, std::pair{"example.com/v1", "Thing"}}) {
    auto t = builtin_list_types(api_version, kind);
    ListType finalizers = t->at({"metadata", "finalizers"});
    EXPECT_EQ(finalizers.kind, ListKind::Set);
    EXPECT_EQ(finalizers.smp, SmpStrategy::Merge);
    EXPECT_TRUE(finalizers.smp_merge_key.empty());
    ListType owners = t->at({"metadata", "ownerReferences"});
    EXPECT_EQ(owners.keys, (std::vector<std::string>{"uid"}));
    EXPECT_EQ(owners.smp_merge_key, "uid");
    EXPECT_EQ(t->map_at({"metadata", "ownerReferences", "[]"}), MapKind::Atomic);
    EXPECT_EQ(t->map_at({"metadata", "annotations"}), MapKind::Map);
  }
}

TEST(PatchListTypes, OtherBuiltinKinds) {
  auto svc = builtin_list_types("v1", "Service");
  ListType ports = svc->at({"spec", "ports"});
  EXPECT_EQ(ports.keys, (std::vector<std::string>{"port", "protocol"}));
  EXPECT_EQ(ports.smp_merge_key, "port");
  EXPECT_EQ(svc->map_at({"spec", "selector"}), MapKind::Atomic);

  EXPECT_EQ(builtin_list_types("v1", "Endpoints")->at({"subsets"}).kind, ListKind::Atomic);
  EXPECT_EQ(builtin_list_types("rbac.authorization.k8s.io/v1", "ClusterRole")->at({"rules"}).kind, ListKind::Atomic);
  EXPECT_EQ(builtin_list_types("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration")->at({"webhooks"}).smp_merge_key, "name");
  EXPECT_EQ(builtin_list_types("apiextensions.k8s.io/v1", "CustomResourceDefinition")->at({"spec", "versions"}).kind, ListKind::Atomic);
  EXPECT_EQ(builtin_list_types("v1", "Pod")->at({"spec", "containers", "[]", "ports"}).smp_merge_key, "containerPort");
  EXPECT_EQ(builtin_list_types("batch/v1", "CronJob")->at({"spec", "jobTemplate", "spec", "template", "spec", "containers"}).smp_merge_key, "name");

  ListType job_conditions = builtin_list_types("batch/v1", "Job")->at({"status", "conditions"});
  EXPECT_EQ(job_conditions.kind, ListKind::Atomic);  // +listType=atomic
  EXPECT_EQ(job_conditions.smp_merge_key, "type");   // patchMergeKey=type

  EXPECT_EQ(default_list_types().at({"spec", "containers"}).kind, ListKind::Atomic);
  EXPECT_EQ(describe({"spec", "containers", "[]", "ports"}), ".spec.containers[].ports");
}

TEST(PatchListTypes, BuiltinKinds) {
  EXPECT_TRUE(is_builtin_kind("v1", "ConfigMap"));
  EXPECT_TRUE(is_builtin_kind("apps/v1", "Deployment"));
  EXPECT_TRUE(is_builtin_kind("rbac.authorization.k8s.io/v1", "Role"));
  EXPECT_FALSE(is_builtin_kind("certs.capstan.dev/v1", "Certificate"));
}

TEST(PatchListTypes, CrdSchemaAdapter) {
  auto t = schema_list_types(J(R"({
    "type": "object",
    "properties": {
      "spec": {
        "type": "object",
        "properties": {
          "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
                    "items": {"type": "object", "required": ["port"],
                              "properties": {"port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"},
                                             "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}},
          "dnsNames": {"type": "array", "items": {"type": "string"}},
          "labels": {"type": "object", "additionalProperties": {"type": "string"}},
          "ref": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"name": {"type": "string"}}},
          "config": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
          "template": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"metadata": {"type": "object"}}}
        }
      },
      "status": {"type": "object", "properties": {"conditions": {"type": "array", "x-kubernetes-list-type": "map",
                 "x-kubernetes-list-map-keys": ["type"], "items": {"type": "object", "properties": {"type": {"type": "string"}}}}}}
    }})"));
  ListType ports = t->at({"spec", "ports"});
  EXPECT_EQ(ports.kind, ListKind::Map);
  EXPECT_EQ(ports.keys, (std::vector<std::string>{"port", "protocol"}));
  EXPECT_EQ(ports.key_defaults.at("protocol").as_string(), "TCP");
  EXPECT_EQ(t->at({"spec", "ports", "[]", "tags"}).kind, ListKind::Set);
  EXPECT_EQ(t->at({"spec", "dnsNames"}).kind, ListKind::Atomic);
  EXPECT_EQ(t->at({"status", "conditions"}).keys, (std::vector<std::string>{"type"}));
  EXPECT_EQ(t->at({"spec", "nope"}).kind, ListKind::Atomic);
  EXPECT_EQ(t->map_at({"spec"}), MapKind::Struct);
  EXPECT_EQ(t->map_at({"spec", "labels"}), MapKind::Map);
  EXPECT_EQ(t->map_at({"spec", "ref"}), MapKind::Atomic);
  EXPECT_EQ(t->map_at({"spec", "config"}), MapKind::Map);
  EXPECT_EQ(t->map_at({"spec", "config", "nested"}), MapKind::Map);  // unknown fields: a deduced map
  // The object's and embedded resources' metadata follow ObjectMeta.
  EXPECT_EQ(t->at({"metadata", "finalizers"}).kind, ListKind::Set);
  EXPECT_EQ(t->map_at({"metadata", "labels"}), MapKind::Map);
  EXPECT_EQ(t->map_at({"metadata"}), MapKind::Struct);
  EXPECT_EQ(t->at({"spec", "template", "metadata", "ownerReferences"}).keys, (std::vector<std::string>{"uid"}));
}

}  // namespace
}  // namespace capstan::apiserver::patch
