// Strimzi's rules for Kafka and KafkaNodePool as field.Error causes, on create and on update.
#include "apis/kafka/v1/metadata_versions.h"
#include "apis/kafka/v1/validation.h"
#include "apis/kafka/v1/types.h"

#include "apis/common/sample_test_util.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::kafka::v1 {
namespace {

using Strings = std::vector<std::string>;

using validation::errors;

json::Value kafka(const std::string& kafka_yaml) {
  return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: Kafka\nmetadata: {name: events}\nspec:\n  kafka:\n" + kafka_yaml);
}

json::Value pool(const std::string& spec_yaml, const std::string& cluster = "events") {
  return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaNodePool\nmetadata: {name: p, labels: {kafka.capstan.dev/cluster: " +
                         cluster + "}}\nspec: " + spec_yaml);
}

TEST(KafkaValidation, TheSamplesAreValid) {
  auto objects = apis::testing::sample_documents("kafka.yaml");
  ASSERT_FALSE(objects.empty());
  for (const auto& o : objects) {
    auto kind = json::get_string(o, {"kind"});
    auto causes = kind == "Kafka" ? validate_kafka(o) : validate_kafka_node_pool(o);
    EXPECT_EQ(errors(causes), Strings{}) << kind;
  }
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: [{name: plain, port: 9092, type: internal, tls: false}]\n"
                                        "    config: {ssl.cipher.suites: TLS_AES_256_GCM_SHA384, log.retention.hours: 1}"))),
            Strings{})
      << "ssl.cipher.suites is one of Strimzi's exceptions";
}

TEST(KafkaValidation, ListenersAndConfigEveryErrorAtOnce) {
  auto k = kafka(R"(    version: 4.1.0
    metadataVersion: 4.2-IV1
    listeners:
    - {name: plain, port: 9092, type: internal, tls: false}
    - {name: plain, port: 9092, type: internal, tls: false}
    - {name: repl, port: 9091, type: internal, tls: true}
    - {name: Bad_Name, port: 80, type: bogus, tls: false}
    config: {listeners: 'PLAINTEXT://:1', node.id: 7, log.retention.hours: 1}
)");
  EXPECT_EQ(errors(validate_kafka(k)),
            (Strings{"spec.kafka.listeners[1].name: Duplicate value: \"plain\"",
                     "spec.kafka.listeners[1].port: Duplicate value: 9092",
                     "spec.kafka.listeners[2].port: Invalid value: 9091: ports 9090 and 9091 are reserved for the control plane and replication",
                     "spec.kafka.listeners[3].name: Invalid value: \"Bad_Name\": must be 1-11 lower-case letters and digits ([a-z0-9]{1,11})",
                     "spec.kafka.listeners[3].port: Invalid value: 80: must be between 9092 and 65535, inclusive",
                     "spec.kafka.listeners[3].type: Unsupported value: \"bogus\": supported values: \"internal\", \"cluster-ip\", \"loadbalancer\", "
                     "\"nodeport\", \"ingress\"",
                     "spec.kafka.config[listeners]: Forbidden: set by the operator (the listeners prefix is reserved)",
                     "spec.kafka.config[node.id]: Forbidden: set by the operator (the node.id prefix is reserved)",
                     "spec.kafka.metadataVersion: Invalid value: \"4.2-IV1\": is higher than the Kafka version 4.1.0"}));
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: []"))), Strings{"spec.kafka.listeners: Required value: at least one listener is required"});
  EXPECT_EQ(errors(validate_kafka(json::from_yaml("spec: {}"))), Strings{"spec.kafka: Required value"});
  EXPECT_EQ(errors(validate_kafka(kafka("    version: four\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]"))),
            Strings{"spec.kafka.version: Unsupported value: \"four\": supported values: \"4.0.0\", \"4.1.0\""});
  // Only releases with Strimzi's image (Strimzi 0.48's).
  EXPECT_EQ(errors(validate_kafka(kafka("    version: 3.9.0\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]"))),
            Strings{"spec.kafka.version: Unsupported value: \"3.9.0\": supported values: \"4.0.0\", \"4.1.0\""});
  EXPECT_EQ(errors(validate_kafka(kafka("    version: 4.0.0\n    metadataVersion: 4.1-IV1\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]"))),
            Strings{"spec.kafka.metadataVersion: Invalid value: \"4.1-IV1\": is higher than the Kafka version 4.0.0"});
  // Only the pinned release's metadata versions: a broker refuses a feature level it does not know.
  EXPECT_EQ(errors(validate_kafka(kafka("    metadataVersion: 4.1-IV2\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]"))),
            Strings{"spec.kafka.metadataVersion: Invalid value: \"4.1-IV2\": is not a metadata version of Kafka 4.1.0 (3.3-IV3 to 4.1-IV1)"});
  EXPECT_EQ(errors(validate_kafka(kafka("    metadataVersion: 3.2-IV0\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]"))).size(),
            1u);
}

