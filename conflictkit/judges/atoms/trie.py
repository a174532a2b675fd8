"""Word lists as regex alternations shaped like a trie.

``a|b|c`` over a few hundred place names makes the regex engine try every name at every position
of a clause. The same names as a trie ("new(?: york(?: city)?|ark)") try one branch per letter. At
one position the names that match are prefixes of one another, and the trie tries them longest
first (a greedy optional per name that goes on), as the longest-first alternation does, so the
two patterns match the same text in the same way, backtracking included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from conflictkit.lexicon import LexiconError


def alternation(words: Iterable[str]) -> str:
    """A regex (no groups) matching exactly what the longest-first alternation of ``words`` matches."""
    trie: dict[str, dict] = {}
    for word in words:
        if not word:
            raise LexiconError("a word list of the lexicon has an empty entry (it would match everywhere): remove it")
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _branch(trie)


def _branch(node: dict[str, dict]) -> str:
    ends_here = "" in node
    options = [re.escape(char) + _branch(child) for char, child in sorted(node.items()) if char]
    if not options:
        return ""
    body = options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"
    return f"(?:{body})?" if ends_here else body
