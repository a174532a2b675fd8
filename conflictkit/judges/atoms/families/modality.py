"""Modality and who acts: shall / may / shall not / need not, and the side of the party that acts."""

from __future__ import annotations


from conflictkit.judges.atoms.compare import Difference, _absent, _both, _take, names
from conflictkit.judges.atoms.extract import ClauseAtoms
from conflictkit.judges.atoms.family import ComparisonContext, Family
from conflictkit.judges.atoms.text import Atom, Mask, words_of
from conflictkit.judges.atoms.modal import extract_modalities
from conflictkit.judges.atoms.synonyms import keys
from conflictkit.judges.atoms.text import lowered
from conflictkit.lexicon import LanguagePack


_NEGATIVE = {"prohibition", "no_obligation", "discouraged"}


_POLARITY_FLIPS = {frozenset(p) for p in (("obligation", "prohibition"), ("permission", "prohibition"),
                                          ("obligation", "no_obligation"), ("recommendation", "discouraged"))}


_WHAT = {"obligation": "a duty", "permission": "a permission", "prohibition": "a prohibition",
         "no_obligation": "no duty", "recommendation": "a recommendation", "discouraged": "a recommendation not to",
         "contingent_obligation": "a duty that may arise", "contingent_no_obligation": "no duty that may arise"}


def describe(key: str) -> str:
    """A modal class in words: "obligation" -> "a duty"."""
    return _WHAT.get(key, key.replace("_", " "))


def _actor_quote(clause: ClauseAtoms, atom: Atom) -> str:
    """The party and the duty it has: "Provider shall indemnify", "shall be owned by the Licensor"."""
    start, end = int(atom.attr("actor_start", "-1")), int(atom.attr("actor_end", "-1"))
    verb_end = max(int(atom.attr("verb_end", str(atom.end))), atom.end)
    if 0 <= start < atom.start:
        return clause.text[start:verb_end]
    if start > atom.start:  # a passive's agent: "shall be paid by the Agent"
        return clause.text[atom.start:end]
    return clause.text[atom.start:verb_end]


def _actor_name(clause: ClauseAtoms, atom: Atom) -> str:
    start, end = int(atom.attr("actor_start", "-1")), int(atom.attr("actor_end", "-1"))
    return clause.text[start:end] if 0 <= start < end else ""


def _who_acts(ref: ClauseAtoms, a: Atom, inp: ClauseAtoms, b: Atom) -> str:
    """"'Provider' -> 'Customer' as the party that acts ('shall indemnify')": the clauses' own words."""
    verb_end = max(int(a.attr("verb_end", str(a.end))), a.end)
    return f"'{_actor_name(ref, a)}' -> '{_actor_name(inp, b)}' as the party that acts ('{ref.text[a.start:verb_end]}')"


def opposites(lex: LanguagePack) -> frozenset[frozenset[str]]:
    """Pairs of verb stems that are opposites (``verbs.yaml``): "keep" / "disclose", "comply" / "breach"."""
    return lex.memo("verbs.opposites", lambda: frozenset(
        frozenset((x, y)) for row in lex.get("verbs.opposites") for x in row["positive"] for y in row["negative"]))


def _antonyms(a: Atom, b: Atom, lex: LanguagePack) -> bool:
    """An obligation to do X and a prohibition of X's opposite ("keep confidential" / "not disclose")."""
    if {a.key, b.key} != {"obligation", "prohibition"}:
        return False
    return frozenset((a.anchor, b.anchor)) in opposites(lex)


def _entitled_to_receive(a: Atom, b: Atom, lex: LanguagePack) -> bool:
    """A right to receive X and a plain "shall receive X": the same benefit of the receiving party
    ("is entitled to be paid" / "shall be paid"), whichever clause says it which way."""
    if {a.key, b.key} != {"permission", "obligation"} or a.anchor != b.anchor:
        return False
    right = a if a.key == "permission" else b
    entitlements = lex.words("modality.entitlements")
    receiving = lex.memo("modality.receiving_stems", lambda: frozenset(
        words_of(lex).stem(w) for w in lex.words("modality.receiving_verbs")) | lex.words("modality.receiving_verbs"))
    return a.anchor in receiving and any(w in entitlements for w in right.text.lower().split())


