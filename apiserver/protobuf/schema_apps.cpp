// apps/v1 (k8s.io/api/apps/v1): Deployment, StatefulSet, DaemonSet, ReplicaSet, ControllerRevision.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define APPS "k8s.io.api.apps.v1."

// --- Deployment --------------------------------------------------------------------------------------
PB_MESSAGE(kRollingUpdateDeployment, APPS "RollingUpdateDeployment",
           msg(1, "maxUnavailable", kIntOrString), msg(2, "maxSurge", kIntOrString));
PB_MESSAGE(kDeploymentStrategy, APPS "DeploymentStrategy",
           str(1, "type"), msg(2, "rollingUpdate", kRollingUpdateDeployment));
PB_MESSAGE(kDeploymentSpec, APPS "DeploymentSpec",
           i32(1, "replicas", kKeepZero),
           msg(2, "selector", kLabelSelector),
           msg(3, "template", kPodTemplateSpec, kValue),
           msg(4, "strategy", kDeploymentStrategy, kValue),
           i32(5, "minReadySeconds"),
           i32(6, "revisionHistoryLimit", kKeepZero),
           boolean(7, "paused"),
           i32(9, "progressDeadlineSeconds", kKeepZero));
PB_MESSAGE(kDeploymentCondition, APPS "DeploymentCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(6, "lastUpdateTime", kTime),
           msg(7, "lastTransitionTime", kTime), str(4, "reason"), str(5, "message"));
PB_MESSAGE(kDeploymentStatus, APPS "DeploymentStatus",
           i64(1, "observedGeneration"),
           i32(2, "replicas"),
           i32(3, "updatedReplicas"),
           i32(7, "readyReplicas"),
           i32(4, "availableReplicas"),
           i32(5, "unavailableReplicas"),
           list(msg(6, "conditions", kDeploymentCondition)),
           i32(8, "collisionCount", kKeepZero));
PB_MESSAGE(kDeployment, APPS "Deployment",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kDeploymentSpec, kValue), msg(3, "status", kDeploymentStatus, kValue));

// --- StatefulSet -------------------------------------------------------------------------------------
PB_MESSAGE(kRollingUpdateStatefulSetStrategy, APPS "RollingUpdateStatefulSetStrategy",
           i32(1, "partition", kKeepZero), msg(2, "maxUnavailable", kIntOrString));
PB_MESSAGE(kStatefulSetUpdateStrategy, APPS "StatefulSetUpdateStrategy",
           str(1, "type"), msg(2, "rollingUpdate", kRollingUpdateStatefulSetStrategy));
PB_MESSAGE(kStatefulSetPersistentVolumeClaimRetentionPolicy, APPS "StatefulSetPersistentVolumeClaimRetentionPolicy",
           str(1, "whenDeleted"), str(2, "whenScaled"));
PB_MESSAGE(kStatefulSetOrdinals, APPS "StatefulSetOrdinals", i32(1, "start", kKeepZero));
PB_MESSAGE(kStatefulSetSpec, APPS "StatefulSetSpec",
           i32(1, "replicas", kKeepZero),
           msg(2, "selector", kLabelSelector),
           msg(3, "template", kPodTemplateSpec, kValue),
           list(msg(4, "volumeClaimTemplates", kPersistentVolumeClaim)),
           str(5, "serviceName"),
           str(6, "podManagementPolicy"),
           msg(7, "updateStrategy", kStatefulSetUpdateStrategy, kValue),
           i32(8, "revisionHistoryLimit", kKeepZero),
           i32(9, "minReadySeconds"),
           msg(10, "persistentVolumeClaimRetentionPolicy", kStatefulSetPersistentVolumeClaimRetentionPolicy),
           msg(11, "ordinals", kStatefulSetOrdinals));
PB_MESSAGE(kStatefulSetCondition, APPS "StatefulSetCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastTransitionTime", kTime),
           str(4, "reason"), str(5, "message"));
