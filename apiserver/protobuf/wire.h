// A reader for the protobuf wire format: tags, varints, fixed-width numbers and length-delimited
// payloads, with bounds checks that report absolute byte offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::apiserver::protobuf {

enum class WireType : std::uint8_t {
  Varint = 0,
  Fixed64 = 1,
  LengthDelimited = 2,
  StartGroup = 3,
  EndGroup = 4,
  Fixed32 = 5,
};

// "varint", "fixed64", "length-delimited", "start-group", "end-group", "fixed32".
std::string_view wire_type_name(WireType type);

// A malformed wire encoding (truncation, overlong varint, bad tag). The decoder adds the message
// and field path before reporting it as a DecodeError.
class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Tag {
  std::uint32_t field = 0;
  WireType wire = WireType::Varint;
  std::size_t offset = 0;  // absolute offset of the tag's first byte
};

class WireReader {
 public:
  // `base` is the absolute offset of data[0] in the whole body, used in error messages.
  explicit WireReader(std::string_view data, std::size_t base = 0) : data_(data), base_(base) {}

  bool done() const { return pos_ >= data_.size(); }
  // Absolute offset of the next unread byte.
  std::size_t offset() const { return base_ + pos_; }

  // Reads a field tag; rejects field number 0, numbers above 2^29-1 and wire types 6 and 7.
  Tag read_tag();
  std::uint64_t read_varint();
  std::uint64_t read_fixed64();
  std::uint32_t read_fixed32();
  // A length-delimited payload; `payload_offset` receives its absolute start offset.
  std::string_view read_length_delimited(std::size_t* payload_offset = nullptr);
  // Skips a value of the given wire type (groups are rejected: Kubernetes never uses them).
  void skip(WireType type);

 private:
  [[noreturn]] void truncated(std::string_view what, std::uint64_t need) const;

  std::string_view data_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

}  // namespace capstan::apiserver::protobuf
