#!/usr/bin/env python3
# Checks that nothing tracked in the repository refers to a path outside it: a clone must read
# and build on its own. Each tracked text file is searched for
#   - a relative path that climbs out of the checkout to a folder beside it (the sibling folder
#     of notes a checkout may sit next to, "../" + "shared", or a path into its subfolders);
#   - an absolute path into the folder that holds the checkout (on a developer's machine, the
#     workspace around it), which would name files only that machine has;
#   - a Markdown link whose relative target resolves outside the repository.
# Prints one line per finding (FILE:LINE: what) and exits 1 if there is any; exit 77 (ctest's
# skip) where the tree is not a git checkout, since only git says which files are tracked.
# Usage: test_repository_paths.py REPOSITORY_ROOT   (registered in tests/CMakeLists.txt)
import os
import re
import subprocess
import sys

SIBLING = "shared"  # the notes folder beside the checkout; spelt apart so this file passes itself
OUTSIDE_PATTERNS = [
    re.compile(re.escape("../" + SIBLING) + r"\b"),
    re.compile(r"(?<![\w.-])" + re.escape(SIBLING + "/") + r"(jungi|sources)/"),
]
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        print("not a git checkout: no list of tracked files, test skipped")
        sys.exit(77)
    return [p for p in out.decode().split("\0") if p]


def text_of(path):
    """The file's text, or None for a binary file (a NUL byte) or one that is not there."""
    try:
        data = open(path, "rb").read()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def around_pattern(root):
    """An absolute path into the folder that holds the checkout, or None when that folder is /."""
    parent = os.path.dirname(os.path.realpath(root))
    if parent in ("", "/"):
        return None
    return re.compile(r"(?<![\w.~/-])" + re.escape(parent + "/"))


def link_leaves(root, rel, target):
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return False  # a URL, or an absolute path (checked by the patterns)
    resolved = os.path.realpath(os.path.join(root, os.path.dirname(rel), target))
    base = os.path.realpath(root)
    return os.path.commonpath([resolved, base]) != base


def findings(root):
    patterns = OUTSIDE_PATTERNS + [p for p in [around_pattern(root)] if p]
    for rel in tracked_files(root):
        text = text_of(os.path.join(root, rel))
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for pat in patterns:
                m = pat.search(line)
                if m:
                    yield f"{rel}:{n}: refers to a path outside the repository: {line[m.start():m.start() + 60]}"
            if rel.endswith(".md"):
                for m in MARKDOWN_LINK.finditer(line):
                    if link_leaves(root, rel, m.group(1)):
                        yield f"{rel}:{n}: a Markdown link leaves the repository: {m.group(1)}"


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: test_repository_paths.py REPOSITORY_ROOT")
    found = list(findings(argv[1]))
    for f in found:
        print(f)
    print(f"{len(found)} reference(s) to paths outside the repository")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