PB_MESSAGE(kStatefulSetStatus, APPS "StatefulSetStatus",
           i64(1, "observedGeneration"),
           i32(2, "replicas", kKeepZero),
           i32(3, "readyReplicas"),
           i32(4, "currentReplicas"),
           i32(5, "updatedReplicas"),
           str(6, "currentRevision"),
           str(7, "updateRevision"),
           i32(9, "collisionCount", kKeepZero),
           list(msg(10, "conditions", kStatefulSetCondition)),
           i32(11, "availableReplicas", kKeepZero));
PB_MESSAGE(kStatefulSet, APPS "StatefulSet",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kStatefulSetSpec, kValue), msg(3, "status", kStatefulSetStatus, kValue));

// --- DaemonSet ---------------------------------------------------------------------------------------
PB_MESSAGE(kRollingUpdateDaemonSet, APPS "RollingUpdateDaemonSet",
           msg(1, "maxUnavailable", kIntOrString), msg(2, "maxSurge", kIntOrString));
PB_MESSAGE(kDaemonSetUpdateStrategy, APPS "DaemonSetUpdateStrategy",
           str(1, "type"), msg(2, "rollingUpdate", kRollingUpdateDaemonSet));
PB_MESSAGE(kDaemonSetSpec, APPS "DaemonSetSpec",
           msg(1, "selector", kLabelSelector),
           msg(2, "template", kPodTemplateSpec, kValue),
           msg(3, "updateStrategy", kDaemonSetUpdateStrategy, kValue),
           i32(4, "minReadySeconds"),
           i32(6, "revisionHistoryLimit", kKeepZero));
PB_MESSAGE(kDaemonSetCondition, APPS "DaemonSetCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastTransitionTime", kTime),
           str(4, "reason"), str(5, "message"));
PB_MESSAGE(kDaemonSetStatus, APPS "DaemonSetStatus",
           i32(1, "currentNumberScheduled", kKeepZero),
           i32(2, "numberMisscheduled", kKeepZero),
           i32(3, "desiredNumberScheduled", kKeepZero),
           i32(4, "numberReady", kKeepZero),
           i64(5, "observedGeneration"),
           i32(6, "updatedNumberScheduled"),
           i32(7, "numberAvailable"),
           i32(8, "numberUnavailable"),
           i32(9, "collisionCount", kKeepZero),
           list(msg(10, "conditions", kDaemonSetCondition)));
PB_MESSAGE(kDaemonSet, APPS "DaemonSet",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kDaemonSetSpec, kValue), msg(3, "status", kDaemonSetStatus, kValue));

// --- ReplicaSet, ControllerRevision ------------------------------------------------------------------
PB_MESSAGE(kReplicaSetSpec, APPS "ReplicaSetSpec",
           i32(1, "replicas", kKeepZero), i32(4, "minReadySeconds"), msg(2, "selector", kLabelSelector),
           msg(3, "template", kPodTemplateSpec, kValue));
PB_MESSAGE(kReplicaSetCondition, APPS "ReplicaSetCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastTransitionTime", kTime),
           str(4, "reason"), str(5, "message"));
PB_MESSAGE(kReplicaSetStatus, APPS "ReplicaSetStatus",
           i32(1, "replicas", kKeepZero), i32(2, "fullyLabeledReplicas"), i32(4, "readyReplicas"),
           i32(5, "availableReplicas"), i64(3, "observedGeneration"),
           list(msg(6, "conditions", kReplicaSetCondition)));
PB_MESSAGE(kReplicaSet, APPS "ReplicaSet",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kReplicaSetSpec, kValue), msg(3, "status", kReplicaSetStatus, kValue));

PB_MESSAGE(kControllerRevision, APPS "ControllerRevision",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "data", kRawExtension), i64(3, "revision", kKeepZero));

#undef APPS

}  // namespace capstan::apiserver::protobuf::schema
