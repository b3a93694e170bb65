// admissionregistration.k8s.io/v1 (k8s.io/api/admissionregistration/v1): Validating- and
// MutatingWebhookConfiguration.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define ADMREG "k8s.io.api.admissionregistration.v1."

PB_MESSAGE(kWebhookServiceReference, ADMREG "ServiceReference",
           str(1, "namespace", kKeepZero), str(2, "name", kKeepZero), str(3, "path", kKeepZero),
           i32(4, "port", kKeepZero));
PB_MESSAGE(kWebhookClientConfig, ADMREG "WebhookClientConfig",
           str(3, "url", kKeepZero), msg(1, "service", kWebhookServiceReference), bytes(2, "caBundle"));
PB_MESSAGE(kAdmissionRule, ADMREG "Rule",
           list(str(1, "apiGroups")), list(str(2, "apiVersions")), list(str(3, "resources")),
           str(4, "scope", kKeepZero));
PB_MESSAGE(kRuleWithOperations, ADMREG "RuleWithOperations",
           list(str(1, "operations")), inlined(2, kAdmissionRule));
PB_MESSAGE(kMatchCondition, ADMREG "MatchCondition", str(1, "name", kKeepZero), str(2, "expression", kKeepZero));
PB_MESSAGE(kValidatingWebhook, ADMREG "ValidatingWebhook",
           str(1, "name", kKeepZero),
           msg(2, "clientConfig", kWebhookClientConfig, kValue),
           list(msg(3, "rules", kRuleWithOperations)),
           str(4, "failurePolicy", kKeepZero),
           str(9, "matchPolicy", kKeepZero),
           msg(5, "namespaceSelector", kLabelSelector),
           msg(10, "objectSelector", kLabelSelector),
           str(6, "sideEffects", kKeepZero),
           i32(7, "timeoutSeconds", kKeepZero),
           list(str(8, "admissionReviewVersions", kKeepZero)),
           list(msg(11, "matchConditions", kMatchCondition)));
PB_MESSAGE(kMutatingWebhook, ADMREG "MutatingWebhook",
           str(1, "name", kKeepZero),
           msg(2, "clientConfig", kWebhookClientConfig, kValue),
           list(msg(3, "rules", kRuleWithOperations)),
           str(4, "failurePolicy", kKeepZero),
           str(9, "matchPolicy", kKeepZero),
           msg(5, "namespaceSelector", kLabelSelector),
           msg(11, "objectSelector", kLabelSelector),
           str(6, "sideEffects", kKeepZero),
           i32(7, "timeoutSeconds", kKeepZero),
           list(str(8, "admissionReviewVersions", kKeepZero)),
           str(10, "reinvocationPolicy", kKeepZero),
           list(msg(12, "matchConditions", kMatchCondition)));
PB_MESSAGE(kValidatingWebhookConfiguration, ADMREG "ValidatingWebhookConfiguration",
           msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "webhooks", kValidatingWebhook)));
PB_MESSAGE(kMutatingWebhookConfiguration, ADMREG "MutatingWebhookConfiguration",
           msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "webhooks", kMutatingWebhook)));

#undef ADMREG

}  // namespace capstan::apiserver::protobuf::schema
