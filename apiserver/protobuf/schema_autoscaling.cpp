// autoscaling/v1 (k8s.io/api/autoscaling/v1): Scale (the /scale subresource) and
// HorizontalPodAutoscaler (`kubectl autoscale`).
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define AUTOSCALING "k8s.io.api.autoscaling.v1."

PB_MESSAGE(kScaleSpec, AUTOSCALING "ScaleSpec", i32(1, "replicas"));
PB_MESSAGE(kScaleStatus, AUTOSCALING "ScaleStatus", i32(1, "replicas", kKeepZero), str(2, "selector"));
PB_MESSAGE(kScale, AUTOSCALING "Scale",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kScaleSpec, kValue), msg(3, "status", kScaleStatus, kValue));

PB_MESSAGE(kCrossVersionObjectReference, AUTOSCALING "CrossVersionObjectReference",
           str(1, "kind", kKeepZero), str(2, "name", kKeepZero), str(3, "apiVersion"));
PB_MESSAGE(kHorizontalPodAutoscalerSpec, AUTOSCALING "HorizontalPodAutoscalerSpec",
           msg(1, "scaleTargetRef", kCrossVersionObjectReference, kValue),
           i32(2, "minReplicas", kKeepZero),
           i32(3, "maxReplicas", kKeepZero),
           i32(4, "targetCPUUtilizationPercentage", kKeepZero));
PB_MESSAGE(kHorizontalPodAutoscalerStatus, AUTOSCALING "HorizontalPodAutoscalerStatus",
           i64(1, "observedGeneration", kKeepZero),
           msg(2, "lastScaleTime", kTime),
           i32(3, "currentReplicas", kKeepZero),
           i32(4, "desiredReplicas", kKeepZero),
           i32(5, "currentCPUUtilizationPercentage", kKeepZero));
PB_MESSAGE(kHorizontalPodAutoscaler, AUTOSCALING "HorizontalPodAutoscaler",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kHorizontalPodAutoscalerSpec, kValue),
           msg(3, "status", kHorizontalPodAutoscalerStatus, kValue));

#undef AUTOSCALING

}  // namespace capstan::apiserver::protobuf::schema
