// Strimzi's phased CA key replacement (its CaReconciler), for the cluster CA and the clients CA:
// the private key of a CA is replaced, and the certificates it signed re-issued, while every node
// and every client keeps trusting what it talks to.
//
// Trigger: kafka.capstan.dev/force-replace: "true" on the CA's Secret (<c>-cluster-ca or
// <c>-clients-ca; Strimzi's strimzi.io/force-replace on its CA key Secret). The controller records
// the CA certificate in use, then deletes the CA Secret: the certificates controller issues the CA
// Certificate again with a new key (a missing Secret means a new key), under the subject
// "<cluster|clients>-ca v<key generation>" (Strimzi's), and the annotation went with the Secret.
//
// The phases, durable on the CA's public Secret <ca>-cert (annotations, as Strimzi's
// ca-cert-generation / ca-key-generation), so a manager restarted mid-way resumes:
//   NewKey               the old certificate recorded (data ca-previous.crt), the CA Secret
//                        deleted; ca.crt still the old certificate, until the new key is issued
//   TrustBoth            ca.crt = new + old certificate: every node rolls to trust both
//   ReissueCertificates  the certificates the CA signs (nodes' and the operator's for the cluster
//                        CA, KafkaUsers' for the clients CA) issued again, now under the new key;
//                        the nodes roll onto theirs
//   RemoveOld            once every one of them is signed by the new key: ca.crt = the new
//                        certificate alone, every node rolls; then Idle
// Each roll is the controller's ordinary safe roll (one node at a time, each broker only when its
// partitions stay available). A CA key changed by anything else (its Secret deleted by hand) is
// taken through the same phases from TrustBoth on, so no node loses trust then either.
//
// Strimzi's certificateExpirationPolicy: replace-key (spec.clusterCa / spec.clientsCa) starts the
// same replacement by itself once the CA certificate enters its renewal window (renewalDays
// before it expires), where renew-certificate (the default) renews it with its key kept.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::kafka {

inline constexpr std::string_view kForceReplaceAnnotation = "kafka.capstan.dev/force-replace";
inline constexpr std::string_view kCaKeyGenerationAnnotation = "kafka.capstan.dev/ca-key-generation";
inline constexpr std::string_view kCaKeyReplacementAnnotation = "kafka.capstan.dev/ca-key-replacement";
// The public Secret's key holding the replaced CA certificate while a replacement runs.
inline constexpr std::string_view kPreviousCaCertKey = "ca-previous.crt";
// The Kafka's Warning condition while a CA key is replaced.
inline constexpr std::string_view kCaKeyReplacementReason = "CaKeyReplacement";

enum class CaPhase { Idle, NewKey, TrustBoth, ReissueCertificates, RemoveOld };
std::string_view phase_name(CaPhase phase);  // "" for Idle
std::optional<CaPhase> parse_phase(std::string_view name);

// What a CA's public Secret says: the durable state of its key replacement.
struct CaTrust {
  CaPhase phase = CaPhase::Idle;
  std::int64_t key_generation = 0;
  std::string bundle_pem;    // ca.crt: what nodes and clients trust
  std::string previous_pem;  // the replaced CA certificate, from NewKey to ReissueCertificates
  bool operator==(const CaTrust&) const = default;
};

// Read from the public Secret (annotations and data; decoded), a default CaTrust if none.
CaTrust read_ca_trust(const json::Value* public_secret);
// The public Secret <ca>-cert of `kafka` saying `trust`.
json::Value ca_trust_secret(const json::Value& kafka, std::string_view ca_name, const CaTrust& trust);
// The CA certificate's common name at a key generation: "cluster-ca v0", "cluster-ca v1", ...
std::string ca_common_name(std::string_view base, std::int64_t key_generation);

// Before the nodes are planned: what the public Secret says this time, given the CA Secret's
// certificate (`current_pem`, "" when it is missing) and whether it asks for a new key; and
// whether the CA Secret holds the key being replaced (the caller deletes it).
struct CaKeyFollow {
  CaTrust trust;
  bool delete_ca_secret = false;
};
CaKeyFollow follow_ca_key(const CaTrust& written, const std::string& current_pem, bool force_replace);

// replace-key: whether the CA certificate `current_pem` is within `renewal` of its expiry at
// `now` (false for none, or one that cannot be read).
bool key_replacement_due(const std::string& current_pem, std::chrono::hours renewal, meta::TimePoint now);

// After the nodes were reconciled: the next phase once `nodes_settled` (every node runs its
// current revision, so trusts `trust.bundle_pem`, and is Ready) and `leaves_on_new_key` (every
// certificate the CA signs is signed by `current_pem`); and whether the certificates not yet
// signed by the new key are to be issued again.
struct CaKeyAdvance {
  CaTrust trust;
  bool reissue_leaves = false;
};
CaKeyAdvance advance_ca_key(const CaTrust& trust, const std::string& current_pem, bool nodes_settled, bool leaves_on_new_key);

// Whether the first certificates of two PEMs have the same public key (false if either is unreadable).
bool same_key(const std::string& a_pem, const std::string& b_pem);
// Whether the first certificate of `leaf_pem` is signed by the first of `ca_pem`.
bool signed_by(const std::string& leaf_pem, const std::string& ca_pem);
// The Warning's words for a replacement in progress of `what` ("cluster CA") in Secret `secret`; "" when Idle.
std::string ca_key_replacement_message(std::string_view what, std::string_view secret, const CaTrust& trust);

}  // namespace capstan::kafka
