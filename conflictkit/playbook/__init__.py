"""Playbooks: a firm's positions per subject, and a review of a draft against them.

- :mod:`~conflictkit.playbook.model`: the YAML format (pydantic models; the JSON Schema comes from them);
- :mod:`~conflictkit.playbook.load`: reading a playbook, every text resolved and checked (:func:`load_playbook`);
- :mod:`~conflictkit.playbook.rules`: red lines stated as rules, read by the legal-atoms extractor;
- :mod:`~conflictkit.playbook.review`: the review (:func:`review`), on the engine's own stages;
- :mod:`~conflictkit.playbook.verdicts`: from the judge's verdicts to a verdict with probabilities;
- :mod:`~conflictkit.playbook.output`: review.json's models;
- :mod:`~conflictkit.playbook.document`, :mod:`~conflictkit.playbook.render`, :mod:`~conflictkit.playbook.html`,
  :mod:`~conflictkit.playbook.files`, :mod:`~conflictkit.playbook.write`: the playbook and the review for people.
"""

from conflictkit.playbook.load import Playbook, PlaybookError, load_playbook, playbook_from_bytes
from conflictkit.playbook.review import ReviewResult, review

__all__ = ["Playbook", "PlaybookError", "ReviewResult", "load_playbook", "playbook_from_bytes", "review"]
