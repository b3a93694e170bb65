#include "apiserver/table/jsonpath.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::table {
namespace {

const json::Value& nodes() {
  static const json::Value v = json::parse(R"({
    "kind": "List",
    "items": [
      {"kind": "None",
       "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1", "app": "a"}},
       "status": {"capacity": {"cpu": "4"}, "ready": true,
                  "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
      {"kind": "None",
       "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
       "status": {"capacity": {"cpu": "8"}, "ready": false,
                  "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                                {"type": "another", "address": "127.0.0.3"}]}}
    ],
    "users": [{"name": "myself", "user": {}},
              {"name": "e2e", "user": {"username": "admin", "password": "secret"}}]
  })");
  return v;
}

std::string exec(std::string_view tmpl, const json::Value& data, bool allow_missing = false) {
  auto p = JsonPath::parse(tmpl);
  p.allow_missing_keys(allow_missing);
  return p.execute(data);
}

TEST(JsonPath, FieldsIndexesAndSlices) {
  auto data = json::parse(R"({"a": {"b": "x"}, "n": [1, 2, 3, 4], "s": ["one", "two", "three", "four"]})");
  EXPECT_EQ(exec("{.a.b}", data), "x");
  EXPECT_EQ(exec("{$.a.b}", data), "x");
  EXPECT_EQ(exec("{.n[0]}", data), "1");
  EXPECT_EQ(exec("{.n[-1]}", data), "4");
  EXPECT_EQ(exec("{.n[-2]}", data), "3");
  EXPECT_EQ(exec("{.n[0:2]}", data), "1 2");
  EXPECT_EQ(exec("{.n[:2]}", data), "1 2");
  EXPECT_EQ(exec("{.n[1:]}", data), "2 3 4");
  EXPECT_EQ(exec("{.n[:4:2]}", data), "1 3");
  EXPECT_EQ(exec("{.s[1::2]}", data), "two four");
  EXPECT_EQ(exec("{.s[*]}", data), "one two three four");
  EXPECT_EQ(exec("{.n[0,2]}", data), "1 3");
  EXPECT_EQ(exec("{.n}", data), "[1,2,3,4]");
  EXPECT_EQ(exec("{.a}", data), R"({"b":"x"})");
  EXPECT_EQ(exec("{ .a.b }", data), "x");
}

TEST(JsonPath, WildcardsAndNestedArrays) {
  EXPECT_EQ(exec("{.items[*].metadata.name}", nodes()), "127.0.0.1 127.0.0.2");
  EXPECT_EQ(exec("{.items[*].status.addresses[*].address}", nodes()), "127.0.0.1 127.0.0.2 127.0.0.3");
  EXPECT_EQ(exec("{.items[0].status.capacity.*}", nodes()), "4");
  EXPECT_EQ(exec("{.items[*]['metadata.name', 'status.capacity']}", nodes()),
            R"(127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"})");
}

TEST(JsonPath, EscapedAndBracketedKeys) {
  EXPECT_EQ(exec(R"({.items[0].metadata.labels.kubernetes\.io/hostname})", nodes()), "127.0.0.1");
  EXPECT_EQ(exec(R"({.items[0].metadata.labels['kubernetes\.io/hostname']})", nodes()), "127.0.0.1");
  EXPECT_EQ(exec("{.items[0]['metadata']['name']}", nodes()), "127.0.0.1");
  // As in client-go, dots inside ['...'] still separate fields.
  auto data = json::parse(R"({"a": {"b": "nested"}, "a.b": "dotted"})");
  EXPECT_EQ(exec("{['a.b']}", data), "nested");
  EXPECT_EQ(exec(R"({['a\.b']})", data), "dotted");
  EXPECT_EQ(exec(R"({.a\.b})", data), "dotted");
}

TEST(JsonPath, Filters) {
  EXPECT_EQ(exec(R"({.users[?(@.name=="e2e")].user.password})", nodes()), "secret");
  EXPECT_EQ(exec(R"({.users[?(@.name != "e2e")].name})", nodes()), "myself");
  EXPECT_EQ(exec(R"({.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind})", nodes()), "None");
  EXPECT_EQ(exec("{.items[?(@..ready==true)].metadata.name}", nodes()), "127.0.0.1");
  EXPECT_EQ(exec("{.items[?(@.metadata.labels.app)].metadata.name}", nodes()), "127.0.0.1");

  auto points = json::parse(R"([{"id":"i1","x":4,"y":-5},{"id":"i2","x":-2,"y":-5,"z":1},
                                {"id":"i3","x":8,"y":3},{"id":"i5","x":0,"y":2,"z":1}])");
  EXPECT_EQ(exec("{[?(@.z)].id}", points), "i2 i5");
  EXPECT_EQ(exec("{[?(@.x<1)].id}", points), "i2 i5");
  EXPECT_EQ(exec("{[?(@.x>3)].id}", points), "i1 i3");
  EXPECT_EQ(exec("{[?(@.x>=4)].id}", points), "i1 i3");
  EXPECT_EQ(exec("{[?(@.x<=0)].id}", points), "i2 i5");
  EXPECT_EQ(exec("{[0]['id']}", points), "i1");
  auto ints = json::parse("[2, 6, 3, 7]");
  EXPECT_EQ(exec("{[?(@<5)]}", ints), "2 3");

