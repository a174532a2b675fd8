"""The schema of a language pack: one pydantic model per file, every field documented.

A pack is a folder ``<code>/`` of YAML files, one per section below (``words.yaml`` is
:class:`WordsSection`...). :class:`PackData` is the whole pack: a file or a key that is missing,
a value of the wrong type, an unknown key or a pattern that does not compile is refused when the
pack is loaded, with one line naming each problem. ``conflictkit languages --schema`` prints the
JSON Schema made from these models (``conflictkit/lexicon/schema.json`` is that schema, committed).

Patterns are Python regular expressions over lower-cased text unless a field says otherwise, with
``\\p{L}`` / ``\\p{Lu}`` / ``\\p{Ll}`` for letters of any script (:mod:`conflictkit.lexicon.regex`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from conflictkit.lexicon.regex import compile_pattern


def _compiles(pattern: str) -> str:
    try:
        compile_pattern(pattern)
    except re.error as exc:
        raise ValueError(f"not a valid regular expression ({exc})") from None
    return pattern


def _not_empty(word: str) -> str:
    if not word:
        raise ValueError("an empty word would match everywhere: remove it")
    return word


Word = Annotated[str, AfterValidator(_not_empty)]
Words = list[Word]
Pattern = Annotated[str, AfterValidator(_compiles)]


class Section(BaseModel):
    """A file of the pack: unknown keys are errors (a misspelt key would otherwise be ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _doc(what: str) -> Any:
    return Field(description=what)


class PackManifest(Section):
    """``pack.yaml``: what the pack is, and how ``language: auto`` recognises its texts."""

    name: str = _doc("the language's name in English (\"English\", \"German\")")
    detection_words: Words = Field(
        min_length=10,
        description="about 30 of the language's most frequent function words, lower-case (\"the\", \"of\", \"and\"): "
                    "``language: auto`` picks the pack whose words make up the largest share of both documents' words")


class WordsSection(Section):
    """``words.yaml``: the words that carry meaning by themselves, read by the judge, the redline and the filters."""

    negators: Words = _doc("words that negate (\"not\", \"no\", \"never\", \"without\")")
    modals: dict[str, Words] = _doc("modal words by class: ``obligation``, ``permission``, ``recommendation``")
    exceptions: Words = _doc("words that introduce an exception (\"except\", \"unless\", \"only\")")
    conditions: Words = _doc("words that introduce a condition (\"if\", \"subject\", \"provided\")")
    exception_phrases: Words = _doc("phrases that introduce an exception or condition (\"subject to\", \"other than\")")
    quantifiers: Words = _doc("quantifiers (\"all\", \"any\", \"each\", \"sole\")")
    scope_words: Words = _doc("scope words (\"exclusive\", \"worldwide\", \"perpetual\")")
    qualifiers: Words = _doc("qualifier words (\"prior\", \"written\", \"reasonable\", \"material\")")
    stopwords: Words = _doc("function words that say nothing about a clause's topic (left out of P(same matter))")


class ModalitySection(Section):
    """``modality.yaml``: how a clause says who must, may or must not act (read by ``judges/atoms/modal.py``)."""

    auxiliaries: dict[str, str] = _doc("modal auxiliaries and their class (\"shall\": obligation, \"may\": permission)")
    predicates: dict[str, str] = _doc("predicates after be / have and their class (\"required\": duty, \"entitled\": permission)")
    right_nouns: dict[str, str] = _doc("nouns of a right or a duty (\"right\": permission, \"obligation\": duty)")
    verb_heads: dict[str, str] = _doc("verbs that state a duty before ``to`` (\"agrees\": obligation)")
    to_infinitive: Words = _doc("the infinitive marker after verb_heads and failure_verbs (\"to\")")
    subject_negators: Words = _doc("negators that open a subject and negate its modal (\"neither\", \"no\")")
    outside_verbs: Words = _doc("verbs after which \"outside\" negates (\"falls outside the warranty\")")
    failure_verbs: Words = _doc("verbs of failing to act, a negation (\"fails to cure\")")
    irregular_participles: Words = _doc("irregular past participles (a passive: \"shall be paid by\")")
    participle_prefixes: Words = _doc("prefixes an irregular participle may carry (\"re\" of \"repaid\")")
    ly_verbs: Words = _doc("verbs that end like an adverb (\"supply\", \"comply\"): never skipped as one")
    duty_words: Words = _doc("words that state a duty without a modal (\"responsible\", \"liable\")")
    receiving_verbs: Words = _doc("verbs of receiving a benefit (\"receive\", \"paid\")")
    entitlements: Words = _doc("words of a right to receive (\"entitled\", \"right\")")
    noun_before: Words = _doc("words before an auxiliary that make it a noun (\"at will\", \"the will\")")
    noun_auxiliaries: Words = _doc("auxiliaries that are a noun when a sentence ends right after them (\"the will.\")")
    be: Words = _doc("forms of be: a predicate after them may be modal (\"is required to\")")
    have: Words = _doc("forms of have (\"has the right to\")")
    infinitives: Words = _doc("infinitives after a modal that open a predicate (\"may be required to\")")
    predicate_links: dict[str, Words] = _doc("class -> what links a predicate of it to its verb (prohibited: [from, to])")
    modal_phrases: list[tuple[str, str, bool]] = _doc("phrases with a class of their own: [words in a row (alternatives "
                                                      "split by |), class, negated] ([need not, duty, true])")
    negators_after: Words = _doc("words after a modal that negate it (\"not\", \"never\")")
    negating_phrases: Words = _doc("phrases after a modal that negate it (\"in no event\")")
    skipped_after: Words = _doc("words skipped after a modal (\"also\", \"at all times\")")
    noun_determiners: Words = _doc("words that may stand before a right noun (\"the\", \"no\")")
    noun_negators: Words = _doc("of those, the ones that negate it (\"no\")")
    noun_links: Words = _doc("what links a right noun to its verb (\"to\", \"of\")")
    under: Words = _doc("the preposition of \"under no obligation\"")
    under_determiners: Words = _doc("what may follow it (\"no\" negates)")
    negator_leads: Words = _doc("a word before a subject negator that belongs to it (\"in\" of \"in no event\")")
    sentence_negators: Words = _doc("words that open a sentence and negate its first modal (\"No failure ... shall\")")
    stop_lookback: Words = _doc("tokens that end the look back for a subject negator")
    skip_to_verb: Words = _doc("words skipped between a modal and the verb it governs")
    possessives: Words = _doc("possessives before a noun of failure (\"its failure to inspect\")")
    appositive: Pattern = _doc("what before a party makes it an appositive (\"as Recipient\"), ending the text before it")
    inverted_subject: Pattern = _doc("what may stand between an inverted modal and its subject (\"the\")")
    passive: Words = _doc("the passive auxiliary after a modal (\"be\")")
    participle_endings: Words = _doc("how a regular past participle ends (\"ed\", \"en\")")
    agent: Words = _doc("the preposition of a passive's agent (\"by\")")
    failure_nouns: Words = _doc("nouns of failing that negate only with their party (\"failure\")")
    possessive_ending: str = _doc("the possessive ending that gives such a noun its party (\"'s\")")
    free_negators: Words = _doc("negators that stand alone before what they negate (\"not\", \"without\", \"no\")")
    outside: Words = _doc("the word that negates after an outside verb (\"outside\")")
    number_signs: Words = _doc("negators that are a number sign before a full stop or a hyphen (\"No. 5\")")
    limit_verbs: Words = _doc("verbs that state a restriction (\"shall limit disclosure to\" == \"may disclose only to\")")
    limit_links: Words = _doc("a phrase of an only ending with one is no verb (\"limited to\")")
    binding_words: Words = _doc("the last words of a modal that binds (\"shall\", \"must\"; \"will\" is often a future)")
    ensure_verbs: Words = _doc("verb stems of a duty to ensure a negative, a prohibition (\"ensure that no\")")
    subordinate: Pattern = _doc("what opens a subordinate clause, ending the text before a negation in it (\"that\", \"if\")")
    limiting_negators: Words = _doc("negators that limit a ban as an exception does (\"without consent\")")
    clause_negators: Words = _doc("negators that negate the modal before them wherever they stand in its clause (German "
                                  "\"darf die Daten nicht weitergeben\", \"muss keine Updates liefern\"); empty where a "
                                  "negator must follow the modal (English)")
    deferred_duty: Pattern = _doc("what follows a be / have, up to the end of its clause, when it states a duty whose verb "
                                  "comes last (German \"hat ... zu zahlen\", \"ist ... zurückzugeben\"); a pattern that never "
                                  "matches (\"(?!)\") where the language has none")


PhraseRow = tuple[Pattern, str, str, str]


class TokensSection(Section):
    """``tokens.yaml``: how text is cut into words."""

    word: Pattern = _doc("one word (letters of any script, with the pack's rule for apostrophes and hyphens): "
                         "digits and other marks are tokens of their own")
    contractions: dict[str, str] = _doc("words that hide a negator -> the verb each keeps (\"won't\": will)")
    negative_clitic: str = _doc("an ending that is a negator of its own (\"n't\"); empty when the language has none")
    negator: str = _doc("the negator a contraction or a clitic stands for (\"not\")")
    sentence_openers: Words = _doc("tokens after which a word may be capitalised for opening a sentence")
    letter_variants: dict[Word, str] = _doc("letters some countries write another way, and how (\"ß\": \"ss\" in "
                                            "Switzerland): a word spelt so is the same word; empty where there are none")
    capitals_mark_names: bool = _doc("whether a capital inside a sentence marks a name (English: \"the Information "
                                     "Commissioner\"); false where every noun is capitalised (German: \"die Schriftform\")")


class MorphologySection(Section):
    """``morphology.yaml``: what the judge strips to read two forms of a word as one."""

    possessive_endings: Words = _doc("possessive endings stripped before a word is compared (\"'s\")")
    plural_endings: Words = _doc("plural endings stripped from words longer than four letters (\"s\")")
    plural_exceptions: Words = _doc("endings that are no plural (\"ss\" of \"business\")")
    stem_length: int = Field(ge=3, description="the letters of a stem kept for overlap (six: \"terminate\" -> \"termin\")")
    adverb_endings: Words = _doc("how an adverb ends (\"ly\"): skipped between a modal and its verb")
    negative_prefixes: Words = _doc("prefixes that negate a word (\"non-\", \"un\", \"in\")")
    clear_negative_prefixes: Words = _doc("of those, the ones that always negate (\"non\", \"un\")")
    related_prefixes: Words = _doc("prefixes that make another word of one root (\"un\", \"sub\"): never a typo")
    agent_suffixes: Words = _doc("agent endings (\"or\", \"ee\"): \"lessor\" / \"lessee\" are never a typo")
    vowels: str = _doc("the vowels (a misspelling may change one)")
    root_suffixes: Words = _doc("endings cut from a word to read its root for content edits, the first that fits")
    root_ending_after: dict[str, Words] = _doc("an ending of root_suffixes cut only after one of these word endings; "
                                               "otherwise it is cut without its first letter (es: [ses, xes])")
    root_length: int = Field(ge=3, description="the letters of a root kept")
    key_suffixes: Words = _doc("endings cut from a word to read its synonym key")
    form_suffixes: Words = _doc("endings a word may have over its base form (\"cancelled\" -> \"cancel\")")
    form_added_endings: Words = _doc("endings a base form may have lost (\"e\" of \"take\" in \"taking\")")
    form_restored: dict[str, str] = _doc("ending -> the letters it stands for (\"ies\": \"y\")")
    number_endings: Words = _doc("endings a plural (or a verb's other person) adds (\"s\", \"es\")")
    number_replacements: dict[str, str] = _doc("endings a plural replaces (\"y\": \"ies\" of \"policies\")")


class PhrasesSection(Section):
    """``phrases.yaml``: qualifiers, exceptions and scope phrases as ``[pattern, family, group, key]`` rows."""

    idioms: list[PhraseRow] = _doc("phrases that hold a negator but negate nothing (claimed before modality); family "
                                    "``ignore`` claims the words and makes no atom")
    phrases: list[PhraseRow] = _doc("qualifier, exception and scope phrases: atoms of one ``group`` are compared with each "
                                     "other; synonyms share a ``key``")
    minor_groups: dict[str, Words] = _doc("family -> groups whose atom on one side only is a minor difference")
    minor_changes: Words = _doc("groups whose change within the group is minor too")
    expense_payer: Pattern = _doc("who bears a cost (\"at the Buyer's expense\"): group 1 names the payer")
    payer_pronouns: Words = _doc("pronouns of expense_payer that name the party that acts (\"at its own expense\")")
    said_otherwise: dict[str, Pattern] = _doc("key -> how the other side may say it another way (refundable: \"will refund\")")
    tail_end: Pattern = _doc("where the words an exception introduces end")
    tail_generic: Words = _doc("stems an exception may hold that name nothing (\"otherwise\", \"expressly\")")
    postposed_exceptions: Words = _doc("exception words written after what they except (\"excepted\")")
    same_stems: Words = _doc("stems read as one whatever follows them (\"writ\": \"in writing\" == \"written\")")
    except_words: Pattern = _doc("how an exception whose words can be compared starts (case-insensitive)")
    negated_before: Pattern = _doc("a negation before an all / any: it restricts nothing of its own")
    except_after: Pattern = _doc("an exception after an all / any (\"any purpose other than\")")
    not_a_scope_after: Words = _doc("words after an all / any that make it no scope (\"at all times\")")
    generic_nouns: Words = _doc("stems of nouns an all / any may govern without naming anything (\"in any event\")")


class PartiesSection(Section):
    """``parties.yaml``: party names and the side of the deal each is on."""

    sides: dict[str, Words] = _doc("side (``supplier``, ``receiver``, ``both``...) -> the names of its parties, lower-case")
    own_roles: Words = _doc("party names with a role of their own, on no side of a supply deal (\"guarantor\", \"agent\")")
    capitalised_not_parties: Words = _doc("names that are no party when written in capitals (\"us\": \"US\" is a country)")
    subject_name_before: Pattern = _doc("what may stand before a capitalised name that is a modal's subject (\"the\", \"each\"), "
                                        "case-sensitive")
    subject_name_after: Pattern = _doc("what must follow a capitalised name to make it a subject (\"shall\", \"is required\")")
    agent_name_before: Pattern = _doc("what stands before a passive's agent (\"by the\"): group the is the article")
    definite_articles: Words = _doc("a name after one is an agent or an organisation (\"the Site\"), not a defined thing")
    function_words: Words = _doc("words that open a sentence, not a name (\"If Acme\"): dropped from a name's start")
    common_nouns: Words = _doc("nouns a defined term ends with that name a thing, not a party (\"Goods\", \"Software\")")
    entities: Words = _doc("nouns that name an organisation (\"Hospital\", \"Bank\"): a name ending with one is a party")
    abstract_endings: Words = _doc("endings of an abstract noun: a name ending so is no party (\"Assignment\")")
    agentive: Pattern = _doc("the ending of a noun that names who does something (\"Guarantor\", \"Licensee\")")
    not_agentive: Words = _doc("nouns that end so but name no one (\"Order\", \"Number\")")
    role_prepositions: Words = _doc("prepositions of the role a party fills (\"created by\", \"paid to\")")
    role_article: Pattern = _doc("the article that may stand between them and the party (\"the\")")
    object_verbs: Words = _doc("verbs whose direct object is the party that benefits (\"notify\", \"indemnify\")")
    possessive: Pattern = _doc("the possessive after a party, before what it owns (\"'s own\")")
    personal_pronouns: Pattern = _doc("personal and possessive pronouns that may stand for a party")
    pronoun_pairs: Pattern = _doc("pairs of pronouns that stand for one party (\"his or her\")")
    pronoun_possessive: Pattern = _doc("a possessive pronoun before what it owns: group 1 the thing")


class PlacesSection(Section):
    """``places.yaml``: the gazetteer of governing laws, venues and territories."""

    us_states: Words = _doc("states of the United States, lower-case")
    united_states: str = _doc("the key of the country the us_states lie in (\"united states\")")
    countries: Words = _doc("countries and regions, lower-case")
    cities: Words = _doc("cities, lower-case")
    institutions: dict[str, str] = _doc("arbitral institutions: name or abbreviation -> key")
    aliases: dict[str, str] = _doc("another name of a place -> the place (\"u.k.\": \"united kingdom\")")
    demonyms: dict[str, str] = _doc("adjectives of a place, read before law / courts (\"swiss\": \"switzerland\")")
    parents: dict[str, str] = _doc("place -> the place it lies in (\"san francisco\": \"california\")")
    case_sensitive: Words = _doc("places that are places only when capitalised (\"US\", \"Jersey\")")
    place_before: Pattern = _doc("what may stand before a place's name (\"the State of\")")
    place_after: Pattern = _doc("what may follow it and join its key: group county (\"Cook County\")")
    currency_places: Words = _doc("places that are a currency before \"$\" (\"US$\")")
    upper_case_demonyms: Words = _doc("demonyms that name a place only in capitals (\"US law\")")
    demonym_after: Pattern = _doc("what must follow a demonym for it to name a place (\"law\", \"courts\")")
    worldwide: Pattern = _doc("a territory that is the whole world (\"worldwide\")")
    defined_territory: Pattern = _doc("a defined term for the area a grant is limited to, case-sensitive (\"Territory\")")
    law_cues: Pattern = _doc("words before a place that make it the governing law (\"governed by\")")
    forum_cues: Pattern = _doc("words before a place that make it a forum (\"courts\", \"venue\", \"arbitration\")")
    law_after: Pattern = _doc("words right after a place that make it the governing law (\"Delaware law\")")
    forum_types: dict[Literal["arbitration", "courts"], Pattern] = _doc("the words of each forum a clause may choose")
    cued_place: Pattern = _doc("a place the gazetteer does not know, after a cue (\"the courts of Rotterdam\"), "
                               "case-sensitive: group p")
    not_places: Words = _doc("words that open no place after such a cue (\"the\", \"competent\")")


Comparator = Literal[">=", "<=", ">", "<"]


class NumbersSection(Section):
    """``numbers.yaml``: number words, their composition, and the grammar of amounts, rates, durations,
    comparators, cross-references, frequencies and shares (read by ``judges/atoms/numbers.py``).

    Patterns name the groups the reader takes (``group c`` below is ``(?P<c>...)``); canonical values
    (currency codes, the periods ``day``, ``week``, ``month``, ``quarter``, ``year``, ``hour``,
    ``minute``) are the same in every pack, so a key such as ``duration:30:day`` means one thing."""

    units: dict[str, int] = _doc("number words below a hundred and their values (\"thirty\": 30)")
    scales: dict[str, int] = _doc("scale words and their values (\"hundred\": 100, \"million\": 1000000); a scale "
                                  "below 1000 multiplies the words before it, a larger one closes a group")
    ordinals: dict[str, int] = _doc("ordinal words and their values (\"first\": 1); -1 is the last, -2 the one before")
    fractions: dict[str, float] = _doc("number words worth a fraction (\"half\": 0.5)")
    fraction_phrases: Words = _doc("phrases worth the fraction word they end with (\"one half\", \"a half\")")
    joiners: Words = _doc("words between two number words (\"one hundred and five\")")
    compounds: bool = _doc("number words join into one word (\"dreiundzwanzig\"): a word is then read as the "
                           "number words (and joiners) it is made of")
    decimal_mark: Literal[".", ","] = _doc("the decimal mark of figures: \".\" reads 1,000.50; \",\" reads 1.000,50")
    currency_prefix: Pattern = _doc("a currency symbol or code right before a figure, ending the text before it: group c")
    currency_symbols: dict[str, str] = _doc("symbol (group c without spaces) -> ISO code (\"$\": USD)")
    currency_codes: dict[str, str] = _doc("currency codes written in words -> ISO code (\"usd\": USD)")
    currency_names: dict[str, str] = _doc("the start of a currency's name -> ISO code, tried in order (\"euro\": EUR)")
    default_currency: str = _doc("the currency of a name no entry of currency_names starts (\"dollars\")")
    currency_words: Pattern = _doc("a currency named without an amount (\"payable in euros\"): group c")
    restated: Pattern = _doc("a figure restated in parentheses after a number (\"thirty (30)\"): group d")
    scale_after: Pattern = _doc("a scale word after a figure (\"5 million\", \"2bn\"): group s")
    scale_values: dict[str, int] = _doc("what each word of scale_after is worth")
    scale_abbreviations: Words = _doc("scale abbreviations read only after digits (\"5m\", never \"one m\")")
    unit: Pattern = _doc("the unit after a number: currency (group cur), percentage (pct), duration (dur), multiple (times)")
    percentage_points: Words = _doc("words that make a percentage percentage points")
    glued_units: Words = _doc("letters glued to digits that are a unit (\"30days\", \"5pm\"), not part of a name (\"37signals\")")
    single_items: Words = _doc("number words that may count one item (\"one copy\")")
    not_a_count_after: Pattern = _doc("what after such a word makes it no count (\"one of the parties\")")
    not_a_count_before: Pattern = _doc("what before it makes it no count (\"any one\"), ending the text before it")
    decimal_context: Pattern = _doc("what after a figure makes a comma before one or two digits a decimal comma (\"3,5%\")")
    per: Pattern = _doc("a rate's period after an amount (\"per annum\", \"/user\", \"monthly\", \"p.a.\"): group p, adv or abbr")
    per_words: dict[str, str] = _doc("the period each word of per names (\"annually\": year)")
    per_abbreviations: dict[str, str] = _doc("abbreviations of per (without dots and spaces) -> period (\"pa\": year)")
    business_days: Words = _doc("words that make a day a business day (\"business\", \"working\")")
    period_words: dict[str, str] = _doc("words of a period that are not its name -> the period (\"hr\": hour; "
                                        "names: day, week, month, quarter, year, hour, minute)")
    period_plural: str = _doc("letters stripped from the end of a period's word to read it in the singular (\"s\")")
    direction: Pattern = _doc("a direction after a duration (\"30 days after\", \"prior to\"): group dir")
    directions_before: Words = _doc("how a dir that means before starts; any other means after")
    within_of: Pattern = _doc("the \"of\" after a duration bounded by within (\"within 14 days of\"): group dir")
    within: Words = _doc("the comparators of within_of (\"within\")")
    edge_before: Pattern = _doc("the edge of a span a period sits at (\"the final twelve months\"): group edge")
    edges: dict[str, Literal["first", "last"]] = _doc("which edge each word of edge_before names")
    comparators: dict[Comparator, list[Pattern]] = _doc("words before a number that bound it, by sign: regex "
                                                       "alternatives, tried in order (\">=\": [at\\s+least, ...])")
    comparator_gap: Pattern = _doc("what may stand between a comparator and its number")
    comparator_after: Pattern = _doc("a comparator after the number (\"30 days or more\"): group post")
    post_comparators: dict[str, Comparator] = _doc("the sign of each word of comparator_after")
    comparator_idioms: Pattern = _doc("comparator idioms claimed with no number after them (\"no later than\")")
    xref_words: list[Pattern] = _doc("words before a number that only points elsewhere (\"section\", \"§\"): alternatives")
    xref_plurals: list[Pattern] = _doc("their plurals, which may list several numbers (\"sections\")")
    xref_list: Pattern = _doc("what joins listed numbers of a cross-reference (\", and\", \"through\")")
    frequency: Pattern = _doc("how often (\"twice a year\", \"quarterly\"): groups times (with n), per, adv, every")
    times: dict[str, int] = _doc("words that say a number of times (\"twice\": 2)")
    periods: dict[str, str] = _doc("the period each word of a frequency names: day, week, 2 weeks, month, quarter, "
                                   "half-year, year or hour")
    every_n: Pattern = _doc("how often, said as a period (\"every three months\"): groups n and u; <NUMBER_WORDS> "
                            "stands for a number phrase")
    every_n_cues: Words = _doc("every match of every_n holds one of these words")
    fraction_shares: Pattern = _doc("shares said as fractions (\"half of the Fee\"): group f, group of")
    fraction_cues: Words = _doc("every match of fraction_shares holds one of these words")
    fraction_values: dict[str, float] = _doc("a fraction's last word -> percent (\"half\": 50.0)")
    fraction_rest: Pattern = _doc("\"the other half\": a share with no of after it")
    fraction_period: Pattern = _doc("what before a fraction makes it a period (\"the first half of\"), ending the text before it")
    slash_fraction: Pattern = _doc("a share written with a slash (\"1/2 of\"): groups n and d")
    number_tokens: Words = _doc("number words the redline and the edit-level judge mark as a number token")


class DatesSection(Section):
    """``dates.yaml``: month names, date orders, weekdays, ordinal periods and clock times."""

    months: dict[str, int] = _doc("month names, lower-case, and their numbers")
    month_abbreviations: dict[str, int] = _doc("month abbreviations and their numbers")
    ambiguous_months: Words = _doc("month names that are also a common word (\"may\"): a date with one counts only capitalised")
    date_patterns: list[Pattern] = _doc("the orders a date is written in, most specific first: groups day, year, and mon "
                                        "(<MONTH> stands for a month's name or abbreviation) or mnum")
    month_alone: Pattern = _doc("a month named alone (\"the end of March\"), case-sensitive")
    weekday: Pattern = _doc("a weekday, case-sensitive: group w")
    quarter: Pattern = _doc("a quarter (\"Q3\"), case-sensitive: group q")
    ordinal: Pattern = _doc("an ordinal period (\"the fifteenth day\"): group o (with d for digits) and u; <ORDINALS> "
                            "stands for the ordinal words of numbers.yaml")
    relative_ordinals: Words = _doc("ordinals worth one that name a period only before ordinal_after (\"next\")")
    unit_spellings: dict[str, str] = _doc("spellings of an ordinal unit read as another (\"installment\": instalment)")
    period_units: Words = _doc("ordinal units that are a period (\"the first business day after\" == one business day after)")
    window_units: Words = _doc("ordinal units that make a window of a span (\"the last year of employment\")")
    ordinal_restated: Pattern = _doc("an ordinal restated in parentheses (\"(5th)\")")
    ordinal_after: Pattern = _doc("what makes an ordinal period a period after an event (\"after\", \"following\")")
    of_a_span: Pattern = _doc("what makes an ordinal period a window of a span (\"of\")")
    time_of_day: Pattern = _doc("a clock time: groups h, m, ap (a.m./p.m.), h24, m24, or word")
    clock_hint: Pattern = _doc("a quick test for a time with an a.m./p.m. mark")
    clock_words: dict[str, int] = _doc("the hour of each clock word (\"noon\": 12)")
    afternoon: Words = _doc("how an afternoon mark (group ap) starts (\"p\")")


class VerbsSection(Section):
    """``verbs.yaml``: verbs that name one action, and opposites."""

    irregular_past: dict[str, str] = _doc("irregular past forms -> base verb (\"paid\": \"pay\")")
    synonym_groups: Words = _doc("lines of verbs that name one action (\"terminate end cancel expire\")")
    weak: Words = _doc("verbs (six-letter stems) that carry no action of their own (\"ensure\", \"procur\")")
    opposites: list[dict[str, Words]] = _doc("``{positive: [...], negative: [...]}`` rows of opposite six-letter stems "
                                              "(\"keep\" / \"disclo\"): a duty restated as a ban on its opposite")


class ContentSection(Section):
    """``content.yaml``: what the content family counts as a content word, and how it weighs one."""

    filler: Words = _doc("drafting filler a content edit never counts (\"thereof\", \"whatsoever\")")
    synonyms: Words = _doc("lines of words (or four-letter roots) that name the same thing")
    different_acts: Words = _doc("lines of acts one synonym group puts on one matter that differ in effect (\"return destroy delete\")")
    timing: Words = _doc("lines of words that say when an act is due against an event (\"before prior preceding ahead\")")
    timing_apart: list[tuple[Word, Word]] = _doc("pairs of first words of ``timing`` lines whose swap moves a trigger")
    pronouns: Words = _doc("pronouns that stand for a party already named")
    not_typos: list[tuple[Word, Word]] = _doc("real words one or two letters apart that mean different things")
    doublets: Words = _doc("legal doublets: the second word adds nothing (\"null void\")")
    list_joins: Words = _doc("words that join the items of an enumeration (\",\", \"and\", \"or\")")
    condition_words: Words = _doc("words that open a condition or an exception (\"if\", \"unless\")")


class EditorialSection(Section):
    """``editorial.yaml``: words and patterns that mark an edit as editorial (read by the edit-level judge)."""

    corporate_suffixes: Words = _doc("suffixes of a company's name (\"llc\", \"inc\", \"gmbh\")")
    determiners: Words = _doc("words a rename may carry along (\"the\", \"these\", \"our\")")
    party_pronouns: Words = _doc("pronouns that stand for a party (\"we\", \"our\", \"they\")")
    definition_leads: Words = _doc("words that may open a parenthesis giving a short name (\"together\", \"hereinafter\")")
    coordinators: Words = _doc("words that join the items of a list (\"and\", \"or\", \"as well\")")
    illustration_markers: Words = _doc("markers of a non-exhaustive list (\"such as\", \"including\")")
    illustration_breakers: Words = _doc("words that limit such a marker (\"not including\", \"including only\")")
    generic_link_labels: Words = _doc("link labels that name nothing (\"here\", \"click here\")")
    pointer_patterns: list[Pattern] = _doc("case-insensitive patterns of a sentence that only sends the reader elsewhere")
    pointer_cues: Words = _doc("every pointer holds one of these words")
    pointer_breakers: Words = _doc("words that make a sentence operative: never a pointer")
    version_patterns: list[Pattern] = _doc("case-insensitive patterns of a stamp of the document's own version")
    version_max_chars: int = Field(gt=0, description="the longest text that can be a version stamp")
    abbreviations: dict[Word, str] = _doc("abbreviations, lower-case and without their full stop, and the words they stand "
                                          "for (\"sec\": \"section\", \"abs\": \"absatz\"): an edit that only writes one "
                                          "out or shortens it is editorial")
    articles: Words = _doc("articles and demonstratives: one for another is grammar (\"the\" -> \"these\")")
    word_forms: list[tuple[Word, Word]] = _doc("pairs of forms of one word the endings do not make (\"is\" / \"are\")")
    xref_words: Words = _doc("words before a number that make its edit a cross-reference (\"section\", \"§\")")
    alias_definition: Pattern = _doc("a definition giving one referent several names (\"we mean\", \"means\"), "
                                     "case-insensitive")
    referent: Pattern = _doc("the referent's name right after it (\"Basecamp, LLC\"), case-sensitive: group 1")


class SegmenterSection(Section):
    """``segmenter.yaml``: titles, definitions, signature blocks and numbering keywords (case-insensitive
    patterns unless a field says otherwise)."""

    title_small_words: Words = _doc("small words a Title Case heading may hold in lower case (\"of\", \"and\")")
    title_verbs: Words = _doc("verbs that make a short text a sentence, not a title (besides the modals)")
    title_line_verbs: Words = _doc("verbs that make an ALL-CAPS line a sentence, not a title (besides the modals)")
    finite_verbs: Words = _doc("verbs that make a bold line alone a term, not a title")
    defining: Pattern = _doc("the words that define a term after it (\"means\", \"shall have the meaning\")")
    term_small_words: Words = _doc("small words an unquoted capitalised term may hold (\"of\")")
    bare_defining: Pattern = _doc("the words that define an unquoted term (\"means\"), case-sensitive")
    lead_in: Pattern = _doc("a lead-in that opens a definition (\"When we say\", \"As used in\")")
    lead_in_defining: Pattern = _doc("what defines the term after a lead-in besides defining (\"we mean\")")
    list_defining: Pattern = _doc("what defines a term of a definitions list (\"means\"), case-sensitive")
    witness: Pattern = _doc("an attestation that opens the signature block (\"IN WITNESS WHEREOF\")")
    signature_opener: Pattern = _doc("a first signature line (\"By: ____\", \"Sincerely\")")
    signature_field: Pattern = _doc("a line of a signature block (\"Name:\", \"Title:\")")
    boilerplate: Pattern = _doc("a page-layout note (\"[Signature page follows]\")")
    attachments: Pattern = _doc("a heading of an attachment (\"Exhibit\", \"Schedule\"): a signature block ends there")
    label_keywords: list[Pattern] = _doc("keywords of a numbering label (\"section\", \"article\"): regex alternatives")
    top_keywords: Words = _doc("of those, the ones of a part that holds sections (\"article\")")
    run_on_keywords: Pattern = _doc("keywords that may open a numbered heading inside a run-on line, case-sensitive")
    run_on_top: Pattern = _doc("the keyword that opens a part inside a run-on line, case-sensitive")
    run_on_title_words: Words = _doc("small words of a Title Case title in a run-on line")
    page_words: Words = _doc("the word for a page (\"page\" of \"Page 3 of 10\")")
    page_of: Words = _doc("the word for of (\"of\" of \"Page 3 of 10\")")
    field_small_words: Words = _doc("small words a form field's name may hold (\"Date of Birth:\")")


class FilterSection(Section):
    """``filter.yaml``: what the rules filter reads to flag text that binds no one (case-insensitive
    patterns unless a field says otherwise)."""

    placeholder: Pattern = _doc("placeholders a template leaves to fill in (\"____\", \"[insert date]\"), case-sensitive")
    identity_key: Pattern = _doc("a cover-page field naming who signs or where notices go (\"Name:\")")
    drafting_note: Pattern = _doc("a drafting note (\"[Drafting note: ...]\")")
    toc_title: Pattern = _doc("the title of a table of contents")
    summary_label: Pattern = _doc("the label of a plain-language summary (\"In short\", \"Short version\")")
    not_binding: Pattern = _doc("a heading's words that say it binds no one (\"not binding\")")
    self_non_binding: Pattern = _doc("a text that says it binds no one (\"This summary is for convenience only\")")
    change_log_heading: Pattern = _doc("a heading of a change log (\"Revision history\")")
    change_log_entry: Pattern = _doc("one entry of a change log (\"v2.1 (2024-03-01): Updated section 4\")")
    update_banner: Pattern = _doc("an update banner (\"We've updated our Terms\")")
    concrete_date: Pattern = _doc("a concrete date, which an update banner holds")
    conditional: Pattern = _doc("a condition, which makes a banner operative (\"If we update these Terms\")")
    editor_note: Pattern = _doc("an editor's note (\"Editor's note:\")")
    not_labels: Words = _doc("first words before a colon of a salutation or lead-in, not a form label (\"if\", \"dear\")")


class PackData(BaseModel):
    """A whole language pack: one field per file (``words`` is ``words.yaml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pack: PackManifest
    tokens: TokensSection
    morphology: MorphologySection
    words: WordsSection
    modality: ModalitySection
    phrases: PhrasesSection
    parties: PartiesSection
    places: PlacesSection
    numbers: NumbersSection
    dates: DatesSection
    verbs: VerbsSection
    content: ContentSection
    editorial: EditorialSection
    filter: FilterSection
    segmenter: SegmenterSection


SECTIONS: dict[str, type[Section]] = {name: field.annotation for name, field in PackData.model_fields.items()}
"""Every file of a pack (``<name>.yaml``) and its model."""


def pack_schema() -> dict[str, Any]:
    """The JSON Schema of a pack (one property per file), what ``conflictkit languages --schema`` prints
    and ``conflictkit/lexicon/schema.json`` holds."""
    schema = PackData.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "conflictkit language pack"
    schema["description"] = (PackData.__doc__ or "").strip() + (
        " Each property is one file of the pack's folder (words is words.yaml). Patterns are Python regular "
        "expressions with \\p{L}, \\p{Lu}, \\p{Ll} for letters of any script.")
    return schema
