// What happens after the first issuance: renewal by itself (old requests pruned), re-issuance
// when the Secret is deleted or corrupted or the spec changes, key rotation policies, metadata
// drift, failures with backoff, and a manager stopped mid-issuance.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace testing;

constexpr std::string_view kSelfSignedIssuer = R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer",
    "metadata":{"name":"selfsigned","namespace":"shop"},"spec":{"selfSigned":{}}})";

std::string certificate(std::string_view name, std::string_view spec_tail) {
  return std::string(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":")") + std::string(name) +
         R"(","namespace":"shop"},"spec":{"secretName":")" + std::string(name) +
         R"(-tls","issuerRef":{"name":"selfsigned"},"privateKey":{"algorithm":"ECDSA"})" + std::string(spec_tail) + "}}";
}

std::vector<std::string> request_names(Harness& h, std::string_view certificate_name) {
  std::vector<std::string> out;
  for (const auto& r : h.list(kCertificateRequestType.gvr, "shop"))
    if (meta::annotation(r, annotation::kCertificateName) == certificate_name) out.emplace_back(meta::name_of(r));
  std::sort(out.begin(), out.end());
  return out;
}

std::string serial(Harness& h, std::string_view secret) {
  auto d = h.secret_data("shop", secret);
  try {
    return pki::Certificate::parse_pem(d["tls.crt"]).serial_hex();
  } catch (const std::exception&) {
    return "";
  }
}

TEST(Lifecycle, RenewsByItselfAndPrunesOldRequests) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  // Renewal 2 s after notBefore: every issued certificate is renewed almost at once.
  h.apply(certificate("short", R"(,"dnsNames":["short.example"],"duration":"1h","renewBefore":"59m58s")"));
  json::Value first = h.wait_ready("shop", "short", 1);
  std::string serial1 = serial(h, "short-tls");
  json::Value later = h.wait_ready("shop", "short", 3, 30s);
  EXPECT_GE(revision_of(later), 3);
  EXPECT_NE(serial(h, "short-tls"), serial1);
  auto renewal = meta::parse_rfc3339(json::get_string(later, {"status", "renewalTime"}));
  auto not_after = meta::parse_rfc3339(json::get_string(later, {"status", "notAfter"}));
  ASSERT_TRUE(renewal && not_after);
  EXPECT_EQ(*not_after - *renewal, std::chrono::minutes(59) + std::chrono::seconds(58));
  // revisionHistoryLimit 1 (the default): only the current revision's request remains.
  bool pruned = integration::eventually(
      [&] {
        auto names = request_names(h, "short");
        auto now = h.get(kCertificateType.gvr, "shop", "short");
        std::int64_t rev = now ? revision_of(*now) : 0;
        // At most the current one, plus the next while a renewal is in flight.
        for (const auto& n : names)
          if (n != "short-" + std::to_string(rev) && n != "short-" + std::to_string(rev + 1)) return false;
        return !names.empty();
      },
      10s);
  EXPECT_TRUE(pruned) << "requests: " << request_names(h, "short").size();
  EXPECT_EQ(h.reconcile_errors("certificates"), 0);
}

TEST(Lifecycle, DeletedOrCorruptedSecretIsReissued) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  h.apply(certificate("web", R"(,"dnsNames":["web.example"])"));
  h.wait_ready("shop", "web", 1);
  std::string s1 = serial(h, "web-tls");

  h.client().remove(kSecretType.gvr, "shop", "web-tls");
  json::Value crt = h.wait_ready("shop", "web", 2);
  EXPECT_EQ(revision_of(crt), 2);
  std::string s2 = serial(h, "web-tls");
  EXPECT_FALSE(s2.empty());
  EXPECT_NE(s2, s1);

  json::Value patch = json::Object{{"data", json::Object{{"tls.crt", meta::base64_encode("garbage")}}}};
  h.client().patch(kSecretType.gvr, "shop", "web-tls", client::PatchType::Merge, json::serialize(patch));
  crt = h.wait_ready("shop", "web", 3);
  std::string s3 = serial(h, "web-tls");
  EXPECT_FALSE(s3.empty());
  EXPECT_NE(s3, s2);
  auto data = h.secret_data("shop", "web-tls");
  EXPECT_TRUE(pki::PrivateKey::from_pem(data["tls.key"]).matches(pki::Certificate::parse_pem(data["tls.crt"])));

  // Another key in the Secret: re-issued too.
  patch = json::Object{{"data", json::Object{{"tls.key", meta::base64_encode(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA).to_pem())}}}};
  h.client().patch(kSecretType.gvr, "shop", "web-tls", client::PatchType::Merge, json::serialize(patch));
  h.wait_ready("shop", "web", 4);
  data = h.secret_data("shop", "web-tls");
  EXPECT_TRUE(pki::PrivateKey::from_pem(data["tls.key"]).matches(pki::Certificate::parse_pem(data["tls.crt"])));
  EXPECT_TRUE(h.wait_no_temporary_keys("shop"));
}

