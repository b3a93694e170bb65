// The phases of a CA key replacement (ca_replacement.h), walked through as a reconcile sees them.
#include "controllers/kafka/ca_replacement.h"
#include "controllers/kafka/security.h"

#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/sign.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {
using namespace std::chrono_literals;

struct Ca {
  pki::PrivateKey key;
  std::string pem;
};

Ca make_ca(const std::string& cn) {
  Ca ca{pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256), ""};
  ca.pem = pki::self_signed_ca(cn, 24h, ca.key).to_pem();
  return ca;
}

std::string leaf_of(const Ca& ca) {
  return pki::client_certificate("events-kafka", {}, pki::Certificate::parse_pem(ca.pem), ca.key, 24h).certificate.to_pem();
}

json::Value kafka() {
  return json::Object{{"apiVersion", "kafka.capstan.dev/v1"},
                      {"kind", "Kafka"},
                      {"metadata", json::Object{{"name", "events"}, {"namespace", "data"}, {"uid", "u-1"}}}};
}

int certificates_in(const std::string& pem) {
  int n = 0;
  for (auto at = pem.find("BEGIN CERTIFICATE"); at != std::string::npos; at = pem.find("BEGIN CERTIFICATE", at + 1)) ++n;
  return n;
}

TEST(KafkaCaReplacement, AForcedReplacementRecordsTheOldCertificateThenTrustsBothThenReissuesThenDropsTheOld) {
  const Ca old_ca = make_ca("cluster-ca v0");
  const CaTrust idle{CaPhase::Idle, 0, old_ca.pem, ""};

  // Nothing asked: the public Secret follows the CA's certificate (a renewal keeps the key).
  auto step = follow_ca_key(idle, old_ca.pem, false);
  EXPECT_EQ(step.trust, idle);
  EXPECT_FALSE(step.delete_ca_secret);

  // The annotation: the certificate in use recorded, the next key generation, the CA Secret to delete.
  step = follow_ca_key(idle, old_ca.pem, true);
  EXPECT_TRUE(step.delete_ca_secret);
  const CaTrust recorded{CaPhase::NewKey, 1, old_ca.pem, old_ca.pem};
  EXPECT_EQ(step.trust, recorded);

  // A restart before the delete happened: the CA Secret still holds the old key, it is deleted again.
  step = follow_ca_key(recorded, old_ca.pem, false);
  EXPECT_TRUE(step.delete_ca_secret);
  EXPECT_EQ(step.trust, recorded);
  // Deleted, not issued yet: clients go on trusting the old certificate alone.
  step = follow_ca_key(recorded, "", false);
  EXPECT_FALSE(step.delete_ca_secret);
  EXPECT_EQ(step.trust.bundle_pem, old_ca.pem);
  EXPECT_EQ(advance_ca_key(recorded, "", true, true).trust, recorded) << "no phase moves before the new key exists";

  // The new key issued: the new and the old certificate trusted, the new first.
  const Ca new_ca = make_ca("cluster-ca v1");
  step = follow_ca_key(recorded, new_ca.pem, false);
  EXPECT_FALSE(step.delete_ca_secret);
  ASSERT_EQ(step.trust.phase, CaPhase::TrustBoth);
  EXPECT_EQ(certificates_in(step.trust.bundle_pem), 2);
  EXPECT_EQ(step.trust.bundle_pem.find(new_ca.pem), 0u);
  EXPECT_NE(step.trust.bundle_pem.find(old_ca.pem), std::string::npos);
  const CaTrust both = step.trust;

  // The certificates are issued again only once every node trusts both.
  auto adv = advance_ca_key(both, new_ca.pem, false, false);
  EXPECT_EQ(adv.trust, both);
  EXPECT_FALSE(adv.reissue_leaves);
  adv = advance_ca_key(both, new_ca.pem, true, false);
  EXPECT_EQ(adv.trust.phase, CaPhase::ReissueCertificates);
  EXPECT_TRUE(adv.reissue_leaves);
  EXPECT_EQ(adv.trust.bundle_pem, both.bundle_pem);
  const CaTrust reissuing = adv.trust;

  // The old certificate stays while a certificate of the old key is in use, or a node has not rolled.
  adv = advance_ca_key(reissuing, new_ca.pem, true, false);
  EXPECT_EQ(adv.trust, reissuing);
  EXPECT_TRUE(adv.reissue_leaves);
  adv = advance_ca_key(reissuing, new_ca.pem, false, true);
  EXPECT_EQ(adv.trust, reissuing);
  EXPECT_FALSE(adv.reissue_leaves);
  // Then it goes, and the nodes roll once more before the replacement is done.
  adv = advance_ca_key(reissuing, new_ca.pem, true, true);
  const CaTrust removing{CaPhase::RemoveOld, 1, new_ca.pem, ""};
  EXPECT_EQ(adv.trust, removing);
  EXPECT_EQ(follow_ca_key(removing, new_ca.pem, false).trust, removing);
  EXPECT_EQ(advance_ca_key(removing, new_ca.pem, false, true).trust, removing);
  EXPECT_EQ(advance_ca_key(removing, new_ca.pem, true, true).trust, (CaTrust{CaPhase::Idle, 1, new_ca.pem, ""}));
}

