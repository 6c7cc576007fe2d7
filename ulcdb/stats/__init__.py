"""Statistics as pure vector maths that never touch a file or the store: correlation
coefficients, bootstrap replicates, and ports of sacrebleu's and mt-metrics-eval's tests."""