TEST(Lifecycle, SpecChangesReissueAndRotationPolicyDecidesTheKey) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  h.apply(certificate("always", R"(,"dnsNames":["a.example"])"));
  h.apply(certificate("never", R"(,"dnsNames":["n.example"],"privateKey":{"algorithm":"ECDSA","rotationPolicy":"Never"})"));
  h.wait_ready("shop", "always", 1);
  h.wait_ready("shop", "never", 1);
  std::string key_always = h.secret_data("shop", "always-tls")["tls.key"];
  std::string key_never = h.secret_data("shop", "never-tls")["tls.key"];

  for (const char* name : {"always", "never"}) {
    json::Value patch = json::Object{{"spec", json::Object{{"dnsNames", json::Array{std::string(name) + ".example", "extra.example"}}}}};
    h.client().patch(kCertificateType.gvr, "shop", name, client::PatchType::Merge, json::serialize(patch));
  }
  h.wait_ready("shop", "always", 2);
  h.wait_ready("shop", "never", 2);
  for (const char* name : {"always", "never"}) {
    auto cert = pki::Certificate::parse_pem(h.secret_data("shop", std::string(name) + "-tls")["tls.crt"]);
    auto dns = cert.dns_names();
    std::sort(dns.begin(), dns.end());
    std::vector<std::string> want{std::string(name) + ".example", "extra.example"};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(dns, want);
  }
  EXPECT_NE(h.secret_data("shop", "always-tls")["tls.key"], key_always);
  EXPECT_EQ(h.secret_data("shop", "never-tls")["tls.key"], key_never);
  // Issued with the old spec: pruned.
  EXPECT_TRUE(integration::eventually([&] { return request_names(h, "always") == std::vector<std::string>{"always-2"}; }, 10s));

  // A key size change re-issues even with rotationPolicy Never (the old key does not fit).
  json::Value patch = json::Object{{"spec", json::Object{{"privateKey", json::Object{{"size", 384}}}}}};
  h.client().patch(kCertificateType.gvr, "shop", "never", client::PatchType::Merge, json::serialize(patch));
  h.wait_ready("shop", "never", 3);
  EXPECT_EQ(pki::PrivateKey::from_pem(h.secret_data("shop", "never-tls")["tls.key"]).size(), 384);
}

TEST(Lifecycle, AnExistingSecretKeepsItsType) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  // Made by hand, without our label (so not in the controller's cache), of another type.
  h.client().create(kSecretType.gvr, "shop",
                    json::Object{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", json::Object{{"name", "opaque-tls"}}},
                                 {"type", "Opaque"}, {"data", json::Object{{"other", meta::base64_encode("kept")}}}});
  h.apply(certificate("opaque", R"(,"dnsNames":["o.example"])"));
  h.wait_ready("shop", "opaque", 1);
  auto s = h.get(kSecretType.gvr, "shop", "opaque-tls");
  ASSERT_TRUE(s);
  EXPECT_EQ(json::get_string(*s, {"type"}), "Opaque");
  auto data = h.secret_data("shop", "opaque-tls");
  EXPECT_EQ(data["other"], "kept");
  EXPECT_TRUE(pki::PrivateKey::from_pem(data["tls.key"]).matches(pki::Certificate::parse_pem(data["tls.crt"])));
}

