#include "runtime/webhook/cert_rotator.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/log/log.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/gvk.h"
#include "runtime/meta/object.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/verify.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

namespace capstan::webhook {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::system_clock;

const meta::GroupVersionResource kSecrets{"", "v1", "secrets"};
const meta::GroupVersionResource kValidating{"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations"};
const meta::GroupVersionResource kMutating{"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations"};
const meta::GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
constexpr int kAttempts = 5;

// Past two thirds of its life (cert-manager's default renewBefore for a certificate).
bool due(const pki::Certificate& c) {
  auto life = c.not_after() - c.not_before();
  return Clock::now() >= c.not_after() - life / 3;
}

// Valid from a little before now (peers with slightly slow clocks; at most a sixth of the
// life, so short test lifetimes stay meaningful) until `validity` from now.
void validity_from_now(pki::CertificateTemplate& t, std::chrono::seconds validity) {
  auto now = Clock::now();
  t.not_before = now - std::min<std::chrono::seconds>(pki::kInfrastructureBackdate, validity / 6);
  t.not_after = now + validity;
}

pki::Certificate make_ca(const std::string& name, std::chrono::seconds validity, const pki::PrivateKey& key) {
  pki::CertificateTemplate t;
  t.subject.common_name = name;
  t.is_ca = true;
  validity_from_now(t, validity);
  return pki::sign(t, key.public_key(), nullptr, key);
}

// A serving certificate for `hosts` (DNS names and IP addresses), at most as long as the CA.
std::pair<pki::Certificate, pki::PrivateKey> make_serving(const std::vector<std::string>& hosts, const pki::Certificate& ca,
                                                          const pki::PrivateKey& ca_key, std::chrono::seconds validity) {
  pki::CertificateTemplate t;
  t.subject.common_name = hosts.front();
  for (const auto& h : hosts) (pki::is_ip_address(h) ? t.ip_addresses : t.dns_names).push_back(h);
  t.usages = {"digital signature", "key encipherment", "server auth"};
  validity_from_now(t, validity);
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto cert = pki::sign(t, key.public_key(), &ca, ca_key);
  return {std::move(cert), std::move(key)};
}

std::string data_of(const json::Value& secret, std::string_view key) {
  auto decoded = meta::base64_decode(json::get_string(secret, {"data", key}));
  return decoded ? *decoded : std::string();
}

// What the Secret holds, when it is usable as it is for `hosts`: nullopt says why not in `why`.
struct Material {
  std::vector<pki::Certificate> cas;  // ca.crt: the signing CA first, then older ones
  pki::PrivateKey ca_key;
  std::string cert_pem, key_pem;
};

std::optional<Material> usable(const json::Value& secret, const std::vector<std::string>& hosts, std::string& why) {
  try {
    Material m;
    m.cas = pki::Certificate::parse_chain(data_of(secret, "ca.crt"));
    m.ca_key = pki::PrivateKey::from_pem(data_of(secret, "ca.key"));
    m.cert_pem = data_of(secret, "tls.crt");
    m.key_pem = data_of(secret, "tls.key");
    auto cert = pki::Certificate::parse_pem(m.cert_pem);
    auto key = pki::PrivateKey::from_pem(m.key_pem);
    if (m.cas.front().public_key_der() != m.ca_key.public_key_der()) why = "ca.key does not match ca.crt";
    else if (cert.public_key_der() != key.public_key_der()) why = "tls.key does not match tls.crt";
    else if (!cert.signed_by(m.cas.front())) why = "tls.crt is not signed by the CA";
    else if (due(m.cas.front())) why = "the CA is due for renewal";
    else if (due(cert)) why = "the serving certificate is due for renewal";
    for (const auto& h : hosts) {
      if (!why.empty()) break;
      const auto& names = pki::is_ip_address(h) ? cert.ip_addresses() : cert.dns_names();
      if (std::find(names.begin(), names.end(), h) == names.end()) why = "the serving certificate does not name " + h;
    }
    if (why.empty()) return m;
  } catch (const std::exception& e) {
    why = std::string("unreadable: ") + e.what();
  }
  return std::nullopt;
}

// The Secret's serving certificate and key when they still serve `hosts` (unexpired, matching).
std::optional<std::pair<std::string, std::string>> still_serving(const json::Value& secret, const std::vector<std::string>& hosts) {
  try {
    std::string cert_pem = data_of(secret, "tls.crt"), key_pem = data_of(secret, "tls.key");
    auto cert = pki::Certificate::parse_pem(cert_pem);
    if (cert.public_key_der() != pki::PrivateKey::from_pem(key_pem).public_key_der()) return std::nullopt;
    if (cert.not_after() <= Clock::now() + std::chrono::seconds(5)) return std::nullopt;
    for (const auto& h : hosts) {
      const auto& names = pki::is_ip_address(h) ? cert.ip_addresses() : cert.dns_names();
      if (std::find(names.begin(), names.end(), h) == names.end()) return std::nullopt;
    }
    return std::make_pair(cert_pem, key_pem);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// New material: a serving certificate from the existing CA when it is still good, else a new
// CA, keeping unexpired older CAs in the bundle. A new CA first only joins the bundle: the
// serving certificate of the old one stays while it serves, so clients learn the new CA
// (injection) before any certificate it signed is served; the next check replaces it.
Material renew(const json::Value* secret, const CertRotatorOptions& o) {
  Material m;
  std::vector<pki::Certificate> old;
  if (secret) {
    try {
      old = pki::Certificate::parse_chain(data_of(*secret, "ca.crt"));
      auto key = pki::PrivateKey::from_pem(data_of(*secret, "ca.key"));
      if (!old.empty() && !due(old.front()) && old.front().public_key_der() == key.public_key_der()) m.ca_key = std::move(key);
    } catch (const std::exception&) {
      old.clear();
    }
  }
  const bool new_ca = m.ca_key.empty();
  if (new_ca) {
    // A new CA (none yet, or the old one is due).
    m.ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
    m.cas.push_back(make_ca(o.secret_name + "-ca", o.ca_validity, m.ca_key));
  }
  for (auto& c : old)
    if (c.not_after() > Clock::now() && (m.cas.empty() || c.fingerprint_sha256() != m.cas.front().fingerprint_sha256()))
      m.cas.push_back(std::move(c));
  if (new_ca && secret && m.cas.size() > 1)
    if (auto kept = still_serving(*secret, o.hosts); kept && pki::Certificate::parse_pem(kept->first).signed_by(m.cas[1])) {
      m.cert_pem = kept->first;
      m.key_pem = kept->second;
      return m;
    }
  auto [cert, key] = make_serving(o.hosts, m.cas.front(), m.ca_key, o.cert_validity);
  m.cert_pem = cert.to_pem();
  m.key_pem = key.to_pem(pki::KeyEncoding::PKCS8);
  return m;
}

json::Value secret_object(const Material& m, const CertRotatorOptions& o) {
  json::Object data{{"ca.crt", meta::base64_encode(pki::to_pem(m.cas))},
                    {"ca.key", meta::base64_encode(m.ca_key.to_pem(pki::KeyEncoding::PKCS8))},
                    {"tls.crt", meta::base64_encode(m.cert_pem)},
                    {"tls.key", meta::base64_encode(m.key_pem)}};
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", json::Object{{"name", o.secret_name},
                                                {"namespace", o.ns},
                                                {"labels", json::Object{{"app.kubernetes.io/managed-by", "capstan"}}}}},
                      {"type", "kubernetes.io/tls"},
                      {"data", std::move(data)}};
}

