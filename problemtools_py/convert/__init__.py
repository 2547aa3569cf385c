"""Packages moved between versions and judges: reproducible zips (problem2zip)."""