  auto conditions = json::parse(R"({"status":{"conditions":[{"type":"Ready","status":"True"},
                                                           {"type":"Synced","status":"False"}]}})");
  auto p = JsonPath::parse_column(R"(.status.conditions[?(@.type=="Ready")].status)");
  EXPECT_EQ(p.execute(conditions), "True");
}

TEST(JsonPath, RecursiveDescent) {
  auto names = JsonPath::parse("{..name}").find(nodes());
  std::vector<std::string> got;
  for (const auto& v : names) got.emplace_back(v.get_string());
  EXPECT_EQ(got, (std::vector<std::string>{"127.0.0.1", "127.0.0.2", "myself", "e2e"}));
  EXPECT_EQ(exec("{...name}", json::parse(R"({"a":{"name":"x"}})")), "x");
  EXPECT_EQ(exec("{..}", json::parse("[1,2,3]")), "[1,2,3]");
  EXPECT_THROW(JsonPath::parse("{....name}"), JsonPathError);
}

TEST(JsonPath, TemplatesTextAndRange) {
  EXPECT_EQ(exec("hello {.kind}!", nodes()), "hello List!");
  EXPECT_EQ(exec("plain text", nodes()), "plain text");
  EXPECT_EQ(exec(R"({"{"})", nodes()), "{");
  EXPECT_EQ(exec("{range .items[*]}{.metadata.name}, {end}{.kind}", nodes()), "127.0.0.1, 127.0.0.2, List");
  EXPECT_EQ(exec(R"({range .items[*]}{.metadata.name}{"\t"}{end})", nodes()), "127.0.0.1\t127.0.0.2\t");
  EXPECT_EQ(exec("{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}", nodes()),
            "127.0.0.1, 127.0.0.2, 127.0.0.3, ");
  EXPECT_EQ(exec("{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}", nodes()),
            R"([127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] )");
  auto empty = json::parse(R"({"items":[]})");
  EXPECT_EQ(exec("{range .items[*]}{.metadata.name}{end}", empty, true), "");
  EXPECT_THROW(exec("{range .items[*]}{.kind}{end}{end}", nodes()), JsonPathError);
}

TEST(JsonPath, MissingPaths) {
  auto data = json::parse(R"({"a": {"b": 1}, "n": null})");
  EXPECT_EQ(exec("{.missing}", data, true), "");
  EXPECT_EQ(exec("before-{.missing}after", data, true), "before-after");
  EXPECT_EQ(exec("{.a.missing.deeper}", data, true), "");
  EXPECT_EQ(exec("{.n.b}", data, true), "");
  EXPECT_TRUE(JsonPath::parse_column(".a.x").allow_missing_keys(true).find(data).empty());
  try {
    exec("{.hello}", data);
    FAIL() << "expected an error";
  } catch (const JsonPathError& e) {
    EXPECT_NE(std::string(e.what()).find("hello is not found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("{.hello}"), std::string::npos) << e.what();
  }
}

TEST(JsonPath, EvaluationErrors) {
  auto data = json::parse(R"({"m": {"k": 1}, "n": [1, 2], "e": [], "f": [{"x": 1.5}]})");
  EXPECT_THROW(exec("{.n[5]}", data, true), JsonPathError);  // out of bounds
  EXPECT_THROW(exec("{.e[0]}", data, true), JsonPathError);  // empty array
  EXPECT_THROW(exec("{.m[0]}", data, true), JsonPathError);  // not an array
  EXPECT_THROW(exec("{.f[?(@.x==1)]}", data, true), JsonPathError);  // float vs int
  EXPECT_THROW(exec(R"({.f[?(@.x<"a")]})", data, true), JsonPathError);
  EXPECT_THROW(exec("{.m[?(@.k<>1)]}", data, true), JsonPathError);  // m is not an array
  EXPECT_THROW(exec("{.n[?(@<>1)]}", data, true), JsonPathError);    // unknown operator
  EXPECT_THROW(exec("{hello}", data, true), JsonPathError);          // unknown identifier
  EXPECT_EQ(exec("{.n[1:1]}", data, true), "");                      // empty slices are fine
  // An existence filter keeps elements whose index step fails, as client-go does.
  auto arrays = json::parse(R"([{"a": [1]}, {"b": 2}])");
  EXPECT_EQ(exec("{[?(@.a[3])].a}", arrays, true), "[1]");
}

TEST(JsonPath, SyntaxErrorsNameThePath) {
  const char* bad[] = {"{.a", "{.a[0}", "{.a[x]}", "{.a[?(@.b==1}", "{.a[?(@.b==1)}", "{.a | b}",
                       "{.a['x'}", R"({"unterminated})", "{1.2.3}", "{.a[1:2:3:4]}"};
  for (const char* t : bad) {
    try {
      JsonPath::parse(t);
      ADD_FAILURE() << "parsed " << t;
    } catch (const JsonPathError& e) {
      EXPECT_NE(std::string(e.what()).find(t), std::string::npos) << e.what();
    }
  }
  try {
    JsonPath::parse_column(".spec[");
    FAIL();
  } catch (const JsonPathError& e) {
    EXPECT_EQ(std::string(e.what()), "invalid JSONPath \".spec[\": unterminated array");
  }
  try {
    JsonPath::parse("{.a # b}");
    FAIL();
  } catch (const JsonPathError& e) {
    EXPECT_NE(std::string(e.what()).find("unrecognized character in action: U+0023 '#'"), std::string::npos);
  }
}

TEST(JsonPath, LiteralsAndBooleans) {
  auto data = json::parse(R"({"items":[{"ok":true,"n":"a"},{"ok":false,"n":"b"}]})");
  EXPECT_EQ(exec("{.items[?(@.ok==false)].n}", data), "b");
  EXPECT_EQ(exec("{.items[?(@.n=='a')].ok}", data), "true");
  EXPECT_EQ(exec(R"({.items[?(@.n=="a\"")].ok})", data), "");
}

