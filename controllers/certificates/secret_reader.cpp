#include "controllers/certificates/secret_reader.h"

#include "controllers/certificates/constants.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"

namespace capstan::certificates {
namespace {

std::string key_of(std::string_view ns, std::string_view name) { return std::string(ns) + "/" + std::string(name); }

}  // namespace

SecretReader::SecretReader(client::Client& client, const cache::Informer* owned, std::chrono::milliseconds ttl)
    : client_(client), owned_(owned), ttl_(ttl) {}

std::optional<SecretView> SecretReader::cached(std::string_view ns, std::string_view name) const {
  if (!owned_) return std::nullopt;
  auto obj = owned_->get(ns, name);
  if (!obj) return std::nullopt;
  return SecretView::from_json(obj->value());
}

std::optional<SecretView> SecretReader::get(std::string_view ns, std::string_view name) {
  if (auto s = cached(ns, name)) return s;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = live_.find(key_of(ns, name));
    if (it != live_.end()) {
      if (it->second.expires > std::chrono::steady_clock::now()) return it->second.secret;
      live_.erase(it);
    }
  }
  return live(ns, name);
}

std::optional<SecretView> SecretReader::live(std::string_view ns, std::string_view name) {
  {
    std::lock_guard<std::mutex> l(mu_);
    ++live_reads_;
  }
  json::Value obj;
  try {
    obj = client_.get(kSecretType.gvr, ns, name);
  } catch (const client::ApiError& e) {
    if (client::is_not_found(e)) {
      forget(ns, name);
      return std::nullopt;
    }
    throw;
  }
  SecretView s = SecretView::from_json(obj);
  std::lock_guard<std::mutex> l(mu_);
  live_[key_of(ns, name)] = Entry{s, std::chrono::steady_clock::now() + ttl_};
  return s;
}

void SecretReader::forget(std::string_view ns, std::string_view name) {
  std::lock_guard<std::mutex> l(mu_);
  live_.erase(key_of(ns, name));
}

std::uint64_t SecretReader::live_reads() const {
  std::lock_guard<std::mutex> l(mu_);
  return live_reads_;
}

}  // namespace capstan::certificates
