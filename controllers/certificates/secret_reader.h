// Reading Secrets without caching every Secret of the cluster: ours (labelled
// controller.certs.capstan.dev/fao=true) come from the narrowed informer; any other Secret
// the controllers need (a CA key pair the user made, an ACME account key) is read live and
// kept for a short TTL. Thread-safe.
#pragma once

#include "controllers/certificates/secret_view.h"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::certificates {

class SecretReader {
 public:
  SecretReader(client::Client& client, const cache::Informer* owned, std::chrono::milliseconds ttl);

  // Our cached Secret, else a live read (kept `ttl`); nullopt when the Secret does not exist.
  // Throws client::ApiError / http::TransportError for other failures.
  std::optional<SecretView> get(std::string_view ns, std::string_view name);
  // Only the informer's copy (nullopt when absent or not ours).
  std::optional<SecretView> cached(std::string_view ns, std::string_view name) const;
  // Always a live read (refreshing the TTL copy).
  std::optional<SecretView> live(std::string_view ns, std::string_view name);
  // Drops the TTL copy (after writing the Secret).
  void forget(std::string_view ns, std::string_view name);
  std::uint64_t live_reads() const;

 private:
  struct Entry {
    SecretView secret;
    std::chrono::steady_clock::time_point expires;
  };
  client::Client& client_;
  const cache::Informer* owned_;
  std::chrono::milliseconds ttl_;
  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> live_;
  std::uint64_t live_reads_ = 0;
};

}  // namespace capstan::certificates
