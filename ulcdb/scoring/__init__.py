"""Scoring: resolve what to score (sets, selections), compute the missing scores on local
processes or Ray, and read them back as matrices and rankings."""