TEST(KafkaCaReplacement, AKeyChangedByHandIsTrustedBesideTheOldOneAndTheAnnotationWaitsDuringAReplacement) {
  const Ca old_ca = make_ca("clients-ca v0"), new_ca = make_ca("clients-ca v0");
  const CaTrust idle{CaPhase::Idle, 0, old_ca.pem, ""};
  auto step = follow_ca_key(idle, new_ca.pem, false);
  EXPECT_FALSE(step.delete_ca_secret);
  EXPECT_EQ(step.trust.phase, CaPhase::TrustBoth);
  EXPECT_EQ(step.trust.previous_pem, old_ca.pem);
  EXPECT_EQ(step.trust.key_generation, 0);
  EXPECT_EQ(certificates_in(step.trust.bundle_pem), 2);
  // Asked again meanwhile: nothing is deleted before this replacement is done.
  step = follow_ca_key(step.trust, new_ca.pem, true);
  EXPECT_FALSE(step.delete_ca_secret);
  EXPECT_EQ(step.trust.phase, CaPhase::TrustBoth);
  // First issuance: nothing written before.
  EXPECT_EQ(follow_ca_key(CaTrust{}, old_ca.pem, false).trust, (CaTrust{CaPhase::Idle, 0, old_ca.pem, ""}));
  EXPECT_EQ(follow_ca_key(CaTrust{}, "", true).trust, CaTrust{});
}

TEST(KafkaCaReplacement, KeysAndSignaturesAreToldApart) {
  const Ca a = make_ca("cluster-ca v0"), b = make_ca("cluster-ca v0");
  const std::string renewed = pki::self_signed_ca("cluster-ca v0", 48h, a.key).to_pem();
  EXPECT_TRUE(same_key(a.pem, renewed));
  EXPECT_FALSE(same_key(a.pem, b.pem));
  EXPECT_FALSE(same_key(a.pem, ""));
  EXPECT_FALSE(same_key("not a certificate", "not a certificate"));
  const std::string leaf = leaf_of(a);
  EXPECT_TRUE(signed_by(leaf, a.pem));
  EXPECT_TRUE(signed_by(leaf, renewed)) << "a renewal with the key kept still verifies what the CA signed";
  EXPECT_FALSE(signed_by(leaf, b.pem));
  EXPECT_FALSE(signed_by("", a.pem));
}

