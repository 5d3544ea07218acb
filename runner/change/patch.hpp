// Applying the hunks of one ChangedFile to a text, forwards (base → head) or in reverse
// (head → base). Used where only one side of a file is known: a patch with a repository (the base
// is rebuilt from head) and `example bad diff` blocks (the head is built from the base).
#pragma once

#include <string>
#include <string_view>

#include "runner/change/change.hpp"

namespace review::change {

enum class PatchDirection { Forward, Reverse };

/// Applies `file.hunks` to `text`, the base text (Forward) or head text (Reverse), and returns the
/// other side. Lines must match exactly where each hunk header says (no fuzz, no offset); a '\r'
/// before a line's "\n" in `text` is ignored when comparing and kept on lines copied from `text`
/// (hunk lines are written with "\n" only). "\ No newline at end of file" markers decide whether
/// the result ends in a newline when its last line comes from a hunk.
///
/// Throws InputError{where, "line N: expected \"…\", found \"…\""} when the text does not match
/// the hunks (N is a line number of `text`), or "... has only N lines" when a hunk reaches past
/// the end. `where` is used as is (usually the file path).
std::string apply_patch(std::string_view text, const ChangedFile& file, PatchDirection direction,
                        const std::string& where);

}  // namespace review::change
