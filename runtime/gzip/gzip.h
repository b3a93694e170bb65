// gzip (RFC 1952) with zlib. The header carries no name and no timestamp, so the same input
// always gives the same bytes: an unchanged generated Secret stays unchanged (prometheus-operator's
// prometheus.yaml.gz, far below the 1 MiB Secret limit), and a digest of a stream made twice is
// the same (the GitOps artifact tarballs).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace capstan::gzip {

// `data` compressed at `level` (zlib's 0-9) in one go.
std::string compress(std::string_view data, int level = Z_BEST_COMPRESSION);
// Throws std::runtime_error on data that is not gzip.
std::string decompress(std::string_view data);

// Compresses a stream given in pieces, handing the output to `sink` as it comes (at most 64 KiB at
// a time). Input is fed to zlib in fixed 64 KiB pieces whatever the callers' piece sizes, so the
// output depends on the bytes alone.
class Writer {
 public:
  // `sink` returns false to stop (the reader went away): write() and finish() then return false.
  Writer(std::function<bool(std::string_view)> sink, int level = Z_DEFAULT_COMPRESSION);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  bool write(std::string_view data);
  bool finish();  // the rest and the gzip trailer
  std::uint64_t bytes_out() const { return bytes_out_; }

 private:
  bool deflate_pending(int flush);

  std::function<bool(std::string_view)> sink_;
  z_stream z_{};
  std::string pending_, out_;
  std::uint64_t bytes_out_ = 0;
};

}  // namespace capstan::gzip
