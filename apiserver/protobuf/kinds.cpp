// apiVersion + kind -> top-level message.
#include "apiserver/protobuf/schema.h"

#include <array>

namespace capstan::apiserver::protobuf::schema {
namespace {

constexpr std::array kKinds = {
    KindEntry{"v1", "ConfigMap", &kConfigMap},
    KindEntry{"v1", "Secret", &kSecret},
    KindEntry{"v1", "Namespace", &kNamespace},
    KindEntry{"v1", "Service", &kService},
    KindEntry{"v1", "ServiceAccount", &kServiceAccount},
    KindEntry{"v1", "Pod", &kPod},
    KindEntry{"v1", "PodTemplate", &kPodTemplate},
    KindEntry{"v1", "ReplicationController", &kReplicationController},
    KindEntry{"v1", "ResourceQuota", &kResourceQuota},
    KindEntry{"v1", "LimitRange", &kLimitRange},
    KindEntry{"v1", "PersistentVolumeClaim", &kPersistentVolumeClaim},
    KindEntry{"v1", "Endpoints", &kEndpoints},
    KindEntry{"v1", "Binding", &kBinding},
    KindEntry{"v1", "Event", &kEvent},
    KindEntry{"apps/v1", "Deployment", &kDeployment},
    KindEntry{"apps/v1", "StatefulSet", &kStatefulSet},
    KindEntry{"apps/v1", "DaemonSet", &kDaemonSet},
    KindEntry{"apps/v1", "ReplicaSet", &kReplicaSet},
    KindEntry{"apps/v1", "ControllerRevision", &kControllerRevision},
    KindEntry{"autoscaling/v1", "Scale", &kScale},
    KindEntry{"autoscaling/v1", "HorizontalPodAutoscaler", &kHorizontalPodAutoscaler},
    KindEntry{"batch/v1", "Job", &kJob},
    KindEntry{"batch/v1", "CronJob", &kCronJob},
    KindEntry{"networking.k8s.io/v1", "Ingress", &kIngress},
    KindEntry{"networking.k8s.io/v1", "IngressClass", &kIngressClass},
    KindEntry{"networking.k8s.io/v1", "NetworkPolicy", &kNetworkPolicy},
    KindEntry{"events.k8s.io/v1", "Event", &kEventsEvent},
    KindEntry{"discovery.k8s.io/v1", "EndpointSlice", &kEndpointSlice},
    KindEntry{"storage.k8s.io/v1", "StorageClass", &kStorageClass},
    KindEntry{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", &kValidatingWebhookConfiguration},
    KindEntry{"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", &kMutatingWebhookConfiguration},
    KindEntry{"policy/v1", "PodDisruptionBudget", &kPodDisruptionBudget},
    KindEntry{"policy/v1", "Eviction", &kEviction},
    KindEntry{"rbac.authorization.k8s.io/v1", "Role", &kRole},
    KindEntry{"rbac.authorization.k8s.io/v1", "ClusterRole", &kClusterRole},
    KindEntry{"rbac.authorization.k8s.io/v1", "RoleBinding", &kRoleBinding},
    KindEntry{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", &kClusterRoleBinding},
    KindEntry{"scheduling.k8s.io/v1", "PriorityClass", &kPriorityClass},
    KindEntry{"authentication.k8s.io/v1", "TokenRequest", &kTokenRequest},
    KindEntry{"authentication.k8s.io/v1", "TokenReview", &kTokenReview},
    KindEntry{"authentication.k8s.io/v1", "SelfSubjectReview", &kSelfSubjectReview},
    KindEntry{"authorization.k8s.io/v1", "SelfSubjectAccessReview", &kSelfSubjectAccessReview},
    KindEntry{"authorization.k8s.io/v1", "SelfSubjectRulesReview", &kSelfSubjectRulesReview},
    KindEntry{"authorization.k8s.io/v1", "SubjectAccessReview", &kSubjectAccessReview},
    KindEntry{"authorization.k8s.io/v1", "LocalSubjectAccessReview", &kLocalSubjectAccessReview},
    KindEntry{"certificates.k8s.io/v1", "CertificateSigningRequest", &kCertificateSigningRequest},
    KindEntry{"coordination.k8s.io/v1", "Lease", &kLease},
    KindEntry{"meta.k8s.io/v1", "DeleteOptions", &kDeleteOptions},
};

}  // namespace

std::span<const KindEntry> kinds() { return kKinds; }

const Message* find_kind(std::string_view api_version, std::string_view kind) {
  bool known_group_version = false;
  for (const auto& e : kKinds) {
    if (e.api_version != api_version) continue;
    if (e.kind == kind) return e.message;
    known_group_version = true;
  }
  // metav1.AddToGroupVersion registers the option types in every group version, so a typed client
  // may label a DeleteOptions body with the resource's own group version.
  if (known_group_version && kind == "DeleteOptions") return &kDeleteOptions;
  return nullptr;
}

}  // namespace capstan::apiserver::protobuf::schema
