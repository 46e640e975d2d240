"""What the scores say beyond pass/fail: the statistics (CI95, paired tests, Holm) and the
rule engine's root causes and actions. The pass/fail itself is ``ragpipe.core.verdict``."""