TEST(Lifecycle, SecretMetadataIsKeptWithoutReissuing) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  h.apply(certificate("meta", R"(,"dnsNames":["m.example"],"secretTemplate":{"labels":{"team":"a"}})"));
  h.wait_ready("shop", "meta", 1);
  json::Value patch = json::Object{{"spec", json::Object{{"secretTemplate", json::Object{{"labels", json::Object{{"team", "b"}}},
                                                                                         {"annotations", json::Object{{"x", "y"}}}}}}}};
  h.client().patch(kCertificateType.gvr, "shop", "meta", client::PatchType::Merge, json::serialize(patch));
  auto s = h.wait_for(kSecretType.gvr, "shop", "meta-tls", [](const json::Value& o) {
    return json::get_string(o, {"metadata", "labels", "team"}) == "b" && json::get_string(o, {"metadata", "annotations", "x"}) == "y";
  });
  EXPECT_TRUE(s);
  // Our label removed by hand (the Secret leaves our cache): put back, still revision 1.
  json::Value unlabel = json::Object{{"metadata", json::Object{{"labels", json::Object{{"controller.certs.capstan.dev/fao", nullptr}}}}}};
  h.client().patch(kSecretType.gvr, "shop", "meta-tls", client::PatchType::Merge, json::serialize(unlabel));
  s = h.wait_for(kSecretType.gvr, "shop", "meta-tls", [](const json::Value& o) {
    return json::get_string(o, {"metadata", "labels", "controller.certs.capstan.dev/fao"}) == "true";
  });
  EXPECT_TRUE(s);
  auto crt = h.get(kCertificateType.gvr, "shop", "meta");
  EXPECT_EQ(revision_of(*crt), 1);
}

TEST(Lifecycle, AdditionalOutputFormatsFollowTheSpecWithoutReissuing) {
  Harness h;
  h.apply(kSelfSignedIssuer);
  h.apply(certificate("formats", R"(,"dnsNames":["f.example"],"additionalOutputFormats":[{"type":"DER"},{"type":"CombinedPEM"}])"));
  h.wait_ready("shop", "formats", 1);
  auto d = h.secret_data("shop", "formats-tls");
  ASSERT_TRUE(d.count("key.der") && d.count("tls-combined.pem")) << "keys: " << d.size();
  EXPECT_EQ(d["tls-combined.pem"], d["tls.key"] + d["tls.crt"]) << "the key, then the chain";
  auto key = pki::PrivateKey::from_pem(d["tls.key"]);
  EXPECT_EQ(d["key.der"], key.to_pkcs8_der());
  EXPECT_TRUE(key.matches(pki::Certificate::parse_pem(d["tls.crt"])));

  // Only DER now: the combined PEM leaves the Secret, with no new certificate.
  const std::string before = serial(h, "formats-tls");
  h.client().patch(kCertificateType.gvr, "shop", "formats", client::PatchType::Merge,
                   std::string(R"({"spec":{"additionalOutputFormats":[{"type":"DER"}]}})"));
  auto s = h.wait_for(kSecretType.gvr, "shop", "formats-tls",
                      [](const json::Value& o) { return !json::find(o, {"data", "tls-combined.pem"}) && json::find(o, {"data", "key.der"}); });
  EXPECT_TRUE(s);
  // A key.der edited by hand is set back.
  h.client().patch(kSecretType.gvr, "shop", "formats-tls", client::PatchType::Merge, std::string(R"({"data":{"key.der":"AAAA"}})"));
  s = h.wait_for(kSecretType.gvr, "shop", "formats-tls",
                 [](const json::Value& o) { return json::get_string(o, {"data", "key.der"}) != "AAAA"; });
  EXPECT_TRUE(s);
  EXPECT_EQ(serial(h, "formats-tls"), before);
  EXPECT_EQ(revision_of(*h.get(kCertificateType.gvr, "shop", "formats")), 1);
}

