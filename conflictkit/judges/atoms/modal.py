"""Modality, negation and who acts.

Each modal phrase becomes one atom whose key is its deontic class, whatever the wording:

| class | examples |
|---|---|
| obligation | shall, will, must, agrees to, undertakes to, is required to |
| permission | may, can, is entitled to, is permitted to, has the right to, reserves the right to |
| prohibition | shall not, may not, must not, will not, cannot, neither party shall, in no event will, is prohibited from |
| no_obligation | is not required to, need not, shall have no obligation to, is under no obligation to |
| recommendation / discouraged | should / should not |

A negator that belongs to a modal ("shall not", "Neither party shall", "in no event will") is
part of that atom and is not counted again as a free negation. The atom remembers the verb it
governs (to align the two clauses) and the side of the party that acts: the subject before it,
or the agent of a passive ("shall be paid by Customer"). Free negations ("is not liable",
"without cause", "no refund") are atoms of their own, anchored on the word they negate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.judges.atoms.parties import find_named_parties, find_parties
from conflictkit.judges.atoms.text import Atom, Mask, words_of
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern


@dataclass(frozen=True)
class _ModalWords:
    """The words the scanner reads (``modality.yaml``), as sets and tables, built once per pack."""

    aux: dict[str, str]
    predicates: dict[str, str]
    nouns: dict[str, str]
    verb_heads: dict[str, str]
    to_infinitive: frozenset[str]
    subject_negators: frozenset[str]
    fail: frozenset[str]
    """Verbs of failing only: the noun ("delay or failure to perform") names an event and negates nothing."""
    outside_verbs: frozenset[str]
    passive_irregular: frozenset[str]
    participle_prefixes: tuple[str, ...]
    ly_verbs: frozenset[str]
    free_negators: frozenset[str]
    noun_before: frozenset[str]
    noun_auxiliaries: frozenset[str]
    be_or_have: frozenset[str]
    infinitives: frozenset[str]
    predicate_links: dict[str, frozenset[str]]
    """"free to act" is a permission, "free from defects" is not; "prohibited from acting" is a prohibition."""
    phrases: tuple[tuple[tuple[frozenset[str], ...], str, bool], ...]
    negators_after: frozenset[str]
    negating_phrases: tuple[tuple[str, ...], ...]
    phrase_starts: frozenset[str]
    skipped_after: frozenset[str]
    noun_determiners: frozenset[str]
    noun_negators: frozenset[str]
    noun_links: frozenset[str]
    under: frozenset[str]
    under_determiners: frozenset[str]
    negator_leads: frozenset[str]
    sentence_negators: frozenset[str]
    stop_lookback: frozenset[str]
    skip_to_verb: frozenset[str]
    possessives: frozenset[str]
    appositive: re.Pattern[str]
    inverted_subject: re.Pattern[str]
    passive: frozenset[str]
    participle_endings: tuple[str, ...]
    agent: frozenset[str]
    failure_nouns: frozenset[str]
    possessive_ending: str
    outside: frozenset[str]
    number_signs: frozenset[str]
    dated: frozenset[str]
    """Auxiliaries that are a month before a day ("May 5")."""
    adverb_endings: tuple[str, ...]
    deferred_duty: re.Pattern[str]
    """"hat die Miete ... zu zahlen": a be / have whose duty's verb ends the clause."""
    clause_negators: frozenset[str]
    """"darf die Daten nicht weitergeben": a negator later in the modal's clause negates it."""


