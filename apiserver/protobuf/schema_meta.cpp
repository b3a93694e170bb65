// k8s.io/apimachinery: meta/v1 (ObjectMeta, LabelSelector, Time, ...), util/intstr, api/resource,
// runtime (RawExtension).
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define META "k8s.io.apimachinery.pkg.apis.meta.v1."

// Special messages: fields listed for reference; the decoder reads them itself.
PB_SPECIAL(kTime, META "Time", Special::Time, i64(1, "seconds"), i32(2, "nanos"));
PB_SPECIAL(kMicroTime, META "MicroTime", Special::MicroTime, i64(1, "seconds"), i32(2, "nanos"));
PB_SPECIAL(kDuration, META "Duration", Special::Duration, i64(1, "duration"));
PB_SPECIAL(kFieldsV1, META "FieldsV1", Special::FieldsV1, bytes(1, "Raw"));
PB_SPECIAL(kQuantity, "k8s.io.apimachinery.pkg.api.resource.Quantity", Special::Quantity, str(1, "string"));
PB_SPECIAL(kIntOrString, "k8s.io.apimachinery.pkg.util.intstr.IntOrString", Special::IntOrString,
           i64(1, "type"), i32(2, "intVal"), str(3, "strVal"));
PB_SPECIAL(kRawExtension, "k8s.io.apimachinery.pkg.runtime.RawExtension", Special::RawExtension, bytes(1, "raw"));

PB_MESSAGE(kOwnerReference, META "OwnerReference",
           str(5, "apiVersion", kKeepZero),
           str(1, "kind", kKeepZero),
           str(3, "name", kKeepZero),
           str(4, "uid", kKeepZero),
           boolean(6, "controller", kKeepZero),
           boolean(7, "blockOwnerDeletion", kKeepZero));

PB_MESSAGE(kManagedFieldsEntry, META "ManagedFieldsEntry",
           str(1, "manager"),
           str(2, "operation"),
           str(3, "apiVersion"),
           msg(4, "time", kTime),
           str(6, "fieldsType"),
           msg(7, "fieldsV1", kFieldsV1),
           str(8, "subresource"));

PB_MESSAGE(kObjectMeta, META "ObjectMeta",
           str(1, "name"),
           str(2, "generateName"),
           str(3, "namespace"),
           str(4, "selfLink"),
           str(5, "uid"),
           str(6, "resourceVersion"),
           i64(7, "generation"),
           msg(8, "creationTimestamp", kTime),
           msg(9, "deletionTimestamp", kTime),
           i64(10, "deletionGracePeriodSeconds", kKeepZero),
           map_of(str(11, "labels")),
           map_of(str(12, "annotations")),
           list(msg(13, "ownerReferences", kOwnerReference)),
           list(str(14, "finalizers")),
           list(msg(17, "managedFields", kManagedFieldsEntry)));

PB_MESSAGE(kLabelSelectorRequirement, META "LabelSelectorRequirement",
           str(1, "key", kKeepZero),
           str(2, "operator", kKeepZero),
           list(str(3, "values")));

PB_MESSAGE(kLabelSelector, META "LabelSelector",
           map_of(str(1, "matchLabels")),
           list(msg(2, "matchExpressions", kLabelSelectorRequirement)));

PB_MESSAGE(kFieldSelectorRequirement, META "FieldSelectorRequirement",
           str(1, "key", kKeepZero),
           str(2, "operator", kKeepZero),
           list(str(3, "values")));

PB_MESSAGE(kCondition, META "Condition",
           str(1, "type", kKeepZero),
           str(2, "status", kKeepZero),
           i64(3, "observedGeneration"),
           msg(4, "lastTransitionTime", kTime),
           str(5, "reason", kKeepZero),
           str(6, "message", kKeepZero));

PB_MESSAGE(kPreconditions, META "Preconditions",
           str(1, "uid", kKeepZero),
           str(2, "resourceVersion", kKeepZero));

PB_MESSAGE(kDeleteOptions, META "DeleteOptions",
           i64(1, "gracePeriodSeconds", kKeepZero),
           msg(2, "preconditions", kPreconditions),
           boolean(3, "orphanDependents", kKeepZero),
           str(4, "propagationPolicy", kKeepZero),
           list(str(5, "dryRun")),
           boolean(6, "ignoreStoreReadErrorWithClusterBreakingPotential", kKeepZero));

#undef META

}  // namespace capstan::apiserver::protobuf::schema
