"""The trained steering screen (hashed character and word n-grams, NB-scaled logistic regression)."""

from reliability_core.verdicts.steering_screen.model import (
    ScreenModel,
    WindowScore,
    default_model,
    load_model,
    score_windows,
)

__all__ = ["ScreenModel", "WindowScore", "default_model", "load_model", "score_windows"]