void write_if_changed(const fs::path& path, const std::string& text) {
  std::ifstream in(path, std::ios::binary);
  std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in && current == text) return;
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("writing " + tmp.string());
  }
  fs::permissions(tmp, fs::perms::owner_read | fs::perms::owner_write);
  fs::rename(tmp, path);  // the server never reads half a file
}

}  // namespace

CertRotator::CertRotator(client::Client& client, CertRotatorOptions options) : client_(client), opts_(std::move(options)) {
  if (opts_.ns.empty() || opts_.secret_name.empty()) throw std::invalid_argument("webhook certificate: no Secret namespace or name");
  if (opts_.hosts.empty()) throw std::invalid_argument("webhook certificate: no hosts");
  if (opts_.cert_dir.empty()) throw std::invalid_argument("webhook certificate: no certificate directory");
}

CertRotator::~CertRotator() { stop(); }

std::string CertRotator::ca_bundle() const {
  std::lock_guard lock(mu_);
  return ca_bundle_;
}

void CertRotator::write_files(const std::string& cert_pem, const std::string& key_pem) {
  fs::create_directories(opts_.cert_dir);
  write_if_changed(fs::path(opts_.cert_dir) / "tls.key", key_pem);
  write_if_changed(fs::path(opts_.cert_dir) / "tls.crt", cert_pem);
}

void CertRotator::ensure() {
  const std::string what = "webhook certificate Secret " + opts_.ns + "/" + opts_.secret_name;
  for (int attempt = 1;; ++attempt) {
    try {
      std::optional<json::Value> live;
      try {
        live = client_.get(kSecrets, opts_.ns, opts_.secret_name);
      } catch (const client::ApiError& e) {
        if (!client::is_not_found(e)) throw;
      }
      std::string why;
      std::optional<Material> m = live ? usable(*live, opts_.hosts, why) : std::nullopt;
      if (!m) {
        m = renew(live ? &*live : nullptr, opts_);
        json::Value obj = secret_object(*m, opts_);
        if (live) {
          obj.as_object()["metadata"].as_object()["resourceVersion"] = meta::resource_version_of(*live);
          client_.update(kSecrets, opts_.ns, obj);
          log::info("renewed the webhook serving certificate", {{"secret", opts_.ns + "/" + opts_.secret_name}, {"reason", why}});
        } else {
          client_.create(kSecrets, opts_.ns, obj);
          log::info("created the webhook serving certificate", {{"secret", opts_.ns + "/" + opts_.secret_name}});
        }
      }
      write_files(m->cert_pem, m->key_pem);
      std::lock_guard lock(mu_);
      ca_bundle_ = pki::to_pem(m->cas);
      return;
    } catch (const client::ApiError& e) {
      // Another replica wrote it first: read what it wrote.
      if ((client::is_conflict(e) || client::is_already_exists(e)) && attempt < kAttempts) continue;
      throw std::runtime_error(what + ": " + e.what());
    }
  }
}

