// The protocol reference: every action type, pending-decision kind and event
// type of the engine, described as data. `metropolis-engine reference` prints
// it as docs/PROTOCOL.md (--markdown) and docs/protocol.json (--json), and a
// test checks that the committed files are what the engine prints.
//
// Names come from the engine's own tables (ActionTypeName, the notation's
// pending names, EventTypeName) and payload kinds from the table that drives
// the action encoding (ActionFieldKinds); what is written here is what those
// tables cannot say: what each field means, who acts and when, which rules
// apply, and an example of each kind, rendered by the engine's text functions.
// Every value of ActionType, PendingKind and EventType has exactly one entry
// (protocol_reference_test.cc), so a new kind cannot go undocumented.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/event.h"
#include "engine/state.h"

namespace metropolis {

struct ActionReference {
  ActionType type;
  std::string_view constant;                // "BUILD_ROAD"
  std::array<std::string_view, 3> payload;  // what a, b, c mean; empty for an unused byte
  std::string_view who;                     // who takes it, and when
  std::string_view rules;                   // rule ids, comma-separated: "BLD-1, SET-2, SET-3"
  Action example;
};

// PLAY_PROGRESS's b and c for one progress card, PLAY_DEV's for one
// development card.
struct CardPlayReference {
  int card;
  std::string_view parameters;  // what b and c mean, or why the card takes none
  Action example;
};

enum class PendingRole : uint8_t {
  kChance,     // a chance node: the host draws an outcome (a CHANCE_* action)
  kAutomatic,  // a step the engine runs as soon as it is on top: nobody acts
  kDecision,   // `seat` decides
};

struct PendingReference {
  PendingKind kind;
  PendingRole role;
  std::string_view meaning;
  std::array<std::string_view, 4> fields;  // what seat, a, b, c mean; empty when unused
  std::vector<ActionType> answers;         // the action types that resolve it
  std::string_view rules;
};

struct EventReference {
  EventType type;
  std::array<std::string_view, 6> fields;  // what seat, other, a, b, c, action mean; empty when unused
  std::string_view visibility;             // who sees it whole
  std::string_view rules;
  Event example;
};

// What a payload kind of ActionFieldKinds holds and how the text form writes it.
struct FieldKindReference {
  std::string_view kind;
  std::string values;
  std::string text;
};

const std::vector<ActionReference>& ActionReferences();
const std::vector<CardPlayReference>& ProgressPlayReferences();  // one per progress card, by id
const std::vector<CardPlayReference>& DevPlayReferences();       // one per development card, by id
const std::vector<PendingReference>& PendingReferences();
const std::vector<EventReference>& EventReferences();
const std::vector<FieldKindReference>& FieldKindReferences();

// Pending kinds are 0 .. NumPendingKinds() - 1; their names are the position
// notation's ("discard", "trade_answer", ...; docs/NOTATION.md).
int NumPendingKinds();
std::string_view PendingKindName(PendingKind k);
std::string_view PendingRoleName(PendingRole r);  // "chance", "automatic", "decision"

// The shape of a type's text form, derived from its payload kinds, e.g.
// "build_road e<edge>", "move_robber h<hex> [rob <seat>]".
std::string ActionTextForm(ActionType t);

// The whole reference: docs/PROTOCOL.md and docs/protocol.json.
std::string ProtocolReferenceMarkdown();
std::string ProtocolReferenceJson();

}  // namespace metropolis
