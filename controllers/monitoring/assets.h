// The Secret and ConfigMap values scrape jobs reference (credentials, CAs, client certificates
// and keys), handed to Prometheus as files, as prometheus-operator does: the Secret
// prometheus-<name>-tls-assets-0 holds them, mounted at /etc/prometheus/certs, and the generated
// configuration names the files (password_file, credentials_file, ca_file...), never the values
// (but a basic-auth username and an OAuth2 client id, which Prometheus takes only inline).
// A file is named after where its value comes from: <secret|configmap>_<namespace>_<name>_<key>.
#pragma once

#include "apis/monitoring/v1/types.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::monitoring {

inline constexpr std::string_view kAssetsDir = "/etc/prometheus/certs";

struct AssetRef {
  bool secret = true;  // else a ConfigMap
  std::string ns, name, key;
  bool optional = false;

  std::string file() const;      // "secret_<ns>_<name>_<key>"
  std::string path() const;      // "/etc/prometheus/certs/" + file()
  std::string describe() const;  // "Secret <ns>/<name> key <key>"
};

AssetRef asset(std::string_view ns, const apis::monitoring::v1::SecretKeySelector& ref);
AssetRef asset(std::string_view ns, const apis::monitoring::v1::SecretOrConfigMap& ref);

// Every value an object's scrape jobs reference, in the object's namespace.
std::vector<AssetRef> asset_refs(const apis::monitoring::v1::ServiceMonitor& sm);
std::vector<AssetRef> asset_refs(const apis::monitoring::v1::PodMonitor& pm);
std::vector<AssetRef> asset_refs(const apis::monitoring::v1::Probe& probe);
std::vector<AssetRef> asset_refs(const apis::monitoring::v1::ScrapeConfig& sc);
// A receiver's Secrets (URLs, keys, passwords): read into the assembled configuration, not files.
std::vector<AssetRef> asset_refs(const apis::monitoring::v1::AlertmanagerConfig& config);

// The values read, by file name (what the assets Secret holds and the generator looks up).
using Assets = std::map<std::string, std::string>;

// Reads referenced values through the API server: Secrets are not cached by the manager (a
// cluster's Secrets would fill its memory), so each Secret or ConfigMap is fetched once per
// reader, that is once per reconcile.
class AssetReader {
 public:
  explicit AssetReader(client::Client& client) : client_(client) {}
  // The value; nullopt when an optional one is missing. Throws std::runtime_error naming the
  // reference when a required one is missing, or when a value is not decodable.
  std::optional<std::string> read(const AssetRef& ref);
  // Every object read so far, found or not: "secret/<ns>/<name>", "configmap/<ns>/<name>" (what
  // ReferencedObjects watches for this reader).
  std::vector<std::string> read_ids() const;

 private:
  client::Client& client_;
  std::map<std::string, std::optional<json::Value>> objects_;  // "secret/<ns>/<name>": nullopt = not found
};

// Reads every reference of `refs` into `assets`; throws as AssetReader::read.
void read_assets(AssetReader& reader, const std::vector<AssetRef>& refs, Assets& assets);

}  // namespace capstan::monitoring
