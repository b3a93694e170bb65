// networking.k8s.io/v1 (k8s.io/api/networking/v1): Ingress, IngressClass, NetworkPolicy.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define NET "k8s.io.api.networking.v1."

PB_MESSAGE(kServiceBackendPort, NET "ServiceBackendPort", str(1, "name"), i32(2, "number"));
PB_MESSAGE(kIngressServiceBackend, NET "IngressServiceBackend",
           str(1, "name", kKeepZero), msg(2, "port", kServiceBackendPort, kValue));
PB_MESSAGE(kIngressBackend, NET "IngressBackend",
           msg(4, "service", kIngressServiceBackend), msg(3, "resource", kTypedLocalObjectReference));
PB_MESSAGE(kHTTPIngressPath, NET "HTTPIngressPath",
           str(1, "path"), str(3, "pathType", kKeepZero), msg(2, "backend", kIngressBackend, kValue));
PB_MESSAGE(kHTTPIngressRuleValue, NET "HTTPIngressRuleValue", list(msg(1, "paths", kHTTPIngressPath, kKeepZero)));
PB_MESSAGE(kIngressRuleValue, NET "IngressRuleValue", msg(1, "http", kHTTPIngressRuleValue));
PB_MESSAGE(kIngressRule, NET "IngressRule", str(1, "host"), inlined(2, kIngressRuleValue));
PB_MESSAGE(kIngressTLS, NET "IngressTLS", list(str(1, "hosts")), str(2, "secretName"));
PB_MESSAGE(kIngressSpec, NET "IngressSpec",
           str(4, "ingressClassName", kKeepZero),
           msg(1, "defaultBackend", kIngressBackend),
           list(msg(2, "tls", kIngressTLS)),
           list(msg(3, "rules", kIngressRule)));

PB_MESSAGE(kIngressPortStatus, NET "IngressPortStatus",
           i32(1, "port", kKeepZero), str(2, "protocol", kKeepZero), str(3, "error", kKeepZero));
PB_MESSAGE(kIngressLoadBalancerIngress, NET "IngressLoadBalancerIngress",
           str(1, "ip"), str(2, "hostname"), list(msg(4, "ports", kIngressPortStatus)));
PB_MESSAGE(kIngressLoadBalancerStatus, NET "IngressLoadBalancerStatus",
           list(msg(1, "ingress", kIngressLoadBalancerIngress)));
PB_MESSAGE(kIngressStatus, NET "IngressStatus", msg(1, "loadBalancer", kIngressLoadBalancerStatus, kValue));
PB_MESSAGE(kIngress, NET "Ingress",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kIngressSpec, kValue), msg(3, "status", kIngressStatus, kValue));

// The proto field is spelled aPIGroup; the JSON name is apiGroup.
PB_MESSAGE(kIngressClassParametersReference, NET "IngressClassParametersReference",
           str(1, "apiGroup", kKeepZero), str(2, "kind", kKeepZero), str(3, "name", kKeepZero),
           str(4, "scope", kKeepZero), str(5, "namespace", kKeepZero));
PB_MESSAGE(kIngressClassSpec, NET "IngressClassSpec",
           str(1, "controller"), msg(2, "parameters", kIngressClassParametersReference));
PB_MESSAGE(kIngressClass, NET "IngressClass", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kIngressClassSpec, kValue));

// --- NetworkPolicy ---------------------------------------------------------------------------------
PB_MESSAGE(kIPBlock, NET "IPBlock", str(1, "cidr", kKeepZero), list(str(2, "except")));
PB_MESSAGE(kNetworkPolicyPeer, NET "NetworkPolicyPeer",
           msg(1, "podSelector", kLabelSelector), msg(2, "namespaceSelector", kLabelSelector), msg(3, "ipBlock", kIPBlock));
PB_MESSAGE(kNetworkPolicyPort, NET "NetworkPolicyPort",
           str(1, "protocol", kKeepZero), msg(2, "port", kIntOrString), i32(3, "endPort", kKeepZero));
PB_MESSAGE(kNetworkPolicyIngressRule, NET "NetworkPolicyIngressRule",
           list(msg(1, "ports", kNetworkPolicyPort)), list(msg(2, "from", kNetworkPolicyPeer)));
PB_MESSAGE(kNetworkPolicyEgressRule, NET "NetworkPolicyEgressRule",
           list(msg(1, "ports", kNetworkPolicyPort)), list(msg(2, "to", kNetworkPolicyPeer)));
PB_MESSAGE(kNetworkPolicySpec, NET "NetworkPolicySpec",
           msg(1, "podSelector", kLabelSelector, kValue),
           list(msg(2, "ingress", kNetworkPolicyIngressRule)),
           list(msg(3, "egress", kNetworkPolicyEgressRule)),
           list(str(4, "policyTypes")));
PB_MESSAGE(kNetworkPolicy, NET "NetworkPolicy", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kNetworkPolicySpec, kValue));

#undef NET

}  // namespace capstan::apiserver::protobuf::schema