def _words(lex: LanguagePack) -> _ModalWords:
    """The modality section of the pack (``modality.yaml``) as sets and tables."""
    def build() -> _ModalWords:
        m, f = lex.data.modality, frozenset
        return _ModalWords(
            aux=dict(m.auxiliaries), predicates=dict(m.predicates), nouns=dict(m.right_nouns), verb_heads=dict(m.verb_heads),
            to_infinitive=f(m.to_infinitive),
            subject_negators=f(m.subject_negators), fail=f(m.failure_verbs), outside_verbs=f(m.outside_verbs),
            passive_irregular=f(m.irregular_participles), participle_prefixes=tuple(m.participle_prefixes),
            ly_verbs=f(m.ly_verbs), free_negators=f(m.free_negators), noun_before=f(m.noun_before),
            noun_auxiliaries=f(m.noun_auxiliaries), be_or_have=f(m.be) | f(m.have), infinitives=f(m.infinitives),
            predicate_links={k: f(v) for k, v in m.predicate_links.items()},
            phrases=tuple((tuple(f(w.split("|")) for w in words.split()), base, negated)
                          for words, base, negated in m.modal_phrases),
            negators_after=f(m.negators_after), negating_phrases=tuple(tuple(p.split()) for p in m.negating_phrases),
            phrase_starts=f(p.split()[0] for p in m.negating_phrases),
            skipped_after=f(m.skipped_after), noun_determiners=f(m.noun_determiners), noun_negators=f(m.noun_negators),
            noun_links=f(m.noun_links), under=f(m.under), under_determiners=f(m.under_determiners),
            negator_leads=f(m.negator_leads), sentence_negators=f(m.sentence_negators), stop_lookback=f(m.stop_lookback),
            skip_to_verb=f(m.skip_to_verb), possessives=f(m.possessives), appositive=compile_pattern(m.appositive),
            inverted_subject=compile_pattern(m.inverted_subject), passive=f(m.passive),
            participle_endings=tuple(m.participle_endings), agent=f(m.agent), failure_nouns=f(m.failure_nouns),
            possessive_ending=m.possessive_ending, outside=f(m.outside), number_signs=f(m.number_signs),
            dated=f(lex.data.dates.ambiguous_months), adverb_endings=tuple(lex.data.morphology.adverb_endings),
            deferred_duty=compile_pattern(m.deferred_duty), clause_negators=f(m.clause_negators))
    return lex.memo("modality.words", build)


_CLAUSE_ENDS = frozenset({".", ";", ":", ",", "(", ")"})


def _combine(base: str, negated: bool) -> str:
    if base in ("obligation", "permission"):
        return "prohibition" if negated else base
    if base == "duty":
        return "no_obligation" if negated else "obligation"
    if base == "prohibited":
        return "permission" if negated else "prohibition"
    if base == "contingent":
        return "contingent_no_obligation" if negated else "contingent_obligation"
    return "discouraged" if negated else base


