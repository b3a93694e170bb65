#include "controllers/certificates/certificate_controller.h"

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"
#include "controllers/certificates/backoff.h"
#include "runtime/controller/status.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/key_manager.h"
#include "controllers/certificates/keystores.h"
#include "controllers/certificates/names.h"
#include "controllers/certificates/objects.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/policies/policies.h"
#include "controllers/certificates/readiness.h"
#include "controllers/certificates/request_builder.h"
#include "controllers/certificates/request_state.h"
#include "controllers/certificates/revision_manager.h"
#include "controllers/certificates/secret_builder.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/meta/object.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"

#include <algorithm>

namespace capstan::certificates {

using controller::set_condition;
using controller::remove_condition;
using controller::condition_is;
namespace {

namespace cond = v1::condition;
using controller::Result;

constexpr std::string_view kCertApiVersion = "certs.capstan.dev/v1";

struct OwnedRequest {
  json::Value obj;
  v1::CertificateRequest cr;
};

// One pass over one Certificate.
class Pass {
 public:
  Pass(Env& env, controller::Context& ctx, json::Value obj, v1::Certificate crt)
      : env_(env), ctx_(ctx), obj_(std::move(obj)), crt_(std::move(crt)), status_(crt_.status) {}

  Result run();

 private:
  void load();
  void finish_next_request();
  bool complete_issuance(const OwnedRequest& next);
  void write_secret(const IssuedData& data, bool temporary);
  void issue_temporary_certificate(const pki::PrivateKey& key);
  void record_failure(const OwnedRequest& next);
  void trigger();
  void issue_next_revision();
  void reapply_metadata();
  void add_keystores(IssuedData& data, const SecretView* existing);
  void readiness();
  bool write_status();
  void cleanup();
  void remove_request(const OwnedRequest& r, std::string_view why);
  void wake_at(meta::TimePoint t) { wake_ = wake_ ? std::min(*wake_, t) : t; }
  json::Value target_ref() const { return event_target(kCertApiVersion, v1::kCertificateKind, obj_); }
  void event(std::string_view type, std::string_view reason, std::string_view message) {
    env_.event(target_ref(), type, reason, message);
  }
  OwnedRequest* request_of(std::int64_t revision) {
    for (auto& r : requests_)
      if (request_revision(r.obj) == revision) return &r;
    return nullptr;
  }
  policies::Input input() const {
    return policies::Input{&crt_, target_ ? &*target_ : nullptr, current_ ? &current_->cr : nullptr, now_};
  }

