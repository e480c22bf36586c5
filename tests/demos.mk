# built-in demo models (src/demos) and `stiction demo`, against the benchmark reference numbers.
