// Certificate metrics (cert-manager's certmanager_certificate_* collectors, capstan_ prefix),
// computed from the cached Certificates on every scrape so deleted Certificates disappear:
//   capstan_certificate_expiration_timestamp_seconds{name,namespace,issuer_name,issuer_kind,issuer_group}
//   capstan_certificate_renewal_timestamp_seconds{...same}
//   capstan_certificate_ready_status{name,namespace,condition,issuer_name,issuer_kind,issuer_group}
//     (1 for the Ready condition's status, 0 for the two other values)
#pragma once

#include <cstdint>

namespace capstan::cache {
class Informer;
}
namespace capstan::metrics {
class Registry;
}

namespace capstan::certificates {

class CertificateMetrics {
 public:
  // Registers the families; collection starts with start().
  CertificateMetrics(metrics::Registry& registry, const cache::Informer& certificates);
  ~CertificateMetrics();  // stop()
  void start();
  void stop();
  // Refreshes the families from the cache (what a scrape does).
  void collect();

 private:
  metrics::Registry& registry_;
  const cache::Informer& certificates_;
  std::uint64_t callback_ = 0;
};

}  // namespace capstan::certificates