TEST(KafkaValidation, MetadataVersionsMapToThePinnedReleasesFeatureLevels) {
  EXPECT_EQ(metadata_version_level("3.3-IV3"), 7);
  EXPECT_EQ(metadata_version_level("3.9-IV0"), 21);
  EXPECT_EQ(metadata_version_level("4.0-IV3"), 25);
  EXPECT_EQ(metadata_version_level("4.1-IV1"), 27);
  EXPECT_EQ(metadata_version_level("3.7"), 19) << "a release alone is its last version (3.7-IV4)";
  EXPECT_EQ(metadata_version_level("4.2-IV0"), std::nullopt) << "unstable in 4.1.0";
  EXPECT_EQ(metadata_version_level("4"), std::nullopt);
  EXPECT_EQ(metadata_version_level("4.1-IV"), std::nullopt);
  EXPECT_EQ(metadata_version_level(""), std::nullopt);
  EXPECT_EQ(metadata_version_name(21), "3.9-IV0");
  EXPECT_EQ(metadata_version_name(6), std::nullopt);
  EXPECT_EQ(metadata_version_level(kDefaultMetadataVersion), kMetadataVersions.back().level) << "the default is the latest production version";
  for (std::size_t i = 1; i < kMetadataVersions.size(); ++i) EXPECT_EQ(kMetadataVersions[i].level, kMetadataVersions[i - 1].level + 1);
}