def _limit_verb(clause: ClauseAtoms, lex: LanguagePack) -> bool:
    m = lex.data.modality
    return any(a.group == "only" and a.text.lower().startswith(tuple(m.limit_verbs))
               and not a.text.lower().endswith(tuple(m.limit_links)) for a in clause.of("exception"))


def _has_only(clause: ClauseAtoms) -> bool:
    return any(a.group == "only" for a in clause.of("exception"))


def _actor(atom: Atom, other: ClauseAtoms) -> str:
    """The side that acts; a party known only by its name ("Acme") counts only where the other
    clause names it too (otherwise the template was renamed, and nothing says who is who)."""
    actor = atom.attr("actor")
    if actor.startswith("name:") and not names(other.text, actor[5:]):
        return ""
    return actor


def _compare_modality(ref: ClauseAtoms, inp: ClauseAtoms, diffs: list[Difference], lex: LanguagePack,
                      context: ComparisonContext | None = None) -> tuple[int, int, bool]:
    """Modal classes and who acts; returns how many negative modals each side has left unpaired, and
    whether a ban and a permission were read as one limit ("shall not keep more than two" == "may
    keep no more than two": the negation moved into the number's comparator)."""
    r, i = ref.of("modality"), inp.of("modality")
    actors = {id(a): _actor(a, inp) for a in r} | {id(b): _actor(b, ref) for b in i}
    pairs, left_r, left_i = _pairs(r, i, actors)
    bound_flips = context is not None and context.fact("numbers.bound_flips")
    restricted = _has_only(ref) and _has_only(inp)
    moved_into_bound = False
    for a, b in pairs:
        found = _class_change(a, b, ref, inp, lex, restricted, bound_flips)
        if found is _MOVED_INTO_BOUND:
            moved_into_bound = True
        elif found is not None:
            diffs.append(found)
        x, y = actors[id(a)], actors[id(b)]
        if _both(x, y):
            weight = "party_mutuality" if "both" in (x, y) else "party"
            diffs.append(Difference("party", weight, _actor_quote(ref, a), _actor_quote(inp, b), _who_acts(ref, a, inp, b)))
    left_r, left_i = _absent(left_r, inp, "modality"), _absent(left_i, ref, "modality")
    if [x.key for x in left_r + left_i] == ["prohibition"] and bound_flips:
        moved_into_bound = True  # "liability is capped at $X" == "neither party shall be liable for more than $X"
    diffs += [_one_sided(a, ref, inp, "reference", lex) for a in left_r]
    diffs += [_one_sided(b, inp, ref, "input", lex) for b in left_i]
    return sum(a.key in _NEGATIVE for a in left_r), sum(b.key in _NEGATIVE for b in left_i), moved_into_bound


def _pairs(r: list[Atom], i: list[Atom], actors: dict[int, str]) -> tuple[list[tuple[Atom, Atom]], list[Atom], list[Atom]]:
    """The modals of the two clauses paired (same class and verb and actor first, then looser), and
    each side's modals left over."""
    def actor_ok(a: Atom, b: Atom) -> bool:
        return not _both(actors[id(a)], actors[id(b)])

    _take(r, i, lambda a, b: a.key == b.key and a.anchor == b.anchor and actor_ok(a, b))
    _take(r, i, lambda a, b: a.key == b.key and actor_ok(a, b))
    pairs = _take(r, i, lambda a, b: a.anchor == b.anchor and bool(a.anchor))
    pairs += _take(r, i, lambda a, b: a.key == b.key)
    n = min(len(r), len(i))
    pairs += list(zip(r[:n], i[:n]))
    return pairs, r[n:], i[n:]


_MOVED_INTO_BOUND = Difference("modality", "modality", None, None, "the negation moved into a number's bound")


