// JSON string literals: the one writer of quoted text that the engine's records,
// the command-line tools, the services' files and the load programs share. Every
// byte below 0x20 is escaped, so any text gives valid JSON; other bytes pass as
// they are (the text is taken to be UTF-8).
#pragma once

#include <string>
#include <string_view>

namespace metropolis {

// Appends `text` as a quoted JSON string to *out.
void AppendJsonString(std::string_view text, std::string* out);
// `text` as a quoted JSON string.
std::string JsonString(std::string_view text);

}  // namespace metropolis
