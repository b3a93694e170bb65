// scheduling.k8s.io/v1 (k8s.io/api/scheduling/v1): PriorityClass.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

PB_MESSAGE(kPriorityClass, "k8s.io.api.scheduling.v1.PriorityClass",
           msg(1, "metadata", kObjectMeta),
           i32(2, "value", kKeepZero),
           boolean(3, "globalDefault"),
           str(4, "description"),
           str(5, "preemptionPolicy", kKeepZero));

}  // namespace capstan::apiserver::protobuf::schema
