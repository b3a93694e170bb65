// rbac.authorization.k8s.io/v1 (k8s.io/api/rbac/v1): Role, ClusterRole, RoleBinding,
// ClusterRoleBinding.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define RBAC "k8s.io.api.rbac.v1."

PB_MESSAGE(kPolicyRule, RBAC "PolicyRule",
           list(str(1, "verbs", kKeepZero)), list(str(2, "apiGroups")), list(str(3, "resources")),
           list(str(4, "resourceNames")), list(str(5, "nonResourceURLs")));
PB_MESSAGE(kAggregationRule, RBAC "AggregationRule", list(msg(1, "clusterRoleSelectors", kLabelSelector)));
PB_MESSAGE(kSubject, RBAC "Subject",
           str(1, "kind", kKeepZero), str(2, "apiGroup"), str(3, "name", kKeepZero), str(4, "namespace"));
PB_MESSAGE(kRoleRef, RBAC "RoleRef",
           str(1, "apiGroup", kKeepZero), str(2, "kind", kKeepZero), str(3, "name", kKeepZero));

PB_MESSAGE(kRole, RBAC "Role", msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "rules", kPolicyRule, kKeepZero)));
PB_MESSAGE(kClusterRole, RBAC "ClusterRole",
           msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "rules", kPolicyRule, kKeepZero)),
           msg(3, "aggregationRule", kAggregationRule));
PB_MESSAGE(kRoleBinding, RBAC "RoleBinding",
           msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "subjects", kSubject)), msg(3, "roleRef", kRoleRef, kValue));
PB_MESSAGE(kClusterRoleBinding, RBAC "ClusterRoleBinding",
           msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "subjects", kSubject)), msg(3, "roleRef", kRoleRef, kValue));

#undef RBAC

}  // namespace capstan::apiserver::protobuf::schema
