"""Built-in segmenters: split a document into clauses with spans in the original text.

``rules`` (:mod:`conflictkit.segmenters.rules`) handles markdown and plain-text contracts with no model.
"""
