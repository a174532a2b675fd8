"""PDF documents for conflictkit: the ``pdf`` loader (pypdfium2)."""
