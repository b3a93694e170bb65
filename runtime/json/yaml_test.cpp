#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::json {
namespace {

TEST(Yaml, ScalarTypes) {
  Value v = from_yaml("a: 1\nb: true\nc: \"true\"\nd: null\ne: 1.5\nf: hello\ng: '7'\nh: ~\n");
  EXPECT_TRUE(v.at("a").is_int64());
  EXPECT_TRUE(v.at("b").is_bool());
  EXPECT_TRUE(v.at("c").is_string());
  EXPECT_TRUE(v.at("d").is_null());
  EXPECT_TRUE(v.at("e").is_double());
  EXPECT_EQ(v.at("f").as_string(), "hello");
  EXPECT_EQ(v.at("g").as_string(), "7");
  EXPECT_TRUE(v.at("h").is_null());
}

TEST(Yaml, MultipleDocuments) {
  auto docs = from_yaml_documents("a: 1\n---\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1].at("b").as_int64(), 2);
}

TEST(Yaml, RoundTripKeepsTypes) {
  Value v = parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","labels":{"n":"1","t":"true","e":""}},
    "data":{"multi":"line one\nline two\n","colon":"a: b","list":["- x","y"]},"empty":{},"arr":[],"nested":[[1,2],{"k":null}]})");
  std::string y = to_yaml(v);
  Value back = from_yaml(y);
  EXPECT_EQ(back, v) << y;
}

TEST(Yaml, KubectlShape) {
  Value v = parse(R"({"metadata":{"finalizers":["a","b"],"name":"x"}})");
  EXPECT_EQ(to_yaml(v), "metadata:\n  finalizers:\n  - a\n  - b\n  name: x\n");
}

TEST(Yaml, BadInputThrowsParseError) { EXPECT_THROW(from_yaml("a: [1, 2", "manifest.yaml"), ParseError); }

