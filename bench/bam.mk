# BAM rollout bench.
