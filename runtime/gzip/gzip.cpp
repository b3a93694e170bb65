#include "runtime/gzip/gzip.h"

#include <algorithm>
#include <stdexcept>

namespace capstan::gzip {
namespace {

constexpr std::size_t kPiece = 64 * 1024;
// windowBits 15 + 16: a gzip wrapper with a zeroed header (no name, no time).
constexpr int kGzipWindow = 15 + 16;

}  // namespace

std::string compress(std::string_view data, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("gzip: deflateInit2 failed");
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

std::string decompress(std::string_view data) {
  z_stream z{};
  if (inflateInit2(&z, kGzipWindow) != Z_OK) throw std::runtime_error("gunzip: inflateInit2 failed");
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

Writer::Writer(std::function<bool(std::string_view)> sink, int level) : sink_(std::move(sink)) {
  if (deflateInit2(&z_, level, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("gzip: deflateInit2 failed");
  out_.resize(kPiece);
  pending_.reserve(kPiece);
}

Writer::~Writer() { deflateEnd(&z_); }

bool Writer::write(std::string_view data) {
  while (!data.empty()) {
    const std::size_t n = std::min(kPiece - pending_.size(), data.size());
    pending_.append(data.substr(0, n));
    data.remove_prefix(n);
    if (pending_.size() == kPiece && !deflate_pending(Z_NO_FLUSH)) return false;
  }
  return true;
}

bool Writer::finish() { return deflate_pending(Z_FINISH); }

bool Writer::deflate_pending(int flush) {
  z_.next_in = reinterpret_cast<Bytef*>(pending_.data());
  z_.avail_in = static_cast<uInt>(pending_.size());
  int rc;
  do {
    z_.next_out = reinterpret_cast<Bytef*>(out_.data());
    z_.avail_out = static_cast<uInt>(out_.size());
    rc = deflate(&z_, flush);
    if (rc == Z_STREAM_ERROR) throw std::runtime_error("gzip: deflate failed");
    const std::string_view produced(out_.data(), out_.size() - z_.avail_out);
    if (!produced.empty()) {
      bytes_out_ += produced.size();
      if (sink_ && !sink_(produced)) return false;
    }
  } while (z_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  pending_.clear();
  return true;
}

}  // namespace capstan::gzip
