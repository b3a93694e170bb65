// batch/v1 (k8s.io/api/batch/v1): Job, CronJob.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define BATCH "k8s.io.api.batch.v1."

PB_MESSAGE(kPodFailurePolicyOnExitCodesRequirement, BATCH "PodFailurePolicyOnExitCodesRequirement",
           str(1, "containerName", kKeepZero), str(2, "operator", kKeepZero), list(i32(3, "values", kKeepZero)));
PB_MESSAGE(kPodFailurePolicyOnPodConditionsPattern, BATCH "PodFailurePolicyOnPodConditionsPattern",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero));
PB_MESSAGE(kPodFailurePolicyRule, BATCH "PodFailurePolicyRule",
           str(1, "action", kKeepZero), msg(2, "onExitCodes", kPodFailurePolicyOnExitCodesRequirement),
           list(msg(3, "onPodConditions", kPodFailurePolicyOnPodConditionsPattern)));
PB_MESSAGE(kPodFailurePolicy, BATCH "PodFailurePolicy", list(msg(1, "rules", kPodFailurePolicyRule, kKeepZero)));
PB_MESSAGE(kSuccessPolicyRule, BATCH "SuccessPolicyRule",
           str(1, "succeededIndexes", kKeepZero), i32(2, "succeededCount", kKeepZero));
PB_MESSAGE(kSuccessPolicy, BATCH "SuccessPolicy", list(msg(1, "rules", kSuccessPolicyRule, kKeepZero)));

PB_MESSAGE(kJobSpec, BATCH "JobSpec",
           i32(1, "parallelism", kKeepZero),
           i32(2, "completions", kKeepZero),
           i64(3, "activeDeadlineSeconds", kKeepZero),
           msg(11, "podFailurePolicy", kPodFailurePolicy),
           msg(16, "successPolicy", kSuccessPolicy),
           i32(7, "backoffLimit", kKeepZero),
           i32(12, "backoffLimitPerIndex", kKeepZero),
           i32(13, "maxFailedIndexes", kKeepZero),
           msg(4, "selector", kLabelSelector),
           boolean(5, "manualSelector", kKeepZero),
           msg(6, "template", kPodTemplateSpec, kValue),
           i32(8, "ttlSecondsAfterFinished", kKeepZero),
           str(9, "completionMode", kKeepZero),
           boolean(10, "suspend", kKeepZero),
           str(14, "podReplacementPolicy", kKeepZero),
           str(15, "managedBy", kKeepZero));
PB_MESSAGE(kJobCondition, BATCH "JobCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastProbeTime", kTime),
           msg(4, "lastTransitionTime", kTime), str(5, "reason"), str(6, "message"));
PB_MESSAGE(kUncountedTerminatedPods, BATCH "UncountedTerminatedPods",
           list(str(1, "succeeded")), list(str(2, "failed")));
PB_MESSAGE(kJobStatus, BATCH "JobStatus",
           list(msg(1, "conditions", kJobCondition)),
           msg(2, "startTime", kTime),
           msg(3, "completionTime", kTime),
           i32(4, "active"),
           i32(5, "succeeded"),
           i32(6, "failed"),
           i32(11, "terminating", kKeepZero),
           str(7, "completedIndexes"),
           str(10, "failedIndexes", kKeepZero),
           msg(8, "uncountedTerminatedPods", kUncountedTerminatedPods),
           i32(9, "ready", kKeepZero));
PB_MESSAGE(kJob, BATCH "Job", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kJobSpec, kValue), msg(3, "status", kJobStatus, kValue));

PB_MESSAGE(kJobTemplateSpec, BATCH "JobTemplateSpec", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kJobSpec, kValue));
PB_MESSAGE(kCronJobSpec, BATCH "CronJobSpec",
           str(1, "schedule", kKeepZero),
           str(8, "timeZone", kKeepZero),
           i64(2, "startingDeadlineSeconds", kKeepZero),
           str(3, "concurrencyPolicy"),
           boolean(4, "suspend", kKeepZero),
           msg(5, "jobTemplate", kJobTemplateSpec, kValue),
           i32(6, "successfulJobsHistoryLimit", kKeepZero),
           i32(7, "failedJobsHistoryLimit", kKeepZero));
PB_MESSAGE(kCronJobStatus, BATCH "CronJobStatus",
           list(msg(1, "active", kObjectReference)), msg(4, "lastScheduleTime", kTime),
           msg(5, "lastSuccessfulTime", kTime));
PB_MESSAGE(kCronJob, BATCH "CronJob",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kCronJobSpec, kValue), msg(3, "status", kCronJobStatus, kValue));

#undef BATCH

}  // namespace capstan::apiserver::protobuf::schema