TEST(KafkaValidation, ListenerTypesAndTheirConfiguration) {
  EXPECT_EQ(errors(validate_kafka(kafka(R"(    listeners:
    - {name: cip, port: 9092, type: cluster-ip, tls: false, configuration: {brokers: [{broker: 0, advertisedHost: 192.0.2.1, advertisedPort: 9000}]}}
    - name: lb
      port: 9093
      type: loadbalancer
      tls: false
      configuration: {class: metallb, externalTrafficPolicy: Local, loadBalancerSourceRanges: [10.0.0.0/8, "2001:db8::/32"]}
    - {name: np, port: 9094, type: nodeport, tls: false, configuration: {preferredNodePortAddressType: InternalIP, bootstrap: {nodePort: 32000}, brokers: [{broker: 1, nodePort: 32001}]}}
    - {name: ing, port: 9095, type: ingress, tls: true, configuration: {class: nginx, bootstrap: {host: b.example.com}, brokers: [{broker: 0, host: b0.example.com}]}}
)"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka(kafka(R"(    listeners:
    - {name: r, port: 9092, type: route, tls: true}
    - {name: t, port: 9093, type: tlsroute, tls: true}
    - {name: ing, port: 9094, type: ingress, tls: false, configuration: {brokers: [{broker: 0}]}}
    - name: np
      port: 9095
      type: nodeport
      tls: false
      configuration:
        class: x
        loadBalancerSourceRanges: [10.0.0.0/33]
        bootstrap: {host: a.example.com, nodePort: 0}
        brokers: [{broker: 1, advertisedHost: "-bad-", advertisedPort: 70000, host: b.example.com}, {broker: 1}]
)"))),
            (Strings{"spec.kafka.listeners[0].type: Forbidden: listener type route is not served: OpenShift Routes are not supported; use "
                     "loadbalancer, nodeport, ingress or cluster-ip",
                     "spec.kafka.listeners[1].type: Forbidden: listener type tlsroute is not served: Gateway API TLSRoutes are not supported; use "
                     "loadbalancer, nodeport, ingress or cluster-ip",
                     "spec.kafka.listeners[2].tls: Forbidden: an ingress listener needs tls: true (the Ingress controller passes TLS through)",
                     "spec.kafka.listeners[2].configuration.bootstrap.host: Required value: an ingress listener needs the host of its bootstrap Ingress",
                     "spec.kafka.listeners[2].configuration.brokers[0].host: Required value: an ingress listener needs the host of each broker's Ingress",
                     "spec.kafka.listeners[3].configuration.class: Forbidden: only for ingress and loadbalancer listeners",
                     "spec.kafka.listeners[3].configuration.loadBalancerSourceRanges: Forbidden: only for loadbalancer listeners",
                     "spec.kafka.listeners[3].configuration.loadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": must be a CIDR such as 10.0.0.0/8",
                     "spec.kafka.listeners[3].configuration.bootstrap.host: Forbidden: only for ingress listeners",
                     "spec.kafka.listeners[3].configuration.bootstrap.nodePort: Invalid value: 0: must be between 1 and 65535, inclusive",
                     "spec.kafka.listeners[3].configuration.brokers[0].host: Forbidden: only for ingress listeners",
                     "spec.kafka.listeners[3].configuration.brokers[0].advertisedHost: Invalid value: \"-bad-\": must be an IP address or a DNS name: "
                     "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                     "alphanumeric character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                     "spec.kafka.listeners[3].configuration.brokers[0].advertisedPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                     "spec.kafka.listeners[3].configuration.brokers[1].broker: Duplicate value: 1"}));
  // An ingress listener without any broker hosts; too many brokers entries.
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: [{name: ing, port: 9092, type: ingress, tls: true, configuration: {bootstrap: {host: b.example.com}}}]"))),
            Strings{"spec.kafka.listeners[0].configuration.brokers: Required value: an ingress listener needs the host of each broker's Ingress (brokers[].host)"});
  std::string many = "    listeners: [{name: cip, port: 9092, type: cluster-ip, tls: false, configuration: {brokers: [";
  for (int i = 0; i <= kMaxListenerBrokers; ++i) many += (i ? "," : "") + std::string("{broker: ") + std::to_string(i) + "}";
  EXPECT_EQ(errors(validate_kafka(kafka(many + "]}}]"))),
            Strings{"spec.kafka.listeners[0].configuration.brokers: Too many: 1001: must have at most 1000 items"});
}

TEST(KafkaValidation, UpdateKeepsClusterIdAndNeverDowngradesMetadata) {
  auto old = kafka("    metadataVersion: 4.1-IV1\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  json::ensure_object(old, {"status"})["clusterId"] = "abc";
  auto now = kafka("    metadataVersion: 4.0-IV3\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  json::ensure_object(now, {"status"})["clusterId"] = "xyz";
  EXPECT_EQ(errors(validate_kafka(now, &old)),
            Strings{"spec.kafka.metadataVersion: Forbidden: the metadata version cannot be downgraded (from 4.1-IV1 to 4.0-IV3)"});
  EXPECT_EQ(errors(validate_status_update(now, old)),
            Strings{"status.clusterId: Invalid value: \"xyz\": field is immutable: the KRaft cluster ID is set once (nodes formatted with it "
                    "refuse another)"});
  // An upgrade, and the first cluster ID, are fine.
  auto up = kafka("    metadataVersion: 4.1-IV1\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  json::ensure_object(up, {"status"})["clusterId"] = "abc";
  EXPECT_EQ(errors(validate_kafka(up, &old)), Strings{});
  auto older = kafka("    metadataVersion: 3.9-IV0\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  EXPECT_EQ(errors(validate_kafka(up, &older)), Strings{});
  // A release alone means its last version: 4.0 is 4.0-IV3, below the default (4.1-IV1) of an
  // old object that named none.
  auto unnamed = kafka("    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  auto release = kafka("    metadataVersion: \"4.0\"\n    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  EXPECT_EQ(errors(validate_kafka(release, &unnamed)),
            Strings{"spec.kafka.metadataVersion: Forbidden: the metadata version cannot be downgraded (from 4.1-IV1 to 4.0)"});
  EXPECT_EQ(errors(validate_kafka(release, &older)), Strings{});
  auto fresh = kafka("    listeners: [{name: a, port: 9092, type: internal, tls: false}]");
  auto first = fresh;
  json::ensure_object(first, {"status"})["clusterId"] = "abc";
  EXPECT_EQ(errors(validate_status_update(first, fresh)), Strings{});
  auto removed = fresh;
  EXPECT_EQ(errors(validate_status_update(removed, first)).size(), 1u) << "nor removed";
}

// spec.kafka.version moves the metadata version with it when the spec names none (the release's
// own): an upgrade raises it; a downgrade is refused unless the older release runs the metadata
// version the cluster has, named in the spec.
TEST(KafkaValidation, KafkaUpgradeRaisesTheMetadataVersionAndADowngradeKeepsIt) {
  const std::string listeners = "    listeners: [{name: a, port: 9092, type: internal, tls: false}]";
  auto v400 = kafka("    version: 4.0.0\n" + listeners);
  auto v410 = kafka("    version: 4.1.0\n" + listeners);
  EXPECT_EQ(errors(validate_kafka(v410, &v400)), Strings{});
  EXPECT_EQ(errors(validate_kafka(v400, &v410)),
            Strings{"spec.kafka.version: Forbidden: Kafka 4.0.0 runs metadata versions up to 4.0-IV3, and the cluster's is 4.1-IV1, which "
                    "cannot be downgraded"});
  auto kept = kafka("    version: 4.1.0\n    metadataVersion: 4.0-IV3\n" + listeners);
  EXPECT_EQ(errors(validate_kafka(kept, &v400)), Strings{});
  EXPECT_EQ(errors(validate_kafka(v400, &kept)), Strings{}) << "4.0.0 runs 4.0-IV3: the downgrade keeps the cluster's metadata";
  auto unnamed = kafka(listeners);
  EXPECT_EQ(errors(validate_kafka(unnamed, &v400)), Strings{}) << "no version is the default release, 4.1.0";
  EXPECT_EQ(errors(validate_kafka(v400, &unnamed)).size(), 1u);
  EXPECT_EQ(kafka_release("4.0.0")->metadata_version, "4.0-IV3");
  EXPECT_EQ(kafka_release("4.0.1"), nullptr);
}

TEST(KafkaValidation, TheCasAreRenewedBeforeTheyExpireAndAlwaysGenerated) {
  const std::string listeners = "    listeners: [{name: a, port: 9092, type: internal, tls: false}]\n";
  auto with = [&](const std::string& cas) { return kafka(listeners + cas); };
  EXPECT_EQ(errors(validate_kafka(with("  clusterCa: {validityDays: 100, renewalDays: 10, certificateExpirationPolicy: replace-key}\n"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka(with("  clusterCa: {validityDays: 10, renewalDays: 10}\n"))),
            Strings{"spec.clusterCa.renewalDays: Invalid value: 10: must be fewer than validityDays (10)"});
  EXPECT_EQ(errors(validate_kafka(with("  clientsCa: {validityDays: 20}\n"))),
            Strings{"spec.clientsCa.renewalDays: Invalid value: 30: must be fewer than validityDays (20): the default renewalDays is 30"});
  EXPECT_EQ(errors(validate_kafka(with("  clientsCa: {generateCertificateAuthority: false}\n"))),
            Strings{"spec.clientsCa.generateCertificateAuthority: Forbidden: a CA of your own is not supported: the certificates controller "
                    "issues the cluster's CAs"});
}

TEST(KafkaNodePoolValidation, RolesReplicasStorage) {
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 3, roles: [controller, broker], storage: {type: persistent-claim, size: 10Gi}}"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 1001, roles: [broker, broker, zookeeper], storage: {type: persistent-claim, "
                                                 "size: ten, sizeLimit: 1Gi}}"))),
            (Strings{"spec.replicas: Invalid value: 1001: must be between 0 and 1000, inclusive",
                     "spec.roles[1]: Duplicate value: \"broker\"",
                     "spec.roles[2]: Unsupported value: \"zookeeper\": supported values: \"broker\", \"controller\"",
                     "spec.storage.size: Invalid value: \"ten\": must be a quantity such as 100Gi",
                     "spec.storage.sizeLimit: Forbidden: only for ephemeral storage"}));
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: -1, roles: [], storage: {type: persistent-claim}}"))),
            (Strings{"spec.replicas: Invalid value: -1: must be between 0 and 1000, inclusive",
                     "spec.roles: Required value: a node pool needs the controller role, the broker role or both",
                     "spec.storage.size: Required value: a persistent-claim storage needs a size"}));
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 1, roles: [broker], storage: {type: ephemeral, size: 1Gi, class: fast}}"))),
            (Strings{"spec.storage.size: Forbidden: only for persistent-claim storage",
                     "spec.storage.class: Forbidden: only for persistent-claim storage"}));
  EXPECT_EQ(errors(validate_kafka_node_pool(json::from_yaml("spec: {}"))),
            (Strings{"spec.replicas: Required value", "spec.roles: Required value: a node pool needs the controller role, the broker role or both",
                     "spec.storage: Required value"}));
}

TEST(KafkaNodePoolValidation, UpdateRulesUseTheOldObject) {
  auto old = pool("{replicas: 3, roles: [controller, broker], storage: {type: persistent-claim, size: 10Gi, class: fast}}");
  json::ensure_object(old, {"status"})["clusterId"] = "abc";
  auto now = pool("{replicas: 5, roles: [broker], storage: {type: ephemeral}}", "other");
  json::ensure_object(now, {"status"})["clusterId"] = "abc";
  EXPECT_EQ(errors(validate_kafka_node_pool(now, &old)),
            (Strings{"spec.storage.type: Invalid value: \"ephemeral\": field is immutable: changing the storage type of a node pool is not "
                     "supported (was persistent-claim)",
                     "spec.roles: Forbidden: the controller role cannot be removed from an existing node pool: the KRaft controller quorum is "
                     "static",
                     "metadata.labels[kafka.capstan.dev/cluster]: Invalid value: \"other\": field is immutable: a node pool cannot move to "
                     "another Kafka cluster (was events)"}));
  auto shrink = pool("{replicas: 3, roles: [controller, broker], storage: {type: persistent-claim, size: 9Gi, class: slow}}");
  EXPECT_EQ(errors(validate_kafka_node_pool(shrink, &old)),
            (Strings{"spec.storage.class: Invalid value: \"slow\": field is immutable: the claims' StorageClass cannot change",
                     "spec.storage.size: Invalid value: \"9Gi\": shrinking persistent volumes is not supported (was 10Gi)"}));
  // Growing the claims, scaling and deleteClaim are allowed; so is the same object again.
  auto grow = pool("{replicas: 7, roles: [broker, controller], storage: {type: persistent-claim, size: 20Gi, class: fast, deleteClaim: true}}");
  EXPECT_EQ(errors(validate_kafka_node_pool(grow, &old)), Strings{});
  EXPECT_EQ(errors(validate_kafka_node_pool(old, &old)), Strings{});
}

TEST(KafkaNodePoolValidation, JbodVolumesHaveUniqueIdsAndOneMetadataVolume) {
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 3, roles: [broker], storage: {type: jbod, volumes: ["
                                                 "{id: 0, type: persistent-claim, size: 10Gi, kraftMetadata: shared}, "
                                                 "{id: 1, type: ephemeral, sizeLimit: 1Gi}]}}"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 3, roles: [broker], storage: {type: jbod, size: 1Gi, volumes: ["
                                                 "{id: 0, type: persistent-claim, kraftMetadata: shared}, "
                                                 "{id: 0, type: ephemeral, class: fast, kraftMetadata: shared}, "
                                                 "{type: jbod}, {type: persistent-claim, size: 1Gi, id: 10000}]}}"))),
            (Strings{"spec.storage.size: Forbidden: jbod storage sets this on each of its volumes",
                     "spec.storage.volumes[0].size: Required value: a persistent-claim storage needs a size",
                     "spec.storage.volumes[1].id: Duplicate value: 0",
                     "spec.storage.volumes[1].kraftMetadata: Invalid value: \"shared\": only one volume holds the KRaft metadata log "
                     "(volumes[0] does)",
                     "spec.storage.volumes[1].class: Forbidden: only for persistent-claim storage",
                     "spec.storage.volumes[2].type: Unsupported value: \"jbod\": supported values: \"ephemeral\", \"persistent-claim\"",
                     "spec.storage.volumes[3].id: Invalid value: 10000: must be between 0 and 9999, inclusive"}));
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 1, roles: [broker], storage: {type: jbod}}"))),
            Strings{"spec.storage.volumes: Required value: jbod storage needs at least one volume"});
  EXPECT_EQ(errors(validate_kafka_node_pool(pool("{replicas: 1, roles: [broker], storage: {type: ephemeral, volumes: [{id: 0, type: ephemeral}]}}"))),
            Strings{"spec.storage.volumes: Forbidden: only for jbod storage"});
  std::string many = "{replicas: 1, roles: [broker], storage: {type: jbod, volumes: [";
  for (int i = 0; i <= kMaxJbodVolumes; ++i) many += (i ? "," : "") + std::string("{id: ") + std::to_string(i) + ", type: ephemeral}";
  EXPECT_EQ(errors(validate_kafka_node_pool(pool(many + "]}}"))), Strings{"spec.storage.volumes: Too many: 65: must have at most 64 items"});
}

