"""Where scores become a verdict: aggregates with confidence intervals, then the rule engine."""
