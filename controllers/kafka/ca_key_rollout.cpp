#include "controllers/kafka/ca_key_rollout.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/issuing.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/security.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <tuple>

namespace capstan::kafka {
namespace {
namespace certs = apis::certs::v1;
}

CaKeyRollout::CaKeyRollout(Env& env, const json::Value& kafka, const log::Logger& log)
    : env_(env), kafka_(kafka), log_(log), ns_(meta::namespace_of(kafka)), cluster_(meta::name_of(kafka)) {
  for (const auto& [name, what, role] : {std::tuple{cluster_ca_name(cluster_), "cluster CA", CaRole::Cluster},
                                         std::tuple{clients_ca_name(cluster_), "clients CA", CaRole::Clients}})
    cas_.push_back({name, what, "", "", {}, false, replaces_ca_key(kafka, role), ca_renewal_days(kafka, role)});
}

void CaKeyRollout::follow() {
  for (auto& ca : cas_) {
    auto secret = env_.secrets.get(ns_, ca.name);
    auto public_secret = env_.secrets.get(ns_, ca_cert_secret_name(ca.name));
    if (public_secret && public_secret->controller_uid() != meta::uid_of(kafka_)) public_secret = nullptr;  // a former Kafka's, going
    const json::Value public_value = public_secret ? public_secret->value() : json::Value();
    const CaTrust written = read_ca_trust(public_secret ? &public_value : nullptr);
    bool force = false;
    if (secret) {
      const json::Value value = secret->value();
      ca.current_pem = meta::base64_decode(json::get_string(value, {"data", "tls.crt"})).value_or("");
      ca.secret_uid = std::string(secret->uid());
      force = meta::annotation(value, kForceReplaceAnnotation) == "true";
      if (!force && ca.replace_key && written.phase == CaPhase::Idle &&
          key_replacement_due(ca.current_pem, std::chrono::hours(24 * ca.renewal_days), meta::Clock::now())) {
        log_.info("the CA certificate enters its renewal window: its key is replaced (certificateExpirationPolicy replace-key)",
                  {{"secret", ca.name}, {"renewalDays", std::to_string(ca.renewal_days)}});
        force = true;
      }
    }
    const CaKeyFollow step = follow_ca_key(written, ca.current_pem, force);
    ca.trust = step.trust;
    ca.delete_ca_secret = step.delete_ca_secret;
    if (step.trust.phase != written.phase)
      log_.info("CA key replacement", {{"secret", ca.name},
                                       {"phase", std::string(phase_name(step.trust.phase))},
                                       {"keyGeneration", std::to_string(step.trust.key_generation)}});
  }
}

std::int64_t CaKeyRollout::key_generation(std::string_view ca_name) const {
  for (const auto& ca : cas_)
    if (ca.name == ca_name) return ca.trust.key_generation;
  return 0;
}

std::string CaKeyRollout::bundle(std::string_view ca_name) const {
  for (const auto& ca : cas_)
    if (ca.name == ca_name) return ca.trust.bundle_pem;
  return "";
}

void CaKeyRollout::apply(const Ca& ca) {
  if (ca.trust.bundle_pem.empty()) return;  // never issued: nothing to trust yet
  env_.client.apply(kSecretType.gvr, ns_, ca_trust_secret(kafka_, ca.name, ca.trust), kFieldManager, true);
}

void CaKeyRollout::write() {
  for (const auto& ca : cas_) {
    apply(ca);
    if (!ca.delete_ca_secret) continue;
    client::DeleteOptions d;
    d.ignore_not_found = true;
    d.precondition_uid = ca.secret_uid;  // the Secret holding the old key, not one issued since
    try {
      env_.client.remove(kSecretType.gvr, ns_, ca.name, d);
      log_.info("deleted the CA Secret so that the CA is issued with a new key", {{"secret", ca.name}});
    } catch (const client::ApiError& e) {
      if (!client::is_conflict(e)) throw;
    }
  }
}

bool CaKeyRollout::advance(bool nodes_settled) {
  bool replacing = false;
  for (auto& ca : cas_) {
    if (ca.trust.phase == CaPhase::Idle) continue;
    const bool checking = ca.trust.phase == CaPhase::ReissueCertificates;
    const CaKeyAdvance step = advance_ca_key(ca.trust, ca.current_pem, nodes_settled, checking && leaves_on_new_key(ca, false));
    if (step.reissue_leaves) leaves_on_new_key(ca, true);
    if (step.trust != ca.trust) {
      log_.info("CA key replacement", {{"secret", ca.name},
                                       {"phase", step.trust.phase == CaPhase::Idle ? "Done" : std::string(phase_name(step.trust.phase))},
                                       {"keyGeneration", std::to_string(step.trust.key_generation)}});
      ca.trust = step.trust;
      apply(ca);
    }
    replacing |= ca.trust.phase != CaPhase::Idle;
  }
  return replacing;
}

bool CaKeyRollout::leaves_on_new_key(const Ca& ca, bool reissue) {
  // Every Certificate of the namespace the CA's Issuer signs: the nodes', the operator's, the
  // KafkaUsers', and those users made themselves.
  bool all = true;
  for (const auto& crt : env_.client.list(certs::kCertificateType.gvr, ns_).items) {
    const std::string_view kind = json::get_string(crt, {"spec", "issuerRef", "kind"});  // Issuer when not said
    if (json::get_string(crt, {"spec", "issuerRef", "name"}) != ca.name || (!kind.empty() && kind != "Issuer")) continue;
    std::string pem;
    try {  // read live: the users' Secrets are not in the controller's cache (only while replacing)
      const json::Value secret = env_.client.get(kSecretType.gvr, ns_, json::get_string(crt, {"spec", "secretName"}));
      pem = meta::base64_decode(json::get_string(secret, {"data", "tls.crt"})).value_or("");
    } catch (const client::ApiError& e) {
      if (!client::is_not_found(e)) throw;
    }
    if (!pem.empty() && signed_by(pem, ca.current_pem)) continue;
    all = false;
    if (!reissue) return false;
    if (!meta::condition_true(crt, certs::condition::kIssuing)) request_issuance(crt, ca);
  }
  return all;
}

void CaKeyRollout::request_issuance(const json::Value& certificate, const Ca& ca) {
  json::Value crt = certificate;
  certs::set_issuing(crt, "CaKeyReplaced", "Issued again under the new key of the " + ca.what + " (Secret " + ca.name + ")");
  const std::string name(meta::name_of(crt));
  try {
    env_.client.update_status(certs::kCertificateType.gvr, ns_, crt);  // with the listed resourceVersion
    log_.info("asked for a certificate to be issued under the new CA key", {{"certificate", name}, {"ca", ca.name}});
  } catch (const client::ApiError& e) {
    if (!client::is_conflict(e) && !client::is_not_found(e)) throw;  // changed meanwhile: looked at again next time
  }
}

std::string CaKeyRollout::message() const {
  std::string out;
  for (const auto& ca : cas_)
    if (auto m = ca_key_replacement_message(ca.what, ca.name, ca.trust); !m.empty()) out += (out.empty() ? "" : "; ") + m;
  return out;
}

}  // namespace capstan::kafka
