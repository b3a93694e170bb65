#include "controllers/kafka/ca_replacement.h"

#include "controllers/kafka/security.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/error.h"

#include <charconv>

namespace capstan::kafka {
namespace {

constexpr std::pair<CaPhase, std::string_view> kPhases[] = {{CaPhase::NewKey, "NewKey"},
                                                             {CaPhase::TrustBoth, "TrustBoth"},
                                                             {CaPhase::ReissueCertificates, "ReissueCertificates"},
                                                             {CaPhase::RemoveOld, "RemoveOld"}};

std::optional<pki::Certificate> first_certificate(const std::string& pem) {
  if (pem.empty()) return std::nullopt;
  try {
    return pki::Certificate::parse_pem(pem);
  } catch (const pki::PkiError&) {
    return std::nullopt;
  }
}

// Two PEM certificates one after the other (the new first), each ending its line.
std::string bundle(const std::string& first, const std::string& second) {
  std::string out = first;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out + second;
}

}  // namespace

std::string_view phase_name(CaPhase phase) {
  for (const auto& [p, name] : kPhases)
    if (p == phase) return name;
  return "";
}

std::optional<CaPhase> parse_phase(std::string_view name) {
  if (name.empty()) return CaPhase::Idle;
  for (const auto& [p, n] : kPhases)
    if (n == name) return p;
  return std::nullopt;
}

CaTrust read_ca_trust(const json::Value* public_secret) {
  CaTrust t;
  if (!public_secret) return t;
  const json::Value& s = *public_secret;
  // An unknown phase (written by a newer manager) is read as idle rather than guessed at.
  t.phase = parse_phase(meta::annotation(s, kCaKeyReplacementAnnotation)).value_or(CaPhase::Idle);
  const std::string_view generation = meta::annotation(s, kCaKeyGenerationAnnotation);
  std::from_chars(generation.data(), generation.data() + generation.size(), t.key_generation);
  t.bundle_pem = meta::base64_decode(json::get_string(s, {"data", "ca.crt"})).value_or("");
  t.previous_pem = meta::base64_decode(json::get_string(s, {"data", kPreviousCaCertKey})).value_or("");
  return t;
}

json::Value ca_trust_secret(const json::Value& kafka, std::string_view ca_name, const CaTrust& trust) {
  json::Value s = ca_cert_secret(kafka, ca_name, trust.bundle_pem);
  auto& annotations = json::ensure_object(s, {"metadata", "annotations"});
  annotations[kCaKeyGenerationAnnotation] = std::to_string(trust.key_generation);
  if (trust.phase != CaPhase::Idle) annotations[kCaKeyReplacementAnnotation] = phase_name(trust.phase);
  if (!trust.previous_pem.empty()) json::ensure_object(s, {"data"})[kPreviousCaCertKey] = meta::base64_encode(trust.previous_pem);
  return s;
}

std::string ca_common_name(std::string_view base, std::int64_t key_generation) {
  return std::string(base) + " v" + std::to_string(key_generation);
}

bool same_key(const std::string& a_pem, const std::string& b_pem) {
  auto a = first_certificate(a_pem), b = first_certificate(b_pem);
  return a && b && a->public_key_der() == b->public_key_der();
}

bool signed_by(const std::string& leaf_pem, const std::string& ca_pem) {
  auto leaf = first_certificate(leaf_pem), ca = first_certificate(ca_pem);
  return leaf && ca && leaf->signed_by(*ca);
}

bool key_replacement_due(const std::string& current_pem, std::chrono::hours renewal, meta::TimePoint now) {
  const auto ca = first_certificate(current_pem);
  return ca && ca->not_after() - renewal <= now;
}

CaKeyFollow follow_ca_key(const CaTrust& written, const std::string& current_pem, bool force_replace) {
  CaKeyFollow out{written, false};
  CaTrust& t = out.trust;
  switch (written.phase) {
    case CaPhase::Idle:
      if (current_pem.empty()) return out;  // not issued yet (or gone): what clients trust stays
      if (force_replace) {
        // The certificate in use is recorded first (the caller writes it before it deletes).
        t = CaTrust{CaPhase::NewKey, written.key_generation + 1, current_pem, current_pem};
        out.delete_ca_secret = true;
      } else if (!written.bundle_pem.empty() && !same_key(written.bundle_pem, current_pem)) {
        // A new key nobody asked this controller for: trusted beside the old one before anything uses it.
        t = CaTrust{CaPhase::TrustBoth, written.key_generation, bundle(current_pem, written.bundle_pem), written.bundle_pem};
      } else {
        t.bundle_pem = current_pem;  // first issued, or renewed with its key kept
      }
      return out;
    case CaPhase::NewKey:
      if (current_pem.empty()) return out;  // the certificates controller has yet to issue the new key
      if (same_key(current_pem, written.previous_pem)) {
        out.delete_ca_secret = true;  // not deleted yet (a restart between the record and the delete)
        return out;
      }
      t.phase = CaPhase::TrustBoth;
      t.bundle_pem = bundle(current_pem, written.previous_pem);
      return out;
    case CaPhase::TrustBoth:
    case CaPhase::ReissueCertificates:
      if (!current_pem.empty()) t.bundle_pem = bundle(current_pem, written.previous_pem);  // a renewal meanwhile
      return out;
    case CaPhase::RemoveOld:
      if (!current_pem.empty()) t.bundle_pem = current_pem;
      return out;
  }
  return out;
}

CaKeyAdvance advance_ca_key(const CaTrust& trust, const std::string& current_pem, bool nodes_settled, bool leaves_on_new_key) {
  CaKeyAdvance out{trust, false};
  CaTrust& t = out.trust;
  switch (trust.phase) {
    case CaPhase::Idle:
    case CaPhase::NewKey:
      return out;
    case CaPhase::TrustBoth:
      if (!nodes_settled) return out;
      t.phase = CaPhase::ReissueCertificates;
      out.reissue_leaves = true;
      return out;
    case CaPhase::ReissueCertificates:
      if (!leaves_on_new_key || !nodes_settled || current_pem.empty()) {
        out.reissue_leaves = !leaves_on_new_key;
        return out;
      }
      t.phase = CaPhase::RemoveOld;
      t.bundle_pem = current_pem;
      t.previous_pem.clear();
      return out;
    case CaPhase::RemoveOld:
      if (nodes_settled) t.phase = CaPhase::Idle;
      return out;
  }
  return out;
}

std::string ca_key_replacement_message(std::string_view what, std::string_view secret, const CaTrust& trust) {
  const std::string head = "The private key of the " + std::string(what) + " (Secret " + std::string(secret) + ") is being replaced, key generation " +
                           std::to_string(trust.key_generation) + ": ";
  switch (trust.phase) {
    case CaPhase::Idle:
      return "";
    case CaPhase::NewKey:
      return head + "phase 1 of 3, waiting for the certificates controller to issue the new key";
    case CaPhase::TrustBoth:
      return head + "phase 1 of 3, rolling the nodes to trust the new and the old CA certificates";
    case CaPhase::ReissueCertificates:
      return head + "phase 2 of 3, re-issuing the certificates the CA signs under the new key and rolling the nodes onto them";
    case CaPhase::RemoveOld:
      return head + "phase 3 of 3, removing the old CA certificate and rolling the nodes to trust only the new one";
  }
  return "";
}

}  // namespace capstan::kafka
