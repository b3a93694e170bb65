// storage.k8s.io/v1 (k8s.io/api/storage/v1): StorageClass.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define STORAGE "k8s.io.api.storage.v1."

PB_MESSAGE(kStorageClass, STORAGE "StorageClass",
           msg(1, "metadata", kObjectMeta, kValue),
           str(2, "provisioner", kKeepZero),
           map_of(str(3, "parameters")),
           str(4, "reclaimPolicy", kKeepZero),
           list(str(5, "mountOptions")),
           boolean(6, "allowVolumeExpansion", kKeepZero),
           str(7, "volumeBindingMode", kKeepZero),
           list(msg(8, "allowedTopologies", kTopologySelectorTerm)));

#undef STORAGE

}  // namespace capstan::apiserver::protobuf::schema
