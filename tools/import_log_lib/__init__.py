"""The readers, frame conversions and CSV writer behind tools/import_log."""
