// A change read from a unified-diff file (`gh pr diff`, `git diff`, `git format-patch`), with or
// without a repository that holds the head revision.
#pragma once

#include <optional>
#include <string>

#include "runner/change/change.hpp"
#include "runner/change/diff_parser.hpp"

namespace review::change {

/// Default bound on a diff read by load_diff_change (256 MiB).
inline constexpr std::size_t kMaxDiffBytes = std::size_t{256} * 1024 * 1024;

/// Loads the diff at `diff_path` ("-" = standard input) and parses it (parse_unified_diff, named
/// by `diff_path`, or "<stdin>").
///
/// With `repo`: head texts come from git at `head_rev` (resolved once to a commit; one
/// `git cat-file --batch`), and base texts are rebuilt by applying the file's hunks in reverse to
/// its head text (apply_patch Reverse). `base(path)` takes the base-side path: a renamed file's
/// base is asked by its old path, a file the patch does not touch answers its head text, a file
/// the patch adds answers nullopt. The bases are rebuilt once, at load: when a patch does not
/// match the head text (the repository is not at the patch's head), that base answers nullopt and
/// a note "<path>: the patch does not match the head revision (…); its base text is unknown"
/// is added.
/// pr.head_sha is set to the resolved commit.
///
/// Without `repo`: hunks_only = true, content answers nullopt for everything, and a note says
/// that only hunk lines are known.
///
/// Throws InputError{diff_path, "cannot read: <reason>"} when the file cannot be read,
/// InputError{diff_path, "not a unified diff: …"} when the text holds no file and no line a diff or
/// patch starts with ("diff ", "--- ", "+++ ", "@@ ", "From "; blank text is an empty change), the
/// parser's InputError for a malformed diff, and InputError{repo, "unknown revision \"…\""} from
/// resolve_revision.
/// `opts.max_file_bytes` skips a file whose hunks are larger (DiffOptions). A diff larger than
/// `max_diff_bytes` is refused before it is parsed: InputError{diff_path, "the diff is larger than
/// N bytes; …"}.
Change load_diff_change(const std::string& diff_path, std::optional<std::string> repo,
                        std::string head_rev = "HEAD", const DiffOptions& opts = {},
                        std::size_t max_diff_bytes = kMaxDiffBytes);

}  // namespace review::change
