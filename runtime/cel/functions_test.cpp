#include "runtime/cel/test_util.h"

#include <gtest/gtest.h>

namespace capstan::cel {
namespace {

using testing::run;

TEST(CelFunctions, Size) {
  EXPECT_EQ(run("size('h\xC3\xA9llo')"), "5");
  EXPECT_EQ(run("'h\xC3\xA9llo'.size()"), "5");
  EXPECT_EQ(run("size([1, 2])"), "2");
  EXPECT_EQ(run("{'a': 1}.size()"), "1");
  EXPECT_EQ(run("size(b'\\xff\\x00')"), "2");
  EXPECT_EQ(run("size(1)"), "error: no such overload");
}

TEST(CelFunctions, Strings) {
  EXPECT_EQ(run("'foobar'.startsWith('foo')"), "true");
  EXPECT_EQ(run("'foobar'.endsWith('bar')"), "true");
  EXPECT_EQ(run("'foobar'.endsWith('foobarx')"), "false");
  EXPECT_EQ(run("'foobar'.contains('oba')"), "true");
  EXPECT_EQ(run("'abc-123'.matches('^[a-z]+-[0-9]+$')"), "true");
  EXPECT_EQ(run("'xabcx'.matches('abc')"), "true");
  EXPECT_EQ(run("matches('abc', '^b')"), "false");
  EXPECT_EQ(run("'abc'.matches(self)", "\"(\""), "error: invalid regular expression '(': missing ): (");
  EXPECT_EQ(run("'MiXed'.lowerAscii()"), "\"mixed\"");
  EXPECT_EQ(run("'MiXed'.upperAscii()"), "\"MIXED\"");
  EXPECT_EQ(run("'  a b \\t\\n'.trim()"), "\"a b\"");
  EXPECT_EQ(run("'a,b,,c'.split(',')"), "[\"a\",\"b\",\"\",\"c\"]");
  EXPECT_EQ(run("'a,b,c'.split(',', 2)"), "[\"a\",\"b,c\"]");
  EXPECT_EQ(run("'a,b,c'.split(',', 0)"), "[]");
  EXPECT_EQ(run("'ab'.split('')"), "[\"a\",\"b\"]");
  EXPECT_EQ(run("['a', 'b'].join()"), "\"ab\"");
  EXPECT_EQ(run("['a', 'b'].join('-')"), "\"a-b\"");
  EXPECT_EQ(run("[1].join('-')"), "error: no such overload");
  EXPECT_EQ(run("'h\xC3\xA9llo'.indexOf('l')"), "2");
  EXPECT_EQ(run("'hello'.indexOf('l', 3)"), "3");
  EXPECT_EQ(run("'hello'.indexOf('z')"), "-1");
  EXPECT_EQ(run("'hello'.indexOf('l', 9)"), "error: index out of range: 9");
  EXPECT_EQ(run("'hello'.lastIndexOf('l')"), "3");
  EXPECT_EQ(run("'h\xC3\xA9llo'.substring(1, 3)"), "\"\xC3\xA9l\"");
  EXPECT_EQ(run("'hello'.substring(2)"), "\"llo\"");
  EXPECT_EQ(run("'hello'.substring(3, 2)"), "error: invalid substring range. start: 3, end: 2");
  EXPECT_EQ(run("'hello'.substring(9)"), "error: index out of range: 9");
  EXPECT_EQ(run("'aaa'.replace('a', 'b')"), "\"bbb\"");
  EXPECT_EQ(run("'aaa'.replace('a', 'b', 2)"), "\"bba\"");
  EXPECT_EQ(run("'ab'.replace('', '-')"), "\"-a-b-\"");
  EXPECT_EQ(run("'hello'.charAt(1)"), "\"e\"");
  EXPECT_EQ(run("'hello'.charAt(5)"), "\"\"");
}

TEST(CelFunctions, Lists) {
  EXPECT_EQ(run("[1, 2, 2].isSorted()"), "true");
  EXPECT_EQ(run("[2, 1].isSorted()"), "false");
  EXPECT_EQ(run("[1, 2, 3].sum()"), "6");
  EXPECT_EQ(run("[1.5, 2.5].sum()"), "4E0");
  EXPECT_EQ(run("[3, 1, 2].min()"), "1");
  EXPECT_EQ(run("['b', 'c', 'a'].max()"), "\"c\"");
  EXPECT_EQ(run("[].min()"), "error: min called on empty list");
  EXPECT_EQ(run("[1, 2, 1].indexOf(1)"), "0");
  EXPECT_EQ(run("[1, 2, 1].lastIndexOf(1)"), "2");
}

TEST(CelFunctions, Conversions) {
  EXPECT_EQ(run("int('42')"), "42");
  EXPECT_EQ(run("int('4x')"), "error: cannot convert string '4x' to int");
  EXPECT_EQ(run("int(3.9)"), "3");
  EXPECT_EQ(run("int(-3.9)"), "-3");
  EXPECT_EQ(run("int(1e19)"), "error: integer overflow");
  EXPECT_EQ(run("int(18446744073709551615u)"), "error: integer overflow");
  EXPECT_EQ(run("uint(-1)"), "error: unsigned integer overflow");
  EXPECT_EQ(run("uint('7')"), "7");
  EXPECT_EQ(run("double(2)"), "2E0");
  EXPECT_EQ(run("double('1.5')"), "1.5E0");
  EXPECT_EQ(run("string(12)"), "\"12\"");
  EXPECT_EQ(run("string(1.0)"), "\"1\"");
  EXPECT_EQ(run("string(1.5)"), "\"1.5\"");
  EXPECT_EQ(run("string(1e21)"), "\"1e+21\"");
  EXPECT_EQ(run("string(0.0001)"), "\"0.0001\"");
  EXPECT_EQ(run("string(0.00001)"), "\"1e-05\"");
  EXPECT_EQ(run("string(true)"), "\"true\"");
  EXPECT_EQ(run("string(b'abc')"), "\"abc\"");
  EXPECT_EQ(run("string(b'\\xff')"), "error: invalid UTF-8 in bytes, cannot convert to string");
  EXPECT_EQ(run("bool('true')"), "true");
  EXPECT_EQ(run("bytes('a') == b'a'"), "true");
  EXPECT_EQ(run("'replicas: ' + string(self)", "3"), "\"replicas: 3\"");
}

}  // namespace
}  // namespace capstan::cel
