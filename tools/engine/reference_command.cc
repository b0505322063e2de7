// reference: the protocol reference (engine/protocol_reference.h), the page
// docs/PROTOCOL.md (--markdown) or the file docs/protocol.json (--json). Both
// are committed; the test protocol_reference checks them against this output.

#include <iostream>

#include "engine/protocol_reference.h"
#include "tools/engine/commands.h"
#include "tools/engine/common.h"

namespace metropolis::cli {
namespace {

Flags MakeFlags() {
  Flags flags("reference", "--markdown|--json",
              "Prints the protocol reference generated from the engine's tables: every action type\n"
              "(code, payload, text form with an example, who acts, rules), every pending-decision kind\n"
              "(its seat, a, b, c and the actions that answer it) and every event type. --markdown\n"
              "writes docs/PROTOCOL.md, --json docs/protocol.json (scripts/regen-protocol.sh).");
  flags.Add({.name = "markdown", .value_name = "", .help = "print the Markdown page (docs/PROTOCOL.md)"});
  flags.Add({.name = "json", .value_name = "", .help = "print the JSON document (docs/protocol.json)"});
  return flags;
}

}  // namespace

int RunReference(const std::vector<std::string>& args) {
  Flags flags = MakeFlags();
  if (int exit_code; !ParseOrExit(&flags, args, &exit_code)) return exit_code;
  const bool markdown = flags.Has("markdown"), json = flags.Has("json");
  if (markdown == json) return UsageError(flags, "give exactly one of --markdown and --json");
  std::cout << (markdown ? ProtocolReferenceMarkdown() : ProtocolReferenceJson());
  return kExitOk;
}

}  // namespace metropolis::cli
