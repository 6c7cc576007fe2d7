"""`ulcdb report OUT.html`: one self-contained HTML file to share a test bed's results --
the systems compared with intervals and clusters, per-bucket and word-level comparisons, the
meta-evaluation against human judgments, and the signature of every number.

:mod:`.gather` computes with the library every command uses (so the report's numbers are
`ulcdb compare`'s and `ulcdb meta`'s); :mod:`.page` writes the file, scripts and data inline.
"""
