#include "apiserver/protobuf/wire.h"

#include "apiserver/protobuf/test_writer.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::protobuf {
namespace {

using testing::Writer;

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const WireError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProtobufWire, Varints) {
  const auto data = bytes({0x00, 0x01, 0x7f, 0x80, 0x01, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0x0f});
  WireReader r(data);
  EXPECT_EQ(r.read_varint(), 0u);
  EXPECT_EQ(r.read_varint(), 1u);
  EXPECT_EQ(r.read_varint(), 127u);
  EXPECT_EQ(r.read_varint(), 128u);
  EXPECT_EQ(r.read_varint(), 300u);
  EXPECT_EQ(r.read_varint(), 0xffffffffu);
  EXPECT_TRUE(r.done());
}

TEST(ProtobufWire, NegativeInt32IsATenByteVarint) {
  Writer w;
  w.int64(1, -1);
  EXPECT_EQ(w.data().size(), 11u);  // tag + 10 bytes
  WireReader r(w.data());
  auto tag = r.read_tag();
  EXPECT_EQ(tag.field, 1u);
  EXPECT_EQ(tag.wire, WireType::Varint);
  const auto v = r.read_varint();
  EXPECT_EQ(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)), -1);
  EXPECT_EQ(static_cast<std::int64_t>(v), -1);
}

TEST(ProtobufWire, MaxUint64AndOverlongVarints) {
  const auto max = bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  EXPECT_EQ(WireReader(max).read_varint(), ~std::uint64_t{0});
  const auto too_big = bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  EXPECT_EQ(error_of([&] { WireReader(too_big, 7).read_varint(); }),
            "malformed varint at offset 7: more than 64 bits");
  const auto too_long = bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
  EXPECT_NE(error_of([&] { WireReader(too_long).read_varint(); }).find("malformed varint at offset 0"),
            std::string::npos);
  const auto cut = bytes({0x08, 0x80});
  WireReader r(cut, 100);
  r.read_tag();
  EXPECT_EQ(error_of([&] { r.read_varint(); }), "truncated varint at offset 101");
}

TEST(ProtobufWire, FixedWidthValuesAreLittleEndian) {
  Writer w;
  w.fixed64(1, 0x0102030405060708ull).fixed32(2, 0xa1b2c3d4u);
  WireReader r(w.data());
  EXPECT_EQ(r.read_tag().wire, WireType::Fixed64);
  EXPECT_EQ(r.read_fixed64(), 0x0102030405060708ull);
  EXPECT_EQ(r.read_tag().wire, WireType::Fixed32);
  EXPECT_EQ(r.read_fixed32(), 0xa1b2c3d4u);
  EXPECT_TRUE(r.done());
  const auto short64 = bytes({1, 2, 3});
  EXPECT_EQ(error_of([&] { WireReader(short64, 10).read_fixed64(); }),
            "truncated message at offset 10: fixed64 value needs 8 bytes, only 3 remain");
}

TEST(ProtobufWire, LengthDelimitedReportsTruncationWithOffsets) {
  Writer w;
  w.str(3, "hello");
  WireReader r(w.data(), 20);
  auto tag = r.read_tag();
  EXPECT_EQ(tag.field, 3u);
  EXPECT_EQ(tag.offset, 20u);
  std::size_t at = 0;
  EXPECT_EQ(r.read_length_delimited(&at), "hello");
  EXPECT_EQ(at, 22u);

  const auto cut = w.data().substr(0, 4);  // tag, length 5, "he"
  WireReader c(cut, 20);
  c.read_tag();
  EXPECT_EQ(error_of([&] { c.read_length_delimited(); }),
            "truncated message at offset 22: length-delimited field needs 5 bytes, only 2 remain");
}

TEST(ProtobufWire, TagsRejectFieldZeroAndInvalidWireTypes) {
  EXPECT_EQ(error_of([] { WireReader(bytes({0x02})).read_tag(); }), "invalid field number 0 at offset 0");
  EXPECT_EQ(error_of([] { WireReader(bytes({0x0e})).read_tag(); }), "invalid wire type 6 for field 1 at offset 0");
  EXPECT_EQ(error_of([] { WireReader(bytes({0x0f})).read_tag(); }), "invalid wire type 7 for field 1 at offset 0");
  Writer big;
  big.tag(536870911, 0);  // 2^29 - 1, the largest field number
  EXPECT_EQ(WireReader(big.data()).read_tag().field, 536870911u);
}

TEST(ProtobufWire, SkipsEveryWireTypeButGroups) {
  Writer w;
  w.varint(1, 300).fixed64(2, 7).str(3, "abc").fixed32(4, 9).varint(5, 1);
  WireReader r(w.data());
  for (int i = 0; i < 4; ++i) r.skip(r.read_tag().wire);
  EXPECT_EQ(r.read_tag().field, 5u);
  EXPECT_EQ(r.read_varint(), 1u);
  EXPECT_TRUE(r.done());

  Writer g;
  g.tag(1, 3);
  WireReader gr(g.data());
  const auto tag = gr.read_tag();
  EXPECT_EQ(tag.wire, WireType::StartGroup);
  EXPECT_NE(error_of([&] { gr.skip(tag.wire); }).find("unsupported wire type start-group"), std::string::npos);
}

TEST(ProtobufWire, WireTypeNames) {
  EXPECT_EQ(wire_type_name(WireType::Varint), "varint");
  EXPECT_EQ(wire_type_name(WireType::LengthDelimited), "length-delimited");
  EXPECT_EQ(wire_type_name(WireType::Fixed32), "fixed32");
}

}  // namespace
}  // namespace capstan::apiserver::protobuf