TEST(JsonPath, PrintsValuesLikeClientGo) {
  EXPECT_EQ(print_value(json::parse("null")), "<nil>");
  EXPECT_EQ(print_value(json::parse("12")), "12");
  EXPECT_EQ(print_value(json::parse("1e6")), "1e+06");
  EXPECT_EQ(print_value(json::parse(R"("a<b")")), "a<b");
  EXPECT_EQ(print_value(json::parse(R"({"b":[1,"<"],"a":null})")), R"({"a":null,"b":[1,"\u003c"]})");
}

TEST(JsonPath, EvaluationErrorsPrintValuesLikeGo) {
  auto data = json::parse(R"({"m": {"k": 1}, "i": 5})");
  auto message = [&](std::string_view tmpl) {
    try {
      exec(tmpl, data, true);
    } catch (const JsonPathError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  // fmt's %v of the reflect.Value, not JSON.
  EXPECT_NE(message("{.m[?(@.k==1)]}").find(": map[k:1] is not array or slice and cannot be filtered"), std::string::npos)
      << message("{.m[?(@.k==1)]}");
  // %v of value.Type().
  EXPECT_NE(message("{.m[0]}").find(": map[string]interface {} is not array or slice"), std::string::npos) << message("{.m[0]}");
  EXPECT_NE(message("{.i[0]}").find(": int64 is not array or slice"), std::string::npos) << message("{.i[0]}");
}

}  // namespace
}  // namespace capstan::apiserver::table
