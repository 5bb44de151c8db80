"""The trained steering screen (hashed character and word n-grams, NB-scaled logistic regression;
one model, or two run together, ``Screen``)."""

from reliability_core.verdicts.steering_screen.model import (
    Screen,
    ScreenModel,
    WindowScore,
    default_model,
    default_screen,
    load_model,
    load_screen,
    score_windows,
)

__all__ = [
    "Screen",
    "ScreenModel",
    "WindowScore",
    "default_model",
    "default_screen",
    "load_model",
    "load_screen",
    "score_windows",
]
