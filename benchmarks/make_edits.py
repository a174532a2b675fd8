"""Build scripted-edit document pairs from the project's own contracts, one set per language.

Each edit is applied on its own (one pair per edit type) and all together (one pair): the English
edits to ``samples/reference-saas-agreement.md`` (written to ``benchmarks/data/documents/edits/``),
the German ones to ``benchmarks/data/documents/de/saas-vertrag.md`` (written to
``benchmarks/data/documents/de/edits/``), each folder with a manifest listing the expected findings.
The edits are fixed strings, so the output is the same on every run; an anchor that no longer occurs
exactly once in its document stops the script.

    python benchmarks/make_edits.py        # then: conflictkit bench --dataset benchmarks/data/documents/edits/edits.yaml ...
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ROOT / "benchmarks" / "data" / "documents"


@dataclass(frozen=True)
class Edit:
    id: str
    old: str  # occurs exactly once in the document
    new: str
    kind: str | None  # expected finding: deviation / missing / added, or None (must not be flagged)
    quote: str  # in the input (deviation, added, consistent) or the reference (missing)
    note: str


EDITS = [
    Edit("drop-not", "User credentials may not be shared,", "User credentials may be shared,",
         "deviation", "User credentials may be shared", "negation dropped: sharing of credentials becomes allowed"),
    Edit("change-number", "within thirty (30) days after the invoice date", "within sixty (60) days after the invoice date",
         "deviation", "within sixty (60) days after the invoice date", "payment term 30 -> 60 days"),
    Edit("swap-party",
         "Customer may terminate this Agreement for convenience on ninety (90) days' written notice to Provider.",
         "Provider may terminate this Agreement for convenience on ninety (90) days' written notice to Customer.",
         "deviation", "Provider may terminate this Agreement for convenience", "the right to terminate for convenience moves to Provider"),
    Edit("delete-clause",
         "7.7 **Data location.** Provider shall store Customer Data only in data centres located in the United States.\n\n",
         "", "missing", "Provider shall store Customer Data only in data centres located in the United States.",
         "the data-location commitment is gone"),
    Edit("insert-clause",
         "16.8 **Counterparts.**",
         "16.8 **Non-solicitation.** During the Subscription Term and for twelve (12) months after it, neither party "
         "shall solicit for employment any employee of the other party who was directly involved in providing or "
         "receiving the Services.\n\n16.9 **Counterparts.**",
         "added", "neither party shall solicit for employment any employee of the other party",
         "a non-solicitation covenant the template does not have"),
    Edit("paraphrase",
         "A party's failure to enforce any provision is not a waiver of its right to enforce that provision later.",
         "If a party does not enforce a provision, that does not waive its right to enforce the provision later.",
         None, "If a party does not enforce a provision, that does not waive its right",
         "same meaning, reworded: must not be flagged"),
    # content edits in operative text (issue 12)
    Edit("add-list-item", "(a) sell, resell, rent or lease the Services to any third party;",
         "(a) sell, resell, rent, lease or sublicense the Services to any third party;",
         "deviation", "sell, resell, rent, lease or sublicense the Services", "'sublicense' added to the prohibited acts"),
    Edit("drop-list-item", "(d) interfere with or disrupt the integrity", "(d) interfere with the integrity",
         "deviation", "interfere with the integrity", "'disrupt' cut from the prohibited acts"),
    Edit("trigger-swap", "upon becoming aware of any such access", "upon confirming any such access",
         "deviation", "upon confirming any such access", "the duty to notify starts on confirmation, not on awareness"),
    Edit("duty-dropped", "Provider shall notify Customer without undue delay", "Provider notifies Customer without undue delay",
         "deviation", "Provider notifies Customer without undue delay", "a duty to notify becomes a description"),
    Edit("formality-dropped", "notifies Provider of the dispute in writing before the due date",
         "notifies Provider of the dispute before the due date",
         "deviation", "notifies Provider of the dispute before the due date", "'in writing' dropped from the dispute notice"),
    Edit("typo", "Except as expressly stated in this Agreement", "Expect as expressly stated in this Agreement",
         None, "Expect as expressly stated", "a typo, no change of meaning: must not be flagged"),
    # non-binding text printed with the terms: never a finding
    Edit("update-banner", "**Company template, version 3.2 (Customer paper)**",
         "**Company template, version 3.2 (Customer paper)**\n\nWe have updated this template. The new version takes "
         "effect on March 1, 2027.", None, "We have updated this template.", "an update banner: must not be flagged"),
    Edit("summary", "(e) access the Services in order to build a competing product.",
         "(e) access the Services in order to build a competing product.\n\nIn short: do not resell the Services, "
         "copy their code or use them to build a rival product.",
         None, "In short: do not resell the Services", "a plain-language summary: must not be flagged"),
    Edit("change-log", "## Signatures",
         "## Change log\n\n- 2026-11-02: Clarified the notice period for security incidents.\n\n"
         "- 2026-06-15: Added the publicity clause.\n\n## Signatures",
         None, "2026-11-02: Clarified the notice period", "a change log: must not be flagged"),
]

# German edits of benchmarks/data/documents/de/saas-vertrag.md (issue 26): the same kinds of edit as above,
# plus the German forms a judge must read: governing law and venue, "§ 10 Abs. 2" == "§ 10 Absatz 2",
# "1.000,50 EUR" == "EUR 1.000,50", "15. März 2026" == "15.03.2026", Swiss "ss" for "ß", "dreißig" == "30".
EDITS_DE = [
    Edit("drop-not", "Der Kunde darf die Zugangsdaten nicht an Dritte weitergeben",
         "Der Kunde darf die Zugangsdaten an Dritte weitergeben",
         "deviation", "Der Kunde darf die Zugangsdaten an Dritte weitergeben",
         "'darf nicht' -> 'darf': die Weitergabe der Zugangsdaten wird erlaubt"),
    Edit("change-number", "innerhalb von dreißig (30) Tagen nach Rechnungsdatum", "innerhalb von sechzig (60) Tagen nach Rechnungsdatum",
         "deviation", "innerhalb von sechzig (60) Tagen nach Rechnungsdatum", "Zahlungsziel 30 -> 60 Tage"),
    Edit("change-amount", "49,90 EUR je Monat", "59,90 EUR je Monat",
         "deviation", "59,90 EUR je Monat", "Preis je weiterem Nutzer 49,90 -> 59,90 EUR"),
    Edit("swap-party", "Der Kunde kann diesen Vertrag mit einer Frist von mindestens dreißig (30) Tagen",
         "Der Anbieter kann diesen Vertrag mit einer Frist von mindestens dreißig (30) Tagen",
         "deviation", "Der Anbieter kann diesen Vertrag mit einer Frist", "das ordentliche Kündigungsrecht wechselt zum Anbieter"),
    Edit("delete-clause",
         "(4) Der Anbieter speichert die Kundendaten ausschließlich in Rechenzentren innerhalb der Europäischen Union.\n\n",
         "", "missing", "Der Anbieter speichert die Kundendaten ausschließlich in Rechenzentren innerhalb der Europäischen Union.",
         "die Zusage zum Speicherort in der EU entfällt"),
    Edit("insert-clause", "(4) Sollte eine Bestimmung",
         "(4) Während der Vertragslaufzeit und für zwölf (12) Monate danach wird keine Partei Mitarbeiter der anderen "
         "Partei, die an der Erbringung oder Nutzung der Leistungen unmittelbar beteiligt waren, aktiv abwerben.\n\n"
         "(5) Sollte eine Bestimmung",
         "added", "wird keine Partei Mitarbeiter der anderen Partei", "ein Abwerbeverbot, das das Muster nicht enthält"),
    Edit("paraphrase",
         "Der Kunde benennt einen Ansprechpartner, der für die Abstimmung mit dem Anbieter zuständig und zu verbindlichen "
         "Entscheidungen befugt ist.",
         "Der Kunde hat einen Ansprechpartner zu benennen, der zu verbindlichen Entscheidungen befugt und für die "
         "Abstimmung mit dem Anbieter zuständig ist.",
         None, "Der Kunde hat einen Ansprechpartner zu benennen",
         "'benennt' (im Vertrag bindend) == 'hat zu benennen', Reihenfolge getauscht: must not be flagged"),
    Edit("add-list-item", "zu vermieten, zu verleasen oder in sonstiger Weise",
         "zu vermieten, zu verleasen, unterzulizenzieren oder in sonstiger Weise",
         "deviation", "zu vermieten, zu verleasen, unterzulizenzieren", "'unterzulizenzieren' zu den verbotenen Handlungen hinzugefügt"),
    Edit("drop-list-item", "deren Funktionsfähigkeit zu stören oder zu beeinträchtigen",
         "deren Funktionsfähigkeit zu beeinträchtigen",
         "deviation", "deren Funktionsfähigkeit zu beeinträchtigen", "'zu stören' aus den verbotenen Handlungen gestrichen"),
    Edit("trigger-swap", "sobald er Kenntnis von einem unbefugten Zugriff auf Kundendaten erlangt",
         "sobald er einen unbefugten Zugriff auf Kundendaten bestätigt hat",
         "deviation", "sobald er einen unbefugten Zugriff auf Kundendaten bestätigt hat",
         "die Benachrichtigungspflicht beginnt erst mit der Bestätigung, nicht mit der Kenntnis"),
    Edit("duty-dropped", "Der Anbieter sichert die Kundendaten täglich",
         "Der Anbieter sichert die Kundendaten nach seiner derzeitigen Praxis täglich",
         "deviation", "Der Anbieter sichert die Kundendaten nach seiner derzeitigen Praxis täglich",
         "eine Pflicht (Indikativ im Vertrag) wird zur Beschreibung der derzeitigen Praxis"),
    Edit("formality-dropped", "muss er dies dem Anbieter schriftlich vor Fälligkeit mitteilen",
         "muss er dies dem Anbieter vor Fälligkeit mitteilen",
         "deviation", "muss er dies dem Anbieter vor Fälligkeit mitteilen", "'schriftlich' bei der Rechnungsbeanstandung gestrichen"),
    Edit("fault-narrowed", "die er vorsätzlich oder grob fahrlässig verursacht hat", "die er vorsätzlich verursacht hat",
         "deviation", "die er vorsätzlich verursacht hat", "grobe Fahrlässigkeit aus der unbeschränkten Haftung gestrichen"),
    Edit("modal-swap", "Der Anbieter ist berechtigt, die Plattform weiterzuentwickeln",
         "Der Anbieter ist verpflichtet, die Plattform weiterzuentwickeln",
         "deviation", "Der Anbieter ist verpflichtet, die Plattform weiterzuentwickeln", "'ist berechtigt' -> 'ist verpflichtet'"),
    Edit("governing-law", "Dieser Vertrag unterliegt deutschem Recht", "Dieser Vertrag unterliegt englischem Recht",
         "deviation", "Dieser Vertrag unterliegt englischem Recht", "deutsches -> englisches Recht"),
    Edit("venue", "im Zusammenhang mit diesem Vertrag ist München.", "im Zusammenhang mit diesem Vertrag ist Hamburg.",
         "deviation", "im Zusammenhang mit diesem Vertrag ist Hamburg", "Gerichtsstand München -> Hamburg"),
    Edit("typo", "finden keine Anwendung", "finden keine Anwedung",
         None, "finden keine Anwedung", "ein Tippfehler, keine Bedeutungsänderung: must not be flagged"),
    Edit("format-reference", "Die Haftungsbeschränkungen nach § 10 Abs. 2", "Die Haftungsbeschränkungen nach § 10 Absatz 2",
         None, "Die Haftungsbeschränkungen nach § 10 Absatz 2", "'Abs.' ausgeschrieben: must not be flagged"),
    Edit("format-amount", "Grundgebühr von 1.000,50 EUR, die", "Grundgebühr von EUR 1.000,50, die",
         None, "monatliche Grundgebühr von EUR 1.000,50", "Währungscode vor dem Betrag: must not be flagged"),
    Edit("format-date", "ab dem 15. März 2026 in der jeweils", "ab dem 15.03.2026 in der jeweils",
         None, "die Plattform ab dem 15.03.2026", "Datum numerisch geschrieben: must not be flagged"),
    Edit("number-digits", "für einen Zeitraum von dreißig Tagen zum Export", "für einen Zeitraum von 30 Tagen zum Export",
         None, "für einen Zeitraum von 30 Tagen zum Export", "'dreißig' in Ziffern: must not be flagged"),
    Edit("swiss-spelling", "ergibt sich abschließend aus diesem Vertrag", "ergibt sich abschliessend aus diesem Vertrag",
         None, "ergibt sich abschliessend aus diesem Vertrag", "Schweizer Schreibung 'ss' für 'ß': must not be flagged"),
    Edit("illustration", "insbesondere Schadsoftware oder unerwünschte Werbung.",
         "insbesondere Schadsoftware, Phishing-Nachrichten oder unerwünschte Werbung.",
         None, "insbesondere Schadsoftware, Phishing-Nachrichten oder unerwünschte Werbung",
         "ein weiteres Beispiel nach 'insbesondere': must not be flagged"),
    Edit("pointer", "nach Maßgabe der Ziffer 3.1 der Anlage 2.",
         "nach Maßgabe der Ziffer 3.1 der Anlage 2. Einzelheiten zur Messung finden Sie in der Service-Level-Vereinbarung.",
         None, "Einzelheiten zur Messung finden Sie in der Service-Level-Vereinbarung.",
         "ein Verweis auf eine Anlage, der nichts regelt: must not be flagged"),
    # text printed with the terms that binds no one: never a finding
    Edit("update-banner", "**Vertragsmuster des Anbieters, Fassung 2.0 (Stand: 1. März 2026)**",
         "**Vertragsmuster des Anbieters, Fassung 2.0 (Stand: 1. März 2026)**\n\nWir haben dieses Vertragsmuster "
         "aktualisiert. Die neue Fassung gilt ab dem 1. März 2027.",
         None, "Wir haben dieses Vertragsmuster aktualisiert.", "ein Aktualisierungshinweis: must not be flagged"),
    Edit("summary", "und hat sie vor dem Zugriff Unbefugter zu schützen.",
         "und hat sie vor dem Zugriff Unbefugter zu schützen.\n\nKurz gesagt: Die Plattform nicht weitervermieten, "
         "nicht kopieren und nicht missbrauchen.",
         None, "Kurz gesagt: Die Plattform nicht weitervermieten", "eine Kurzfassung in einfacher Sprache: must not be flagged"),
    Edit("change-log", "## Unterschriften",
         "## Änderungsverlauf\n\n- 02.11.2026: Kündigungsfrist in § 11 präzisiert.\n\n"
         "- 15.06.2026: Regelung zur Datensicherung ergänzt.\n\n## Unterschriften",
         None, "02.11.2026: Kündigungsfrist in § 11 präzisiert.", "ein Änderungsverlauf: must not be flagged"),
]


@dataclass(frozen=True)
class EditSet:
    """Edits of one document, and the folder their pairs and manifest are written to."""

    source: Path
    out: Path
    edits: list[Edit]


def apply(text: str, edits: list[Edit], source: Path) -> str:
    for edit in edits:
        count = text.count(edit.old)
        if count != 1:
            sys.exit(f"make_edits: anchor of {edit.id!r} occurs {count} times in {source.name}; update the edit")
        text = text.replace(edit.old, edit.new)
    return text


def entry(pair_id: str, input_name: str, edits: list[Edit], edit_set: EditSet) -> dict:
    reference = Path(os.path.relpath(edit_set.source, edit_set.out))
    item: dict = {"id": pair_id, "reference": reference.as_posix(), "input": input_name}
    item["expected"] = [{"kind": e.kind, "quote": e.quote, "note": f"{e.id}: {e.note}"} for e in edits if e.kind]
    item["consistent"] = [{"quote": e.quote, "note": f"{e.id}: {e.note}"} for e in edits if not e.kind]
    return item


def build(edit_set: EditSet) -> int:
    """Write one edited file per edit, one with every edit, and the manifest; the number of pairs."""
    original = edit_set.source.read_text(encoding="utf-8")
    edit_set.out.mkdir(parents=True, exist_ok=True)
    pairs = []
    for edit in edit_set.edits:
        name = f"{edit.id}.md"
        (edit_set.out / name).write_text(apply(original, [edit], edit_set.source), encoding="utf-8")
        pairs.append(entry(edit.id, name, [edit], edit_set))
    (edit_set.out / "all-edits.md").write_text(apply(original, edit_set.edits, edit_set.source), encoding="utf-8")
    pairs.append(entry("all-edits", "all-edits.md", edit_set.edits, edit_set))
    header = (
        f"# Generated by benchmarks/make_edits.py from {edit_set.source.relative_to(ROOT).as_posix()}: do not edit by hand.\n"
        "# One pair per scripted edit, and one with every edit applied.\n"
    )
    manifest = header + yaml.safe_dump({"pairs": pairs}, sort_keys=False, width=120, allow_unicode=True)
    (edit_set.out / "edits.yaml").write_text(manifest, encoding="utf-8")
    return len(pairs)


SETS = [
    EditSet(ROOT / "samples" / "reference-saas-agreement.md", DOCUMENTS / "edits", EDITS),
    EditSet(DOCUMENTS / "de" / "saas-vertrag.md", DOCUMENTS / "de" / "edits", EDITS_DE),
]


def main() -> None:
    for edit_set in SETS:
        count = build(edit_set)
        print(f"wrote {count} pairs to {edit_set.out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
