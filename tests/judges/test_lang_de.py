"""The German pack (conflictkit/judges/atoms/lang/de, issue 26): it is a complete, valid pack, its
number and date grammar reads German ("dreiundzwanzig", "1.000,50 EUR", "15. März 2026"), and the
legal-atoms judge reads German drafting with it ("hat ... zu zahlen", "Abs." == "Absatz",
"abschliessend" == "abschließend")."""

from __future__ import annotations

import re

import pytest

from conflictkit import lexicon
from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.judges.atoms.extract import extract
from conflictkit.judges.atoms.numbers import words_to_number
from conflictkit.lexicon.schema import SECTIONS
from tests.judges.test_atoms_cases import judged

GERMAN = LegalAtomsJudge(language=lexicon.load("de"))


def test_the_german_pack_has_every_file_and_validates():
    pack = lexicon.load("de")
    assert pack.name == "German" and pack.folder.name == "de"
    assert sorted(pack._sections) == sorted(SECTIONS)
    assert (pack.folder / "cases.jsonl").is_file()


@pytest.mark.parametrize("text", [
    "Der Anbieter ist verpflichtet, die Leistungen gemäß den Bestimmungen dieses Vertrags zu erbringen.",
    "Die Haftung des Auftragnehmers für leichte Fahrlässigkeit ist ausgeschlossen, soweit nicht eine wesentliche Pflicht verletzt wird.",
])
def test_auto_detection_reads_german_as_german_and_english_as_english(text):
    assert lexicon.detect([text, text]) == "de"
    english = "The Supplier shall not be liable for any indirect loss arising out of this Agreement."
    assert lexicon.detect([english, english]) == "en"


@pytest.mark.parametrize("phrase, value", [
    ("dreiundzwanzig", 23), ("zweihundertfünfzig", 250), ("zweitausendfünfhundert", 2500), ("einhundert", 100),
    ("dreißig", 30), ("eineinhalb", 1.5),
])
def test_german_number_words_compound(phrase, value):
    assert words_to_number(phrase, lexicon.load("de")) == value


def _keys(text: str, family: str) -> list[str]:
    return [a.key for a in extract(text, "de").atoms if a.family == family]


@pytest.mark.parametrize("text, key", [
    ("Die Vergütung beträgt 1.000,50 EUR.", "money:1000.5:EUR"),
    ("Die Vergütung beträgt EUR 1.000,50.", "money:1000.5:EUR"),
    ("Die Frist beträgt mindestens dreißig (30) Tage.", "duration:30:day"),
    ("Die Frist beträgt zwei Wochen.", "duration:14:day"),
    ("Die Nachfrist beträgt fünf volle Werktage.", "duration:5:business day"),
    ("Die Sperre gilt nach zwei aufeinanderfolgenden Monaten ohne Zahlung.", "duration:2:month"),
])
def test_german_amounts_and_durations_read_as_their_values(text, key):
    assert any(k.startswith(key) for k in _keys(text, "number")), _keys(text, "number")


def test_german_dates_in_words_and_digits_are_one_date():
    assert _keys("Der Vertrag tritt am 15. März 2026 in Kraft.", "date") == _keys("Der Vertrag tritt am 15.03.2026 in Kraft.", "date")
    assert _keys("Der Vertrag tritt am 15. März 2026 in Kraft.", "date") == ["2026-03-15"]


def test_a_clause_number_is_no_date():
    assert _keys("Die Leistungen ergeben sich aus Ziffer 3.1. der Anlage 2.", "date") == []


