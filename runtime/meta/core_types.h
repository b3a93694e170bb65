// The built-in resources controllers own or read, declared once for all of them (each API
// group's own kinds are in apis/<group>/<version>/group.h).
#pragma once

#include "runtime/meta/gvk.h"

namespace capstan::meta::core {

inline const ResourceType kPodType{{"", "v1", "pods"}, "Pod", true};
inline const ResourceType kServiceType{{"", "v1", "services"}, "Service", true};
inline const ResourceType kConfigMapType{{"", "v1", "configmaps"}, "ConfigMap", true};
inline const ResourceType kSecretType{{"", "v1", "secrets"}, "Secret", true};
inline const ResourceType kClaimType{{"", "v1", "persistentvolumeclaims"}, "PersistentVolumeClaim", true};
inline const ResourceType kNamespaceType{{"", "v1", "namespaces"}, "Namespace", false};
inline const ResourceType kStatefulSetType{{"apps", "v1", "statefulsets"}, "StatefulSet", true};
inline const ResourceType kIngressType{{"networking.k8s.io", "v1", "ingresses"}, "Ingress", true};

}  // namespace capstan::meta::core
