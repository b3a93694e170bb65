// The tarball of a GitRepository's artifact, as Flux's source-controller serves one: a gzip'd tar
// of the artifact's files. Deterministic: the same files give the same bytes (paths in order,
// mode 0644, owner 0, time 0, the tar fed to zlib in fixed-size pieces), so the digest recorded in
// status.artifact.digest is the SHA-256 of what a download receives. Made on demand from the Git
// mirrors, streamed, never written to disk.
#pragma once

#include "controllers/gitops/artifact_cache.h"
#include "controllers/gitops/git/mirrors.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::gitops {

// The artifact's files may hold at most this many bytes in all to be archived (Flux keeps no
// bound; a repository this large is better split).
inline constexpr std::uint64_t kMaxArchiveInput = std::uint64_t{256} << 20;

struct ArchiveSummary {
  std::string digest;  // "sha256:<hex>" of the .tar.gz
  std::uint64_t size = 0;  // bytes of the .tar.gz
};

// Receives the .tar.gz in pieces; returns false to stop (the reader went away).
using ArchiveSink = std::function<bool(std::string_view)>;

// Writes the .tar.gz of `listing` (blobs read from `mirrors` a batch at a time) to `sink` (none:
// only the summary is made); nullopt when the sink stopped it. Throws std::runtime_error naming the
// file on a blob that cannot be read, or the total over kMaxArchiveInput.
std::optional<ArchiveSummary> write_artifact_archive(const git::Mirrors& mirrors, const ArtifactListing& listing,
                                                     const ArchiveSink& sink = {});

// The tar header blocks of one regular file (ustar; a PAX header first when the path does not fit
// ustar's name and prefix fields). Exposed for the tests.
std::string tar_file_header(const std::string& path, std::uint64_t size);

}  // namespace capstan::gitops
