#include "controllers/kafka/storage.h"

#include <algorithm>

namespace capstan::kafka {

namespace v1 = apis::kafka::v1;

std::string DataVolume::name() const { return id ? "data-" + std::to_string(*id) : "data"; }

std::string DataVolume::mount_path() const { return "/var/lib/kafka/" + name(); }

std::string DataVolume::claim_name(std::string_view pod) const { return name() + "-" + std::string(pod); }

std::string DataVolume::log_dir(std::int32_t node_id) const { return mount_path() + "/kafka-log" + std::to_string(node_id); }

std::vector<DataVolume> data_volumes(const v1::Storage& storage) {
  if (storage.type != "jbod") return {DataVolume{std::nullopt, storage, true, "spec.storage"}};
  std::vector<DataVolume> out;
  for (std::size_t i = 0; i < storage.volumes.size(); ++i) {
    const auto& v = storage.volumes[i];
    out.push_back({v.id.value_or(0), v, !v.kraft_metadata.empty(), "spec.storage.volumes[" + std::to_string(i) + "]"});
  }
  std::sort(out.begin(), out.end(), [](const DataVolume& a, const DataVolume& b) { return a.id < b.id; });
  if (!out.empty() && std::none_of(out.begin(), out.end(), [](const DataVolume& v) { return v.kraft_metadata; }))
    out.front().kraft_metadata = true;
  return out;
}

std::string log_dirs_config(const std::vector<DataVolume>& volumes, std::int32_t node_id) {
  std::string dirs, metadata;
  for (const auto& v : volumes) {
    dirs += (dirs.empty() ? "" : ",") + v.log_dir(node_id);
    if (v.kraft_metadata && metadata.empty()) metadata = v.log_dir(node_id);
  }
  return "log.dirs=" + dirs + "\nmetadata.log.dir=" + metadata + "\n";
}

}  // namespace capstan::kafka
