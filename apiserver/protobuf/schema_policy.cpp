// policy/v1 (k8s.io/api/policy/v1): PodDisruptionBudget, Eviction.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define POLICY "k8s.io.api.policy.v1."

PB_MESSAGE(kPodDisruptionBudgetSpec, POLICY "PodDisruptionBudgetSpec",
           msg(1, "minAvailable", kIntOrString),
           msg(2, "selector", kLabelSelector),
           msg(3, "maxUnavailable", kIntOrString),
           str(4, "unhealthyPodEvictionPolicy", kKeepZero));
PB_MESSAGE(kPodDisruptionBudgetStatus, POLICY "PodDisruptionBudgetStatus",
           i64(1, "observedGeneration"),
           map_of(msg(2, "disruptedPods", kTime)),
           i32(3, "disruptionsAllowed", kKeepZero),
           i32(4, "currentHealthy", kKeepZero),
           i32(5, "desiredHealthy", kKeepZero),
           i32(6, "expectedPods", kKeepZero),
           list(msg(7, "conditions", kCondition)));
PB_MESSAGE(kPodDisruptionBudget, POLICY "PodDisruptionBudget",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kPodDisruptionBudgetSpec, kValue),
           msg(3, "status", kPodDisruptionBudgetStatus, kValue));

PB_MESSAGE(kEviction, POLICY "Eviction", msg(1, "metadata", kObjectMeta, kValue), msg(2, "deleteOptions", kDeleteOptions));

#undef POLICY

}  // namespace capstan::apiserver::protobuf::schema
