// Text from the user's files, made safe to print, and the character rule every name follows.
//
// Messages echo file names, YAML values, CSV cells and HDF5 attributes. Printed as they are,
// an ESC sequence in a cell recolours or rewrites the terminal, a bidirectional control
// (U+202E RIGHT-TO-LEFT OVERRIDE) shows text in another order than it is stored, and a
// 15 MB cell fills the screen. So what a message quotes is written with escapes for
//   - C0 controls, DEL and C1 controls (U+0080–U+009F): \n \r \t, else \xNN or \u0085;
//   - the bidirectional controls U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: \u202e;
//   - bytes that are not UTF-8: \xNN;
// and a quoted value is cut after kShownCharacters characters with "…".
// Names (of bodies, joints, channels, parts...) may hold none of the controls above: they are
// printed in tables and written into files, where an escape would change them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace uwsim::scenario {

inline constexpr std::size_t kShownCharacters = 40;
// No formatted message grows beyond this many characters (a last resort: each place that
// quotes a value cuts it with shown()).
inline constexpr std::size_t kMaxMessageCharacters = 2000;

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool is_utf8(std::string_view text);
// Characters of UTF-8 text (bytes that do not continue a character).
std::size_t code_points(std::string_view text);

// `text` with the escapes above, whole.
std::string printable(std::string_view text);
// printable() of the first `limit` characters of `text`, with "…" when it is longer.
std::string shown(std::string_view text, std::size_t limit = kShownCharacters);

// Why `name` is no name — "character 3 is U+202E, a bidirectional control (it reorders how
// text is shown)", "... U+0007, a control character" — or nothing. Invalid UTF-8 is left to
// Reader::string, which reports it first.
std::optional<std::string> name_character_problem(std::string_view name);

}  // namespace uwsim::scenario
