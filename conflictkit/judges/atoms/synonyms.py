"""Words that name the same action or thing, from the lexicon (``verbs.yaml`` synonym groups and
``content.yaml`` synonyms): "terminate" / "end", "supply" / "provide", "staff" / "personnel".

A word's keys are its four-letter root and the groups it belongs to; two words with a key in
common count as one (P(same matter) reads duties about "delivering" and "shipping" as one action,
a content edit does not report "supply" -> "provide").
"""

from __future__ import annotations

from conflictkit.lexicon import LanguagePack


def _groups(lex: LanguagePack) -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    def build() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
        group_of: dict[str, set[str]] = {}
        lines = list(lex.get("verbs.synonym_groups")) + list(lex.get("content.synonyms"))
        for n, line in enumerate(lines):
            for word in line.split():
                group_of.setdefault(word[:4], set()).add(f"g{n}")
        return dict(lex.get("verbs.irregular_past")), {k: frozenset(v) for k, v in group_of.items()}
    return lex.memo("synonyms.groups", build)


def keys(word: str, lex: LanguagePack) -> frozenset[str]:
    """The keys of a (lower-cased) word or stem: its root and its synonym groups."""
    cache: dict[str, frozenset[str]] = lex.memo("synonyms.keys", dict)
    found = cache.get(word)
    if found is None:
        found = cache[word] = _keys(word, lex)
    return found


def _keys(word: str, lex: LanguagePack) -> frozenset[str]:
    irregular, group_of = _groups(lex)
    word = irregular.get(word, word)
    for suffix in lex.data.morphology.key_suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return frozenset({word[:4]}) | group_of.get(word[:4], frozenset())


def weak_verbs(lex: LanguagePack) -> frozenset[str]:
    """Verbs that carry no action of their own ("use reasonable efforts to", "ensure that")."""
    return lex.memo("synonyms.weak", lambda: lex.words("verbs.weak"))


def groups_of(word: str, lex: LanguagePack) -> frozenset[str]:
    """The synonym groups of which a (lower-cased) word is a form of a member: "delivered" and
    "delivery" are in the group of "deliver"; "discover" is in none ("disclose" only shares its
    first letters, which is what :func:`keys` reads)."""
    cache: dict[str, frozenset[str]] = lex.memo("synonyms.groups_of", dict)
    found = cache.get(word)
    if found is None:
        found = cache[word] = _groups_of(word, lex)
    return found


def _members(lex: LanguagePack) -> dict[str, frozenset[str]]:
    def build() -> dict[str, frozenset[str]]:
        member: dict[str, set[str]] = {}
        lines = list(lex.get("verbs.synonym_groups")) + list(lex.get("content.synonyms"))
        for n, line in enumerate(lines):
            for w in line.split():
                member.setdefault(w, set()).add(f"g{n}")
        return {k: frozenset(v) for k, v in member.items()}
    return lex.memo("synonyms.members", build)


def _groups_of(word: str, lex: LanguagePack) -> frozenset[str]:
    members = _members(lex)
    return frozenset().union(*(members.get(b, frozenset()) for b in forms(word, lex)))


def forms(word: str, lex: LanguagePack) -> frozenset[str]:
    """The base forms a (lower-cased) word may be an inflection or derivation of (``morphology.yaml``):
    "cancelled" -> {"cancelled", "cancell", "cancel", ...}; a lexicon word list matches a word through them."""
    irregular = lex.memo("synonyms.irregular", lambda: dict(lex.get("verbs.irregular_past")))
    m = lex.data.morphology
    word = irregular.get(word, word)
    bases = {word}
    for suffix in m.form_suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            bases |= {base, *(base + e for e in m.form_added_endings), base + m.form_restored.get(suffix, "")}
            if len(base) > 3 and base[-1] == base[-2]:
                bases.add(base[:-1])  # "cancelled" -> "cancel"
    return frozenset(bases)