class _Scanner:
    """Walks the free tokens of a clause and emits modal atoms, then free negation atoms."""

    def __init__(self, text: str, low: str, mask: Mask, lex: LanguagePack) -> None:
        self.text, self.low, self.mask, self.w = text, low, mask, _words(lex)
        self.lex_words = words_of(lex)
        self.tokens = [t for t in self.lex_words.tokenize(low) if mask.free(t.start, t.end)]
        known = find_parties(text, low, lex)
        self.parties = sorted(known + find_named_parties(text, known, lex), key=lambda p: p.start)
        self.used: set[int] = set()

    def _adverb(self, word: str) -> bool:
        """"promptly", "fully": skipped between a modal and its verb; "comply", "supply" are verbs."""
        return word.endswith(self.w.adverb_endings) and len(word) > 4 and word not in self.w.ly_verbs

    def _stem(self, i: int | None) -> str:
        return self.lex_words.stem(self.word(i)) if i is not None else ""

    def word(self, i: int) -> str:
        return self.tokens[i].word if 0 <= i < len(self.tokens) else ""

    def modal_atoms(self) -> list[Atom]:
        atoms = []
        i = 0
        while i < len(self.tokens):
            found = self._modal_at(i)
            if found is None:
                i += 1
                continue
            atom, end = found
            atoms.append(atom)
            i = end
        return atoms

    def _modal_at(self, i: int) -> tuple[Atom, int] | None:
        w = self.word(i)
        noun_use = w in self.w.noun_auxiliaries and self.word(i + 1) in (".", ";", "")  # "the will.", "in May."
        if w in self.w.aux and self.word(i - 1) not in self.w.noun_before and not noun_use:
            if w in self.w.dated and self.text[self.tokens[i].start].isupper() and self.word(i + 1).isdigit():
                return None  # "May 5": a date
            return self._build(i, self.w.aux[w], i + 1)
        if w in self.w.be_or_have:
            j, neg = self._negators(i + 1)
            base, end = self._predicate(j)
            if base:
                return self._build(i, base, end, negated=neg)
            return self._build(i, "duty", i + 1) if self.w.deferred_duty.match(self.low, self.tokens[i].end) else None
        if w in self.w.verb_heads and self.word(i + 1) in self.w.to_infinitive:
            return self._build(i, self.w.verb_heads[w], i + 2)
        for words, base, negated in self.w.phrases:  # "need not", "reserves the right", "refrain from"
            if all(self.word(i + k) in alternatives for k, alternatives in enumerate(words)):
                return self._build(i, base, i + len(words), negated=negated)
        return None

    def _negators(self, j: int) -> tuple[int, bool]:
        """Skip "not", "never", "in no event", adverbs after a modal; say whether one negated it."""
        neg = False
        while j < len(self.tokens):
            w = self.word(j)
            phrase = next((p for p in self.w.negating_phrases
                           if all(self.word(j + k) == x for k, x in enumerate(p))), None) if w in self.w.phrase_starts else None
            if w in self.w.negators_after:
                neg = not neg
            elif phrase is not None:
                neg, j = not neg, j + len(phrase) - 1
            elif not self._adverb(w) and w not in self.w.skipped_after:
                break
            j += 1
        return j, neg

    def _predicate(self, j: int) -> tuple[str, int]:
        """A predicate after be/have: "required to", "entitled to", "no obligation to", "the right to"."""
        w, ww = self.word(j), self.w
        if w in ww.predicates and self.word(j + 1) in ww.predicate_links[ww.predicates[w]]:
            return ww.predicates[w], j + 2
        if w in ww.under and self.word(j + 1) in ww.under_determiners and self.word(j + 2) in ww.nouns:
            return ("duty!" if self.word(j + 1) in ww.noun_negators else "duty"), j + 3
        k = j + 1 if w in ww.noun_determiners else j
        if self.word(k) in ww.nouns and self.word(k + 1) in ww.noun_links:
            base = ww.nouns[self.word(k)]
            return (base + "!" if w in ww.noun_negators else base), k + 2
        return "", j

    def _build(self, i: int, base: str, j: int, negated: bool = False) -> tuple[Atom, int]:
        j, neg = self._negators(j)
        base, j, negated = self._inner_predicate(base, j, negated ^ neg)
        if base.endswith("!"):
            base, negated = base[:-1], not negated
        negated ^= self._clause_negator(j)
        modal_start = start = self.tokens[i].start
        sub = self._subject_negator(i)
        if sub is not None:
            negated = not negated
            sub -= 1 if self.word(sub - 1) in self.w.negator_leads else 0
            start = self.tokens[sub].start
        self.used.update(range(sub if sub is not None else i, j))
        end_tok = max(j - 1, i)
        j, negated, (actor, actor_start, actor_end) = self._subject(modal_start, self.tokens[end_tok].end, j, negated)
        verb_i = self._verb(j)
        verb_end = self.tokens[verb_i].end if verb_i is not None else self.tokens[end_tok].end
        end = self.tokens[end_tok].end
        attrs = (("actor", actor), ("actor_start", str(actor_start)), ("actor_end", str(actor_end)),
                 ("verb_end", str(verb_end)))
        atom = Atom("modality", "modal", _combine(base, negated), self.text[start:end], start, end, self._stem(verb_i), attrs)
        return atom, j

    def _clause_negator(self, j: int) -> bool:
        """Whether a negator later in the modal's clause negates it ("darf die Daten nicht an Dritte
        weitergeben"); the negator is then the modal's, not a free negation."""
        if not self.w.clause_negators:
            return False
        for k in range(j, len(self.tokens)):
            w = self.word(k)
            if w in _CLAUSE_ENDS or w in self.w.aux or k in self.used:
                return False
            if w in self.w.clause_negators:
                self.used.add(k)
                return True
        return False

    def _inner_predicate(self, base: str, j: int, negated: bool) -> tuple[str, int, bool]:
        """"may be required to", "shall have the right to": the predicate after the modal gives the class."""
        if self.word(j) not in self.w.infinitives or base not in ("obligation", "permission", "recommendation"):
            return base, j, negated
        k, neg2 = self._negators(j + 1)
        inner, end = self._predicate(k)
        if not inner:
            return base, j, negated
        if base == "permission" and inner.startswith("duty"):
            inner = "contingent" + ("!" if inner.endswith("!") else "")  # "may be required to": a duty that may arise
        return inner, end, negated ^ neg2

    def _subject(self, modal_start: int, after: int, j: int, negated: bool) -> tuple[int, bool, tuple[str, int, int]]:
        """Who acts: a party right after the modal ("in no event will Provider be liable"), else the one before it."""
        inverted = next((p for p in self.parties if 0 <= p.start - after <= 5
                         and self.w.inverted_subject.fullmatch(self.low, after, p.start)), None)
        if inverted is None:
            return j, negated, self._actor(modal_start, j)
        j = next((k for k in range(j, len(self.tokens)) if self.tokens[k].start >= inverted.end), j)
        j, neg = self._negators(j)
        return j, negated ^ neg, (inverted.side, inverted.start, inverted.end)

    def _subject_negator(self, i: int) -> int | None:
        """"Neither party shall", "No Confidential Information may", "in no event shall": the negator before."""
        first = self._sentence_negator(i)
        if first is not None:
            return first
        for k in range(i - 1, max(-1, i - 5), -1):
            w = self.word(k)
            if w in self.w.stop_lookback:
                return None
            if w in self.w.subject_negators and k not in self.used:
                return k
        return None

    def _sentence_negator(self, i: int) -> int | None:
        """"No failure or delay by either party in exercising any right shall operate as a waiver": a
        sentence that opens with "No" / "Nothing" / "Neither" negates its first modal, however long the
        subject, when no comma, semicolon or other modal comes between."""
        k = i - 1
        while k >= 0 and self.word(k) not in (".", ";", ":", ",") and k not in self.used and self.word(k) not in self.w.aux:
            k -= 1
        start = k + 1
        if start >= i - 4 or self.word(k) == "," or (k >= 0 and k in self.used):
            return None  # short subjects are read by the lookback; a comma may open a new clause
        return start if self.word(start) in self.w.sentence_negators and start not in self.used else None

    def _verb(self, j: int) -> int | None:
        for k in range(j, min(len(self.tokens), j + 6)):
            w = self.word(k)
            if w.isalpha() and w not in self.w.skip_to_verb and not self._adverb(w):
                return k
        return None

    def _actor(self, start: int, j: int) -> tuple[str, int, int]:
        """The side that acts: a passive's "by" agent, else the last party named before the modal."""
        if self.word(j) in self.w.passive:
            nxt = self.word(j + 1)
            if self._participle(nxt):
                return self._agent(j + 2)
        boundary = max(self.low.rfind(c, 0, start) for c in ".;:")
        before = [p for p in self.parties if boundary < p.start and p.end <= start and start - p.end < 120
                  and not self.w.appositive.search(self.low, max(0, p.start - 8), p.start)]  # "Each party, as Recipient, shall"
        if not before:
            return "", start, start
        return before[-1].side, before[-1].start, before[-1].end

    def _participle(self, word: str) -> bool:
        if word.endswith(self.w.participle_endings) or word in self.w.passive_irregular:
            return True
        return any(word.startswith(p) and word[len(p):] in self.w.passive_irregular for p in self.w.participle_prefixes)

    def _agent(self, j: int) -> tuple[str, int, int]:
        for k in range(j, min(len(self.tokens), j + 10)):
            w = self.word(k)
            if w in (".", ";", ","):
                break
            if w in self.w.agent:
                after = self.tokens[k].end
                party = next((p for p in self.parties if 0 <= p.start - after <= 5), None)
                if party is not None:
                    return party.side, party.start, party.end
        return "", -1, -1

    def negation_atoms(self) -> list[Atom]:
        atoms = []
        for i, t in enumerate(self.tokens):
            found = self._failure(i, t)
            if found is False:
                continue  # a verb of failing with no verb after it
            if found is None:
                found = self._free_negation(i, t)
            if found is not None:
                atoms.append(found)
        return atoms

    def _failure(self, i: int, t) -> Atom | None | bool:
        """"fails to cure" == "does not cure"; "falls outside" == "is not within". False: a verb of failing
        that governs nothing."""
        w = self.w
        # the noun only with its party ("the Buyer's failure to inspect"): "any delay or failure to perform"
        # names an event and negates nothing
        owned = t.word not in w.failure_nouns or self.word(i - 1).endswith(w.possessive_ending) or self.word(i - 1) in w.possessives
        if t.word in w.fail and self.word(i + 1) in w.to_infinitive and owned:
            verb_i = self._verb(i + 2)
            if verb_i is None:
                return False
            return Atom("negation", "negation", "not", self.text[t.start:self.tokens[verb_i].end],
                        t.start, self.tokens[verb_i].end, self._stem(verb_i), (("negator", t.word),))
        if t.word in w.outside and self.word(i - 1) in w.outside_verbs and i not in self.used:
            return Atom("negation", "negation", "not", self.text[self.tokens[i - 1].start:t.end],
                        self.tokens[i - 1].start, t.end, "", (("negator", t.word),))
        return None

    def _free_negation(self, i: int, t) -> Atom | None:
        if i in self.used or t.word not in self.w.free_negators:
            return None
        if t.word in self.w.number_signs and self.word(i + 1) in (".", "-"):
            return None  # "No. 5": a number sign
        verb_i = self._verb(i + 1)
        end = self.tokens[verb_i].end if verb_i is not None and verb_i - i <= 3 else t.end
        return Atom("negation", "negation", "not", self.text[t.start:end], t.start, end, self._stem(verb_i),
                    (("negator", t.word),))


