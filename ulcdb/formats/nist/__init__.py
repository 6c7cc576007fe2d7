"""NIST MetricsMATR: SGML test beds, .scr score files, assessment CSVs."""
