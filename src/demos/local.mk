# Built-in demo models (C, public API only; they double as embedding examples).
