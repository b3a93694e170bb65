// The kafka.capstan.dev/v1 API group: Strimzi's Kafka and KafkaNodePool (kafka.strimzi.io/v1,
// KRaft only, as Strimzi since 0.46) under our group name, so a Strimzi manifest ports by
// changing its apiVersion and the strimzi.io/ label prefix. types.h lists the fields Capstan
// implements.
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::apis::kafka::v1 {

// The resources of this group (one declaration for the controllers, webhooks and tools).
inline const meta::ResourceType kKafkaType{{"kafka.capstan.dev", "v1", "kafkas"}, "Kafka", true};
inline const meta::ResourceType kKafkaNodePoolType{{"kafka.capstan.dev", "v1", "kafkanodepools"}, "KafkaNodePool", true};
inline const meta::ResourceType kKafkaTopicType{{"kafka.capstan.dev", "v1", "kafkatopics"}, "KafkaTopic", true};
inline const meta::ResourceType kKafkaUserType{{"kafka.capstan.dev", "v1", "kafkausers"}, "KafkaUser", true};

inline constexpr std::string_view kGroup = "kafka.capstan.dev";
inline constexpr std::string_view kVersion = "v1";
inline constexpr std::string_view kApiVersion = "kafka.capstan.dev/v1";

inline constexpr std::string_view kKafkaKind = "Kafka";
inline constexpr std::string_view kKafkaNodePoolKind = "KafkaNodePool";
inline constexpr std::string_view kKafkaTopicKind = "KafkaTopic";
inline constexpr std::string_view kKafkaUserKind = "KafkaUser";

// Labels (Strimzi's strimzi.io/*). A KafkaNodePool belongs to the Kafka its cluster label names.
inline constexpr std::string_view kClusterLabel = "kafka.capstan.dev/cluster";
inline constexpr std::string_view kKindLabel = "kafka.capstan.dev/kind";
inline constexpr std::string_view kNameLabel = "kafka.capstan.dev/name";
inline constexpr std::string_view kPoolNameLabel = "kafka.capstan.dev/pool-name";
inline constexpr std::string_view kPodNameLabel = "kafka.capstan.dev/pod-name";
inline constexpr std::string_view kBrokerRoleLabel = "kafka.capstan.dev/broker-role";
inline constexpr std::string_view kControllerRoleLabel = "kafka.capstan.dev/controller-role";
// Annotations (Strimzi's strimzi.io/*).
inline constexpr std::string_view kPauseAnnotation = "kafka.capstan.dev/pause-reconciliation";
inline constexpr std::string_view kRevisionAnnotation = "kafka.capstan.dev/revision";
// A Kafka annotated "true" removes brokers on scale-down even while they hold partition
// replicas (Strimzi's strimzi.io/skip-broker-scaledown-check).
inline constexpr std::string_view kSkipScaleDownCheckAnnotation = "kafka.capstan.dev/skip-broker-scaledown-check";
// "true" on a node's Pod rolls that node in the next reconcile; on a KafkaNodePool, every node
// of the pool (Strimzi's strimzi.io/manual-rolling-update, which Strimzi reads from the Pod or
// its StrimziPodSet). Nodes roll one at a time as for any other change; the annotation goes
// with the replaced Pod, and from the pool once its Pods carry it.
inline constexpr std::string_view kManualRollingUpdateAnnotation = "kafka.capstan.dev/manual-rolling-update";
// A KafkaTopic annotated "false" is left alone (Strimzi's strimzi.io/managed): deleting it then
// keeps the topic.
inline constexpr std::string_view kManagedAnnotation = "kafka.capstan.dev/managed";
// The topic operator's finalizer (Strimzi's strimzi.io/topic-operator): the topic is deleted
// from Kafka before its KafkaTopic goes.
inline constexpr std::string_view kTopicFinalizer = "kafka.capstan.dev/topic-operator";
// On a KafkaUser: its ACLs are deleted from the cluster before it goes.
inline constexpr std::string_view kUserFinalizer = "kafka.capstan.dev/user-operator";

// Conditions as Strimzi's: Ready=True on success, NotReady=True with the error's class name
// as the reason on failure (Argo CD's health check for Strimzi reads exactly these).
namespace condition {
inline constexpr std::string_view kReady = "Ready";
inline constexpr std::string_view kNotReady = "NotReady";
inline constexpr std::string_view kWarning = "Warning";
inline constexpr std::string_view kReconciliationPaused = "ReconciliationPaused";
}  // namespace condition
namespace reason {
inline constexpr std::string_view kInvalidResource = "InvalidResourceException";
inline constexpr std::string_view kCreating = "Creating";
inline constexpr std::string_view kScaleDownPrevented = "ScaleDownPreventionCheck";
// TLS listeners without the certificates controller to make their certificates.
inline constexpr std::string_view kCertificatesUnavailable = "CertificatesUnavailable";
// A listener's address is not known yet (a load balancer address, a node port, a broker's Node):
// the message names the Service or Node.
inline constexpr std::string_view kListenerAddressPending = "ListenerAddressPending";
// A node's pod not Ready for longer than the operation timeout (Strimzi's TimeoutException).
inline constexpr std::string_view kTimeout = "TimeoutException";
// Warnings of the KRaft metadata version (Strimzi's): spec.kafka.metadataVersion below the
// version the cluster finalized (not applied: KRaft metadata cannot be downgraded), and an
// upgrade the cluster refused.
inline constexpr std::string_view kKafkaMetadataVersion = "KafkaMetadataVersion";
inline constexpr std::string_view kMetadataUpdateFailed = "MetadataUpdateFailed";
// A claim change the API server refused (a shrink, another StorageClass, a resize the class does
// not allow): the message names the pool, its storage field and the claim; the claim stays as it is.
inline constexpr std::string_view kPvcResizing = "PvcResizingWarning";
// spec.kafka.rack: the API server refused the ClusterRoleBinding that lets the brokers read their
// Node (the manager lacks get on nodes, or the ClusterRole is missing); the message says which.
inline constexpr std::string_view kRackAccessDenied = "RackAccessDenied";
// A KafkaTopic's (Strimzi's topic operator reasons).
inline constexpr std::string_view kNotSupported = "NotSupported";
inline constexpr std::string_view kKafkaError = "KafkaError";
inline constexpr std::string_view kResourceConflict = "ResourceConflict";
inline constexpr std::string_view kInvalidResourceTopic = "InvalidResource";
}  // namespace reason

}  // namespace capstan::apis::kafka::v1