TEST(Lifecycle, FailedIssuanceIsVisibleAndBacksOff) {
  TestClock clock;
  HarnessOptions o;
  o.certs.enable_approver = false;  // the test approves and denies
  o.certs.clock = clock.fn();
  o.certs.max_requeue_delay = 200ms;
  Harness h(o);
  h.apply(kSelfSignedIssuer);
  h.apply(certificate("denied", R"(,"dnsNames":["d.example"])"));
  auto cr = h.wait_for(kCertificateRequestType.gvr, "shop", "denied-1", [](const json::Value&) { return true; });
  ASSERT_TRUE(cr);
  std::string first_uid(meta::uid_of(*cr));
  json::Value deny = *cr;
  json::ensure_object(deny, {"status"})["conditions"] = json::Array{json::Object{
      {"type", "Denied"}, {"status", "True"}, {"reason", "Policy"}, {"message", "not on my watch"},
      {"lastTransitionTime", meta::format_rfc3339(meta::Clock::now())}}};
  h.client().update_status(kCertificateRequestType.gvr, "shop", deny);

  auto failed = h.wait_for(kCertificateType.gvr, "shop", "denied", [](const json::Value& c) {
    return condition_status(c, "Issuing") == "False" && json::get_int(c, {"status", "failedIssuanceAttempts"}) == 1;
  });
  ASSERT_TRUE(failed);
  auto issuing = meta::find_condition(*failed, "Issuing");
  EXPECT_EQ(issuing->reason, "Policy");
  EXPECT_EQ(issuing->message, "The certificate request has failed to complete and will be retried: not on my watch");
  EXPECT_FALSE(json::get_string(*failed, {"status", "lastFailureTime"}).empty());
  EXPECT_EQ(condition_reason(*failed, "Ready"), "DoesNotExist");
  EXPECT_TRUE(h.wait_for(kCertificateRequestType.gvr, "shop", "denied-1",
                         [](const json::Value& r) { return condition_reason(r, "Ready") == "Denied"; }));

  // Within the hour nothing happens...
  std::this_thread::sleep_for(600ms);
  cr = h.get(kCertificateRequestType.gvr, "shop", "denied-1");
  ASSERT_TRUE(cr);
  EXPECT_EQ(meta::uid_of(*cr), first_uid);
  // ... one hour later a new request of the same revision is made; approved, it issues.
  clock.advance(std::chrono::seconds(3600));
  auto second = h.wait_for(kCertificateRequestType.gvr, "shop", "denied-1",
                           [&](const json::Value& r) { return meta::uid_of(r) != first_uid; });
  ASSERT_TRUE(second);
  json::Value approve = *second;
  json::ensure_object(approve, {"status"})["conditions"] = json::Array{json::Object{
      {"type", "Approved"}, {"status", "True"}, {"reason", "Test"}, {"message", "ok"},
      {"lastTransitionTime", meta::format_rfc3339(meta::Clock::now())}}};
  h.client().update_status(kCertificateRequestType.gvr, "shop", approve);
  json::Value ready = h.wait_ready("shop", "denied", 1);
  EXPECT_EQ(json::find(ready, {"status", "failedIssuanceAttempts"}), nullptr);
  EXPECT_EQ(json::find(ready, {"status", "lastFailureTime"}), nullptr);
  bool failed_event = false;
  for (const auto& e : h.list({"", "v1", "events"}, "shop"))
    if (json::get_string(e, {"involvedObject", "name"}) == "denied" && json::get_string(e, {"reason"}) == "Failed") failed_event = true;
  EXPECT_TRUE(failed_event);
}

void approve(Harness& h, std::string_view request) {
  auto cr = h.wait_for(kCertificateRequestType.gvr, "shop", request, [](const json::Value&) { return true; });
  ASSERT_TRUE(cr);
  json::Value approved = *cr;
  json::ensure_object(approved, {"status"})["conditions"] = json::Array{json::Object{
      {"type", "Approved"}, {"status", "True"}, {"reason", "Test"}, {"message", "ok"},
      {"lastTransitionTime", meta::format_rfc3339(meta::Clock::now())}}};
  h.client().update_status(kCertificateRequestType.gvr, "shop", approved);
}

