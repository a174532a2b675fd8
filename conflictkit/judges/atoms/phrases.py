"""Qualifiers, exceptions and scope words, from a table of phrases.

Each row is ``(pattern, family, group, key)``: atoms of one group are compared with each other
(an "exclusive" licence becoming "non-exclusive" is a change within the group ``exclusivity``;
"prior written consent" becoming "prior consent" is a ``written`` atom present on one side
only). Synonyms share a key, so "written notice" == "notice in writing" and "unless" ==
"except as". ``IDIOMS`` are phrases holding a negator that negate nothing ("including but not
limited to", "not to be unreasonably withheld", "without undue delay"): they are claimed before
modality and negation are read, so their "not"/"without" is never counted as a negation.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.text import Atom, Mask

_W = r"(?:withheld|delayed|conditioned|withhold|delay|condition)"
IDIOMS: list[tuple[str, str, str, str]] = [
    (rf"\b(?:(?:shall|will|may|must)\s+)?not\s+(?:to\s+)?(?:be\s+)?unreasonably\s+{_W}(?:\s*,?\s*(?:or|and)?\s*{_W})*",
     "qualifier", "consent_standard", "not unreasonably withheld"),
    (r"\bwithout\s+(?:(?:undue|unreasonable|any)\s+)?delay\b", "qualifier", "timing", "promptly"),
    (r"\bat\s+no\s+(?:additional\s+|extra\s+)?(?:cost|charge)\b|\bfree\s+of\s+charge\b|\bwithout\s+(?:additional\s+)?charge\b",
     "qualifier", "expense", "no charge"),
    (r"\bnon[\s-]?exclusive(?:ly)?\b|\bnot\s+exclusive\b", "scope", "exclusivity", "non-exclusive"),
    (r"\bnon[\s-]?transfer{1,2}able\b|\bnot\s+transfer{1,2}able\b|\bnon[\s-]?assignable\b", "scope", "transfer", "non-transferable"),
    (r"\bnon[\s-]?sub[\s-]?licen[cs]e?able\b|\bwithout\s+(?:the\s+|any\s+)?right\s+to\s+(?:grant\s+)?sub[\s-]?licen[cs]e",
     "scope", "sublicense", "non-sublicensable"),
    (r"\bnon[\s-]?refundable\b|\bnot\s+refundable\b", "scope", "refund", "non-refundable"),
    (r"\bnon[\s-]?cancell?able\b|\bnot\s+cancell?able\b", "scope", "cancel", "non-cancellable"),
    (r"\bnon[\s-]?binding\b|\bnot\s+binding\b", "scope", "binding", "non-binding"),
    (r"\b(?:does|do|did|shall|will|must|may)\s+not\s+include\b|\bnot\s+including\b|\b(?:is|are|be|been)\s+not\s+included\b",
     "scope", "inclusion", "excluding"),
    (r"\bbut\s+(?:(?:is|are|be)\s+)?not\s+limited\s+to\b|\bwithout\s+limitation\b|\bwithout\s+limiting\b|\bwhether\s+or\s+not\b|"
     r"\bnot\s+only\b|\bif\s+not\s+(?:already|otherwise)\b|\bwithout\s+prejudice\s+to\b|\bnone\s+of\s+which\b",
     "ignore", "", ""),
]
PHRASES: list[tuple[str, str, str, str]] = [
    # qualifiers
    (r"\bsole\s+(?:and\s+absolute\s+)?(?:discretion|opinion)\b|\babsolute\s+discretion\b|\bsole\s+judgm?ent\b"
     r"|\b(?:at|in)\s+(?:its|their|his|her|our|the\s+[\w-]+'s?)\s+(?:own\s+)?(?:discretion|opinion|judgm?ent)\b",
     "qualifier", "discretion", "sole discretion"),
    (r"\breasonable\s+(?:discretion|opinion|judgm?ent)\b", "qualifier", "discretion", "reasonable discretion"),
    (r"\b(?:best|utmost)\s+(?:efforts|endeavou?rs|steps|measures|actions)\b", "qualifier", "efforts", "best efforts"),
    (r"\bcommercially\s+reasonable\s+(?:efforts|endeavou?rs|steps|measures|actions)\b", "qualifier", "efforts", "commercially reasonable efforts"),
    (r"\b(?:all\s+)?reasonable\s+(?:efforts|endeavou?rs|steps|measures|actions|precautions)\b", "qualifier", "efforts", "reasonable efforts"),
    (r"\bgood\s+faith\s+(?:efforts|endeavou?rs)\b", "qualifier", "efforts", "good faith efforts"),
    (r"\b(?:endeavou?r|attempt|try|seek|aim)s?\s+to\b", "qualifier", "efforts", "endeavour"),
    (r"\bto\s+(?:the\s+best\s+of\s+)?(?:its|their|his|her|our|my|the(?:\s+\w+'s)?)\s+(?:actual\s+)?knowledge\b"
     r"|\bactual\s+knowledge\b", "qualifier", "knowledge", "knowledge"),
    (r"\bundisputed\b", "qualifier", "undisputed", "undisputed"),
    (r"\b(?:documented|substantiated|verifiable)\b", "qualifier", "documented", "documented"),
    (r"\bout[\s-]of[\s-]pocket\b", "qualifier", "out-of-pocket", "out-of-pocket"),
    (r"\bdirectly\s+or\s+indirectly\b", "scope", "reach", "directly or indirectly"),
    (r"\bgross(?:ly)?\s+negligen(?:ce|t)\b", "qualifier", "fault", "gross negligence"),
    (r"\bwil{1,2}ful\s+misconduct\b|\bintentional\s+misconduct\b", "qualifier", "fault", "wilful misconduct"),
    (r"\bnegligen(?:ce|t)\b", "qualifier", "fault", "negligence"),
    (r"\bfraud(?:ulent)?\b", "qualifier", "fault", "fraud"),
    (r"\bbad\s+faith\b", "qualifier", "fault", "bad faith"),
    (r"\bgood\s+faith\b", "qualifier", "good faith", "good faith"),
    (r"\bprior\b(?!\s+to\b)|\bin\s+advance\b(?!\s+of\b)|\badvance\b(?=\s+(?:written\s+)?(?:notice|consent|approval))",
     "qualifier", "prior", "prior"),
    (r"\bwritten\b|\bin\s+(?:a\s+)?writing\b", "qualifier", "written", "written"),
    (r"\breasonabl[ey]\b", "qualifier", "reasonable", "reasonable"),
    (r"\bmaterial(?:ly)?\b|\bsubstantial(?:ly)?\b", "qualifier", "material", "material"),
    (r"\bpersistent(?:ly)?\b|\brepeated(?:ly)?\b|\brecurring\b", "qualifier", "material", "persistent"),
    (r"\bserious(?:ly)?\b|\bfundamental\b|\bsignificant(?:ly)?\b", "qualifier", "material", "serious"),
    (r"\bpromptly\b|\bprompt\b", "qualifier", "timing", "promptly"),
    (r"\bimmediate(?:ly)?\b|\bforthwith\b", "qualifier", "timing", "immediately"),
    (r"\bas\s+soon\s+as\s+(?:reasonably\s+)?(?:practicable|possible)\b", "qualifier", "timing", "promptly"),
    (r"\bknowing(?:ly)?\b|\bintentional(?:ly)?\b|\bwil{1,2}ful(?:ly)?\b|\bdeliberate(?:ly)?\b", "qualifier", "intent", "knowingly"),
    (r"\bmutual(?:ly)?\b", "qualifier", "mutual", "mutual"),
    (r"\bat\s+(?:its|their|his|her|(?:the\s+)?[A-Za-z-]+'s?)\s+(?:own\s+|sole\s+)?(?:cost|expense)(?:\s+and\s+(?:expense|cost))?\b",
     "qualifier", "expense", "own expense"),
    (r"\bindirect\b", "qualifier", "damages", "indirect"),
    (r"\bconsequential\b", "qualifier", "damages", "consequential"),
    (r"\bincidental\b", "qualifier", "damages", "incidental"),
    (r"\bpunitive\b|\bexemplary\b", "qualifier", "damages", "punitive"),
    (r"\bspecial\s+(?=(?:\w+\s+){0,4}damages)", "qualifier", "damages", "special"),
    (r"\bdirect\b", "qualifier", "damages", "direct"),
    # exceptions and conditions
    (r"\bunless\b|\bexcept\b|\bsave\s+(?:as|for|where)\b|\bother\s+than\b|\bexcepting\b|\bhowever\b", "exception", "exception", "except"),
    (r"\bprovided,?\s+(?:however,?\s+)?that\b|\bon\s+condition\s+that\b|\bconditional\s+(?:up)?on\b|\bcontingent\s+(?:up)?on\b|\b(?:as|so)\s+long\s+as\b",
     "exception", "condition", "provided that"),
    (r"\bonly\s+if\b|\bif\s+and\s+only\s+if\b|\bsolely\s+if\b", "exception", "only", "only"),
    # "with / requires / subject to the other party's consent": allowed only with that consent
    (r"\b(?:with|requires?|needs?|subject\s+to)\b(?=\s+(?:(?:the|its|their|his|her|our|[\w-]+'s?|prior|written|express|"
     r"advance|of|both|all|the\s+parties)\s+){0,5}(?:consent|approval|authori[sz]ation|permission|agreement\s+of)\b)",
     "exception", "only", "only"),
    (r"\b(?:limited|restricted|confined)\s+to\b", "exception", "only", "only"),
    # "shall restrict access to X to its employees" == "access only to its employees"
    (r"\b(?:limit|restrict|confine)s?\b(?=(?:\s+[\w'-]+){1,10}\s+to\b)", "exception", "only", "only"),
    (r"\bsubject\s+to\b", "exception", "subject to", "subject to"),
    (r"\bto\s+the\s+extent\b", "exception", "to the extent", "to the extent"),
    (r"\bnotwithstanding\b", "exception", "notwithstanding", "notwithstanding"),
    (r"\bonly\b|\bsolely\b|\bexclusively\s+(?=for|to|in|with|from|by|through|via|on)", "exception", "only", "only"),
    # scope
    (r"\bexclusive\s+of\b|\bexcluding\b|\bexcludes?\b", "scope", "inclusion", "excluding"),
    (r"\binclusive\s+of\b|\bincluding\b|\bincludes?\b|\bsuch\s+as\b|\bfor\s+(?:example|instance)\b|\be\.g\.", "scope", "inclusion", "including"),
    (r"\bsole\s+and\s+exclusive\b|\bexclusive(?:ly)?\b|\bsole\b", "scope", "exclusivity", "exclusive"),
    (r"\binternal\b|\bpersonal\b|\bnon[\s-]?commercial\b", "scope", "purpose", "internal"),
    (r"\bcommercial(?:ly)?\b(?!\s+reasonable)", "scope", "purpose", "commercial"),
    (r"\baffiliates?\b", "scope", "affiliates", "affiliates"),
    (r"\bthird[\s-]part(?:y|ies)\b", "scope", "third-party", "third-party"),
    (r"\bunlimited\b|\bwithout\s+(?:any\s+)?limit\b|\bno\s+limit\b", "scope", "limit", "unlimited"),
    (r"\btransfer{1,2}able\b|\bassignable\b", "scope", "transfer", "transferable"),
    (r"\bsub[\s-]?licen[cs]e?able\b|\bwith\s+(?:the\s+)?right\s+to\s+(?:grant\s+)?sub[\s-]?licen[cs]e", "scope", "sublicense", "sublicensable"),
    (r"\birrevocabl[ey]\b", "scope", "revocability", "irrevocable"),
    (r"\brevocabl[ey]\b", "scope", "revocability", "revocable"),
    (r"\bperpetual(?:ly)?\b|\bin\s+perpetuity\b", "scope", "duration", "perpetual"),
    (r"\bterm[\s-]limited\b|\btime[\s-]limited\b|\bfor\s+the\s+(?:term|duration)\b", "scope", "duration", "term-limited"),
    (r"\broyalty[\s-]free\b|\bfully[\s-]paid(?:[\s-]up)?\b|\bpaid[\s-]up\b", "scope", "royalty", "royalty-free"),
    (r"\broyalty[\s-]bearing\b", "scope", "royalty", "royalty-bearing"),
    (r"\brefundable\b", "scope", "refund", "refundable"),
    (r"\bcancell?able\b", "scope", "cancel", "cancellable"),
    (r"\bbinding\b", "scope", "binding", "binding"),
    (r"\bin\s+whole\s+or\s+in\s+part\b|\bin\s+part\b|\bpartial(?:ly)?\b|\b(?:all\s+or\s+)?any\s+(?:part|portion)\s+(?:of|thereof)\b",
     "scope", "partial", "in whole or in part"),
    (r"\bin\s+(?:its\s+)?(?:whole|entirety)\b", "scope", "partial", "in whole"),
    (r"\bany\s+and\s+all\b|\ball\b|\bany\b|\beach\b|\bevery\b", "scope", "quantity", "all"),
    (r"\bsome\b|\bcertain\b|\b(?:(?:a|one)[\s-])?half\s+of\b|\ba\s+(?:part|portion|share|percentage|proportion|fraction)\s+of\b"
     r"|\bpart\s+of\b|\b(?:the\s+)?(?:majority|minority)\s+of\b", "scope", "quantity", "some"),
]
_IDIOMS = [(re.compile(p), f, g, k) for p, f, g, k in IDIOMS]
_PHRASES = [(re.compile(p), f, g, k) for p, f, g, k in PHRASES]


def _scan(text: str, low: str, mask: Mask, table) -> list[Atom]:
    atoms: list[Atom] = []
    for pattern, family, group, key in table:
        for m in pattern.finditer(low):
            start, end = m.start(), m.start() + len(m.group().rstrip())
            if end <= start or not mask.free(start, end):
                continue
            mask.take(start, end)
            if family != "ignore":
                atoms.append(Atom(family, group, key, text[start:end], start, end))
    return atoms


def extract_idioms(text: str, low: str, mask: Mask) -> list[Atom]:
    """Phrases that hold a negator but negate nothing; run before modality and negation."""
    return _scan(text, low, mask, _IDIOMS)


def extract_phrases(text: str, low: str, mask: Mask) -> list[Atom]:
    """Qualifiers, exceptions and scope words; run after the other families have claimed their words."""
    return _scan(text, low, mask, _PHRASES)
