"""Fixtures for the playbook tests: a small template of our own, a playbook citing it, a fast engine."""

from __future__ import annotations

import pytest

TEMPLATE = """# Services Agreement

## 1. Payment

1.1 Invoices. Customer shall pay each undisputed invoice within thirty (30) days after the invoice date.

1.2 Late payment. Overdue amounts accrue interest at one percent (1%) per month.

## 2. Termination

2.1 Cure. Either party may terminate this Agreement if the other party fails to cure a material breach within thirty (30) days after notice.

2.2 Deletion. Upon termination, Provider shall delete Customer Data within sixty (60) days.

## 3. Indemnities

3.1 By Provider. Provider shall indemnify, defend and hold harmless Customer against any third-party claim that the Services infringe its intellectual property.

3.2 By Customer. Customer shall indemnify, defend and hold harmless Provider against any third-party claim that Customer Data infringes its intellectual property.

## 4. General

4.1 Governing law. This Agreement is governed by the laws of the State of Delaware.

4.2 Notices. Notices must be in writing and are effective on receipt.
"""

PLAYBOOK = """\
version: 1
title: Services agreement, customer side
template: template.md
subjects:
  - subject: Payment
    guidance: Cash flow matters.
    positions:
      - id: payment-term
        title: Payment term
        severity: medium
        preferred: {clause: "1.1"}
        fallbacks:
          - edits: [{replace: "thirty (30) days", with: "forty-five (45) days"}]
          - edits: [{replace: "thirty (30) days", with: "sixty (60) days"}]
        red_lines:
          - rule: {below: "30 days"}
        guidance: Never shorter than 30 days.
  - subject: Termination
    positions:
      - id: cure
        title: Cure period
        severity: high
        preferred: {clause: "2.1"}
        red_lines:
          - edits: [{replace: "Either party may terminate", with: "Provider may terminate"}]
            note: termination must stay mutual
      - id: deletion
        title: Deletion of data
        preferred: {clause: "2.2"}
        fallbacks:
          - edits: [{replace: "sixty (60) days", with: "ninety (90) days"}]
        red_lines:
          - rule: {above: "90 days"}
  - subject: Liability
    positions:
      - id: provider-indemnity
        title: Provider's indemnity
        severity: high
        preferred: {clause: "3.1"}
  - subject: General
    positions:
      - id: governing-law
        title: Governing law
        preferred: {clause: "4.1"}
        fallbacks:
          - edits: [{replace: "the State of Delaware", with: "the State of New York"}]
        red_lines:
          - rule: {governing_law_other_than: [Delaware, New York]}
      - id: non-solicitation
        title: No solicitation
        severity: low
        missing: optional
        preferred: "Non-solicitation. For twelve (12) months, neither party shall solicit the other party's employees."
"""


@pytest.fixture
def engine(fast_config):
    from conflictkit.engine import Engine

    return Engine(fast_config)


@pytest.fixture
def playbook_dir(tmp_path):
    (tmp_path / "template.md").write_text(TEMPLATE, encoding="utf-8")
    (tmp_path / "playbook.yaml").write_text(PLAYBOOK, encoding="utf-8")
    return tmp_path


@pytest.fixture
def playbook(playbook_dir, engine):
    from conflictkit.playbook.load import load_playbook

    return load_playbook(playbook_dir / "playbook.yaml", engine.clauses)


@pytest.fixture
def review_text(engine, playbook):
    """Review a draft given as text: the review document."""
    from conflictkit.loaders import document_from_text
    from conflictkit.playbook.review import review

    def run(text: str, name: str = "draft.md"):
        return review(engine, playbook, document_from_text(text, name))

    return run
