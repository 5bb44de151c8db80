"""Around the pipeline: the stewards' audit queue and rulings (steward), and
re-scoring a published report after a ruling (rescore)."""
