"""Governing law, venue, jurisdiction, territory and forum (courts vs arbitration).

Each place is normalized ("the State of New York" == "New York"; "U.K." == "United Kingdom")
and given a role from the words around it in its sentence: ``law`` ("laws of", "governed by",
"Delaware law"), ``forum`` ("courts of", "venue", "jurisdiction", "arbitration seated in") or
``territory`` (anywhere else: "in the United States", "worldwide"). A place is compared only
with places of the same role, so moving the venue is a jurisdiction change and moving the
governing law is a governing-law change.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.text import Atom, Mask

_US_STATES = (
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho "
    "illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota "
    "mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah "
    "vermont virginia washington wisconsin wyoming"
).split() + ["new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota",
             "rhode island", "south carolina", "south dakota", "west virginia", "district of columbia"]
_COUNTRIES = [
    "england and wales", "england", "wales", "scotland", "northern ireland", "united kingdom", "ireland",
    "united states of america", "united states", "canada", "mexico", "brazil", "argentina", "chile", "germany",
    "france", "spain", "portugal", "italy", "netherlands", "belgium", "luxembourg", "switzerland", "austria",
    "sweden", "norway", "denmark", "finland", "poland", "czech republic", "greece", "israel", "india", "china",
    "japan", "singapore", "hong kong", "australia", "new zealand", "south africa", "united arab emirates",
    "saudi arabia", "south korea", "korea", "taiwan", "european union", "european economic area", "turkey",
    "ontario", "quebec", "british columbia", "alberta", "new south wales", "victoria", "queensland",
    "bavaria", "cayman islands", "bermuda", "jersey", "guernsey", "isle of man", "philippines", "vietnam",
    "indonesia", "malaysia", "thailand", "nigeria", "kenya", "egypt", "colombia", "peru", "ukraine", "russia",
    # regions a territory is often drawn as
    "north america", "south america", "latin america", "central america", "the americas", "europe", "asia",
    "africa", "middle east", "asia pacific", "asia-pacific", "apac", "emea", "oceania", "scandinavia", "nordics",
    "benelux", "dach", "gcc",
]
_CITIES = [
    "new york city", "san francisco", "los angeles", "san jose", "santa clara", "palo alto", "seattle", "boston",
    "chicago", "austin", "dallas", "houston", "denver", "miami", "atlanta", "wilmington", "london", "dublin",
    "paris", "berlin", "munich", "frankfurt", "amsterdam", "brussels", "zurich", "geneva", "stockholm",
    "toronto", "vancouver", "montreal", "sydney", "melbourne", "tokyo", "tel aviv", "mumbai", "bangalore",
    "edinburgh", "manchester", "madrid", "barcelona", "milan", "rome", "vienna", "copenhagen", "oslo", "helsinki",
    "warsaw", "prague", "lisbon", "luxembourg city", "abu dhabi", "dubai", "seoul", "shanghai", "beijing",
    "washington, d.c.", "washington d.c.",
]
_INSTITUTIONS = {
    "american arbitration association": "aaa", "aaa": "aaa", "jams": "jams", "international chamber of commerce": "icc",
    "icc": "icc", "london court of international arbitration": "lcia", "lcia": "lcia", "siac": "siac",
    "singapore international arbitration centre": "siac", "hkiac": "hkiac", "uncitral": "uncitral",
    "icdr": "icdr", "international centre for dispute resolution": "icdr", "wipo": "wipo",
}
_ALIASES = {
    "united states of america": "united states", "u.s.a.": "united states", "usa": "united states",
    "u.s.": "united states", "us": "united states", "uk": "united kingdom", "u.k.": "united kingdom",
    "great britain": "united kingdom", "britain": "united kingdom", "new york city": "new york",
    "washington, d.c.": "district of columbia", "washington d.c.": "district of columbia",
    "eu": "european union", "eea": "european economic area", "korea": "south korea", "worldwide": "worldwide",
    "england": "england and wales",  # English law and courts are those of England and Wales
}
# "Swiss law", "English courts": a demonym names a place only before law / courts / jurisdiction.
_DEMONYMS = {
    "swiss": "switzerland", "german": "germany", "french": "france", "english": "england and wales",
    "scottish": "scotland", "scots": "scotland", "irish": "ireland", "dutch": "netherlands", "belgian": "belgium",
    "italian": "italy", "spanish": "spain", "portuguese": "portugal", "austrian": "austria", "swedish": "sweden",
    "danish": "denmark", "norwegian": "norway", "finnish": "finland", "polish": "poland", "canadian": "canada",
    "australian": "australia", "japanese": "japan", "chinese": "china", "indian": "india", "israeli": "israel",
    "singaporean": "singapore", "singapore": "singapore", "brazilian": "brazil", "mexican": "mexico",
    "luxembourg": "luxembourg", "hong kong": "hong kong", "new zealand": "new zealand", "federal": "united states",
    "u.s.": "united states", "us": "united states", "american": "united states",
}
_DEMONYM = re.compile(
    r"\b(?P<d>" + "|".join(re.escape(d) for d in sorted(_DEMONYMS, key=len, reverse=True)) + r")"
    r"(?=\s+(?:substantive\s+)?(?:law|laws|courts?|jurisdiction|statutes?|legislation)\b)"
)
# The state or country of each city: "London, England" names no more places than "London".
PARENT = {
    "san francisco": "california", "los angeles": "california", "san jose": "california", "santa clara": "california",
    "palo alto": "california", "seattle": "washington", "boston": "massachusetts", "chicago": "illinois",
    "austin": "texas", "dallas": "texas", "houston": "texas", "denver": "colorado", "miami": "florida",
    "atlanta": "georgia", "wilmington": "delaware", "london": "england and wales", "manchester": "england and wales",
    "edinburgh": "scotland", "dublin": "ireland", "paris": "france", "berlin": "germany", "munich": "germany",
    "frankfurt": "germany", "amsterdam": "netherlands", "brussels": "belgium", "zurich": "switzerland",
    "geneva": "switzerland", "stockholm": "sweden", "toronto": "ontario", "vancouver": "british columbia",
    "montreal": "quebec", "sydney": "new south wales", "melbourne": "victoria", "tokyo": "japan", "tel aviv": "israel",
    "mumbai": "india", "bangalore": "india", "madrid": "spain", "barcelona": "spain", "milan": "italy", "rome": "italy",
    "vienna": "austria", "copenhagen": "denmark", "oslo": "norway", "helsinki": "finland", "warsaw": "poland",
    "prague": "czech republic", "lisbon": "portugal", "abu dhabi": "united arab emirates",
    "dubai": "united arab emirates", "seoul": "south korea", "shanghai": "china", "beijing": "china",
    "england and wales": "united kingdom", "scotland": "united kingdom", "northern ireland": "united kingdom",
    "ontario": "canada", "quebec": "canada", "british columbia": "canada", "alberta": "canada",
    "new south wales": "australia", "victoria": "australia", "queensland": "australia", "bavaria": "germany",
    **{state: "united states" for state in _US_STATES},
}

_ALL = sorted(set(_US_STATES + _COUNTRIES + _CITIES + list(_ALIASES)), key=len, reverse=True)
_PLACE = re.compile(
    r"(?<![\w.])(?:the\s+(?:state|commonwealth|province|county|city|courts?)\s+of\s+)?(?P<p>"
    + "|".join(re.escape(p) for p in _ALL)
    + r")(?P<county>\s+county)?(?![\w])"
)
_CASE_SENSITIVE = {"apac", "emea", "dach", "gcc", "asia", "europe", "africa", "us", "uk", "eu", "eea", "usa", "jersey", "victoria", "georgia", "washington", "india", "china",
                   "turkey", "jordan"}
_INSTITUTION = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in sorted(_INSTITUTIONS, key=len, reverse=True)) + r")\b")
_WORLD = re.compile(r"\b(?:world[\s-]?wide|throughout\s+the\s+world|anywhere(?:\s+in\s+the\s+world)?|global(?:ly)?|"
                    r"in\s+any\s+(?:country|jurisdiction)\s+(?:of|in)\s+the\s+world|"
                    r"in\s+any\s+(?:country|jurisdiction|territory|region|location)(?=\s+(?:where|in\s+which|that)\b|[,.;]|$))")
_LAW = re.compile(r"\b(?:laws?|governed|governing|construed|interpreted|statutes?|legislation)\b")
_DEFINED_TERRITORY = re.compile(r"\bTerritory\b")  # a defined term: the area a grant is limited to
_FORUM = re.compile(r"\b(?:courts?|venue|jurisdiction|forum|arbitra\w*|tribunal|seat(?:ed)?|litigat\w*|"
                    r"proceedings?|disputes?|judicial)\b")
_FORUM_TYPES = [("arbitration", re.compile(r"\barbitra(?:tion|tor|tors|l|ted|te)\b")),
                ("courts", re.compile(r"\bcourts?\b|\blitigation\b|\bjudicial\b"))]


def _role(low: str, start: int, end: int) -> str:
    """law, forum or territory, from the nearest cue word in the same sentence."""
    left_edge = max(low.rfind(c, 0, start) for c in ".;") + 1
    left = low[left_edge:start]
    right_edge = min([i for i in (low.find(c, end) for c in ".;") if i >= 0] or [len(low)])
    right = low[end:min(right_edge, end + 12)]
    if re.match(r"\s*(?:law|laws|state\s+law|statutes?)\b", right):
        return "law"
    cues = [(m.end(), "law") for m in _LAW.finditer(left)] + [(m.end(), "forum") for m in _FORUM.finditer(left)]
    if not cues:
        return "territory"
    return max(cues)[1]


# A place the gazetteer does not know, named after a cue: "the courts of Rotterdam", "seated in Geneva".
_CUED = re.compile(
    r"\b(?:(?:courts?|laws?|seat|venue|tribunals?|located|situated|held|seated|sitting|domiciled)\s+(?:of|in|at)"
    r"|(?:venue|seat|place\s+of\s+arbitration)\s+(?:shall|will|is)\s+be(?:\s+in)?)\s+"
    r"(?:the\s+)?(?P<p>[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})"
)
_NOT_PLACES = {"the", "this", "such", "any", "each", "either", "competent", "applicable", "agreement", "party",
               "parties", "territory", "state", "country", "united"}


def _cued_places(text: str, low: str, mask: Mask) -> list[Atom]:
    atoms = []
    for m in _CUED.finditer(text):
        start, end = m.start("p"), m.end("p")
        name = low[start:end]
        if name.split()[0] in _NOT_PLACES or not mask.free(start, end):
            continue
        mask.take(start, end)
        atoms.append(Atom("place", _role(low, start, end), name, text[start:end], start, end))
    return atoms


def extract_places(text: str, low: str, mask: Mask) -> list[Atom]:
    """Places with their role, arbitral institutions, "worldwide", and the forum type."""
    atoms: list[Atom] = []
    for m in _PLACE.finditer(low):
        name = m.group("p")
        if (name in _CASE_SENSITIVE and not text[m.start("p")].isupper()) or not mask.free(m.start(), m.end()):
            continue
        if name in ("us", "u.s.") and re.match(r"\s?\$", low[m.end():]):
            continue  # "US$": a currency
        key = _ALIASES.get(name, name) + (" county" if m.group("county") else "")
        start = m.start("p")
        group = _role(low, start, m.end())
        mask.take(m.start(), m.end())
        atoms.append(Atom("place", group, key, text[start:m.end()], start, m.end()))
    for m in _DEMONYM.finditer(low):
        if mask.free(m.start(), m.end()) and not (m.group("d") == "us" and text[m.start():m.end()] != "US"):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", _role(low, m.start(), m.end()), _DEMONYMS[m.group("d")], text[m.start():m.end()],
                              m.start(), m.end()))
    atoms += _cued_places(text, low, mask)
    for m in _DEFINED_TERRITORY.finditer(text):
        if mask.free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "territory", "the territory", m.group(), m.start(), m.end()))
    for m in _WORLD.finditer(low):
        if mask.free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "territory", "worldwide", text[m.start():m.end()], m.start(), m.end()))
    for m in _INSTITUTION.finditer(low):
        if mask.free(m.start(), m.end()) and (len(m.group()) > 5 or text[m.start():m.end()].isupper()):
            mask.take(m.start(), m.end())
            atoms.append(Atom("place", "institution", _INSTITUTIONS[m.group()], text[m.start():m.end()], m.start(), m.end()))
    for kind, pattern in _FORUM_TYPES:
        m = pattern.search(low)
        if m:
            atoms.append(Atom("place", "forum_type", kind, text[m.start():m.end()], m.start(), m.end()))
    return atoms
