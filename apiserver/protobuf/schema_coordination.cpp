// coordination.k8s.io/v1 (k8s.io/api/coordination/v1): Lease (client-go leader election).
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

PB_MESSAGE(kLeaseSpec, "k8s.io.api.coordination.v1.LeaseSpec",
           str(1, "holderIdentity", kKeepZero),
           i32(2, "leaseDurationSeconds", kKeepZero),
           msg(3, "acquireTime", kMicroTime),
           msg(4, "renewTime", kMicroTime),
           i32(5, "leaseTransitions", kKeepZero),
           str(6, "strategy", kKeepZero),
           str(7, "preferredHolder", kKeepZero));
PB_MESSAGE(kLease, "k8s.io.api.coordination.v1.Lease", msg(1, "metadata", kObjectMeta), msg(2, "spec", kLeaseSpec));

}  // namespace capstan::apiserver::protobuf::schema
