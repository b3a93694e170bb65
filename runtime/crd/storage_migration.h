// Moving a CustomResourceDefinition's stored objects to its storage version, as
// kube-storage-version-migrator does: every object is read at the storage version and written
// back unchanged (the API server re-encodes it at that version, converting it), then the CRD's
// status.storedVersions is set to the storage version alone, so an older version can later be
// dropped from the CRD without losing objects.
//
//   auto r = crd::migrate_storage_version(client, "kafkas.kafka.capstan.dev");
//   // r.migrated objects rewritten; r.done when storedVersions was (or now is) [storage]
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>

namespace capstan::client {
class Client;
}

namespace capstan::crd {

struct MigrationResult {
  std::size_t migrated = 0;  // objects written back
  bool done = false;         // storedVersions is the storage version alone
  std::string storage_version;
};

// Throws client::ApiError (or http errors) when the CRD cannot be read or a write fails for
// another reason than a conflict (retried) or the object's deletion (skipped). `stop` ends
// it early (done = false).
MigrationResult migrate_storage_version(client::Client& c, std::string_view crd_name, const std::atomic<bool>* stop = nullptr);

}  // namespace capstan::crd
