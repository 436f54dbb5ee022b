"""Data stages: fetching and verifying raw inputs, and parsing them into canonical tables."""