// A "billion laughs" of under 400 bytes: nine levels of nine aliases would be 387 million values.
TEST(Yaml, NestedAliasesAreRefusedBeforeTheyExpand) {
  std::string doc = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    doc += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
           ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  }
  try {
    from_yaml(doc, "Kustomization flux-system/apps: apps/bomb.yaml");
    FAIL() << "expanded";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("parsing Kustomization flux-system/apps: apps/bomb.yaml: it expands to more than 10000 values"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(from_yaml_documents(doc + "---\nk: v\n", "stream"), ParseError);
}

TEST(Yaml, ModestAliasUseStillReads) {
  auto v = from_yaml("base: &b {image: nginx, replicas: 2}\none: *b\ntwo: *b\n");
  EXPECT_EQ(json::get_string(v, {"two", "image"}), "nginx");
}

TEST(Yaml, DepthAndSizeAreBounded) {
  std::string deep(300, '[');
  deep += std::string(300, ']');
  EXPECT_THROW(from_yaml(deep, "deep"), ParseError);
  std::string nested;
  for (int i = 0; i < 200; ++i) nested += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
  EXPECT_NO_THROW(from_yaml(nested, "200 levels"));
  std::string big(kMaxYamlBytes + 1, '#');
  try {
    from_yaml(big, "big.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("big.yaml: 67108865 bytes is over the limit of 67108864"), std::string::npos) << e.what();
  }
}

// Found by runtime/json/fuzz/yaml_fuzz.cpp: `.inf` became a JSON infinity, which serialises as
// `Infinity`, text no JSON reader accepts (sigs.k8s.io/yaml refuses it too). Quoted, it is a
// string, and a string that looks like one is quoted when emitted.
TEST(Yaml, InfinityAndNanAreRefused) {
  for (const char* text : {"a: .inf\n", "a: [-.Inf]\n", "a: {b: .nan}\n"}) {
    EXPECT_THROW(from_yaml(text), ParseError) << text;
  }
  try {
    from_yaml_documents("a: 1\n---\nb: +.inf\n", "kustomization.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "parsing kustomization.yaml: +.inf is not a number JSON can represent");
  }
  Value v = from_yaml("a: '.inf'\nb: \".nan\"\n");
  EXPECT_EQ(v.at("a").as_string(), ".inf");
  EXPECT_EQ(from_yaml(to_yaml(v)), v);
  EXPECT_EQ(to_yaml(v).find("a: .inf"), std::string::npos);  // quoted
}

// Found by runtime/json/fuzz/yaml_fuzz.cpp: yaml-cpp's LoadAll loops forever on a ',' where a
// document should start. Refused with the place; a stream of empty documents still reads.
TEST(Yaml, StrayCommaDoesNotHangTheStream) {
  for (const char* text : {",apie", ",", "a: 1\n---\n, b\n"}) {
    EXPECT_THROW(from_yaml_documents(text), ParseError) << text;
  }
  try {
    from_yaml_documents("a: 1\n---\n,x\n", "deploy/app.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "parsing deploy/app.yaml: unexpected ',' at line 3, column 1");
  }
  EXPECT_EQ(from_yaml_documents("---\n---\n---\na: 1\n...\n---\n").size(), 1u);
}

// Found by runtime/json/fuzz/yaml_fuzz.cpp: a string of newlines only was emitted as an
// empty block scalar (read back as ""), and one whose first text line starts with a space
// after empty lines lost those spaces to the block's indentation.
TEST(Yaml, MultilineStringsRoundTrip) {
  for (const char* text : {"\n", "\n\n", "\n  indented", "\n\nx\n", "a\n\n", "a\n b\n"}) {
    Value v = Object{{"s", text}};
    EXPECT_EQ(from_yaml(to_yaml(v)), v) << to_yaml(v);
  }
}

// Found by yaml_fuzz: a key over YAML's 1024-character limit for implicit keys was emitted as
// "key: value", which no reader accepts; it is now an explicit "? key".
TEST(Yaml, LongKeysRoundTrip) {
  std::string k(1100, 'k'), q = "\x13" + std::string(300, '\\');  // 1,500+ characters once escaped
  for (const Value& val : {Value("v"), Value(Object{{"a", 1}}), Value(Array{1, "x"}), Value(Object{}), Value(nullptr)}) {
    Value v = Object{{k, val}, {q, Object{{k, val}}}, {"after", true}};
    EXPECT_EQ(from_yaml(to_yaml(v)), v) << to_yaml(v);
  }
}

// Found by yaml_fuzz: invalid UTF-8 went through into JSON strings, and " \xfe\xff" emitted at
// the start of a document read back as a UTF-16 byte order mark. Refused as go-yaml does.
TEST(Yaml, InvalidUtf8IsRefused) {
  for (std::string text : {std::string(" \xfe\xff\xff\xffYH"), std::string("a: \xc3"), std::string("a: \xc0\xaf"),
                           std::string("a: \xed\xa0\x80"), std::string("a: \xf4\x90\x80\x80")}) {
    EXPECT_THROW(from_yaml_documents(text), ParseError) << text;
    EXPECT_THROW(from_yaml(text), ParseError) << text;
  }
  try {
    from_yaml("name: caf\xc3\xa9\nbad: \xff\n", "config.yaml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "parsing config.yaml: invalid UTF-8 at byte 17");
  }
  // NULs made yaml-cpp read the text as UTF-32; control characters are refused as go-yaml does.
  try {
    from_yaml_documents(std::string("b\0\0\0\x01\x16" "333e", 10), "body");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "parsing body: control character U+0000 at byte 1");
  }
  EXPECT_THROW(from_yaml("a: \"\x1b[31m\"\n"), ParseError);
  EXPECT_THROW(from_yaml("a: \xc2\x9b\n"), ParseError);  // U+009B
  EXPECT_EQ(from_yaml("a:\tb\r\n").at("a").as_string(), "b");
  Value v = from_yaml("name: caf\xc3\xa9 \xf0\x9f\x9a\x80\nbom: \"\xef\xbb\xbfx\"\n");
  EXPECT_EQ(v.at("name").as_string(), "caf\xc3\xa9 \xf0\x9f\x9a\x80");
  EXPECT_EQ(from_yaml(to_yaml(v.at("bom"))), v.at("bom"));
}

// Found by yaml_fuzz: the string "..." was emitted plain, and at the start of the output it is
// a document end marker (read back as null); "---" likewise starts a document.
TEST(Yaml, DocumentMarkersAreQuoted) {
  for (const char* text : {"...", "---", "... x", "--- a"}) {
    Value v = String(text);
    EXPECT_EQ(from_yaml(to_yaml(v)), v) << to_yaml(v);
    Value list = Array{String(text)};
    EXPECT_EQ(from_yaml(to_yaml(list)), list) << to_yaml(list);
  }
}

TEST(Yaml, QuotedStringHookSeesQuotedAndBlockScalarsOnly) {
  std::vector<std::string> seen;
  auto docs = from_yaml_documents("a: \"3\"\nb: 3\nc: '${x}'\nd: ${x}\ne: |\n  text\n", "hook test", [&](std::string& s) {
    seen.push_back(s);
    s = "<" + s + ">";
  });
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(seen, (std::vector<std::string>{"3", "${x}", "text\n"}));
  EXPECT_EQ(serialize(docs[0]), R"({"a":"<3>","b":3,"c":"<${x}>","d":"${x}","e":"<text\n>"})");
}

}  // namespace
}  // namespace capstan::json