TEST(KafkaNodePoolValidation, JbodVolumesGrowComeAndGoButKeepTheirTypeClassAndTheMetadataLog) {
  auto old = pool("{replicas: 3, roles: [broker], storage: {type: jbod, volumes: [{id: 0, type: persistent-claim, size: 10Gi, class: fast}, "
                  "{id: 1, type: persistent-claim, size: 10Gi}]}}");
  auto grown = pool("{replicas: 3, roles: [broker], storage: {type: jbod, volumes: [{id: 0, type: persistent-claim, size: 20Gi, class: fast}, "
                    "{id: 2, type: ephemeral}]}}");
  EXPECT_EQ(errors(validate_kafka_node_pool(grown, &old)), Strings{}) << "volume 0 grows, volume 1 goes, volume 2 comes";
  auto changed = pool("{replicas: 3, roles: [broker], storage: {type: jbod, volumes: [{id: 1, type: ephemeral}, "
                      "{id: 0, type: persistent-claim, size: 5Gi, class: slow}]}}");
  EXPECT_EQ(errors(validate_kafka_node_pool(changed, &old)),
            (Strings{"spec.storage.volumes[1].class: Invalid value: \"slow\": field is immutable: the claims' StorageClass cannot change",
                     "spec.storage.volumes[1].size: Invalid value: \"5Gi\": shrinking persistent volumes is not supported (was 10Gi)",
                     "spec.storage.volumes[0].type: Invalid value: \"ephemeral\": field is immutable: a volume keeps its type (was persistent-claim)"}));
  auto moved = pool("{replicas: 3, roles: [broker], storage: {type: jbod, volumes: [{id: 0, type: persistent-claim, size: 10Gi, class: fast}, "
                    "{id: 1, type: persistent-claim, size: 10Gi, kraftMetadata: shared}]}}");
  EXPECT_EQ(errors(validate_kafka_node_pool(moved, &old)),
            Strings{"spec.storage.volumes: Forbidden: the KRaft metadata log cannot move: it stays on the volume of id 0 (now 1)"});
}

