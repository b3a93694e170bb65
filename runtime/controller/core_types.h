// The built-in resources controllers own or read, once for all of them.
#pragma once

#include "runtime/controller/builder.h"

namespace capstan::controller::core {

inline const ResourceType kPodType{{"", "v1", "pods"}, "Pod", true};
inline const ResourceType kServiceType{{"", "v1", "services"}, "Service", true};
inline const ResourceType kConfigMapType{{"", "v1", "configmaps"}, "ConfigMap", true};
inline const ResourceType kSecretType{{"", "v1", "secrets"}, "Secret", true};
inline const ResourceType kClaimType{{"", "v1", "persistentvolumeclaims"}, "PersistentVolumeClaim", true};
inline const ResourceType kNamespaceType{{"", "v1", "namespaces"}, "Namespace", false};
inline const ResourceType kStatefulSetType{{"apps", "v1", "statefulsets"}, "StatefulSet", true};

}  // namespace capstan::controller::core
