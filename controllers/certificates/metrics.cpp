#include "controllers/certificates/metrics.h"

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "runtime/cache/informer.h"
#include "runtime/metrics/registry.h"

namespace capstan::certificates {
namespace {

namespace v1 = apis::certs::v1;

const std::vector<std::string> kLabels = {"name", "namespace", "issuer_name", "issuer_kind", "issuer_group"};
const std::vector<std::string> kReadyLabels = {"name", "namespace", "condition", "issuer_name", "issuer_kind", "issuer_group"};

metrics::GaugeFamily& expiration(metrics::Registry& r) {
  return r.gauge("capstan_certificate_expiration_timestamp_seconds", "The date after which the certificate expires, in Unix seconds",
                 kLabels);
}
metrics::GaugeFamily& renewal(metrics::Registry& r) {
  return r.gauge("capstan_certificate_renewal_timestamp_seconds",
                 "The number of seconds before expiration time the certificate should renew", kLabels);
}
metrics::GaugeFamily& ready(metrics::Registry& r) {
  return r.gauge("capstan_certificate_ready_status", "The ready status of the certificate", kReadyLabels);
}

double unix_seconds(meta::TimePoint t) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
}

}  // namespace

CertificateMetrics::CertificateMetrics(metrics::Registry& registry, const cache::Informer& certificates)
    : registry_(registry), certificates_(certificates) {
  expiration(registry_);
  renewal(registry_);
  ready(registry_);
}

CertificateMetrics::~CertificateMetrics() { stop(); }

void CertificateMetrics::start() {
  if (callback_) return;
  callback_ = registry_.add_collect_callback([this] { collect(); });
}

void CertificateMetrics::stop() {
  if (!callback_) return;
  registry_.remove_collect_callback(callback_);
  callback_ = 0;
}

void CertificateMetrics::collect() {
  auto& exp = expiration(registry_);
  auto& ren = renewal(registry_);
  auto& rdy = ready(registry_);
  exp.clear();
  ren.clear();
  rdy.clear();
  for (const auto& o : certificates_.list()) {
    v1::Certificate crt;
    try {
      crt = v1::Certificate::from_json(o->value());
    } catch (const std::exception&) {
      continue;
    }
    auto ref = v1::effective_issuer_ref(crt.spec.issuer_ref);
    std::vector<std::string> labels = {std::string(o->name()), std::string(o->ns()), ref.name, ref.kind, ref.group};
    exp.with(labels).set(crt.status.not_after ? unix_seconds(*crt.status.not_after) : 0);
    ren.with(labels).set(crt.status.renewal_time ? unix_seconds(*crt.status.renewal_time) : 0);
    std::string status = "Unknown";
    if (const auto* c = crt.status.condition(v1::condition::kReady)) status = c->status;
    for (const char* value : {"True", "False", "Unknown"}) {
      rdy.with({labels[0], labels[1], value, ref.name, ref.kind, ref.group}).set(status == value ? 1 : 0);
    }
  }
}

}  // namespace capstan::certificates
