"""Word documents for conflictkit: the ``docx`` loader and the ``report.docx`` writer."""