@pytest.mark.parametrize("reference, changed", [
    ("Der Kunde darf die Zugangsdaten nicht an Dritte weitergeben.", "Der Kunde darf die Zugangsdaten an Dritte weitergeben."),
    ("Die Rechnung ist innerhalb von dreißig (30) Tagen zu bezahlen.", "Die Rechnung ist innerhalb von sechzig (60) Tagen zu bezahlen."),
    ("Die Haftung ist auf 1.000,50 EUR begrenzt.", "Die Haftung ist auf 10.000,50 EUR begrenzt."),
    ("Dieser Vertrag unterliegt deutschem Recht.", "Dieser Vertrag unterliegt englischem Recht."),
    ("Ausschließlicher Gerichtsstand für alle Streitigkeiten aus diesem Vertrag ist München.",
     "Ausschließlicher Gerichtsstand für alle Streitigkeiten aus diesem Vertrag ist Hamburg."),
    ("Der Mieter darf die Wohnung betreten.", "Der Mieter hat die Wohnung zu betreten."),   # a permission made a duty
    ("Der Kunde muss die Unterlagen nicht herausgeben.", "Der Kunde darf die Unterlagen nicht herausgeben."),  # need not / must not
])
def test_a_german_change_of_effect_is_flagged(reference, changed):
    assert judged(reference, changed, judge=GERMAN).p_conflict >= 0.7


@pytest.mark.parametrize("reference, same", [
    ("Der Empfänger muss die Informationen geheim halten.", "Der Empfänger hat die Informationen geheim zu halten."),
    ("Gemäß § 5 Abs. 2 S. 1 ist die Vergütung fällig.", "Gemäß § 5 Absatz 2 Satz 1 ist die Vergütung fällig."),
    ("Die Ansprüche nach § 280 BGB bleiben unberührt.", "Die Ansprüche nach § 280 des Bürgerlichen Gesetzbuchs bleiben unberührt."),
    ("Der Umfang ergibt sich abschließend aus diesem Vertrag.", "Der Umfang ergibt sich abschliessend aus diesem Vertrag."),
    ("Verzugszinsen betragen fünf Prozent (5 %) pro Jahr.", "Verzugszinsen betragen 5 % pro Jahr."),
    ("Kündigungen bedürfen der Schriftform.", "Kündigungen bedürfen der schriftlichen Form."),
    ("Dieser Vertrag unterliegt dem Recht der Bundesrepublik Deutschland.", "Dieser Vertrag unterliegt deutschem Recht."),
])
def test_a_german_rewording_of_the_same_effect_is_not_flagged(reference, same):
    assert judged(reference, same, judge=GERMAN).p_conflict < 0.7


def test_the_infinitive_that_ends_a_clause_is_what_makes_a_duty():
    pattern = lexicon.load("de").pattern("modality.deferred_duty")
    assert pattern.match(" die Unterlagen herauszugeben.") and pattern.match(" die Miete monatlich zu zahlen")
    assert not pattern.match(" zu kurz.")


def test_third_parties_are_not_the_third_day():
    rows = lexicon.load("de").section("phrases")["phrases"]
    third = next(p for p, _, group, _ in rows if group == "third-party")
    assert re.search(third, "an dritte weitergeben") and not re.search(third, "am dritten werktag eines monats")


def test_detect_stays_a_function_after_it_has_run():
    """The detection module once shared the function's name: the first call replaced
    ``conflictkit.lexicon.detect`` by the module, and the second failed."""
    german = "Der Kunde ist verpflichtet, die Vergütung innerhalb von dreißig Tagen zu zahlen."
    assert lexicon.detect([german]) == "de" and lexicon.detect([german]) == "de"


@pytest.mark.parametrize("reference, same", [
    ("Der Anbieter ist nicht verpflichtet, ältere Versionen weiter zu pflegen.",
     "Der Anbieter muss ältere Versionen nicht weiter pflegen."),
    ("Der Mieter darf die Mieträume nicht zu Wohnzwecken nutzen.",
     "Dem Mieter ist es untersagt, die Mieträume zu Wohnzwecken zu nutzen."),
])
def test_nicht_late_in_the_clause_negates_its_modal(reference, same):
    assert judged(reference, same, judge=GERMAN).p_conflict < 0.7
    keys = [a.key for a in extract(same, "de").atoms if a.family in ("modality", "negation")]
    assert keys in (["no_obligation"], ["prohibition"])