  Env& env_;
  controller::Context& ctx_;
  json::Value obj_;
  v1::Certificate crt_;
  v1::CertificateStatus status_;  // what we want written
  std::string ns_, name_;
  std::int64_t generation_ = 0;
  meta::TimePoint now_{};
  std::optional<SecretView> target_;
  std::vector<OwnedRequest> requests_;
  std::int64_t revision_ = 0;
  OwnedRequest* current_ = nullptr;
  OwnedRequest* next_ = nullptr;
  bool issuing_ = false;
  bool awaiting_retry_ = false;
  std::optional<meta::TimePoint> wake_;
};

void Pass::load() {
  ns_ = std::string(crt_.namespace_());
  name_ = std::string(crt_.name());
  generation_ = meta::generation_of(obj_);
  now_ = env_.now();
  target_ = env_.secret_reader.cached(ns_, crt_.spec.secret_name);
  std::string uid(meta::uid_of(obj_));
  for (const auto& o : env_.requests.store().by_index(cache::kOwnerIndex, uid)) {
    if (o->controller_uid() != uid || o->deleting()) continue;
    json::Value v = o->value();
    try {
      auto cr = v1::CertificateRequest::from_json(v);
      requests_.push_back({std::move(v), std::move(cr)});
    } catch (const apis::codec::DecodeError& e) {
      ctx_.log.warn("skipping an undecodable CertificateRequest", {{"request", o->name()}, {"error", e.what()}});
    }
  }
  revision_ = status_.revision.value_or(0);
  current_ = revision_ > 0 ? request_of(revision_) : nullptr;
  next_ = request_of(revision_ + 1);
  issuing_ = condition_is(status_.conditions, cond::kIssuing, "True");
}

void Pass::remove_request(const OwnedRequest& r, std::string_view why) {
  ctx_.log.info("deleting CertificateRequest", {{"request", meta::name_of(r.obj)}, {"reason", why}});
  client::DeleteOptions o;
  o.ignore_not_found = true;
  o.precondition_uid = std::string(meta::uid_of(r.obj));
  try {
    env_.client.remove(kCertificateRequestType.gvr, ns_, meta::name_of(r.obj), o);
  } catch (const client::ApiError& e) {
    if (!client::is_conflict(e)) throw;  // already replaced by a newer request
  }
}

// Step 1: the next revision's request finished.
void Pass::finish_next_request() {
  if (!issuing_ || !next_) return;
  const OwnedRequest& next = *next_;
  if (request_issued(next.cr)) {
    std::vector<std::string> violations;
    try {
      violations = policies::request_matches_spec(next.cr, crt_.spec);
    } catch (const pki::PkiError& e) {
      violations = {std::string("spec.request: ") + e.what()};
    }
    if (!violations.empty()) {
      remove_request(next, "issued for an outdated spec: [" + join(violations, " ") + "]");
      next_ = nullptr;
      return;
    }
    complete_issuance(next);
    return;
  }
  if (request_failed(next.cr)) {
    auto failed_at = request_failure_time(next.cr, next.obj);
    if (!status_.last_failure_time || *status_.last_failure_time < failed_at) {
      record_failure(next);
    } else {
      // The failure is recorded and a new attempt was triggered: replace the request.
      remove_request(next, "retrying a failed issuance");
      next_ = nullptr;
    }
  }
}

void Pass::record_failure(const OwnedRequest& next) {
  auto [reason, message] = request_failure(next.cr);
  std::string text = "The certificate request has failed to complete and will be retried: " + message;
  set_condition(status_.conditions, cond::kIssuing, "False", reason, text, generation_, now_);
  status_.failed_issuance_attempts = status_.failed_issuance_attempts.value_or(0) + 1;
  status_.last_failure_time = request_failure_time(next.cr, next.obj);
  issuing_ = false;
  event("Warning", event_reason::kFailed, text);
  ctx_.log.info("issuance failed", {{"request", meta::name_of(next.obj)},
                                    {"attempts", *status_.failed_issuance_attempts},
                                    {"reason", reason}});
}

bool Pass::complete_issuance(const OwnedRequest& next) {
  const auto& cr = next.cr;
  pki::Certificate leaf;
  try {
    leaf = pki::Certificate::parse_pem(cr.status.certificate);
  } catch (const pki::PkiError& e) {
    ctx_.log.warn("issued certificate does not parse; requesting again", {{"request", meta::name_of(next.obj)}, {"error", e.what()}});
    remove_request(next, std::string("issued certificate is invalid: ") + e.what());
    next_ = nullptr;
    return false;
  }
  std::string key_name(meta::annotation(next.obj, annotation::kPrivateKeySecretName));
  if (key_name.empty()) key_name = next_key_secret_name(name_, revision_ + 1);
  auto key_secret = env_.secret_reader.get(ns_, key_name);
  std::optional<pki::PrivateKey> key;
  if (key_secret) {
    try {
      key = pki::PrivateKey::from_pem(key_secret->get(kTlsKey));
    } catch (const pki::PkiError&) {
    }
  }
  if (!key) {
    // Either this issuance already completed (the key Secret is deleted after the Secret is
    // written) or the key was lost. The target Secret tells which.
    auto live = target_ ? target_ : env_.secret_reader.live(ns_, crt_.spec.secret_name);
    bool already = false;
    if (live) {
      try {
        already = pki::Certificate::parse_pem(live->get(kTlsCrt)) == leaf;
      } catch (const pki::PkiError&) {
      }
    }
    if (!already) {
      remove_request(next, "the private key Secret \"" + key_name + "\" of this request is gone");
      next_ = nullptr;
      return false;
    }
    target_ = live;
  } else {
    if (!key->matches(leaf)) {
      remove_request(next, "the issued certificate does not match the private key in Secret \"" + key_name + "\"");
      next_ = nullptr;
      return false;
    }
    IssuedData data{cr.status.certificate, cr.status.ca, encode_private_key(*key, crt_.spec), {}};
    add_keystores(data, nullptr);
    write_secret(data, false);
    event("Normal", event_reason::kIssuing, "The certificate has been successfully issued");
    ctx_.log.info("certificate issued", {{"secret", crt_.spec.secret_name},
                                         {"revision", revision_ + 1},
                                         {"notAfter", meta::format_rfc3339(leaf.not_after())}});
  }
  revision_ += 1;
  status_.revision = revision_;
  remove_condition(status_.conditions, cond::kIssuing);
  status_.failed_issuance_attempts.reset();
  status_.last_failure_time.reset();
  status_.next_private_key_secret_name.reset();
  issuing_ = false;
  current_ = next_;
  next_ = nullptr;
  return true;
}

// Server-side applies the Secret (a temporary certificate's marked as such, which a real one's
// apply then removes) and keeps what the server answered as the target.
void Pass::write_secret(const IssuedData& data, bool temporary) {
  auto desired = [&](std::string_view type) {
    json::Value secret = desired_secret(crt_, data, type);
    if (temporary) json::ensure_object(secret, {"metadata", "annotations"})[annotation::kTemporaryCertificate] = "true";
    return secret;
  };
  json::Value applied;
  try {
    applied = env_.client.apply(kSecretType.gvr, ns_, desired(target_ ? target_->type : ""), kFieldManager, true);
  } catch (const client::ApiError& e) {
    // An existing Secret of another type (not in our cache, the type is immutable): keep its type.
    auto live = client::is_invalid(e) && !target_ ? env_.secret_reader.live(ns_, crt_.spec.secret_name) : std::nullopt;
    if (!live || live->type == kTlsSecretType) throw;
    applied = env_.client.apply(kSecretType.gvr, ns_, desired(live->type), kFieldManager, true);
  }
  env_.secret_reader.forget(ns_, crt_.spec.secret_name);
  target_ = SecretView::from_json(applied);
}

// cert-manager's issue-temporary-certificate: while the issuance is pending and the Secret has
// no working key pair, it gets the next private key with a certificate for the spec signed by a
// throwaway CA, so that workloads mounting it can start. The Secret is marked, so it is neither
// Ready nor taken for an issued certificate.
void Pass::issue_temporary_certificate(const pki::PrivateKey& key) {
  if (meta::annotation(obj_, annotation::kIssueTemporaryCertificate) != "true") return;
  if (!policies::evaluate(policies::temporary_certificate_chain(), input())) return;
  const auto duration = std::chrono::duration_cast<std::chrono::seconds>(v1::effective_duration(crt_.spec));
  pki::PrivateKey ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  pki::Certificate ca = pki::self_signed_ca(std::string(kTemporaryCaName), duration, ca_key);
  pki::Certificate leaf = pki::sign(template_for(crt_.spec), key.public_key(), &ca, ca_key, duration);
  write_secret(IssuedData{leaf.to_pem(), "", encode_private_key(key, crt_.spec), {}}, true);
  event("Normal", event_reason::kIssuing, "Issued temporary certificate");
  ctx_.log.info("issued temporary certificate", {{"secret", crt_.spec.secret_name}});
}

// Step 2: should an issuance start?
void Pass::trigger() {
  if (issuing_) return;
  auto in = input();
  auto why = policies::evaluate(policies::trigger_chain(), in);
  if (why && why->reason == reason::kDoesNotExist) {
    // Not in our cache: it may exist without our label (made by hand, or before us).
    if (auto live = env_.secret_reader.live(ns_, crt_.spec.secret_name)) {
      target_ = std::move(live);
      why = policies::evaluate(policies::trigger_chain(), input());
    }
  }
  if (!why) return;
  bool failed_matches = true;
  if (next_ && request_failed(next_->cr)) {
    try {
      failed_matches = policies::request_matches_spec(next_->cr, crt_.spec).empty();
    } catch (const pki::PkiError&) {
      failed_matches = false;
    }
  }
  if (auto retry = issuance_retry_time(status_, failed_matches, now_)) {
    awaiting_retry_ = true;
    wake_at(*retry);
    ctx_.log.debug("backing off before re-issuing", {{"until", meta::format_rfc3339(*retry)}, {"reason", why->reason}});
    return;
  }
  set_condition(status_.conditions, cond::kIssuing, "True", why->reason, why->message, generation_, now_);
  issuing_ = true;
  event("Normal", event_reason::kIssuing, why->message);
  ctx_.log.info("issuing certificate", {{"reason", why->reason}, {"message", why->message}});
}

// Step 3: the key and the request of the next revision.
void Pass::issue_next_revision() {
  if (!issuing_) {
    if (!awaiting_retry_) status_.next_private_key_secret_name.reset();
    return;
  }
  const std::int64_t next_revision = revision_ + 1;
  const std::string key_name = next_key_secret_name(name_, next_revision);
  status_.next_private_key_secret_name = key_name;
  auto key = ensure_next_private_key(env_, crt_, obj_, target_ ? &*target_ : nullptr, key_name, ctx_.log);
  if (!key) return;
  issue_temporary_certificate(*key);
  if (next_) {
    if (request_issued(next_->cr) || request_failed(next_->cr)) return;  // handled by step 1 next time
    std::string why;
    try {
      auto csr = pki::CertificateRequest::parse(next_->cr.spec.request);
      if (!key->matches(csr.public_key())) {
        why = "its CSR is not signed by the next private key";
      } else if (auto v = policies::request_matches_spec(next_->cr, crt_.spec); !v.empty()) {
        why = "Fields on existing CertificateRequest resource not up to date: [" + join(v, " ") + "]";
      }
    } catch (const pki::PkiError& e) {
      why = std::string("its CSR does not parse: ") + e.what();
    }
    if (why.empty()) return;  // pending with the issuer
    remove_request(*next_, why);
    next_ = nullptr;
  }
  json::Value cr = desired_request(crt_, obj_, next_revision, key_name, build_csr(crt_.spec, *key));
  std::string cr_name(meta::name_of(cr));
  try {
    env_.client.create(kCertificateRequestType.gvr, ns_, cr);
  } catch (const client::ApiError& e) {
    if (client::is_already_exists(e)) return;  // made before; its events bring us back
    throw;
  }
  event("Normal", event_reason::kRequested, "Created new CertificateRequest resource \"" + cr_name + "\"");
  ctx_.log.info("requested certificate", {{"request", cr_name}, {"revision", next_revision}});
}

// Step 4: labels and annotations of an up-to-date Secret.
void Pass::reapply_metadata() {
  if (issuing_ || !target_) return;
  auto in = input();
  if (policies::evaluate(policies::trigger_chain(), in)) return;
  auto drift = policies::secret_metadata_mismatch(in);
  IssuedData data{target_->get(kTlsCrt), target_->get(kCaCrt), target_->get(kTlsKey), {}};
  add_keystores(data, &*target_);
  std::string why = drift ? drift->reason : "";
  if (auto store = keystore_mismatch(data.keystores, target_->data); store && why.empty())
    why = std::string(reason::kKeystoresMismatch) + " (" + *store + ")";
  if (why.empty()) return;
  json::Value applied = env_.client.apply(kSecretType.gvr, ns_, desired_secret(crt_, data, target_->type), kFieldManager, true);
  target_ = SecretView::from_json(applied);
  ctx_.log.info("re-applied the Secret's metadata", {{"secret", crt_.spec.secret_name}, {"reason", why}});
}

// spec.keystores for `data`, reusing the stores of `existing` that still hold the same content.
// An unreadable password is an Event on the Certificate and an error (retried with backoff).
void Pass::add_keystores(IssuedData& data, const SecretView* existing) {
  KeystorePasswords passwords;
  try {
    passwords = keystore_passwords(crt_.spec, ns_, env_.secret_reader);
  } catch (const KeystoreError& e) {
    event("Warning", event_reason::kKeystorePasswordError, e.what());
    throw;
  }
  data.keystores = keystore_outputs(crt_.spec, passwords, {data.private_key_pem, data.certificate_pem, data.ca_pem},
                                    existing ? &existing->data : nullptr);
}

// Step 5: Ready and the validity times.
void Pass::readiness() {
  Readiness r = compute_readiness(input());
  set_condition(status_.conditions, cond::kReady, r.status, r.reason, r.message, generation_, now_);
  status_.not_before = r.not_before;
  status_.not_after = r.not_after;
  status_.renewal_time = r.renewal_time;
  if (!issuing_ && r.renewal_time) wake_at(*r.renewal_time);
}

bool Pass::write_status() {
  if (json::serialize(status_.to_json()) == json::serialize(crt_.status.to_json())) return true;
  json::Value update = obj_;
  update.get_object()["status"] = status_.to_json();
  try {
    env_.client.update_status(kCertificateType.gvr, ns_, update);
  } catch (const client::ApiError& e) {
    if (client::is_conflict(e)) {
      ctx_.log.debug("status write raced a newer version; requeueing");
      return false;
    }
    if (client::is_not_found(e)) return false;
    throw;
  }
  return true;
}

// Step 7: temporary keys nobody refers to, and old revisions.
void Pass::cleanup() {
  std::string uid(meta::uid_of(obj_));
  const std::string keep = status_.next_private_key_secret_name.value_or("");
  for (const auto& o : env_.secrets.store().by_index(cache::kOwnerIndex, uid)) {
    if (o->controller_uid() != uid || o->label(kNextPrivateKeyLabel) != "true" || o->name() == keep) continue;
    client::DeleteOptions d;
    d.ignore_not_found = true;
    d.precondition_uid = std::string(o->uid());
    try {
      env_.client.remove(kSecretType.gvr, ns_, o->name(), d);
      ctx_.log.debug("deleted unreferenced private key Secret", {{"secret", o->name()}});
    } catch (const client::ApiError& e) {
      if (!client::is_conflict(e)) throw;
    }
  }
  std::vector<json::Value> objs;
  for (const auto& r : requests_) objs.push_back(r.obj);
  for (const auto& name : requests_to_prune(objs, revision_, v1::effective_revision_history_limit(crt_.spec))) {
    for (const auto& r : requests_)
      if (meta::name_of(r.obj) == name) remove_request(r, "beyond revisionHistoryLimit");
  }
}

Result Pass::run() {
  load();
  finish_next_request();
  trigger();
  issue_next_revision();
  reapply_metadata();
  readiness();
  if (!write_status()) return Result::again();
  cleanup();
  if (!wake_) return Result::done();
  auto delay = std::chrono::duration_cast<std::chrono::milliseconds>(*wake_ - now_);
  delay = std::clamp(delay, std::chrono::milliseconds(100), env_.options.max_requeue_delay);
  return Result::after(delay);
}

}  // namespace

controller::Result reconcile_certificate(Env& env, const controller::Request& req, controller::Context& ctx) {
  auto cached = env.certificates.get(req.ns, req.name);
  if (!cached || cached->deleting()) return Result::done();
  json::Value obj = cached->value();
  v1::Certificate crt;
  try {
    crt = v1::Certificate::from_json(obj);
    // Values the webhook would have rejected (an object written around it).
    (void)v1::effective_key_algorithm(crt.spec);
    (void)v1::effective_key_encoding(crt.spec);
    (void)v1::effective_rotation_policy(crt.spec);
    if (!crt.spec.literal_subject.empty()) {
      try {
        (void)pki::parse_distinguished_name(crt.spec.literal_subject);
      } catch (const pki::PkiError& e) {
        throw std::runtime_error(std::string("spec.literalSubject: ") + e.what());
      }
    }
    if (signature_for(crt.spec).key != v1::effective_key_algorithm(crt.spec))
      throw std::runtime_error("spec.signatureAlgorithm " + crt.spec.signature_algorithm + " does not suit the key algorithm " +
                               std::string(pki::algorithm_name(v1::effective_key_algorithm(crt.spec))));
  } catch (const std::exception& e) {
    throw controller::TerminalError("Certificate " + req.key() + " cannot be processed: " + e.what());
  }
  if (crt.spec.secret_name.empty()) throw controller::TerminalError("Certificate " + req.key() + " has no spec.secretName");
  Pass pass(env, ctx, std::move(obj), std::move(crt));
  return pass.run();
}

}  // namespace capstan::certificates