def scanner(text: str, low: str, mask: Mask, lex: LanguagePack) -> _Scanner:
    """The clause's modal scanner, shared by modality, negation and party mentions (built once, on
    the words no earlier family claimed)."""
    if "modality.scanner" not in mask.scratch:
        mask.scratch["modality.scanner"] = _Scanner(text, low, mask, lex)
    return mask.scratch["modality.scanner"]


def extract_modalities(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Modal atoms with the side that acts; they absorb "shall not", "Neither party shall"."""
    atoms = scanner(text, low, mask, lex).modal_atoms()
    for a in atoms:
        mask.take(a.start, a.start + 1)
    return atoms


def extract_negations(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """The free negations a modal did not absorb, anchored on the word they negate."""
    atoms = scanner(text, low, mask, lex).negation_atoms()
    for a in atoms:
        mask.take(a.start, a.start + 1)
    return atoms


def extract_party_mentions(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Parties the lexicon names. "each party" / "either party" are kept apart (group "both"): they
    fill roles ("notify each party") but are not a side of the deal a clause can name instead of another."""
    return [Atom("party", "both" if p.side == "both" else "mention", p.side, text[p.start:p.end], p.start, p.end)
            for p in scanner(text, low, mask, lex).parties if not p.side.startswith("name:")]
