"""Built-in filters: flag non-operative clauses (headings, signatures, blank form fields, page artefacts).

``rules`` (:mod:`conflictkit.filters.rules`) needs no model.
"""