// issue-temporary-certificate: while the first request waits for approval the Secret holds the
// next key and a certificate for the spec from a throwaway CA, marked, and the Certificate is
// not Ready; the issued certificate replaces it for the same key. A renewal never replaces a
// working Secret by a temporary certificate.
TEST(Lifecycle, TemporaryCertificateWhileTheFirstIssuanceIsPending) {
  HarnessOptions o;
  o.certs.enable_approver = false;
  Harness h(o);
  h.apply(kSelfSignedIssuer);
  std::string crt = certificate("early", R"(,"dnsNames":["early.example"])");
  crt.replace(crt.find(R"("namespace":"shop")"), 18,
              R"("namespace":"shop","annotations":{"certs.capstan.dev/issue-temporary-certificate":"true"})");
  h.apply(crt);

  ASSERT_TRUE(integration::eventually([&] { return !h.secret_data("shop", "early-tls")["tls.crt"].empty(); }, 10s));
  auto data = h.secret_data("shop", "early-tls");
  auto temporary = pki::Certificate::parse_pem(data["tls.crt"]);
  auto key = pki::PrivateKey::from_pem(data["tls.key"]);
  EXPECT_TRUE(key.matches(temporary));
  EXPECT_EQ(temporary.issuer().common_name, "capstan.local");
  EXPECT_EQ(temporary.dns_names(), std::vector<std::string>{"early.example"});
  EXPECT_EQ(data.count("ca.crt"), 0u);
  auto secret = h.get({"", "v1", "secrets"}, "shop", "early-tls");
  ASSERT_TRUE(secret);
  EXPECT_EQ(meta::annotation(*secret, annotation::kTemporaryCertificate), "true");
  auto pending = h.wait_for(kCertificateType.gvr, "shop", "early", [](const json::Value& c) {
    return condition_status(c, "Ready") == "False" && condition_reason(c, "Ready") == "IncorrectIssuer";
  });
  ASSERT_TRUE(pending);
  EXPECT_EQ(meta::find_condition(*pending, "Ready")->message, "Issuing certificate as Secret holds a temporary certificate");

  approve(h, "early-1");
  h.wait_ready("shop", "early", 1);
  data = h.secret_data("shop", "early-tls");
  auto issued = pki::Certificate::parse_pem(data["tls.crt"]);
  EXPECT_NE(issued.issuer().common_name, "capstan.local");
  EXPECT_TRUE(key.matches(issued));  // the key the temporary certificate was for
  secret = h.get({"", "v1", "secrets"}, "shop", "early-tls");
  EXPECT_EQ(meta::annotation(*secret, annotation::kTemporaryCertificate), "");
  bool temporary_event = false;
  for (const auto& e : h.list({"", "v1", "events"}, "shop"))
    if (json::get_string(e, {"message"}) == "Issued temporary certificate") temporary_event = true;
  EXPECT_TRUE(temporary_event);

  // A spec change re-issues; until that request is approved the issued certificate stays.
  json::Value patch = json::Object{{"spec", json::Object{{"dnsNames", json::Array{"early.example", "later.example"}}}}};
  h.client().patch(kCertificateType.gvr, "shop", "early", client::PatchType::Merge, json::serialize(patch));
  ASSERT_TRUE(h.wait_for(kCertificateRequestType.gvr, "shop", "early-2", [](const json::Value&) { return true; }));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(serial(h, "early-tls"), issued.serial_hex());
  approve(h, "early-2");
  h.wait_ready("shop", "early", 2);
  EXPECT_NE(serial(h, "early-tls"), issued.serial_hex());
}

TEST(Lifecycle, ManagerStoppedMidIssuanceFinishesAfterARestart) {
  HarnessOptions o;
  o.certs.issuer_retry_interval = 300ms;  // the CA Secret is not ours: not watched, looked at again
  Harness h(o);
  // A CA issuer whose Secret does not exist yet: every request waits (Pending) mid-issuance.
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"late-ca","namespace":"shop"},
      "spec":{"ca":{"secretName":"late-ca"}}})");
  for (const char* n : {"a", "b", "c"})
    h.apply(std::string(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":")") + n +
            R"(","namespace":"shop"},"spec":{"secretName":")" + n + R"(-tls","dnsNames":[")" + n +
            R"(.example"],"privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"late-ca"}}})");
  for (const char* n : {"a", "b", "c"})
    ASSERT_TRUE(h.wait_for(kCertificateRequestType.gvr, "shop", std::string(n) + "-1", [](const json::Value&) { return true; }));
  h.stop_manager();
  EXPECT_EQ(h.list(kSecretType.gvr, "shop", "certs.capstan.dev/next-private-key=true").size(), 3u);

  // The CA appears while nothing runs; a new manager finishes from what is in the API.
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("late", std::chrono::hours(24), key);
  h.client().create(kSecretType.gvr, "shop",
                    json::Object{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", json::Object{{"name", "late-ca"}}},
                                 {"type", "kubernetes.io/tls"},
                                 {"data", json::Object{{"tls.crt", meta::base64_encode(ca.to_pem())},
                                                       {"tls.key", meta::base64_encode(key.to_pem())}}}});
  h.start_manager();
  for (const char* n : {"a", "b", "c"}) {
    json::Value c = h.wait_ready("shop", n, 1, 40s);
    EXPECT_EQ(revision_of(c), 1);
    EXPECT_EQ(request_names(h, n), std::vector<std::string>{std::string(n) + "-1"});
  }
  EXPECT_TRUE(h.wait_no_temporary_keys("shop"));
}

}  // namespace
}  // namespace capstan::certificates
