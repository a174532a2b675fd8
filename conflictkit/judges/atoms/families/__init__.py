"""The atom families of the legal-atoms judge: one module each, discovered by :func:`conflictkit.judges.atoms.family.families`."""