std::string CertRotator::bundle_of(const std::string& ref) {
  auto slash = ref.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size()) {
    log::warn("bad CA injection annotation: want <namespace>/<name> of a Secret",
              {{"annotation", std::string(kInjectCaFromSecretAnnotation)}, {"value", ref}});
    return "";
  }
  if (ref == opts_.ns + "/" + opts_.secret_name) return ca_bundle();
  try {
    auto secret = client_.get(kSecrets, ref.substr(0, slash), ref.substr(slash + 1));
    std::string ca = data_of(secret, "ca.crt");
    if (ca.empty()) log::warn("the Secret named for CA injection has no ca.crt", {{"secret", ref}});
    return ca;
  } catch (const std::exception& e) {
    log::warn("cannot read the Secret named for CA injection", {{"secret", ref}, {"error", e.what()}});
    return "";
  }
}

int CertRotator::inject() {
  int patched = 0;
  auto each = [&](const meta::GroupVersionResource& gvr, std::string_view selector, auto&& ops_for) {
    client::ObjectList list;
    try {
      client::ListOptions lo;
      lo.label_selector = std::string(selector);
      list = client_.list_all(gvr, "", lo);
    } catch (const std::exception& e) {
      log::warn("cannot list objects for CA injection", {{"resource", gvr.group_resource()}, {"error", e.what()}});
      return;
    }
    for (const auto& obj : list.items) {
      std::string ref(meta::annotation(obj, kInjectCaFromSecretAnnotation));
      if (ref.empty()) continue;
      std::string pem = bundle_of(ref);
      if (pem.empty()) continue;
      json::Array ops = ops_for(obj, meta::base64_encode(pem));
      if (ops.empty()) continue;
      try {
        client_.patch(gvr, "", meta::name_of(obj), client::PatchType::Json, json::Value(std::move(ops)));
        ++patched;
        log::info("injected the CA bundle", {{"resource", gvr.group_resource()}, {"name", meta::name_of(obj)}, {"from", ref}});
      } catch (const std::exception& e) {
        log::warn("cannot inject the CA bundle",
                  {{"resource", gvr.group_resource()}, {"name", meta::name_of(obj)}, {"error", e.what()}});
      }
    }
  };
  auto webhooks = [](const json::Value& obj, const std::string& b64) {
    json::Array ops;
    const auto* hooks = json::get_array(obj, {"webhooks"});
    for (std::size_t i = 0; hooks && i < hooks->size(); ++i) {
      const auto& h = (*hooks)[i];
      if (json::get_string(h, {"clientConfig", "caBundle"}) == b64) continue;
      std::string at = "/webhooks/" + std::to_string(i);
      // The test keeps a concurrent reorder from getting another webhook's bundle.
      ops.push_back(json::Object{{"op", "test"}, {"path", at + "/name"}, {"value", json::get_string(h, {"name"})}});
      ops.push_back(json::Object{{"op", "add"}, {"path", at + "/clientConfig/caBundle"}, {"value", b64}});
    }
    return ops;
  };
  each(kValidating, "", webhooks);
  each(kMutating, "", webhooks);
  each(kCrds, kInjectCaLabelSelector, [](const json::Value& obj, const std::string& b64) {
    json::Array ops;
    if (json::get_string(obj, {"spec", "conversion", "strategy"}) != "Webhook" ||
        !json::find(obj, {"spec", "conversion", "webhook", "clientConfig"}))
      return ops;
    if (json::get_string(obj, {"spec", "conversion", "webhook", "clientConfig", "caBundle"}) != b64)
      ops.push_back(json::Object{{"op", "add"}, {"path", "/spec/conversion/webhook/clientConfig/caBundle"}, {"value", b64}});
    return ops;
  });
  return patched;
}

void CertRotator::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void CertRotator::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CertRotator::loop() {
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (wake_.wait_for(lock, opts_.check_interval, [this] { return stopping_; })) return;
    }
    try {
      ensure();
    } catch (const std::exception& e) {
      log::error("webhook certificate check failed", {{"error", e.what()}});
    }
    inject();
  }
}

}  // namespace capstan::webhook