def _class_change(a: Atom, b: Atom, ref: ClauseAtoms, inp: ClauseAtoms, lex: LanguagePack, restricted: bool,
                  bound_flips: bool) -> Difference | None:
    """The difference of two paired modals' classes, None when they say the same thing, or
    ``_MOVED_INTO_BOUND`` when a ban and a permission are one limit with the number's comparator flipped."""
    # a restriction said two ways: "shall not use X other than for P" / "shall use X solely for P",
    # "shall limit disclosure to employees" / "may disclose only to employees"; a plain "shall only X" ->
    # "may only X" is still a change of modality
    restricted_here = restricted and (a.attr("restrictive") or b.attr("restrictive")
                                      or _limit_verb(ref, lex) or _limit_verb(inp, lex))
    if a.key != b.key and _antonyms(a, b, lex):
        return None  # "shall keep X confidential" == "shall not disclose X": a duty restated as a ban on its opposite
    if _entitled_to_receive(a, b, lex):
        return None  # "is entitled to receive X" == "shall receive X"
    if a.key != b.key and restricted_here and {a.key, b.key} == {"obligation", "permission"}:
        # "shall use it solely for P" == "may use it only for P": with "only" on both sides the modal adds little
        return Difference("modality", "modality_presence", a.text, b.text, f"'{a.text}' -> '{b.text}' in a restriction said both ways")
    if {a.key, b.key} == {"permission", "prohibition"} and bound_flips:
        return _MOVED_INTO_BOUND
    if a.key != b.key:
        kind = "negation" if frozenset((a.key, b.key)) in _POLARITY_FLIPS else "modality"
        return Difference(kind, kind, a.text, b.text, f"'{a.text}' -> '{b.text}': {describe(a.key)} becomes {describe(b.key)}")
    return None


_DUTIES = {"obligation", "prohibition"}


def _one_sided(atom: Atom, here: ClauseAtoms, other: ClauseAtoms, side: str, lex: LanguagePack) -> Difference:
    """A modal with no counterpart. A duty or a ban on an act the other clause only describes
    ("we keep backups" -> "we must keep backups") binds where the other did not: ``duty_presence``.
    Otherwise the other clause says it another way ("is responsible for keeping"): ``modality_presence``."""
    verb_end = max(int(atom.attr("verb_end", str(atom.end))), atom.end)
    quote = here.text[atom.start:verb_end]
    weight = "modality_presence"
    m = lex.data.modality
    between = f" {here.text[atom.end:verb_end].lower()} "
    binding = atom.text.split()[-1].lower() in m.binding_words and not any(f" {w} " in between for w in m.passive)
    if (binding and atom.key in _DUTIES and atom.anchor and atom.attr("actor")
            and not (lex.words("modality.duty_words") & {w for w, _, _ in other.words})):
        verb = keys(atom.anchor, lex)
        if any(keys(w, lex) & verb for w, _, _ in other.words if len(w) > 2):
            weight = "duty_presence"
    ref_q, inp_q = (quote, None) if side == "reference" else (None, quote)
    return Difference("modality", weight, ref_q, inp_q, f"'{quote}' only in the {side}: {describe(atom.key)}")


def _pairing(context: ComparisonContext) -> tuple[list[Difference], tuple[int, int], bool]:
    diffs: list[Difference] = []
    *negative_left, moved_into_bound = _compare_modality(context.ref, context.inp, diffs, context.lexicon, context)
    return diffs, (negative_left[0], negative_left[1]), moved_into_bound


def extract(text: str, lexicon: LanguagePack, mask: Mask) -> list[Atom]:
    return extract_modalities(text, lowered(text), mask, lexicon)


def compare(ref: ClauseAtoms, inp: ClauseAtoms, context: ComparisonContext) -> list[Difference]:
    return list(context.fact("modality.pairing")[0])


FAMILY = Family(
    name="modality", claims=50, compares=10, extract=extract, compare=compare,
    weights={
        "modality": (0.85, "obligation <-> permission, prohibition <-> no obligation..."),
        "modality_presence": (0.2, "a modal on one side with no counterpart (often rewording)"),
        "duty_presence": (0.8, "a duty or a ban on one side only where the other states no duty for the same act "
                               "(\"may keep\" -> \"must keep\")"),
        "party": (0.9, "the party that acts is on the other side of the deal"),
        "party_mutuality": (0.85, "a mutual duty becomes one party's, or the reverse"),
    },
    facts={
        "modality.pairing": _pairing,
        # negative modals each side has left unpaired: "is not liable" == "shall not be liable"
        "modality.negative_left": lambda c: c.fact("modality.pairing")[1],
        # who acts changed: the party mentions would say the same thing again
        "modality.actor_changed": lambda c: any(d.type == "party" for d in c.fact("modality.pairing")[0]),
    },
)
