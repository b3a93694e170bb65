#include "controllers/gitops/artifact_archive.h"

#include "runtime/gzip/gzip.h"
#include "runtime/pki/digest.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace capstan::gitops {
namespace {

constexpr std::size_t kBlock = 512;
constexpr std::size_t kBatchBytes = std::size_t{8} << 20;  // blob content held at once
constexpr std::size_t kBatchFiles = 512;

void put_octal(char* field, std::size_t width, std::uint64_t value) {
  // width - 1 digits, zero-padded, then NUL.
  for (std::size_t i = width - 1; i-- > 0;) {
    field[i] = static_cast<char>('0' + (value & 7));
    value >>= 3;
  }
  field[width - 1] = '\0';
}

std::string header_block(std::string_view name, std::string_view prefix, std::uint64_t size, char type) {
  std::string h(kBlock, '\0');
  char* b = h.data();
  std::memcpy(b, name.data(), std::min<std::size_t>(name.size(), 100));
  put_octal(b + 100, 8, 0644);
  put_octal(b + 108, 8, 0);
  put_octal(b + 116, 8, 0);
  put_octal(b + 124, 12, size);
  put_octal(b + 136, 12, 0);
  b[156] = type;
  std::memcpy(b + 257, "ustar", 6);
  std::memcpy(b + 263, "00", 2);
  std::memcpy(b + 345, prefix.data(), std::min<std::size_t>(prefix.size(), 155));
  std::memset(b + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  put_octal(b + 148, 7, sum);  // six digits, NUL, and the space left from above
  return h;
}

void pad(std::string& out, std::uint64_t size) {
  if (size % kBlock) out.append(kBlock - size % kBlock, '\0');
}

}  // namespace

std::string tar_file_header(const std::string& path, std::uint64_t size) {
  if (path.size() <= 100) return header_block(path, "", size, '0');
  // ustar: prefix (<= 155) '/' name (<= 100), split at a slash.
  for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    if (slash > 155) break;
    if (path.size() - slash - 1 <= 100 && slash > 0 && slash + 1 < path.size())
      return header_block(std::string_view(path).substr(slash + 1), std::string_view(path).substr(0, slash), size, '0');
  }
  // A PAX extended header with the whole path ("<length> path=<path>\n", the length counting
  // itself), then the ustar header with the path cut short.
  const std::string body = " path=" + path + "\n";
  std::size_t len = body.size() + 1;
  while (std::to_string(len).size() + body.size() != len) ++len;
  std::string record = std::to_string(len) + body;
  std::string out = header_block("PaxHeaders/" + path.substr(path.size() - 80), "", record.size(), 'x');
  out += record;
  pad(out, record.size());
  out += header_block(path.substr(path.size() - 100), "", size, '0');
  return out;
}

std::optional<ArchiveSummary> write_artifact_archive(const git::Mirrors& mirrors, const ArtifactListing& listing, const ArchiveSink& sink) {
  std::uint64_t total = 0;
  for (const auto& [path, entry] : listing) total += entry.size;
  if (total > kMaxArchiveInput)
    throw std::runtime_error("the artifact's files hold " + std::to_string(total) + " bytes, over the archive limit of " +
                             std::to_string(kMaxArchiveInput) + " bytes");
  pki::Sha256 sha;
  gzip::Writer gz([&](std::string_view piece) {
    sha.update(piece);
    return !sink || sink(piece);
  });
  std::string chunk;
  for (auto it = listing.begin(); it != listing.end();) {
    // A batch: consecutive files of one mirror, bounded in count and bytes.
    auto end = it;
    std::vector<std::string> oids;
    std::size_t bytes = 0;
    while (end != listing.end() && end->second.url == it->second.url && oids.size() < kBatchFiles &&
           (oids.empty() || bytes + end->second.size <= kBatchBytes)) {
      oids.push_back(end->second.oid);
      bytes += end->second.size;
      ++end;
    }
    std::vector<std::string> contents;
    try {
      contents = mirrors.read_blobs(it->second.url, oids);
    } catch (const std::exception& e) {
      throw std::runtime_error("archiving " + it->first + " and the " + std::to_string(oids.size() - 1) + " files after it: " + e.what());
    }
    std::size_t i = 0;
    for (; it != end; ++it, ++i) {
      const std::string& content = contents[i];
      chunk = tar_file_header(it->first, content.size());
      if (!gz.write(chunk) || !gz.write(content)) return std::nullopt;
      chunk.clear();
      pad(chunk, content.size());
      if (!gz.write(chunk)) return std::nullopt;
    }
  }
  if (!gz.write(std::string(2 * kBlock, '\0'))) return std::nullopt;  // the end of the archive
  if (!gz.finish()) return std::nullopt;
  return ArchiveSummary{"sha256:" + sha.hex(), gz.bytes_out()};
}

}  // namespace capstan::gitops