TEST(KafkaCaReplacement, ThePhaseIsReadBackFromThePublicSecret) {
  const Ca old_ca = make_ca("cluster-ca v0"), new_ca = make_ca("cluster-ca v1");
  const CaTrust both{CaPhase::TrustBoth, 3, new_ca.pem + old_ca.pem, old_ca.pem};
  const json::Value secret = ca_trust_secret(kafka(), "events-cluster-ca", both);
  EXPECT_EQ(meta::name_of(secret), "events-cluster-ca-cert");
  EXPECT_EQ(meta::annotation(secret, kCaKeyReplacementAnnotation), "TrustBoth");
  EXPECT_EQ(meta::annotation(secret, kCaKeyGenerationAnnotation), "3");
  EXPECT_EQ(read_ca_trust(&secret), both);

  const CaTrust idle{CaPhase::Idle, 3, new_ca.pem, ""};
  const json::Value done = ca_trust_secret(kafka(), "events-cluster-ca", idle);
  EXPECT_EQ(meta::annotation(done, kCaKeyReplacementAnnotation), "");
  EXPECT_EQ(json::find(done, {"data", kPreviousCaCertKey}), nullptr);
  EXPECT_EQ(read_ca_trust(&done), idle);
  EXPECT_EQ(read_ca_trust(nullptr), CaTrust{});

  EXPECT_EQ(ca_common_name("cluster-ca", 0), "cluster-ca v0");
  EXPECT_EQ(ca_common_name("clients-ca", 2), "clients-ca v2");
  for (auto p : {CaPhase::Idle, CaPhase::NewKey, CaPhase::TrustBoth, CaPhase::ReissueCertificates, CaPhase::RemoveOld})
    EXPECT_EQ(parse_phase(phase_name(p)), p);
  EXPECT_EQ(parse_phase("Later"), std::nullopt);
  EXPECT_EQ(ca_key_replacement_message("cluster CA", "events-cluster-ca", idle), "");
  EXPECT_EQ(ca_key_replacement_message("cluster CA", "events-cluster-ca", both),
            "The private key of the cluster CA (Secret events-cluster-ca) is being replaced, key generation 3: phase 1 of 3, rolling the "
            "nodes to trust the new and the old CA certificates");
}

// spec.clusterCa / spec.clientsCa: the lifetime of the CA's certificates, and replace-key's
// trigger and its CA Certificate, whose own renewal (keeping the key) waits half the window.
TEST(KafkaCaReplacement, TheCasLifetimesFollowTheSpecAndReplaceKeyIsDueInTheRenewalWindow) {
  json::Value k = kafka();
  EXPECT_EQ(certificate_lifetime(k, CaRole::Cluster).duration, "8760h") << "Strimzi's 365 days";
  EXPECT_EQ(certificate_lifetime(k, CaRole::Cluster).renew_before, "720h");
  EXPECT_FALSE(replaces_ca_key(k, CaRole::Cluster));
  json::ensure_object(k, {"spec"})["clientsCa"] =
      json::Object{{"validityDays", 10}, {"renewalDays", 4}, {"certificateExpirationPolicy", "replace-key"}};
  EXPECT_EQ(certificate_lifetime(k, CaRole::Clients).duration, "240h");
  EXPECT_EQ(certificate_lifetime(k, CaRole::Clients).renew_before, "96h");
  EXPECT_EQ(certificate_lifetime(k, CaRole::Cluster).duration, "8760h") << "each CA has its own";
  EXPECT_TRUE(replaces_ca_key(k, CaRole::Clients));
  EXPECT_EQ(ca_renewal_days(k, CaRole::Clients), 4);
  for (const auto& o : ca_objects(k)) {
    if (json::get_string(o, {"kind"}) != "Certificate") continue;
    const bool clients = json::get_string(o, {"metadata", "name"}) == "events-clients-ca";
    EXPECT_EQ(json::get_string(o, {"spec", "duration"}), clients ? "240h" : "8760h");
    EXPECT_EQ(json::get_string(o, {"spec", "renewBefore"}), clients ? "48h" : "720h") << "replace-key's backstop renewal waits half the window";
  }

  // Due once the certificate is within renewalDays of its end (it is valid 24 h here).
  const Ca ca = make_ca("clients-ca v0");
  const auto now = meta::Clock::now();
  EXPECT_FALSE(key_replacement_due(ca.pem, 4h, now));
  EXPECT_FALSE(key_replacement_due(ca.pem, 4h, now + 19h));
  EXPECT_TRUE(key_replacement_due(ca.pem, 4h, now + 21h));
  EXPECT_TRUE(key_replacement_due(ca.pem, 48h, now));
  EXPECT_FALSE(key_replacement_due("", 48h, now)) << "no certificate yet";
  EXPECT_FALSE(key_replacement_due("not a certificate", 48h, now));
}

}  // namespace
}  // namespace capstan::kafka
