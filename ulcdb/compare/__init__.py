"""Comparing systems: paired significance tests (sacrebleu's), clusters and buckets."""

from ulcdb.compare.buckets import BUCKETS, BucketRow, bucket_scores, run_by
from ulcdb.compare.data import CompareError
from ulcdb.compare.run import CompareReport, CompareTask, PairResult, Result, run
from ulcdb.compare.where import WhereError, where_segments

__all__ = ["BUCKETS", "BucketRow", "CompareError", "CompareReport", "CompareTask", "PairResult",
           "Result", "WhereError", "bucket_scores", "run", "run_by", "where_segments"]
