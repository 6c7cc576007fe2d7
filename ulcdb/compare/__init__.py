"""Comparing systems: paired significance tests (sacrebleu's), clusters and buckets."""

from ulcdb.compare.buckets import BUCKETS, BucketRow, bucket_scores, where_segments
from ulcdb.compare.data import CompareError
from ulcdb.compare.run import CompareReport, CompareTask, PairResult, Result, run

__all__ = ["BUCKETS", "BucketRow", "CompareError", "CompareReport", "CompareTask", "PairResult",
           "Result", "bucket_scores", "run", "where_segments"]
