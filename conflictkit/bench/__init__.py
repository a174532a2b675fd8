"""Benchmarks: datasets as plain files, metrics as plain dicts, a harness, reports and calibration.

``conflictkit bench`` and ``conflictkit calibrate`` are the command-line faces of this package.
"""
