"""Around the pipeline: gold sets (gold, averitec), backtests of the judges against
human labels (backtest, metrics), and score stability (stability)."""
