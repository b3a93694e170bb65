#include "controllers/monitoring/gzip.h"

#include <zlib.h>

#include <stdexcept>

namespace capstan::monitoring {

std::string gzip(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: a gzip wrapper with a zeroed header (no name, no time).
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate failed");
  out.resize(z.total_out);
  return out;
}

std::string gunzip(std::string_view data) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::runtime_error("gunzip: inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("gunzip: not gzip data, or truncated");
  return out;
}

}  // namespace capstan::monitoring
