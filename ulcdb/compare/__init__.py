"""Comparing systems: paired significance tests (sacrebleu's), clusters and buckets."""

from ulcdb.compare.buckets import BUCKETS, run_by
from ulcdb.compare.data import CompareError
from ulcdb.compare.run import CompareReport, CompareTask, PairResult, Result, run
from ulcdb.compare.where import WhereError, where_segments

__all__ = ["BUCKETS", "CompareError", "CompareReport", "CompareTask", "PairResult", "Result",
           "WhereError", "run", "run_by", "where_segments"]