TEST(KafkaNodePoolValidation, WarnsWithoutClusterLabel) {
  EXPECT_EQ(kafka_node_pool_warnings(json::from_yaml("metadata: {name: p}")).size(), 1u);
  EXPECT_TRUE(kafka_node_pool_warnings(pool("{}")).empty());
}

}  // namespace
}  // namespace capstan::apis::kafka::v1

namespace capstan::apis::kafka::v1 {
namespace {

json::Value topic(const std::string& rest) {
  return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaTopic\n" + rest);
}

TEST(KafkaTopicValidation, AStrimziTopicIsValid) {
  auto t = topic("metadata: {name: orders, labels: {kafka.capstan.dev/cluster: events}}\n"
                 "spec: {partitions: 12, replicas: 3, config: {retention.ms: 604800000, cleanup.policy: compact, "
                 "min.insync.replicas: 2, unclean.leader.election.enable: false, follower.replication.throttled.replicas: ['1:2', '3:4']}}");
  EXPECT_EQ(validation::errors(validate_kafka_topic(t)), std::vector<std::string>{});
  KafkaTopic typed = KafkaTopic::from_json(t);
  auto configs = typed.spec.configs();
  EXPECT_EQ(configs["retention.ms"], "604800000");
  EXPECT_EQ(configs["unclean.leader.election.enable"], "false");
  EXPECT_EQ(configs["follower.replication.throttled.replicas"], "1:2,3:4") << "lists are Kafka's comma-separated values";
}

TEST(KafkaTopicValidation, EveryErrorAtOnce) {
  auto t = topic("metadata: {name: orders}\n"
                 "spec: {topicName: 'orders/eu', partitions: 0, replicas: 40000, config: {retention.ms: {nested: 1}}}");
  EXPECT_EQ(validation::errors(validate_kafka_topic(t)),
            (std::vector<std::string>{
                "metadata.labels[kafka.capstan.dev/cluster]: Required value: the name of the Kafka cluster the topic belongs to",
                "spec.topicName: Invalid value: \"orders/eu\": must consist of ASCII letters, digits, '.', '_' and '-'",
                "spec.partitions: Invalid value: 0: must be between 1 and 100000, inclusive",
                "spec.replicas: Invalid value: 40000: must be between 1 and 32767, inclusive",
                "spec.config[retention.ms]: Invalid value: {\"nested\":1}: must be a string, number, boolean or a list of those"}));
}

TEST(KafkaTopicValidation, TheTopicNameAndClusterAreKeptOnUpdate) {
  auto old = topic("metadata: {name: orders, labels: {kafka.capstan.dev/cluster: events}}\nspec: {partitions: 3}");
  auto grown = topic("metadata: {name: orders, labels: {kafka.capstan.dev/cluster: events}}\nspec: {partitions: 6}");
  EXPECT_EQ(validation::errors(validate_kafka_topic(grown, &old)), std::vector<std::string>{});
  auto renamed = topic("metadata: {name: orders, labels: {kafka.capstan.dev/cluster: audit}}\nspec: {topicName: orders-v2}");
  EXPECT_EQ(validation::errors(validate_kafka_topic(renamed, &old)),
            (std::vector<std::string>{
                "spec.topicName: Invalid value: \"orders-v2\": field is immutable: changing the topic name is not supported (was \"orders\")",
                "metadata.labels[kafka.capstan.dev/cluster]: Invalid value: \"audit\": field is immutable: a topic cannot move to another cluster"}));
}

TEST(KafkaValidation, MetricsConfigNamesAConfigMapKeyAndThePodMonitorValidLabels) {
  auto k = kafka(R"(    listeners: [{name: plain, port: 9092, type: internal, tls: true}]
    metricsConfig:
      type: jmxPrometheusExporter
      valueFrom: {configMapKeyRef: {name: Kafka_Metrics, key: "a/b"}}
      podMonitor: {labels: {"bad key!": main, release: "not valid!"}}
)");
  EXPECT_EQ(errors(validate_kafka(k)),
            (Strings{"spec.kafka.metricsConfig.valueFrom.configMapKeyRef.name: Invalid value: \"Kafka_Metrics\": a lowercase RFC 1123 "
                     "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                     "alphanumeric character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                     "spec.kafka.metricsConfig.valueFrom.configMapKeyRef.key: Invalid value: \"a/b\": a valid config key must consist of "
                     "alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for "
                     "validation is '[-._a-zA-Z0-9]+')",
                     "spec.kafka.metricsConfig.podMonitor.labels[bad key!]: Invalid value: \"bad key!\": name part must consist of "
                     "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                     "'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                     "spec.kafka.metricsConfig.podMonitor.labels[release]: Invalid value: \"not valid!\": a valid label must be an "
                     "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                     "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                     "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}));
}

TEST(KafkaValidation, RackTopologyKeyIsALabelKey) {
  auto with_rack = [](const std::string& key) {
    return kafka("    listeners: [{name: plain, port: 9092, type: internal, tls: false}]\n    rack: {topologyKey: \"" + key + "\"}\n");
  };
  EXPECT_EQ(errors(validate_kafka(with_rack("topology.kubernetes.io/zone"))), Strings{});
  EXPECT_EQ(errors(validate_kafka(with_rack("rack"))), Strings{});
  const auto bad = errors(validate_kafka(with_rack("zone name/")));
  ASSERT_EQ(bad.size(), 3u) << ::testing::PrintToString(bad);  // the prefix, and the name part: empty and malformed
  for (const auto& e : bad) EXPECT_EQ(e.rfind("spec.kafka.rack.topologyKey: Invalid value: \"zone name/\": ", 0), 0u) << e;
  EXPECT_NE(bad[1].find("name part must be non-empty"), std::string::npos) << bad[1];
  const auto empty = errors(validate_kafka(with_rack("")));
  ASSERT_EQ(empty.size(), 2u) << ::testing::PrintToString(empty);
  EXPECT_EQ(empty[0], "spec.kafka.rack.topologyKey: Invalid value: \"\": name part must be non-empty");
}

TEST(KafkaValidation, ClientAuthenticationNeedsATlsListener) {
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: [{name: a, port: 9092, type: internal, tls: false, authentication: {type: tls}}]\n"))),
            Strings{"spec.kafka.listeners[0].authentication: Forbidden: TLS client authentication needs a TLS listener (tls: true)"});
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: [{name: a, port: 9092, type: internal, tls: true, authentication: {type: tls}}]\n"
                                        "    authorization: {type: simple, superUsers: [CN=alice]}\n"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka(kafka("    listeners: [{name: a, port: 9092, type: internal, tls: false, authentication: {type: scram-sha-512}}]\n"))),
            Strings{})
      << "SCRAM works on a plaintext listener (SASL_PLAINTEXT), as in Strimzi";
}

TEST(KafkaUserValidation, ClusterLabelAndAclResources) {
  auto user = [](const std::string& rest) { return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaUser\n" + rest); };
  auto bad = user(R"(metadata: {name: carol}
spec:
  authorization:
    type: simple
    acls:
      - {resource: {type: topic}, operations: [Read]}
      - {resource: {type: cluster, name: mine, patternType: prefix}, operations: [Describe]}
)");
  EXPECT_EQ(errors(validate_kafka_user(bad)),
            (Strings{"metadata.labels[kafka.capstan.dev/cluster]: Required value: the name of the Kafka cluster the user belongs to",
                     "spec.authorization.acls[0].resource.name: Required value: the topic's name",
                     "spec.authorization.acls[1].resource.name: Forbidden: the cluster resource has no name",
                     "spec.authorization.acls[1].resource.patternType: Forbidden: the cluster resource has no prefix"}));
  auto good = user("metadata: {name: carol, labels: {kafka.capstan.dev/cluster: events}}\n"
                   "spec: {authentication: {type: tls}, authorization: {type: simple, acls: [{resource: {type: cluster}, operations: [All]}]}}");
  EXPECT_EQ(errors(validate_kafka_user(good)), Strings{});
  auto moved = user("metadata: {name: carol, labels: {kafka.capstan.dev/cluster: audit}}\nspec: {}");
  EXPECT_EQ(errors(validate_kafka_user(moved, &good)),
            Strings{"metadata.labels[kafka.capstan.dev/cluster]: Invalid value: \"audit\": field is immutable: a user cannot move to another cluster"});
}

TEST(KafkaUserValidation, TransactionalIdRulesTakeANameAPatternAndTheOperationsOfATransactionalId) {
  auto user = [](const std::string& acls) {
    return json::from_yaml("apiVersion: kafka.capstan.dev/v1\nkind: KafkaUser\nmetadata: {name: carol, labels: {kafka.capstan.dev/cluster: events}}\n"
                           "spec:\n  authorization:\n    type: simple\n    acls:\n" + acls);
  };
  EXPECT_EQ(errors(validate_kafka_user(user("      - {resource: {type: transactionalId, name: tx-, patternType: prefix}, operations: [Write, Describe]}\n"
                                            "      - {resource: {type: transactionalId, name: orders-tx}, operations: [All], type: deny}\n"))),
            Strings{});
  EXPECT_EQ(errors(validate_kafka_user(user("      - {resource: {type: transactionalId, name: tx-, patternType: prefix}, operations: [Write, Read, Create]}\n"
                                            "      - {resource: {type: transactionalId}, operations: [Describe]}\n"
                                            "      - {resource: {type: topic, name: tx-}, operations: [Read]}\n"))),
            (Strings{"spec.authorization.acls[0].operations[1]: Unsupported value: \"Read\": supported values: \"Describe\", \"Write\", \"All\"",
                     "spec.authorization.acls[0].operations[2]: Unsupported value: \"Create\": supported values: \"Describe\", \"Write\", \"All\"",
                     "spec.authorization.acls[1].resource.name: Required value: the transactionalId's name"}));
}

TEST(KafkaTopicValidation, ConfigCountIsBounded) {
  std::string config;
  for (int i = 0; i < 300; ++i) config += (i ? ", " : "") + std::string("k") + std::to_string(i) + ": v";
  auto t = topic("metadata: {name: orders, labels: {kafka.capstan.dev/cluster: events}}\nspec: {config: {" + config + "}}");
  EXPECT_EQ(validation::errors(validate_kafka_topic(t)),
            std::vector<std::string>{"spec.config: Too many: 300: must have at most 256 items"});
}

}  // namespace
}  // namespace capstan::apis::kafka::v1
