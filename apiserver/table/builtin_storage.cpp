// Printers for persistentvolumes and storage.k8s.io storageclasses.
#include "apiserver/table/printers_internal.h"

namespace capstan::apiserver::table::printers {
namespace {

// ---- persistentvolumes ------------------------------------------------------------------------

Row pv_row(const json::Value& pv, meta::TimePoint now) {
  Row row = named_row(pv);
  std::string claim;
  if (json::find(pv, {"spec", "claimRef"}))
    claim = str_at(pv, {"spec", "claimRef", "namespace"}) + "/" + str_at(pv, {"spec", "claimRef", "name"});
  std::string phase = str_at(pv, {"status", "phase"});
  if (!str_at(pv, {"metadata", "deletionTimestamp"}).empty()) phase = "Terminating";
  const auto* capacity = json::find(pv, {"spec", "capacity", "storage"});
  row.cells.emplace_back(capacity && capacity->is_string() ? std::string(capacity->get_string()) : "0");
  row.cells.emplace_back(access_modes_at(pv, {"spec", "accessModes"}));
  row.cells.emplace_back(str_at(pv, {"spec", "persistentVolumeReclaimPolicy"}));
  row.cells.emplace_back(phase);
  row.cells.emplace_back(claim);
  row.cells.emplace_back(storage_class_of(pv));
  row.cells.emplace_back(str_or_unset(pv, {"spec", "volumeAttributesClassName"}));
  row.cells.emplace_back(str_at(pv, {"status", "reason"}));
  row.cells.emplace_back(age_of(pv, now));
  row.cells.emplace_back(str_or_unset(pv, {"spec", "volumeMode"}));
  return row;
}

std::vector<ColumnDefinition> pv_columns() {
  const std::string more = "More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#";
  return {
      name_column(),
      column("Capacity", "string", "capacity is the description of the persistent volume's resources and capacity. " + more + "capacity"),
      column("Access Modes", "string", "accessModes contains all ways the volume can be mounted. " + more + "access-modes"),
      column("Reclaim Policy", "string",
             "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. "
             "Valid options are Retain (default for manually created PersistentVolumes), Delete (default for "
             "dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the "
             "volume plugin underlying this PersistentVolume. " + more + "reclaiming"),
      column("Status", "string",
             "phase indicates if a volume is available, bound to a claim, or released by a claim. " + more + "phase"),
      column("Claim", "string",
             "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. "
             "Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. " +
                 more + "binding"),
      column("StorageClass", "string", "StorageClass of the pv"),
      column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv"),
      column("Reason", "string",
             "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy "
             "display in the CLI."),
      age_column(),
      column("VolumeMode", "string",
             "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw "
             "block state. Value of Filesystem is implied when not included in spec.",
             1),
  };
}

// ---- storageclasses ---------------------------------------------------------------------------

Row storageclass_row(const json::Value& sc, meta::TimePoint now) {
  Row row = named_row(sc);
  row.cells.emplace_back(str_at(sc, {"provisioner"}));
  row.cells.emplace_back(or_default(str_at(sc, {"reclaimPolicy"}), "Delete"));
  row.cells.emplace_back(or_default(str_at(sc, {"volumeBindingMode"}), "Immediate"));
  row.cells.emplace_back(json::get_bool(sc, {"allowVolumeExpansion"}));
  row.cells.emplace_back(age_of(sc, now));
  return row;
}

std::vector<ColumnDefinition> storageclass_columns() {
  return {
      name_column(),
      column("Provisioner", "string", "provisioner indicates the type of the provisioner."),
      column("ReclaimPolicy", "string",
             "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage "
             "class. Defaults to Delete."),
      column("VolumeBindingMode", "string",
             "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, "
             "VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling "
             "feature."),
      column("AllowVolumeExpansion", "string", "allowVolumeExpansion shows whether the storage class allow volume expand."),
      age_column(),
  };
}

}  // namespace

void add_storage(std::vector<Entry>& out) {
  out.push_back({"", "persistentvolumes", FnConverter(pv_columns(), pv_row)});
  out.push_back({"storage.k8s.io", "storageclasses", FnConverter(storageclass_columns(), storageclass_row)});
}

}  // namespace capstan::apiserver::table::printers
