// The one JSON string writer (engine/json_text.h) that records, tools, the game
// host's files and the load programs share.
#include "engine/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace metropolis {
namespace {

TEST(JsonString, EscapesQuotesBackslashesAndEveryControlCharacter) {
  EXPECT_EQ(JsonString("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(JsonString("\t\r\x1f"), "\"\\t\\r\\u001f\"");
  // A NUL inside the text is text, not its end.
  EXPECT_EQ(JsonString(std::string("x\0y", 3)), "\"x\\u0000y\"");
}

TEST(JsonString, PassesPrintableAsciiAndUtf8AsTheyAre) {
  EXPECT_EQ(JsonString("Zoë plays 2:1"), "\"Zoë plays 2:1\"");
  EXPECT_EQ(JsonString(""), "\"\"");
}

TEST(JsonString, AppendsAfterWhatIsThere) {
  std::string out = "{\"name\":";
  AppendJsonString("a\x7f", &out);
  EXPECT_EQ(out, "{\"name\":\"a\x7f\"");
}

}  // namespace
}  // namespace metropolis
